// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// DPU node core: the RDMA engine and the collective engine behind one register bus, one MAC port and one node-memory port
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Register bus (found by walking the chain from the ID block at 0): the ID block at 0x0000, the
// RDMA engine at 0x1000, the collective engine at 0x2000. The collective engine drives the RDMA
// engine through its doorbell ports and takes the completions of the QPs in OFFLOAD_QPS; no
// host software is in that loop. Node memory is one AXI4 port shared, burst by burst, by the RDMA
// engine, the collective engine and the host (a PCIe DMA on a card, the testbench here); the AXI
// ID's top bits name which. With SLOT_MEMORY_BYTES set, the engines' bursts into the on-chip slot
// memory (node_slot_memory) stay off that port.
module dpu_node #(
    // Width of the MAC streams and the memory bus in bits (64 to 512, a power of two)
    parameter DATA_WIDTH = 64,
    // Queue pairs in the RDMA engine
    parameter QP_COUNT = 16,
    // The RDMA engine's receive buffer: what senders may have in flight to this node
    parameter RX_BUFFER_BYTES = 65536,
    // Memory regions the RDMA engine registers (a power of two)
    parameter MR_COUNT = 16,
    // Largest ring size of the collective engine
    parameter MAX_RANKS = 16,
    // Most receive slots per rank
    parameter MAX_SLOTS = 16,
    // The RDMA engine's ACK-timeout and RNR-timer units in cycles
    parameter TIMEOUT_UNIT_CYCLES = 1024,
    parameter RNR_UNIT_CYCLES = 2500,
    // The clock period in ps (the DCQCN timers), and the RDMA engine's QPs with a DCQCN reaction point
    parameter CLOCK_PERIOD_PS = 4000,
    parameter RATE_LIMITED_QPS = 4,
    // First 32 bits of the git commit, stamped by the build
    parameter [31:0] GIT_HASH = 32'd0,
    // 1 in a simulation build, 0 in a board build
    parameter SIMULATION = 1,
    // 0 leaves the collective engine out: the node is then the RDMA engine and its memory alone
    parameter COLLECTIVE = 1,
    // On-chip memory for the collective engine's receive slots (node_slot_memory): SLOT_MEMORY_BYTES
    // (0: none, the slots live in node memory; else a power of two, 4 KiB or more) at
    // SLOT_MEMORY_BASE, an address past node memory
    parameter SLOT_MEMORY_BYTES = 0,
    parameter [63:0] SLOT_MEMORY_BASE = 64'h0000_0001_0000_0000,
    // Where this node's register bus sits on the bus the chain is walked on (0 when it is walked
    // from the node's own address 0, as the cluster's host does), and the address of the block
    // that follows the node's last one there (0: the chain ends with this node)
    parameter [31:0] CHAIN_BASE = 32'd0,
    parameter [31:0] CHAIN_NEXT = 32'd0
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

    // From the MAC: frames without FCS, tuser on the last beat for a MAC error; never stalled
    input  wire [DATA_WIDTH-1:0]   s_axis_rx_tdata,
    input  wire [DATA_WIDTH/8-1:0] s_axis_rx_tkeep,
    input  wire                    s_axis_rx_tvalid,
    input  wire                    s_axis_rx_tlast,
    input  wire                    s_axis_rx_tuser,
    // To the MAC: frames without FCS
    output wire [DATA_WIDTH-1:0]   m_axis_tx_tdata,
    output wire [DATA_WIDTH/8-1:0] m_axis_tx_tkeep,
    output wire                    m_axis_tx_tvalid,
    input  wire                    m_axis_tx_tready,
    output wire                    m_axis_tx_tlast,

    // Fault injection: while high, the collective engine starts no node-memory burst (a slow
    // node); the RDMA engine and the host go on
    input  wire                    stall_collective_memory,

    // The host's way into node memory
    input  wire [4-1:0]            s_axi_host_awid,
    input  wire [64-1:0]           s_axi_host_awaddr,
    input  wire [8-1:0]            s_axi_host_awlen,
    input  wire [3-1:0]            s_axi_host_awsize,
    input  wire [2-1:0]            s_axi_host_awburst,
    input  wire                    s_axi_host_awlock,
    input  wire [4-1:0]            s_axi_host_awcache,
    input  wire [3-1:0]            s_axi_host_awprot,
    input  wire                    s_axi_host_awvalid,
    output wire                    s_axi_host_awready,
    input  wire [DATA_WIDTH-1:0]    s_axi_host_wdata,
    input  wire [DATA_WIDTH/8-1:0]  s_axi_host_wstrb,
    input  wire                    s_axi_host_wlast,
    input  wire                    s_axi_host_wvalid,
    output wire                    s_axi_host_wready,
    output wire [4-1:0]            s_axi_host_bid,
    output wire [2-1:0]            s_axi_host_bresp,
    output wire                    s_axi_host_bvalid,
    input  wire                    s_axi_host_bready,
    input  wire [4-1:0]            s_axi_host_arid,
    input  wire [64-1:0]           s_axi_host_araddr,
    input  wire [8-1:0]            s_axi_host_arlen,
    input  wire [3-1:0]            s_axi_host_arsize,
    input  wire [2-1:0]            s_axi_host_arburst,
    input  wire                    s_axi_host_arlock,
    input  wire [4-1:0]            s_axi_host_arcache,
    input  wire [3-1:0]            s_axi_host_arprot,
    input  wire                    s_axi_host_arvalid,
    output wire                    s_axi_host_arready,
    output wire [4-1:0]            s_axi_host_rid,
    output wire [DATA_WIDTH-1:0]    s_axi_host_rdata,
    output wire [2-1:0]            s_axi_host_rresp,
    output wire                    s_axi_host_rlast,
    output wire                    s_axi_host_rvalid,
    input  wire                    s_axi_host_rready,

    // Node memory
    output wire [MEMORY_ID_WIDTH-1:0] m_axi_awid,
    output wire [64-1:0]           m_axi_awaddr,
    output wire [8-1:0]            m_axi_awlen,
    output wire [3-1:0]            m_axi_awsize,
    output wire [2-1:0]            m_axi_awburst,
    output wire                    m_axi_awlock,
    output wire [4-1:0]            m_axi_awcache,
    output wire [3-1:0]            m_axi_awprot,
    output wire                    m_axi_awvalid,
    input  wire                    m_axi_awready,
    output wire [DATA_WIDTH-1:0] m_axi_wdata,
    output wire [DATA_WIDTH/8-1:0] m_axi_wstrb,
    output wire                    m_axi_wlast,
    output wire                    m_axi_wvalid,
    input  wire                    m_axi_wready,
    input  wire [MEMORY_ID_WIDTH-1:0] m_axi_bid,
    input  wire [2-1:0]            m_axi_bresp,
    input  wire                    m_axi_bvalid,
    output wire                    m_axi_bready,
    output wire [MEMORY_ID_WIDTH-1:0] m_axi_arid,
    output wire [64-1:0]           m_axi_araddr,
    output wire [8-1:0]            m_axi_arlen,
    output wire [3-1:0]            m_axi_arsize,
    output wire [2-1:0]            m_axi_arburst,
    output wire                    m_axi_arlock,
    output wire [4-1:0]            m_axi_arcache,
    output wire [3-1:0]            m_axi_arprot,
    output wire                    m_axi_arvalid,
    input  wire                    m_axi_arready,
    input  wire [MEMORY_ID_WIDTH-1:0] m_axi_rid,
    input  wire [DATA_WIDTH-1:0] m_axi_rdata,
    input  wire [2-1:0]            m_axi_rresp,
    input  wire                    m_axi_rlast,
    input  wire                    m_axi_rvalid,
    output wire                    m_axi_rready
);

