// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Walks a ring all-reduce's pieces in order: step by step, each step's chunk cut into slot-sized pieces
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Steps 0 to n-2 are reduce-scatter, n-1 to 2n-3 all-gather (ring_schedule). At each step the
// walk visits the pieces of one chunk: the chunk this rank sends (RECEIVE_SIDE 0) or receives
// (RECEIVE_SIDE 1), cut from its first byte into pieces of slot_bytes (the last one shorter). The
// chunk's beats come from ring_chunks; the vector's last chunk ends at its last byte, so a
// partial last beat is never sent. A chunk with no beat has no piece: the walk steps over it by
// itself.
//
// Nothing downstream waits on the ring schedule or the chunk table: a look-ahead works out, four
// registers deep, the chunk of the step after the current one (ring schedule, then the table's
// start and beats, then the chunk's length, then whether it is longer than a slot) while the
// current step's pieces go out, so a step follows the last piece of the one before without a
// gap once it has lasted LOOKAHEAD_CYCLES. The current piece's offset, bytes left and whether more
// than a slot is left are registers, moved on by a slot per piece. The first step waits
// LOOKAHEAD_CYCLES after the table is ready, and so does a step that follows a shorter one (empty
// chunks). Before, the schedule, the table, the chunk's length, the bytes left and the slot compare
// were one path into the engine's 64-bit address adds: the DPU node's longest.
module collective_pieces #(
    // Which chunk of each step: 0 the one this rank sends, 1 the one it receives
    parameter RECEIVE_SIDE = 0,
    // Bytes per beat of the memory bus
    parameter BEAT_BYTES = 64,
    // Width of a rank index or ring size
    parameter RANK_WIDTH = 5,
    // Width of a beat count (ring_chunks)
    parameter COUNT_WIDTH = 24
) (
    input  wire                   clk,
    input  wire                   rst,

    input  wire [RANK_WIDTH-1:0]  rank,
    input  wire [RANK_WIDTH-1:0]  ranks,
    input  wire [31:0]            vector_bytes,
    input  wire [15:0]            slot_bytes,

    // Back to the first piece of step 0
    input  wire                   restart,
    // The chunk table is ready: until then the walk stands still
    input  wire                   table_ready,
    // Past the current piece (only while piece_valid)
    input  wire                   advance,

    // The chunk table (ring_chunks): the chunk asked for, its first beat and its beats
    output wire [RANK_WIDTH-1:0]  chunk,
    input  wire [COUNT_WIDTH-1:0] chunk_start_beats,
    input  wire [COUNT_WIDTH-1:0] chunk_beats,

    output reg  [RANK_WIDTH:0]    step,
    output wire                   all_gather,
    // The last step (its pieces are not sent on)
    output wire                   last_step,
    // Every step walked
    output wire                   finished,
    // A piece is here: piece_offset bytes into the vector, piece_bytes long
    output wire                   piece_valid,
    output wire [31:0]            piece_offset,
    output wire [15:0]            piece_bytes,
    // Pieces walked past since the restart
    output reg  [23:0]            index
);

localparam [31:0] BEAT_BYTES_WIDE = BEAT_BYTES;
// Cycles from the look-ahead's step to its chunk's figures: one per register stage below
localparam [2:0] LOOKAHEAD_CYCLES = 3'd4;

wire [RANK_WIDTH:0] steps = {ranks, 1'b0} - {{RANK_WIDTH-1{1'b0}}, 2'd2};
assign finished = step >= steps;
assign last_step = step == steps - 1'b1;

ring_schedule #(
    .RANK_WIDTH(RANK_WIDTH)
) schedule_inst (
    .rank(rank), .ranks(ranks), .step(step),
    .all_gather(all_gather), .send_chunk(), .receive_chunk()
);

// The current step's chunk is loaded from the look-ahead (below)
reg                loaded;

// The look-ahead works on the step after the loaded one, or on the current step while none is
// loaded; its age is how many of its stages hold that step's figures
wire [RANK_WIDTH:0] ahead_step = loaded ? step + 1'b1 : step;
reg [2:0]          ahead_age;
wire               ahead_ready = ahead_age == LOOKAHEAD_CYCLES;
wire [RANK_WIDTH-1:0] ahead_send_chunk, ahead_receive_chunk;

