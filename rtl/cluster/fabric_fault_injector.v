// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Egress reader with faults: sends queued frames, losing, duplicating, corrupting or swapping some
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Frames are read out of fabric_egress_queue's memory by descriptor, so a fault costs no extra
// buffer: a lost frame is popped and released unread, a duplicate is read twice, a reordered frame
// stays queued until the frame behind it is queued too and both are popped at once (the second
// is sent first), and a corrupted frame has one bit flipped on its way out. Each frame draws
// once from a seeded xorshift register when it reaches the head, and at most one fault applies,
// in this order: loss (threshold over 65536, or the rest of a burst: a lost frame begins a burst
// of burst_length lost frames in all), reordering, corruption, duplication. Corruption flips bit
// b of byte n, n drawn uniformly from 54 to the frame's last byte, so the Ethernet, IPv4, UDP
// and BTH headers stay whole and the frame is still routed, but its ICRC fails; frames of 54
// bytes or fewer are never corrupted. A frame held for reordering is sent alone after
// reorder_hold_cycles if no frame comes behind it, so nothing is lost by reordering. Frames start
// back to back: the next frame's first beat is read in the cycle the last beat leaves.
module fabric_fault_injector #(
    // Width of tdata in bits (a multiple of 8, a power of two)
    parameter DATA_WIDTH = 64,
    // Width of tkeep in bits: one enable per byte of tdata
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // Width of tuser in bits
    parameter USER_WIDTH = 1,
    // Width of a beat address with its extra bit (as the queue's)
    parameter POINTER_WIDTH = 12,
    // Width of a frame length in bytes (as the queue's)
    parameter LENGTH_WIDTH = 15,
    // Mixed into the seed so that ports draw different sequences
    parameter [31:0] SALT = 32'h0
) (
    input  wire                     clk,
    input  wire                     rst,

    input  wire                     head_valid,
    input  wire [POINTER_WIDTH-1:0] head_address,
    input  wire [LENGTH_WIDTH-1:0]  head_length,
    input  wire                     next_valid,
    input  wire [POINTER_WIDTH-1:0] next_address,
    input  wire [LENGTH_WIDTH-1:0]  next_length,
    output reg                      pop_head,
    output reg                      pop_head_and_next,

    output wire                     read_enable,
    output wire [POINTER_WIDTH-1:0] read_address,
    input  wire [DATA_WIDTH-1:0]    read_tdata,
    input  wire [KEEP_WIDTH-1:0]    read_tkeep,
    input  wire                     read_tlast,
    input  wire [USER_WIDTH-1:0]    read_tuser,
    output reg                      release_valid,
    output reg  [POINTER_WIDTH-1:0] release_pointer,

    output wire [DATA_WIDTH-1:0]    m_axis_tdata,
    output wire [KEEP_WIDTH-1:0]    m_axis_tkeep,
    output wire                     m_axis_tvalid,
    input  wire                     m_axis_tready,
    output wire                     m_axis_tlast,
    output wire [USER_WIDTH-1:0]    m_axis_tuser,

    // Probabilities in 1/65536 per frame
    input  wire [15:0]              loss_threshold,
    input  wire [7:0]               burst_length,
    input  wire [15:0]              duplicate_threshold,
    input  wire [15:0]              corrupt_threshold,
    input  wire [15:0]              reorder_threshold,
    input  wire [15:0]              reorder_hold_cycles,
    input  wire [31:0]              seed,

    // One-cycle pulses per frame
    output reg                      status_lost,
    output reg                      status_duplicated,
    output reg                      status_corrupted,
    output reg                      status_reordered
);

localparam LANE_WIDTH = $clog2(KEEP_WIDTH);
localparam BIT_INDEX_WIDTH = $clog2(DATA_WIDTH);
localparam BEAT_INDEX_WIDTH = LENGTH_WIDTH;
// Bytes 0..53: Ethernet 14, IPv4 20, UDP 8, BTH 12
localparam [LENGTH_WIDTH-1:0] HEADER_BYTES = 54;

initial begin
    if (KEEP_WIDTH * 8 != DATA_WIDTH || (1 << LANE_WIDTH) != KEEP_WIDTH || KEEP_WIDTH < 2) begin
        $error("Error: DATA_WIDTH must be a power of two of at least 16, KEEP_WIDTH = DATA_WIDTH/8 (instance %m)");
        $finish;
    end
end

