// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// One switch egress: ECN marker, frame buffer, fault injector, line-rate pacer, latency, counters
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Frames come from the egress arbiter one beat per cycle and are never refused (the buffer
// drops what does not fit). They leave toward the node's RX port, which has no tready, paced
// at the line rate and delayed by LATENCY_CYCLES. A frame's first beat leaves
// LATENCY_CYCLES + 2 cycles after its last beat was stored at the earliest (one cycle for the
// descriptor, one for the memory read), later if the link is still busy with earlier frames.
module fabric_egress_port #(
    // Width of tdata in bits (64 or more, a power of two)
    parameter DATA_WIDTH = 64,
    // Width of tkeep in bits: one enable per byte of tdata
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // Line rate in Mb/s
    parameter LINE_RATE_MBPS = 100000,
    // Clock period in ps
    parameter CLOCK_PERIOD_PS = 4000,
    // Cycles of cable and switch latency after the pacer (at least 2)
    parameter LATENCY_CYCLES = 75,
    // Frame bytes the egress buffer holds
    parameter BUFFER_BYTES = 16384,
    // Frames the egress buffer holds (a power of two)
    parameter BUFFER_FRAMES = 32,
    // Longest frame in bytes; longer frames are dropped as tail drops
    parameter MAX_FRAME_BYTES = 9600,
    // Width of the depth and ECN thresholds in bytes
    parameter DEPTH_WIDTH = 24,
    // Width of each counter
    parameter COUNTER_WIDTH = 32,
    // Mixed into the seeds so that ports draw different sequences
    parameter [31:0] SALT = 32'h0
) (
    input  wire                     clk,
    input  wire                     rst,

    input  wire [DATA_WIDTH-1:0]    s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0]    s_axis_tkeep,
    input  wire                     s_axis_tvalid,
    output wire                     s_axis_tready,
    input  wire                     s_axis_tlast,
    input  wire                     s_axis_tuser,

    output wire [DATA_WIDTH-1:0]    m_axis_tdata,
    output wire [KEEP_WIDTH-1:0]    m_axis_tkeep,
    output wire                     m_axis_tvalid,
    output wire                     m_axis_tlast,
    output wire                     m_axis_tuser,

    input  wire                     ecn_enable,
    input  wire [DEPTH_WIDTH-1:0]   ecn_kmin_bytes,
    input  wire [DEPTH_WIDTH-1:0]   ecn_kmax_bytes,
    input  wire [15:0]              ecn_pmax,
    input  wire [15:0]              loss_threshold,
    input  wire [7:0]               burst_length,
    input  wire [15:0]              duplicate_threshold,
    input  wire [15:0]              corrupt_threshold,
    input  wire [15:0]              reorder_threshold,
    input  wire [15:0]              reorder_hold_cycles,
    input  wire [31:0]              seed,

    output wire [DEPTH_WIDTH-1:0]   queue_depth_bytes,
    output wire [DEPTH_WIDTH-1:0]   queue_peak_bytes,
    output wire [COUNTER_WIDTH-1:0] frames_forwarded,
    output wire [COUNTER_WIDTH-1:0] bytes_forwarded,
    output wire [COUNTER_WIDTH-1:0] tail_drops,
    output wire [COUNTER_WIDTH-1:0] frames_lost,
    output wire [COUNTER_WIDTH-1:0] frames_duplicated,
    output wire [COUNTER_WIDTH-1:0] frames_corrupted,
    output wire [COUNTER_WIDTH-1:0] frames_reordered,
    output wire [COUNTER_WIDTH-1:0] frames_marked
);

localparam POINTER_WIDTH = $clog2((BUFFER_BYTES + KEEP_WIDTH - 1) / KEEP_WIDTH + BUFFER_FRAMES
                                  + 3 * ((MAX_FRAME_BYTES + KEEP_WIDTH - 1) / KEEP_WIDTH)) + 1;
localparam LENGTH_WIDTH = $clog2(MAX_FRAME_BYTES + 1) + 1;
localparam KEEP_COUNT_WIDTH = $clog2(KEEP_WIDTH + 1);
localparam COUNTERS = 8;

initial begin
    if (DATA_WIDTH < 64 || KEEP_WIDTH * 8 != DATA_WIDTH) begin
        $error("Error: DATA_WIDTH must be at least 64 and KEEP_WIDTH = DATA_WIDTH/8 (instance %m)");
        $finish;
    end
