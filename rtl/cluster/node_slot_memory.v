// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// The node's on-chip slot memory: the collective engine's receive slots in block RAM, off the node-memory port
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Ring all-reduce moves every piece through the receive slots: the RDMA engine writes it there and
// the collective engine reads it back. With the slots in node memory that is one write and one
// read of the one node-memory port per piece, on top of the requester reading what it sends and
// the engine reading the local chunk and writing the result (docs/cluster.md, where the time
// goes). A DPU keeps such staging buffers on chip; so does this node when SLOT_MEMORY_BYTES is not
// zero: a RAM at SLOT_MEMORY_BASE, which the host points the collective engine's slots (and the
// slots' memory region) at.
//
// Each engine's bursts are split by address (axi_window_split): those in the slot memory go to
// it, through a two-port arbiter per direction, and the rest go on to node memory unchanged.
// The RAM's write and read channels are independent, so the RDMA engine filling one slot and the
// collective engine draining another never wait for each other. The host's port does not reach
// the slot memory (the testbench reads it directly); addresses in it answer DECERR from node
// memory, as any address past it does.
module node_slot_memory #(
    // Width of the memory bus in bits
    parameter DATA_WIDTH = 64,
    // The slot memory: SLOT_MEMORY_BYTES (0: none, every burst goes to node memory; else a power
    // of two, 4 KiB or more) from SLOT_MEMORY_BASE (a multiple of it)
    parameter [63:0] SLOT_MEMORY_BASE = 64'h0000_0001_0000_0000,
    parameter SLOT_MEMORY_BYTES = 0
) (
    input  wire clk,
    input  wire rst,

    // The masters: the RDMA engine (0) and the collective engine (1); port k's signals are bits [k*W +: W]
    input  wire [2*4-1:0] s_axi_awid,
    input  wire [2*64-1:0] s_axi_awaddr,
    input  wire [2*8-1:0] s_axi_awlen,
    input  wire [2*3-1:0] s_axi_awsize,
    input  wire [2*2-1:0] s_axi_awburst,
    input  wire [2-1:0] s_axi_awlock,
    input  wire [2*4-1:0] s_axi_awcache,
    input  wire [2*3-1:0] s_axi_awprot,
    input  wire [2-1:0] s_axi_awvalid,
    output wire [2-1:0] s_axi_awready,
    input  wire [2*DATA_WIDTH-1:0] s_axi_wdata,
    input  wire [2*DATA_WIDTH/8-1:0] s_axi_wstrb,
    input  wire [2-1:0] s_axi_wlast,
    input  wire [2-1:0] s_axi_wvalid,
    output wire [2-1:0] s_axi_wready,
    output wire [2*4-1:0] s_axi_bid,
    output wire [2*2-1:0] s_axi_bresp,
    output wire [2-1:0] s_axi_bvalid,
    input  wire [2-1:0] s_axi_bready,
    input  wire [2*4-1:0] s_axi_arid,
    input  wire [2*64-1:0] s_axi_araddr,
    input  wire [2*8-1:0] s_axi_arlen,
    input  wire [2*3-1:0] s_axi_arsize,
    input  wire [2*2-1:0] s_axi_arburst,
    input  wire [2-1:0] s_axi_arlock,
    input  wire [2*4-1:0] s_axi_arcache,
    input  wire [2*3-1:0] s_axi_arprot,
    input  wire [2-1:0] s_axi_arvalid,
    output wire [2-1:0] s_axi_arready,
    output wire [2*4-1:0] s_axi_rid,
    output wire [2*DATA_WIDTH-1:0] s_axi_rdata,
    output wire [2*2-1:0] s_axi_rresp,
    output wire [2-1:0] s_axi_rlast,
    output wire [2-1:0] s_axi_rvalid,
    input  wire [2-1:0] s_axi_rready,

    // The same masters towards node memory: every burst outside the slot memory
    output wire [2*4-1:0] m_axi_awid,
    output wire [2*64-1:0] m_axi_awaddr,
    output wire [2*8-1:0] m_axi_awlen,
    output wire [2*3-1:0] m_axi_awsize,
    output wire [2*2-1:0] m_axi_awburst,
    output wire [2-1:0] m_axi_awlock,
    output wire [2*4-1:0] m_axi_awcache,
    output wire [2*3-1:0] m_axi_awprot,
    output wire [2-1:0] m_axi_awvalid,
    input  wire [2-1:0] m_axi_awready,
    output wire [2*DATA_WIDTH-1:0] m_axi_wdata,
    output wire [2*DATA_WIDTH/8-1:0] m_axi_wstrb,
    output wire [2-1:0] m_axi_wlast,
    output wire [2-1:0] m_axi_wvalid,
    input  wire [2-1:0] m_axi_wready,
    input  wire [2*4-1:0] m_axi_bid,
    input  wire [2*2-1:0] m_axi_bresp,
    input  wire [2-1:0] m_axi_bvalid,
    output wire [2-1:0] m_axi_bready,
    output wire [2*4-1:0] m_axi_arid,
    output wire [2*64-1:0] m_axi_araddr,
    output wire [2*8-1:0] m_axi_arlen,
    output wire [2*3-1:0] m_axi_arsize,
    output wire [2*2-1:0] m_axi_arburst,
    output wire [2-1:0] m_axi_arlock,
    output wire [2*4-1:0] m_axi_arcache,
    output wire [2*3-1:0] m_axi_arprot,
    output wire [2-1:0] m_axi_arvalid,
    input  wire [2-1:0] m_axi_arready,
    input  wire [2*4-1:0] m_axi_rid,
    input  wire [2*DATA_WIDTH-1:0] m_axi_rdata,
    input  wire [2*2-1:0] m_axi_rresp,
    input  wire [2-1:0] m_axi_rlast,
    input  wire [2-1:0] m_axi_rvalid,
    output wire [2-1:0] m_axi_rready
);