localparam KEEP_WIDTH = DATA_WIDTH / 8;
localparam MEMORY_ID_WIDTH = 6;
localparam BLOCK_COUNT = COLLECTIVE ? 3 : 2;
localparam WINDOW_ADDR_WIDTH = 12;
localparam [31:0] RDMA_ADDRESS = 32'h1000;
localparam [31:0] COLLECTIVE_ADDRESS = 32'h2000;

// ---- Register bus ----

wire [BLOCK_COUNT*WINDOW_ADDR_WIDTH-1:0] block_awaddr;
wire [BLOCK_COUNT*3-1:0] block_awprot;
wire [BLOCK_COUNT-1:0] block_awvalid;
wire [BLOCK_COUNT-1:0] block_awready;
wire [BLOCK_COUNT*32-1:0] block_wdata;
wire [BLOCK_COUNT*4-1:0] block_wstrb;
wire [BLOCK_COUNT-1:0] block_wvalid;
wire [BLOCK_COUNT-1:0] block_wready;
wire [BLOCK_COUNT*2-1:0] block_bresp;
wire [BLOCK_COUNT-1:0] block_bvalid;
wire [BLOCK_COUNT-1:0] block_bready;
wire [BLOCK_COUNT*WINDOW_ADDR_WIDTH-1:0] block_araddr;
wire [BLOCK_COUNT*3-1:0] block_arprot;
wire [BLOCK_COUNT-1:0] block_arvalid;
wire [BLOCK_COUNT-1:0] block_arready;
wire [BLOCK_COUNT*32-1:0] block_rdata;
wire [BLOCK_COUNT*2-1:0] block_rresp;
wire [BLOCK_COUNT-1:0] block_rvalid;
wire [BLOCK_COUNT-1:0] block_rready;

axil_decoder #(
    .M_COUNT(BLOCK_COUNT), .ADDR_WIDTH(16), .WINDOW_ADDR_WIDTH(WINDOW_ADDR_WIDTH)
) decoder_inst (
    .clk(clk), .rst(rst),
    .s_axil_awaddr(s_axil_awaddr), .s_axil_awprot(s_axil_awprot), .s_axil_awvalid(s_axil_awvalid),
    .s_axil_awready(s_axil_awready), .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb),
    .s_axil_wvalid(s_axil_wvalid), .s_axil_wready(s_axil_wready), .s_axil_bresp(s_axil_bresp),
    .s_axil_bvalid(s_axil_bvalid), .s_axil_bready(s_axil_bready), .s_axil_araddr(s_axil_araddr),
    .s_axil_arprot(s_axil_arprot), .s_axil_arvalid(s_axil_arvalid), .s_axil_arready(s_axil_arready),
    .s_axil_rdata(s_axil_rdata), .s_axil_rresp(s_axil_rresp), .s_axil_rvalid(s_axil_rvalid),
    .s_axil_rready(s_axil_rready),
    .m_axil_awaddr(block_awaddr), .m_axil_awprot(block_awprot), .m_axil_awvalid(block_awvalid),
    .m_axil_awready(block_awready), .m_axil_wdata(block_wdata), .m_axil_wstrb(block_wstrb),
    .m_axil_wvalid(block_wvalid), .m_axil_wready(block_wready), .m_axil_bresp(block_bresp),
    .m_axil_bvalid(block_bvalid), .m_axil_bready(block_bready), .m_axil_araddr(block_araddr),
    .m_axil_arprot(block_arprot), .m_axil_arvalid(block_arvalid), .m_axil_arready(block_arready),
    .m_axil_rdata(block_rdata), .m_axil_rresp(block_rresp), .m_axil_rvalid(block_rvalid),
    .m_axil_rready(block_rready)
);

