// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// DCQCN notification point: a CNP to a QP's peer for the CE-marked frames that QP receives, at most one per QP per interval
`resetall
`timescale 1ns / 1ps
`default_nettype none

// docs/reference/roce.md (Congestion control): a frame for one of the node's QPs arriving with
// ECN CE (IPv4 TOS bits 1:0 = 11) makes the node send a CNP to that QP's peer (DestQP the peer's
// QP), unless one went to the same QP less than `min_interval_cycles` ago; a CNP is never
// answered, marked or not. The engine's receive path shows every frame it accepted (after the
// parser's checks and the address and P_Key filter) on the s_hdr_* inputs, one cycle each.
//
// Each QP's path (its peer's QP, MAC, IPv4 address and the UDP source port) is copied here when
// the host commits the QP, beside the cycle of its last CNP, in a context RAM of its own
// (roce_qp_context; the requester and responder keep theirs for their own FSMs). A lookup reads
// it the cycle after the frame, and decides the cycle after that; the entry a lookup of the
// previous cycle updated is taken from that decision, not from the RAM, which does not yet show
// it. CNPs wait in a short queue for the frame builder; while it is full a marked frame sends
// nothing and leaves its QP's time unchanged, so the QP's next marked frame asks again.
module roce_cnp_notifier #(
    // Queue pairs (a power of two): the engine's QP_COUNT
    parameter QP_COUNT = 256,
    // CNPs that may wait for the frame builder (a power of two)
    parameter QUEUE_DEPTH = 8
) (
    input  wire                        clk,
    input  wire                        rst,

    // CONGESTION.notify: off, marked frames are counted and never answered
    input  wire                        enable,
    // CNP_INTERVAL: the least time between two CNPs to one QP, in cycles (0: one per marked frame)
    input  wire [31:0]                 min_interval_cycles,
    // Low until the context RAM is cleared after reset
    output wire                        ready,

    // The host commits a QP (the engine's set-up registers)
    input  wire                        cfg_qp_write,
    input  wire [$clog2(QP_COUNT)-1:0] cfg_qp_index,
    input  wire                        cfg_qp_valid,
    input  wire [23:0]                 cfg_qp_remote_qpn,
    input  wire [47:0]                 cfg_qp_remote_mac,
    input  wire [31:0]                 cfg_qp_remote_ip,
    input  wire [15:0]                 cfg_qp_udp_source_port,

    // A frame the engine accepted, in the cycle it is taken
    input  wire                        s_hdr_taken,
    input  wire [1:0]                  s_hdr_ecn,
    input  wire                        s_hdr_is_cnp,
    input  wire [23:0]                 s_hdr_bth_dest_qp,

    // A CNP to send: the addressing of the QP's peer and the peer's QP
    output wire                        m_cnp_valid,
    input  wire                        m_cnp_ready,
    output wire [47:0]                 m_cnp_eth_dest_mac,
    output wire [31:0]                 m_cnp_ip_dest,
    output wire [15:0]                 m_cnp_udp_source_port,
    output wire [23:0]                 m_cnp_bth_dest_qp,

    // A marked frame (not a CNP) was accepted, whatever follows
    output wire                        event_ce_marked,
    // A CNP was queued
    output wire                        event_cnp_queued
);

localparam INDEX_WIDTH = $clog2(QP_COUNT);
// {valid, the peer's QP, MAC, IPv4 address, the UDP source port}
localparam PATH_WIDTH = 1 + 24 + 48 + 32 + 16;
// Cycles counted since reset: 48 bits wrap after 13 days at 250 MHz, so an interval is always
// measured from the QP's true last CNP
localparam TIME_WIDTH = 48;
// {a CNP has been sent, the cycle it was queued}
localparam STATE_WIDTH = 1 + TIME_WIDTH;
localparam [1:0] ECN_CE = 2'b11;

initial begin
    if (QP_COUNT < 2 || (QP_COUNT & (QP_COUNT - 1)) != 0 || QUEUE_DEPTH < 2 || (QUEUE_DEPTH & (QUEUE_DEPTH - 1)) != 0) begin
        $error("Error: QP_COUNT and QUEUE_DEPTH must be powers of two, 2 or more (instance %m)");
        $finish;
    end
end

reg [TIME_WIDTH-1:0] now;
always @(posedge clk) begin
    now <= rst ? {TIME_WIDTH{1'b0}} : now + 1'b1;
end

// ---- The cycle a marked frame is taken: read its QP's entry ----

wire marked = s_hdr_taken && s_hdr_ecn == ECN_CE && !s_hdr_is_cnp;
// A QP number past the RAM's entries is no QP of this engine's
wire qpn_in_range = s_hdr_bth_dest_qp < QP_COUNT;
wire lookup = marked && enable && qpn_in_range;

reg                   looking_up;
reg [INDEX_WIDTH-1:0] lookup_index;
reg [TIME_WIDTH-1:0]  lookup_time;
always @(posedge clk) begin
    looking_up <= lookup && !rst;
    lookup_index <= s_hdr_bth_dest_qp[INDEX_WIDTH-1:0];
    lookup_time <= now;
end

// ---- The cycle after: decide, and write the QP's time back if a CNP is queued ----

wire [PATH_WIDTH-1:0]  path;
wire [STATE_WIDTH-1:0] stored_state;
reg                    wrote_last_cycle;
reg [INDEX_WIDTH-1:0]  written_index;
reg [TIME_WIDTH-1:0]   written_time;

wire                  forwarded = wrote_last_cycle && written_index == lookup_index;
wire                  sent_before = forwarded || stored_state[STATE_WIDTH-1];
wire [TIME_WIDTH-1:0] last_cnp_time = forwarded ? written_time : stored_state[TIME_WIDTH-1:0];
wire [TIME_WIDTH-1:0] since_last_cnp = lookup_time - last_cnp_time;
wire                  interval_over = !sent_before || since_last_cnp >= {{(TIME_WIDTH-32){1'b0}}, min_interval_cycles};
wire                  path_valid;
wire [23:0]           path_remote_qpn;
wire [47:0]           path_remote_mac;
wire [31:0]           path_remote_ip;
wire [15:0]           path_udp_source_port;
assign {path_valid, path_remote_qpn, path_remote_mac, path_remote_ip, path_udp_source_port} = path;

wire queue_ready;
wire queue_cnp = looking_up && path_valid && interval_over && queue_ready;

always @(posedge clk) begin
    wrote_last_cycle <= queue_cnp && !rst;
    written_index <= lookup_index;
    written_time <= lookup_time;
end

roce_qp_context #(
    .QP_COUNT(QP_COUNT),
    .CONFIG_WIDTH(PATH_WIDTH),
    .STATE_WIDTH(STATE_WIDTH)
) context_inst (
    .clk(clk), .rst(rst),
    .ready(ready),
    .config_write(cfg_qp_write), .config_index(cfg_qp_index),
    .config_data({cfg_qp_valid, cfg_qp_remote_qpn, cfg_qp_remote_mac, cfg_qp_remote_ip, cfg_qp_udp_source_port}),
    // A QP set up again starts with no CNP sent
    .config_initial_state({STATE_WIDTH{1'b0}}),
    .state_write(queue_cnp), .state_write_index(lookup_index), .state_write_data({1'b1, lookup_time}),
    .read(lookup), .read_index(s_hdr_bth_dest_qp[INDEX_WIDTH-1:0]),
    .config_read_data(path), .state_read_data(stored_state)
);

// ---- Waiting for the frame builder ----

localparam CNP_WIDTH = 48 + 32 + 16 + 24;

axis_fifo #(
    .DEPTH(QUEUE_DEPTH),
    .DATA_WIDTH(CNP_WIDTH),
    .USER_WIDTH(1)
) queue_inst (
    .clk(clk), .rst(rst),
    .s_axis_tdata({path_remote_mac, path_remote_ip, path_udp_source_port, path_remote_qpn}),
    .s_axis_tkeep({CNP_WIDTH/8{1'b1}}), .s_axis_tvalid(looking_up && path_valid && interval_over), .s_axis_tready(queue_ready),
    .s_axis_tlast(1'b1), .s_axis_tuser(1'b0),
    .m_axis_tdata({m_cnp_eth_dest_mac, m_cnp_ip_dest, m_cnp_udp_source_port, m_cnp_bth_dest_qp}),
    .m_axis_tkeep(), .m_axis_tvalid(m_cnp_valid), .m_axis_tready(m_cnp_ready), .m_axis_tlast(), .m_axis_tuser(),
    .status_good_frame(), .status_bad_frame(), .status_oversize_frame()
);

assign event_ce_marked = marked;
assign event_cnp_queued = queue_cnp;

endmodule

`resetall
