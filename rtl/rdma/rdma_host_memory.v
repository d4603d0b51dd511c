// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// RDMA engine host memory: DMA writers and readers for the engine's clients, sharing one AXI4 master
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Each write port is an axi_dma_write (a command, then its bytes as a stream, then a status) and
// each read port an axi_dma_read (a command, then its bytes as a stream); the write and read
// arbiters put them on one AXI4 master, the arbiters' port number in the top bits of the AXI ID.
// Ports are packed side by side in the flat vectors, port k at [k*width +: width].
//
// Every reader buffers what it asks for, so none holds the shared R channel while its consumer
// waits: a frame builder stalled behind the other builder's frame on the MAC would otherwise
// stall the READ data the other builder waits for. The first PAYLOAD_READ_PORTS readers carry
// packet payloads (two 4 KiB packets buffered, bursts up to 256 beats); the others fetch queue
// entries (one 64-byte entry buffered, short bursts).
module rdma_host_memory #(
    // Width of the memory bus and the streams in bits (64 to 512, a power of two)
    parameter DATA_WIDTH = 64,
    // DMA writers
    parameter WRITE_PORTS = 3,
    // DMA readers
    parameter READ_PORTS = 4,
    // Readers 0 to PAYLOAD_READ_PORTS - 1 carry packet payloads; the rest fetch queue entries
    parameter PAYLOAD_READ_PORTS = 2,
    // Width of the AXI IDs on the master: the arbiters' port number and the DMA engines' own ID
    parameter AXI_ID_WIDTH = 4
) (
    input  wire                               clk,
    input  wire                               rst,

    // Write ports: write s_write_cmd_len bytes at s_write_cmd_addr, the bytes from s_write_axis,
    // then one status per command once its write responses are in
    input  wire [WRITE_PORTS*64-1:0]          s_write_cmd_addr,
    input  wire [WRITE_PORTS*16-1:0]          s_write_cmd_len,
    input  wire [WRITE_PORTS-1:0]             s_write_cmd_valid,
    output wire [WRITE_PORTS-1:0]             s_write_cmd_ready,
    input  wire [WRITE_PORTS*DATA_WIDTH-1:0]  s_write_axis_tdata,
    input  wire [WRITE_PORTS*DATA_WIDTH/8-1:0] s_write_axis_tkeep,
    input  wire [WRITE_PORTS-1:0]             s_write_axis_tvalid,
    output wire [WRITE_PORTS-1:0]             s_write_axis_tready,
    input  wire [WRITE_PORTS-1:0]             s_write_axis_tlast,
    output wire [WRITE_PORTS-1:0]             write_status_valid,
    output wire [WRITE_PORTS-1:0]             write_status_error,

    // Read ports: read s_read_cmd_len bytes from s_read_cmd_addr, delivered as one m_read_axis frame
    input  wire [READ_PORTS*64-1:0]           s_read_cmd_addr,
    input  wire [READ_PORTS*16-1:0]           s_read_cmd_len,
    input  wire [READ_PORTS-1:0]              s_read_cmd_valid,
    output wire [READ_PORTS-1:0]              s_read_cmd_ready,
    output wire [READ_PORTS*DATA_WIDTH-1:0]   m_read_axis_tdata,
    output wire [READ_PORTS*DATA_WIDTH/8-1:0] m_read_axis_tkeep,
    output wire [READ_PORTS-1:0]              m_read_axis_tvalid,
    input  wire [READ_PORTS-1:0]              m_read_axis_tready,
    output wire [READ_PORTS-1:0]              m_read_axis_tlast,
    // With a frame's last beat: some burst of it was answered SLVERR or DECERR (its bytes are
    // not the memory's)
    output wire [READ_PORTS-1:0]              m_read_axis_tuser,

    // Host memory
    output wire [AXI_ID_WIDTH-1:0]            m_axi_awid,
    output wire [63:0]                        m_axi_awaddr,
    output wire [7:0]                         m_axi_awlen,
    output wire [2:0]                         m_axi_awsize,
    output wire [1:0]                         m_axi_awburst,
    output wire                               m_axi_awlock,
    output wire [3:0]                         m_axi_awcache,
    output wire [2:0]                         m_axi_awprot,
    output wire                               m_axi_awvalid,
    input  wire                               m_axi_awready,
    output wire [DATA_WIDTH-1:0]              m_axi_wdata,
    output wire [DATA_WIDTH/8-1:0]            m_axi_wstrb,
    output wire                               m_axi_wlast,
    output wire                               m_axi_wvalid,
    input  wire                               m_axi_wready,
    input  wire [AXI_ID_WIDTH-1:0]            m_axi_bid,
    input  wire [1:0]                         m_axi_bresp,
    input  wire                               m_axi_bvalid,
    output wire                               m_axi_bready,
    output wire [AXI_ID_WIDTH-1:0]            m_axi_arid,
    output wire [63:0]                        m_axi_araddr,
    output wire [7:0]                         m_axi_arlen,
    output wire [2:0]                         m_axi_arsize,
    output wire [1:0]                         m_axi_arburst,
    output wire                               m_axi_arlock,
    output wire [3:0]                         m_axi_arcache,
    output wire [2:0]                         m_axi_arprot,
    output wire                               m_axi_arvalid,
    input  wire                               m_axi_arready,
    input  wire [AXI_ID_WIDTH-1:0]            m_axi_rid,
    input  wire [DATA_WIDTH-1:0]              m_axi_rdata,
    input  wire [1:0]                         m_axi_rresp,
    input  wire                               m_axi_rlast,
    input  wire                               m_axi_rvalid,
    output wire                               m_axi_rready
);

