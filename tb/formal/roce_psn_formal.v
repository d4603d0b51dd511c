// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Formal harness of the PSN order every RDMA module uses (rtl/rdma/roce_psn.vh: the requester's
// window and ACK checks, the responder's duplicate test, the segmenter's retransmit count): for any
// base PSN, two PSNs less than 2^23 past it keep their order, wherever the wrap from 2^24 - 1 to 0
// falls between them
`default_nettype none

module roce_psn_formal (
    input wire        clk,
    input wire        rst,
    // Any base and any two distances from it: the solver picks them all
    input wire [23:0] base,
    input wire [23:0] ahead_a,
    input wire [23:0] ahead_b
);

`include "formal_harness.vh"
`include "roce_psn.vh"

localparam [23:0] HALF_SPACE = 24'h800000;

wire [23:0] psn_a = base + ahead_a;
wire [23:0] psn_b = base + ahead_b;
wire        both_in_half_window = ahead_a < HALF_SPACE && ahead_b < HALF_SPACE;

always @(*) begin
    // Inside one half window from any base, PSN order is the order of the distances
    if (both_in_half_window) assert(psn_before(psn_a, psn_b) == (ahead_a < ahead_b));
    // No PSN comes before itself, and of two others exactly one comes first, unless they are
    // exactly 2^23 apart (the one distance the half window leaves ambiguous, which a requester
    // never reaches: it keeps fewer than 2^23 PSNs outstanding)
    assert(!psn_before(psn_a, psn_a));
    if (psn_a != psn_b && psn_a - psn_b != HALF_SPACE) assert(psn_before(psn_a, psn_b) != psn_before(psn_b, psn_a));
    // The cases that matter are reached: the wrap between two ordered PSNs, and none between them
    cover(both_in_half_window && ahead_a < ahead_b && psn_b < psn_a);
    cover(both_in_half_window && ahead_a < ahead_b && psn_a < psn_b);
end

endmodule