end

wire [DATA_WIDTH-1:0] marked_tdata;
wire [KEEP_WIDTH-1:0] marked_tkeep;
wire                  marked_tvalid, marked_tready, marked_tlast, marked_tuser, marked_frame;

fabric_ecn_marker #(
    .DATA_WIDTH(DATA_WIDTH),
    .KEEP_WIDTH(KEEP_WIDTH),
    .USER_WIDTH(1),
    .DEPTH_WIDTH(DEPTH_WIDTH),
    .SALT(SALT ^ 32'h3C6EF372)
) marker_inst (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(s_axis_tdata),
    .s_axis_tkeep(s_axis_tkeep),
    .s_axis_tvalid(s_axis_tvalid),
    .s_axis_tready(s_axis_tready),
    .s_axis_tlast(s_axis_tlast),
    .s_axis_tuser(s_axis_tuser),
    .m_axis_tdata(marked_tdata),
    .m_axis_tkeep(marked_tkeep),
    .m_axis_tvalid(marked_tvalid),
    .m_axis_tready(marked_tready),
    .m_axis_tlast(marked_tlast),
    .m_axis_tuser(marked_tuser),
    .m_frame_marked(marked_frame),
    .queue_depth_bytes(queue_depth_bytes),
    .ecn_enable(ecn_enable),
    .ecn_kmin_bytes(ecn_kmin_bytes),
    .ecn_kmax_bytes(ecn_kmax_bytes),
    .ecn_pmax(ecn_pmax),
    .seed(seed)
);

wire                     head_valid, next_valid, pop_head, pop_head_and_next;
wire [POINTER_WIDTH-1:0] head_address, next_address, read_address, release_pointer;
wire [LENGTH_WIDTH-1:0]  head_length, next_length;
wire                     read_enable, release_valid;
wire [DATA_WIDTH-1:0]    read_tdata;
wire [KEEP_WIDTH-1:0]    read_tkeep;
wire                     read_tlast, read_tuser;
wire                     tail_drop, frame_marked;

fabric_egress_queue #(
    .DATA_WIDTH(DATA_WIDTH),
    .KEEP_WIDTH(KEEP_WIDTH),
    .USER_WIDTH(1),
    .BUFFER_BYTES(BUFFER_BYTES),
    .BUFFER_FRAMES(BUFFER_FRAMES),
    .MAX_FRAME_BYTES(MAX_FRAME_BYTES),
    .DEPTH_WIDTH(DEPTH_WIDTH),
    .POINTER_WIDTH(POINTER_WIDTH),
    .LENGTH_WIDTH(LENGTH_WIDTH)
) queue_inst (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(marked_tdata),
    .s_axis_tkeep(marked_tkeep),
    .s_axis_tvalid(marked_tvalid),
    .s_axis_tready(marked_tready),
    .s_axis_tlast(marked_tlast),
    .s_axis_tuser(marked_tuser),
    .s_frame_marked(marked_frame),
    .head_valid(head_valid),
    .head_address(head_address),
    .head_length(head_length),
    .next_valid(next_valid),
    .next_address(next_address),
    .next_length(next_length),
    .pop_head(pop_head),
    .pop_head_and_next(pop_head_and_next),
    .read_enable(read_enable),
    .read_address(read_address),
    .read_tdata(read_tdata),
    .read_tkeep(read_tkeep),
    .read_tlast(read_tlast),
    .read_tuser(read_tuser),
    .release_valid(release_valid),
    .release_pointer(release_pointer),
    .depth_bytes(queue_depth_bytes),
    .peak_depth_bytes(queue_peak_bytes),
    .status_tail_drop(tail_drop),
    .status_frame_marked(frame_marked)
);

wire [DATA_WIDTH-1:0] faulted_tdata;
wire [KEEP_WIDTH-1:0] faulted_tkeep;
wire                  faulted_tvalid, faulted_tready, faulted_tlast, faulted_tuser;
wire                  lost, duplicated, corrupted, reordered;

