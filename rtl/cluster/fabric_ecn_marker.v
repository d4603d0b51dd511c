// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// RED/ECN marker: sets CE in ECN-capable IPv4 frames as the queue grows, checksum fixed in passing
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The decision is taken at a frame's first beat from the queue depth of that cycle: below Kmin
// never, at or above Kmax always, between them with probability Pmax * (depth - Kmin) /
// (Kmax - Kmin) (tested without a divider as r * (Kmax - Kmin) < Pmax * (depth - Kmin), with r a
// 16-bit random draw and Pmax in 1/65536). Only IPv4 frames (EtherType 0x0800 at bytes 12-13,
// version 4 at byte 14) whose ECN field (byte 15, bits 1:0) is ECT(0) or ECT(1) are marked: the
// field becomes CE (11) and the header checksum at bytes 24-25 is updated incrementally
// (RFC 1624: HC' = ~(~HC + ~m + m'), m the 16-bit word of bytes 14-15). RoCE's ICRC masks the
// TOS byte, so it stays valid. Byte n of the frame is lane n % KEEP_WIDTH of beat n / KEEP_WIDTH.
// The stream passes straight through (no register); only the bytes named change.
module fabric_ecn_marker #(
    // Width of tdata in bits (64 or more, a power of two)
    parameter DATA_WIDTH = 64,
    // Width of tkeep in bits: one enable per byte of tdata
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // Width of tuser in bits
    parameter USER_WIDTH = 1,
    // Width of the queue depth and thresholds in bytes
    parameter DEPTH_WIDTH = 24,
    // Mixed into the seed so that ports draw different sequences
    parameter [31:0] SALT = 32'h0
) (
    input  wire                   clk,
    input  wire                   rst,

    input  wire [DATA_WIDTH-1:0]  s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0]  s_axis_tkeep,
    input  wire                   s_axis_tvalid,
    output wire                   s_axis_tready,
    input  wire                   s_axis_tlast,
    input  wire [USER_WIDTH-1:0]  s_axis_tuser,

    output reg  [DATA_WIDTH-1:0]  m_axis_tdata,
    output wire [KEEP_WIDTH-1:0]  m_axis_tkeep,
    output wire                   m_axis_tvalid,
    input  wire                   m_axis_tready,
    output wire                   m_axis_tlast,
    output wire [USER_WIDTH-1:0]  m_axis_tuser,
    // High with a frame's last beat when that frame was marked
    output wire                   m_frame_marked,

    input  wire [DEPTH_WIDTH-1:0] queue_depth_bytes,
    input  wire                   ecn_enable,
    input  wire [DEPTH_WIDTH-1:0] ecn_kmin_bytes,
    input  wire [DEPTH_WIDTH-1:0] ecn_kmax_bytes,
    // Marking probability at Kmax, in 1/65536
    input  wire [15:0]            ecn_pmax,
    input  wire [31:0]            seed
);

localparam BEAT_INDEX_WIDTH = 8;
localparam LANE_WIDTH = $clog2(KEEP_WIDTH);
localparam integer TOS_BEAT_NUMBER = 15 / KEEP_WIDTH;
localparam integer CHECKSUM_BEAT_NUMBER = 24 / KEEP_WIDTH;
localparam [BEAT_INDEX_WIDTH-1:0] TOS_BEAT = TOS_BEAT_NUMBER[BEAT_INDEX_WIDTH-1:0];
localparam [BEAT_INDEX_WIDTH-1:0] CHECKSUM_BEAT = CHECKSUM_BEAT_NUMBER[BEAT_INDEX_WIDTH-1:0];
localparam ETHERTYPE_LANE = 12 % KEEP_WIDTH;
localparam CHECKSUM_LANE = 24 % KEEP_WIDTH;

initial begin
    if (DATA_WIDTH < 64 || KEEP_WIDTH * 8 != DATA_WIDTH || (1 << LANE_WIDTH) != KEEP_WIDTH) begin
        $error("Error: DATA_WIDTH must be a power of two of at least 64, KEEP_WIDTH = DATA_WIDTH/8 (instance %m)");
        $finish;
    end
end

reg                        mid_frame;
reg [BEAT_INDEX_WIDTH-1:0] beat_index;
reg                        frame_selected;
reg                        frame_marking;
reg [15:0]                 old_tos_word;
reg                        checksum_passed;

wire [63:0] random_word;
wire [63:0] unused_random_word;
wire        first_beat_taken = s_axis_tvalid && s_axis_tready && !mid_frame;

