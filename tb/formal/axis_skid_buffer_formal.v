// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Formal harness of axis_skid_buffer: handshake rules on its output, occupancy read off its
// ports, and every accepted beat delivered once, in order, with all its sidebands
`default_nettype none

module axis_skid_buffer_formal (
    input wire       clk,
    input wire       rst,
    input wire [7:0] s_axis_tdata,
    input wire       s_axis_tkeep,
    input wire       s_axis_tvalid,
    input wire       s_axis_tlast,
    input wire       s_axis_tuser,
    input wire       s_axis_tid,
    input wire       m_axis_tready
);

// Bounded only (BOUNDED_CHECKS, formal_harness.vh): the payload check, because the caught beat's
// payload is hidden inside and induction may start from a wrong one that no reset reaches

wire       s_axis_tready;
wire [7:0] m_axis_tdata;
wire       m_axis_tkeep;
wire       m_axis_tvalid;
wire       m_axis_tlast;
wire       m_axis_tuser;
wire       m_axis_tid;

axis_skid_buffer #(.DATA_WIDTH(8), .USER_WIDTH(1), .ID_WIDTH(1)) dut (
    .clk(clk), .rst(rst),
    .s_axis_tdata(s_axis_tdata), .s_axis_tkeep(s_axis_tkeep), .s_axis_tvalid(s_axis_tvalid),
    .s_axis_tready(s_axis_tready), .s_axis_tlast(s_axis_tlast), .s_axis_tuser(s_axis_tuser),
    .s_axis_tid(s_axis_tid),
    .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep), .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tready(m_axis_tready), .m_axis_tlast(m_axis_tlast), .m_axis_tuser(m_axis_tuser),
    .m_axis_tid(m_axis_tid)
);

`include "formal_harness.vh"

wire [11:0] input_beat = {s_axis_tid, s_axis_tuser, s_axis_tlast, s_axis_tkeep, s_axis_tdata};
wire [11:0] output_beat = {m_axis_tid, m_axis_tuser, m_axis_tlast, m_axis_tkeep, m_axis_tdata};
wire [7:0]  in_flight;
wire [7:0]  delivered;

axis_stream_checks #(.PAYLOAD_WIDTH(12), .CHECK_PAYLOAD(BOUNDED_CHECKS)) stream_checks (
    .clk(clk), .rst(rst),
    .in_valid(s_axis_tvalid), .in_ready(s_axis_tready), .in_payload(input_beat),
    .out_valid(m_axis_tvalid), .out_ready(m_axis_tready), .out_payload(output_beat),
    .in_flight(in_flight), .delivered(delivered));

always @(*) begin
    if (past_valid && !rst) begin
        // Two registers hold at most two beats: one on offer, one caught while the sink stalled
        assert(in_flight <= 8'd2);
        assert(in_flight == {7'd0, m_axis_tvalid} + {7'd0, !s_axis_tready});
    end
end

// The interesting states must be reachable, or the assertions above prove nothing
always @(*) begin
    if (past_valid && !rst) begin
        cover(in_flight == 8'd2);
        cover(delivered == 8'd5);
    end
end

endmodule
