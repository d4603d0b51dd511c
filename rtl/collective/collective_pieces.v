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
// itself, one cycle per empty step.
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

wire [RANK_WIDTH-1:0] send_chunk, receive_chunk;

ring_schedule #(
    .RANK_WIDTH(RANK_WIDTH)
) schedule_inst (
    .rank(rank), .ranks(ranks), .step(step),
    .all_gather(all_gather), .send_chunk(send_chunk), .receive_chunk(receive_chunk)
);

assign chunk = RECEIVE_SIDE ? receive_chunk : send_chunk;

reg [31:0] offset_in_chunk;

wire [RANK_WIDTH:0] steps = {ranks, 1'b0} - {{RANK_WIDTH-1{1'b0}}, 2'd2};
assign finished = step >= steps;
assign last_step = step == steps - 1'b1;

wire [31:0] chunk_start_bytes = {{32-COUNT_WIDTH{1'b0}}, chunk_start_beats} * BEAT_BYTES_WIDE;
wire        last_chunk = chunk == ranks - 1'b1;
wire [31:0] chunk_bytes = last_chunk ? vector_bytes - chunk_start_bytes
                                     : {{32-COUNT_WIDTH{1'b0}}, chunk_beats} * BEAT_BYTES_WIDE;
wire [31:0] bytes_left = chunk_bytes - offset_in_chunk;
wire        chunk_empty = chunk_beats == {COUNT_WIDTH{1'b0}};

assign piece_valid = table_ready && !finished && !chunk_empty;
assign piece_offset = chunk_start_bytes + offset_in_chunk;
assign piece_bytes = bytes_left > {16'd0, slot_bytes} ? slot_bytes : bytes_left[15:0];

always @(posedge clk) begin
    if (!table_ready) begin
        // A table being built reads empty chunks: nothing is walked past
    end else if (!finished && chunk_empty) begin
        step <= step + 1'b1;
    end else if (advance && piece_valid) begin
        index <= index + 1'b1;
        if (bytes_left > {16'd0, slot_bytes}) begin
            offset_in_chunk <= offset_in_chunk + {16'd0, slot_bytes};
        end else begin
            offset_in_chunk <= 32'd0;
            step <= step + 1'b1;
        end
    end
    if (restart || rst) begin
        step <= {RANK_WIDTH+1{1'b0}};
        offset_in_chunk <= 32'd0;
        index <= 24'd0;
    end
end

endmodule

`resetall
