// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// IEEE 754 addition for one lane of a binary floating-point format: round to nearest even,
// subnormals kept (or flushed on request), canonical quiet NaN; two register stages
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The arithmetic is two functions, each called in a clocked block under its stage's enable, so
// simulators compute it only for beats that need it (a wide unit carries every format's lanes
// side by side). The stages split the work where the carry-propagate add ends: operand order,
// alignment and the add, then normalisation, rounding and packing. In one cycle the whole adder
// was the all-reduce rank's longest path (15.7 MHz at 64 bits on an ECP5, under the ULX3S's 25).
module fp_add #(
    // Exponent field width (8 for fp32 and bf16, 5 for fp16 and fp8 e5m2, 4 for fp8 e4m3)
    parameter EXP_WIDTH = 8,
    // Stored mantissa (fraction) width (23 fp32, 7 bf16, 10 fp16, 2 e5m2, 3 e4m3)
    parameter MAN_WIDTH = 23,
    // 1 for formats without infinities whose only NaN has every exponent and mantissa bit set
    // (OCP fp8 e4m3fn): overflow then gives NaN, and the all-ones exponent holds finite values
    parameter FINITE_ONLY = 0
) (
    input  wire                         clk,
    // Take a and b into the first stage this cycle
    input  wire                         enable,
    // Finish the first stage's sum into the outputs this cycle; the outputs hold the last
    // finished result (a beat taken with enable is finished by a later finish, the pipeline's
    // owner keeping them in step)
    input  wire                         finish,
    input  wire [EXP_WIDTH+MAN_WIDTH:0] a,
    input  wire [EXP_WIDTH+MAN_WIDTH:0] b,
    // Treat subnormal inputs as zero of the same sign and flush subnormal results to zero (taken
    // with the operands)
    input  wire                         flush_subnormals,
    output reg  [EXP_WIDTH+MAN_WIDTH:0] sum,
    // The result is NaN (a NaN operand, inf - inf, or an e4m3fn overflow)
    output reg                          nan,
    // Finite operands whose sum is too large for the format
    output reg                          overflow
);

