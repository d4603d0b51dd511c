// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Seeded pseudo-random source: a 64-bit xorshift register, two words per draw
`resetall
`timescale 1ns / 1ps
`default_nettype none

// xorshift64 (shifts 13, 7, 17) is a linear feedback register over GF(2) with period 2^64 - 1.
// It is loaded from the seed at reset and moves only when a draw is taken, so a seed gives the
// same sequence of decisions whatever the traffic's timing. SALT makes instances differ.
module fabric_random #(
    // Mixed into the seed so that instances with one seed draw different sequences
    parameter [31:0] SALT = 32'h0
) (
    input  wire        clk,
    input  wire        rst,
    // Sampled while rst is high
    input  wire [31:0] seed,
    // Take a draw: both words move on by two steps
    input  wire        advance,
    output wire [63:0] word_a,
    output wire [63:0] word_b
);

function [63:0] xorshift64(input [63:0] state);
    reg [63:0] x;
    begin
        x = state ^ (state << 13);
        x = x ^ (x >> 7);
        xorshift64 = x ^ (x << 17);
    end
endfunction

// The two halves cannot both be zero: that would need seed ^ SALT == 0x9E3779B9 and
// seed ^ SALT == ~0x7F4A7C15 at once, and those differ.
wire [31:0] salted_seed = seed ^ SALT;

reg [63:0] state;

assign word_a = state;
assign word_b = xorshift64(state);

always @(posedge clk) begin
    if (advance) begin
        state <= xorshift64(word_b);
    end
    if (rst) begin
        state <= {salted_seed ^ 32'h9E3779B9, ~salted_seed ^ 32'h7F4A7C15};
    end
end

endmodule

`resetall
