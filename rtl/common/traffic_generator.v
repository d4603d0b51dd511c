// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Traffic generator: numbered frames of the self-test pattern, one beat per cycle when the sink allows
`resetall
`timescale 1ns / 1ps
`default_nettype none

module traffic_generator #(
    // Width of the stream's tdata in bits (a multiple of 32)
    parameter DATA_WIDTH = 64
) (
    input  wire                    clk,
    input  wire                    rst,

    // Zeroes frames_sent and begins sending frame 0 (the run's settings must hold until done)
    input  wire                    start,
    // Ends the run after the frame being sent
    input  wire                    stop,
    // Flips the top data bit of the next beat sent
    input  wire                    inject_error,
    input  wire [31:0]             frame_count,
    input  wire [15:0]             frame_beats,
    input  wire [31:0]             seed,
    input  wire [7:0]              gap_cycles,

    output wire [DATA_WIDTH-1:0]   m_axis_tdata,
    output wire [DATA_WIDTH/8-1:0] m_axis_tkeep,
    output wire                    m_axis_tvalid,
    input  wire                    m_axis_tready,
    output wire                    m_axis_tlast,

    output reg                     sending,
    output reg  [31:0]             frames_sent
);

reg [31:0] frame_number;
reg [15:0] beat_index;
reg [31:0] pattern_state;
reg [7:0]  gap_left;
reg        stop_pending;
reg        inject_pending;

wire [DATA_WIDTH-1:0] pattern_data;
wire [31:0]           pattern_next_state;

traffic_pattern #(
    .DATA_WIDTH(DATA_WIDTH)
) pattern_inst (
    .state(pattern_state),
    .first_beat(beat_index == 16'd0),
    .frame_number(frame_number),
    .seed(seed),
    .beat_data(pattern_data),
    .next_state(pattern_next_state)
);

wire last_beat = beat_index == frame_beats - 16'd1;
wire beat_sent = m_axis_tvalid && m_axis_tready;

assign m_axis_tvalid = sending && gap_left == 8'd0;
assign m_axis_tdata  = pattern_data ^ ({{(DATA_WIDTH-1){1'b0}}, inject_pending} << (DATA_WIDTH - 1));
assign m_axis_tkeep  = {DATA_WIDTH/8{1'b1}};
assign m_axis_tlast  = last_beat;

always @(posedge clk) begin
    if (gap_left != 8'd0) begin
        gap_left <= gap_left - 8'd1;
    end
    if (stop) begin
        stop_pending <= 1'b1;
    end
    if (inject_error) begin
        inject_pending <= 1'b1;
    end
    if (stop && beat_index == 16'd0) begin
        sending <= 1'b0;  // between frames: nothing to finish
    end
    if (beat_sent) begin
        pattern_state <= pattern_next_state;
        inject_pending <= 1'b0;
        beat_index <= beat_index + 16'd1;
        if (last_beat) begin
            beat_index <= 16'd0;
            frame_number <= frame_number + 32'd1;
            frames_sent <= frames_sent + 32'd1;
            gap_left <= gap_cycles;
            if (frame_number + 32'd1 == frame_count || stop || stop_pending) begin
                sending <= 1'b0;
            end
        end
    end
    if (start) begin
        sending <= frame_count != 32'd0 && frame_beats != 16'd0;
        frame_number <= 32'd0;
        beat_index <= 16'd0;
        frames_sent <= 32'd0;
        gap_left <= 8'd0;
        stop_pending <= 1'b0;
    end
    if (rst) begin
        sending <= 1'b0;
        frame_number <= 32'd0;
        beat_index <= 16'd0;
        pattern_state <= 32'd0;
        frames_sent <= 32'd0;
        gap_left <= 8'd0;
        stop_pending <= 1'b0;
        inject_pending <= 1'b0;
    end
end

endmodule

`resetall