id_block #(
    .NEXT_BLOCK_ADDRESS(CHAIN_BASE + RDMA_ADDRESS), .GIT_HASH(GIT_HASH), .SIMULATION(SIMULATION), .STREAM_BYTES(KEEP_WIDTH)
) id_block_inst (
    .clk(clk), .rst(rst),
    .s_axil_awaddr(block_awaddr[0*WINDOW_ADDR_WIDTH +: WINDOW_ADDR_WIDTH]), .s_axil_awprot(block_awprot[0*3 +: 3]), .s_axil_awvalid(block_awvalid[0]),
    .s_axil_awready(block_awready[0]), .s_axil_wdata(block_wdata[0*32 +: 32]), .s_axil_wstrb(block_wstrb[0*4 +: 4]),
    .s_axil_wvalid(block_wvalid[0]), .s_axil_wready(block_wready[0]), .s_axil_bresp(block_bresp[0*2 +: 2]),
    .s_axil_bvalid(block_bvalid[0]), .s_axil_bready(block_bready[0]), .s_axil_araddr(block_araddr[0*WINDOW_ADDR_WIDTH +: WINDOW_ADDR_WIDTH]),
    .s_axil_arprot(block_arprot[0*3 +: 3]), .s_axil_arvalid(block_arvalid[0]), .s_axil_arready(block_arready[0]),
    .s_axil_rdata(block_rdata[0*32 +: 32]), .s_axil_rresp(block_rresp[0*2 +: 2]), .s_axil_rvalid(block_rvalid[0]),
    .s_axil_rready(block_rready[0])
);

// ---- Node memory: RDMA engine (0), collective engine (1), host (2) ----

wire [3*4-1:0] master_awid;
wire [3*64-1:0] master_awaddr;
wire [3*8-1:0] master_awlen;
wire [3*3-1:0] master_awsize;
wire [3*2-1:0] master_awburst;
wire [2:0] master_awlock;
wire [3*4-1:0] master_awcache;
wire [3*3-1:0] master_awprot;
wire [2:0] master_awvalid;
wire [2:0] master_awready;
wire [3*DATA_WIDTH-1:0] master_wdata;
wire [3*DATA_WIDTH/8-1:0] master_wstrb;
wire [2:0] master_wlast;
wire [2:0] master_wvalid;
wire [2:0] master_wready;
wire [3*4-1:0] master_bid;
wire [3*2-1:0] master_bresp;
wire [2:0] master_bvalid;
wire [2:0] master_bready;
wire [3*4-1:0] master_arid;
wire [3*64-1:0] master_araddr;
wire [3*8-1:0] master_arlen;
wire [3*3-1:0] master_arsize;
wire [3*2-1:0] master_arburst;
wire [2:0] master_arlock;
wire [3*4-1:0] master_arcache;
wire [3*3-1:0] master_arprot;
wire [2:0] master_arvalid;
wire [2:0] master_arready;
wire [3*4-1:0] master_rid;
wire [3*DATA_WIDTH-1:0] master_rdata;
wire [3*2-1:0] master_rresp;
wire [2:0] master_rlast;
wire [2:0] master_rvalid;
wire [2:0] master_rready;

assign master_awid[2*4 +: 4] = s_axi_host_awid;
assign master_awaddr[2*64 +: 64] = s_axi_host_awaddr;
assign master_awlen[2*8 +: 8] = s_axi_host_awlen;
assign master_awsize[2*3 +: 3] = s_axi_host_awsize;
assign master_awburst[2*2 +: 2] = s_axi_host_awburst;
assign master_awlock[2] = s_axi_host_awlock;
assign master_awcache[2*4 +: 4] = s_axi_host_awcache;
assign master_awprot[2*3 +: 3] = s_axi_host_awprot;
assign master_awvalid[2] = s_axi_host_awvalid;
assign s_axi_host_awready = master_awready[2];
assign master_wdata[2*DATA_WIDTH +: DATA_WIDTH] = s_axi_host_wdata;
assign master_wstrb[2*DATA_WIDTH/8 +: DATA_WIDTH/8] = s_axi_host_wstrb;
assign master_wlast[2] = s_axi_host_wlast;
assign master_wvalid[2] = s_axi_host_wvalid;
assign s_axi_host_wready = master_wready[2];
assign s_axi_host_bid = master_bid[2*4 +: 4];
assign s_axi_host_bresp = master_bresp[2*2 +: 2];
assign s_axi_host_bvalid = master_bvalid[2];
assign master_bready[2] = s_axi_host_bready;
assign master_arid[2*4 +: 4] = s_axi_host_arid;
assign master_araddr[2*64 +: 64] = s_axi_host_araddr;
assign master_arlen[2*8 +: 8] = s_axi_host_arlen;
assign master_arsize[2*3 +: 3] = s_axi_host_arsize;
assign master_arburst[2*2 +: 2] = s_axi_host_arburst;
assign master_arlock[2] = s_axi_host_arlock;
assign master_arcache[2*4 +: 4] = s_axi_host_arcache;
assign master_arprot[2*3 +: 3] = s_axi_host_arprot;
assign master_arvalid[2] = s_axi_host_arvalid;
assign s_axi_host_arready = master_arready[2];
assign s_axi_host_rid = master_rid[2*4 +: 4];
assign s_axi_host_rdata = master_rdata[2*DATA_WIDTH +: DATA_WIDTH];
assign s_axi_host_rresp = master_rresp[2*2 +: 2];
assign s_axi_host_rlast = master_rlast[2];
assign s_axi_host_rvalid = master_rvalid[2];
assign master_rready[2] = s_axi_host_rready;

