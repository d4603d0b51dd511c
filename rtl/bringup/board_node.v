// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// One DPU node with its on-chip memory, both reachable over one register bus
`resetall
`timescale 1ns / 1ps
`default_nettype none

// A node as a board or a card carries it: the DPU node core (with, by COLLECTIVE, its collective
// engine) over MEMORY_BYTES of on-chip memory. Its register bus is 64 KiB:
//   0x0000 the node's registers (its ID block first; the chain runs on from there)
//   0x8000 its memory, MEMORY_BYTES from its address 0, 32 bits per register access
// Every engine area keeps this layout (a node's memory 0x8000 above its ID block), which is how
// the bring-up software finds a node's memory.
module board_node #(
    // Width of the MAC streams and the memory bus in bits
    parameter DATA_WIDTH = 64,
    // Bytes of on-chip memory (at most 32 KiB, the memory window)
    parameter MEMORY_BYTES = 32768,
    // Queue pairs in the RDMA engine
    parameter QP_COUNT = 8,
    // The RDMA engine's receive buffer: what senders may have in flight to this node
    parameter RX_BUFFER_BYTES = 65536,
    // Memory regions the RDMA engine registers (a power of two)
    parameter MR_COUNT = 16,
    // 1: the node also has its collective engine; 0: the RDMA engine alone
    parameter COLLECTIVE = 0,
    // The RDMA engine's ACK-timeout and RNR-timer units in cycles
    parameter TIMEOUT_UNIT_CYCLES = 1024,
    parameter RNR_UNIT_CYCLES = 2500,
    // The RDMA engine's QPs with a DCQCN reaction point (0: none), and the clock period in ps their timers count
    parameter RATE_LIMITED_QPS = 4,
    parameter CLOCK_PERIOD_PS = 4000,
    // Where the node's registers sit on the bus the chain is walked on, and the block after its last
    parameter [31:0] CHAIN_BASE = 32'd0,
    parameter [31:0] CHAIN_NEXT = 32'd0,
    parameter [31:0] GIT_HASH = 32'd0,
    parameter SIMULATION = 1
) (
    input  wire        clk,
    input  wire        rst,

    input  wire [15:0] s_axil_awaddr,
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
    input  wire [15:0] s_axil_araddr,
    input  wire [2:0]  s_axil_arprot,
    input  wire        s_axil_arvalid,
    output wire        s_axil_arready,
    output wire [31:0] s_axil_rdata,
    output wire [1:0]  s_axil_rresp,
    output wire        s_axil_rvalid,
    input  wire        s_axil_rready,

    // The MAC: frames in (never held back, as a MAC's receive side cannot be) and out
    input  wire [DATA_WIDTH-1:0]   s_axis_rx_tdata,
    input  wire [DATA_WIDTH/8-1:0] s_axis_rx_tkeep,
    input  wire                    s_axis_rx_tvalid,
    input  wire                    s_axis_rx_tlast,
    input  wire                    s_axis_rx_tuser,
    output wire [DATA_WIDTH-1:0]   m_axis_tx_tdata,
    output wire [DATA_WIDTH/8-1:0] m_axis_tx_tkeep,
    output wire                    m_axis_tx_tvalid,
    input  wire                    m_axis_tx_tready,
    output wire                    m_axis_tx_tlast
);

localparam WINDOW_BITS = 15;
localparam WINDOWS = 2;

initial begin
    if (MEMORY_BYTES > (1 << WINDOW_BITS)) begin
        $error("Error: MEMORY_BYTES must be at most 32 KiB, the memory window (instance %m)");
        $finish;
    end
end

// Windows in address order: the node's registers, its memory
wire [WINDOWS*WINDOW_BITS-1:0] window_awaddr, window_araddr;
wire [WINDOWS*3-1:0]  window_awprot, window_arprot;
wire [WINDOWS-1:0]    window_awvalid, window_awready, window_wvalid, window_wready;
wire [WINDOWS*32-1:0] window_wdata, window_rdata;
wire [WINDOWS*4-1:0]  window_wstrb;
wire [WINDOWS*2-1:0]  window_bresp, window_rresp;
wire [WINDOWS-1:0]    window_bvalid, window_bready, window_arvalid, window_arready, window_rvalid, window_rready;

axil_decoder #(
    .M_COUNT(WINDOWS), .ADDR_WIDTH(16), .WINDOW_ADDR_WIDTH(WINDOW_BITS)
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

wire [4-1:0] host_awid;
wire [WINDOW_BITS-1:0] host_awaddr;
wire [8-1:0] host_awlen;
wire [3-1:0] host_awsize;
wire [2-1:0] host_awburst;
wire        host_awlock;
wire [4-1:0] host_awcache;
wire [3-1:0] host_awprot;
wire        host_awvalid;
wire        host_awready;
wire [DATA_WIDTH-1:0] host_wdata;
wire [DATA_WIDTH/8-1:0] host_wstrb;
wire        host_wlast;
wire        host_wvalid;
wire        host_wready;
wire [4-1:0] host_bid;
wire [2-1:0] host_bresp;
wire        host_bvalid;
wire        host_bready;
wire [4-1:0] host_arid;
wire [WINDOW_BITS-1:0] host_araddr;
wire [8-1:0] host_arlen;
wire [3-1:0] host_arsize;
wire [2-1:0] host_arburst;
wire        host_arlock;
wire [4-1:0] host_arcache;
wire [3-1:0] host_arprot;
wire        host_arvalid;
wire        host_arready;
wire [4-1:0] host_rid;
wire [DATA_WIDTH-1:0] host_rdata;
wire [2-1:0] host_rresp;
wire        host_rlast;
wire        host_rvalid;
wire        host_rready;
wire [64-1:0] node_host_awaddr = {{64-WINDOW_BITS{1'b0}}, host_awaddr};
wire [64-1:0] node_host_araddr = {{64-WINDOW_BITS{1'b0}}, host_araddr};
wire [6-1:0] memory_awid;
wire [64-1:0] memory_awaddr;
wire [8-1:0] memory_awlen;
wire [3-1:0] memory_awsize;
wire [2-1:0] memory_awburst;
wire        memory_awlock;
wire [4-1:0] memory_awcache;
wire [3-1:0] memory_awprot;
wire        memory_awvalid;
wire        memory_awready;
wire [DATA_WIDTH-1:0] memory_wdata;
wire [DATA_WIDTH/8-1:0] memory_wstrb;
wire        memory_wlast;
wire        memory_wvalid;
wire        memory_wready;
wire [6-1:0] memory_bid;
wire [2-1:0] memory_bresp;
wire        memory_bvalid;
wire        memory_bready;
wire [6-1:0] memory_arid;
wire [64-1:0] memory_araddr;
wire [8-1:0] memory_arlen;
wire [3-1:0] memory_arsize;
wire [2-1:0] memory_arburst;
wire        memory_arlock;
wire [4-1:0] memory_arcache;
wire [3-1:0] memory_arprot;
wire        memory_arvalid;
wire        memory_arready;
wire [6-1:0] memory_rid;
wire [DATA_WIDTH-1:0] memory_rdata;
wire [2-1:0] memory_rresp;
wire        memory_rlast;
wire        memory_rvalid;
wire        memory_rready;

axil_to_axi #(
    .DATA_WIDTH(DATA_WIDTH), .ADDR_WIDTH(WINDOW_BITS), .ID_WIDTH(4)
) window_inst (
    .clk(clk), .rst(rst),
    .s_axil_awaddr(window_awaddr[WINDOW_BITS +: WINDOW_BITS]), .s_axil_awprot(window_awprot[3 +: 3]), .s_axil_awvalid(window_awvalid[1]),
    .s_axil_awready(window_awready[1]), .s_axil_wdata(window_wdata[32 +: 32]), .s_axil_wstrb(window_wstrb[4 +: 4]),
    .s_axil_wvalid(window_wvalid[1]), .s_axil_wready(window_wready[1]), .s_axil_bresp(window_bresp[2 +: 2]),
    .s_axil_bvalid(window_bvalid[1]), .s_axil_bready(window_bready[1]), .s_axil_araddr(window_araddr[WINDOW_BITS +: WINDOW_BITS]),
    .s_axil_arprot(window_arprot[3 +: 3]), .s_axil_arvalid(window_arvalid[1]), .s_axil_arready(window_arready[1]),
    .s_axil_rdata(window_rdata[32 +: 32]), .s_axil_rresp(window_rresp[2 +: 2]), .s_axil_rvalid(window_rvalid[1]),
    .s_axil_rready(window_rready[1]),
    .m_axi_awid(host_awid), .m_axi_awaddr(host_awaddr), .m_axi_awlen(host_awlen), .m_axi_awsize(host_awsize),
    .m_axi_awburst(host_awburst), .m_axi_awlock(host_awlock), .m_axi_awcache(host_awcache), .m_axi_awprot(host_awprot),
    .m_axi_awvalid(host_awvalid), .m_axi_awready(host_awready), .m_axi_wdata(host_wdata), .m_axi_wstrb(host_wstrb),
    .m_axi_wlast(host_wlast), .m_axi_wvalid(host_wvalid), .m_axi_wready(host_wready), .m_axi_bid(host_bid),
    .m_axi_bresp(host_bresp), .m_axi_bvalid(host_bvalid), .m_axi_bready(host_bready), .m_axi_arid(host_arid),
    .m_axi_araddr(host_araddr), .m_axi_arlen(host_arlen), .m_axi_arsize(host_arsize), .m_axi_arburst(host_arburst),
    .m_axi_arlock(host_arlock), .m_axi_arcache(host_arcache), .m_axi_arprot(host_arprot), .m_axi_arvalid(host_arvalid),
    .m_axi_arready(host_arready), .m_axi_rid(host_rid), .m_axi_rdata(host_rdata), .m_axi_rresp(host_rresp),
    .m_axi_rlast(host_rlast), .m_axi_rvalid(host_rvalid), .m_axi_rready(host_rready)
);

dpu_node #(
    .DATA_WIDTH(DATA_WIDTH), .QP_COUNT(QP_COUNT), .RX_BUFFER_BYTES(RX_BUFFER_BYTES), .MR_COUNT(MR_COUNT),
    .TIMEOUT_UNIT_CYCLES(TIMEOUT_UNIT_CYCLES), .RNR_UNIT_CYCLES(RNR_UNIT_CYCLES), .GIT_HASH(GIT_HASH),
    .SIMULATION(SIMULATION), .COLLECTIVE(COLLECTIVE), .RATE_LIMITED_QPS(RATE_LIMITED_QPS),
    .CLOCK_PERIOD_PS(CLOCK_PERIOD_PS), .CHAIN_BASE(CHAIN_BASE), .CHAIN_NEXT(CHAIN_NEXT)
) node_inst (
    .clk(clk), .rst(rst),
    .s_axil_awaddr({1'b0, window_awaddr[0 +: WINDOW_BITS]}), .s_axil_awprot(window_awprot[0 +: 3]), .s_axil_awvalid(window_awvalid[0]),
    .s_axil_awready(window_awready[0]), .s_axil_wdata(window_wdata[0 +: 32]), .s_axil_wstrb(window_wstrb[0 +: 4]),
    .s_axil_wvalid(window_wvalid[0]), .s_axil_wready(window_wready[0]), .s_axil_bresp(window_bresp[0 +: 2]),
    .s_axil_bvalid(window_bvalid[0]), .s_axil_bready(window_bready[0]), .s_axil_araddr({1'b0, window_araddr[0 +: WINDOW_BITS]}),
    .s_axil_arprot(window_arprot[0 +: 3]), .s_axil_arvalid(window_arvalid[0]), .s_axil_arready(window_arready[0]),
    .s_axil_rdata(window_rdata[0 +: 32]), .s_axil_rresp(window_rresp[0 +: 2]), .s_axil_rvalid(window_rvalid[0]),
    .s_axil_rready(window_rready[0]),
    .s_axis_rx_tdata(s_axis_rx_tdata), .s_axis_rx_tkeep(s_axis_rx_tkeep),
    .s_axis_rx_tvalid(s_axis_rx_tvalid), .s_axis_rx_tlast(s_axis_rx_tlast), .s_axis_rx_tuser(s_axis_rx_tuser),
    .m_axis_tx_tdata(m_axis_tx_tdata), .m_axis_tx_tkeep(m_axis_tx_tkeep),
    .m_axis_tx_tvalid(m_axis_tx_tvalid), .m_axis_tx_tready(m_axis_tx_tready), .m_axis_tx_tlast(m_axis_tx_tlast),
    .stall_collective_memory(1'b0),
    .s_axi_host_awid(host_awid), .s_axi_host_awaddr(node_host_awaddr), .s_axi_host_awlen(host_awlen), .s_axi_host_awsize(host_awsize),
    .s_axi_host_awburst(host_awburst), .s_axi_host_awlock(host_awlock), .s_axi_host_awcache(host_awcache), .s_axi_host_awprot(host_awprot),
    .s_axi_host_awvalid(host_awvalid), .s_axi_host_awready(host_awready), .s_axi_host_wdata(host_wdata), .s_axi_host_wstrb(host_wstrb),
    .s_axi_host_wlast(host_wlast), .s_axi_host_wvalid(host_wvalid), .s_axi_host_wready(host_wready), .s_axi_host_bid(host_bid),
    .s_axi_host_bresp(host_bresp), .s_axi_host_bvalid(host_bvalid), .s_axi_host_bready(host_bready), .s_axi_host_arid(host_arid),
    .s_axi_host_araddr(node_host_araddr), .s_axi_host_arlen(host_arlen), .s_axi_host_arsize(host_arsize), .s_axi_host_arburst(host_arburst),
    .s_axi_host_arlock(host_arlock), .s_axi_host_arcache(host_arcache), .s_axi_host_arprot(host_arprot), .s_axi_host_arvalid(host_arvalid),
    .s_axi_host_arready(host_arready), .s_axi_host_rid(host_rid), .s_axi_host_rdata(host_rdata), .s_axi_host_rresp(host_rresp),
    .s_axi_host_rlast(host_rlast), .s_axi_host_rvalid(host_rvalid), .s_axi_host_rready(host_rready),
    .m_axi_awid(memory_awid), .m_axi_awaddr(memory_awaddr), .m_axi_awlen(memory_awlen), .m_axi_awsize(memory_awsize),
    .m_axi_awburst(memory_awburst), .m_axi_awlock(memory_awlock), .m_axi_awcache(memory_awcache), .m_axi_awprot(memory_awprot),
    .m_axi_awvalid(memory_awvalid), .m_axi_awready(memory_awready), .m_axi_wdata(memory_wdata), .m_axi_wstrb(memory_wstrb),
    .m_axi_wlast(memory_wlast), .m_axi_wvalid(memory_wvalid), .m_axi_wready(memory_wready), .m_axi_bid(memory_bid),
    .m_axi_bresp(memory_bresp), .m_axi_bvalid(memory_bvalid), .m_axi_bready(memory_bready), .m_axi_arid(memory_arid),
    .m_axi_araddr(memory_araddr), .m_axi_arlen(memory_arlen), .m_axi_arsize(memory_arsize), .m_axi_arburst(memory_arburst),
    .m_axi_arlock(memory_arlock), .m_axi_arcache(memory_arcache), .m_axi_arprot(memory_arprot), .m_axi_arvalid(memory_arvalid),
    .m_axi_arready(memory_arready), .m_axi_rid(memory_rid), .m_axi_rdata(memory_rdata), .m_axi_rresp(memory_rresp),
    .m_axi_rlast(memory_rlast), .m_axi_rvalid(memory_rvalid), .m_axi_rready(memory_rready)
);

axi_ram #(
    .DATA_WIDTH(DATA_WIDTH), .ADDR_WIDTH(64), .ID_WIDTH(6), .SIZE_BYTES(MEMORY_BYTES)
) memory_inst (
    .clk(clk), .rst(rst),
    .s_axi_awid(memory_awid), .s_axi_awaddr(memory_awaddr), .s_axi_awlen(memory_awlen), .s_axi_awsize(memory_awsize),
    .s_axi_awburst(memory_awburst), .s_axi_awlock(memory_awlock), .s_axi_awcache(memory_awcache), .s_axi_awprot(memory_awprot),
    .s_axi_awvalid(memory_awvalid), .s_axi_awready(memory_awready), .s_axi_wdata(memory_wdata), .s_axi_wstrb(memory_wstrb),
    .s_axi_wlast(memory_wlast), .s_axi_wvalid(memory_wvalid), .s_axi_wready(memory_wready), .s_axi_bid(memory_bid),
    .s_axi_bresp(memory_bresp), .s_axi_bvalid(memory_bvalid), .s_axi_bready(memory_bready), .s_axi_arid(memory_arid),
    .s_axi_araddr(memory_araddr), .s_axi_arlen(memory_arlen), .s_axi_arsize(memory_arsize), .s_axi_arburst(memory_arburst),
    .s_axi_arlock(memory_arlock), .s_axi_arcache(memory_arcache), .s_axi_arprot(memory_arprot), .s_axi_arvalid(memory_arvalid),
    .s_axi_arready(memory_arready), .s_axi_rid(memory_rid), .s_axi_rdata(memory_rdata), .s_axi_rresp(memory_rresp),
    .s_axi_rlast(memory_rlast), .s_axi_rvalid(memory_rvalid), .s_axi_rready(memory_rready)
);

endmodule

`resetall
