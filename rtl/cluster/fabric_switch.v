// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Cluster switch and links: PORTS nodes' MAC ports joined at line rate, with faults and ECN
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Per ingress: the node's TX link paced at the line rate (the node sees tready low while its
// link is busy), then routed by destination MAC. Per egress: a round-robin choice between the
// ingresses, frame by frame, then fabric_egress_port (ECN marking, store-and-forward buffer with
// tail drop, faults, the egress link at line rate, LATENCY_CYCLES) out to the node's RX, which
// has no tready; m_axis_tuser on a last beat marks a bad frame (passed on from s_axis_tuser).
// Ports are packed: port p's tdata is s_axis_tdata[p*DATA_WIDTH +: DATA_WIDTH], its config and
// counters are slices of the vectors below in the same way (widths in the port list).
module fabric_switch #(
    // Number of ports (nodes), 2 to 8
    parameter PORTS = 4,
    // Width of tdata in bits: 64 or 512 (a power of two of at least 64)
    parameter DATA_WIDTH = 64,
    // Width of tkeep in bits: one enable per byte of tdata
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // Line rate of every link in Mb/s
    parameter LINE_RATE_MBPS = 100000,
    // Clock period in ps (4000: 250 MHz)
    parameter CLOCK_PERIOD_PS = 4000,
    // Cycles of cable and port-to-port latency (75 cycles = 300 ns at 250 MHz)
    parameter LATENCY_CYCLES = 75,
    // Frame bytes each egress buffer holds
    parameter BUFFER_BYTES = 16384,
    // Frames each egress buffer holds (a power of two)
    parameter BUFFER_FRAMES = 32,
    // Longest frame in bytes; longer frames are dropped as tail drops
    parameter MAX_FRAME_BYTES = 9600,
    // Width of the queue depth and ECN thresholds in bytes
    parameter DEPTH_WIDTH = 24,
    // Width of each counter
    parameter COUNTER_WIDTH = 32
) (
    input  wire                           clk,
    input  wire                           rst,

    // Port p's address, first byte in bits 47:40
    input  wire [PORTS*48-1:0]            port_mac,

    // From the nodes' TX ports
    input  wire [PORTS*DATA_WIDTH-1:0]    s_axis_tdata,
    input  wire [PORTS*KEEP_WIDTH-1:0]    s_axis_tkeep,
    input  wire [PORTS-1:0]               s_axis_tvalid,
    output wire [PORTS-1:0]               s_axis_tready,
    input  wire [PORTS-1:0]               s_axis_tlast,
    input  wire [PORTS-1:0]               s_axis_tuser,

    // To the nodes' RX ports: never stalled
    output wire [PORTS*DATA_WIDTH-1:0]    m_axis_tdata,
    output wire [PORTS*KEEP_WIDTH-1:0]    m_axis_tkeep,
    output wire [PORTS-1:0]               m_axis_tvalid,
    output wire [PORTS-1:0]               m_axis_tlast,
    output wire [PORTS-1:0]               m_axis_tuser,

    // Per egress port
    input  wire [PORTS-1:0]               ecn_enable,
    input  wire [PORTS*DEPTH_WIDTH-1:0]   ecn_kmin_bytes,
    input  wire [PORTS*DEPTH_WIDTH-1:0]   ecn_kmax_bytes,
    input  wire [PORTS*16-1:0]            ecn_pmax,
    input  wire [PORTS*16-1:0]            loss_threshold,
    input  wire [PORTS*8-1:0]             burst_length,
    input  wire [PORTS*16-1:0]            duplicate_threshold,
    input  wire [PORTS*16-1:0]            corrupt_threshold,
    input  wire [PORTS*16-1:0]            reorder_threshold,
    input  wire [PORTS*16-1:0]            reorder_hold_cycles,
    // Sampled at reset: every decision after it follows from the seed
    input  wire [31:0]                    seed,

    // Per egress port, except unknown_destination (per ingress port)
    output wire [PORTS*DEPTH_WIDTH-1:0]   queue_depth_bytes,
    output wire [PORTS*DEPTH_WIDTH-1:0]   queue_peak_bytes,
    output wire [PORTS*COUNTER_WIDTH-1:0] frames_forwarded,
    output wire [PORTS*COUNTER_WIDTH-1:0] bytes_forwarded,
    output wire [PORTS*COUNTER_WIDTH-1:0] tail_drops,
    output wire [PORTS*COUNTER_WIDTH-1:0] frames_lost,
    output wire [PORTS*COUNTER_WIDTH-1:0] frames_duplicated,
    output wire [PORTS*COUNTER_WIDTH-1:0] frames_corrupted,
    output wire [PORTS*COUNTER_WIDTH-1:0] frames_reordered,
    output wire [PORTS*COUNTER_WIDTH-1:0] frames_marked,
    output wire [PORTS*COUNTER_WIDTH-1:0] unknown_destination
);

