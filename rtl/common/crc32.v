// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// CRC-32 (IEEE 802.3, reflected, as zlib.crc32) over a stream of beats with byte enables
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The enabled bytes of a message must form one run: a beat may begin with holes only before the
// message's first enabled byte and end with holes only after its last (a frame's header left
// out, then its tail, as the RoCEv2 ICRC covers it). That is what keeps a wide beat shallow. The
// CRC is linear: folding a full beat is state*A^W xor D(data), with the byte enables only
// zeroing data, never choosing between per-byte steps (a byte-by-byte "if enabled" chain is as
// deep as the beat is wide: 64 levels at 512 bits). Trailing holes fold in as zero bytes and are
// taken back out of the state after the register, where the output is read, by the inverse of
// a zero byte's step (it exists: the polynomial has an x^0 term). Leading holes only come before
// anything is folded, so the state a run starts from is a constant per hole count.
module crc32 #(
    // Width of data in bits (a multiple of 8); byte 0 is data[7:0], first on the wire
    parameter DATA_WIDTH = 64,
    // Width of the byte enables: one per byte of data
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // Register state a message starts from: all ones for zlib.crc32; another value continues a
    // CRC over an implied prefix (the RoCEv2 ICRC starts after eight 0xFF bytes: 32'hDEBB20E3)
    parameter [31:0] INITIAL_STATE = 32'hFFFFFFFF
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire [DATA_WIDTH-1:0] data,
    // Only enabled bytes enter the CRC; they form one run per message (see above)
    input  wire [KEEP_WIDTH-1:0] keep,
    input  wire                  valid,
    // With valid: this beat opens a new message, the CRC restarts from its initial value
    input  wire                  start,

    // The CRC of every enabled byte since the last start, final XOR applied (zlib.crc32 value)
    output wire [31:0]           crc
);

// Reflected form of the IEEE 802.3 polynomial 0x04C11DB7
localparam [31:0] POLYNOMIAL_REFLECTED = 32'hEDB88320;
localparam INDEX_WIDTH = KEEP_WIDTH > 1 ? $clog2(KEEP_WIDTH) : 1;

initial begin
    if (DATA_WIDTH % 8 != 0 || KEEP_WIDTH * 8 != DATA_WIDTH) begin
        $error("Error: DATA_WIDTH must be a multiple of 8 and KEEP_WIDTH = DATA_WIDTH/8 (instance %m)");
        $finish;
    end
end

// Steps of the bit-serial definition with a zero data bit (each written out where it is used:
// a shift right, and the polynomial xored in when the bit shifted out was one)
function [31:0] fold_zero_bytes(input [31:0] value, input integer count);
    integer bit_index;
    begin
        fold_zero_bytes = value;
        for (bit_index = 0; bit_index < 8 * count; bit_index = bit_index + 1) begin
            fold_zero_bytes = (fold_zero_bytes >> 1) ^ ({32{fold_zero_bytes[0]}} & POLYNOMIAL_REFLECTED);
        end
    end
endfunction

// Folding a whole beat is linear in the state and the data: each bit of the new state is the
// XOR of the data and state bits in its masks. Data bit j enters as the polynomial xored in at
// step j, then steps through the beat's remaining bits. State bit i meets the feedback at step
// i, as data bit i does: folding the state is folding it xored into the beat's first 32 bits
// (only a beat narrower than the state steps the rest of it through on their own). Masks are
// walked step by step with the step written out, or computed a whole matrix at a time: Yosys
// evaluates constant functions statement by statement, and a call or a read out of a wide
// table in an inner loop made one 512-bit instance take minutes to elaborate.
function [DATA_WIDTH-1:0] data_mask(input integer state_bit);
    integer data_bit;
    reg [31:0] effect;
    begin
        effect = POLYNOMIAL_REFLECTED;
        for (data_bit = DATA_WIDTH - 1; data_bit >= 0; data_bit = data_bit - 1) begin
            data_mask[data_bit] = (effect >> state_bit) % 2 != 0;
            effect = (effect >> 1) ^ ({32{effect[0]}} & POLYNOMIAL_REFLECTED);
        end
    end
