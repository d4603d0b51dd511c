// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// NVMe I/O SQ arbiter: which ready I/O SQ is fetched from next (round robin) and how many of its entries one read takes
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The I/O SQs take turns: the pick is the first ready SQ at or after the one after the last pick
// (pick_taken says the engine fetched from it), so a busy queue cannot hold the others back.
// A read takes the picked SQ's waiting entries, contiguous ones only (up to the ring's end), never
// across a 4 KiB page (SQs are page aligned, so the page ends every 64 entries), no more than its
// CQ has room for (so none of them can find the CQ full when it completes) and no more than
// FETCH_BATCH. The picked SQ's head, tail and size, and its CQ's, come from nvme_queue_table.
module nvme_sq_arbiter #(
    // Queue pairs of the controller, the admin one included (2 to 65; queue 0 is never ready)
    parameter QUEUES = 17,
    // Most entries one read fetches (1 to 4: the requester's read data holds four 64-byte entries)
    parameter FETCH_BATCH = 4
) (
    input  wire         clk,
    input  wire         rst,            // also while the controller is disabled: the turn starts at queue 0

    input  wire [(1 << $clog2(QUEUES))-1:0] sq_ready,
    output reg          found,
    output reg  [$clog2(QUEUES)-1:0] pick,
    input  wire         pick_taken,     // the engine fetches from pick: the next turn starts after it

    // The picked SQ and its CQ (entries - 1 as sizes)
    input  wire [15:0]  pick_sq_head,
    input  wire [15:0]  pick_sq_tail,
    input  wire [15:0]  pick_sq_size,
    input  wire [15:0]  pick_cq_head,
    input  wire [15:0]  pick_cq_tail,
    input  wire [15:0]  pick_cq_size,
    output wire [2:0]   pick_count      // entries the read takes (1 to FETCH_BATCH when found)
);

initial begin
    if (QUEUES < 2 || QUEUES > 65) begin
        $error("Error: QUEUES must be 2 to 65 (instance %m)");
        $finish;
    end
    if (FETCH_BATCH < 1 || FETCH_BATCH > 4) begin
        $error("Error: FETCH_BATCH must be 1 to 4 (instance %m)");
        $finish;
    end
end

localparam QUEUE_INDEX_WIDTH = $clog2(QUEUES);
localparam QUEUE_SLOTS = 1 << QUEUE_INDEX_WIDTH;

// The first SQ the next turn looks at
reg [QUEUE_INDEX_WIDTH-1:0] next_queue;

// Scanned twice round the table, from the top down, so that the last match is the first ready SQ
// at or after next_queue, wrapping to the lowest ready one when none is above it
integer pick_scan;
always @* begin
    found = 1'b0;
    pick = {QUEUE_INDEX_WIDTH{1'b0}};
    for (pick_scan = 2 * QUEUE_SLOTS - 1; pick_scan >= 0; pick_scan = pick_scan - 1) begin
        if (pick_scan >= next_queue && sq_ready[pick_scan % QUEUE_SLOTS]) begin
            found = 1'b1;
            pick = pick_scan[QUEUE_INDEX_WIDTH-1:0];
        end
    end
end

always @(posedge clk) begin
    if (pick_taken) begin
        next_queue <= pick + 1'b1;
    end
    if (rst) begin
        next_queue <= {QUEUE_INDEX_WIDTH{1'b0}};
    end
end

wire [15:0] waiting = pick_sq_tail >= pick_sq_head ? pick_sq_tail - pick_sq_head
                    : pick_sq_tail + pick_sq_size + 16'd1 - pick_sq_head;
// 17 bits: from the first entry of a 65 536-entry SQ the ring's end is 65 536 entries away (in 16
// bits that was 0, and such an SQ was never fetched from)
wire [16:0] to_ring_end = {1'b0, pick_sq_size} + 17'd1 - {1'b0, pick_sq_head};
wire [15:0] to_page_end = 16'd64 - {10'd0, pick_sq_head[5:0]};
wire [15:0] cq_room = pick_cq_head > pick_cq_tail ? pick_cq_head - pick_cq_tail - 16'd1
                    : pick_cq_head + pick_cq_size - pick_cq_tail;
wire [15:0] limit_sq = {1'b0, waiting} < to_ring_end ? waiting : to_ring_end[15:0];
wire [15:0] limit_room = to_page_end < cq_room ? to_page_end : cq_room;
wire [15:0] limit = limit_sq < limit_room ? limit_sq : limit_room;
assign pick_count = limit > FETCH_BATCH[15:0] ? FETCH_BATCH[2:0] : limit[2:0];

endmodule

`resetall
