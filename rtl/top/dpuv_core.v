// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// dpuv core top: register bus with ID block and block chain, plus a measured stream loopback
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The loopback (s_axis -> packet FIFO -> m_axis) is the foundation's datapath under test: it
// exercises the common blocks and the counter path that every engine will hang off this bus.
module dpuv_core #(
    // Width of the loopback stream's tdata in bits
    parameter DATA_WIDTH = 64,
    // Beats the loopback FIFO holds (a power of two); longer frames are dropped and counted
    parameter LOOPBACK_FIFO_DEPTH = 64,
    // First 32 bits of the git commit, stamped by the build
    parameter [31:0] GIT_HASH = 32'd0,
    // 1 when the working tree had uncommitted changes at build time
    parameter GIT_DIRTY = 0,
    // 1 in a simulation build, 0 in a board build
    parameter SIMULATION = 1,
    // Nominal frequency of clk in kHz
    parameter CLOCK_FREQ_KHZ = 250000,
    // Byte address of the block that follows this core's blocks in the chain (0: the chain ends here)
    parameter [31:0] CHAIN_NEXT_ADDRESS = 32'd0
) (
    input  wire                    clk,
    input  wire                    rst,

    input  wire [15:0]             s_axil_awaddr,
    input  wire [2:0]              s_axil_awprot,
    input  wire                    s_axil_awvalid,
    output wire                    s_axil_awready,
    input  wire [31:0]             s_axil_wdata,
    input  wire [3:0]              s_axil_wstrb,
    input  wire                    s_axil_wvalid,
    output wire                    s_axil_wready,
    output wire [1:0]              s_axil_bresp,
    output wire                    s_axil_bvalid,
    input  wire                    s_axil_bready,
    input  wire [15:0]             s_axil_araddr,
    input  wire [2:0]              s_axil_arprot,
    input  wire                    s_axil_arvalid,
    output wire                    s_axil_arready,
    output wire [31:0]             s_axil_rdata,
    output wire [1:0]              s_axil_rresp,
    output wire                    s_axil_rvalid,
    input  wire                    s_axil_rready,

    // tuser[0] on the last beat marks the frame bad: it is dropped, never delivered
    input  wire [DATA_WIDTH-1:0]   s_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0] s_axis_tkeep,
    input  wire                    s_axis_tvalid,
    output wire                    s_axis_tready,
    input  wire                    s_axis_tlast,
    input  wire                    s_axis_tuser,

    output wire [DATA_WIDTH-1:0]   m_axis_tdata,
    output wire [DATA_WIDTH/8-1:0] m_axis_tkeep,
    output wire                    m_axis_tvalid,
    input  wire                    m_axis_tready,
    output wire                    m_axis_tlast,
    output wire                    m_axis_tuser
);

localparam KEEP_WIDTH = DATA_WIDTH / 8;
localparam BLOCK_COUNT = 2;
localparam WINDOW_ADDR_WIDTH = 12;
localparam [31:0] PERF_BLOCK_ADDRESS = 32'h1000;
localparam [31:0] SOURCE_LOOPBACK = 32'd1;

wire [BLOCK_COUNT*WINDOW_ADDR_WIDTH-1:0] block_awaddr, block_araddr;
wire [BLOCK_COUNT*3-1:0]  block_awprot, block_arprot;
wire [BLOCK_COUNT-1:0]    block_awvalid, block_awready, block_wvalid, block_wready;
wire [BLOCK_COUNT*32-1:0] block_wdata, block_rdata;
wire [BLOCK_COUNT*4-1:0]  block_wstrb;
wire [BLOCK_COUNT*2-1:0]  block_bresp, block_rresp;
wire [BLOCK_COUNT-1:0]    block_bvalid, block_bready, block_arvalid, block_arready, block_rvalid, block_rready;

axil_decoder #(
    .M_COUNT(BLOCK_COUNT),
    .ADDR_WIDTH(16),
    .WINDOW_ADDR_WIDTH(WINDOW_ADDR_WIDTH)
) decoder_inst (
    .clk(clk),
    .rst(rst),
    .s_axil_awaddr(s_axil_awaddr),
    .s_axil_awprot(s_axil_awprot),
    .s_axil_awvalid(s_axil_awvalid),
    .s_axil_awready(s_axil_awready),
    .s_axil_wdata(s_axil_wdata),
    .s_axil_wstrb(s_axil_wstrb),
    .s_axil_wvalid(s_axil_wvalid),
    .s_axil_wready(s_axil_wready),
    .s_axil_bresp(s_axil_bresp),
    .s_axil_bvalid(s_axil_bvalid),
    .s_axil_bready(s_axil_bready),
    .s_axil_araddr(s_axil_araddr),
    .s_axil_arprot(s_axil_arprot),
    .s_axil_arvalid(s_axil_arvalid),
    .s_axil_arready(s_axil_arready),
    .s_axil_rdata(s_axil_rdata),
    .s_axil_rresp(s_axil_rresp),
    .s_axil_rvalid(s_axil_rvalid),
    .s_axil_rready(s_axil_rready),
    .m_axil_awaddr(block_awaddr),
    .m_axil_awprot(block_awprot),
    .m_axil_awvalid(block_awvalid),
    .m_axil_awready(block_awready),
    .m_axil_wdata(block_wdata),
    .m_axil_wstrb(block_wstrb),
    .m_axil_wvalid(block_wvalid),
    .m_axil_wready(block_wready),
    .m_axil_bresp(block_bresp),
    .m_axil_bvalid(block_bvalid),
    .m_axil_bready(block_bready),
    .m_axil_araddr(block_araddr),
    .m_axil_arprot(block_arprot),
    .m_axil_arvalid(block_arvalid),
    .m_axil_arready(block_arready),
    .m_axil_rdata(block_rdata),
    .m_axil_rresp(block_rresp),
    .m_axil_rvalid(block_rvalid),
    .m_axil_rready(block_rready)
);

