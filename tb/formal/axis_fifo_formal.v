// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Formal harness of axis_fifo (beat mode, depth 4): handshake rules on its output, occupancy
// against tready, no bubble while beats wait, every beat delivered once and in order, and a
// good-frame pulse for every last beat taken
`default_nettype none

module axis_fifo_formal (
    input wire       clk,
    input wire       rst,
    input wire [7:0] s_axis_tdata,
    input wire       s_axis_tkeep,
    input wire       s_axis_tvalid,
    input wire       s_axis_tlast,
    input wire       s_axis_tuser,
    input wire       m_axis_tready
);

// Bounded only (BOUNDED_CHECKS, formal_harness.vh): occupancy, payloads and frame pulses, which
// live in hidden pointers and storage
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

axis_fifo #(.DEPTH(DEPTH), .DATA_WIDTH(8), .USER_WIDTH(1)) dut (
    .clk(clk), .rst(rst),
    .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep), .s_axis_tvalid(s_axis_tvalid),
    .s_axis_tready(s_axis_tready), .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
    .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep), .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tready(m_axis_tready), .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser),
    .status_good_frame(status_good_frame), .status_bad_frame(status_bad_frame),
    .status_oversize_frame(status_oversize_frame)
);

`include "formal_harness.vh"

wire [10:0] input_beat = {s_axis_tuser, s_axis_tlast, s_axis_tkeep, s_axis_tdata};
wire [10:0] output_beat = {m_axis_tuser, m_axis_tlast, m_axis_tkeep, m_axis_tdata};
wire [7:0]  in_flight;
wire [7:0]  delivered;

axis_stream_checks #(.PAYLOAD_WIDTH(11), .CHECK_PAYLOAD(BOUNDED_CHECKS)) stream_checks (
    .clk(clk), .rst(rst),
    .in_valid(s_axis_tvalid), .in_ready(s_axis_tready), .in_payload(input_beat),
    .out_valid(m_axis_tvalid), .out_ready(m_axis_tready), .out_payload(output_beat),
    .in_flight(in_flight), .delivered(delivered));

// Beats in storage: those inside less the one on offer
wire [7:0] stored = in_flight - {7'd0, m_axis_tvalid};
reg        last_taken = 1'b0;
reg        beat_waiting_to_advance = 1'b0;
always @(posedge clk) begin
    last_taken <= s_axis_tvalid && s_axis_tready && s_axis_tlast && !rst;
    beat_waiting_to_advance <= stored != 8'd0 && (m_axis_tready || !m_axis_tvalid) && !rst && BOUNDED_CHECKS;
end

always @(*) begin
    if (past_valid && !rst) begin
        if (BOUNDED_CHECKS) begin
            // The good-frame pulse follows every last beat taken, and only those (beat mode)
            assert(status_good_frame == last_taken);
            assert(!status_bad_frame && !status_oversize_frame);
            assert(in_flight <= DEPTH + 1);
            // tready drops exactly when the storage is full
            assert(s_axis_tready == (stored < DEPTH));
            // A stored beat moves to the output as soon as the output can take it
            if (beat_waiting_to_advance) assert(m_axis_tvalid);
        end
    end
end

always @(*) begin
    if (past_valid && !rst) begin
        cover(in_flight == DEPTH + 1);
        cover(delivered == 8'd9 && in_flight == 8'd0);
    end
end

endmodule
