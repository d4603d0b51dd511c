// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Performance counters: cycles, beats, bytes, stalls, events and start-to-stop latency
`resetall
`timescale 1ns / 1ps
`default_nettype none

module perf_counters #(
    // Width of the monitored stream's tkeep (bytes per beat)
    parameter KEEP_WIDTH = 8,
    // Width of every event counter
    parameter COUNTER_WIDTH = 64,
    // Width of one latency measurement in cycles
    parameter LATENCY_WIDTH = 32,
    // Latency starts that may be waiting for their stop at once (a power of two); the design
    // under test must finish work in the order it started it
    parameter LATENCY_DEPTH = 16
) (
    input  wire                     clk,
    input  wire                     rst,

    // Counting happens only while enable is high; clear zeroes the counters
    input  wire                     enable,
    input  wire                     clear,
    // Copies every live counter to the outputs, so software reads one consistent set
    input  wire                     snapshot,

    // The stream being measured (observed, never driven)
    input  wire                     mon_tvalid,
    input  wire                     mon_tready,
    input  wire                     mon_tlast,
    input  wire [KEEP_WIDTH-1:0]    mon_tkeep,

    input  wire                     event_strobe,
    input  wire                     latency_start,
    input  wire                     latency_stop,

    output reg  [COUNTER_WIDTH-1:0] cycles,
    output reg  [COUNTER_WIDTH-1:0] beats,
    output reg  [COUNTER_WIDTH-1:0] bytes,
    output reg  [COUNTER_WIDTH-1:0] packets,
    // tvalid high, tready low: the sink held the stream back
    output reg  [COUNTER_WIDTH-1:0] stall_cycles,
    // tvalid low: the source had nothing to offer
    output reg  [COUNTER_WIDTH-1:0] idle_cycles,
    // From the first beat to the last beat counted, inclusive: beats / active_cycles is utilisation
    output reg  [COUNTER_WIDTH-1:0] active_cycles,
    output reg  [COUNTER_WIDTH-1:0] events,
    // latency_min reads all ones while latency_count is zero
    output reg  [LATENCY_WIDTH-1:0] latency_min,
    output reg  [LATENCY_WIDTH-1:0] latency_max,
    output reg  [COUNTER_WIDTH-1:0] latency_sum,
    output reg  [COUNTER_WIDTH-1:0] latency_count,
    // A stop with no start waiting, or a start with the queue full
    output reg  [COUNTER_WIDTH-1:0] latency_errors
);

localparam QUEUE_ADDR_WIDTH = $clog2(LATENCY_DEPTH);
localparam BYTE_COUNT_WIDTH = $clog2(KEEP_WIDTH + 1);

initial begin
    if (LATENCY_DEPTH < 2 || (1 << QUEUE_ADDR_WIDTH) != LATENCY_DEPTH) begin
        $error("Error: LATENCY_DEPTH must be a power of two, at least 2 (instance %m)");
        $finish;
    end
    if (COUNTER_WIDTH < LATENCY_WIDTH) begin
        $error("Error: COUNTER_WIDTH must be at least LATENCY_WIDTH (instance %m)");
        $finish;
    end
end

function [BYTE_COUNT_WIDTH-1:0] count_ones(input [KEEP_WIDTH-1:0] bits);
    integer index;
    begin
        count_ones = 0;
        for (index = 0; index < KEEP_WIDTH; index = index + 1) begin
            count_ones = count_ones + {{BYTE_COUNT_WIDTH-1{1'b0}}, bits[index]};
        end
    end
endfunction

reg [COUNTER_WIDTH-1:0] live_cycles, live_beats, live_bytes, live_packets;
reg [COUNTER_WIDTH-1:0] live_stall_cycles, live_idle_cycles, live_events;
reg [COUNTER_WIDTH-1:0] live_first_beat_cycle, live_last_beat_cycle;
reg [LATENCY_WIDTH-1:0] live_latency_min, live_latency_max;
reg [COUNTER_WIDTH-1:0] live_latency_sum, live_latency_count, live_latency_errors;

// The latency queue runs whether or not counting is enabled, so starts and stops stay paired.
reg [LATENCY_WIDTH-1:0]    timestamp;
reg [LATENCY_WIDTH-1:0]    start_times [0:LATENCY_DEPTH-1];
reg [QUEUE_ADDR_WIDTH:0]   queue_write_pointer, queue_read_pointer;

wire [QUEUE_ADDR_WIDTH:0] queue_used = queue_write_pointer - queue_read_pointer;
wire queue_empty = queue_used == 0;
wire queue_full = queue_used[QUEUE_ADDR_WIDTH];
wire beat = mon_tvalid && mon_tready;

// A stop with an empty queue pairs with a start in the same cycle: zero latency.
wire stop_pairs_same_cycle = latency_stop && queue_empty && latency_start;
wire stop_pops = latency_stop && !queue_empty;
wire start_pushes = latency_start && !stop_pairs_same_cycle && (!queue_full || stop_pops);
wire latency_error = (latency_stop && queue_empty && !latency_start) || (latency_start && !start_pushes && !stop_pairs_same_cycle);
wire latency_done = stop_pops || stop_pairs_same_cycle;
wire [LATENCY_WIDTH-1:0] latency_value = stop_pops ? timestamp - start_times[queue_read_pointer[QUEUE_ADDR_WIDTH-1:0]] : {LATENCY_WIDTH{1'b0}};

always @(posedge clk) begin
    timestamp <= timestamp + 1;
    if (start_pushes) begin
        start_times[queue_write_pointer[QUEUE_ADDR_WIDTH-1:0]] <= timestamp;
        queue_write_pointer <= queue_write_pointer + 1;
    end
    if (stop_pops) begin
        queue_read_pointer <= queue_read_pointer + 1;
    end

    if (enable) begin
        live_cycles <= live_cycles + 1;
        if (beat) begin
            live_beats <= live_beats + 1;
            live_bytes <= live_bytes + {{COUNTER_WIDTH-BYTE_COUNT_WIDTH{1'b0}}, count_ones(mon_tkeep)};
            if (live_beats == 0) begin
                live_first_beat_cycle <= live_cycles;
            end
            live_last_beat_cycle <= live_cycles;
        end
        if (beat && mon_tlast) begin
            live_packets <= live_packets + 1;
        end
        if (mon_tvalid && !mon_tready) begin
            live_stall_cycles <= live_stall_cycles + 1;
        end
        if (!mon_tvalid) begin
            live_idle_cycles <= live_idle_cycles + 1;
        end
        if (event_strobe) begin
            live_events <= live_events + 1;
        end
        if (latency_done) begin
            live_latency_sum <= live_latency_sum + {{COUNTER_WIDTH-LATENCY_WIDTH{1'b0}}, latency_value};
            live_latency_count <= live_latency_count + 1;
            if (latency_value < live_latency_min) begin
                live_latency_min <= latency_value;
            end
            if (latency_value > live_latency_max) begin
                live_latency_max <= latency_value;
            end
        end
        if (latency_error) begin
            live_latency_errors <= live_latency_errors + 1;
        end
    end

    if (snapshot) begin
        cycles <= live_cycles;
        beats <= live_beats;
        bytes <= live_bytes;
        packets <= live_packets;
        stall_cycles <= live_stall_cycles;
        idle_cycles <= live_idle_cycles;
        active_cycles <= live_beats == 0 ? {COUNTER_WIDTH{1'b0}} : live_last_beat_cycle - live_first_beat_cycle + 1;
        events <= live_events;
        latency_min <= live_latency_min;
        latency_max <= live_latency_max;
        latency_sum <= live_latency_sum;
        latency_count <= live_latency_count;
        latency_errors <= live_latency_errors;
    end

    if (rst || clear) begin
        live_cycles <= 0;
        live_beats <= 0;
        live_bytes <= 0;
        live_packets <= 0;
        live_stall_cycles <= 0;
        live_idle_cycles <= 0;
        live_events <= 0;
        live_first_beat_cycle <= 0;
        live_last_beat_cycle <= 0;
        live_latency_min <= {LATENCY_WIDTH{1'b1}};
        live_latency_max <= 0;
        live_latency_sum <= 0;
        live_latency_count <= 0;
        live_latency_errors <= 0;
    end
    if (rst) begin
        timestamp <= 0;
        queue_write_pointer <= 0;
        queue_read_pointer <= 0;
        cycles <= 0;
        beats <= 0;
        bytes <= 0;
        packets <= 0;
        stall_cycles <= 0;
        idle_cycles <= 0;
        active_cycles <= 0;
        events <= 0;
        latency_min <= {LATENCY_WIDTH{1'b1}};
        latency_max <= 0;
        latency_sum <= 0;
        latency_count <= 0;
        latency_errors <= 0;
    end
end

endmodule

`resetall