axi_write_arbiter #(
    .PORTS(3), .DATA_WIDTH(DATA_WIDTH), .ADDR_WIDTH(64), .S_ID_WIDTH(4), .M_ID_WIDTH(MEMORY_ID_WIDTH)
) write_arbiter_inst (
    .clk(clk), .rst(rst),
    .s_axi_awid(master_awid), .s_axi_awaddr(master_awaddr), .s_axi_awlen(master_awlen),
    .s_axi_awsize(master_awsize), .s_axi_awburst(master_awburst), .s_axi_awlock(master_awlock),
    .s_axi_awcache(master_awcache), .s_axi_awprot(master_awprot), .s_axi_awvalid(master_awvalid),
    .s_axi_awready(master_awready), .s_axi_wdata(master_wdata), .s_axi_wstrb(master_wstrb),
    .s_axi_wlast(master_wlast), .s_axi_wvalid(master_wvalid), .s_axi_wready(master_wready),
    .s_axi_bid(master_bid), .s_axi_bresp(master_bresp), .s_axi_bvalid(master_bvalid),
    .s_axi_bready(master_bready), .m_axi_awid(m_axi_awid), .m_axi_awaddr(m_axi_awaddr),
    .m_axi_awlen(m_axi_awlen), .m_axi_awsize(m_axi_awsize), .m_axi_awburst(m_axi_awburst),
    .m_axi_awlock(m_axi_awlock), .m_axi_awcache(m_axi_awcache), .m_axi_awprot(m_axi_awprot),
    .m_axi_awvalid(m_axi_awvalid), .m_axi_awready(m_axi_awready), .m_axi_wdata(m_axi_wdata),
    .m_axi_wstrb(m_axi_wstrb), .m_axi_wlast(m_axi_wlast), .m_axi_wvalid(m_axi_wvalid),
    .m_axi_wready(m_axi_wready), .m_axi_bid(m_axi_bid), .m_axi_bresp(m_axi_bresp),
    .m_axi_bvalid(m_axi_bvalid), .m_axi_bready(m_axi_bready)
);

axi_read_arbiter #(
    .PORTS(3), .DATA_WIDTH(DATA_WIDTH), .ADDR_WIDTH(64), .S_ID_WIDTH(4), .M_ID_WIDTH(MEMORY_ID_WIDTH)
) read_arbiter_inst (
    .clk(clk), .rst(rst),
    .s_axi_arid(master_arid), .s_axi_araddr(master_araddr), .s_axi_arlen(master_arlen),
    .s_axi_arsize(master_arsize), .s_axi_arburst(master_arburst), .s_axi_arlock(master_arlock),
    .s_axi_arcache(master_arcache), .s_axi_arprot(master_arprot), .s_axi_arvalid(master_arvalid),
    .s_axi_arready(master_arready), .s_axi_rid(master_rid), .s_axi_rdata(master_rdata),
    .s_axi_rresp(master_rresp), .s_axi_rlast(master_rlast), .s_axi_rvalid(master_rvalid),
    .s_axi_rready(master_rready), .m_axi_arid(m_axi_arid), .m_axi_araddr(m_axi_araddr),
    .m_axi_arlen(m_axi_arlen), .m_axi_arsize(m_axi_arsize), .m_axi_arburst(m_axi_arburst),
    .m_axi_arlock(m_axi_arlock), .m_axi_arcache(m_axi_arcache), .m_axi_arprot(m_axi_arprot),
    .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready), .m_axi_rid(m_axi_rid),
    .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp), .m_axi_rlast(m_axi_rlast),
    .m_axi_rvalid(m_axi_rvalid), .m_axi_rready(m_axi_rready)
);

// ---- The engines' memory ports: slot-memory bursts to the on-chip slots, the rest to node memory ----

