// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// The atomics a responder QP executed last, by PSN, so a duplicate is answered, never executed again
`resetall
`timescale 1ns / 1ps
`default_nettype none

// IBA 9.4.5 and 9.7.5.1.6 (docs/rdma.md, "Atomics"): a requester that hears no ATOMIC_ACKNOWLEDGE
// sends the atomic again with the same PSN, and the responder must answer it with the value the
// first execution returned, without executing it a second time. The responder keeps the last
// ENTRIES executed atomics of each QP (its max_dest_rd_atomic, which a peer's max_rd_atomic must
// not pass); a duplicate older than those is dropped unanswered, as rxe drops one it no longer
// has a resource for.
//
// The entries are part of the QP's responder state (read with it, written back with it), so this
// module only looks them up and adds to them; it holds nothing itself. Entry k is
// entries[k*ENTRY_BITS +: ENTRY_BITS] = {valid, PSN, original value}; `next` is the entry the
// next atomic replaces, the oldest once all are in use.
module roce_atomic_results #(
    // Atomics kept per QP (a power of two, at least 2)
    parameter ENTRIES = 4
) (
    input  wire [ENTRIES*89-1:0]          entries,
    input  wire [$clog2(ENTRIES)-1:0]     next,

    // The duplicate's PSN: whether an entry has it, and that atomic's original value
    input  wire [23:0]                    lookup_psn,
    output reg                            hit,
    output reg  [63:0]                    hit_original,

    // The entries once the atomic at record_psn, which found record_original, is added
    input  wire [23:0]                    record_psn,
    input  wire [63:0]                    record_original,
    output reg  [ENTRIES*89-1:0]          recorded_entries,
    output wire [$clog2(ENTRIES)-1:0]     recorded_next
);

localparam ENTRY_BITS = 89;

initial begin
    if (ENTRIES < 2 || (ENTRIES & (ENTRIES - 1)) != 0) begin
        $error("Error: ENTRIES must be a power of two, 2 or more (instance %m)");
        $finish;
    end
end

integer index;
always @* begin
    hit = 1'b0;
    hit_original = 64'd0;
    for (index = 0; index < ENTRIES; index = index + 1) begin
        // Recording an atomic forgets any kept one at its PSN (after the PSNs wrapped), so at
        // most one matches
        if (entries[index*ENTRY_BITS + 88] && entries[index*ENTRY_BITS + 64 +: 24] == lookup_psn) begin
            hit = 1'b1;
            hit_original = entries[index*ENTRY_BITS +: 64];
        end
    end
    recorded_entries = entries;
    for (index = 0; index < ENTRIES; index = index + 1) begin
        if (entries[index*ENTRY_BITS + 64 +: 24] == record_psn) begin
            recorded_entries[index*ENTRY_BITS + 88] = 1'b0;
        end
    end
    recorded_entries[next*ENTRY_BITS +: ENTRY_BITS] = {1'b1, record_psn, record_original};
end

assign recorded_next = next + 1'b1;

endmodule

`resetall
