// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// An all-reduce ring of RANKS ranks on one chip, each rank's buffer reachable over the register bus
`resetall
`timescale 1ns / 1ps
`default_nettype none

// A board's engine area: rank i sends to rank (i + 1) mod RANKS through a short FIFO (a cable),
// as allreduce_ring does in simulation. Each rank is a node of its own on the register bus, laid
// out as every engine node of a board build is (the bring-up software finds them the same way):
//   i * 0x10000 + 0x0000  the rank's ID block (its chain runs on to the rank's CSRs)
//   i * 0x10000 + 0x1000  the rank's CSRs (allreduce_rank), chained on to the next rank's ID block
//   i * 0x10000 + 0x8000  the rank's buffer, BUFFER_BEATS beats from its address 0, 32 bits per
//                         register access, reached only while no collective runs
module board_rank_ring #(
    // Ranks in the ring (2 to 4: the area holds four nodes)
    parameter RANKS = 2,
    // Width of a beat on the ring in bits
    parameter DATA_WIDTH = 64,
    // Beats each rank's buffer holds (a power of two; at most the 32 KiB window)
    parameter BUFFER_BEATS = 1024,
    // Where this area sits on the board's register bus, for the chain's pointers
    parameter [31:0] BASE_ADDRESS = 32'h40000,
    parameter [31:0] GIT_HASH = 32'd0,
    parameter SIMULATION = 1,
    // Nominal frequency of clk in kHz, for the ranks' ID blocks
    parameter CLOCK_FREQ_KHZ = 250000
) (
    input  wire        clk,
    input  wire        rst,

    input  wire [17:0] s_axil_awaddr,
    input  wire [2:0]  s_axil_awprot,
    input  wire        s_axil_awvalid,
    output wire        s_axil_awready,
    input  wire [31:0] s_axil_wdata,
    input  wire [3:0]  s_axil_wstrb,
    input  wire        s_axil_wvalid,
    output wire        s_axil_wready,
    output wire [1:0]  s_axil_bresp,
    output wire        s_axil_bvalid,
    input  wire        s_axil_bready,
    input  wire [17:0] s_axil_araddr,
    input  wire [2:0]  s_axil_arprot,
    input  wire        s_axil_arvalid,
    output wire        s_axil_arready,
    output wire [31:0] s_axil_rdata,
    output wire [1:0]  s_axil_rresp,
    output wire        s_axil_rvalid,
    input  wire        s_axil_rready
);

localparam WINDOW_BITS = 15;
localparam WINDOWS = 2 * RANKS;
localparam BLOCK_BITS = 12;
localparam KEEP_WIDTH = DATA_WIDTH / 8;
localparam BUFFER_ADDR_WIDTH = $clog2(BUFFER_BEATS);
localparam [31:0] NODE_STRIDE = 32'h10000;
localparam [31:0] RANK_CSR_OFFSET = 32'h1000;

initial begin
    if (RANKS < 2 || RANKS > 4 || BUFFER_BEATS * KEEP_WIDTH > (1 << WINDOW_BITS)) begin
        $error("Error: RANKS must be 2 to 4 and each buffer at most 32 KiB, its window (instance %m)");
        $finish;
    end
end

// Windows in address order: rank 0 registers, rank 0 buffer, rank 1 registers, ...
wire [WINDOWS*WINDOW_BITS-1:0] window_awaddr, window_araddr;
wire [WINDOWS*3-1:0]  window_awprot, window_arprot;
wire [WINDOWS-1:0]    window_awvalid, window_awready, window_wvalid, window_wready;
wire [WINDOWS*32-1:0] window_wdata, window_rdata;
wire [WINDOWS*4-1:0]  window_wstrb;
wire [WINDOWS*2-1:0]  window_bresp, window_rresp;
wire [WINDOWS-1:0]    window_bvalid, window_bready, window_arvalid, window_arready, window_rvalid, window_rready;

axil_decoder #(
    .M_COUNT(WINDOWS), .ADDR_WIDTH(18), .WINDOW_ADDR_WIDTH(WINDOW_BITS)
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

wire [RANKS*DATA_WIDTH-1:0] tx_tdata, rx_tdata;
wire [RANKS*KEEP_WIDTH-1:0] tx_tkeep, rx_tkeep;
wire [RANKS-1:0]            tx_tvalid, tx_tready, tx_tlast, rx_tvalid, rx_tready, rx_tlast;

genvar rank;
generate
for (rank = 0; rank < RANKS; rank = rank + 1) begin : ranks
    localparam REGISTERS = 2 * rank;
    localparam BUFFER = 2 * rank + 1;
    localparam NEXT_RANK = (rank + 1) % RANKS;
    localparam [31:0] OWN_ADDRESS = BASE_ADDRESS + rank * NODE_STRIDE;

    // The rank's register window: its ID block, then its CSRs
    wire [2*BLOCK_BITS-1:0] block_awaddr, block_araddr;
    wire [2*3-1:0]  block_awprot, block_arprot;
    wire [2-1:0]    block_awvalid, block_awready, block_wvalid, block_wready;
    wire [2*32-1:0] block_wdata, block_rdata;
    wire [2*4-1:0]  block_wstrb;
    wire [2*2-1:0]  block_bresp, block_rresp;
    wire [2-1:0]    block_bvalid, block_bready, block_arvalid, block_arready, block_rvalid, block_rready;

    axil_decoder #(
        .M_COUNT(2), .ADDR_WIDTH(WINDOW_BITS), .WINDOW_ADDR_WIDTH(BLOCK_BITS)
    ) blocks_inst (
        .clk(clk), .rst(rst),
        .s_axil_awaddr(window_awaddr[REGISTERS*WINDOW_BITS +: WINDOW_BITS]),
        .s_axil_awprot(window_awprot[REGISTERS*3 +: 3]), .s_axil_awvalid(window_awvalid[REGISTERS]),
        .s_axil_awready(window_awready[REGISTERS]), .s_axil_wdata(window_wdata[REGISTERS*32 +: 32]),
        .s_axil_wstrb(window_wstrb[REGISTERS*4 +: 4]), .s_axil_wvalid(window_wvalid[REGISTERS]),
        .s_axil_wready(window_wready[REGISTERS]), .s_axil_bresp(window_bresp[REGISTERS*2 +: 2]),
        .s_axil_bvalid(window_bvalid[REGISTERS]), .s_axil_bready(window_bready[REGISTERS]),
        .s_axil_araddr(window_araddr[REGISTERS*WINDOW_BITS +: WINDOW_BITS]),
        .s_axil_arprot(window_arprot[REGISTERS*3 +: 3]), .s_axil_arvalid(window_arvalid[REGISTERS]),
        .s_axil_arready(window_arready[REGISTERS]), .s_axil_rdata(window_rdata[REGISTERS*32 +: 32]),
        .s_axil_rresp(window_rresp[REGISTERS*2 +: 2]), .s_axil_rvalid(window_rvalid[REGISTERS]),
        .s_axil_rready(window_rready[REGISTERS]),
        .m_axil_awaddr(block_awaddr), .m_axil_awprot(block_awprot), .m_axil_awvalid(block_awvalid),
        .m_axil_awready(block_awready), .m_axil_wdata(block_wdata), .m_axil_wstrb(block_wstrb),
        .m_axil_wvalid(block_wvalid), .m_axil_wready(block_wready), .m_axil_bresp(block_bresp),
        .m_axil_bvalid(block_bvalid), .m_axil_bready(block_bready), .m_axil_araddr(block_araddr),
        .m_axil_arprot(block_arprot), .m_axil_arvalid(block_arvalid), .m_axil_arready(block_arready),
        .m_axil_rdata(block_rdata), .m_axil_rresp(block_rresp), .m_axil_rvalid(block_rvalid),
        .m_axil_rready(block_rready)
    );

    id_block #(
        .NEXT_BLOCK_ADDRESS(OWN_ADDRESS + RANK_CSR_OFFSET), .GIT_HASH(GIT_HASH), .SIMULATION(SIMULATION),
        .STREAM_BYTES(KEEP_WIDTH), .CLOCK_FREQ_KHZ(CLOCK_FREQ_KHZ)
    ) id_block_inst (
        .clk(clk), .rst(rst),
        .s_axil_awaddr(block_awaddr[0*BLOCK_BITS +: BLOCK_BITS]), .s_axil_awprot(block_awprot[0*3 +: 3]),
        .s_axil_awvalid(block_awvalid[0]), .s_axil_awready(block_awready[0]), .s_axil_wdata(block_wdata[0*32 +: 32]),
        .s_axil_wstrb(block_wstrb[0*4 +: 4]), .s_axil_wvalid(block_wvalid[0]), .s_axil_wready(block_wready[0]),
        .s_axil_bresp(block_bresp[0*2 +: 2]), .s_axil_bvalid(block_bvalid[0]), .s_axil_bready(block_bready[0]),
        .s_axil_araddr(block_araddr[0*BLOCK_BITS +: BLOCK_BITS]), .s_axil_arprot(block_arprot[0*3 +: 3]),
        .s_axil_arvalid(block_arvalid[0]), .s_axil_arready(block_arready[0]), .s_axil_rdata(block_rdata[0*32 +: 32]),
        .s_axil_rresp(block_rresp[0*2 +: 2]), .s_axil_rvalid(block_rvalid[0]), .s_axil_rready(block_rready[0])
    );

    wire                         buffer_write_enable;
    wire [BUFFER_ADDR_WIDTH-1:0] buffer_address;
    wire [DATA_WIDTH-1:0]        buffer_write_data, buffer_read_data;

    allreduce_rank #(
        .DATA_WIDTH(DATA_WIDTH), .BUFFER_BEATS(BUFFER_BEATS), .MAX_RANKS(16),
        .NEXT_BLOCK_ADDRESS(rank + 1 == RANKS ? 32'd0 : OWN_ADDRESS + NODE_STRIDE)
    ) rank_inst (
        .clk(clk), .rst(rst),
        .s_axil_awaddr(block_awaddr[1*BLOCK_BITS +: BLOCK_BITS]), .s_axil_awprot(block_awprot[1*3 +: 3]),
        .s_axil_awvalid(block_awvalid[1]), .s_axil_awready(block_awready[1]), .s_axil_wdata(block_wdata[1*32 +: 32]),
        .s_axil_wstrb(block_wstrb[1*4 +: 4]), .s_axil_wvalid(block_wvalid[1]), .s_axil_wready(block_wready[1]),
        .s_axil_bresp(block_bresp[1*2 +: 2]), .s_axil_bvalid(block_bvalid[1]), .s_axil_bready(block_bready[1]),
        .s_axil_araddr(block_araddr[1*BLOCK_BITS +: BLOCK_BITS]), .s_axil_arprot(block_arprot[1*3 +: 3]),
        .s_axil_arvalid(block_arvalid[1]), .s_axil_arready(block_arready[1]), .s_axil_rdata(block_rdata[1*32 +: 32]),
        .s_axil_rresp(block_rresp[1*2 +: 2]), .s_axil_rvalid(block_rvalid[1]), .s_axil_rready(block_rready[1]),
        .m_axis_tx_tdata(tx_tdata[rank*DATA_WIDTH +: DATA_WIDTH]), .m_axis_tx_tkeep(tx_tkeep[rank*KEEP_WIDTH +: KEEP_WIDTH]),
        .m_axis_tx_tvalid(tx_tvalid[rank]), .m_axis_tx_tready(tx_tready[rank]), .m_axis_tx_tlast(tx_tlast[rank]),
        .s_axis_rx_tdata(rx_tdata[rank*DATA_WIDTH +: DATA_WIDTH]), .s_axis_rx_tkeep(rx_tkeep[rank*KEEP_WIDTH +: KEEP_WIDTH]),
        .s_axis_rx_tvalid(rx_tvalid[rank]), .s_axis_rx_tready(rx_tready[rank]), .s_axis_rx_tlast(rx_tlast[rank]),
        .host_write_enable(buffer_write_enable), .host_address(buffer_address),
        .host_write_data(buffer_write_data), .host_read_data(buffer_read_data)
    );

    axil_buffer_window #(
        .DATA_WIDTH(DATA_WIDTH), .BUFFER_BEATS(BUFFER_BEATS), .ADDR_WIDTH(WINDOW_BITS)
    ) buffer_window_inst (
        .clk(clk), .rst(rst),
        .s_axil_awaddr(window_awaddr[BUFFER*WINDOW_BITS +: WINDOW_BITS]),
        .s_axil_awprot(window_awprot[BUFFER*3 +: 3]), .s_axil_awvalid(window_awvalid[BUFFER]),
        .s_axil_awready(window_awready[BUFFER]), .s_axil_wdata(window_wdata[BUFFER*32 +: 32]),
        .s_axil_wstrb(window_wstrb[BUFFER*4 +: 4]), .s_axil_wvalid(window_wvalid[BUFFER]),
        .s_axil_wready(window_wready[BUFFER]), .s_axil_bresp(window_bresp[BUFFER*2 +: 2]),
        .s_axil_bvalid(window_bvalid[BUFFER]), .s_axil_bready(window_bready[BUFFER]),
        .s_axil_araddr(window_araddr[BUFFER*WINDOW_BITS +: WINDOW_BITS]),
        .s_axil_arprot(window_arprot[BUFFER*3 +: 3]), .s_axil_arvalid(window_arvalid[BUFFER]),
        .s_axil_arready(window_arready[BUFFER]), .s_axil_rdata(window_rdata[BUFFER*32 +: 32]),
        .s_axil_rresp(window_rresp[BUFFER*2 +: 2]), .s_axil_rvalid(window_rvalid[BUFFER]),
        .s_axil_rready(window_rready[BUFFER]),
        .buffer_write_enable(buffer_write_enable), .buffer_address(buffer_address),
        .buffer_write_data(buffer_write_data), .buffer_read_data(buffer_read_data)
    );

    // The link from this rank to the next: a short FIFO, as a serialiser and cable would add
    axis_fifo #(
        .DEPTH(16), .DATA_WIDTH(DATA_WIDTH), .KEEP_WIDTH(KEEP_WIDTH), .USER_WIDTH(1)
    ) link_inst (
        .clk(clk), .rst(rst),
        .s_axis_tdata(tx_tdata[rank*DATA_WIDTH +: DATA_WIDTH]), .s_axis_tkeep(tx_tkeep[rank*KEEP_WIDTH +: KEEP_WIDTH]),
        .s_axis_tvalid(tx_tvalid[rank]), .s_axis_tready(tx_tready[rank]), .s_axis_tlast(tx_tlast[rank]),
        .s_axis_tuser(1'b0),
        .m_axis_tdata(rx_tdata[NEXT_RANK*DATA_WIDTH +: DATA_WIDTH]), .m_axis_tkeep(rx_tkeep[NEXT_RANK*KEEP_WIDTH +: KEEP_WIDTH]),
        .m_axis_tvalid(rx_tvalid[NEXT_RANK]), .m_axis_tready(rx_tready[NEXT_RANK]), .m_axis_tlast(rx_tlast[NEXT_RANK]),
        .m_axis_tuser(), .status_good_frame(), .status_bad_frame(), .status_oversize_frame()
    );
end
endgenerate

endmodule

`resetall