wire [2*4-1:0] engine_awid;
wire [2*64-1:0] engine_awaddr;
wire [2*8-1:0] engine_awlen;
wire [2*3-1:0] engine_awsize;
wire [2*2-1:0] engine_awburst;
wire [1:0] engine_awlock;
wire [2*4-1:0] engine_awcache;
wire [2*3-1:0] engine_awprot;
wire [1:0] engine_awvalid;
wire [1:0] engine_awready;
wire [2*DATA_WIDTH-1:0] engine_wdata;
wire [2*DATA_WIDTH/8-1:0] engine_wstrb;
wire [1:0] engine_wlast;
wire [1:0] engine_wvalid;
wire [1:0] engine_wready;
wire [2*4-1:0] engine_bid;
wire [2*2-1:0] engine_bresp;
wire [1:0] engine_bvalid;
wire [1:0] engine_bready;
wire [2*4-1:0] engine_arid;
wire [2*64-1:0] engine_araddr;
wire [2*8-1:0] engine_arlen;
wire [2*3-1:0] engine_arsize;
wire [2*2-1:0] engine_arburst;
wire [1:0] engine_arlock;
wire [2*4-1:0] engine_arcache;
wire [2*3-1:0] engine_arprot;
wire [1:0] engine_arvalid;
wire [1:0] engine_arready;
wire [2*4-1:0] engine_rid;
wire [2*DATA_WIDTH-1:0] engine_rdata;
wire [2*2-1:0] engine_rresp;
wire [1:0] engine_rlast;
wire [1:0] engine_rvalid;
wire [1:0] engine_rready;

node_slot_memory #(
    .DATA_WIDTH(DATA_WIDTH), .SLOT_MEMORY_BASE(SLOT_MEMORY_BASE), .SLOT_MEMORY_BYTES(SLOT_MEMORY_BYTES)
) slot_memory_inst (
    .clk(clk), .rst(rst),
    .s_axi_awid(engine_awid), .s_axi_awaddr(engine_awaddr), .s_axi_awlen(engine_awlen),
    .s_axi_awsize(engine_awsize), .s_axi_awburst(engine_awburst), .s_axi_awlock(engine_awlock),
    .s_axi_awcache(engine_awcache), .s_axi_awprot(engine_awprot), .s_axi_awvalid(engine_awvalid),
    .s_axi_awready(engine_awready), .s_axi_wdata(engine_wdata), .s_axi_wstrb(engine_wstrb),
    .s_axi_wlast(engine_wlast), .s_axi_wvalid(engine_wvalid), .s_axi_wready(engine_wready),
    .s_axi_bid(engine_bid), .s_axi_bresp(engine_bresp), .s_axi_bvalid(engine_bvalid),
    .s_axi_bready(engine_bready), .s_axi_arid(engine_arid), .s_axi_araddr(engine_araddr),
    .s_axi_arlen(engine_arlen), .s_axi_arsize(engine_arsize), .s_axi_arburst(engine_arburst),
    .s_axi_arlock(engine_arlock), .s_axi_arcache(engine_arcache), .s_axi_arprot(engine_arprot),
    .s_axi_arvalid(engine_arvalid), .s_axi_arready(engine_arready), .s_axi_rid(engine_rid),
    .s_axi_rdata(engine_rdata), .s_axi_rresp(engine_rresp), .s_axi_rlast(engine_rlast),
    .s_axi_rvalid(engine_rvalid), .s_axi_rready(engine_rready), .m_axi_awid(master_awid[0 +: 2*4]),
    .m_axi_awaddr(master_awaddr[0 +: 2*64]), .m_axi_awlen(master_awlen[0 +: 2*8]),
    .m_axi_awsize(master_awsize[0 +: 2*3]), .m_axi_awburst(master_awburst[0 +: 2*2]),
    .m_axi_awlock(master_awlock[1:0]), .m_axi_awcache(master_awcache[0 +: 2*4]),
    .m_axi_awprot(master_awprot[0 +: 2*3]), .m_axi_awvalid(master_awvalid[1:0]),
    .m_axi_awready(master_awready[1:0]), .m_axi_wdata(master_wdata[0 +: 2*DATA_WIDTH]),
    .m_axi_wstrb(master_wstrb[0 +: 2*DATA_WIDTH/8]), .m_axi_wlast(master_wlast[1:0]),
    .m_axi_wvalid(master_wvalid[1:0]), .m_axi_wready(master_wready[1:0]), .m_axi_bid(master_bid[0 +: 2*4]),
    .m_axi_bresp(master_bresp[0 +: 2*2]), .m_axi_bvalid(master_bvalid[1:0]),
    .m_axi_bready(master_bready[1:0]), .m_axi_arid(master_arid[0 +: 2*4]),
    .m_axi_araddr(master_araddr[0 +: 2*64]), .m_axi_arlen(master_arlen[0 +: 2*8]),
    .m_axi_arsize(master_arsize[0 +: 2*3]), .m_axi_arburst(master_arburst[0 +: 2*2]),
    .m_axi_arlock(master_arlock[1:0]), .m_axi_arcache(master_arcache[0 +: 2*4]),
    .m_axi_arprot(master_arprot[0 +: 2*3]), .m_axi_arvalid(master_arvalid[1:0]),
    .m_axi_arready(master_arready[1:0]), .m_axi_rid(master_rid[0 +: 2*4]),
    .m_axi_rdata(master_rdata[0 +: 2*DATA_WIDTH]), .m_axi_rresp(master_rresp[0 +: 2*2]),
    .m_axi_rlast(master_rlast[1:0]), .m_axi_rvalid(master_rvalid[1:0]), .m_axi_rready(master_rready[1:0])
);

// ---- The engines ----

