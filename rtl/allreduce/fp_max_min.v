// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// IEEE 754-2019 maximum / minimum for one lane: NaN propagates (canonical), -0 < +0; registered
`resetall
`timescale 1ns / 1ps
`default_nettype none

module fp_max_min #(
    // Exponent field width
    parameter EXP_WIDTH = 8,
    // Stored mantissa (fraction) width
    parameter MAN_WIDTH = 23,
    // 1 for formats whose only NaN has every exponent and mantissa bit set (fp8 e4m3fn)
    parameter FINITE_ONLY = 0
) (
    input  wire                         clk,
    // Compute this cycle (see fp_add): the outputs hold the last enabled result
    input  wire                         enable,
    input  wire [EXP_WIDTH+MAN_WIDTH:0] a,
    input  wire [EXP_WIDTH+MAN_WIDTH:0] b,
    // 1: maximum, 0: minimum
    input  wire                         select_max,
    // Treat subnormal inputs as zero of the same sign
    input  wire                         flush_subnormals,
    output reg  [EXP_WIDTH+MAN_WIDTH:0] result,
    output reg                          nan
);

localparam WIDTH = 1 + EXP_WIDTH + MAN_WIDTH;
localparam [EXP_WIDTH-1:0] EXP_ALL_ONES = {EXP_WIDTH{1'b1}};
localparam [MAN_WIDTH-1:0] MAN_ALL_ONES = {MAN_WIDTH{1'b1}};
localparam [WIDTH-1:0] CANONICAL_NAN = FINITE_ONLY ? {1'b0, EXP_ALL_ONES, MAN_ALL_ONES}
                                                   : {1'b0, EXP_ALL_ONES, 1'b1, {MAN_WIDTH-1{1'b0}}};

function is_nan(input [WIDTH-2:0] magnitude);
    is_nan = FINITE_ONLY ? (magnitude == {EXP_ALL_ONES, MAN_ALL_ONES})
                         : (magnitude[WIDTH-2:MAN_WIDTH] == EXP_ALL_ONES && magnitude[MAN_WIDTH-1:0] != 0);
endfunction

function [WIDTH-1:0] flushed(input [WIDTH-1:0] value, input flush);
    flushed = (flush && value[WIDTH-2:MAN_WIDTH] == 0) ? {value[WIDTH-1], {WIDTH-1{1'b0}}} : value;
endfunction

// Sign-magnitude to an unsigned key in numeric order, with -0 just below +0.
function [WIDTH-1:0] order_key(input [WIDTH-1:0] value);
    order_key = value[WIDTH-1] ? ~value : {1'b1, value[WIDTH-2:0]};
endfunction

// Returns {nan, result}.
function [WIDTH:0] extreme(input [WIDTH-1:0] left, input [WIDTH-1:0] right, input pick_max, input flush);
    reg [WIDTH-1:0] left_value, right_value;
    reg             left_wins, either_nan;
    begin
        left_value = flushed(left, flush);
        right_value = flushed(right, flush);
        left_wins = pick_max ? order_key(left_value) >= order_key(right_value)
                             : order_key(left_value) <= order_key(right_value);
        either_nan = is_nan(left[WIDTH-2:0]) || is_nan(right[WIDTH-2:0]);
        extreme = {either_nan, either_nan ? CANONICAL_NAN : (left_wins ? left_value : right_value)};
    end
endfunction

always @(posedge clk) begin
    if (enable) begin
        {nan, result} <= extreme(a, b, select_max, flush_subnormals);
    end
end

endmodule

`resetall
