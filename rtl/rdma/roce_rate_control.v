// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// DCQCN reaction points for a range of QPs: each QP's rate from the CNPs it receives, and its request packets paced to that rate
`resetall
`timescale 1ns / 1ps
`default_nettype none

// QPs first_qpn to first_qpn + LIMITED_QPS - 1 each have a reaction point (roce_dcqcn_rate: RC, RT, alpha, stage from
// their CNPs and the bytes they send; docs/reference/roce.md, Congestion control). A request
// packet's header passes from the segmenter to the frame builder here; a packet of a limited QP
// that is throttled (its stage not UNTHROTTLED) goes only when the QP's token bucket is not in
// debt. The bucket gains RC each cycle, in units of Mb/s x cycles, and a packet costs its frame
// bytes (headers, payload, pad and ICRC; no FCS, preamble or gap) times BYTE_COST, the same units
// (8e6 / CLOCK_PERIOD_PS: one byte at 1 Mb/s takes that many cycles). It is empty when the QP is
// throttled (its first packet then goes at once, the next waits for the rate), and holds at most
// one largest frame's worth, so a throttled QP that has been idle sends that much at once. A QP that
// is not throttled, every other QP, and all of them while `enable` is low, pass untouched. The
// segmenter cuts one work request at a time, so a held packet holds back the packets behind it,
// of every QP (docs/rdma.md, Known limits).
//
// A limited QP's reaction point starts again at the line rate when the host commits the QP and
// whenever `enable` is low: set the parameters, then enable.
module roce_rate_control #(
    // Queue pairs in the engine (a power of two)
    parameter QP_COUNT = 256,
    // QPs with a reaction point, from first_qpn on (a power of two, at most QP_COUNT; 0: none)
    parameter LIMITED_QPS = 4,
    // The clock period in ps; it must divide 8 000 000 (8 us: a byte's bits at 1 Mb/s)
    parameter CLOCK_PERIOD_PS = 4000,
    // Width of the rates in whole Mb/s
    parameter RATE_WIDTH = 20,
    // alpha's fraction bits
    parameter ALPHA_FRACTION_BITS = 10
) (
    input  wire                           clk,
    input  wire                           rst,

    // DCQCN_CTRL.enable and the DCQCN parameters (roce_dcqcn_rate's ports, from the registers)
    input  wire                           enable,
    input  wire [15:0]                    first_qpn,
    input  wire [RATE_WIDTH-1:0]          line_rate_mbps,
    input  wire [RATE_WIDTH-1:0]          min_rate_mbps,
    input  wire [ALPHA_FRACTION_BITS:0]   initial_alpha,
    input  wire [ALPHA_FRACTION_BITS:0]   alpha_gain,
    input  wire [31:0]                    alpha_update_period_ns,
    input  wire [31:0]                    rate_increase_period_ns,
    // At least the largest frame (4 200 bytes): a packet's bytes count in one cycle
    input  wire [31:0]                    byte_counter_bytes,
    input  wire [7:0]                     fast_recovery_stages,
    input  wire [RATE_WIDTH-1:0]          additive_increase_mbps,
    input  wire [RATE_WIDTH-1:0]          hyper_increase_mbps,

    // The host commits a QP
    input  wire                           cfg_qp_write,
    input  wire [$clog2(QP_COUNT)-1:0]    cfg_qp_index,

    // A CNP accepted for QP cnp_qpn (one cycle each)
    input  wire                           cnp_valid,
    input  wire [23:0]                    cnp_qpn,

    // Request headers, segmenter to frame builder: the local QP, the opcode and payload bytes
    input  wire                           s_hdr_valid,
    output wire                           s_hdr_ready,
    input  wire [$clog2(QP_COUNT)-1:0]    s_hdr_qpn,
    input  wire [7:0]                     s_hdr_bth_opcode,
    input  wire [12:0]                    s_hdr_payload_bytes,
    output wire                           m_hdr_valid,
    input  wire                           m_hdr_ready,

    // The state of reaction point observe_qpn (0 for a QP without one), for the registers
    input  wire [15:0]                    observe_qpn,
    output wire [RATE_WIDTH-1:0]          observe_current_rate_mbps,
    output wire [RATE_WIDTH-1:0]          observe_target_rate_mbps,
    output wire [ALPHA_FRACTION_BITS:0]   observe_alpha,
    output wire [1:0]                     observe_stage,

    // A request header waited this cycle for its QP's rate
    output wire                           event_paced
);

`include "roce_dcqcn_stages.vh"