wire        sq_doorbell_valid, sq_doorbell_ready, rq_doorbell_valid, rq_doorbell_ready;
wire [15:0] sq_doorbell_qpn, sq_doorbell_producer_index, rq_doorbell_qpn, rq_doorbell_producer_index;
wire        offloaded_completion_valid, offloaded_completion_ready, offloaded_completion_immediate_valid;
wire [63:0] offloaded_completion_wr_id;
wire [31:0] offloaded_completion_byte_len, offloaded_completion_immediate;
wire [23:0] offloaded_completion_qpn;
wire [7:0]  offloaded_completion_opcode, offloaded_completion_status;

rdma_engine #(
    .DATA_WIDTH(DATA_WIDTH), .QP_COUNT(QP_COUNT), .RX_BUFFER_BYTES(RX_BUFFER_BYTES), .MR_COUNT(MR_COUNT),
    .TIMEOUT_UNIT_CYCLES(TIMEOUT_UNIT_CYCLES), .RNR_UNIT_CYCLES(RNR_UNIT_CYCLES),
    .CLOCK_PERIOD_PS(CLOCK_PERIOD_PS), .RATE_LIMITED_QPS(RATE_LIMITED_QPS),
    .NEXT_BLOCK_ADDRESS(COLLECTIVE ? CHAIN_BASE + COLLECTIVE_ADDRESS : CHAIN_NEXT)
) rdma_inst (
    .clk(clk), .rst(rst),
    .s_axil_awaddr(block_awaddr[1*WINDOW_ADDR_WIDTH +: WINDOW_ADDR_WIDTH]), .s_axil_awprot(block_awprot[1*3 +: 3]), .s_axil_awvalid(block_awvalid[1]),
    .s_axil_awready(block_awready[1]), .s_axil_wdata(block_wdata[1*32 +: 32]), .s_axil_wstrb(block_wstrb[1*4 +: 4]),
    .s_axil_wvalid(block_wvalid[1]), .s_axil_wready(block_wready[1]), .s_axil_bresp(block_bresp[1*2 +: 2]),
    .s_axil_bvalid(block_bvalid[1]), .s_axil_bready(block_bready[1]), .s_axil_araddr(block_araddr[1*WINDOW_ADDR_WIDTH +: WINDOW_ADDR_WIDTH]),
    .s_axil_arprot(block_arprot[1*3 +: 3]), .s_axil_arvalid(block_arvalid[1]), .s_axil_arready(block_arready[1]),
    .s_axil_rdata(block_rdata[1*32 +: 32]), .s_axil_rresp(block_rresp[1*2 +: 2]), .s_axil_rvalid(block_rvalid[1]),
    .s_axil_rready(block_rready[1]),
    .s_axis_rx_tdata(s_axis_rx_tdata), .s_axis_rx_tkeep(s_axis_rx_tkeep), .s_axis_rx_tvalid(s_axis_rx_tvalid),
    .s_axis_rx_tlast(s_axis_rx_tlast), .s_axis_rx_tuser(s_axis_rx_tuser),
    .m_axis_tx_tdata(m_axis_tx_tdata), .m_axis_tx_tkeep(m_axis_tx_tkeep), .m_axis_tx_tvalid(m_axis_tx_tvalid),
    .m_axis_tx_tready(m_axis_tx_tready), .m_axis_tx_tlast(m_axis_tx_tlast),
    .m_axi_awid(engine_awid[0*4 +: 4]), .m_axi_awaddr(engine_awaddr[0*64 +: 64]), .m_axi_awlen(engine_awlen[0*8 +: 8]),
    .m_axi_awsize(engine_awsize[0*3 +: 3]), .m_axi_awburst(engine_awburst[0*2 +: 2]), .m_axi_awlock(engine_awlock[0]),
    .m_axi_awcache(engine_awcache[0*4 +: 4]), .m_axi_awprot(engine_awprot[0*3 +: 3]), .m_axi_awvalid(engine_awvalid[0]),
    .m_axi_awready(engine_awready[0]), .m_axi_wdata(engine_wdata[0*DATA_WIDTH +: DATA_WIDTH]), .m_axi_wstrb(engine_wstrb[0*DATA_WIDTH/8 +: DATA_WIDTH/8]),
    .m_axi_wlast(engine_wlast[0]), .m_axi_wvalid(engine_wvalid[0]), .m_axi_wready(engine_wready[0]),
    .m_axi_bid(engine_bid[0*4 +: 4]), .m_axi_bresp(engine_bresp[0*2 +: 2]), .m_axi_bvalid(engine_bvalid[0]),
    .m_axi_bready(engine_bready[0]), .m_axi_arid(engine_arid[0*4 +: 4]), .m_axi_araddr(engine_araddr[0*64 +: 64]),
    .m_axi_arlen(engine_arlen[0*8 +: 8]), .m_axi_arsize(engine_arsize[0*3 +: 3]), .m_axi_arburst(engine_arburst[0*2 +: 2]),
    .m_axi_arlock(engine_arlock[0]), .m_axi_arcache(engine_arcache[0*4 +: 4]), .m_axi_arprot(engine_arprot[0*3 +: 3]),
    .m_axi_arvalid(engine_arvalid[0]), .m_axi_arready(engine_arready[0]), .m_axi_rid(engine_rid[0*4 +: 4]),
    .m_axi_rdata(engine_rdata[0*DATA_WIDTH +: DATA_WIDTH]), .m_axi_rresp(engine_rresp[0*2 +: 2]), .m_axi_rlast(engine_rlast[0]),
    .m_axi_rvalid(engine_rvalid[0]), .m_axi_rready(engine_rready[0]),
    .s_sq_doorbell_valid(sq_doorbell_valid), .s_sq_doorbell_ready(sq_doorbell_ready),
    .s_sq_doorbell_qpn(sq_doorbell_qpn), .s_sq_doorbell_producer_index(sq_doorbell_producer_index),
    .s_rq_doorbell_valid(rq_doorbell_valid), .s_rq_doorbell_ready(rq_doorbell_ready),
    .s_rq_doorbell_qpn(rq_doorbell_qpn), .s_rq_doorbell_producer_index(rq_doorbell_producer_index),
    .m_completion_valid(offloaded_completion_valid), .m_completion_ready(offloaded_completion_ready),
    .m_completion_wr_id(offloaded_completion_wr_id), .m_completion_byte_len(offloaded_completion_byte_len),
    .m_completion_immediate(offloaded_completion_immediate), .m_completion_immediate_valid(offloaded_completion_immediate_valid),
    .m_completion_qpn(offloaded_completion_qpn), .m_completion_opcode(offloaded_completion_opcode), .m_completion_status(offloaded_completion_status)
);

