// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Traffic checker: compares every beat of a returning self-test stream with the pattern, never stalls it
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The checker takes a beat every cycle (tready is always 1), so it measures the path in front of
// it, not itself. A frame's number comes from its first word: a gap or a repeat counts as a
// sequence error and the checker follows the frame it got, so one lost frame costs one error,
// not every frame after it.
module traffic_checker #(
    // Width of the stream's tdata in bits (a multiple of 32)
    parameter DATA_WIDTH = 64
) (
    input  wire                    clk,
    input  wire                    rst,

    // Zeroes the counters and expects frame 0 next
    input  wire                    start,
    input  wire [15:0]             frame_beats,
    input  wire [31:0]             seed,

    input  wire [DATA_WIDTH-1:0]   s_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0] s_axis_tkeep,
    input  wire                    s_axis_tvalid,
    output wire                    s_axis_tready,
    input  wire                    s_axis_tlast,

    // One cycle with every frame's last beat
    output wire                    frame_done,
    output reg  [31:0]             frames_received,
    output reg  [31:0]             frames_bad,
    output reg  [31:0]             sequence_errors,
    output reg  [31:0]             beats_received,
    output reg  [31:0]             bad_beats
);

reg [31:0] expected_frame;
reg [31:0] frame_number;
reg [15:0] beat_index;
reg [31:0] pattern_state;
reg        frame_has_error;

wire                  first_beat = beat_index == 16'd0;
wire [31:0]           received_number = first_beat ? s_axis_tdata[31:0] : frame_number;
wire [DATA_WIDTH-1:0] expected_data;
wire [31:0]           pattern_next_state;

traffic_pattern #(
    .DATA_WIDTH(DATA_WIDTH)
) pattern_inst (
    .state(pattern_state),
    .first_beat(first_beat),
    .frame_number(received_number),
    .seed(seed),
    .beat_data(expected_data),
    .next_state(pattern_next_state)
);

wire beat_good = s_axis_tdata == expected_data
              && s_axis_tkeep == {DATA_WIDTH/8{1'b1}}
              && s_axis_tlast == (beat_index == frame_beats - 16'd1);

assign s_axis_tready = 1'b1;
assign frame_done = s_axis_tvalid && s_axis_tlast;

always @(posedge clk) begin
    if (s_axis_tvalid) begin
        beats_received <= beats_received + 32'd1;
        pattern_state <= pattern_next_state;
        beat_index <= beat_index + 16'd1;
        if (!beat_good) begin
            bad_beats <= bad_beats + 32'd1;
            frame_has_error <= 1'b1;
        end
        if (first_beat) begin
            frame_number <= received_number;
            if (received_number != expected_frame) begin
                sequence_errors <= sequence_errors + 32'd1;
            end
        end
        if (s_axis_tlast) begin
            beat_index <= 16'd0;
            frame_has_error <= 1'b0;
            expected_frame <= received_number + 32'd1;
            frames_received <= frames_received + 32'd1;
            if (frame_has_error || !beat_good) begin
                frames_bad <= frames_bad + 32'd1;
            end
        end
    end
    if (start || rst) begin
        expected_frame <= 32'd0;
        frame_number <= 32'd0;
        beat_index <= 16'd0;
        pattern_state <= 32'd0;
        frame_has_error <= 1'b0;
        frames_received <= 32'd0;
        frames_bad <= 32'd0;
        sequence_errors <= 32'd0;
        beats_received <= 32'd0;
        bad_beats <= 32'd0;
    end
end

endmodule

`resetall
