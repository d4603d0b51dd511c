// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Finds, in turn, the QPs whose requester timer is armed, so the timer sweep visits only those
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The requester checks a QP's ACK timeout and RNR wait when its FSM takes the QP up. Visiting
// every QP in turn comes back to a QP only every few thousand cycles at 1 024 QPs, longer than
// the RNR timer's 10 us unit; visiting only the QPs with a timer armed comes back to each one
// after the other armed QPs, so a timer is as precise as the number of QPs actually waiting.
//
// A bit per QP says "armed" (marked by each write-back of the QP's state, cleared when the QP is
// set up again). A cursor walks the bits a word of WORD_BITS at a time: each cycle the first armed
// QP at or after the cursor in the cursor's word is found, or the cursor moves on to the next
// word. The find is registered (found_index / found_valid) and held until taken; the cursor then
// moves past it. A found QP whose bit was cleared meanwhile is harmless: the FSM reads the QP's
// state and finds no timer to act on.
module roce_timer_scan #(
    // Queue pairs (a power of two, at least 2)
    parameter QP_COUNT = 256,
    // Bits looked at in one cycle (a power of two; the word is QP_COUNT when it is smaller)
    parameter WORD_BITS = 32
) (
    input  wire                        clk,
    input  wire                        rst,

    // The QP's timer is armed (or not) from this cycle on
    input  wire                        mark_valid,
    input  wire [$clog2(QP_COUNT)-1:0] mark_index,
    input  wire                        mark_armed,

    // An armed QP for the FSM to visit; take it and the scan moves on past it
    output reg                         found_valid,
    output reg  [$clog2(QP_COUNT)-1:0] found_index,
    input  wire                        take
);

localparam INDEX_WIDTH = $clog2(QP_COUNT);
localparam WORD = WORD_BITS < QP_COUNT ? WORD_BITS : QP_COUNT;
localparam BIT_WIDTH = $clog2(WORD);
// The cursor's bits that pick a QP within its word
localparam [INDEX_WIDTH-1:0] WITHIN_WORD = {INDEX_WIDTH{1'b1}} >> (INDEX_WIDTH - BIT_WIDTH);

reg [QP_COUNT-1:0]    armed;
reg [INDEX_WIDTH-1:0] cursor;

wire [BIT_WIDTH-1:0]   cursor_bit = cursor[BIT_WIDTH-1:0];
wire [INDEX_WIDTH-1:0] word_start = cursor & ~WITHIN_WORD;
wire [WORD-1:0]        word = armed[word_start +: WORD];
// The armed QPs of the cursor's word at or after the cursor
wire [WORD-1:0]        ahead = word & ({WORD{1'b1}} << cursor_bit);

wire                   ahead_any;
wire [INDEX_WIDTH-1:0] ahead_first;  // within the word, as a QP index

lowest_set_bit #(
    .WIDTH(WORD),
    .INDEX_WIDTH(INDEX_WIDTH)
) first_ahead_inst (
    .bits(ahead),
    .found(ahead_any),
    .index(ahead_first)
);

always @(posedge clk) begin
    if (mark_valid) begin
        armed[mark_index] <= mark_armed;
    end
    if (take) begin
        found_valid <= 1'b0;
        cursor <= found_index + 1'b1;
    end else if (!found_valid) begin
        if (ahead_any) begin
            found_valid <= 1'b1;
            found_index <= word_start | ahead_first;
        end else begin
            // Nothing armed from here to the end of the word: the next word (wrapping)
            cursor <= (cursor | WITHIN_WORD) + 1'b1;
        end
    end
    if (rst) begin
        armed <= {QP_COUNT{1'b0}};
        cursor <= {INDEX_WIDTH{1'b0}};
        found_valid <= 1'b0;
        found_index <= {INDEX_WIDTH{1'b0}};
    end
end

endmodule

`resetall
