// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Element-wise reduction of one beat: every lane of the selected data type, one operation, two register stages
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Data type codes (CSR CONFIG.dtype) and operation codes (CONFIG.op):
//   dtype 0 fp32, 1 fp16, 2 bf16, 3 int32, 4 fp8 e4m3 (e4m3fn), 5 fp8 e5m2, 6 int8
//   op    0 sum, 1 max, 2 min
// Integer sums wrap (two's complement); integer max and min are signed.
module reduce_alu #(
    // Width of a beat in bits (a multiple of 32)
    parameter DATA_WIDTH = 512
) (
    input  wire                    clk,
    // Take a beat (a, b) into the first stage this cycle
    input  wire                    enable,
    // Finish the first stage's beat this cycle: its results appear after the edge and hold until
    // the next finish. The owner finishes each taken beat once, in order, before taking the next
    // but one (a two-deep pipeline under one stall, as allreduce_reducer runs it)
    input  wire                    finish,
    input  wire [DATA_WIDTH-1:0]   a,
    input  wire [DATA_WIDTH-1:0]   b,
    input  wire [2:0]              dtype,
    input  wire [1:0]              op,
    input  wire                    flush_subnormals,
    output reg  [DATA_WIDTH-1:0]   result,
    // One flag per byte, set on the lowest byte of every element whose result is NaN / overflowed
    output reg  [DATA_WIDTH/8-1:0] nan_flags,
    output reg  [DATA_WIDTH/8-1:0] overflow_flags
);

localparam BYTES = DATA_WIDTH / 8;
localparam [2:0] DTYPE_FP32 = 3'd0, DTYPE_FP16 = 3'd1, DTYPE_BF16 = 3'd2, DTYPE_INT32 = 3'd3,
                 DTYPE_E4M3 = 3'd4, DTYPE_E5M2 = 3'd5, DTYPE_INT8 = 3'd6;

initial begin
    if (DATA_WIDTH % 32 != 0) begin
        $error("Error: DATA_WIDTH must be a multiple of 32 (instance %m)");
        $finish;
    end
end

// Only the selected type's lanes compute, and only on enabled beats. Additions take both stages;
// maximum, minimum and the integer operations are one stage of work, done in the second on the
// operands held here, so every result leaves after the same two.
reg [DATA_WIDTH-1:0] staged_a, staged_b;

always @(posedge clk) begin
    if (enable) begin
        staged_a <= a;
        staged_b <= b;
    end
end

wire [DATA_WIDTH-1:0] fp32_result, fp16_result, bf16_result, e4m3_result, e5m2_result, int32_result, int8_result;
wire [BYTES/4-1:0] fp32_nan, fp32_overflow;
wire [BYTES/2-1:0] fp16_nan, fp16_overflow, bf16_nan, bf16_overflow;
wire [BYTES-1:0]   e4m3_nan, e4m3_overflow, e5m2_nan, e5m2_overflow;

float_lanes #(.DATA_WIDTH(DATA_WIDTH), .EXP_WIDTH(8), .MAN_WIDTH(23)) fp32_inst (
    .clk(clk), .enable(enable && dtype == DTYPE_FP32), .finish(finish && dtype == DTYPE_FP32),
    .a(a), .b(b), .staged_a(staged_a), .staged_b(staged_b), .op(op),
    .flush_subnormals(flush_subnormals), .result(fp32_result), .nan(fp32_nan), .overflow(fp32_overflow));
float_lanes #(.DATA_WIDTH(DATA_WIDTH), .EXP_WIDTH(5), .MAN_WIDTH(10)) fp16_inst (
    .clk(clk), .enable(enable && dtype == DTYPE_FP16), .finish(finish && dtype == DTYPE_FP16),
    .a(a), .b(b), .staged_a(staged_a), .staged_b(staged_b), .op(op),
    .flush_subnormals(flush_subnormals), .result(fp16_result), .nan(fp16_nan), .overflow(fp16_overflow));
float_lanes #(.DATA_WIDTH(DATA_WIDTH), .EXP_WIDTH(8), .MAN_WIDTH(7)) bf16_inst (
    .clk(clk), .enable(enable && dtype == DTYPE_BF16), .finish(finish && dtype == DTYPE_BF16),
    .a(a), .b(b), .staged_a(staged_a), .staged_b(staged_b), .op(op),
    .flush_subnormals(flush_subnormals), .result(bf16_result), .nan(bf16_nan), .overflow(bf16_overflow));
float_lanes #(.DATA_WIDTH(DATA_WIDTH), .EXP_WIDTH(4), .MAN_WIDTH(3), .FINITE_ONLY(1)) e4m3_inst (
    .clk(clk), .enable(enable && dtype == DTYPE_E4M3), .finish(finish && dtype == DTYPE_E4M3),
    .a(a), .b(b), .staged_a(staged_a), .staged_b(staged_b), .op(op),
    .flush_subnormals(flush_subnormals), .result(e4m3_result), .nan(e4m3_nan), .overflow(e4m3_overflow));
float_lanes #(.DATA_WIDTH(DATA_WIDTH), .EXP_WIDTH(5), .MAN_WIDTH(2)) e5m2_inst (
    .clk(clk), .enable(enable && dtype == DTYPE_E5M2), .finish(finish && dtype == DTYPE_E5M2),
    .a(a), .b(b), .staged_a(staged_a), .staged_b(staged_b), .op(op),
    .flush_subnormals(flush_subnormals), .result(e5m2_result), .nan(e5m2_nan), .overflow(e5m2_overflow));
int_lanes #(.DATA_WIDTH(DATA_WIDTH), .LANE_WIDTH(32)) int32_inst (
    .clk(clk), .enable(finish && dtype == DTYPE_INT32), .a(staged_a), .b(staged_b), .op(op), .result(int32_result));
int_lanes #(.DATA_WIDTH(DATA_WIDTH), .LANE_WIDTH(8)) int8_inst (
    .clk(clk), .enable(finish && dtype == DTYPE_INT8), .a(staged_a), .b(staged_b), .op(op), .result(int8_result));

integer index;

always @* begin
    nan_flags = {BYTES{1'b0}};
    overflow_flags = {BYTES{1'b0}};
    case (dtype)
        DTYPE_FP32: result = fp32_result;
        DTYPE_FP16: result = fp16_result;
        DTYPE_BF16: result = bf16_result;
        DTYPE_INT32: result = int32_result;
        DTYPE_E4M3: result = e4m3_result;
        DTYPE_E5M2: result = e5m2_result;
        default: result = int8_result;
    endcase
    for (index = 0; index < BYTES; index = index + 1) begin
        case (dtype)
            DTYPE_FP32: if (index % 4 == 0) {nan_flags[index], overflow_flags[index]} = {fp32_nan[index/4], fp32_overflow[index/4]};
            DTYPE_FP16: if (index % 2 == 0) {nan_flags[index], overflow_flags[index]} = {fp16_nan[index/2], fp16_overflow[index/2]};
            DTYPE_BF16: if (index % 2 == 0) {nan_flags[index], overflow_flags[index]} = {bf16_nan[index/2], bf16_overflow[index/2]};
            DTYPE_E4M3: {nan_flags[index], overflow_flags[index]} = {e4m3_nan[index], e4m3_overflow[index]};
            DTYPE_E5M2: {nan_flags[index], overflow_flags[index]} = {e5m2_nan[index], e5m2_overflow[index]};
            default: ;
        endcase
    end
end

endmodule

`resetall
