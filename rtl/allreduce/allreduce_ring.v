// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Simulation top: RANKS all-reduce ranks in a ring behind one register bus with an ID block
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Windows of 4 KiB: the ID block at 0, rank i at (i + 1) * 0x1000, chained in that order. Rank i
// sends to rank (i + 1) mod RANKS through a small FIFO, the link. The host ports reach every
// rank's buffer at once (same beat address, one data word per rank) while no collective runs.
module allreduce_ring #(
    // Ranks in the ring (2 to 16)
    parameter RANKS = 4,
    // Width of a beat on the ring (a power-of-two multiple of 32)
    parameter DATA_WIDTH = 512,
    // Beats each rank's buffer holds (a power of two)
    parameter BUFFER_BEATS = 1024,
    // First 32 bits of the git commit, stamped by the build
    parameter [31:0] GIT_HASH = 32'd0,
    // 1 when the working tree had uncommitted changes at build time
    parameter GIT_DIRTY = 0
) (
    input  wire                            clk,
    // Resets the whole ring, links included
    input  wire                            rst,
    // Resets rank i alone, as its node rebooting would; the links to and from it carry on
    input  wire [RANKS-1:0]                rank_rst,

    input  wire [16:0]                     s_axil_awaddr,
    input  wire [2:0]                      s_axil_awprot,
    input  wire                            s_axil_awvalid,
    output wire                            s_axil_awready,
    input  wire [31:0]                     s_axil_wdata,
    input  wire [3:0]                      s_axil_wstrb,
    input  wire                            s_axil_wvalid,
    output wire                            s_axil_wready,
    output wire [1:0]                      s_axil_bresp,
    output wire                            s_axil_bvalid,
    input  wire                            s_axil_bready,
    input  wire [16:0]                     s_axil_araddr,
    input  wire [2:0]                      s_axil_arprot,
    input  wire                            s_axil_arvalid,
    output wire                            s_axil_arready,
    output wire [31:0]                     s_axil_rdata,
    output wire [1:0]                      s_axil_rresp,
    output wire                            s_axil_rvalid,
    input  wire                            s_axil_rready,

    input  wire [RANKS-1:0]                host_write_enable,
    input  wire [$clog2(BUFFER_BEATS)-1:0] host_address,
    input  wire [RANKS*DATA_WIDTH-1:0]     host_write_data,
    output wire [RANKS*DATA_WIDTH-1:0]     host_read_data
);

localparam KEEP_WIDTH = DATA_WIDTH / 8;
localparam WINDOWS = RANKS + 1;
localparam WINDOW_ADDR_WIDTH = 12;

initial begin
    if (RANKS < 2 || RANKS > 16) begin
        $error("Error: RANKS must be 2 to 16 (instance %m)");
        $finish;
    end
end

wire [WINDOWS*WINDOW_ADDR_WIDTH-1:0] window_awaddr, window_araddr;
wire [WINDOWS*3-1:0]  window_awprot, window_arprot;
wire [WINDOWS-1:0]    window_awvalid, window_awready, window_wvalid, window_wready;
wire [WINDOWS*32-1:0] window_wdata, window_rdata;
wire [WINDOWS*4-1:0]  window_wstrb;
wire [WINDOWS*2-1:0]  window_bresp, window_rresp;
wire [WINDOWS-1:0]    window_bvalid, window_bready, window_arvalid, window_arready, window_rvalid, window_rready;

