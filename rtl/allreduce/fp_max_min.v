// IEEE 754-2019 maximum / minimum for one lane: NaN propagates (canonical), -0 < +0
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

// Every signal a function reads is an argument: @* and continuous assignments only watch those.
function [WIDTH-1:0] flushed(input [WIDTH-1:0] value, input flush);
    flushed = (flush && value[WIDTH-2:MAN_WIDTH] == 0) ? {value[WIDTH-1], {WIDTH-1{1'b0}}} : value;
endfunction

// Sign-magnitude to an unsigned key in numeric order, with -0 just below +0.
function [WIDTH-1:0] order_key(input [WIDTH-1:0] value);
    order_key = value[WIDTH-1] ? ~value : {1'b1, value[WIDTH-2:0]};
endfunction

reg [WIDTH-1:0] a_value, b_value;
reg             a_first;

always @* begin
    a_value = flushed(a, flush_subnormals);
    b_value = flushed(b, flush_subnormals);
    a_first = select_max ? order_key(a_value) >= order_key(b_value) : order_key(a_value) <= order_key(b_value);
    nan = is_nan(a[WIDTH-2:0]) || is_nan(b[WIDTH-2:0]);
    result = nan ? CANONICAL_NAN : (a_first ? a_value : b_value);
end

endmodule

`resetall
