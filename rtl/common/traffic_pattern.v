// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Traffic pattern: one beat of the self-test stream from the pattern state (shared by generator and checker)
`resetall
`timescale 1ns / 1ps
`default_nettype none

// A frame is a run of 32-bit words, lane 0 first. Word 0 of a frame is the frame's number, so a
// checker can tell a lost or repeated frame from a corrupted one; every later word is the next
// xorshift32 (13, 17, 5) state, starting from (seed ^ (frame << 1)) | 1 (never 0, which xorshift
// would keep forever). Generator and checker both use this module, so they cannot disagree.
module traffic_pattern #(
    // Width of the stream's tdata in bits (a multiple of 32)
    parameter DATA_WIDTH = 64
) (
    // Pattern state after the previous beat's last word (ignored on a first beat)
    input  wire [31:0]           state,
    input  wire                  first_beat,
    input  wire [31:0]           frame_number,
    input  wire [31:0]           seed,
    output reg  [DATA_WIDTH-1:0] beat_data,
    output reg  [31:0]           next_state
);

localparam LANES = DATA_WIDTH / 32;

initial begin
    if (DATA_WIDTH % 32 != 0 || DATA_WIDTH < 32) begin
        $error("Error: DATA_WIDTH must be a multiple of 32 (instance %m)");
        $finish;
    end
end

function [31:0] xorshift32(input [31:0] value);
    reg [31:0] mixed;
    begin
        mixed = value ^ (value << 13);
        mixed = mixed ^ (mixed >> 17);
        xorshift32 = mixed ^ (mixed << 5);
    end
endfunction

integer lane;
reg [31:0] word_state;

always @* begin
    word_state = first_beat ? ((seed ^ (frame_number << 1)) | 32'd1) : state;
    for (lane = 0; lane < LANES; lane = lane + 1) begin
        if (first_beat && lane == 0) begin
            beat_data[lane*32 +: 32] = frame_number;
        end else begin
            word_state = xorshift32(word_state);
            beat_data[lane*32 +: 32] = word_state;
        end
    end
    next_state = word_state;
end

endmodule

`resetall