axil_decoder #(
    .M_COUNT(WINDOWS),
    .ADDR_WIDTH(17),
    .WINDOW_ADDR_WIDTH(WINDOW_ADDR_WIDTH)
) decoder_inst (
    .clk(clk), .rst(rst),
    .s_axil_awaddr(s_axil_awaddr), .s_axil_awprot(s_axil_awprot), .s_axil_awvalid(s_axil_awvalid),
    .s_axil_awready(s_axil_awready), .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb),
    .s_axil_wvalid(s_axil_wvalid), .s_axil_wready(s_axil_wready), .s_axil_bresp(s_axil_bresp),
    .s_axil_bvalid(s_axil_bvalid), .s_axil_bready(s_axil_bready), .s_axil_araddr(s_axil_araddr),
    .s_axil_arprot(s_axil_arprot), .s_axil_arvalid(s_axil_arvalid), .s_axil_arready(s_axil_arready),
    .s_axil_rdata(s_axil_rdata), .s_axil_rresp(s_axil_rresp), .s_axil_rvalid(s_axil_rvalid),
    .s_axil_rready(s_axil_rready),
    .m_axil_awaddr(window_awaddr), .m_axil_awprot(window_awprot), .m_axil_awvalid(window_awvalid),
    .m_axil_awready(window_awready), .m_axil_wdata(window_wdata), .m_axil_wstrb(window_wstrb),
    .m_axil_wvalid(window_wvalid), .m_axil_wready(window_wready), .m_axil_bresp(window_bresp),
    .m_axil_bvalid(window_bvalid), .m_axil_bready(window_bready), .m_axil_araddr(window_araddr),
    .m_axil_arprot(window_arprot), .m_axil_arvalid(window_arvalid), .m_axil_arready(window_arready),
    .m_axil_rdata(window_rdata), .m_axil_rresp(window_rresp), .m_axil_rvalid(window_rvalid),
    .m_axil_rready(window_rready)
);

id_block #(
    .NEXT_BLOCK_ADDRESS(32'h1000),
    .GIT_HASH(GIT_HASH),
    .GIT_DIRTY(GIT_DIRTY),
    .SIMULATION(1),
    .STREAM_BYTES(KEEP_WIDTH),
    .CLOCK_FREQ_KHZ(250000)
) id_block_inst (
    .clk(clk), .rst(rst),
    .s_axil_awaddr(window_awaddr[0 +: WINDOW_ADDR_WIDTH]), .s_axil_awprot(window_awprot[0 +: 3]),
    .s_axil_awvalid(window_awvalid[0]), .s_axil_awready(window_awready[0]),
    .s_axil_wdata(window_wdata[0 +: 32]), .s_axil_wstrb(window_wstrb[0 +: 4]),
    .s_axil_wvalid(window_wvalid[0]), .s_axil_wready(window_wready[0]),
    .s_axil_bresp(window_bresp[0 +: 2]), .s_axil_bvalid(window_bvalid[0]), .s_axil_bready(window_bready[0]),
    .s_axil_araddr(window_araddr[0 +: WINDOW_ADDR_WIDTH]), .s_axil_arprot(window_arprot[0 +: 3]),
    .s_axil_arvalid(window_arvalid[0]), .s_axil_arready(window_arready[0]),
    .s_axil_rdata(window_rdata[0 +: 32]), .s_axil_rresp(window_rresp[0 +: 2]),
    .s_axil_rvalid(window_rvalid[0]), .s_axil_rready(window_rready[0])
);

wire [RANKS*DATA_WIDTH-1:0] tx_tdata, rx_tdata;
wire [RANKS*KEEP_WIDTH-1:0] tx_tkeep, rx_tkeep;
wire [RANKS-1:0]            tx_tvalid, tx_tready, tx_tlast, rx_tvalid, rx_tready, rx_tlast;