function [POINTER_WIDTH-1:0] frame_end(input [POINTER_WIDTH-1:0] address, input [LENGTH_WIDTH-1:0] length);
    reg [LENGTH_WIDTH-1:0] beats;
    begin
        beats = (length + KEEP_WIDTH[LENGTH_WIDTH-1:0] - 1'b1) >> LANE_WIDTH;
        frame_end = address + beats[POINTER_WIDTH-1:0];
    end
endfunction

wire [63:0] random_word;
wire [63:0] position_word;
reg         draw_taken;

fabric_random #(
    .SALT(SALT)
) random_inst (
    .clk(clk),
    .rst(rst),
    .seed(seed),
    .advance(draw_taken),
    .word_a(random_word),
    .word_b(position_word)
);

// The frame being read
reg                        active;
reg [POINTER_WIDTH-1:0]    current_address;
reg [POINTER_WIDTH-1:0]    first_address;
reg [POINTER_WIDTH-1:0]    end_address;
reg [BEAT_INDEX_WIDTH-1:0] beat_index;
reg                        repeat_pending;
reg                        corrupt_pending;
reg [BEAT_INDEX_WIDTH-1:0] corrupt_beat;
reg [BIT_INDEX_WIDTH-1:0]  corrupt_bit;
// Whether the frame's last read frees memory, and up to where
reg                        release_at_end;
reg [POINTER_WIDTH-1:0]    release_at_end_pointer;
// Reordering: the head is held, or has been overtaken and must follow
reg                        holding;
reg [15:0]                 hold_cycles;
reg                        overtaken_pending;
reg [POINTER_WIDTH-1:0]    overtaken_address;
reg [LENGTH_WIDTH-1:0]     overtaken_length;
reg [POINTER_WIDTH-1:0]    overtaken_release;
reg [7:0]                  burst_left;

reg                        output_valid;
reg                        output_flip;
reg [BIT_INDEX_WIDTH-1:0]  output_flip_bit;

wire output_can_advance = m_axis_tready || !output_valid;
wire reading_last = current_address + 1'b1 == end_address;