fabric_random #(
    .SALT(SALT)
) random_inst (
    .clk(clk),
    .rst(rst),
    .seed(seed),
    .advance(first_beat_taken),
    .word_a(random_word),
    .word_b(unused_random_word)
);

wire [DEPTH_WIDTH-1:0] depth_over_kmin = queue_depth_bytes - ecn_kmin_bytes;
wire [DEPTH_WIDTH-1:0] ramp_span = ecn_kmax_bytes - ecn_kmin_bytes;
wire [DEPTH_WIDTH+15:0] random_scaled = {{DEPTH_WIDTH{1'b0}}, random_word[15:0]} * {16'd0, ramp_span};
wire [DEPTH_WIDTH+15:0] threshold_scaled = {{DEPTH_WIDTH{1'b0}}, ecn_pmax} * {16'd0, depth_over_kmin};
wire select_now = ecn_enable && queue_depth_bytes >= ecn_kmin_bytes
                  && (queue_depth_bytes >= ecn_kmax_bytes || random_scaled < threshold_scaled);
wire selected = mid_frame ? frame_selected : select_now;

// Bytes 12-15 share one beat (lanes 12..15 of a 16-lane group), as do bytes 24-25.
wire [7:0] ethertype_high = s_axis_tdata[ETHERTYPE_LANE*8 +: 8];
wire [7:0] ethertype_low = s_axis_tdata[(ETHERTYPE_LANE+1)*8 +: 8];
wire [7:0] version_byte = s_axis_tdata[(ETHERTYPE_LANE+2)*8 +: 8];
wire [7:0] tos_byte = s_axis_tdata[(ETHERTYPE_LANE+3)*8 +: 8];
wire at_tos_beat = beat_index == TOS_BEAT;
wire at_checksum_beat = beat_index == CHECKSUM_BEAT;
wire ect = tos_byte[1:0] == 2'b01 || tos_byte[1:0] == 2'b10;
wire mark_here = selected && ethertype_high == 8'h08 && ethertype_low == 8'h00 && version_byte[7:4] == 4'd4 && ect;
wire marking = at_tos_beat ? mark_here : frame_marking;
wire [15:0] tos_word = at_tos_beat ? {version_byte, tos_byte} : old_tos_word;

wire [15:0] old_checksum = {s_axis_tdata[CHECKSUM_LANE*8 +: 8], s_axis_tdata[(CHECKSUM_LANE+1)*8 +: 8]};
wire [17:0] checksum_sum = {2'b00, ~old_checksum} + {2'b00, ~tos_word} + {2'b00, tos_word | 16'h0003};
wire [16:0] checksum_folded = {1'b0, checksum_sum[15:0]} + {15'd0, checksum_sum[17:16]};
wire [15:0] checksum_sum_final = checksum_folded[15:0] + {15'd0, checksum_folded[16]};
wire [15:0] new_checksum = ~checksum_sum_final;

assign m_axis_tkeep = s_axis_tkeep;
assign m_axis_tvalid = s_axis_tvalid;
assign s_axis_tready = m_axis_tready;
assign m_axis_tlast = s_axis_tlast;
assign m_axis_tuser = s_axis_tuser;
// A frame ending before its checksum bytes is not marked (no IPv4 frame is that short).
assign m_frame_marked = marking && (at_checksum_beat || checksum_passed);

always @* begin
    m_axis_tdata = s_axis_tdata;
    if (at_tos_beat && mark_here) begin
        m_axis_tdata[(ETHERTYPE_LANE+3)*8 +: 2] = 2'b11;
    end
    if (at_checksum_beat && marking) begin
        m_axis_tdata[CHECKSUM_LANE*8 +: 16] = {new_checksum[7:0], new_checksum[15:8]};
    end
end

always @(posedge clk) begin
    if (s_axis_tvalid && s_axis_tready) begin
        mid_frame <= !s_axis_tlast;
        beat_index <= s_axis_tlast ? {BEAT_INDEX_WIDTH{1'b0}}
                    : (beat_index == {BEAT_INDEX_WIDTH{1'b1}} ? beat_index : beat_index + 1'b1);
        frame_selected <= selected;
        frame_marking <= marking;
        checksum_passed <= !s_axis_tlast && (checksum_passed || at_checksum_beat);
        if (at_tos_beat) begin
            old_tos_word <= tos_word;
        end
    end
    if (rst) begin
        mid_frame <= 1'b0;
        beat_index <= {BEAT_INDEX_WIDTH{1'b0}};
        frame_selected <= 1'b0;
        frame_marking <= 1'b0;
        old_tos_word <= 16'd0;
        checksum_passed <= 1'b0;
    end
end

endmodule

`resetall