localparam KEEP_WIDTH = DATA_WIDTH / 8;
// The DMA engines' own AXI IDs; the arbiters add the bits naming the engine
localparam WRITE_ID_WIDTH = AXI_ID_WIDTH - $clog2(WRITE_PORTS);
localparam READ_ID_WIDTH = AXI_ID_WIDTH - $clog2(READ_PORTS);

initial begin
    if (DATA_WIDTH < 64 || DATA_WIDTH > 512 || (DATA_WIDTH & (DATA_WIDTH - 1)) != 0) begin
        $error("Error: DATA_WIDTH must be a power of two from 64 to 512 (instance %m)");
        $finish;
    end
    if (WRITE_PORTS < 2 || READ_PORTS < 2 || PAYLOAD_READ_PORTS < 0 || PAYLOAD_READ_PORTS > READ_PORTS) begin
        $error("Error: WRITE_PORTS and READ_PORTS must be 2 or more, PAYLOAD_READ_PORTS at most READ_PORTS (instance %m)");
        $finish;
    end
    if (WRITE_ID_WIDTH < 1 || READ_ID_WIDTH < 1) begin
        $error("Error: AXI_ID_WIDTH must leave the DMA engines an ID bit besides the port number (instance %m)");
        $finish;
    end
end

wire [WRITE_PORTS*WRITE_ID_WIDTH-1:0] arb_awid, arb_bid;
wire [WRITE_PORTS*64-1:0]             arb_awaddr;
wire [WRITE_PORTS*8-1:0]              arb_awlen;
wire [WRITE_PORTS*3-1:0]              arb_awsize, arb_awprot;
wire [WRITE_PORTS*2-1:0]              arb_awburst, arb_bresp;
wire [WRITE_PORTS*4-1:0]              arb_awcache;
wire [WRITE_PORTS-1:0]                arb_awlock, arb_awvalid, arb_awready, arb_wlast, arb_wvalid, arb_wready,
                                      arb_bvalid, arb_bready;
wire [WRITE_PORTS*DATA_WIDTH-1:0]     arb_wdata;
wire [WRITE_PORTS*KEEP_WIDTH-1:0]     arb_wstrb;
wire [READ_PORTS*READ_ID_WIDTH-1:0]   arb_arid, arb_rid;
wire [READ_PORTS*64-1:0]              arb_araddr;
wire [READ_PORTS*8-1:0]               arb_arlen;
wire [READ_PORTS*3-1:0]               arb_arsize, arb_arprot;
wire [READ_PORTS*2-1:0]               arb_arburst, arb_rresp;
wire [READ_PORTS*4-1:0]               arb_arcache;
wire [READ_PORTS-1:0]                 arb_arlock, arb_arvalid, arb_arready, arb_rlast, arb_rvalid, arb_rready;
wire [READ_PORTS*DATA_WIDTH-1:0]      arb_rdata;