// Corruption position: byte 54 + floor(r * (length - 54) / 65536), bit from three more draws
wire [LENGTH_WIDTH-1:0]    bytes_past_headers = head_length - HEADER_BYTES;
wire [LENGTH_WIDTH+15:0]   corrupt_scaled = {{LENGTH_WIDTH{1'b0}}, position_word[15:0]} * {16'd0, bytes_past_headers};
wire [LENGTH_WIDTH-1:0]    corrupt_byte = HEADER_BYTES + corrupt_scaled[LENGTH_WIDTH+15:16];

// What to do with the head frame this cycle (when the reader is free)
reg                     start_frame;
reg [POINTER_WIDTH-1:0] start_address;
reg [LENGTH_WIDTH-1:0]  start_length;
reg                     start_repeat;
reg                     start_corrupt;
reg                     start_release;
reg [POINTER_WIDTH-1:0] start_release_pointer;
reg                     lose_head;
reg                     hold_head;
reg                     overtake_head;

wire reader_free = !active && output_can_advance;
wire lose_draw = burst_left != 8'd0 || random_word[15:0] < loss_threshold;
wire reorder_draw = random_word[31:16] < reorder_threshold;
wire corrupt_draw = random_word[47:32] < corrupt_threshold && head_length > HEADER_BYTES;
wire duplicate_draw = random_word[63:48] < duplicate_threshold;

always @* begin
    start_frame = 1'b0;
    start_address = head_address;
    start_length = head_length;
    start_repeat = 1'b0;
    start_corrupt = 1'b0;
    start_release = 1'b1;
    start_release_pointer = frame_end(head_address, head_length);
    lose_head = 1'b0;
    hold_head = 1'b0;
    overtake_head = 1'b0;
    pop_head = 1'b0;
    pop_head_and_next = 1'b0;
    draw_taken = 1'b0;
    if (reader_free) begin
        if (overtaken_pending) begin
            start_frame = 1'b1;
            start_address = overtaken_address;
            start_length = overtaken_length;
            start_release_pointer = overtaken_release;
        end else if (holding) begin
            if (next_valid) begin
                // The frame behind goes first; the head follows it, and both are freed after
                start_frame = 1'b1;
                start_address = next_address;
                start_length = next_length;
                start_release = 1'b0;
                overtake_head = 1'b1;
                pop_head_and_next = 1'b1;
            end else if (hold_cycles >= reorder_hold_cycles) begin
                start_frame = 1'b1;
                pop_head = 1'b1;
            end
        end else if (head_valid) begin
            draw_taken = 1'b1;
            if (lose_draw) begin
                lose_head = 1'b1;
                pop_head = 1'b1;
            end else if (reorder_draw) begin
                hold_head = 1'b1;
            end else begin
                start_frame = 1'b1;
                start_corrupt = corrupt_draw;
                start_repeat = !corrupt_draw && duplicate_draw;
                pop_head = 1'b1;
            end
        end
    end
end

wire                     reading = output_can_advance && (active || start_frame);
wire [POINTER_WIDTH-1:0] address_now = active ? current_address : start_address;
wire [BEAT_INDEX_WIDTH-1:0] beat_now = active ? beat_index : {BEAT_INDEX_WIDTH{1'b0}};
wire                     corrupt_now = active ? corrupt_pending : start_corrupt;
wire [BEAT_INDEX_WIDTH-1:0] corrupt_beat_now = active ? corrupt_beat : corrupt_byte >> LANE_WIDTH;
wire [POINTER_WIDTH-1:0] end_now = active ? end_address : frame_end(start_address, start_length);

assign read_enable = reading;
assign read_address = address_now;

assign m_axis_tdata = output_flip ? read_tdata ^ ({{(DATA_WIDTH-1){1'b0}}, 1'b1} << output_flip_bit) : read_tdata;
assign m_axis_tkeep = read_tkeep;
assign m_axis_tlast = read_tlast;
assign m_axis_tuser = read_tuser;
assign m_axis_tvalid = output_valid;

always @(posedge clk) begin
    status_lost <= lose_head;
    status_reordered <= overtake_head;
    status_duplicated <= 1'b0;
    status_corrupted <= 1'b0;
    release_valid <= 1'b0;

    if (output_can_advance) begin
        output_valid <= reading;
        output_flip <= reading && corrupt_now && beat_now == corrupt_beat_now;
        output_flip_bit <= active ? corrupt_bit
                         : {corrupt_byte[LANE_WIDTH-1:0], position_word[18:16]};
    end

    if (start_frame && output_can_advance) begin
        active <= 1'b1;
        first_address <= start_address;
        end_address <= frame_end(start_address, start_length);
        current_address <= start_address + 1'b1;
        beat_index <= {{(BEAT_INDEX_WIDTH-1){1'b0}}, 1'b1};
        repeat_pending <= start_repeat;
        corrupt_pending <= start_corrupt;
        corrupt_beat <= corrupt_byte >> LANE_WIDTH;
        corrupt_bit <= {corrupt_byte[LANE_WIDTH-1:0], position_word[18:16]};
        release_at_end <= start_release;
        release_at_end_pointer <= start_release_pointer;
        status_corrupted <= start_corrupt;
        status_duplicated <= start_repeat;
        if (start_address + 1'b1 == end_now) begin
            // A one-beat frame is read whole in this cycle
            active <= start_repeat;
            current_address <= start_address;
            beat_index <= {BEAT_INDEX_WIDTH{1'b0}};
            repeat_pending <= 1'b0;
            release_valid <= start_release && !start_repeat;
            release_pointer <= start_release_pointer;
        end
    end else if (active && output_can_advance) begin
        current_address <= current_address + 1'b1;
        beat_index <= beat_index + 1'b1;
        if (reading_last) begin
            if (repeat_pending) begin
                current_address <= first_address;
                beat_index <= {BEAT_INDEX_WIDTH{1'b0}};
                repeat_pending <= 1'b0;
            end else begin
                active <= 1'b0;
                release_valid <= release_at_end;
                release_pointer <= release_at_end_pointer;
            end
        end
    end

    if (lose_head) begin
        release_valid <= 1'b1;
        release_pointer <= frame_end(head_address, head_length);
        burst_left <= burst_left != 8'd0 ? burst_left - 1'b1
                    : (burst_length > 8'd1 ? burst_length - 1'b1 : 8'd0);
    end
    if (hold_head) begin
        holding <= 1'b1;
        hold_cycles <= 16'd0;
    end else if (holding && reader_free) begin
        hold_cycles <= hold_cycles == 16'hFFFF ? hold_cycles : hold_cycles + 1'b1;
        if (start_frame) begin
            holding <= 1'b0;
        end
    end
    if (overtake_head) begin
        overtaken_pending <= 1'b1;
        overtaken_address <= head_address;
        overtaken_length <= head_length;
        overtaken_release <= frame_end(next_address, next_length);
    end else if (overtaken_pending && start_frame && output_can_advance) begin
        overtaken_pending <= 1'b0;
    end

    if (rst) begin
        active <= 1'b0;
        holding <= 1'b0;
        hold_cycles <= 16'd0;
        overtaken_pending <= 1'b0;
        burst_left <= 8'd0;
        output_valid <= 1'b0;
        output_flip <= 1'b0;
        repeat_pending <= 1'b0;
        corrupt_pending <= 1'b0;
        release_at_end <= 1'b0;
        release_valid <= 1'b0;
        release_pointer <= {POINTER_WIDTH{1'b0}};
        status_lost <= 1'b0;
        status_duplicated <= 1'b0;
        status_corrupted <= 1'b0;
        status_reordered <= 1'b0;
    end
end

endmodule

`resetall
