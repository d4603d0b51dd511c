// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// DPU cluster for one simulation: NODES node cores, each with its own node memory, joined by the switch and link model
`resetall
`timescale 1ns / 1ps
`default_nettype none

// One register bus for the whole cluster: node i's own bus (its ID block and chain) is the window
// at i * 2^NODE_WINDOW_BITS. Node memories are RTL RAMs (axi_ram), so bulk traffic never passes
// through the testbench; a testbench loads and reads them directly (node_gen[i].memory_inst.memory).
// Every node's MAC port is a port of the switch (fabric_switch), which forwards by destination
// MAC (port_mac), paces every link at the line rate, adds the cable and switch latency and injects
// the faults its inputs ask for.
module dpu_cluster #(
    // Nodes, 2 to 8
    parameter NODES = 4,
    // Width of the MAC streams and the memory bus in bits (64 or 512)
    parameter DATA_WIDTH = 64,
    // Bytes of each node's memory (a power of two)
    parameter MEMORY_BYTES = 262144,
    // Queue pairs in each RDMA engine
    parameter QP_COUNT = 8,
    // The RDMA engines' ACK-timeout unit in cycles
    parameter TIMEOUT_UNIT_CYCLES = 1024,
    // Line rate of every link in Mb/s, and the clock period in ps
    parameter LINE_RATE_MBPS = 100000,
    parameter CLOCK_PERIOD_PS = 4000,
    // Cycles of cable and switch latency, port to port
    parameter LATENCY_CYCLES = 75,
    // Frame bytes each switch egress buffer holds
    parameter BUFFER_BYTES = 65536,
    // Bytes of each node's on-chip slot memory (node_slot_memory; 0: none, slots in node memory)
    parameter SLOT_MEMORY_BYTES = 65536
) (
    input  wire                        clk,
    input  wire                        rst,

    input  wire [ADDR_WIDTH-1:0]       s_axil_awaddr,
    input  wire [3-1:0]                s_axil_awprot,
    input  wire                        s_axil_awvalid,
    output wire                        s_axil_awready,
    input  wire [32-1:0]               s_axil_wdata,
    input  wire [4-1:0]                s_axil_wstrb,
    input  wire                        s_axil_wvalid,
    output wire                        s_axil_wready,
    output wire [2-1:0]                s_axil_bresp,
    output wire                        s_axil_bvalid,
    input  wire                        s_axil_bready,
    input  wire [ADDR_WIDTH-1:0]       s_axil_araddr,
    input  wire [3-1:0]                s_axil_arprot,
    input  wire                        s_axil_arvalid,
    output wire                        s_axil_arready,
    output wire [32-1:0]               s_axil_rdata,
    output wire [2-1:0]                s_axil_rresp,
    output wire                        s_axil_rvalid,
    input  wire                        s_axil_rready,

    // The switch: each port's MAC address, faults and ECN per egress port, counters (fabric_switch)
    input  wire [NODES*48-1:0]         port_mac,
    input  wire [NODES-1:0]            ecn_enable,
    input  wire [NODES*24-1:0]         ecn_kmin_bytes,
    input  wire [NODES*24-1:0]         ecn_kmax_bytes,
    input  wire [NODES*16-1:0]         ecn_pmax,
    input  wire [NODES*16-1:0]         loss_threshold,
    input  wire [NODES*8-1:0]          burst_length,
    input  wire [NODES*16-1:0]         duplicate_threshold,
    input  wire [NODES*16-1:0]         corrupt_threshold,
    input  wire [NODES*16-1:0]         reorder_threshold,
    input  wire [NODES*16-1:0]         reorder_hold_cycles,
    input  wire [31:0]                 seed,
    // Fault injection per node: its collective engine's node-memory accesses wait (a slow node)
    input  wire [NODES-1:0]            stall_collective_memory,
    // Fault injection per node: the node and its memory's controller reset alone (the memory's
    // contents stay). The host must leave the node's registers alone while it is held.
    input  wire [NODES-1:0]            node_reset,
    output wire [NODES*24-1:0]         queue_peak_bytes,
    output wire [NODES*32-1:0]         frames_forwarded,
    output wire [NODES*32-1:0]         bytes_forwarded,
    output wire [NODES*32-1:0]         tail_drops,
    output wire [NODES*32-1:0]         frames_lost,
    output wire [NODES*32-1:0]         frames_duplicated,
    output wire [NODES*32-1:0]         frames_corrupted,
    output wire [NODES*32-1:0]         frames_reordered,
    output wire [NODES*32-1:0]         frames_marked,
    output wire [NODES*32-1:0]         unknown_destination,

    // Every node's MAC streams, for monitors (pcap): TX into the switch, RX out of it
    output wire [NODES*DATA_WIDTH-1:0] tx_tdata,
    output wire [NODES*DATA_WIDTH/8-1:0] tx_tkeep,
    output wire [NODES-1:0]            tx_tvalid,
    output wire [NODES-1:0]            tx_tready,
    output wire [NODES-1:0]            tx_tlast,
    // A frame that its node's reset cut off, ended as a bad frame
    output wire [NODES-1:0]            tx_tuser,
    output wire [NODES*DATA_WIDTH-1:0] rx_tdata,
    output wire [NODES*DATA_WIDTH/8-1:0] rx_tkeep,
    output wire [NODES-1:0]            rx_tvalid,
    output wire [NODES-1:0]            rx_tlast,
    output wire [NODES-1:0]            rx_tuser
);

localparam NODE_WINDOW_BITS = 16;
localparam ADDR_WIDTH = 20;
localparam KEEP_WIDTH = DATA_WIDTH / 8;

initial begin
    if (NODES < 2 || NODES > 8) begin
        $error("Error: NODES must be 2 to 8 (instance %m)");
        $finish;
    end
end

wire [NODES*NODE_WINDOW_BITS-1:0] node_axil_awaddr;
wire [NODES*3-1:0] node_axil_awprot;
wire [NODES-1:0] node_axil_awvalid;
wire [NODES-1:0] node_axil_awready;
wire [NODES*32-1:0] node_axil_wdata;
wire [NODES*4-1:0] node_axil_wstrb;
wire [NODES-1:0] node_axil_wvalid;
wire [NODES-1:0] node_axil_wready;
wire [NODES*2-1:0] node_axil_bresp;
wire [NODES-1:0] node_axil_bvalid;
wire [NODES-1:0] node_axil_bready;
wire [NODES*NODE_WINDOW_BITS-1:0] node_axil_araddr;
wire [NODES*3-1:0] node_axil_arprot;
wire [NODES-1:0] node_axil_arvalid;
wire [NODES-1:0] node_axil_arready;
wire [NODES*32-1:0] node_axil_rdata;
wire [NODES*2-1:0] node_axil_rresp;
wire [NODES-1:0] node_axil_rvalid;
wire [NODES-1:0] node_axil_rready;

axil_decoder #(
    .M_COUNT(NODES), .ADDR_WIDTH(ADDR_WIDTH), .WINDOW_ADDR_WIDTH(NODE_WINDOW_BITS)
) decoder_inst (
    .clk(clk), .rst(rst),

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

    .m_axil_awaddr(node_axil_awaddr),
    .m_axil_awprot(node_axil_awprot),
    .m_axil_awvalid(node_axil_awvalid),
    .m_axil_awready(node_axil_awready),
    .m_axil_wdata(node_axil_wdata),
    .m_axil_wstrb(node_axil_wstrb),
    .m_axil_wvalid(node_axil_wvalid),
    .m_axil_wready(node_axil_wready),
    .m_axil_bresp(node_axil_bresp),
    .m_axil_bvalid(node_axil_bvalid),
    .m_axil_bready(node_axil_bready),
    .m_axil_araddr(node_axil_araddr),
    .m_axil_arprot(node_axil_arprot),
    .m_axil_arvalid(node_axil_arvalid),
    .m_axil_arready(node_axil_arready),
    .m_axil_rdata(node_axil_rdata),
    .m_axil_rresp(node_axil_rresp),
    .m_axil_rvalid(node_axil_rvalid),
    .m_axil_rready(node_axil_rready)
);

genvar i;
generate
for (i = 0; i < NODES; i = i + 1) begin : node_gen
    wire [6-1:0]            memory_awid;
    wire [64-1:0]           memory_awaddr;
    wire [8-1:0]            memory_awlen;
    wire [3-1:0]            memory_awsize;
    wire [2-1:0]            memory_awburst;
    wire                    memory_awlock;
    wire [4-1:0]            memory_awcache;
    wire [3-1:0]            memory_awprot;
    wire                    memory_awvalid;
    wire                    memory_awready;
    wire [DATA_WIDTH-1:0]   memory_wdata;
    wire [DATA_WIDTH/8-1:0] memory_wstrb;
    wire                    memory_wlast;
    wire                    memory_wvalid;
    wire                    memory_wready;
    wire [6-1:0]            memory_bid;
    wire [2-1:0]            memory_bresp;
    wire                    memory_bvalid;
    wire                    memory_bready;
    wire [6-1:0]            memory_arid;
    wire [64-1:0]           memory_araddr;
    wire [8-1:0]            memory_arlen;
    wire [3-1:0]            memory_arsize;
    wire [2-1:0]            memory_arburst;
    wire                    memory_arlock;
    wire [4-1:0]            memory_arcache;
    wire [3-1:0]            memory_arprot;
    wire                    memory_arvalid;
    wire                    memory_arready;
    wire [6-1:0]            memory_rid;
    wire [DATA_WIDTH-1:0]   memory_rdata;
    wire [2-1:0]            memory_rresp;
    wire                    memory_rlast;
    wire                    memory_rvalid;
    wire                    memory_rready;
    wire                    node_rst = rst || node_reset[i];
    wire [DATA_WIDTH-1:0]   node_tx_tdata;
    wire [KEEP_WIDTH-1:0]   node_tx_tkeep;
    wire                    node_tx_tvalid;
    wire                    node_tx_tready;
    wire                    node_tx_tlast;

    dpu_node #(
        .DATA_WIDTH(DATA_WIDTH), .QP_COUNT(QP_COUNT), .TIMEOUT_UNIT_CYCLES(TIMEOUT_UNIT_CYCLES),
        .SLOT_MEMORY_BYTES(SLOT_MEMORY_BYTES)
    ) node_inst (
        .clk(clk), .rst(node_rst),
        .s_axil_awaddr(node_axil_awaddr[i*NODE_WINDOW_BITS +: NODE_WINDOW_BITS]),
        .s_axil_awprot(node_axil_awprot[i*3 +: 3]),
        .s_axil_awvalid(node_axil_awvalid[i]),
        .s_axil_awready(node_axil_awready[i]),
        .s_axil_wdata(node_axil_wdata[i*32 +: 32]),
        .s_axil_wstrb(node_axil_wstrb[i*4 +: 4]),
        .s_axil_wvalid(node_axil_wvalid[i]),
        .s_axil_wready(node_axil_wready[i]),
        .s_axil_bresp(node_axil_bresp[i*2 +: 2]),
        .s_axil_bvalid(node_axil_bvalid[i]),
        .s_axil_bready(node_axil_bready[i]),
        .s_axil_araddr(node_axil_araddr[i*NODE_WINDOW_BITS +: NODE_WINDOW_BITS]),
        .s_axil_arprot(node_axil_arprot[i*3 +: 3]),
        .s_axil_arvalid(node_axil_arvalid[i]),
        .s_axil_arready(node_axil_arready[i]),
        .s_axil_rdata(node_axil_rdata[i*32 +: 32]),
        .s_axil_rresp(node_axil_rresp[i*2 +: 2]),
        .s_axil_rvalid(node_axil_rvalid[i]),
        .s_axil_rready(node_axil_rready[i]),
        .s_axis_rx_tdata(rx_tdata[i*DATA_WIDTH +: DATA_WIDTH]), .s_axis_rx_tkeep(rx_tkeep[i*KEEP_WIDTH +: KEEP_WIDTH]),
        .s_axis_rx_tvalid(rx_tvalid[i]), .s_axis_rx_tlast(rx_tlast[i]), .s_axis_rx_tuser(rx_tuser[i]),
        .m_axis_tx_tdata(node_tx_tdata), .m_axis_tx_tkeep(node_tx_tkeep),
        .m_axis_tx_tvalid(node_tx_tvalid), .m_axis_tx_tready(node_tx_tready), .m_axis_tx_tlast(node_tx_tlast),
        .stall_collective_memory(stall_collective_memory[i]),
        // The testbench reaches node memory directly; the host port is idle
        .s_axi_host_awid(4'd0),
        .s_axi_host_awaddr(64'd0),
        .s_axi_host_awlen(8'd0),
        .s_axi_host_awsize(3'd0),
        .s_axi_host_awburst(2'd0),
        .s_axi_host_awlock(1'b0),
        .s_axi_host_awcache(4'd0),
        .s_axi_host_awprot(3'd0),
        .s_axi_host_awvalid(1'b0),
        .s_axi_host_awready(),
        .s_axi_host_wdata({DATA_WIDTH{1'b0}}),
        .s_axi_host_wstrb({DATA_WIDTH/8{1'b0}}),
        .s_axi_host_wlast(1'b0),
        .s_axi_host_wvalid(1'b0),
        .s_axi_host_wready(),
        .s_axi_host_bid(),
        .s_axi_host_bresp(),
        .s_axi_host_bvalid(),
        .s_axi_host_bready(1'b1),
        .s_axi_host_arid(4'd0),
        .s_axi_host_araddr(64'd0),
        .s_axi_host_arlen(8'd0),
        .s_axi_host_arsize(3'd0),
        .s_axi_host_arburst(2'd0),
        .s_axi_host_arlock(1'b0),
        .s_axi_host_arcache(4'd0),
        .s_axi_host_arprot(3'd0),
        .s_axi_host_arvalid(1'b0),
        .s_axi_host_arready(),
        .s_axi_host_rid(),
        .s_axi_host_rdata(),
        .s_axi_host_rresp(),
        .s_axi_host_rlast(),
        .s_axi_host_rvalid(),
        .s_axi_host_rready(1'b1),
        .m_axi_awid(memory_awid),
        .m_axi_awaddr(memory_awaddr),
        .m_axi_awlen(memory_awlen),
        .m_axi_awsize(memory_awsize),
        .m_axi_awburst(memory_awburst),
        .m_axi_awlock(memory_awlock),
        .m_axi_awcache(memory_awcache),
        .m_axi_awprot(memory_awprot),
        .m_axi_awvalid(memory_awvalid),
        .m_axi_awready(memory_awready),
        .m_axi_wdata(memory_wdata),
        .m_axi_wstrb(memory_wstrb),
        .m_axi_wlast(memory_wlast),
        .m_axi_wvalid(memory_wvalid),
        .m_axi_wready(memory_wready),
        .m_axi_bid(memory_bid),
        .m_axi_bresp(memory_bresp),
        .m_axi_bvalid(memory_bvalid),
        .m_axi_bready(memory_bready),
        .m_axi_arid(memory_arid),
        .m_axi_araddr(memory_araddr),
        .m_axi_arlen(memory_arlen),
        .m_axi_arsize(memory_arsize),
        .m_axi_arburst(memory_arburst),
        .m_axi_arlock(memory_arlock),
        .m_axi_arcache(memory_arcache),
        .m_axi_arprot(memory_arprot),
        .m_axi_arvalid(memory_arvalid),
        .m_axi_arready(memory_arready),
        .m_axi_rid(memory_rid),
        .m_axi_rdata(memory_rdata),
        .m_axi_rresp(memory_rresp),
        .m_axi_rlast(memory_rlast),
        .m_axi_rvalid(memory_rvalid),
        .m_axi_rready(memory_rready)
    );

    axi_ram #(
        .DATA_WIDTH(DATA_WIDTH), .ADDR_WIDTH(64), .ID_WIDTH(6), .SIZE_BYTES(MEMORY_BYTES)
    ) memory_inst (
        .clk(clk), .rst(node_rst),
        .s_axi_awid(memory_awid),
        .s_axi_awaddr(memory_awaddr),
        .s_axi_awlen(memory_awlen),
        .s_axi_awsize(memory_awsize),
        .s_axi_awburst(memory_awburst),
        .s_axi_awlock(memory_awlock),
        .s_axi_awcache(memory_awcache),
        .s_axi_awprot(memory_awprot),
        .s_axi_awvalid(memory_awvalid),
        .s_axi_awready(memory_awready),
        .s_axi_wdata(memory_wdata),
        .s_axi_wstrb(memory_wstrb),
        .s_axi_wlast(memory_wlast),
        .s_axi_wvalid(memory_wvalid),
        .s_axi_wready(memory_wready),
        .s_axi_bid(memory_bid),
        .s_axi_bresp(memory_bresp),
        .s_axi_bvalid(memory_bvalid),
        .s_axi_bready(memory_bready),
        .s_axi_arid(memory_arid),
        .s_axi_araddr(memory_araddr),
        .s_axi_arlen(memory_arlen),
        .s_axi_arsize(memory_arsize),
        .s_axi_arburst(memory_arburst),
        .s_axi_arlock(memory_arlock),
        .s_axi_arcache(memory_arcache),
        .s_axi_arprot(memory_arprot),
        .s_axi_arvalid(memory_arvalid),
        .s_axi_arready(memory_arready),
        .s_axi_rid(memory_rid),
        .s_axi_rdata(memory_rdata),
        .s_axi_rresp(memory_rresp),
        .s_axi_rlast(memory_rlast),
        .s_axi_rvalid(memory_rvalid),
        .s_axi_rready(memory_rready)
    );

    fabric_reset_guard #(
        .DATA_WIDTH(DATA_WIDTH)
    ) reset_guard_inst (
        .clk(clk), .rst(rst), .node_rst(node_rst),
        .s_axis_tdata(node_tx_tdata), .s_axis_tkeep(node_tx_tkeep), .s_axis_tvalid(node_tx_tvalid),
        .s_axis_tready(node_tx_tready), .s_axis_tlast(node_tx_tlast),
        .m_axis_tdata(tx_tdata[i*DATA_WIDTH +: DATA_WIDTH]), .m_axis_tkeep(tx_tkeep[i*KEEP_WIDTH +: KEEP_WIDTH]),
        .m_axis_tvalid(tx_tvalid[i]), .m_axis_tready(tx_tready[i]), .m_axis_tlast(tx_tlast[i]),
        .m_axis_tuser(tx_tuser[i])
    );
end
endgenerate

fabric_switch #(
    .PORTS(NODES), .DATA_WIDTH(DATA_WIDTH), .LINE_RATE_MBPS(LINE_RATE_MBPS), .CLOCK_PERIOD_PS(CLOCK_PERIOD_PS),
    .LATENCY_CYCLES(LATENCY_CYCLES), .BUFFER_BYTES(BUFFER_BYTES), .DEPTH_WIDTH(24), .COUNTER_WIDTH(32)
) switch_inst (
    .clk(clk), .rst(rst),
    .port_mac(port_mac),
    .s_axis_tdata(tx_tdata), .s_axis_tkeep(tx_tkeep), .s_axis_tvalid(tx_tvalid), .s_axis_tready(tx_tready),
    .s_axis_tlast(tx_tlast), .s_axis_tuser(tx_tuser),
    .m_axis_tdata(rx_tdata), .m_axis_tkeep(rx_tkeep), .m_axis_tvalid(rx_tvalid), .m_axis_tlast(rx_tlast),
    .m_axis_tuser(rx_tuser),
    .ecn_enable(ecn_enable), .ecn_kmin_bytes(ecn_kmin_bytes), .ecn_kmax_bytes(ecn_kmax_bytes), .ecn_pmax(ecn_pmax),
    .loss_threshold(loss_threshold), .burst_length(burst_length), .duplicate_threshold(duplicate_threshold),
    .corrupt_threshold(corrupt_threshold), .reorder_threshold(reorder_threshold),
    .reorder_hold_cycles(reorder_hold_cycles), .seed(seed),
    .queue_depth_bytes(), .queue_peak_bytes(queue_peak_bytes), .frames_forwarded(frames_forwarded),
    .bytes_forwarded(bytes_forwarded), .tail_drops(tail_drops), .frames_lost(frames_lost),
    .frames_duplicated(frames_duplicated), .frames_corrupted(frames_corrupted), .frames_reordered(frames_reordered),
    .frames_marked(frames_marked), .unknown_destination(unknown_destination)
);

endmodule

`resetall
