// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Latency statistics: min/max/sum/count of the samples offered, for the engines' latency registers
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Every engine reports its latencies the same way: the fewest and most cycles seen, their sum
// and how many were measured (so software derives the mean without a divider here). The
// minimum reads all ones until the first sample.
module latency_stats (
    input  wire        clk,
    input  wire        rst,

    input  wire        sample_valid,
    input  wire [31:0] sample,

    output reg  [31:0] latency_min,
    output reg  [31:0] latency_max,
    output reg  [31:0] latency_sum,
    output reg  [31:0] latency_count
);

always @(posedge clk) begin
    if (sample_valid) begin
        latency_count <= latency_count + 32'd1;
        latency_sum <= latency_sum + sample;
        if (sample < latency_min) begin
            latency_min <= sample;
        end
        if (sample > latency_max) begin
            latency_max <= sample;
        end
    end
    if (rst) begin
        latency_min <= 32'hFFFFFFFF;
        latency_max <= 32'd0;
        latency_sum <= 32'd0;
        latency_count <= 32'd0;
    end
end

endmodule

`resetall