generate
if (COLLECTIVE) begin : collective
    // The collective engine's node-memory bursts, not started while stall_collective_memory is high.
    // Only the address channels wait: a burst already granted finishes, so the shared write and read
    // data channels never stall the RDMA engine
    wire collective_awvalid, collective_awready, collective_arvalid, collective_arready;
    wire collective_wvalid, collective_wready, collective_bvalid, collective_bready, collective_rvalid, collective_rready;
    assign engine_awvalid[1] = collective_awvalid && !stall_collective_memory;
    assign collective_awready = engine_awready[1] && !stall_collective_memory;
    assign engine_arvalid[1] = collective_arvalid && !stall_collective_memory;
    assign collective_arready = engine_arready[1] && !stall_collective_memory;
    assign engine_wvalid[1] = collective_wvalid;
    assign collective_wready = engine_wready[1];
    assign collective_bvalid = engine_bvalid[1];
    assign engine_bready[1] = collective_bready;
    assign collective_rvalid = engine_rvalid[1];
    assign engine_rready[1] = collective_rready;

    collective_engine #(
        .DATA_WIDTH(DATA_WIDTH), .MAX_RANKS(MAX_RANKS), .MAX_SLOTS(MAX_SLOTS), .SLOT_MEMORY_BASE(SLOT_MEMORY_BASE),
        .SLOT_MEMORY_BYTES(SLOT_MEMORY_BYTES), .NEXT_BLOCK_ADDRESS(CHAIN_NEXT)
    ) collective_inst (
        .clk(clk), .rst(rst),
        .s_axil_awaddr(block_awaddr[2*WINDOW_ADDR_WIDTH +: WINDOW_ADDR_WIDTH]), .s_axil_awprot(block_awprot[2*3 +: 3]), .s_axil_awvalid(block_awvalid[2]),
        .s_axil_awready(block_awready[2]), .s_axil_wdata(block_wdata[2*32 +: 32]), .s_axil_wstrb(block_wstrb[2*4 +: 4]),
        .s_axil_wvalid(block_wvalid[2]), .s_axil_wready(block_wready[2]), .s_axil_bresp(block_bresp[2*2 +: 2]),
        .s_axil_bvalid(block_bvalid[2]), .s_axil_bready(block_bready[2]), .s_axil_araddr(block_araddr[2*WINDOW_ADDR_WIDTH +: WINDOW_ADDR_WIDTH]),
        .s_axil_arprot(block_arprot[2*3 +: 3]), .s_axil_arvalid(block_arvalid[2]), .s_axil_arready(block_arready[2]),
        .s_axil_rdata(block_rdata[2*32 +: 32]), .s_axil_rresp(block_rresp[2*2 +: 2]), .s_axil_rvalid(block_rvalid[2]),
        .s_axil_rready(block_rready[2]),
        .m_sq_doorbell_valid(sq_doorbell_valid), .m_sq_doorbell_ready(sq_doorbell_ready),
        .m_sq_doorbell_qpn(sq_doorbell_qpn), .m_sq_doorbell_producer_index(sq_doorbell_producer_index),
        .m_rq_doorbell_valid(rq_doorbell_valid), .m_rq_doorbell_ready(rq_doorbell_ready),
        .m_rq_doorbell_qpn(rq_doorbell_qpn), .m_rq_doorbell_producer_index(rq_doorbell_producer_index),
        .s_completion_valid(offloaded_completion_valid), .s_completion_ready(offloaded_completion_ready),
        .s_completion_wr_id(offloaded_completion_wr_id), .s_completion_byte_len(offloaded_completion_byte_len),
        .s_completion_immediate(offloaded_completion_immediate), .s_completion_immediate_valid(offloaded_completion_immediate_valid),
        .s_completion_qpn(offloaded_completion_qpn), .s_completion_opcode(offloaded_completion_opcode), .s_completion_status(offloaded_completion_status),
        .m_axi_awid(engine_awid[1*4 +: 4]), .m_axi_awaddr(engine_awaddr[1*64 +: 64]), .m_axi_awlen(engine_awlen[1*8 +: 8]),
        .m_axi_awsize(engine_awsize[1*3 +: 3]), .m_axi_awburst(engine_awburst[1*2 +: 2]), .m_axi_awlock(engine_awlock[1]),
        .m_axi_awcache(engine_awcache[1*4 +: 4]), .m_axi_awprot(engine_awprot[1*3 +: 3]), .m_axi_awvalid(collective_awvalid),
        .m_axi_awready(collective_awready), .m_axi_wdata(engine_wdata[1*DATA_WIDTH +: DATA_WIDTH]), .m_axi_wstrb(engine_wstrb[1*DATA_WIDTH/8 +: DATA_WIDTH/8]),
        .m_axi_wlast(engine_wlast[1]), .m_axi_wvalid(collective_wvalid), .m_axi_wready(collective_wready),
        .m_axi_bid(engine_bid[1*4 +: 4]), .m_axi_bresp(engine_bresp[1*2 +: 2]), .m_axi_bvalid(collective_bvalid),
        .m_axi_bready(collective_bready), .m_axi_arid(engine_arid[1*4 +: 4]), .m_axi_araddr(engine_araddr[1*64 +: 64]),
        .m_axi_arlen(engine_arlen[1*8 +: 8]), .m_axi_arsize(engine_arsize[1*3 +: 3]), .m_axi_arburst(engine_arburst[1*2 +: 2]),
        .m_axi_arlock(engine_arlock[1]), .m_axi_arcache(engine_arcache[1*4 +: 4]), .m_axi_arprot(engine_arprot[1*3 +: 3]),
        .m_axi_arvalid(collective_arvalid), .m_axi_arready(collective_arready), .m_axi_rid(engine_rid[1*4 +: 4]),
        .m_axi_rdata(engine_rdata[1*DATA_WIDTH +: DATA_WIDTH]), .m_axi_rresp(engine_rresp[1*2 +: 2]), .m_axi_rlast(engine_rlast[1]),
        .m_axi_rvalid(collective_rvalid), .m_axi_rready(collective_rready)
    );
