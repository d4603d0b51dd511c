// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Every lane of a beat in one floating-point format: sum, maximum or minimum; two stages
`resetall
`timescale 1ns / 1ps
`default_nettype none

module float_lanes #(
    // Width of a beat in bits
    parameter DATA_WIDTH = 512,
    // Exponent field width of the format
    parameter EXP_WIDTH = 8,
    // Stored mantissa width of the format
    parameter MAN_WIDTH = 23,
    // 1 for fp8 e4m3fn (no infinities, a single NaN pattern)
    parameter FINITE_ONLY = 0,
    // Lanes per beat
    parameter LANES = DATA_WIDTH / (1 + EXP_WIDTH + MAN_WIDTH)
) (
    input  wire                  clk,
    // The two stages (see fp_add): take a beat into the first, finish one into the outputs; only
    // the unit the operation needs runs, and the outputs hold the last finished beat
    input  wire                  enable,
    input  wire                  finish,
    input  wire [DATA_WIDTH-1:0] a,
    input  wire [DATA_WIDTH-1:0] b,
    // The operands one stage later, for maximum and minimum (one stage of work, done in the
    // second so that every operation leaves after the same two)
    input  wire [DATA_WIDTH-1:0] staged_a,
    input  wire [DATA_WIDTH-1:0] staged_b,
    // 0 sum, 1 maximum, 2 minimum
    input  wire [1:0]            op,
    input  wire                  flush_subnormals,
    output wire [DATA_WIDTH-1:0] result,
    output wire [LANES-1:0]      nan,
    output wire [LANES-1:0]      overflow
);

localparam LANE_WIDTH = 1 + EXP_WIDTH + MAN_WIDTH;

initial begin
    if (LANES * LANE_WIDTH != DATA_WIDTH) begin
        $error("Error: DATA_WIDTH must be a whole number of %0d-bit lanes (instance %m)", LANE_WIDTH);
        $finish;
    end
end

genvar lane;
generate
    for (lane = 0; lane < LANES; lane = lane + 1) begin : lanes
        wire [LANE_WIDTH-1:0] sum, extreme;
        wire sum_nan, sum_overflow, extreme_nan;

        fp_add #(.EXP_WIDTH(EXP_WIDTH), .MAN_WIDTH(MAN_WIDTH), .FINITE_ONLY(FINITE_ONLY)) add_inst (
            .clk(clk),
            .enable(enable && op == 2'd0),
            .finish(finish && op == 2'd0),
            .a(a[lane*LANE_WIDTH +: LANE_WIDTH]),
            .b(b[lane*LANE_WIDTH +: LANE_WIDTH]),
            .flush_subnormals(flush_subnormals),
            .sum(sum),
            .nan(sum_nan),
            .overflow(sum_overflow)
        );

        fp_max_min #(.EXP_WIDTH(EXP_WIDTH), .MAN_WIDTH(MAN_WIDTH), .FINITE_ONLY(FINITE_ONLY)) extreme_inst (
            .clk(clk),
            .enable(finish && op != 2'd0),
            .a(staged_a[lane*LANE_WIDTH +: LANE_WIDTH]),
            .b(staged_b[lane*LANE_WIDTH +: LANE_WIDTH]),
            .select_max(op == 2'd1),
            .flush_subnormals(flush_subnormals),
            .result(extreme),
            .nan(extreme_nan)
        );

        assign result[lane*LANE_WIDTH +: LANE_WIDTH] = op == 2'd0 ? sum : extreme;
        assign nan[lane] = op == 2'd0 ? sum_nan : extreme_nan;
        assign overflow[lane] = op == 2'd0 && sum_overflow;
    end
endgenerate

endmodule

`resetall