endfunction

function [31:0] state_mask(input integer state_bit, input [DATA_WIDTH-1:0] data_bits);
    integer source_bit;
    reg [31:0] effect;
    begin
        for (source_bit = 0; source_bit < 32; source_bit = source_bit + 1) begin
            if (source_bit < DATA_WIDTH) begin
                state_mask[source_bit] = data_bits[source_bit];
            end else begin
                effect = fold_zero_bytes(32'd1 << source_bit, KEEP_WIDTH);
                state_mask[source_bit] = (effect >> state_bit) % 2 != 0;
            end
        end
    end
endfunction

// Matrix z (1024 bits, row i at bits 32i up) takes a state back through z zero bytes: bit i of
// the result is the parity of the state against row i. One bit's unfold, the inverse of a step
// (a step shifts right and xors in the polynomial, bit 31 set, when bit 0 was one, so bit 31
// afterwards tells which it did), sends bit 31 to bit 0 and bit i-1 to bit i, with bit 31 where
// the polynomial has bit i-1. Applied to every column of a matrix at once, that moves its rows
// up one, row 31 to row 0, and xors row 31 into the rows the polynomial selects.
function [32*32-1:0] polynomial_rows(input integer unused);
    integer row_index;
    begin
        polynomial_rows = {32*32{1'b0}};
        for (row_index = 1; row_index < 32; row_index = row_index + 1) begin
            polynomial_rows[32*row_index +: 32] = {32{POLYNOMIAL_REFLECTED[row_index - 1]}};
        end
    end
endfunction

localparam [32*32-1:0] POLYNOMIAL_ROWS = polynomial_rows(0);

function [32*32*KEEP_WIDTH-1:0] unfold_matrices(input integer unused);
    integer zeros, row_index, bit_index;
    reg [32*32-1:0] matrix;
    begin
        for (row_index = 0; row_index < 32; row_index = row_index + 1) begin
            matrix[32*row_index +: 32] = 32'd1 << row_index;
        end
        for (zeros = 0; zeros < KEEP_WIDTH; zeros = zeros + 1) begin
            unfold_matrices[32*32*zeros +: 32*32] = matrix;
            for (bit_index = 0; bit_index < 8; bit_index = bit_index + 1) begin
                matrix = {matrix[32*31-1:0], matrix[32*31 +: 32]} ^ ({32{matrix[32*31 +: 32]}} & POLYNOMIAL_ROWS);
            end
        end
    end
endfunction

localparam [32*32*KEEP_WIDTH-1:0] UNFOLD_MATRICES = unfold_matrices(0);

reg  [31:0]            state;
reg  [INDEX_WIDTH-1:0] trailing_holes;   // zero bytes folded after the run's last byte
reg                    run_open;         // the message's run has begun

// Where the beat's run begins and ends, one-hot (a run has one of each): the run's start state
// and trailing hole count are ORs of constants picked by these, a few levels, where a priority
// encoder over the lanes would be a chain across them
wire [KEEP_WIDTH-1:0] run_begins = keep & ~(keep << 1);
wire [KEEP_WIDTH-1:0] run_ends = keep & ~(keep >> 1);
wire                  any_enabled = |keep;

// Entry `holes`: the state a run that begins after that many leading holes starts from, the
// initial state folded through the beat's remaining width of zero bytes (the data term adds the
// run's bytes); one more zero byte for each lane nearer the beat's start
function [32*KEEP_WIDTH-1:0] run_start_states(input integer unused);
    integer holes, bit_index;
    reg [31:0] start_state;
    begin
        start_state = INITIAL_STATE;
        for (holes = KEEP_WIDTH - 1; holes >= 0; holes = holes - 1) begin
            for (bit_index = 0; bit_index < 8; bit_index = bit_index + 1) begin
                start_state = (start_state >> 1) ^ ({32{start_state[0]}} & POLYNOMIAL_REFLECTED);
            end
            run_start_states[32*holes +: 32] = start_state;
        end
    end
endfunction

localparam [32*KEEP_WIDTH-1:0] RUN_START_STATES = run_start_states(0);

// Lanes whose run start state has bit `state_bit` set
function [KEEP_WIDTH-1:0] start_state_lanes(input integer state_bit);
    integer lane_index;
    begin
        for (lane_index = 0; lane_index < KEEP_WIDTH; lane_index = lane_index + 1) begin
            start_state_lanes[lane_index] = RUN_START_STATES[32*lane_index + state_bit];
        end
    end
endfunction

// Lanes that, as a run's last, leave a trailing hole count with bit `count_bit` set
function [KEEP_WIDTH-1:0] trailing_count_lanes(input integer count_bit);
    integer lane_index, holes;
    begin
        for (lane_index = 0; lane_index < KEEP_WIDTH; lane_index = lane_index + 1) begin
            holes = KEEP_WIDTH - 1 - lane_index;
            trailing_count_lanes[lane_index] = (holes >> count_bit) % 2 != 0;
        end
    end
endfunction

wire [31:0]            run_start_state;
wire [INDEX_WIDTH-1:0] beat_trailing_holes;
genvar count_bit;
generate
    for (count_bit = 0; count_bit < INDEX_WIDTH; count_bit = count_bit + 1) begin : trailing
        localparam [KEEP_WIDTH-1:0] LANES = trailing_count_lanes(count_bit);
        assign beat_trailing_holes[count_bit] = |(run_ends & LANES);
    end
endgenerate

reg [DATA_WIDTH-1:0] enabled_data;
integer byte_index;
always @* begin
    for (byte_index = 0; byte_index < KEEP_WIDTH; byte_index = byte_index + 1) begin
        enabled_data[byte_index*8 +: 8] = keep[byte_index] ? data[byte_index*8 +: 8] : 8'd0;
    end
end

wire        starts_run = start || !run_open;
wire [31:0] state_in = starts_run ? 32'd0 : state;
wire [31:0] folded;
// The state with the trailing zero bytes unfolded, read by the output
wire [32*32-1:0] unfold_matrix = UNFOLD_MATRICES[32*32*trailing_holes +: 32*32];
wire [31:0]      unfolded_state;

genvar state_bit;
generate
    for (state_bit = 0; state_bit < 32; state_bit = state_bit + 1) begin : fold
        localparam [DATA_WIDTH-1:0] DATA_MASK = data_mask(state_bit);
        localparam [31:0] STATE_MASK = state_mask(state_bit, DATA_MASK);
        localparam [KEEP_WIDTH-1:0] START_LANES = start_state_lanes(state_bit);
        assign run_start_state[state_bit] = |(run_begins & START_LANES);
        assign folded[state_bit] = ^(enabled_data & DATA_MASK) ^ ^(state_in & STATE_MASK)
                                ^ (starts_run & run_start_state[state_bit]);
        assign unfolded_state[state_bit] = ^(state & unfold_matrix[32*state_bit +: 32]);
    end
endgenerate

assign crc = ~unfolded_state;

always @(posedge clk) begin
    if (valid) begin
        if (any_enabled) begin
            state <= folded;
            trailing_holes <= beat_trailing_holes;
            run_open <= 1'b1;
        end else if (start) begin
            state <= INITIAL_STATE;
            trailing_holes <= {INDEX_WIDTH{1'b0}};
            run_open <= 1'b0;
        end
    end
    if (rst) begin
        state <= INITIAL_STATE;
        trailing_holes <= {INDEX_WIDTH{1'b0}};
        run_open <= 1'b0;
    end
end

endmodule

`resetall
