// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// NVMe queue engine: submission entries fetched from host memory, admin and NVM commands executed, completions posted with phase
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "nvme_defs.vh"

// Facts from docs/reference/nvme.md (NVMe base specification):
// - The SQ tail doorbell says where the host stopped writing; entries from the controller's head
//   up to it are fetched (64 bytes each) and executed in order. A queue of N entries is empty
//   when head == tail and full when tail + 1 == head (mod N).
// - Each completion (16 bytes) carries the command's result (DW0), SQHD (the SQ head after the
//   fetch) and SQID, the CID, the status (SC, SCT, DNR) and the phase tag: 1 on the first pass
//   over the CQ, inverted on each wrap. A completion is never written into a full CQ: the engine
//   waits for the CQ head doorbell.
// - A doorbell value past the queue's size is an invalid doorbell write value, a doorbell of a
//   queue that does not exist a write to an invalid doorbell register: both are ignored and
//   reported through an outstanding Asynchronous Event Request (error status, log page 01h).
// Admin commands are decided by nvme_admin_command (which also writes Identify data); the I/O
// queues they create and delete are kept here. An event completes the oldest waiting
// Asynchronous Event Request, one per event.
// I/O queues: when the admin queue has nothing to do, the I/O SQs with entries (and room in their
// CQ) take turns, up to four commands each, fetched in one read; nvme_io_command executes them
// one at a time and each completion goes to the SQ's CQ with that CQ's phase, raising its vector
// when its interrupts are enabled.
module nvme_queue_engine #(
    // Queue pairs of the controller, the admin one included (Number of Queues reports QUEUES-1;
    // 2 to 65: the doorbells name 7-bit queues and the admin one is queue 0)
    parameter QUEUES = 17,
    // Width of the bulk data source (one beat of the PCIe requester)
    parameter DATA_WIDTH = 512,
    // Namespace 1: its size in logical blocks and the block size, 2^LBA_SHIFT bytes (9 to 12)
    parameter [63:0] NAMESPACE_BLOCKS = 64'd2048,
    parameter [7:0] LBA_SHIFT = 8'd9,
    // Identify Controller MDTS: largest transfer 2^MDTS pages of 4 KiB
    parameter [7:0] MDTS = 8'd5,
    // Largest I/O queue, in entries (CAP.MQES + 1: 2 to 65536)
    parameter MAX_QUEUE_ENTRIES = 1024,
    // MSI-X vectors a CQ may name (1 to 32: a completion's interrupt names a 5-bit vector)
    parameter VECTORS = 32
) (
    input  wire         clk,
    input  wire         rst,

    input  wire         enabled,
    input  wire         stopping,     // the host is disabling the controller: start nothing new
    output wire         busy,         // a command is in hand (its transfers may be in flight)
    input  wire [11:0]  sq_size,      // entries - 1
    input  wire [11:0]  cq_size,
    input  wire [63:0]  sq_base,
    input  wire [63:0]  cq_base,

    input  wire         doorbell_valid,
    input  wire [6:0]   doorbell_queue,
    input  wire         doorbell_is_cq_head,
    input  wire [15:0]  doorbell_value,
    input  wire         invalid_doorbell,

    // To the PCIe requester
    output wire         write_valid,
    input  wire         write_ready,
    output wire [63:0]  write_address,
    output wire [4:0]   write_dwords,
    output wire [511:0] write_data,
    output reg          read_valid,
    input  wire         read_ready,
    output reg  [63:0]  read_address,
    output wire [6:0]   read_dwords,
    input  wire         read_done,
    input  wire [2047:0] read_data,
    input  wire         read_error,
    // A completion's write went to the host: interrupt on its CQ's vector, after the entry so
    // that the message cannot pass it
    input  wire         write_done,
    output wire         interrupt_request,
    output wire [4:0]   interrupt_vector,
    output wire         interrupt_admin,    // the entry is the admin CQ's (never coalesced)
    output wire [15:0]  interrupt_coalescing_setting, // Feature 08h as the host set it
    // Bulk writes of Identify data, the data from nvme_identify_data
    output wire         bulk_valid,
    input  wire         bulk_ready,
    output wire [63:0]  bulk_address,
    output wire [10:0]  bulk_dwords,
    input  wire [10:0]  bulk_source_index,
    output wire [DATA_WIDTH-1:0] bulk_source_data,
    input  wire         bulk_done,

    // NVM commands of the I/O queues, to nvme_io_command (it has the requester while busy)
    output wire         io_start,
    output wire [7:0]   io_opcode,
    output wire [31:0]  io_nsid,
    output wire [63:0]  io_slba,
    output wire [15:0]  io_nlb,
    output wire [63:0]  io_prp1,
    output wire [63:0]  io_prp2,
    input  wire         io_done,
    input  wire [7:0]   io_status_code,
    input  wire         io_released,    // a Write drains: its completion comes with io_drain_done
    input  wire         io_drain_done,
    input  wire [7:0]   io_drain_status,
    output wire         io_drain_free,  // no released Write's completion is waiting here
    output wire         io_active,      // nvme_io_command has the requester

    // For the counters: an entry's command starts (admin, or unreadable: its fetch failed); a
    // completion entry is handed to the requester with its status; a valid SQ tail doorbell; an
    // entry fetch request, of fetch_queue's SQ
    output reg          event_command,
    output wire         event_command_admin,
    output wire         event_command_unreadable,
    output wire         event_post,
    output wire         event_completion,
    output wire [2:0]   completion_status_type,
    output wire         completion_drained,   // the entry handed over is a released Write's
    output wire [7:0]   completion_status_code,
    output wire         event_sq_doorbell,
    output wire [$clog2(QUEUES)-1:0] sq_doorbell_queue,
    output wire         event_fetch,
    output wire [$clog2(QUEUES)-1:0] fetch_queue
);