localparam WIDTH = 1 + EXP_WIDTH + MAN_WIDTH;
localparam SIG_WIDTH = MAN_WIDTH + 1;    // significand with its hidden bit
localparam EXT_WIDTH = SIG_WIDTH + 3;    // plus guard, round and sticky bits
localparam E_WIDTH = EXP_WIDTH + 2;      // room for a carry past the largest exponent
localparam [EXP_WIDTH-1:0] EXP_ALL_ONES = {EXP_WIDTH{1'b1}};
localparam [MAN_WIDTH-1:0] MAN_ALL_ONES = {MAN_WIDTH{1'b1}};
localparam [WIDTH-1:0] CANONICAL_NAN = FINITE_ONLY ? {1'b0, EXP_ALL_ONES, MAN_ALL_ONES}
                                                   : {1'b0, EXP_ALL_ONES, 1'b1, {MAN_WIDTH-1{1'b0}}};
localparam [E_WIDTH-1:0] E_MAX = {2'b00, EXP_ALL_ONES};

initial begin
    if (EXP_WIDTH < 2 || MAN_WIDTH < 1) begin
        $error("Error: EXP_WIDTH must be at least 2 and MAN_WIDTH at least 1 (instance %m)");
        $finish;
    end
end

// Classification looks at the magnitude (every bit but the sign).
function is_nan(input [WIDTH-2:0] magnitude);
    is_nan = FINITE_ONLY ? (magnitude == {EXP_ALL_ONES, MAN_ALL_ONES})
                         : (magnitude[WIDTH-2:MAN_WIDTH] == EXP_ALL_ONES && magnitude[MAN_WIDTH-1:0] != 0);
endfunction

function is_inf(input [WIDTH-2:0] magnitude);
    is_inf = !FINITE_ONLY && magnitude == {EXP_ALL_ONES, {MAN_WIDTH{1'b0}}};
endfunction

function [E_WIDTH-1:0] leading_zeros(input [EXT_WIDTH-1:0] value);
    integer index, count;
    reg found;
    begin
        count = EXT_WIDTH;
        found = 1'b0;
        for (index = EXT_WIDTH - 1; index >= 0; index = index - 1) begin
            if (!found && value[index]) begin
                count = EXT_WIDTH - 1 - index;
                found = 1'b1;
            end
        end
        leading_zeros = count[E_WIDTH-1:0];
    end
endfunction

// The first stage's result: the operands' special cases decided, and the exact aligned sum.
localparam STAGE_WIDTH = 1 + 1 + 1 + 1 + 1 + 1 + E_WIDTH + EXT_WIDTH + 1;
// {special_nan, special_inf, inf_sign, flush, subtract, big_sign, big_e, raw}

function [STAGE_WIDTH-1:0] align_and_add(input [WIDTH-1:0] left, input [WIDTH-1:0] right, input flush);
    reg                   a_sign, b_sign, big_sign, small_sign, subtract, sticky;
    reg [EXP_WIDTH-1:0]   a_exp, b_exp;
    reg [MAN_WIDTH-1:0]   a_man, b_man;
    reg [E_WIDTH-1:0]     a_e, b_e, big_e, small_e, shift;
    reg [SIG_WIDTH-1:0]   a_sig, b_sig, big_sig, small_sig;
    reg [EXT_WIDTH-1:0]   small_aligned;
    reg [EXT_WIDTH:0]     raw;
    reg                   special_nan, special_inf, inf_sign;
    begin
        // Unpack; a subnormal has no hidden bit and the exponent of the smallest normal.
        {a_sign, a_exp, a_man} = left;
        {b_sign, b_exp, b_man} = right;
        if (flush && a_exp == 0) a_man = 0;
        if (flush && b_exp == 0) b_man = 0;
        a_sig = {a_exp != 0, a_man};
        b_sig = {b_exp != 0, b_man};
        a_e = a_exp == 0 ? {{E_WIDTH-1{1'b0}}, 1'b1} : {2'b00, a_exp};
        b_e = b_exp == 0 ? {{E_WIDTH-1{1'b0}}, 1'b1} : {2'b00, b_exp};

        // Larger magnitude first, so that a subtraction never goes negative.
        if ({a_exp, a_man} >= {b_exp, b_man}) begin
            {big_sign, big_e, big_sig, small_sign, small_e, small_sig} = {a_sign, a_e, a_sig, b_sign, b_e, b_sig};
        end else begin
            {big_sign, big_e, big_sig, small_sign, small_e, small_sig} = {b_sign, b_e, b_sig, a_sign, a_e, a_sig};
        end
        subtract = big_sign ^ small_sign;

        // Align the smaller operand; every bit shifted out below the round bit folds into sticky.
        shift = big_e - small_e;
        if (shift >= EXT_WIDTH) begin
            sticky = small_sig != 0;
            small_aligned = {EXT_WIDTH{1'b0}};
        end else begin
            sticky = ({small_sig, 3'b000} & ~({EXT_WIDTH{1'b1}} << shift)) != 0;
            small_aligned = {small_sig, 3'b000} >> shift;
        end
        small_aligned[0] = small_aligned[0] | sticky;

        raw = subtract ? {1'b0, big_sig, 3'b000} - {1'b0, small_aligned} : {1'b0, big_sig, 3'b000} + {1'b0, small_aligned};

        // A NaN operand or inf - inf gives NaN; otherwise an infinite operand is the result.
        special_nan = is_nan(left[WIDTH-2:0]) || is_nan(right[WIDTH-2:0])
                      || (is_inf(left[WIDTH-2:0]) && is_inf(right[WIDTH-2:0]) && a_sign != b_sign);
        special_inf = is_inf(left[WIDTH-2:0]) || is_inf(right[WIDTH-2:0]);
        inf_sign = is_inf(left[WIDTH-2:0]) ? a_sign : b_sign;
        align_and_add = {special_nan, special_inf, inf_sign, flush, subtract, big_sign, big_e, raw};
    end
endfunction

// Returns {nan, overflow, sum} from the first stage's result.
function [WIDTH+1:0] round_and_pack(input [STAGE_WIDTH-1:0] stage);
    reg                   special_nan, special_inf, inf_sign, flush, subtract, big_sign;
    reg [E_WIDTH-1:0]     big_e, normalise_shift, exponent;
    reg [EXT_WIDTH:0]     raw;
    reg [EXT_WIDTH-1:0]   normalised;
    reg [SIG_WIDTH:0]     rounded;
    reg [MAN_WIDTH-1:0]   mantissa;
    reg [EXP_WIDTH-1:0]   exponent_field;
    reg                   round_up, result_sign;
    reg [WIDTH-1:0]       result;
    reg                   result_nan, result_overflow;
    begin
        {special_nan, special_inf, inf_sign, flush, subtract, big_sign, big_e, raw} = stage;

        // Normalise: a carry shifts right once; cancellation shifts left, but never below the
        // smallest normal exponent (the result is then subnormal).
        exponent = big_e;
        normalise_shift = {E_WIDTH{1'b0}};
        if (raw[EXT_WIDTH]) begin
            normalised = {raw[EXT_WIDTH:2], raw[1] | raw[0]};
            exponent = exponent + 1;
        end else begin
            normalise_shift = leading_zeros(raw[EXT_WIDTH-1:0]);
            if (normalise_shift > exponent - 1) normalise_shift = exponent - 1;
            normalised = raw[EXT_WIDTH-1:0] << normalise_shift;
            exponent = exponent - normalise_shift;
        end

        // Round to nearest, ties to even.
        round_up = normalised[2] && (normalised[1] || normalised[0] || normalised[3]);
        rounded = {1'b0, normalised[EXT_WIDTH-1:3]} + {{SIG_WIDTH{1'b0}}, round_up};
        if (rounded[SIG_WIDTH]) begin
            rounded = rounded >> 1;
            exponent = exponent + 1;
        end
        mantissa = rounded[MAN_WIDTH-1:0];
        exponent_field = rounded[SIG_WIDTH-1] ? exponent[EXP_WIDTH-1:0] : {EXP_WIDTH{1'b0}};
        // An exact zero from opposite signs is +0 under round to nearest; -0 + -0 stays -0.
        result_sign = (raw == 0 && subtract) ? 1'b0 : big_sign;

        result_nan = 1'b0;
        result_overflow = 1'b0;
        if (FINITE_ONLY ? (exponent > E_MAX || (exponent == E_MAX && mantissa == MAN_ALL_ONES)) : exponent >= E_MAX) begin
            result_overflow = 1'b1;
            result = FINITE_ONLY ? CANONICAL_NAN : {result_sign, EXP_ALL_ONES, {MAN_WIDTH{1'b0}}};
            result_nan = FINITE_ONLY;
        end else if (flush && exponent_field == 0) begin
            result = {result_sign, {EXP_WIDTH+MAN_WIDTH{1'b0}}};
        end else begin
            result = {result_sign, exponent_field, mantissa};
        end

        if (special_nan) begin
            result = CANONICAL_NAN;
            result_nan = 1'b1;
            result_overflow = 1'b0;
        end else if (special_inf) begin
            result = {inf_sign, EXP_ALL_ONES, {MAN_WIDTH{1'b0}}};
            result_overflow = 1'b0;
        end
        round_and_pack = {result_nan, result_overflow, result};
    end
endfunction

reg [STAGE_WIDTH-1:0] aligned;

always @(posedge clk) begin
    if (enable) begin
        aligned <= align_and_add(a, b, flush_subnormals);
    end
    if (finish) begin
        {nan, overflow, sum} <= round_and_pack(aligned);
    end
end

endmodule

`resetall
