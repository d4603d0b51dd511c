// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Two DPU nodes back to back on one chip, each with its memory reachable over the register bus
`resetall
`timescale 1ns / 1ps
`default_nettype none

// A board's engine area: node 0's MAC wired to node 1's and back (no switch: a cable), each node
// an RDMA engine (and, with COLLECTIVE, its collective engine) over its own on-chip memory. The
// bring-up software reaches everything through one register bus:
//   0x00000 node 0's registers (its ID block first; the chain runs on to node 1's)
//   0x08000 node 0's memory, MEMORY_BYTES from its address 0, 32 bits per register access
//   0x10000 node 1's registers
//   0x18000 node 1's memory
// Each node is a board_node (its registers, then its memory 0x8000 above its ID block, the layout
// every engine area keeps).
module board_node_pair #(
    // Width of the MAC streams and the memory bus in bits
    parameter DATA_WIDTH = 64,
    // Bytes of on-chip memory per node (at most 32 KiB, the memory window)
    parameter MEMORY_BYTES = 32768,
    // Queue pairs in each RDMA engine
    parameter QP_COUNT = 8,
    // Each RDMA engine's receive buffer. A quarter of the engine's usual 64 KiB: the board's
    // traffic is a scenario at a time over its UART, at most a few PMTU-256 packets in flight
    // (a two-node cluster's four 1 KiB slots), and the block RAM it frees holds the QP contexts
    parameter RX_BUFFER_BYTES = 16384,
    // Memory regions each RDMA engine registers: a board scenario registers one per node (a
    // two-node cluster one per ring), and each region is some 170 flip-flops and a lane of the
    // responder's region lookup
    parameter MR_COUNT = 4,
    // 1: each node also has its collective engine (a two-node cluster); 0: the RDMA engines alone
    parameter COLLECTIVE = 0,
    // DCQCN reaction points per RDMA engine: none. The board's scenarios run one at a time over
    // its UART and never congest the cable between the two nodes, and each reaction point is two
    // multipliers and some 300 flip-flops the ECP5 build has no room for
    parameter RATE_LIMITED_QPS = 0,
    // The ACK-timeout and RNR-timer units of the RDMA engines in cycles
    parameter TIMEOUT_UNIT_CYCLES = 1024,
    parameter RNR_UNIT_CYCLES = 2500,
    // Where this area sits on the board's register bus, for the chain's pointers
    parameter [31:0] BASE_ADDRESS = 32'h40000,
    parameter [31:0] GIT_HASH = 32'd0,
    parameter SIMULATION = 1
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

localparam NODE_BITS = 16;
localparam WINDOWS = 2;
localparam KEEP_WIDTH = DATA_WIDTH / 8;
localparam [31:0] NODE_STRIDE = 32'h10000;

// One window per node, in address order
wire [WINDOWS*NODE_BITS-1:0] window_awaddr, window_araddr;
wire [WINDOWS*3-1:0]  window_awprot, window_arprot;
wire [WINDOWS-1:0]    window_awvalid, window_awready, window_wvalid, window_wready;
wire [WINDOWS*32-1:0] window_wdata, window_rdata;
wire [WINDOWS*4-1:0]  window_wstrb;
wire [WINDOWS*2-1:0]  window_bresp, window_rresp;
wire [WINDOWS-1:0]    window_bvalid, window_bready, window_arvalid, window_arready, window_rvalid, window_rready;

axil_decoder #(
    .M_COUNT(WINDOWS), .ADDR_WIDTH(18), .WINDOW_ADDR_WIDTH(NODE_BITS)
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

// Each node's transmit stream is the other's receive stream; a cable never pushes back
wire [2*DATA_WIDTH-1:0] tx_tdata;
wire [2*KEEP_WIDTH-1:0] tx_tkeep;
wire [1:0]              tx_tvalid, tx_tlast;

genvar node;
generate
for (node = 0; node < 2; node = node + 1) begin : nodes
    board_node #(
        .DATA_WIDTH(DATA_WIDTH), .MEMORY_BYTES(MEMORY_BYTES), .QP_COUNT(QP_COUNT), .RX_BUFFER_BYTES(RX_BUFFER_BYTES),
        .MR_COUNT(MR_COUNT), .COLLECTIVE(COLLECTIVE), .RATE_LIMITED_QPS(RATE_LIMITED_QPS),
        .TIMEOUT_UNIT_CYCLES(TIMEOUT_UNIT_CYCLES), .RNR_UNIT_CYCLES(RNR_UNIT_CYCLES),
        .CHAIN_BASE(BASE_ADDRESS + node * NODE_STRIDE),
        .CHAIN_NEXT(node == 0 ? BASE_ADDRESS + NODE_STRIDE : 32'd0),
        .GIT_HASH(GIT_HASH), .SIMULATION(SIMULATION)
    ) node_inst (
        .clk(clk), .rst(rst),
        .s_axil_awaddr(window_awaddr[node*NODE_BITS +: NODE_BITS]), .s_axil_awprot(window_awprot[node*3 +: 3]),
        .s_axil_awvalid(window_awvalid[node]), .s_axil_awready(window_awready[node]),
        .s_axil_wdata(window_wdata[node*32 +: 32]), .s_axil_wstrb(window_wstrb[node*4 +: 4]),
        .s_axil_wvalid(window_wvalid[node]), .s_axil_wready(window_wready[node]),
        .s_axil_bresp(window_bresp[node*2 +: 2]), .s_axil_bvalid(window_bvalid[node]), .s_axil_bready(window_bready[node]),
        .s_axil_araddr(window_araddr[node*NODE_BITS +: NODE_BITS]), .s_axil_arprot(window_arprot[node*3 +: 3]),
        .s_axil_arvalid(window_arvalid[node]), .s_axil_arready(window_arready[node]),
        .s_axil_rdata(window_rdata[node*32 +: 32]), .s_axil_rresp(window_rresp[node*2 +: 2]),
        .s_axil_rvalid(window_rvalid[node]), .s_axil_rready(window_rready[node]),
        .s_axis_rx_tdata(tx_tdata[(1-node)*DATA_WIDTH +: DATA_WIDTH]), .s_axis_rx_tkeep(tx_tkeep[(1-node)*KEEP_WIDTH +: KEEP_WIDTH]),
        .s_axis_rx_tvalid(tx_tvalid[1-node]), .s_axis_rx_tlast(tx_tlast[1-node]), .s_axis_rx_tuser(1'b0),
        .m_axis_tx_tdata(tx_tdata[node*DATA_WIDTH +: DATA_WIDTH]), .m_axis_tx_tkeep(tx_tkeep[node*KEEP_WIDTH +: KEEP_WIDTH]),
        .m_axis_tx_tvalid(tx_tvalid[node]), .m_axis_tx_tready(1'b1), .m_axis_tx_tlast(tx_tlast[node])
    );
end
endgenerate

endmodule

`resetall
