// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// NVMe I/O queue table: each I/O queue's base, size, CQ, vector, heads, tails and phase, created and deleted by admin commands and moved by doorbells and the queue engine
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Facts from docs/reference/nvme.md (NVMe base specification):
// - A queue of N entries is empty when head == tail and full when tail + 1 == head (mod N).
// - The host moves an I/O SQ's tail and an I/O CQ's head through doorbells; a doorbell of a queue
//   that does not exist, or whose value is past the queue's size, is ignored (the engine reports
//   it as an Asynchronous Event: doorbell_io_exists and doorbell_io_value_fits say which).
// - The controller moves an SQ's head as it takes entries and a CQ's tail as it posts, the CQ's
//   phase tag inverting on each wrap (1 on the first pass).
// The admin queue (queue 0) is not here: its registers are nvme_registers', its head and tail
// the engine's and nvme_cq_post's. Entry 0 of every table is never valid.
// What the SQ arbiter decides from (each SQ's readiness and the entries one read of it would take)
// is kept as small registers beside the pointers, worked out from the pointers' next values at the
// edge that moves them: each SQ's entries on offer (waiting, not past the ring's end or the head's
// page, FETCH_BATCH at most) and each CQ's room (FETCH_BATCH at most). They equal what the pointers
// say in every cycle, but leave the arbiter's decision a few 3-bit compares instead of the
// subtracts and compares of 16-bit pointers in series with its round-robin scan.
// One SQ head moves per cycle at most: the engine takes one entry per cycle (from a fetch, from
// the batch in hand or from the prefetched batch, exclusive branches of its state machine), so
// sq_head_advance names one queue. Likewise one CQ slot is taken per cycle (the running command's
// completion).
module nvme_queue_table #(
    // Queue pairs of the controller, the admin one included (2 to 65)
    parameter QUEUES = 17,
    // Most entries one read fetches (1 to 4: the requester's read data holds four 64-byte entries)
    parameter FETCH_BATCH = 4
) (
    input  wire         clk,
    input  wire         rst,            // also while the controller is disabled: every I/O queue is deleted

    // Admin commands (nvme_admin_command): the queues they name, what they check, and what they
    // create or delete (a CQ's vector or an SQ's CQ in queue_vector_or_cq)
    input  wire [$clog2(QUEUES)-1:0] admin_queue_index,
    input  wire [$clog2(QUEUES)-1:0] admin_sq_cq_index,
    output wire         admin_queue_cq_valid,
    output wire         admin_queue_sq_valid,
    output wire         admin_queue_cq_has_sq,  // an SQ still posts to the CQ of admin_queue_index
    output wire         admin_sq_cq_valid,
    input  wire         create_cq,
    input  wire         create_sq,
    input  wire         delete_cq,
    input  wire         delete_sq,
    input  wire [63:0]  queue_base,
    input  wire [15:0]  queue_size,     // entries - 1
    input  wire [15:0]  queue_vector_or_cq,
    input  wire         queue_interrupts,

    // Doorbells (those of queue 0 are the admin queue's: not applied here)
    input  wire         doorbell_valid,
    input  wire [6:0]   doorbell_queue,
    input  wire         doorbell_is_cq_head,
    input  wire [15:0]  doorbell_value,
    output wire         doorbell_io_exists,     // the doorbell's I/O queue exists
    output wire         doorbell_io_value_fits, // its value is not past that queue's size

    // Per SQ: it has entries and its CQ has room for one more completion; and how many entries one
    // read of it takes (3 bits per SQ, SQ n's at 3n): the waiting ones that are contiguous (up to the
    // ring's end), within the head's 4 KiB page (SQs are page aligned: a page holds 64 entries), no
    // more than its CQ has room for (so none can find the CQ full when it completes) and no more
    // than FETCH_BATCH; 0 when it is not ready
    output wire [(1 << $clog2(QUEUES))-1:0] sq_ready,
    output wire [3*(1 << $clog2(QUEUES))-1:0] sq_fetch_count,

    // The SQ nvme_sq_arbiter picked: its CQ, and where its entry at the head is
    input  wire [$clog2(QUEUES)-1:0] pick_queue,
    output wire [$clog2(QUEUES)-1:0] pick_cq,
    output wire [63:0]  pick_sq_head_address,

    // The SQ whose command runs: its head for SQHD, and its CQ's next slot for the completion
    input  wire [$clog2(QUEUES)-1:0] current_queue,
    output wire [$clog2(QUEUES)-1:0] current_cq,
    output wire [15:0]  current_sq_head,
    output wire [63:0]  current_cq_slot_address,
    output wire         current_cq_phase,
    output wire [4:0]   current_cq_vector,
    output wire         current_cq_interrupts,

    // The engine took an entry of an SQ (its head moves on), or a slot of a CQ (its tail moves
    // on and the phase flips on a wrap)
    input  wire         sq_head_advance,
    input  wire [$clog2(QUEUES)-1:0] sq_head_advance_queue,
    input  wire         cq_slot_take,
    input  wire [$clog2(QUEUES)-1:0] cq_slot_take_cq
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

localparam [31:0] QUEUE_COUNT = QUEUES;
// Tables indexed by queue ID (entries past QUEUES-1 are never valid). Registers, not RAM: every
// queue's readiness reads its CQ's size, head and tail at once. Yosys is told so (mem2reg): left
// as memories with some fifty read ports, its resource-sharing pass ran out of memory on them.
localparam QUEUE_INDEX_WIDTH = $clog2(QUEUES);
localparam QUEUE_SLOTS = 1 << QUEUE_INDEX_WIDTH;
reg [QUEUE_SLOTS-1:0]       io_cq_valid, io_sq_valid;
(* mem2reg *) reg [63:0]                  io_cq_base [0:QUEUE_SLOTS-1];
(* mem2reg *) reg [63:0]                  io_sq_base [0:QUEUE_SLOTS-1];
(* mem2reg *) reg [15:0]                  io_cq_size [0:QUEUE_SLOTS-1];
(* mem2reg *) reg [15:0]                  io_sq_size [0:QUEUE_SLOTS-1];
(* mem2reg *) reg [QUEUE_INDEX_WIDTH-1:0] io_sq_cqid [0:QUEUE_SLOTS-1];
(* mem2reg *) reg [15:0]                  io_cq_vector [0:QUEUE_SLOTS-1];
(* mem2reg *) reg [15:0]                  io_sq_tail [0:QUEUE_SLOTS-1];
(* mem2reg *) reg [15:0]                  io_cq_head [0:QUEUE_SLOTS-1];
(* mem2reg *) reg [15:0]                  io_sq_head [0:QUEUE_SLOTS-1];
(* mem2reg *) reg [15:0]                  io_cq_tail [0:QUEUE_SLOTS-1];
// Where each SQ's entry at the head is (base + 64 x head) and each CQ's slot at the tail (base +
// 16 x tail), kept beside the head and tail as they move, so that a fetch's or a completion's
// address is a lookup, not a 64-bit add after the lookups that choose the queue
(* mem2reg *) reg [63:0]                  io_sq_head_address [0:QUEUE_SLOTS-1];
(* mem2reg *) reg [63:0]                  io_cq_tail_address [0:QUEUE_SLOTS-1];
reg [QUEUE_SLOTS-1:0]       io_cq_phase, io_cq_interrupts;
// Entries each SQ has on offer for one read, and room in each CQ, both FETCH_BATCH at most (above)
(* mem2reg *) reg [2:0]                   sq_on_offer [0:QUEUE_SLOTS-1];
(* mem2reg *) reg [2:0]                   cq_room [0:QUEUE_SLOTS-1];

// ---- Lookups ----

assign admin_queue_cq_valid = io_cq_valid[admin_queue_index];
assign admin_queue_sq_valid = io_sq_valid[admin_queue_index];
assign admin_sq_cq_valid = io_cq_valid[admin_sq_cq_index];

// Delete I/O CQ: whether an SQ still posts to it
reg         cq_has_sq;
integer     sq_scan;
always @* begin
    cq_has_sq = 1'b0;
    for (sq_scan = 1; sq_scan < QUEUES; sq_scan = sq_scan + 1) begin
        if (io_sq_valid[sq_scan] && io_sq_cqid[sq_scan] == admin_queue_index) begin
            cq_has_sq = 1'b1;
        end
    end
end
assign admin_queue_cq_has_sq = cq_has_sq;

// The doorbell's queue (a queue number past the table is never valid: the index alone would wrap)
wire [QUEUE_INDEX_WIDTH-1:0] doorbell_index = doorbell_queue[QUEUE_INDEX_WIDTH-1:0];
wire [15:0] doorbell_io_size = doorbell_is_cq_head ? io_cq_size[doorbell_index] : io_sq_size[doorbell_index];
wire doorbell_queue_in_range = {25'd0, doorbell_queue} < QUEUE_COUNT;
wire doorbell_in_table = doorbell_queue != 7'd0 && doorbell_queue_in_range;  // an I/O queue's slot
assign doorbell_io_exists = doorbell_queue_in_range
                         && (doorbell_is_cq_head ? io_cq_valid[doorbell_index] : io_sq_valid[doorbell_index]);
assign doorbell_io_value_fits = doorbell_value <= doorbell_io_size;

// An I/O SQ is ready when it has entries and its CQ has room for one more completion; a read of
// it takes what it offers up to its CQ's room
genvar ready_queue;
generate
    for (ready_queue = 0; ready_queue < QUEUE_SLOTS; ready_queue = ready_queue + 1) begin : readiness
        wire [2:0] offer = sq_on_offer[ready_queue];
        wire [2:0] room = cq_room[io_sq_cqid[ready_queue]];
        assign sq_ready[ready_queue] = ready_queue != 0 && ready_queue < QUEUES && io_sq_valid[ready_queue]
                                    && offer != 3'd0 && room != 3'd0;
        assign sq_fetch_count[3*ready_queue +: 3] = !sq_ready[ready_queue] ? 3'd0 : offer < room ? offer : room;
    end
endgenerate

assign pick_cq = io_sq_cqid[pick_queue];
assign pick_sq_head_address = io_sq_head_address[pick_queue];

assign current_cq = io_sq_cqid[current_queue];
assign current_sq_head = io_sq_head[current_queue];
assign current_cq_slot_address = io_cq_tail_address[current_cq];
assign current_cq_phase = io_cq_phase[current_cq];
assign current_cq_vector = io_cq_vector[current_cq][4:0];
assign current_cq_interrupts = io_cq_interrupts[current_cq];

// ---- Heads and tails: the host's doorbells and the controller's moves ----

// The host moves an SQ's tail or a CQ's head (doorbells); the controller an SQ's head as it takes
// entries and a CQ's tail as it posts. A queue starts with both at 0 from the edge that creates it
// (no doorbell can apply to it in that cycle: it does not exist yet). Each queue's next pointers
// are worked out once, here, for the pointers and for what they offer.
localparam [16:0] BATCH_ENTRIES = FETCH_BATCH[16:0];
function [2:0] at_most_batch(input [16:0] entries);
    at_most_batch = entries > BATCH_ENTRIES ? BATCH_ENTRIES[2:0] : entries[2:0];
endfunction

function [2:0] least(input [2:0] a, input [2:0] b);
    least = a < b ? a : b;
endfunction

// Entries an SQ offers one read: those waiting, up to the ring's end and the head's page's end.
// 17 bits: from the first entry of a 65 536-entry SQ the ring's end is 65 536 entries away.
function [2:0] entries_on_offer(input [15:0] head, input [15:0] tail, input [15:0] size);
    reg [16:0] waiting, to_ring_end, to_page_end;
    begin
        waiting = tail >= head ? {1'b0, tail - head} : {1'b0, tail} + {1'b0, size} + 17'd1 - {1'b0, head};
        to_ring_end = {1'b0, size} + 17'd1 - {1'b0, head};
        to_page_end = 17'd64 - {11'd0, head[5:0]};
        entries_on_offer = least(at_most_batch(waiting), least(at_most_batch(to_ring_end), at_most_batch(to_page_end)));
    end
endfunction

// Completions a CQ can still take (full when tail + 1 == head)
function [2:0] completion_room(input [15:0] head, input [15:0] tail, input [15:0] size);
    completion_room = at_most_batch(head > tail ? {1'b0, head - tail - 16'd1}
                                                : {1'b0, head} + {1'b0, size} - {1'b0, tail});
endfunction

// A head's or tail's slot address after this edge: the new queue's base, the same, the ring's base
// again after its last slot, or the next slot (`step` bytes on)
function [63:0] address_after(input created, input [63:0] new_base, input moved, input wraps, input [63:0] address,
                              input [63:0] ring_base, input [63:0] step);
    address_after = created ? new_base : !moved ? address : wraps ? ring_base : address + step;
endfunction

genvar pointer_queue;
generate
    for (pointer_queue = 0; pointer_queue < QUEUE_SLOTS; pointer_queue = pointer_queue + 1) begin : pointers
        wire created_sq = create_sq && admin_queue_index == pointer_queue;
        wire created_cq = create_cq && admin_queue_index == pointer_queue;
        // A doorbell moves this queue's pointer when the queue exists and the value is within its
        // size: the verdict the lookups above give for the doorbell's queue, taken here from this
        // queue's own registers (no lookup through the table before the pointer arithmetic)
        wire doorbell_here = doorbell_valid && doorbell_in_table && doorbell_index == pointer_queue;
        wire tail_rung = doorbell_here && !doorbell_is_cq_head && io_sq_valid[pointer_queue]
                      && doorbell_value <= io_sq_size[pointer_queue];
        wire head_rung = doorbell_here && doorbell_is_cq_head && io_cq_valid[pointer_queue]
                      && doorbell_value <= io_cq_size[pointer_queue];
        wire entry_taken = sq_head_advance && sq_head_advance_queue == pointer_queue;
        wire slot_taken = cq_slot_take && cq_slot_take_cq == pointer_queue;
        wire [15:0] sq_head = io_sq_head[pointer_queue];
        wire [15:0] cq_tail = io_cq_tail[pointer_queue];
        // The pointers as a doorbell, a taken entry or a taken slot moves them, then as a creation
        // sets them (to 0: no doorbell applies to a queue that does not exist yet)
        wire        sq_wraps = sq_head == io_sq_size[pointer_queue];
        wire [15:0] sq_head_moved = !entry_taken ? sq_head : sq_wraps ? 16'd0 : sq_head + 16'd1;
        wire [15:0] sq_tail_moved = tail_rung ? doorbell_value : io_sq_tail[pointer_queue];
        wire [15:0] cq_head_moved = head_rung ? doorbell_value : io_cq_head[pointer_queue];
        wire        cq_wraps = cq_tail == io_cq_size[pointer_queue];
        wire [15:0] cq_tail_moved = !slot_taken ? cq_tail : cq_wraps ? 16'd0 : cq_tail + 16'd1;
        wire [15:0] sq_head_next = created_sq ? 16'd0 : sq_head_moved;
        wire [15:0] sq_tail_next = created_sq ? 16'd0 : sq_tail_moved;
        wire [15:0] cq_head_next = created_cq ? 16'd0 : cq_head_moved;
        wire [15:0] cq_tail_next = created_cq ? 16'd0 : cq_tail_moved;
        wire [63:0] sq_head_address_next = address_after(created_sq, queue_base, entry_taken, sq_wraps,
                                                         io_sq_head_address[pointer_queue], io_sq_base[pointer_queue],
                                                         64'd64);
        wire [63:0] cq_tail_address_next = address_after(created_cq, queue_base, slot_taken, cq_wraps,
                                                         io_cq_tail_address[pointer_queue], io_cq_base[pointer_queue],
                                                         64'd16);
        // A new SQ offers nothing, a new CQ its size (at most the batch): chosen after the
        // arithmetic, so the admin command's verdict meets only that choice
        wire [2:0]  sq_offer_next = created_sq ? 3'd0
                                  : entries_on_offer(sq_head_moved, sq_tail_moved, io_sq_size[pointer_queue]);
        wire [2:0]  cq_room_next = created_cq ? at_most_batch({1'b0, queue_size})
                                 : completion_room(cq_head_moved, cq_tail_moved, io_cq_size[pointer_queue]);
        always @(posedge clk) begin
            io_sq_head[pointer_queue] <= sq_head_next;
            io_sq_head_address[pointer_queue] <= sq_head_address_next;
            io_sq_tail[pointer_queue] <= sq_tail_next;
            io_cq_head[pointer_queue] <= cq_head_next;
            io_cq_tail[pointer_queue] <= cq_tail_next;
            io_cq_tail_address[pointer_queue] <= cq_tail_address_next;
            // (worked out only when a pointer moves: simulators then skip the arithmetic of every
            // idle queue, which is most of them in every cycle)
            if (created_sq || tail_rung || entry_taken) begin
                sq_on_offer[pointer_queue] <= sq_offer_next;
            end
            if (created_cq || head_rung || slot_taken) begin
                cq_room[pointer_queue] <= cq_room_next;
            end
        end
    end
endgenerate

// ---- CQ phases, creation and deletion ----

always @(posedge clk) begin
    if (cq_slot_take && io_cq_tail[cq_slot_take_cq] == io_cq_size[cq_slot_take_cq]) begin
        io_cq_phase[cq_slot_take_cq] <= !io_cq_phase[cq_slot_take_cq];
    end

    // (after the moves: a queue created in the same cycle starts afresh)
    if (create_cq) begin
        io_cq_valid[admin_queue_index] <= 1'b1;
        io_cq_base[admin_queue_index] <= queue_base;
        io_cq_size[admin_queue_index] <= queue_size;
        io_cq_vector[admin_queue_index] <= queue_vector_or_cq;
        io_cq_phase[admin_queue_index] <= 1'b1;
        io_cq_interrupts[admin_queue_index] <= queue_interrupts;
    end
    if (create_sq) begin
        io_sq_valid[admin_queue_index] <= 1'b1;
        io_sq_base[admin_queue_index] <= queue_base;
        io_sq_size[admin_queue_index] <= queue_size;
        io_sq_cqid[admin_queue_index] <= admin_sq_cq_index;
    end
    if (delete_sq) begin
        io_sq_valid[admin_queue_index] <= 1'b0;
    end
    if (delete_cq) begin
        io_cq_valid[admin_queue_index] <= 1'b0;
    end

    if (rst) begin
        io_cq_valid <= {QUEUE_SLOTS{1'b0}};
        io_sq_valid <= {QUEUE_SLOTS{1'b0}};
    end
end

endmodule

`resetall