generate
if (SLOT_MEMORY_BYTES == 0) begin : no_slot_memory
    // A wire and nothing else: the clock and reset have nothing to drive (waived in cluster.vlt)
    wire unused_clock_and_reset = ^{clk, rst};
    assign m_axi_awid = s_axi_awid;
    assign m_axi_awaddr = s_axi_awaddr;
    assign m_axi_awlen = s_axi_awlen;
    assign m_axi_awsize = s_axi_awsize;
    assign m_axi_awburst = s_axi_awburst;
    assign m_axi_awlock = s_axi_awlock;
    assign m_axi_awcache = s_axi_awcache;
    assign m_axi_awprot = s_axi_awprot;
    assign m_axi_awvalid = s_axi_awvalid;
    assign s_axi_awready = m_axi_awready;
    assign m_axi_wdata = s_axi_wdata;
    assign m_axi_wstrb = s_axi_wstrb;
    assign m_axi_wlast = s_axi_wlast;
    assign m_axi_wvalid = s_axi_wvalid;
    assign s_axi_wready = m_axi_wready;
    assign s_axi_bid = m_axi_bid;
    assign s_axi_bresp = m_axi_bresp;
    assign s_axi_bvalid = m_axi_bvalid;
    assign m_axi_bready = s_axi_bready;
    assign m_axi_arid = s_axi_arid;
    assign m_axi_araddr = s_axi_araddr;
    assign m_axi_arlen = s_axi_arlen;
    assign m_axi_arsize = s_axi_arsize;
    assign m_axi_arburst = s_axi_arburst;
    assign m_axi_arlock = s_axi_arlock;
    assign m_axi_arcache = s_axi_arcache;
    assign m_axi_arprot = s_axi_arprot;
    assign m_axi_arvalid = s_axi_arvalid;
    assign s_axi_arready = m_axi_arready;
    assign s_axi_rid = m_axi_rid;
    assign s_axi_rdata = m_axi_rdata;
    assign s_axi_rresp = m_axi_rresp;
    assign s_axi_rlast = m_axi_rlast;
    assign s_axi_rvalid = m_axi_rvalid;
    assign m_axi_rready = s_axi_rready;