genvar index;
generate
    for (index = 0; index < RANKS; index = index + 1) begin : ranks
        localparam WINDOW = index + 1;
        localparam NEXT_RANK = (index + 1) % RANKS;
        localparam [31:0] NEXT_ADDRESS = index + 1 == RANKS ? 32'd0 : (index + 2) * 32'h1000;

        allreduce_rank #(
            .DATA_WIDTH(DATA_WIDTH),
            .BUFFER_BEATS(BUFFER_BEATS),
            .MAX_RANKS(16),
            .NEXT_BLOCK_ADDRESS(NEXT_ADDRESS)
        ) rank_inst (
            .clk(clk), .rst(rst || rank_rst[index]),
            .s_axil_awaddr(window_awaddr[WINDOW*WINDOW_ADDR_WIDTH +: WINDOW_ADDR_WIDTH]),
            .s_axil_awprot(window_awprot[WINDOW*3 +: 3]),
            .s_axil_awvalid(window_awvalid[WINDOW]), .s_axil_awready(window_awready[WINDOW]),
            .s_axil_wdata(window_wdata[WINDOW*32 +: 32]), .s_axil_wstrb(window_wstrb[WINDOW*4 +: 4]),
            .s_axil_wvalid(window_wvalid[WINDOW]), .s_axil_wready(window_wready[WINDOW]),
            .s_axil_bresp(window_bresp[WINDOW*2 +: 2]), .s_axil_bvalid(window_bvalid[WINDOW]),
            .s_axil_bready(window_bready[WINDOW]),
            .s_axil_araddr(window_araddr[WINDOW*WINDOW_ADDR_WIDTH +: WINDOW_ADDR_WIDTH]),
            .s_axil_arprot(window_arprot[WINDOW*3 +: 3]),
            .s_axil_arvalid(window_arvalid[WINDOW]), .s_axil_arready(window_arready[WINDOW]),
            .s_axil_rdata(window_rdata[WINDOW*32 +: 32]), .s_axil_rresp(window_rresp[WINDOW*2 +: 2]),
            .s_axil_rvalid(window_rvalid[WINDOW]), .s_axil_rready(window_rready[WINDOW]),
            .m_axis_tx_tdata(tx_tdata[index*DATA_WIDTH +: DATA_WIDTH]),
            .m_axis_tx_tkeep(tx_tkeep[index*KEEP_WIDTH +: KEEP_WIDTH]),
            .m_axis_tx_tvalid(tx_tvalid[index]), .m_axis_tx_tready(tx_tready[index]),
            .m_axis_tx_tlast(tx_tlast[index]),
            .s_axis_rx_tdata(rx_tdata[index*DATA_WIDTH +: DATA_WIDTH]),
            .s_axis_rx_tkeep(rx_tkeep[index*KEEP_WIDTH +: KEEP_WIDTH]),
            .s_axis_rx_tvalid(rx_tvalid[index]), .s_axis_rx_tready(rx_tready[index]),
            .s_axis_rx_tlast(rx_tlast[index]),
            .host_write_enable(host_write_enable[index]),
            .host_address(host_address),
            .host_write_data(host_write_data[index*DATA_WIDTH +: DATA_WIDTH]),
            .host_read_data(host_read_data[index*DATA_WIDTH +: DATA_WIDTH])
        );

        // The link from this rank to the next: a short FIFO, as a serialiser and cable would add.
        axis_fifo #(
            .DEPTH(16),
            .DATA_WIDTH(DATA_WIDTH),
            .KEEP_WIDTH(KEEP_WIDTH),
            .USER_WIDTH(1)
        ) link_inst (
            .clk(clk), .rst(rst),
            .s_axis_tdata(tx_tdata[index*DATA_WIDTH +: DATA_WIDTH]),
            .s_axis_tkeep(tx_tkeep[index*KEEP_WIDTH +: KEEP_WIDTH]),
            .s_axis_tvalid(tx_tvalid[index]), .s_axis_tready(tx_tready[index]),
            .s_axis_tlast(tx_tlast[index]), .s_axis_tuser(1'b0),
            .m_axis_tdata(rx_tdata[NEXT_RANK*DATA_WIDTH +: DATA_WIDTH]),
            .m_axis_tkeep(rx_tkeep[NEXT_RANK*KEEP_WIDTH +: KEEP_WIDTH]),
            .m_axis_tvalid(rx_tvalid[NEXT_RANK]), .m_axis_tready(rx_tready[NEXT_RANK]),
            .m_axis_tlast(rx_tlast[NEXT_RANK]), .m_axis_tuser(),
            .status_good_frame(), .status_bad_frame(), .status_oversize_frame()
        );
    end
endgenerate

endmodule

`resetall