id_block #(
    .NEXT_BLOCK_ADDRESS(PERF_BLOCK_ADDRESS),
    .GIT_HASH(GIT_HASH),
    .GIT_DIRTY(GIT_DIRTY),
    .SIMULATION(SIMULATION),
    .STREAM_BYTES(KEEP_WIDTH),
    .CLOCK_FREQ_KHZ(CLOCK_FREQ_KHZ)
) id_block_inst (
    .clk(clk),
    .rst(rst),
    .s_axil_awaddr(block_awaddr[0*WINDOW_ADDR_WIDTH +: WINDOW_ADDR_WIDTH]),
    .s_axil_awprot(block_awprot[0*3 +: 3]),
    .s_axil_awvalid(block_awvalid[0]),
    .s_axil_awready(block_awready[0]),
    .s_axil_wdata(block_wdata[0*32 +: 32]),
    .s_axil_wstrb(block_wstrb[0*4 +: 4]),
    .s_axil_wvalid(block_wvalid[0]),
    .s_axil_wready(block_wready[0]),
    .s_axil_bresp(block_bresp[0*2 +: 2]),
    .s_axil_bvalid(block_bvalid[0]),
    .s_axil_bready(block_bready[0]),
    .s_axil_araddr(block_araddr[0*WINDOW_ADDR_WIDTH +: WINDOW_ADDR_WIDTH]),
    .s_axil_arprot(block_arprot[0*3 +: 3]),
    .s_axil_arvalid(block_arvalid[0]),
    .s_axil_arready(block_arready[0]),
    .s_axil_rdata(block_rdata[0*32 +: 32]),
    .s_axil_rresp(block_rresp[0*2 +: 2]),
    .s_axil_rvalid(block_rvalid[0]),
    .s_axil_rready(block_rready[0])
);

wire frame_committed, frame_bad, frame_oversize;

axis_fifo #(
    .DEPTH(LOOPBACK_FIFO_DEPTH),
    .DATA_WIDTH(DATA_WIDTH),
    .KEEP_WIDTH(KEEP_WIDTH),
    .USER_WIDTH(1),
    .FRAME_FIFO(1),
    .DROP_BAD_FRAME(1),
    .USER_BAD_FRAME_MASK(1)
) loopback_fifo_inst (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(s_axis_tdata),
    .s_axis_tkeep(s_axis_tkeep),
    .s_axis_tvalid(s_axis_tvalid),
    .s_axis_tready(s_axis_tready),
    .s_axis_tlast(s_axis_tlast),
    .s_axis_tuser(s_axis_tuser),
    .m_axis_tdata(m_axis_tdata),
    .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tready(m_axis_tready),
    .m_axis_tlast(m_axis_tlast),
    .m_axis_tuser(m_axis_tuser),
    .status_good_frame(frame_committed),
    .status_bad_frame(frame_bad),
    .status_oversize_frame(frame_oversize)
);

// Latency runs from a frame's commit into the FIFO to its first beat leaving.
reg output_mid_frame;
wire output_beat = m_axis_tvalid && m_axis_tready;

always @(posedge clk) begin
    if (output_beat) begin
        output_mid_frame <= !m_axis_tlast;
    end
    if (rst) begin
        output_mid_frame <= 1'b0;
    end
end

perf_block #(
    .NEXT_BLOCK_ADDRESS(CHAIN_NEXT_ADDRESS),
    .SOURCE_ID(SOURCE_LOOPBACK),
    .KEEP_WIDTH(KEEP_WIDTH),
    .LATENCY_DEPTH(LOOPBACK_FIFO_DEPTH)
) loopback_perf_inst (
    .clk(clk),
    .rst(rst),
    .s_axil_awaddr(block_awaddr[1*WINDOW_ADDR_WIDTH +: WINDOW_ADDR_WIDTH]),
    .s_axil_awprot(block_awprot[1*3 +: 3]),
    .s_axil_awvalid(block_awvalid[1]),
    .s_axil_awready(block_awready[1]),
    .s_axil_wdata(block_wdata[1*32 +: 32]),
    .s_axil_wstrb(block_wstrb[1*4 +: 4]),
    .s_axil_wvalid(block_wvalid[1]),
    .s_axil_wready(block_wready[1]),
    .s_axil_bresp(block_bresp[1*2 +: 2]),
    .s_axil_bvalid(block_bvalid[1]),
    .s_axil_bready(block_bready[1]),
    .s_axil_araddr(block_araddr[1*WINDOW_ADDR_WIDTH +: WINDOW_ADDR_WIDTH]),
    .s_axil_arprot(block_arprot[1*3 +: 3]),
    .s_axil_arvalid(block_arvalid[1]),
    .s_axil_arready(block_arready[1]),
    .s_axil_rdata(block_rdata[1*32 +: 32]),
    .s_axil_rresp(block_rresp[1*2 +: 2]),
    .s_axil_rvalid(block_rvalid[1]),
    .s_axil_rready(block_rready[1]),
    .mon_tvalid(m_axis_tvalid),
    .mon_tready(m_axis_tready),
    .mon_tlast(m_axis_tlast),
    .mon_tkeep(m_axis_tkeep),
    .event_strobe(frame_bad || frame_oversize),
    .latency_start(frame_committed),
    .latency_stop(output_beat && !output_mid_frame)
);

endmodule

`resetall