localparam PORT_WIDTH = $clog2(PORTS);
localparam LANE_WIDTH = $clog2(KEEP_WIDTH);

initial begin
    if (PORTS < 2 || PORTS > 8) begin
        $error("Error: PORTS must be 2 to 8 (instance %m)");
        $finish;
    end
    if (DATA_WIDTH < 64 || KEEP_WIDTH * 8 != DATA_WIDTH || (1 << LANE_WIDTH) != KEEP_WIDTH) begin
        $error("Error: DATA_WIDTH must be a power of two of at least 64, KEEP_WIDTH = DATA_WIDTH/8 (instance %m)");
        $finish;
    end
end

// Ingress side, after the pacer
wire [PORTS*DATA_WIDTH-1:0] ingress_tdata;
wire [PORTS*KEEP_WIDTH-1:0] ingress_tkeep;
wire [PORTS-1:0]            ingress_tvalid, ingress_tready, ingress_tlast, ingress_tuser;
wire [PORTS-1:0]            route_valid;
wire [PORTS*PORT_WIDTH-1:0] route_port;
wire [PORTS-1:0]            route_ready;
wire [PORTS-1:0]            unknown_pulse;

// Egress arbiters' inputs: ingress i offers to egress e when it routes there
wire [PORTS*PORTS-1:0]      offer_valid;
wire [PORTS*PORTS-1:0]      offer_ready;