initial begin
    if (QUEUES < 2 || QUEUES > 65) begin
        $error("Error: QUEUES must be 2 to 65 (instance %m)");
        $finish;
    end
    if (MAX_QUEUE_ENTRIES < 2 || MAX_QUEUE_ENTRIES > 65536 || VECTORS < 1 || VECTORS > 32) begin
        $error("Error: MAX_QUEUE_ENTRIES must be 2 to 65536 and VECTORS 1 to 32 (instance %m)");
        $finish;
    end
    if (DATA_WIDTH != 256 && DATA_WIDTH != 512) begin
        $error("Error: DATA_WIDTH must be 256 or 512 (instance %m)");
        $finish;
    end
end

localparam [31:0] QUEUE_COUNT = QUEUES;

assign write_dwords = 5'd4;
// Every write this engine makes is a completion entry (nvme_cq_post sends them)
// An NVM command ended while the previous completion was still going out
reg    io_finished;
reg  [7:0] io_result;
wire   post_free, drain_pending, posting, cq_full;
assign io_drain_free = !drain_pending;
// Entries fetched together: up to FETCH_BATCH of one I/O SQ in one read (contiguous, within a
// page, no more than its CQ has room for), executed in order before any other queue is served
localparam FETCH_BATCH = 4;
reg  [2:0]    fetch_count;
reg  [2047:0] batch;           // the read's entries, the first in the low bits
reg  [2:0]    batch_left;      // entries of the batch still to execute
reg  [1:0]    batch_next;      // the next one's index
reg           entry_unreadable; // the entry's fetch failed
// The next I/O batch, fetched while the last entry of this one runs, so the host's read latency
// is not paid between batches. Only from an SQ whose CQ is not the running batch's (its room was
// counted without the completions still to come), and only while the admin queue is empty (the
// batch in hand is taken before anything else, so admin commands would otherwise wait).
localparam [1:0] P_NONE = 2'd0, P_READING = 2'd1, P_READY = 2'd2;
reg  [1:0]    prefetch;
reg  [2047:0] prefetch_batch;
reg           prefetch_unreadable;
reg  [2:0]    prefetch_count;
assign read_dwords = {fetch_count, 4'd0};

reg [11:0] sq_head, sq_tail;
// An asynchronous event waiting for an Asynchronous Event Request to complete
reg        event_pending;
reg [7:0]  event_information;

wire [11:0] sq_head_next = sq_head == sq_size ? 12'd0 : sq_head + 12'd1;

// The command being executed
// The entry, kept while its command runs (the requester's read data moves on)
reg  [511:0] entry;
wire [7:0]  opcode = entry[7:0];
wire [15:0] cid = entry[31:16];
wire [31:0] nsid = entry[63:32];
wire [63:0] prp1 = entry[255:192];
wire [63:0] prp2 = entry[319:256];
wire [31:0] cdw10 = entry[351:320];
wire [31:0] cdw11 = entry[383:352];
assign io_opcode = opcode;
assign io_nsid = nsid;
assign io_slba = {cdw11, cdw10};
assign io_nlb = entry[399:384];
assign io_prp1 = prp1;
assign io_prp2 = prp2;
assign io_active = state == S_IO;
assign busy = state != S_IDLE || posting || prefetch == P_READING;
assign io_start = state == S_EXECUTE && !entry_unreadable && current_queue != {QUEUE_INDEX_WIDTH{1'b0}};

localparam [2:0] S_IDLE = 3'd0, S_FETCH = 3'd1, S_EXECUTE = 3'd2, S_POST = 3'd3,
                 S_ADMIN_DATA = 3'd5, S_IO = 3'd7;
reg [2:0]  state;
reg [31:0] result;
reg [7:0]  status_code;
reg [2:0]  status_type;
reg [15:0] completion_cid;

// ---- I/O queues: created and deleted by admin commands ----

// Tables indexed by queue ID (entries past QUEUES-1 are never valid)
localparam QUEUE_INDEX_WIDTH = $clog2(QUEUES);
localparam QUEUE_SLOTS = 1 << QUEUE_INDEX_WIDTH;
reg [QUEUE_SLOTS-1:0]       io_cq_valid, io_sq_valid;
reg [63:0]                  io_cq_base [0:QUEUE_SLOTS-1];
reg [63:0]                  io_sq_base [0:QUEUE_SLOTS-1];
reg [15:0]                  io_cq_size [0:QUEUE_SLOTS-1];
reg [15:0]                  io_sq_size [0:QUEUE_SLOTS-1];
reg [QUEUE_INDEX_WIDTH-1:0] io_sq_cqid [0:QUEUE_SLOTS-1];
reg [15:0]                  io_cq_vector [0:QUEUE_SLOTS-1];
reg [15:0]                  io_sq_tail [0:QUEUE_SLOTS-1];
reg [15:0]                  io_cq_head [0:QUEUE_SLOTS-1];
reg [15:0]                  io_sq_head [0:QUEUE_SLOTS-1];
reg [15:0]                  io_cq_tail [0:QUEUE_SLOTS-1];
reg [QUEUE_SLOTS-1:0]       io_cq_phase, io_cq_interrupts;

// The I/O SQ whose command runs (0: the admin queue's), and the next one to look at
reg [QUEUE_INDEX_WIDTH-1:0] current_queue;
reg [QUEUE_INDEX_WIDTH-1:0] next_queue;
reg [QUEUE_INDEX_WIDTH-1:0] prefetch_queue;
// An I/O SQ is ready when it has entries and its CQ has room for one more completion (continuous
// assignments per queue: Icarus does not see array words read inside functions of an always @*)
wire [QUEUE_SLOTS-1:0] sq_ready;
genvar ready_queue;
generate
    for (ready_queue = 0; ready_queue < QUEUE_SLOTS; ready_queue = ready_queue + 1) begin : readiness
        wire [QUEUE_INDEX_WIDTH-1:0] cq = io_sq_cqid[ready_queue];
        wire [15:0] io_tail = io_cq_tail[cq];
        wire [15:0] cq_tail_after = io_tail == io_cq_size[cq] ? 16'd0 : io_tail + 16'd1;
        assign sq_ready[ready_queue] = ready_queue != 0 && ready_queue < QUEUES && io_sq_valid[ready_queue]
                                    && io_sq_head[ready_queue] != io_sq_tail[ready_queue]
                                    && cq_tail_after != io_cq_head[cq];
    end
endgenerate
// Round robin: the first ready SQ at or after next_queue
reg                         io_found;
reg [QUEUE_INDEX_WIDTH-1:0] io_pick;
integer                     pick_scan;
always @* begin
    io_found = 1'b0;
    io_pick = {QUEUE_INDEX_WIDTH{1'b0}};
    for (pick_scan = 2 * QUEUE_SLOTS - 1; pick_scan >= 0; pick_scan = pick_scan - 1) begin
        if (pick_scan >= next_queue && sq_ready[pick_scan % QUEUE_SLOTS]) begin
            io_found = 1'b1;
            io_pick = pick_scan[QUEUE_INDEX_WIDTH-1:0];
        end
    end
end
// How many of the picked SQ's entries one read fetches: those waiting, up to the ring's end and
// to the head's page end (a read never crosses 4 KiB; SQs are page aligned), no more than its CQ
// has room for (so none of them can find the CQ full), at most FETCH_BATCH
wire [QUEUE_INDEX_WIDTH-1:0] pick_cq = io_sq_cqid[io_pick];
wire [15:0] pick_head = io_sq_head[io_pick];
wire [15:0] pick_tail = io_sq_tail[io_pick];
wire [15:0] pick_size = io_sq_size[io_pick];
wire [15:0] pick_cq_head = io_cq_head[pick_cq];
wire [15:0] pick_cq_tail = io_cq_tail[pick_cq];
wire [15:0] pick_cq_size = io_cq_size[pick_cq];
wire [15:0] pick_waiting = pick_tail >= pick_head ? pick_tail - pick_head : pick_tail + pick_size + 16'd1 - pick_head;
wire [15:0] pick_to_end = pick_size + 16'd1 - pick_head;
wire [15:0] pick_to_page = 16'd64 - {10'd0, pick_head[5:0]};
wire [15:0] pick_cq_room = pick_cq_head > pick_cq_tail ? pick_cq_head - pick_cq_tail - 16'd1
                         : pick_cq_head + pick_cq_size - pick_cq_tail;
wire [15:0] pick_limit_sq = pick_waiting < pick_to_end ? pick_waiting : pick_to_end;
wire [15:0] pick_limit_room = pick_to_page < pick_cq_room ? pick_to_page : pick_cq_room;
wire [15:0] pick_limit = pick_limit_sq < pick_limit_room ? pick_limit_sq : pick_limit_room;
wire [2:0]  pick_count = pick_limit > FETCH_BATCH ? FETCH_BATCH[2:0] : pick_limit[2:0];
wire [QUEUE_INDEX_WIDTH-1:0] current_cq = io_sq_cqid[current_queue];
wire [15:0] current_sq_head_next = io_sq_head[current_queue] == io_sq_size[current_queue] ? 16'd0
                                 : io_sq_head[current_queue] + 16'd1;

// ---- Admin commands: nvme_admin_command decides, the table changes here ----

wire [31:0] admin_result;
wire [7:0]  admin_status_code;
wire [2:0]  admin_status_type;
wire        admin_waits_for_event, admin_moves_data, admin_data_done;
wire [QUEUE_INDEX_WIDTH-1:0] admin_queue_index, admin_sq_cq_index;
wire        admin_create_cq, admin_create_sq, admin_delete_cq, admin_delete_sq;
wire [15:0] admin_queue_size, admin_queue_vector_or_cq;
wire        admin_queue_interrupts;
wire        event_request_waiting;
wire [15:0] event_request_cid;
wire        event_request_taken;

nvme_admin_command #(
    .QUEUES(QUEUES),
    .DATA_WIDTH(DATA_WIDTH),
    .NAMESPACE_BLOCKS(NAMESPACE_BLOCKS),
    .LBA_SHIFT(LBA_SHIFT),
    .MDTS(MDTS),
    .MAX_QUEUE_ENTRIES(MAX_QUEUE_ENTRIES),
    .VECTORS(VECTORS)
) admin_command_inst (
    .clk(clk), .rst(rst || !enabled),
    .execute(state == S_EXECUTE && !entry_unreadable && current_queue == {QUEUE_INDEX_WIDTH{1'b0}}),
    .opcode(opcode), .cid(cid), .nsid(nsid), .prp1(prp1), .prp2(prp2), .cdw10(cdw10), .cdw11(cdw11),
    .result(admin_result), .status_code(admin_status_code), .status_type(admin_status_type),
    .waits_for_event(admin_waits_for_event), .moves_data(admin_moves_data), .data_done(admin_data_done),
    .queue_index(admin_queue_index), .sq_cq_index(admin_sq_cq_index),
    .queue_cq_valid(io_cq_valid[admin_queue_index]), .queue_sq_valid(io_sq_valid[admin_queue_index]),
    .queue_cq_has_sq(cq_has_sq), .sq_cq_valid(io_cq_valid[admin_sq_cq_index]),
    .create_cq(admin_create_cq), .create_sq(admin_create_sq), .delete_cq(admin_delete_cq), .delete_sq(admin_delete_sq),
    .queue_size(admin_queue_size), .queue_vector_or_cq(admin_queue_vector_or_cq),
    .queue_interrupts(admin_queue_interrupts),
    .bulk_valid(bulk_valid), .bulk_ready(bulk_ready), .bulk_address(bulk_address), .bulk_dwords(bulk_dwords),
    .bulk_source_index(bulk_source_index), .bulk_source_data(bulk_source_data), .bulk_done(bulk_done),
    .event_request_waiting(event_request_waiting), .event_request_cid(event_request_cid),
    .event_request_taken(event_request_taken),
    .interrupt_coalescing_setting(interrupt_coalescing_setting)
);

// An event completes the oldest waiting Asynchronous Event Request when the engine is idle and
// has nothing of a batch in hand (the S_IDLE branch below)
assign event_request_taken = state == S_IDLE && enabled && !stopping && prefetch != P_READY && prefetch != P_READING
                          && batch_left == 3'd0 && !cq_full && event_pending && event_request_waiting;

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

// The doorbell's queue, for I/O queues
wire [QUEUE_INDEX_WIDTH-1:0] doorbell_index = doorbell_queue[QUEUE_INDEX_WIDTH-1:0];
wire        doorbell_io_exists = {25'd0, doorbell_queue} < QUEUE_COUNT
                              && (doorbell_is_cq_head ? io_cq_valid[doorbell_index] : io_sq_valid[doorbell_index]);
wire [15:0] doorbell_io_size = doorbell_is_cq_head ? io_cq_size[doorbell_index] : io_sq_size[doorbell_index];

// A queue just created starts with its tail (SQ) or head (CQ) at 0
reg                         created_sq, created_cq;
reg [QUEUE_INDEX_WIDTH-1:0] created_index;

// A doorbell that moves an SQ's tail (it exists and the value fits), for the counters
assign event_sq_doorbell = doorbell_valid && !doorbell_is_cq_head
                        && (doorbell_queue == 7'd0 ? doorbell_value <= {4'd0, sq_size}
                                                   : doorbell_io_exists && doorbell_value <= doorbell_io_size);
assign sq_doorbell_queue = doorbell_index;
assign event_fetch = read_valid && read_ready;
assign fetch_queue = prefetch == P_READING ? prefetch_queue : current_queue;
assign event_command_admin = current_queue == {QUEUE_INDEX_WIDTH{1'b0}};
assign event_command_unreadable = entry_unreadable;

// ---- Completions: posted in slot order by nvme_cq_post ----

// An entry is posted when a command ends (S_POST, or an NVM command's end in S_IO) and the
// previous entry is out; a released Write's slot is taken when it is released
wire in_io_post = state == S_IO && !io_released && (io_done || io_finished);
wire post_now = post_free && (state == S_POST || in_io_post);
wire release_now = state == S_IO && io_released;
wire post_admin = current_queue == {QUEUE_INDEX_WIDTH{1'b0}};
// The CQ head doorbell of the admin queue, once its value is checked (below)
wire admin_cq_head_valid = doorbell_valid && doorbell_queue == 7'd0 && doorbell_is_cq_head
                        && doorbell_value <= {4'd0, cq_size};

nvme_cq_post cq_post_inst (
    .clk(clk), .rst(rst || !enabled), .enabled(enabled),
    .cq_size(cq_size), .cq_base(cq_base),
    .cq_head_valid(admin_cq_head_valid), .cq_head_value(doorbell_value[11:0]), .cq_full(cq_full),
    .post(post_now), .hold_drain_slot(release_now), .post_admin(post_admin),
    .post_cid(completion_cid),
    .post_sqid(post_admin ? 16'd0 : {{(16-QUEUE_INDEX_WIDTH){1'b0}}, current_queue}),
    .post_sq_head(post_admin ? {4'd0, sq_head} : io_sq_head[current_queue]),
    .post_status_code(in_io_post ? (io_done ? io_status_code : io_result) : status_code),
    .post_status_type(in_io_post ? `NVME_SCT_GENERIC : status_type),
    .post_result(result),
    .io_slot_address(io_cq_base[current_cq] + {44'd0, io_cq_tail[current_cq], 4'd0}),
    .io_slot_phase(io_cq_phase[current_cq]),
    .io_vector(io_cq_vector[current_cq][4:0]),
    .io_interrupts(io_cq_interrupts[current_cq]),
    .drain_done(io_drain_done), .drain_status(io_drain_status),
    .post_free(post_free), .drain_pending(drain_pending), .posting(posting),
    .write_valid(write_valid), .write_ready(write_ready), .write_address(write_address), .write_data(write_data),
    .write_done(write_done), .interrupt_request(interrupt_request), .interrupt_vector(interrupt_vector),
    .interrupt_admin(interrupt_admin),
    .event_post(event_post), .event_completion(event_completion),
    .completion_status_code(completion_status_code), .completion_status_type(completion_status_type),
    .completion_drained(completion_drained)
);

// Doorbells: check the queue exists and the value fits its size
always @(posedge clk) begin
    if (created_sq) begin
        io_sq_tail[created_index] <= 16'd0;
    end
    if (created_cq) begin
        io_cq_head[created_index] <= 16'd0;
    end
    if (doorbell_valid) begin
        if (doorbell_queue != 7'd0) begin
            if (!doorbell_io_exists) begin
                event_pending <= 1'b1;
                event_information <= `NVME_EVENT_INVALID_DOORBELL_REGISTER;
            end else if (doorbell_value > doorbell_io_size) begin
                event_pending <= 1'b1;
                event_information <= `NVME_EVENT_INVALID_DOORBELL_VALUE;
            end else if (doorbell_is_cq_head) begin
                io_cq_head[doorbell_index] <= doorbell_value;
            end else begin
                io_sq_tail[doorbell_index] <= doorbell_value;
            end
        end else if (doorbell_value > {4'd0, doorbell_is_cq_head ? cq_size : sq_size}) begin
            event_pending <= 1'b1;
            event_information <= `NVME_EVENT_INVALID_DOORBELL_VALUE;
        end else if (!doorbell_is_cq_head) begin
            sq_tail <= doorbell_value[11:0];  // (the CQ head is nvme_cq_post's: admin_cq_head_valid)
        end
    end
    if (invalid_doorbell && enabled) begin
        event_pending <= 1'b1;
        event_information <= `NVME_EVENT_INVALID_DOORBELL_REGISTER;
    end
    // The event is handed to a waiting request (below) when its completion is posted
    if (state == S_IDLE && event_pending && event_request_waiting && !cq_full && enabled) begin
        event_pending <= 1'b0;
    end
    if (rst || !enabled) begin
        sq_tail <= 12'd0;
        event_pending <= 1'b0;
    end
end

always @(posedge clk) begin
    event_command <= 1'b0;
    created_sq <= 1'b0;
    created_cq <= 1'b0;
    if (read_valid && read_ready) begin
        read_valid <= 1'b0;
    end
    if (io_done) begin
        io_finished <= 1'b1;
        io_result <= io_status_code;
    end
    if (state == S_IO && batch_left == 3'd0 && prefetch == P_NONE && !read_valid && enabled && !stopping
            && sq_head == sq_tail && !event_pending && io_found && io_pick != current_queue
            && pick_cq != current_cq) begin
        prefetch_queue <= io_pick;
        prefetch_count <= pick_count;
        fetch_picked_batch();
        prefetch <= P_READING;
    end
    // (read_done while read_valid is up answers a read issued before a disable: not ours)
    if (prefetch == P_READING && read_done && !read_valid) begin
        prefetch_batch <= read_data;
        prefetch_unreadable <= read_error;
        prefetch <= P_READY;
    end

    case (state)
        S_IDLE: begin
            if (enabled && !stopping) begin
                if (prefetch == P_READY) begin
                    take_prefetched_batch();
                end else if (prefetch == P_READING) begin
                    // its entries come first
                end else if (batch_left != 3'd0) begin
                    take_batch_entry();
                end else if (event_request_taken) begin
                    completion_cid <= event_request_cid;
                    result <= {8'd0, `NVME_LOG_ERROR_INFORMATION, event_information, 5'd0, `NVME_EVENT_TYPE_ERROR};
                    status_code <= `NVME_SC_SUCCESS;
                    status_type <= `NVME_SCT_GENERIC;
                    // An admin completion, whichever queue ran last
                    current_queue <= {QUEUE_INDEX_WIDTH{1'b0}};
                    state <= S_POST;
                end else if (!cq_full && sq_head != sq_tail) begin
                    // (after a draining Write: an admin command may delete its queues)
                    if (!drain_pending) begin
                        current_queue <= {QUEUE_INDEX_WIDTH{1'b0}};
                        read_address <= sq_base + {46'd0, sq_head, 6'd0};
                        fetch_count <= 3'd1;
                        read_valid <= 1'b1;
                        state <= S_FETCH;
                    end
                end else if (io_found) begin
                    current_queue <= io_pick;
                    fetch_picked_batch();
                    state <= S_FETCH;
                end
            end
        end
        S_FETCH: begin
            if (read_done && !read_valid) begin
                begin_batch(read_data, read_error, fetch_count);
                if (current_queue == {QUEUE_INDEX_WIDTH{1'b0}}) begin
                    sq_head <= sq_head_next;
                end else begin
                    io_sq_head[current_queue] <= current_sq_head_next;
                end
            end
        end
        S_IO: begin
            // (posted by nvme_cq_post: release or post)
            if (io_released) begin
                take_io_cq_slot();
                next_command();
            end else if ((io_done || io_finished) && post_free) begin
                io_finished <= 1'b0;
                take_io_cq_slot();
                next_command();
            end
        end
        S_EXECUTE: begin
            event_command <= 1'b1;
            completion_cid <= cid;
            result <= 32'd0;
            status_code <= `NVME_SC_SUCCESS;
            status_type <= `NVME_SCT_GENERIC;
            state <= S_POST;
            if (entry_unreadable) begin
                // The entry could not be read: its CID is unknown, so the host sees 0
                completion_cid <= 16'd0;
                status_code <= `NVME_SC_DATA_TRANSFER_ERROR;
            end else if (current_queue != {QUEUE_INDEX_WIDTH{1'b0}}) begin
                // An NVM command: nvme_io_command takes it this cycle (io_start)
                state <= S_IO;
            end else begin
                result <= admin_result;
                status_code <= admin_status_code;
                status_type <= admin_status_type;
                if (admin_waits_for_event) begin
                    state <= S_IDLE;
                end else if (admin_moves_data) begin
                    state <= S_ADMIN_DATA;
                end
            end
        end
        S_ADMIN_DATA: begin
            if (admin_data_done) begin
                state <= S_POST;
            end
        end
        default: begin  // S_POST
            if (post_free) begin
                if (current_queue != {QUEUE_INDEX_WIDTH{1'b0}}) begin
                    take_io_cq_slot();
                end
                state <= S_IDLE;
            end
        end
    endcase

    if (admin_create_cq) begin
        io_cq_valid[admin_queue_index] <= 1'b1;
        io_cq_base[admin_queue_index] <= prp1;
        io_cq_size[admin_queue_index] <= admin_queue_size;
        io_cq_vector[admin_queue_index] <= admin_queue_vector_or_cq;
        io_cq_tail[admin_queue_index] <= 16'd0;
        io_cq_phase[admin_queue_index] <= 1'b1;
        io_cq_interrupts[admin_queue_index] <= admin_queue_interrupts;
        created_cq <= 1'b1;
        created_index <= admin_queue_index;
    end
    if (admin_create_sq) begin
        io_sq_valid[admin_queue_index] <= 1'b1;
        io_sq_base[admin_queue_index] <= prp1;
        io_sq_size[admin_queue_index] <= admin_queue_size;
        io_sq_cqid[admin_queue_index] <= admin_sq_cq_index;
        io_sq_head[admin_queue_index] <= 16'd0;
        created_sq <= 1'b1;
        created_index <= admin_queue_index;
    end
    if (admin_delete_sq) begin
        io_sq_valid[admin_queue_index] <= 1'b0;
    end
    if (admin_delete_cq) begin
        io_cq_valid[admin_queue_index] <= 1'b0;
    end

    if (rst || !enabled) begin
        state <= S_IDLE;
        sq_head <= 12'd0;
        io_cq_valid <= {QUEUE_SLOTS{1'b0}};
        io_sq_valid <= {QUEUE_SLOTS{1'b0}};
        current_queue <= {QUEUE_INDEX_WIDTH{1'b0}};
        next_queue <= {QUEUE_INDEX_WIDTH{1'b0}};
        batch_left <= 3'd0;
        prefetch <= P_NONE;
        io_finished <= 1'b0;
        read_valid <= 1'b0;
    end
end

// The read of the picked I/O SQ's next entries; the round robin goes on after that SQ
task fetch_picked_batch;
    begin
        next_queue <= io_pick + 1'b1;
        read_address <= io_sq_base[io_pick] + {42'd0, io_sq_head[io_pick], 6'd0};
        fetch_count <= pick_count;
        read_valid <= 1'b1;
    end
endtask

// A batch read has come back: its first entry now, the rest after it; a failed read is one
// unreadable entry (the rest are fetched again)
task begin_batch(input [2047:0] entries, input unreadable, input [2:0] count);
    begin
        batch <= entries;
        entry <= entries[511:0];
        entry_unreadable <= unreadable;
        batch_next <= 2'd1;
        batch_left <= unreadable ? 3'd0 : count - 3'd1;
        state <= S_EXECUTE;
    end
endtask

// The prefetched batch becomes the one in hand (its SQ's head moves past the first entry)
task take_prefetched_batch;
    begin
        begin_batch(prefetch_batch, prefetch_unreadable, prefetch_count);
        current_queue <= prefetch_queue;
        io_sq_head[prefetch_queue] <= io_sq_head[prefetch_queue] == io_sq_size[prefetch_queue] ? 16'd0
                                    : io_sq_head[prefetch_queue] + 16'd1;
        prefetch <= P_NONE;
    end
endtask

// The batch's next entry (its CQ's room was counted when it was fetched)
task take_batch_entry;
    begin
        entry <= batch[512 * batch_next +: 512];
        entry_unreadable <= 1'b0;
        batch_next <= batch_next + 2'd1;
        batch_left <= batch_left - 3'd1;
        io_sq_head[current_queue] <= current_sq_head_next;
        state <= S_EXECUTE;
    end
endtask

// After an I/O command: a batch goes straight on to its next entry (or the prefetched batch)
// while the completion is sent
task next_command;
    begin
        if (batch_left != 3'd0 && !stopping) begin
            take_batch_entry();
        end else if (prefetch == P_READY && !stopping) begin
            take_prefetched_batch();
        end else begin
            state <= S_IDLE;
        end
    end
endtask

// The current I/O queue's CQ slot is taken (its tail moves on, the phase flips on a wrap)
task take_io_cq_slot;
    begin
        io_cq_tail[current_cq] <= io_cq_tail[current_cq] == io_cq_size[current_cq] ? 16'd0
                                : io_cq_tail[current_cq] + 16'd1;
        if (io_cq_tail[current_cq] == io_cq_size[current_cq]) begin
            io_cq_phase[current_cq] <= !io_cq_phase[current_cq];
        end
    end
endtask

endmodule

`resetall