end else begin : slot_memory
    // The slot RAM's IDs: the engine's 4-bit ID with the arbiter's port index above it
    localparam SLOT_ID_WIDTH = 5;

    wire [2*4-1:0] window_awid;
    wire [2*64-1:0] window_awaddr;
    wire [2*8-1:0] window_awlen;
    wire [2*3-1:0] window_awsize;
    wire [2*2-1:0] window_awburst;
    wire [2-1:0] window_awlock;
    wire [2*4-1:0] window_awcache;
    wire [2*3-1:0] window_awprot;
    wire [2-1:0] window_awvalid;
    wire [2-1:0] window_awready;
    wire [2*DATA_WIDTH-1:0] window_wdata;
    wire [2*DATA_WIDTH/8-1:0] window_wstrb;
    wire [2-1:0] window_wlast;
    wire [2-1:0] window_wvalid;
    wire [2-1:0] window_wready;
    wire [2*4-1:0] window_bid;
    wire [2*2-1:0] window_bresp;
    wire [2-1:0] window_bvalid;
    wire [2-1:0] window_bready;
    wire [2*4-1:0] window_arid;
    wire [2*64-1:0] window_araddr;
    wire [2*8-1:0] window_arlen;
    wire [2*3-1:0] window_arsize;
    wire [2*2-1:0] window_arburst;
    wire [2-1:0] window_arlock;
    wire [2*4-1:0] window_arcache;
    wire [2*3-1:0] window_arprot;
    wire [2-1:0] window_arvalid;
    wire [2-1:0] window_arready;
    wire [2*4-1:0] window_rid;
    wire [2*DATA_WIDTH-1:0] window_rdata;
    wire [2*2-1:0] window_rresp;
    wire [2-1:0] window_rlast;
    wire [2-1:0] window_rvalid;
    wire [2-1:0] window_rready;

    genvar k;
    for (k = 0; k < 2; k = k + 1) begin : split
        axi_window_split #(
            .DATA_WIDTH(DATA_WIDTH), .ADDR_WIDTH(64), .ID_WIDTH(4),
            .WINDOW_BASE(SLOT_MEMORY_BASE), .WINDOW_BYTES(SLOT_MEMORY_BYTES)
        ) split_inst (
            .clk(clk), .rst(rst),
            .s_axi_awid(s_axi_awid[k*4 +: 4]), .s_axi_awaddr(s_axi_awaddr[k*64 +: 64]),
            .s_axi_awlen(s_axi_awlen[k*8 +: 8]), .s_axi_awsize(s_axi_awsize[k*3 +: 3]),
            .s_axi_awburst(s_axi_awburst[k*2 +: 2]), .s_axi_awlock(s_axi_awlock[k]),
            .s_axi_awcache(s_axi_awcache[k*4 +: 4]), .s_axi_awprot(s_axi_awprot[k*3 +: 3]),
            .s_axi_awvalid(s_axi_awvalid[k]), .s_axi_awready(s_axi_awready[k]),
            .s_axi_wdata(s_axi_wdata[k*DATA_WIDTH +: DATA_WIDTH]),
            .s_axi_wstrb(s_axi_wstrb[k*DATA_WIDTH/8 +: DATA_WIDTH/8]), .s_axi_wlast(s_axi_wlast[k]),
            .s_axi_wvalid(s_axi_wvalid[k]), .s_axi_wready(s_axi_wready[k]), .s_axi_bid(s_axi_bid[k*4 +: 4]),
            .s_axi_bresp(s_axi_bresp[k*2 +: 2]), .s_axi_bvalid(s_axi_bvalid[k]),
            .s_axi_bready(s_axi_bready[k]), .s_axi_arid(s_axi_arid[k*4 +: 4]),
            .s_axi_araddr(s_axi_araddr[k*64 +: 64]), .s_axi_arlen(s_axi_arlen[k*8 +: 8]),
            .s_axi_arsize(s_axi_arsize[k*3 +: 3]), .s_axi_arburst(s_axi_arburst[k*2 +: 2]),
            .s_axi_arlock(s_axi_arlock[k]), .s_axi_arcache(s_axi_arcache[k*4 +: 4]),
            .s_axi_arprot(s_axi_arprot[k*3 +: 3]), .s_axi_arvalid(s_axi_arvalid[k]),
            .s_axi_arready(s_axi_arready[k]), .s_axi_rid(s_axi_rid[k*4 +: 4]),
            .s_axi_rdata(s_axi_rdata[k*DATA_WIDTH +: DATA_WIDTH]), .s_axi_rresp(s_axi_rresp[k*2 +: 2]),
            .s_axi_rlast(s_axi_rlast[k]), .s_axi_rvalid(s_axi_rvalid[k]), .s_axi_rready(s_axi_rready[k]),
            .m_rest_axi_awid(m_axi_awid[k*4 +: 4]), .m_rest_axi_awaddr(m_axi_awaddr[k*64 +: 64]),
            .m_rest_axi_awlen(m_axi_awlen[k*8 +: 8]), .m_rest_axi_awsize(m_axi_awsize[k*3 +: 3]),
            .m_rest_axi_awburst(m_axi_awburst[k*2 +: 2]), .m_rest_axi_awlock(m_axi_awlock[k]),
            .m_rest_axi_awcache(m_axi_awcache[k*4 +: 4]), .m_rest_axi_awprot(m_axi_awprot[k*3 +: 3]),
            .m_rest_axi_awvalid(m_axi_awvalid[k]), .m_rest_axi_awready(m_axi_awready[k]),
            .m_rest_axi_wdata(m_axi_wdata[k*DATA_WIDTH +: DATA_WIDTH]),
            .m_rest_axi_wstrb(m_axi_wstrb[k*DATA_WIDTH/8 +: DATA_WIDTH/8]),
            .m_rest_axi_wlast(m_axi_wlast[k]), .m_rest_axi_wvalid(m_axi_wvalid[k]),
            .m_rest_axi_wready(m_axi_wready[k]), .m_rest_axi_bid(m_axi_bid[k*4 +: 4]),
            .m_rest_axi_bresp(m_axi_bresp[k*2 +: 2]), .m_rest_axi_bvalid(m_axi_bvalid[k]),
            .m_rest_axi_bready(m_axi_bready[k]), .m_rest_axi_arid(m_axi_arid[k*4 +: 4]),
            .m_rest_axi_araddr(m_axi_araddr[k*64 +: 64]), .m_rest_axi_arlen(m_axi_arlen[k*8 +: 8]),
            .m_rest_axi_arsize(m_axi_arsize[k*3 +: 3]), .m_rest_axi_arburst(m_axi_arburst[k*2 +: 2]),
            .m_rest_axi_arlock(m_axi_arlock[k]), .m_rest_axi_arcache(m_axi_arcache[k*4 +: 4]),
            .m_rest_axi_arprot(m_axi_arprot[k*3 +: 3]), .m_rest_axi_arvalid(m_axi_arvalid[k]),
            .m_rest_axi_arready(m_axi_arready[k]), .m_rest_axi_rid(m_axi_rid[k*4 +: 4]),
            .m_rest_axi_rdata(m_axi_rdata[k*DATA_WIDTH +: DATA_WIDTH]),
            .m_rest_axi_rresp(m_axi_rresp[k*2 +: 2]), .m_rest_axi_rlast(m_axi_rlast[k]),
            .m_rest_axi_rvalid(m_axi_rvalid[k]), .m_rest_axi_rready(m_axi_rready[k]),
            .m_window_axi_awid(window_awid[k*4 +: 4]), .m_window_axi_awaddr(window_awaddr[k*64 +: 64]),
            .m_window_axi_awlen(window_awlen[k*8 +: 8]), .m_window_axi_awsize(window_awsize[k*3 +: 3]),
            .m_window_axi_awburst(window_awburst[k*2 +: 2]), .m_window_axi_awlock(window_awlock[k]),
            .m_window_axi_awcache(window_awcache[k*4 +: 4]), .m_window_axi_awprot(window_awprot[k*3 +: 3]),
            .m_window_axi_awvalid(window_awvalid[k]), .m_window_axi_awready(window_awready[k]),
            .m_window_axi_wdata(window_wdata[k*DATA_WIDTH +: DATA_WIDTH]),
            .m_window_axi_wstrb(window_wstrb[k*DATA_WIDTH/8 +: DATA_WIDTH/8]),
            .m_window_axi_wlast(window_wlast[k]), .m_window_axi_wvalid(window_wvalid[k]),
            .m_window_axi_wready(window_wready[k]), .m_window_axi_bid(window_bid[k*4 +: 4]),
            .m_window_axi_bresp(window_bresp[k*2 +: 2]), .m_window_axi_bvalid(window_bvalid[k]),
            .m_window_axi_bready(window_bready[k]), .m_window_axi_arid(window_arid[k*4 +: 4]),
            .m_window_axi_araddr(window_araddr[k*64 +: 64]), .m_window_axi_arlen(window_arlen[k*8 +: 8]),
            .m_window_axi_arsize(window_arsize[k*3 +: 3]), .m_window_axi_arburst(window_arburst[k*2 +: 2]),
            .m_window_axi_arlock(window_arlock[k]), .m_window_axi_arcache(window_arcache[k*4 +: 4]),
            .m_window_axi_arprot(window_arprot[k*3 +: 3]), .m_window_axi_arvalid(window_arvalid[k]),
            .m_window_axi_arready(window_arready[k]), .m_window_axi_rid(window_rid[k*4 +: 4]),
            .m_window_axi_rdata(window_rdata[k*DATA_WIDTH +: DATA_WIDTH]),
            .m_window_axi_rresp(window_rresp[k*2 +: 2]), .m_window_axi_rlast(window_rlast[k]),
            .m_window_axi_rvalid(window_rvalid[k]), .m_window_axi_rready(window_rready[k])
        );
    end

    wire [SLOT_ID_WIDTH-1:0] slot_awid;
    wire [64-1:0] slot_awaddr;
    wire [8-1:0] slot_awlen;
    wire [3-1:0] slot_awsize;
    wire [2-1:0] slot_awburst;
    wire slot_awlock;
    wire [4-1:0] slot_awcache;
    wire [3-1:0] slot_awprot;
    wire slot_awvalid;
    wire slot_awready;
    wire [DATA_WIDTH-1:0] slot_wdata;
    wire [DATA_WIDTH/8-1:0] slot_wstrb;
    wire slot_wlast;
    wire slot_wvalid;
    wire slot_wready;
    wire [SLOT_ID_WIDTH-1:0] slot_bid;
    wire [2-1:0] slot_bresp;
    wire slot_bvalid;
    wire slot_bready;
    wire [SLOT_ID_WIDTH-1:0] slot_arid;
    wire [64-1:0] slot_araddr;
    wire [8-1:0] slot_arlen;
    wire [3-1:0] slot_arsize;
    wire [2-1:0] slot_arburst;
    wire slot_arlock;
    wire [4-1:0] slot_arcache;
    wire [3-1:0] slot_arprot;
    wire slot_arvalid;
    wire slot_arready;
    wire [SLOT_ID_WIDTH-1:0] slot_rid;
    wire [DATA_WIDTH-1:0] slot_rdata;
    wire [2-1:0] slot_rresp;
    wire slot_rlast;
    wire slot_rvalid;
    wire slot_rready;

    axi_write_arbiter #(
        .PORTS(2), .DATA_WIDTH(DATA_WIDTH), .ADDR_WIDTH(64), .S_ID_WIDTH(4), .M_ID_WIDTH(SLOT_ID_WIDTH)
    ) write_arbiter_inst (
        .clk(clk), .rst(rst),
        .s_axi_awid(window_awid), .s_axi_awaddr(window_awaddr), .s_axi_awlen(window_awlen),
        .s_axi_awsize(window_awsize), .s_axi_awburst(window_awburst), .s_axi_awlock(window_awlock),
        .s_axi_awcache(window_awcache), .s_axi_awprot(window_awprot), .s_axi_awvalid(window_awvalid),
        .s_axi_awready(window_awready), .s_axi_wdata(window_wdata), .s_axi_wstrb(window_wstrb),
        .s_axi_wlast(window_wlast), .s_axi_wvalid(window_wvalid), .s_axi_wready(window_wready),
        .s_axi_bid(window_bid), .s_axi_bresp(window_bresp), .s_axi_bvalid(window_bvalid),
        .s_axi_bready(window_bready), .m_axi_awid(slot_awid), .m_axi_awaddr(slot_awaddr),
        .m_axi_awlen(slot_awlen), .m_axi_awsize(slot_awsize), .m_axi_awburst(slot_awburst),
        .m_axi_awlock(slot_awlock), .m_axi_awcache(slot_awcache), .m_axi_awprot(slot_awprot),
        .m_axi_awvalid(slot_awvalid), .m_axi_awready(slot_awready), .m_axi_wdata(slot_wdata),
        .m_axi_wstrb(slot_wstrb), .m_axi_wlast(slot_wlast), .m_axi_wvalid(slot_wvalid),
        .m_axi_wready(slot_wready), .m_axi_bid(slot_bid), .m_axi_bresp(slot_bresp),
        .m_axi_bvalid(slot_bvalid), .m_axi_bready(slot_bready)
    );

    axi_read_arbiter #(
        .PORTS(2), .DATA_WIDTH(DATA_WIDTH), .ADDR_WIDTH(64), .S_ID_WIDTH(4), .M_ID_WIDTH(SLOT_ID_WIDTH)
    ) read_arbiter_inst (
        .clk(clk), .rst(rst),
        .s_axi_arid(window_arid), .s_axi_araddr(window_araddr), .s_axi_arlen(window_arlen),
        .s_axi_arsize(window_arsize), .s_axi_arburst(window_arburst), .s_axi_arlock(window_arlock),
        .s_axi_arcache(window_arcache), .s_axi_arprot(window_arprot), .s_axi_arvalid(window_arvalid),
        .s_axi_arready(window_arready), .s_axi_rid(window_rid), .s_axi_rdata(window_rdata),
        .s_axi_rresp(window_rresp), .s_axi_rlast(window_rlast), .s_axi_rvalid(window_rvalid),
        .s_axi_rready(window_rready), .m_axi_arid(slot_arid), .m_axi_araddr(slot_araddr),
        .m_axi_arlen(slot_arlen), .m_axi_arsize(slot_arsize), .m_axi_arburst(slot_arburst),
        .m_axi_arlock(slot_arlock), .m_axi_arcache(slot_arcache), .m_axi_arprot(slot_arprot),
        .m_axi_arvalid(slot_arvalid), .m_axi_arready(slot_arready), .m_axi_rid(slot_rid),
        .m_axi_rdata(slot_rdata), .m_axi_rresp(slot_rresp), .m_axi_rlast(slot_rlast),
        .m_axi_rvalid(slot_rvalid), .m_axi_rready(slot_rready)
    );

    axi_ram #(
        .DATA_WIDTH(DATA_WIDTH), .ADDR_WIDTH(64), .ID_WIDTH(SLOT_ID_WIDTH), .SIZE_BYTES(SLOT_MEMORY_BYTES),
        .BASE_ADDRESS(SLOT_MEMORY_BASE)
    ) memory_inst (
        .clk(clk), .rst(rst),
        .s_axi_awid(slot_awid), .s_axi_awaddr(slot_awaddr), .s_axi_awlen(slot_awlen),
        .s_axi_awsize(slot_awsize), .s_axi_awburst(slot_awburst), .s_axi_awlock(slot_awlock),
        .s_axi_awcache(slot_awcache), .s_axi_awprot(slot_awprot), .s_axi_awvalid(slot_awvalid),
        .s_axi_awready(slot_awready), .s_axi_wdata(slot_wdata), .s_axi_wstrb(slot_wstrb),
        .s_axi_wlast(slot_wlast), .s_axi_wvalid(slot_wvalid), .s_axi_wready(slot_wready),
        .s_axi_bid(slot_bid), .s_axi_bresp(slot_bresp), .s_axi_bvalid(slot_bvalid),
        .s_axi_bready(slot_bready), .s_axi_arid(slot_arid), .s_axi_araddr(slot_araddr),
        .s_axi_arlen(slot_arlen), .s_axi_arsize(slot_arsize), .s_axi_arburst(slot_arburst),
        .s_axi_arlock(slot_arlock), .s_axi_arcache(slot_arcache), .s_axi_arprot(slot_arprot),
        .s_axi_arvalid(slot_arvalid), .s_axi_arready(slot_arready), .s_axi_rid(slot_rid),
        .s_axi_rdata(slot_rdata), .s_axi_rresp(slot_rresp), .s_axi_rlast(slot_rlast),
        .s_axi_rvalid(slot_rvalid), .s_axi_rready(slot_rready)
    );
end
endgenerate

endmodule

`resetall