genvar ingress, egress;
generate
for (ingress = 0; ingress < PORTS; ingress = ingress + 1) begin : ingress_port
    fabric_link_pacer #(
        .DATA_WIDTH(DATA_WIDTH),
        .KEEP_WIDTH(KEEP_WIDTH),
        .USER_WIDTH(1),
        .LINE_RATE_MBPS(LINE_RATE_MBPS),
        .CLOCK_PERIOD_PS(CLOCK_PERIOD_PS),
        .MAX_FRAME_BYTES(MAX_FRAME_BYTES)
    ) pacer_inst (
        .clk(clk),
        .rst(rst),
        .s_axis_tdata(s_axis_tdata[ingress*DATA_WIDTH +: DATA_WIDTH]),
        .s_axis_tkeep(s_axis_tkeep[ingress*KEEP_WIDTH +: KEEP_WIDTH]),
        .s_axis_tvalid(s_axis_tvalid[ingress]),
        .s_axis_tready(s_axis_tready[ingress]),
        .s_axis_tlast(s_axis_tlast[ingress]),
        .s_axis_tuser(s_axis_tuser[ingress +: 1]),
        .m_axis_tdata(ingress_tdata[ingress*DATA_WIDTH +: DATA_WIDTH]),
        .m_axis_tkeep(ingress_tkeep[ingress*KEEP_WIDTH +: KEEP_WIDTH]),
        .m_axis_tvalid(ingress_tvalid[ingress]),
        .m_axis_tready(ingress_tready[ingress]),
        .m_axis_tlast(ingress_tlast[ingress]),
        .m_axis_tuser(ingress_tuser[ingress +: 1])
    );

    fabric_ingress_router #(
        .PORTS(PORTS),
        .PORT_INDEX(ingress),
        .DATA_WIDTH(DATA_WIDTH),
        .PORT_WIDTH(PORT_WIDTH)
    ) router_inst (
        .clk(clk),
        .rst(rst),
        .port_mac(port_mac),
        .s_axis_tdata(ingress_tdata[ingress*DATA_WIDTH +: DATA_WIDTH]),
        .s_axis_tvalid(ingress_tvalid[ingress]),
        .s_axis_tready(ingress_tready[ingress]),
        .s_axis_tlast(ingress_tlast[ingress]),
        .route_valid(route_valid[ingress]),
        .route_port(route_port[ingress*PORT_WIDTH +: PORT_WIDTH]),
        .route_ready(route_ready[ingress]),
        .status_unknown_destination(unknown_pulse[ingress])
    );

    for (egress = 0; egress < PORTS; egress = egress + 1) begin : offer
        assign offer_valid[egress*PORTS + ingress] = route_valid[ingress]
            && route_port[ingress*PORT_WIDTH +: PORT_WIDTH] == egress;
    end
    assign route_ready[ingress] = offer_ready[route_port[ingress*PORT_WIDTH +: PORT_WIDTH]*PORTS + ingress];

    event_counters #(
        .COUNT(1),
        .WIDTH(COUNTER_WIDTH),
        .INCREMENT_WIDTH(1)
    ) unknown_counter_inst (
        .clk(clk),
        .rst(rst),
        .clear(1'b0),
        .increments(unknown_pulse[ingress]),
        .values(unknown_destination[ingress*COUNTER_WIDTH +: COUNTER_WIDTH])
    );
end

for (egress = 0; egress < PORTS; egress = egress + 1) begin : egress_port
    wire [DATA_WIDTH-1:0] chosen_tdata;
    wire [KEEP_WIDTH-1:0] chosen_tkeep;
    wire                  chosen_tvalid, chosen_tready, chosen_tlast, chosen_tuser;
    wire [PORT_WIDTH-1:0] chosen_source;

    axis_arb_mux #(
        .S_COUNT(PORTS),
        .DATA_WIDTH(DATA_WIDTH),
        .KEEP_WIDTH(KEEP_WIDTH),
        .USER_WIDTH(1),
        .ID_WIDTH(PORT_WIDTH)
    ) arbiter_inst (
        .clk(clk),
        .rst(rst),
        .s_axis_tdata(ingress_tdata),
        .s_axis_tkeep(ingress_tkeep),
        .s_axis_tvalid(offer_valid[egress*PORTS +: PORTS]),
        .s_axis_tready(offer_ready[egress*PORTS +: PORTS]),
        .s_axis_tlast(ingress_tlast),
        .s_axis_tuser(ingress_tuser),
        .m_axis_tdata(chosen_tdata),
        .m_axis_tkeep(chosen_tkeep),
        .m_axis_tvalid(chosen_tvalid),
        .m_axis_tready(chosen_tready),
        .m_axis_tlast(chosen_tlast),
        .m_axis_tuser(chosen_tuser),
        .m_axis_tid(chosen_source)
    );

    fabric_egress_port #(
        .DATA_WIDTH(DATA_WIDTH),
        .KEEP_WIDTH(KEEP_WIDTH),
        .LINE_RATE_MBPS(LINE_RATE_MBPS),
        .CLOCK_PERIOD_PS(CLOCK_PERIOD_PS),
        .LATENCY_CYCLES(LATENCY_CYCLES),
        .BUFFER_BYTES(BUFFER_BYTES),
        .BUFFER_FRAMES(BUFFER_FRAMES),
        .MAX_FRAME_BYTES(MAX_FRAME_BYTES),
        .DEPTH_WIDTH(DEPTH_WIDTH),
        .COUNTER_WIDTH(COUNTER_WIDTH),
        .SALT(32'h01000193 * (egress + 1))
    ) port_inst (
        .clk(clk),
        .rst(rst),
        .s_axis_tdata(chosen_tdata),
        .s_axis_tkeep(chosen_tkeep),
        .s_axis_tvalid(chosen_tvalid),
        .s_axis_tready(chosen_tready),
        .s_axis_tlast(chosen_tlast),
        .s_axis_tuser(chosen_tuser),
        .m_axis_tdata(m_axis_tdata[egress*DATA_WIDTH +: DATA_WIDTH]),
        .m_axis_tkeep(m_axis_tkeep[egress*KEEP_WIDTH +: KEEP_WIDTH]),
        .m_axis_tvalid(m_axis_tvalid[egress]),
        .m_axis_tlast(m_axis_tlast[egress]),
        .m_axis_tuser(m_axis_tuser[egress]),
        .ecn_enable(ecn_enable[egress]),
        .ecn_kmin_bytes(ecn_kmin_bytes[egress*DEPTH_WIDTH +: DEPTH_WIDTH]),
        .ecn_kmax_bytes(ecn_kmax_bytes[egress*DEPTH_WIDTH +: DEPTH_WIDTH]),
        .ecn_pmax(ecn_pmax[egress*16 +: 16]),
        .loss_threshold(loss_threshold[egress*16 +: 16]),
        .burst_length(burst_length[egress*8 +: 8]),
        .duplicate_threshold(duplicate_threshold[egress*16 +: 16]),
        .corrupt_threshold(corrupt_threshold[egress*16 +: 16]),
        .reorder_threshold(reorder_threshold[egress*16 +: 16]),
        .reorder_hold_cycles(reorder_hold_cycles[egress*16 +: 16]),
        .seed(seed),
        .queue_depth_bytes(queue_depth_bytes[egress*DEPTH_WIDTH +: DEPTH_WIDTH]),
        .queue_peak_bytes(queue_peak_bytes[egress*DEPTH_WIDTH +: DEPTH_WIDTH]),
        .frames_forwarded(frames_forwarded[egress*COUNTER_WIDTH +: COUNTER_WIDTH]),
        .bytes_forwarded(bytes_forwarded[egress*COUNTER_WIDTH +: COUNTER_WIDTH]),
        .tail_drops(tail_drops[egress*COUNTER_WIDTH +: COUNTER_WIDTH]),
        .frames_lost(frames_lost[egress*COUNTER_WIDTH +: COUNTER_WIDTH]),
        .frames_duplicated(frames_duplicated[egress*COUNTER_WIDTH +: COUNTER_WIDTH]),
        .frames_corrupted(frames_corrupted[egress*COUNTER_WIDTH +: COUNTER_WIDTH]),
        .frames_reordered(frames_reordered[egress*COUNTER_WIDTH +: COUNTER_WIDTH]),
        .frames_marked(frames_marked[egress*COUNTER_WIDTH +: COUNTER_WIDTH])
    );
end
endgenerate

endmodule

`resetall