ring_schedule #(
    .RANK_WIDTH(RANK_WIDTH)
) ahead_schedule_inst (
    .rank(rank), .ranks(ranks), .step(ahead_step),
    .all_gather(), .send_chunk(ahead_send_chunk), .receive_chunk(ahead_receive_chunk)
);

// Stage 1: the chunk (it addresses the chunk table)
reg [RANK_WIDTH-1:0] ahead_chunk;
assign chunk = ahead_chunk;
// Stage 2: the chunk's first byte and its whole beats in bytes, from the table
reg [31:0] ahead_start, ahead_beats_bytes;
reg        ahead_empty, ahead_last_chunk;
// Stage 3: the chunk's bytes (the vector's last chunk ends at the vector's last byte)
reg [31:0] ahead_offset, ahead_bytes;
reg        ahead_empty_3;
// Stage 4: whether the chunk is longer than one slot
reg [31:0] ahead_offset_4, ahead_bytes_4;
reg        ahead_empty_4, ahead_over_slot;

always @(posedge clk) begin
    ahead_chunk <= RECEIVE_SIDE ? ahead_receive_chunk : ahead_send_chunk;
    ahead_start <= {{32-COUNT_WIDTH{1'b0}}, chunk_start_beats} * BEAT_BYTES_WIDE;
    ahead_beats_bytes <= {{32-COUNT_WIDTH{1'b0}}, chunk_beats} * BEAT_BYTES_WIDE;
    ahead_empty <= chunk_beats == {COUNT_WIDTH{1'b0}};
    ahead_last_chunk <= ahead_chunk == ranks - 1'b1;
    ahead_offset <= ahead_start;
    ahead_bytes <= ahead_last_chunk ? vector_bytes - ahead_start : ahead_beats_bytes;
    ahead_empty_3 <= ahead_empty;
    ahead_offset_4 <= ahead_offset;
    ahead_bytes_4 <= ahead_bytes;
    ahead_empty_4 <= ahead_empty_3;
    ahead_over_slot <= ahead_bytes > {16'd0, slot_bytes};
end

// The current step's chunk, once loaded from the look-ahead: the piece's offset into the vector,
// the chunk's bytes from there on, and whether more than a slot of them is left
reg        current_empty;
reg [31:0] offset, bytes_left;
reg        over_slot;

assign piece_valid = table_ready && !finished && loaded && !current_empty;
assign piece_offset = offset;
assign piece_bytes = over_slot ? slot_bytes : bytes_left[15:0];

// The current step is over: its chunk was empty, or its last piece was walked past
wire step_over = table_ready && !finished && loaded && (current_empty || (advance && !over_slot));
// The look-ahead's figures become the current step's: the first step, a step that waited for
// them, or the step after one just over (when there is one to walk)
wire take_ahead = table_ready && !finished && ahead_ready && (!loaded || (step_over && step + 1'b1 < steps));

always @(posedge clk) begin
    if (ahead_age != LOOKAHEAD_CYCLES) ahead_age <= ahead_age + 1'b1;
    // A table being built reads empty chunks: nothing is looked ahead until it is ready
    if (!table_ready || take_ahead) ahead_age <= 3'd0;
    if (step_over) step <= step + 1'b1;
    if (step_over || take_ahead) loaded <= take_ahead;
    if (take_ahead) begin
        offset <= ahead_offset_4;
        bytes_left <= ahead_bytes_4;
        current_empty <= ahead_empty_4;
        over_slot <= ahead_over_slot;
    end else if (advance && piece_valid) begin
        offset <= offset + {16'd0, slot_bytes};
        bytes_left <= bytes_left - {16'd0, slot_bytes};
        // What is left after this piece is more than a slot when more than two slots were
        over_slot <= bytes_left > {15'd0, slot_bytes, 1'b0};
    end
    if (advance && piece_valid) index <= index + 1'b1;
    if (restart || rst) begin
        step <= {RANK_WIDTH+1{1'b0}};
        ahead_age <= 3'd0;
        loaded <= 1'b0;
        index <= 24'd0;
    end
end

endmodule

`resetall
