// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Formal harness of axis_fifo in frame mode with bad-frame drop (depth 4): a frame marked bad on
// its last beat, or one longer than the FIFO, never shows a single beat at the output, and a good
// frame comes out whole: as many beats as went in, tlast on its last only
`default_nettype none

module axis_frame_fifo_formal (
    input wire       clk,
    input wire       rst,
    input wire [7:0] s_axis_tdata,
    input wire       s_axis_tvalid,
    input wire       s_axis_tlast,
    input wire       s_axis_tuser,
    input wire       m_axis_tready
);

localparam DEPTH = 4;

wire       s_axis_tready;
wire [7:0] m_axis_tdata;
wire       m_axis_tkeep;
wire       m_axis_tvalid;
wire       m_axis_tlast;
wire       m_axis_tuser;
wire       status_good_frame;
wire       status_bad_frame;
wire       status_oversize_frame;

axis_fifo #(.DEPTH(DEPTH), .DATA_WIDTH(8), .USER_WIDTH(1), .FRAME_FIFO(1), .DROP_BAD_FRAME(1)) dut (
    .clk(clk), .rst(rst),
    .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(1'b1), .s_axis_tvalid(s_axis_tvalid),
    .s_axis_tready(s_axis_tready), .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
    .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep), .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tready(m_axis_tready), .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser),
    .status_good_frame(status_good_frame), .status_bad_frame(status_bad_frame),
    .status_oversize_frame(status_oversize_frame)
);

// Bounded only (BOUNDED_CHECKS, formal_harness.vh): everything about the watched frame, whose
// beats sit in the hidden storage
`include "formal_harness.vh"

axis_handshake_rules #(.PAYLOAD_WIDTH(10), .ENVIRONMENT(1)) input_rules (
    .clk(clk), .rst(rst), .valid(s_axis_tvalid), .ready(s_axis_tready),
    .payload({s_axis_tuser, s_axis_tlast, s_axis_tdata}));
axis_handshake_rules #(.PAYLOAD_WIDTH(10), .ENVIRONMENT(0)) output_rules (
    .clk(clk), .rst(rst), .valid(m_axis_tvalid), .ready(m_axis_tready),
    .payload({m_axis_tuser, m_axis_tlast, m_axis_tdata}));

// Every beat carries the number of its frame; one frame, chosen freely, is watched
(* anyconst *) reg [7:0] watched;
reg [7:0] frames_in = 8'd0;
reg [3:0] watched_beats_in = 4'd0;
reg       watched_ended = 1'b0;
reg       watched_bad = 1'b0;
reg [3:0] watched_beats_out = 4'd0;
wire      beat_in = s_axis_tvalid && s_axis_tready;
wire      beat_out = m_axis_tvalid && m_axis_tready;

always @(*) if (s_axis_tvalid) assume(s_axis_tdata == frames_in);

always @(posedge clk) begin
    if (beat_in) begin
        if (s_axis_tlast) frames_in <= frames_in + 8'd1;
        if (s_axis_tdata == watched) begin
            if (watched_beats_in != 4'd15) watched_beats_in <= watched_beats_in + 4'd1;
            if (s_axis_tlast) begin
                watched_ended <= 1'b1;
                watched_bad <= s_axis_tuser || watched_beats_in + 4'd1 > DEPTH;
            end
        end
    end
    if (beat_out && m_axis_tdata == watched) watched_beats_out <= watched_beats_out + 4'd1;
    if (rst) begin
        frames_in <= 8'd0;
        watched_beats_in <= 4'd0;
        watched_ended <= 1'b0;
        watched_bad <= 1'b0;
        watched_beats_out <= 4'd0;
    end
end

always @(*) begin
    if (BOUNDED_CHECKS && past_valid && !rst && m_axis_tvalid && m_axis_tdata == watched) begin
        // Only a frame that ended, good and no longer than the FIFO, comes out
        assert(watched_ended && !watched_bad);
        assert(watched_beats_out < watched_beats_in);
        assert(m_axis_tlast == (watched_beats_out + 4'd1 == watched_beats_in));
        assert(!(m_axis_tlast && m_axis_tuser));
    end
end

always @(*) begin
    if (past_valid && !rst) begin
        cover(beat_out && m_axis_tlast && m_axis_tdata == watched && watched_beats_in == 4'd3);
        cover(watched_ended && watched_bad && s_axis_tdata == watched + 8'd1 && beat_in);
        cover(status_oversize_frame);
    end
end

endmodule
