// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Board core: the dpuv core reached over the byte-stream board link instead of a CPU bus
`resetall
`timescale 1ns / 1ps
`default_nettype none

// What a board (behind a UART) or a virtual board (behind a TCP socket) exposes: the link's
// byte streams. Behind the link: the dpuv core (ID block, counters, loopback FIFO) in the first
// 8 KiB, and a traffic generator and checker at 0x2000 that drive the core's loopback stream, so
// a bring-up can move data through the board at full clock rate with a few register writes.
// With an engine area (ENGINE_AREA), the engines a board build carries sit at 0x40000 behind the
// same link, their blocks chained on from the traffic block's; a build without the self-test
// (SELF_TEST 0) keeps only the ID block at 0, chained straight on to them.
module board_core #(
    // Width of the loopback stream's tdata in bits
    parameter DATA_WIDTH = 64,
    // Cycles without a byte, inside a link frame, after which the frame is dropped
    parameter LINK_TIMEOUT_CYCLES = 4096,
    // First 32 bits of the git commit, stamped by the build
    parameter [31:0] GIT_HASH = 32'd0,
    // 1 when the working tree had uncommitted changes at build time
    parameter GIT_DIRTY = 0,
    // 1 in a simulation build, 0 in a board build
    parameter SIMULATION = 1,
    // Nominal frequency of clk in kHz
    parameter CLOCK_FREQ_KHZ = 250000,
    // The engines this build carries at 0x40000: 0 none, 1 two RDMA engines back to back, each
    // over its own memory, 2 two DPU nodes (RDMA and collective engines) back to back, 3 an
    // all-reduce ring of two ranks
    parameter ENGINE_AREA = 0,
    // 1: the self-test beside the engines (the core's counters and loopback FIFO, the traffic
    // block); 0: the board's ID block alone in front of them, for a build that needs the room
    // (the RDMA pair on an ECP5-85F: docs/bringup.md). Without an engine area it must be 1
    parameter SELF_TEST = 1
) (
    input  wire       clk,
    input  wire       rst,

    input  wire [7:0] s_link_tdata,
    input  wire       s_link_tvalid,
    output wire       s_link_tready,
    output wire [7:0] m_link_tdata,
    output wire       m_link_tvalid,
    input  wire       m_link_tready,

    // One cycle per link frame answered, and per frame refused for a bad CRC
    output wire       link_frame_done,
    output wire       link_bad_crc
);

localparam KEEP_WIDTH = DATA_WIDTH / 8;
localparam WINDOW_ADDR_WIDTH = 13;
localparam [31:0] TRAFFIC_BLOCK_ADDRESS = 32'h2000;
// The core's blocks and the engine area, each a 256 KiB window of the link's address space
localparam AREA_ADDR_WIDTH = 18;
localparam [31:0] ENGINE_AREA_ADDRESS = 32'h40000;
localparam LINK_ADDR_WIDTH = ENGINE_AREA != 0 ? AREA_ADDR_WIDTH + 1 : 16;
localparam CORE_ADDR_WIDTH = ENGINE_AREA != 0 ? AREA_ADDR_WIDTH : 16;

initial begin
    if (ENGINE_AREA < 0 || ENGINE_AREA > 3) begin
        $error("Error: ENGINE_AREA must be 0 (none), 1 (RDMA pair), 2 (two DPU nodes) or 3 (2-rank ring) (instance %m)");
        $finish;
    end
    if (SELF_TEST != 0 && SELF_TEST != 1 || (SELF_TEST == 0 && ENGINE_AREA == 0)) begin
        $error("Error: SELF_TEST must be 1, or 0 in a build with an engine area (instance %m)");
        $finish;
    end
end

wire [LINK_ADDR_WIDTH-1:0] awaddr, araddr;
wire [2:0]  awprot, arprot;
wire        awvalid, awready, wvalid, wready, bvalid, bready, arvalid, arready, rvalid, rready;
wire [31:0] wdata, rdata;
wire [3:0]  wstrb;
wire [1:0]  bresp, rresp;

link_bridge #(
    .ADDR_WIDTH(LINK_ADDR_WIDTH),
    .TIMEOUT_CYCLES(LINK_TIMEOUT_CYCLES)
) link_inst (
    .clk(clk), .rst(rst),
    .s_axis_tdata(s_link_tdata), .s_axis_tvalid(s_link_tvalid), .s_axis_tready(s_link_tready),
    .m_axis_tdata(m_link_tdata), .m_axis_tvalid(m_link_tvalid), .m_axis_tready(m_link_tready),
    .m_axil_awaddr(awaddr), .m_axil_awprot(awprot), .m_axil_awvalid(awvalid), .m_axil_awready(awready),
    .m_axil_wdata(wdata), .m_axil_wstrb(wstrb), .m_axil_wvalid(wvalid), .m_axil_wready(wready),
    .m_axil_bresp(bresp), .m_axil_bvalid(bvalid), .m_axil_bready(bready),
    .m_axil_araddr(araddr), .m_axil_arprot(arprot), .m_axil_arvalid(arvalid), .m_axil_arready(arready),
    .m_axil_rdata(rdata), .m_axil_rresp(rresp), .m_axil_rvalid(rvalid), .m_axil_rready(rready),
    .event_frame_done(link_frame_done), .event_bad_crc(link_bad_crc), .event_bad_request(), .event_timeout()
);

// ---- The core's blocks, and the engine area beside them ----

wire [CORE_ADDR_WIDTH-1:0] core_awaddr, core_araddr;
wire [2:0]  core_awprot, core_arprot;
wire        core_awvalid, core_awready, core_wvalid, core_wready, core_bvalid, core_bready;
wire        core_arvalid, core_arready, core_rvalid, core_rready;
wire [31:0] core_wdata, core_rdata;
wire [3:0]  core_wstrb;
wire [1:0]  core_bresp, core_rresp;

generate
if (ENGINE_AREA == 0) begin : self_test_only
    assign core_awaddr = awaddr;
    assign core_awprot = awprot;
    assign core_awvalid = awvalid;
    assign awready = core_awready;
    assign core_wdata = wdata;
    assign core_wstrb = wstrb;
    assign core_wvalid = wvalid;
    assign wready = core_wready;
    assign bresp = core_bresp;
    assign bvalid = core_bvalid;
    assign core_bready = bready;
    assign core_araddr = araddr;
    assign core_arprot = arprot;
    assign core_arvalid = arvalid;
    assign arready = core_arready;
    assign rdata = core_rdata;
    assign rresp = core_rresp;
    assign rvalid = core_rvalid;
    assign core_rready = rready;
end else begin : engines
    wire [2*AREA_ADDR_WIDTH-1:0] area_awaddr, area_araddr;
    wire [2*3-1:0]  area_awprot, area_arprot;
    wire [1:0]      area_awvalid, area_awready, area_wvalid, area_wready, area_bvalid, area_bready;
    wire [1:0]      area_arvalid, area_arready, area_rvalid, area_rready;
    wire [2*32-1:0] area_wdata, area_rdata;
    wire [2*4-1:0]  area_wstrb;
    wire [2*2-1:0]  area_bresp, area_rresp;

    axil_decoder #(
        .M_COUNT(2), .ADDR_WIDTH(LINK_ADDR_WIDTH), .WINDOW_ADDR_WIDTH(AREA_ADDR_WIDTH)
    ) area_decoder_inst (
        .clk(clk), .rst(rst),
        .s_axil_awaddr(awaddr), .s_axil_awprot(awprot), .s_axil_awvalid(awvalid), .s_axil_awready(awready),
        .s_axil_wdata(wdata), .s_axil_wstrb(wstrb), .s_axil_wvalid(wvalid), .s_axil_wready(wready),
        .s_axil_bresp(bresp), .s_axil_bvalid(bvalid), .s_axil_bready(bready),
        .s_axil_araddr(araddr), .s_axil_arprot(arprot), .s_axil_arvalid(arvalid), .s_axil_arready(arready),
        .s_axil_rdata(rdata), .s_axil_rresp(rresp), .s_axil_rvalid(rvalid), .s_axil_rready(rready),
        .m_axil_awaddr(area_awaddr), .m_axil_awprot(area_awprot), .m_axil_awvalid(area_awvalid),
        .m_axil_awready(area_awready), .m_axil_wdata(area_wdata), .m_axil_wstrb(area_wstrb),
        .m_axil_wvalid(area_wvalid), .m_axil_wready(area_wready), .m_axil_bresp(area_bresp),
        .m_axil_bvalid(area_bvalid), .m_axil_bready(area_bready), .m_axil_araddr(area_araddr),
        .m_axil_arprot(area_arprot), .m_axil_arvalid(area_arvalid), .m_axil_arready(area_arready),
        .m_axil_rdata(area_rdata), .m_axil_rresp(area_rresp), .m_axil_rvalid(area_rvalid),
        .m_axil_rready(area_rready)
    );

    assign core_awaddr = area_awaddr[0 +: AREA_ADDR_WIDTH];
    assign core_awprot = area_awprot[0 +: 3];
    assign core_awvalid = area_awvalid[0];
    assign area_awready[0] = core_awready;
    assign core_wdata = area_wdata[0 +: 32];
    assign core_wstrb = area_wstrb[0 +: 4];
    assign core_wvalid = area_wvalid[0];
    assign area_wready[0] = core_wready;
    assign area_bresp[0 +: 2] = core_bresp;
    assign area_bvalid[0] = core_bvalid;
    assign core_bready = area_bready[0];
    assign core_araddr = area_araddr[0 +: AREA_ADDR_WIDTH];
    assign core_arprot = area_arprot[0 +: 3];
    assign core_arvalid = area_arvalid[0];
    assign area_arready[0] = core_arready;
    assign area_rdata[0 +: 32] = core_rdata;
    assign area_rresp[0 +: 2] = core_rresp;
    assign area_rvalid[0] = core_rvalid;
    assign core_rready = area_rready[0];

    if (ENGINE_AREA == 3) begin : ring
        board_rank_ring #(
            .RANKS(2), .DATA_WIDTH(DATA_WIDTH), .BASE_ADDRESS(ENGINE_AREA_ADDRESS), .GIT_HASH(GIT_HASH),
            .SIMULATION(SIMULATION), .CLOCK_FREQ_KHZ(CLOCK_FREQ_KHZ)
        ) engine_area_inst (
            .clk(clk), .rst(rst),
            .s_axil_awaddr(area_awaddr[AREA_ADDR_WIDTH +: AREA_ADDR_WIDTH]), .s_axil_awprot(area_awprot[3 +: 3]),
            .s_axil_awvalid(area_awvalid[1]), .s_axil_awready(area_awready[1]),
            .s_axil_wdata(area_wdata[32 +: 32]), .s_axil_wstrb(area_wstrb[4 +: 4]),
            .s_axil_wvalid(area_wvalid[1]), .s_axil_wready(area_wready[1]),
            .s_axil_bresp(area_bresp[2 +: 2]), .s_axil_bvalid(area_bvalid[1]), .s_axil_bready(area_bready[1]),
            .s_axil_araddr(area_araddr[AREA_ADDR_WIDTH +: AREA_ADDR_WIDTH]), .s_axil_arprot(area_arprot[3 +: 3]),
            .s_axil_arvalid(area_arvalid[1]), .s_axil_arready(area_arready[1]),
            .s_axil_rdata(area_rdata[32 +: 32]), .s_axil_rresp(area_rresp[2 +: 2]),
            .s_axil_rvalid(area_rvalid[1]), .s_axil_rready(area_rready[1])
        );
    end else begin : node_pair
        board_node_pair #(
            .DATA_WIDTH(DATA_WIDTH), .COLLECTIVE(ENGINE_AREA == 2 ? 1 : 0), .BASE_ADDRESS(ENGINE_AREA_ADDRESS),
            .GIT_HASH(GIT_HASH), .SIMULATION(SIMULATION)
        ) engine_area_inst (
            .clk(clk), .rst(rst),
            .s_axil_awaddr(area_awaddr[AREA_ADDR_WIDTH +: AREA_ADDR_WIDTH]), .s_axil_awprot(area_awprot[3 +: 3]),
            .s_axil_awvalid(area_awvalid[1]), .s_axil_awready(area_awready[1]),
            .s_axil_wdata(area_wdata[32 +: 32]), .s_axil_wstrb(area_wstrb[4 +: 4]),
            .s_axil_wvalid(area_wvalid[1]), .s_axil_wready(area_wready[1]),
            .s_axil_bresp(area_bresp[2 +: 2]), .s_axil_bvalid(area_bvalid[1]), .s_axil_bready(area_bready[1]),
            .s_axil_araddr(area_araddr[AREA_ADDR_WIDTH +: AREA_ADDR_WIDTH]), .s_axil_arprot(area_arprot[3 +: 3]),
            .s_axil_arvalid(area_arvalid[1]), .s_axil_arready(area_arready[1]),
            .s_axil_rdata(area_rdata[32 +: 32]), .s_axil_rresp(area_rresp[2 +: 2]),
            .s_axil_rvalid(area_rvalid[1]), .s_axil_rready(area_rready[1])
        );
    end
end
endgenerate

generate
if (SELF_TEST) begin : self_test
    wire [2*WINDOW_ADDR_WIDTH-1:0] block_awaddr, block_araddr;
    wire [2*3-1:0]  block_awprot, block_arprot;
    wire [1:0]      block_awvalid, block_awready, block_wvalid, block_wready;
    wire [2*32-1:0] block_wdata, block_rdata;
    wire [2*4-1:0]  block_wstrb;
    wire [2*2-1:0]  block_bresp, block_rresp;
    wire [1:0]      block_bvalid, block_bready, block_arvalid, block_arready, block_rvalid, block_rready;

    axil_decoder #(
        .M_COUNT(2),
        .ADDR_WIDTH(CORE_ADDR_WIDTH),
        .WINDOW_ADDR_WIDTH(WINDOW_ADDR_WIDTH)
    ) decoder_inst (
        .clk(clk), .rst(rst),
        .s_axil_awaddr(core_awaddr), .s_axil_awprot(core_awprot), .s_axil_awvalid(core_awvalid), .s_axil_awready(core_awready),
        .s_axil_wdata(core_wdata), .s_axil_wstrb(core_wstrb), .s_axil_wvalid(core_wvalid), .s_axil_wready(core_wready),
        .s_axil_bresp(core_bresp), .s_axil_bvalid(core_bvalid), .s_axil_bready(core_bready),
        .s_axil_araddr(core_araddr), .s_axil_arprot(core_arprot), .s_axil_arvalid(core_arvalid), .s_axil_arready(core_arready),
        .s_axil_rdata(core_rdata), .s_axil_rresp(core_rresp), .s_axil_rvalid(core_rvalid), .s_axil_rready(core_rready),
        .m_axil_awaddr(block_awaddr), .m_axil_awprot(block_awprot), .m_axil_awvalid(block_awvalid),
        .m_axil_awready(block_awready), .m_axil_wdata(block_wdata), .m_axil_wstrb(block_wstrb),
        .m_axil_wvalid(block_wvalid), .m_axil_wready(block_wready), .m_axil_bresp(block_bresp),
        .m_axil_bvalid(block_bvalid), .m_axil_bready(block_bready), .m_axil_araddr(block_araddr),
        .m_axil_arprot(block_arprot), .m_axil_arvalid(block_arvalid), .m_axil_arready(block_arready),
        .m_axil_rdata(block_rdata), .m_axil_rresp(block_rresp), .m_axil_rvalid(block_rvalid),
        .m_axil_rready(block_rready)
    );

    wire [DATA_WIDTH-1:0] generated_tdata, returned_tdata;
    wire [KEEP_WIDTH-1:0] generated_tkeep, returned_tkeep;
    wire                  generated_tvalid, generated_tready, generated_tlast;
    wire                  returned_tvalid, returned_tready, returned_tlast, returned_tuser;

    dpuv_core #(
        .DATA_WIDTH(DATA_WIDTH),
        .GIT_HASH(GIT_HASH),
        .GIT_DIRTY(GIT_DIRTY),
        .SIMULATION(SIMULATION),
        .CLOCK_FREQ_KHZ(CLOCK_FREQ_KHZ),
        .CHAIN_NEXT_ADDRESS(TRAFFIC_BLOCK_ADDRESS)
    ) core_inst (
        .clk(clk), .rst(rst),
        .s_axil_awaddr({3'b000, block_awaddr[0 +: WINDOW_ADDR_WIDTH]}), .s_axil_awprot(block_awprot[0 +: 3]),
        .s_axil_awvalid(block_awvalid[0]), .s_axil_awready(block_awready[0]),
        .s_axil_wdata(block_wdata[0 +: 32]), .s_axil_wstrb(block_wstrb[0 +: 4]),
        .s_axil_wvalid(block_wvalid[0]), .s_axil_wready(block_wready[0]),
        .s_axil_bresp(block_bresp[0 +: 2]), .s_axil_bvalid(block_bvalid[0]), .s_axil_bready(block_bready[0]),
        .s_axil_araddr({3'b000, block_araddr[0 +: WINDOW_ADDR_WIDTH]}), .s_axil_arprot(block_arprot[0 +: 3]),
        .s_axil_arvalid(block_arvalid[0]), .s_axil_arready(block_arready[0]),
        .s_axil_rdata(block_rdata[0 +: 32]), .s_axil_rresp(block_rresp[0 +: 2]),
        .s_axil_rvalid(block_rvalid[0]), .s_axil_rready(block_rready[0]),
        .s_axis_tdata(generated_tdata), .s_axis_tkeep(generated_tkeep), .s_axis_tvalid(generated_tvalid),
        .s_axis_tready(generated_tready), .s_axis_tlast(generated_tlast), .s_axis_tuser(1'b0),
        .m_axis_tdata(returned_tdata), .m_axis_tkeep(returned_tkeep), .m_axis_tvalid(returned_tvalid),
        .m_axis_tready(returned_tready), .m_axis_tlast(returned_tlast), .m_axis_tuser(returned_tuser)
    );

    traffic_block #(
        .NEXT_BLOCK_ADDRESS(ENGINE_AREA != 0 ? ENGINE_AREA_ADDRESS : 32'd0),
        .DATA_WIDTH(DATA_WIDTH)
    ) traffic_inst (
        .clk(clk), .rst(rst),
        .s_axil_awaddr(block_awaddr[WINDOW_ADDR_WIDTH +: WINDOW_ADDR_WIDTH]), .s_axil_awprot(block_awprot[3 +: 3]),
        .s_axil_awvalid(block_awvalid[1]), .s_axil_awready(block_awready[1]),
        .s_axil_wdata(block_wdata[32 +: 32]), .s_axil_wstrb(block_wstrb[4 +: 4]),
        .s_axil_wvalid(block_wvalid[1]), .s_axil_wready(block_wready[1]),
        .s_axil_bresp(block_bresp[2 +: 2]), .s_axil_bvalid(block_bvalid[1]), .s_axil_bready(block_bready[1]),
        .s_axil_araddr(block_araddr[WINDOW_ADDR_WIDTH +: WINDOW_ADDR_WIDTH]), .s_axil_arprot(block_arprot[3 +: 3]),
        .s_axil_arvalid(block_arvalid[1]), .s_axil_arready(block_arready[1]),
        .s_axil_rdata(block_rdata[32 +: 32]), .s_axil_rresp(block_rresp[2 +: 2]),
        .s_axil_rvalid(block_rvalid[1]), .s_axil_rready(block_rready[1]),
        .m_axis_tdata(generated_tdata), .m_axis_tkeep(generated_tkeep), .m_axis_tvalid(generated_tvalid),
        .m_axis_tready(generated_tready), .m_axis_tlast(generated_tlast),
        .s_axis_tdata(returned_tdata), .s_axis_tkeep(returned_tkeep), .s_axis_tvalid(returned_tvalid),
        .s_axis_tready(returned_tready), .s_axis_tlast(returned_tlast)
    );
end else begin : id_only
    // The board's ID block alone, its chain going straight on to the engine area; the rest of the
    // core's window answers as unmapped
    wire [11:0] id_awaddr, id_araddr;
    wire [2:0]  id_awprot, id_arprot;
    wire        id_awvalid, id_awready, id_wvalid, id_wready, id_bvalid, id_bready;
    wire        id_arvalid, id_arready, id_rvalid, id_rready;
    wire [31:0] id_wdata, id_rdata;
    wire [3:0]  id_wstrb;
    wire [1:0]  id_bresp, id_rresp;

    axil_decoder #(
        .M_COUNT(1), .ADDR_WIDTH(CORE_ADDR_WIDTH), .WINDOW_ADDR_WIDTH(12)
    ) decoder_inst (
        .clk(clk), .rst(rst),
        .s_axil_awaddr(core_awaddr), .s_axil_awprot(core_awprot), .s_axil_awvalid(core_awvalid), .s_axil_awready(core_awready),
        .s_axil_wdata(core_wdata), .s_axil_wstrb(core_wstrb), .s_axil_wvalid(core_wvalid), .s_axil_wready(core_wready),
        .s_axil_bresp(core_bresp), .s_axil_bvalid(core_bvalid), .s_axil_bready(core_bready),
        .s_axil_araddr(core_araddr), .s_axil_arprot(core_arprot), .s_axil_arvalid(core_arvalid), .s_axil_arready(core_arready),
        .s_axil_rdata(core_rdata), .s_axil_rresp(core_rresp), .s_axil_rvalid(core_rvalid), .s_axil_rready(core_rready),
        .m_axil_awaddr(id_awaddr), .m_axil_awprot(id_awprot), .m_axil_awvalid(id_awvalid),
        .m_axil_awready(id_awready), .m_axil_wdata(id_wdata), .m_axil_wstrb(id_wstrb),
        .m_axil_wvalid(id_wvalid), .m_axil_wready(id_wready), .m_axil_bresp(id_bresp),
        .m_axil_bvalid(id_bvalid), .m_axil_bready(id_bready), .m_axil_araddr(id_araddr),
        .m_axil_arprot(id_arprot), .m_axil_arvalid(id_arvalid), .m_axil_arready(id_arready),
        .m_axil_rdata(id_rdata), .m_axil_rresp(id_rresp), .m_axil_rvalid(id_rvalid),
        .m_axil_rready(id_rready)
    );

    id_block #(
        .NEXT_BLOCK_ADDRESS(ENGINE_AREA_ADDRESS), .GIT_HASH(GIT_HASH), .GIT_DIRTY(GIT_DIRTY),
        .SIMULATION(SIMULATION), .STREAM_BYTES(KEEP_WIDTH), .CLOCK_FREQ_KHZ(CLOCK_FREQ_KHZ)
    ) id_block_inst (
        .clk(clk), .rst(rst),
        .s_axil_awaddr(id_awaddr), .s_axil_awprot(id_awprot), .s_axil_awvalid(id_awvalid), .s_axil_awready(id_awready),
        .s_axil_wdata(id_wdata), .s_axil_wstrb(id_wstrb), .s_axil_wvalid(id_wvalid), .s_axil_wready(id_wready),
        .s_axil_bresp(id_bresp), .s_axil_bvalid(id_bvalid), .s_axil_bready(id_bready),
        .s_axil_araddr(id_araddr), .s_axil_arprot(id_arprot), .s_axil_arvalid(id_arvalid), .s_axil_arready(id_arready),
        .s_axil_rdata(id_rdata), .s_axil_rresp(id_rresp), .s_axil_rvalid(id_rvalid), .s_axil_rready(id_rready)
    );
end
endgenerate

endmodule

`resetall
