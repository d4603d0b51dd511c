// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// NVMe I/O SQ arbiter: which ready I/O SQ is fetched from next (round robin), and how many of its entries the read takes
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The I/O SQs take turns: the pick is the first ready SQ at or after the one after the last pick
// (pick_taken says the engine fetched from it), so a busy queue cannot hold the others back.
// How many entries a read of each SQ takes is nvme_queue_table's count; the picked one's is passed on.
module nvme_sq_arbiter #(
    // Queue pairs of the controller, the admin one included (2 to 65; queue 0 is never ready)
    parameter QUEUES = 17
) (
    input  wire         clk,
    input  wire         rst,            // also while the controller is disabled: the turn starts at queue 0

    input  wire [(1 << $clog2(QUEUES))-1:0] sq_ready,
    input  wire [3*(1 << $clog2(QUEUES))-1:0] sq_fetch_count,  // 3 bits per SQ, SQ n's at 3n
    output reg          found,
    output reg  [$clog2(QUEUES)-1:0] pick,
    input  wire         pick_taken,     // the engine fetches from pick: the next turn starts after it
    output wire [2:0]   pick_count      // entries the read of pick takes (at least 1 when found)
);

initial begin
    if (QUEUES < 2 || QUEUES > 65) begin
        $error("Error: QUEUES must be 2 to 65 (instance %m)");
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

assign pick_count = sq_fetch_count[3*pick +: 3];

endmodule

`resetall