genvar port;
generate
    for (port = 0; port < WRITE_PORTS; port = port + 1) begin : dma_write
        axi_dma_write #(
            .DATA_WIDTH(DATA_WIDTH), .ADDR_WIDTH(64), .LEN_WIDTH(16), .ID_WIDTH(WRITE_ID_WIDTH)
        ) write_inst (
            .clk(clk), .rst(rst),
            .s_cmd_addr(s_write_cmd_addr[port*64 +: 64]), .s_cmd_len(s_write_cmd_len[port*16 +: 16]),
            .s_cmd_valid(s_write_cmd_valid[port]), .s_cmd_ready(s_write_cmd_ready[port]),
            .s_axis_tdata(s_write_axis_tdata[port*DATA_WIDTH +: DATA_WIDTH]),
            .s_axis_tkeep(s_write_axis_tkeep[port*KEEP_WIDTH +: KEEP_WIDTH]), .s_axis_tvalid(s_write_axis_tvalid[port]),
            .s_axis_tready(s_write_axis_tready[port]), .s_axis_tlast(s_write_axis_tlast[port]),
            .m_axi_awid(arb_awid[port*WRITE_ID_WIDTH +: WRITE_ID_WIDTH]), .m_axi_awaddr(arb_awaddr[port*64 +: 64]),
            .m_axi_awlen(arb_awlen[port*8 +: 8]), .m_axi_awsize(arb_awsize[port*3 +: 3]),
            .m_axi_awburst(arb_awburst[port*2 +: 2]), .m_axi_awlock(arb_awlock[port]),
            .m_axi_awcache(arb_awcache[port*4 +: 4]), .m_axi_awprot(arb_awprot[port*3 +: 3]),
            .m_axi_awvalid(arb_awvalid[port]), .m_axi_awready(arb_awready[port]),
            .m_axi_wdata(arb_wdata[port*DATA_WIDTH +: DATA_WIDTH]), .m_axi_wstrb(arb_wstrb[port*KEEP_WIDTH +: KEEP_WIDTH]),
            .m_axi_wlast(arb_wlast[port]), .m_axi_wvalid(arb_wvalid[port]), .m_axi_wready(arb_wready[port]),
            .m_axi_bid(arb_bid[port*WRITE_ID_WIDTH +: WRITE_ID_WIDTH]), .m_axi_bresp(arb_bresp[port*2 +: 2]),
            .m_axi_bvalid(arb_bvalid[port]), .m_axi_bready(arb_bready[port]),
            .status_valid(write_status_valid[port]), .status_error(write_status_error[port])
        );
    end
    for (port = 0; port < READ_PORTS; port = port + 1) begin : dma_read
        axi_dma_read #(
            .DATA_WIDTH(DATA_WIDTH), .ADDR_WIDTH(64), .LEN_WIDTH(16), .ID_WIDTH(READ_ID_WIDTH),
            .MAX_BURST_BEATS(port >= PAYLOAD_READ_PORTS ? 16 : 256),
            .BUFFER_BEATS(port >= PAYLOAD_READ_PORTS ? 16 : 2 * 4096 / KEEP_WIDTH)
        ) read_inst (
            .clk(clk), .rst(rst),
            .s_cmd_addr(s_read_cmd_addr[port*64 +: 64]), .s_cmd_len(s_read_cmd_len[port*16 +: 16]),
            .s_cmd_valid(s_read_cmd_valid[port]), .s_cmd_ready(s_read_cmd_ready[port]),
            .m_axi_arid(arb_arid[port*READ_ID_WIDTH +: READ_ID_WIDTH]), .m_axi_araddr(arb_araddr[port*64 +: 64]),
            .m_axi_arlen(arb_arlen[port*8 +: 8]), .m_axi_arsize(arb_arsize[port*3 +: 3]),
            .m_axi_arburst(arb_arburst[port*2 +: 2]), .m_axi_arlock(arb_arlock[port]),
            .m_axi_arcache(arb_arcache[port*4 +: 4]), .m_axi_arprot(arb_arprot[port*3 +: 3]),
            .m_axi_arvalid(arb_arvalid[port]), .m_axi_arready(arb_arready[port]),
            .m_axi_rid(arb_rid[port*READ_ID_WIDTH +: READ_ID_WIDTH]), .m_axi_rdata(arb_rdata[port*DATA_WIDTH +: DATA_WIDTH]),
            .m_axi_rresp(arb_rresp[port*2 +: 2]), .m_axi_rlast(arb_rlast[port]), .m_axi_rvalid(arb_rvalid[port]),
            .m_axi_rready(arb_rready[port]),
            .m_axis_tdata(m_read_axis_tdata[port*DATA_WIDTH +: DATA_WIDTH]),
            .m_axis_tkeep(m_read_axis_tkeep[port*KEEP_WIDTH +: KEEP_WIDTH]), .m_axis_tvalid(m_read_axis_tvalid[port]),
            .m_axis_tready(m_read_axis_tready[port]), .m_axis_tlast(m_read_axis_tlast[port]),
            .m_axis_tuser(m_read_axis_tuser[port])
        );
    end
