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

reg past_valid = 1'b0;
always @(posedge clk) past_valid <= 1'b1;
always @(*) if (!past_valid) assume(rst);

axis_handshake_rules #(.PAYLOAD_WIDTH(12), .ENVIRONMENT(1)) input_rules (
    .clk(clk), .rst(rst), .valid(s_axis_tvalid), .ready(s_axis_tready),
    .payload({s_axis_tid, s_axis_tuser, s_axis_tlast, s_axis_tkeep, s_axis_tdata}));
axis_handshake_rules #(.PAYLOAD_WIDTH(12), .ENVIRONMENT(0)) output_rules (
    .clk(clk), .rst(rst), .valid(m_axis_tvalid), .ready(m_axis_tready),
    .payload({m_axis_tid, m_axis_tuser, m_axis_tlast, m_axis_tkeep, m_axis_tdata}));

// Beats are numbered as they are accepted and as they are delivered; the source sends its beat
// number in tdata and a function of it in the sidebands, so a lost, repeated, reordered or
// mixed-up beat shows as a number out of turn.
reg [7:0] accepted = 8'd0;
reg [7:0] delivered = 8'd0;
wire [7:0] in_flight = accepted - delivered;

function [11:0] beat_numbered(input [7:0] number);
    beat_numbered = {number[0] ^ number[3], number[1], number[2] ^ number[7], ~number[0], number};
endfunction

always @(posedge clk) begin
    if (s_axis_tvalid && s_axis_tready) accepted <= accepted + 8'd1;
    if (m_axis_tvalid && m_axis_tready) delivered <= delivered + 8'd1;
    if (rst) begin
        accepted <= 8'd0;
        delivered <= 8'd0;
    end
end

always @(*) begin
    if (s_axis_tvalid)
        assume({s_axis_tid, s_axis_tuser, s_axis_tlast, s_axis_tkeep, s_axis_tdata} == beat_numbered(accepted));
    if (past_valid && !rst) begin
        // Two registers hold at most two beats: one on offer, one caught while the sink stalled
        assert(in_flight <= 8'd2);
        assert(in_flight == {7'd0, m_axis_tvalid} + {7'd0, !s_axis_tready});
`ifndef FORMAL_INDUCTION
        // Bounded only: the caught beat is hidden inside, so induction cannot see it is right
        if (m_axis_tvalid)
            assert({m_axis_tid, m_axis_tuser, m_axis_tlast, m_axis_tkeep, m_axis_tdata} == beat_numbered(delivered));
`endif
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