// With no reaction points one slot is still built (its outputs unread) so that the vectors and
// compares below keep a nonzero size; HAS_SLOTS keeps every QP out of it
localparam HAS_SLOTS = LIMITED_QPS > 0;
localparam SLOTS = HAS_SLOTS ? LIMITED_QPS : 1;
localparam SLOT_WIDTH = SLOTS > 1 ? $clog2(SLOTS) : 1;
localparam BYTE_COST = 8000000 / CLOCK_PERIOD_PS;
// The largest frame: 4 096 bytes of payload behind 42 + 40 bytes of headers, and the ICRC
localparam MAX_FRAME_BYTES = 4096 + 82 + 4;
localparam BYTES_WIDTH = 13;
// Signed: one largest frame of credit above 0, and the debt of one below it
localparam BUCKET_WIDTH = $clog2(MAX_FRAME_BYTES * BYTE_COST + 1) + 2;
localparam [BUCKET_WIDTH-1:0] BUCKET_FULL = MAX_FRAME_BYTES * BYTE_COST;

initial begin
    if (LIMITED_QPS < 0 || LIMITED_QPS > QP_COUNT || (LIMITED_QPS & (LIMITED_QPS - 1)) != 0) begin
        $error("Error: LIMITED_QPS must be 0 or a power of two, at most QP_COUNT (instance %m)");
        $finish;
    end
    if (CLOCK_PERIOD_PS < 1 || 8000000 % CLOCK_PERIOD_PS != 0) begin
        $error("Error: CLOCK_PERIOD_PS must divide 8000000 (instance %m)");
        $finish;
    end
end

// ---- The header's frame bytes ----

wire [5:0]  transport_header_bytes;

roce_opcode_info opcode_info_inst (
    .opcode(s_hdr_bth_opcode),
    .known(), .has_reth(), .has_aeth(), .has_immdt(), .has_payload(), .full_pmtu(), .starts_message(),
    .ends_message(), .is_send(), .is_write(), .is_read_request(), .is_atomic(), .is_read_response(),
    .is_acknowledge(), .is_atomic_acknowledge(), .is_request(), .is_response(), .is_cnp(), .transport_header_bytes(transport_header_bytes)
);