endgenerate

axi_write_arbiter #(
    .PORTS(WRITE_PORTS), .DATA_WIDTH(DATA_WIDTH), .ADDR_WIDTH(64), .S_ID_WIDTH(WRITE_ID_WIDTH)
) write_arbiter_inst (
    .clk(clk), .rst(rst),
    .s_axi_awid(arb_awid), .s_axi_awaddr(arb_awaddr), .s_axi_awlen(arb_awlen), .s_axi_awsize(arb_awsize),
    .s_axi_awburst(arb_awburst), .s_axi_awlock(arb_awlock), .s_axi_awcache(arb_awcache), .s_axi_awprot(arb_awprot),
    .s_axi_awvalid(arb_awvalid), .s_axi_awready(arb_awready), .s_axi_wdata(arb_wdata), .s_axi_wstrb(arb_wstrb),
    .s_axi_wlast(arb_wlast), .s_axi_wvalid(arb_wvalid), .s_axi_wready(arb_wready), .s_axi_bid(arb_bid),
    .s_axi_bresp(arb_bresp), .s_axi_bvalid(arb_bvalid), .s_axi_bready(arb_bready),
    .m_axi_awid(m_axi_awid), .m_axi_awaddr(m_axi_awaddr), .m_axi_awlen(m_axi_awlen), .m_axi_awsize(m_axi_awsize),
    .m_axi_awburst(m_axi_awburst), .m_axi_awlock(m_axi_awlock), .m_axi_awcache(m_axi_awcache),
    .m_axi_awprot(m_axi_awprot), .m_axi_awvalid(m_axi_awvalid), .m_axi_awready(m_axi_awready),
    .m_axi_wdata(m_axi_wdata), .m_axi_wstrb(m_axi_wstrb), .m_axi_wlast(m_axi_wlast), .m_axi_wvalid(m_axi_wvalid),
    .m_axi_wready(m_axi_wready), .m_axi_bid(m_axi_bid), .m_axi_bresp(m_axi_bresp), .m_axi_bvalid(m_axi_bvalid),
    .m_axi_bready(m_axi_bready)
);

axi_read_arbiter #(
    .PORTS(READ_PORTS), .DATA_WIDTH(DATA_WIDTH), .ADDR_WIDTH(64), .S_ID_WIDTH(READ_ID_WIDTH)
) read_arbiter_inst (
    .clk(clk), .rst(rst),
    .s_axi_arid(arb_arid), .s_axi_araddr(arb_araddr), .s_axi_arlen(arb_arlen), .s_axi_arsize(arb_arsize),
    .s_axi_arburst(arb_arburst), .s_axi_arlock(arb_arlock), .s_axi_arcache(arb_arcache), .s_axi_arprot(arb_arprot),
    .s_axi_arvalid(arb_arvalid), .s_axi_arready(arb_arready), .s_axi_rid(arb_rid), .s_axi_rdata(arb_rdata),
    .s_axi_rresp(arb_rresp), .s_axi_rlast(arb_rlast), .s_axi_rvalid(arb_rvalid), .s_axi_rready(arb_rready),
    .m_axi_arid(m_axi_arid), .m_axi_araddr(m_axi_araddr), .m_axi_arlen(m_axi_arlen), .m_axi_arsize(m_axi_arsize),
    .m_axi_arburst(m_axi_arburst), .m_axi_arlock(m_axi_arlock), .m_axi_arcache(m_axi_arcache),
    .m_axi_arprot(m_axi_arprot), .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready),
    .m_axi_rid(m_axi_rid), .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp), .m_axi_rlast(m_axi_rlast),
    .m_axi_rvalid(m_axi_rvalid), .m_axi_rready(m_axi_rready)
);

endmodule

`resetall