end else begin : no_collective
    // No collective engine: its memory port and its doorbells stay idle, and no QP is offloaded
    // unless the host asks, so the completion port is only drained
    assign engine_awid[1*4 +: 4] = 4'd0;
    assign engine_awaddr[1*64 +: 64] = 64'd0;
    assign engine_awlen[1*8 +: 8] = 8'd0;
    assign engine_awsize[1*3 +: 3] = 3'd0;
    assign engine_awburst[1*2 +: 2] = 2'd0;
    assign engine_awlock[1] = 1'b0;
    assign engine_awcache[1*4 +: 4] = 4'd0;
    assign engine_awprot[1*3 +: 3] = 3'd0;
    assign engine_awvalid[1] = 1'b0;
    assign engine_wdata[1*DATA_WIDTH +: DATA_WIDTH] = {DATA_WIDTH{1'b0}};
    assign engine_wstrb[1*DATA_WIDTH/8 +: DATA_WIDTH/8] = {(DATA_WIDTH/8){1'b0}};
    assign engine_wlast[1] = 1'b0;
    assign engine_wvalid[1] = 1'b0;
    assign engine_bready[1] = 1'b1;
    assign engine_arid[1*4 +: 4] = 4'd0;
    assign engine_araddr[1*64 +: 64] = 64'd0;
    assign engine_arlen[1*8 +: 8] = 8'd0;
    assign engine_arsize[1*3 +: 3] = 3'd0;
    assign engine_arburst[1*2 +: 2] = 2'd0;
    assign engine_arlock[1] = 1'b0;
    assign engine_arcache[1*4 +: 4] = 4'd0;
    assign engine_arprot[1*3 +: 3] = 3'd0;
    assign engine_arvalid[1] = 1'b0;
    assign engine_rready[1] = 1'b1;
    assign sq_doorbell_valid = 1'b0;
    assign sq_doorbell_qpn = 16'd0;
    assign sq_doorbell_producer_index = 16'd0;
    assign rq_doorbell_valid = 1'b0;
    assign rq_doorbell_qpn = 16'd0;
    assign rq_doorbell_producer_index = 16'd0;
    assign offloaded_completion_ready = 1'b1;
    // What the collective engine would have read; nothing does without it (waived in cluster.vlt)
    wire unused_collective_inputs = ^{stall_collective_memory, engine_awready[1], engine_wready[1],
                                      engine_bid[1*4 +: 4], engine_bresp[1*2 +: 2], engine_bvalid[1],
                                      engine_arready[1], engine_rid[1*4 +: 4], engine_rdata[1*DATA_WIDTH +: DATA_WIDTH],
                                      engine_rresp[1*2 +: 2], engine_rlast[1], engine_rvalid[1],
                                      sq_doorbell_ready, rq_doorbell_ready, offloaded_completion_valid,
                                      offloaded_completion_wr_id, offloaded_completion_byte_len,
                                      offloaded_completion_immediate, offloaded_completion_immediate_valid,
                                      offloaded_completion_qpn, offloaded_completion_opcode, offloaded_completion_status};
end
endgenerate

endmodule

`resetall