wire [1:0]             pad_bytes = 2'd0 - s_hdr_payload_bytes[1:0];
wire [BYTES_WIDTH-1:0] frame_bytes = 13'd42 + {7'd0, transport_header_bytes} + s_hdr_payload_bytes
                                   + {11'd0, pad_bytes} + 13'd4;

// ---- One reaction point and bucket per limited QP ----

// A QP's reaction point by its distance from the first: a QP below it wraps to a large distance.
// The first QP is an argument, not read from the module: a simulator re-evaluates a continuous
// assignment that calls a function only when its arguments change
function [15:0] distance(input [23:0] qpn, input [15:0] first);
    distance = qpn[23:16] != 8'd0 ? 16'hFFFF : qpn[15:0] - first;
endfunction

wire [15:0] header_slot = distance({{(24-$clog2(QP_COUNT)){1'b0}}, s_hdr_qpn}, first_qpn);
wire [15:0] cnp_slot = distance(cnp_qpn, first_qpn);
wire [15:0] config_slot = distance({{(24-$clog2(QP_COUNT)){1'b0}}, cfg_qp_index}, first_qpn);
wire [15:0] observe_distance = distance({8'd0, observe_qpn}, first_qpn);
wire limited_header = HAS_SLOTS && header_slot < SLOTS;
wire header_taken = s_hdr_valid && s_hdr_ready;
wire cnp_for_limited = HAS_SLOTS && enable && cnp_valid && cnp_slot < SLOTS;

wire [SLOTS-1:0]            may_send;
wire [SLOTS*RATE_WIDTH-1:0] current_rates, target_rates;
wire [SLOTS*(ALPHA_FRACTION_BITS+1)-1:0] alphas;
wire [SLOTS*2-1:0]          stages;

genvar slot;
generate
    for (slot = 0; slot < SLOTS; slot = slot + 1) begin : qps
        wire [SLOT_WIDTH-1:0] index = slot;
        wire sent = header_taken && limited_header && header_slot[SLOT_WIDTH-1:0] == index;
        wire restart = rst || !enable || (cfg_qp_write && config_slot == slot);
        wire [RATE_WIDTH-1:0] current_rate;
        wire [1:0] stage;

        roce_dcqcn_rate #(
            .CLOCK_PERIOD_PS(CLOCK_PERIOD_PS),
            .RATE_WIDTH(RATE_WIDTH),
            .ALPHA_FRACTION_BITS(ALPHA_FRACTION_BITS),
            .BYTE_COUNT_WIDTH(BYTES_WIDTH)
        ) rate_inst (
            .clk(clk), .rst(restart),
            .cnp(cnp_for_limited && cnp_slot[SLOT_WIDTH-1:0] == index),
            .bytes_sent(sent ? frame_bytes : {BYTES_WIDTH{1'b0}}),
            .line_rate_mbps(line_rate_mbps), .min_rate_mbps(min_rate_mbps), .initial_alpha(initial_alpha),
            .alpha_gain(alpha_gain), .alpha_update_period_ns(alpha_update_period_ns),
            .rate_increase_period_ns(rate_increase_period_ns), .byte_counter_bytes(byte_counter_bytes),
            .fast_recovery_stages(fast_recovery_stages), .additive_increase_mbps(additive_increase_mbps),
            .hyper_increase_mbps(hyper_increase_mbps),
            .current_rate_mbps(current_rate), .target_rate_mbps(target_rates[slot*RATE_WIDTH +: RATE_WIDTH]),
            .alpha(alphas[slot*(ALPHA_FRACTION_BITS+1) +: ALPHA_FRACTION_BITS+1]), .stage(stage)
        );
        assign current_rates[slot*RATE_WIDTH +: RATE_WIDTH] = current_rate;
        assign stages[slot*2 +: 2] = stage;

        // Credit in Mb/s x cycles; empty while the QP is not throttled
        reg signed [BUCKET_WIDTH-1:0] bucket;
        wire signed [BUCKET_WIDTH-1:0] refilled = bucket + $signed({{(BUCKET_WIDTH-RATE_WIDTH){1'b0}}, current_rate});
        wire signed [BUCKET_WIDTH-1:0] capped = refilled > $signed(BUCKET_FULL) ? $signed(BUCKET_FULL) : refilled;
        wire signed [BUCKET_WIDTH-1:0] cost = $signed({{(BUCKET_WIDTH-BYTES_WIDTH){1'b0}}, frame_bytes}) * BYTE_COST;
        always @(posedge clk) begin
            if (restart || stage == `DCQCN_STAGE_UNTHROTTLED) begin
                bucket <= {BUCKET_WIDTH{1'b0}};
            end else begin
                bucket <= sent ? capped - cost : capped;
            end
        end
        assign may_send[slot] = restart || stage == `DCQCN_STAGE_UNTHROTTLED || !bucket[BUCKET_WIDTH-1];
    end
endgenerate

wire go = !limited_header || may_send[header_slot[SLOT_WIDTH-1:0]];
assign m_hdr_valid = s_hdr_valid && go;
assign s_hdr_ready = m_hdr_ready && go;
assign event_paced = s_hdr_valid && !go;

wire observed = HAS_SLOTS && observe_distance < SLOTS;
wire [SLOT_WIDTH-1:0] observe_slot = observe_distance[SLOT_WIDTH-1:0];
assign observe_current_rate_mbps = observed ? current_rates[observe_slot*RATE_WIDTH +: RATE_WIDTH] : {RATE_WIDTH{1'b0}};
assign observe_target_rate_mbps = observed ? target_rates[observe_slot*RATE_WIDTH +: RATE_WIDTH] : {RATE_WIDTH{1'b0}};
assign observe_alpha = observed ? alphas[observe_slot*(ALPHA_FRACTION_BITS+1) +: ALPHA_FRACTION_BITS+1]
                                : {(ALPHA_FRACTION_BITS+1){1'b0}};
assign observe_stage = observed ? stages[observe_slot*2 +: 2] : 2'd0;

endmodule

`resetall