fabric_fault_injector #(
    .DATA_WIDTH(DATA_WIDTH),
    .KEEP_WIDTH(KEEP_WIDTH),
    .USER_WIDTH(1),
    .POINTER_WIDTH(POINTER_WIDTH),
    .LENGTH_WIDTH(LENGTH_WIDTH),
    .SALT(SALT ^ 32'hA54FF53A)
) faults_inst (
    .clk(clk),
    .rst(rst),
    .head_valid(head_valid),
    .head_address(head_address),
    .head_length(head_length),
    .next_valid(next_valid),
    .next_address(next_address),
    .next_length(next_length),
    .pop_head(pop_head),
    .pop_head_and_next(pop_head_and_next),
    .read_enable(read_enable),
    .read_address(read_address),
    .read_tdata(read_tdata),
    .read_tkeep(read_tkeep),
    .read_tlast(read_tlast),
    .read_tuser(read_tuser),
    .release_valid(release_valid),
    .release_pointer(release_pointer),
    .m_axis_tdata(faulted_tdata),
    .m_axis_tkeep(faulted_tkeep),
    .m_axis_tvalid(faulted_tvalid),
    .m_axis_tready(faulted_tready),
    .m_axis_tlast(faulted_tlast),
    .m_axis_tuser(faulted_tuser),
    .loss_threshold(loss_threshold),
    .burst_length(burst_length),
    .duplicate_threshold(duplicate_threshold),
    .corrupt_threshold(corrupt_threshold),
    .reorder_threshold(reorder_threshold),
    .reorder_hold_cycles(reorder_hold_cycles),
    .seed(seed),
    .status_lost(lost),
    .status_duplicated(duplicated),
    .status_corrupted(corrupted),
    .status_reordered(reordered)
);

wire [DATA_WIDTH-1:0] paced_tdata;
wire [KEEP_WIDTH-1:0] paced_tkeep;
wire                  paced_tvalid, paced_tlast, paced_tuser;

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
    .s_axis_tdata(faulted_tdata),
    .s_axis_tkeep(faulted_tkeep),
    .s_axis_tvalid(faulted_tvalid),
    .s_axis_tready(faulted_tready),
    .s_axis_tlast(faulted_tlast),
    .s_axis_tuser(faulted_tuser),
    .m_axis_tdata(paced_tdata),
    .m_axis_tkeep(paced_tkeep),
    .m_axis_tvalid(paced_tvalid),
    // The delay line takes a beat every cycle
    .m_axis_tready(1'b1),
    .m_axis_tlast(paced_tlast),
    .m_axis_tuser(paced_tuser)
);

fabric_delay #(
    .DATA_WIDTH(DATA_WIDTH),
    .KEEP_WIDTH(KEEP_WIDTH),
    .USER_WIDTH(1),
    .LATENCY_CYCLES(LATENCY_CYCLES)
) delay_inst (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(paced_tdata),
    .s_axis_tkeep(paced_tkeep),
    .s_axis_tvalid(paced_tvalid),
    .s_axis_tlast(paced_tlast),
    .s_axis_tuser(paced_tuser),
    .m_axis_tdata(m_axis_tdata),
    .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tlast(m_axis_tlast),
    .m_axis_tuser(m_axis_tuser)
);

reg [KEEP_COUNT_WIDTH-1:0] output_beat_bytes;
integer lane;
always @* begin
    output_beat_bytes = {KEEP_COUNT_WIDTH{1'b0}};
    for (lane = 0; lane < KEEP_WIDTH; lane = lane + 1) begin
        output_beat_bytes = output_beat_bytes + {{(KEEP_COUNT_WIDTH-1){1'b0}}, m_axis_tkeep[lane]};
    end
end

wire [7:0] forwarded_byte_increment = m_axis_tvalid ? {{(8-KEEP_COUNT_WIDTH){1'b0}}, output_beat_bytes} : 8'd0;
wire [COUNTERS*COUNTER_WIDTH-1:0] counter_values;

event_counters #(
    .COUNT(COUNTERS),
    .WIDTH(COUNTER_WIDTH),
    .INCREMENT_WIDTH(8)
) counters_inst (
    .clk(clk),
    .rst(rst),
    .clear(1'b0),
    .increments({{7'd0, frame_marked}, {7'd0, reordered}, {7'd0, corrupted}, {7'd0, duplicated},
                 {7'd0, lost}, {7'd0, tail_drop}, forwarded_byte_increment, {7'd0, m_axis_tvalid && m_axis_tlast}}),
    .values(counter_values)
);

assign {frames_marked, frames_reordered, frames_corrupted, frames_duplicated,
        frames_lost, tail_drops, bytes_forwarded, frames_forwarded} = counter_values;

endmodule

`resetall
