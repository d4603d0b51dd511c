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
// queues they create and delete are kept in nvme_queue_table. An event completes the oldest waiting
// Asynchronous Event Request, one per event.
// I/O queues: when the admin queue has nothing to do, the I/O SQs with entries (and room in their
// CQ) take turns (nvme_sq_arbiter), up to four commands each, fetched in one read; nvme_io_command executes them
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
    parameter VECTORS = 32,
    // The composite temperature the SMART log reports, in kelvin
    parameter [15:0] TEMPERATURE_KELVIN = 16'd313
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
    output wire [VECTORS-1:0] vector_coalescing_disabled, // Feature 09h: vectors never coalesced
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
    output wire [64:0]  io_last_lba,    // SLBA + NLB, in 65 bits (past 2^64 is out of any range)
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

assign write_dwords = 5'd4;
// Every write this engine makes is a completion entry (nvme_cq_post sends them)
// An NVM command ended while the previous completion was still going out
reg    io_finished;
reg  [7:0] io_result;
wire   post_free, drain_pending, posting, cq_full;
assign io_drain_free = !drain_pending;
// Entries fetched together: up to FETCH_BATCH of one I/O SQ in one read (contiguous, within a
// page, no more than its CQ has room for: nvme_queue_table counts them), executed in order before
// any other queue is served. Four: the requester's read data holds four entries.
localparam FETCH_BATCH = 4;
reg  [2:0]    fetch_count;
reg  [2047:0] batch;           // the read's entries, the first in the low bits
reg  [2:0]    batch_left;      // entries of the batch still to execute
reg  [1:0]    batch_next;      // the next one's index
reg           entry_unreadable; // the entry's fetch failed
// The next I/O batch, fetched while the last entry of this one runs, so the host's read latency
// is not paid between batches. Only from an SQ whose CQ is not the running batch's (its room was
// counted without the completions still to come), and only while the admin queue is empty and no
// event can complete a waiting request (the batch in hand is taken before anything else, so
// those would otherwise wait; an event with no request to take it holds nothing up).
localparam [1:0] P_NONE = 2'd0, P_READING = 2'd1, P_READY = 2'd2;
reg  [1:0]    prefetch;
reg  [2047:0] prefetch_batch;
reg           prefetch_unreadable;
reg  [2:0]    prefetch_count;
assign read_dwords = {fetch_count, 4'd0};

reg [11:0] sq_head, sq_tail;
// An asynchronous event waiting for an Asynchronous Event Request to complete (nvme_async_events)
wire        event_pending;
wire [31:0] event_result;

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
wire [31:0] cdw12 = entry[415:384];
wire [31:0] cdw13 = entry[447:416];
// CDW0 FUSE (9:8) and PSDT (15:14): the controller advertises neither fused operations nor SGLs
// (Identify FUSES and SGLS are 0), so either set is Invalid Field, for admin and NVM commands
wire        fused_or_sgl = entry[9:8] != 2'd0 || entry[15:14] != 2'd0;
assign io_opcode = opcode;
assign io_nsid = nsid;
assign io_slba = {cdw11, cdw10};
assign io_nlb = entry[399:384];
// An NVM command's last block, worked out as its entry is taken from the read data: the command's
// range and overlap checks are then compares, not a 65-bit add and a compare in one cycle
reg  [64:0] entry_last_lba;
function [64:0] last_lba_of(input [79:0] slba_and_nlb);  // an entry's bits 399:320 (CDW10-11, CDW12's NLB)
    last_lba_of = {1'b0, slba_and_nlb[63:0]} + {49'd0, slba_and_nlb[79:64]};
endfunction
assign io_last_lba = entry_last_lba;
assign io_prp1 = prp1;
assign io_prp2 = prp2;
assign io_active = state == S_IO;
assign busy = state != S_IDLE || posting || prefetch == P_READING;
assign io_start = state == S_EXECUTE && !entry_unreadable && current_queue != {QUEUE_INDEX_WIDTH{1'b0}} && !fused_or_sgl;

localparam [2:0] S_IDLE = 3'd0, S_FETCH = 3'd1, S_EXECUTE = 3'd2, S_POST = 3'd3,
                 S_ADMIN_DATA = 3'd5, S_IO = 3'd7;
reg [2:0]  state;
reg [31:0] result;
reg [7:0]  status_code;
reg [2:0]  status_type;
reg [15:0] completion_cid;

// ---- I/O queues: the table (nvme_queue_table) and the turns (nvme_sq_arbiter) ----

localparam QUEUE_INDEX_WIDTH = $clog2(QUEUES);
localparam QUEUE_SLOTS = 1 << QUEUE_INDEX_WIDTH;

// The I/O SQ whose command runs (0: the admin queue's), and the one a prefetch reads
reg [QUEUE_INDEX_WIDTH-1:0] current_queue;
reg [QUEUE_INDEX_WIDTH-1:0] prefetch_queue;

wire [QUEUE_SLOTS-1:0]       sq_ready;
wire [3*QUEUE_SLOTS-1:0]     sq_fetch_count;
wire                         io_found;
wire [QUEUE_INDEX_WIDTH-1:0] io_pick, pick_cq;
wire [2:0]                   pick_count;
wire [63:0]                  pick_sq_head_address;
wire [QUEUE_INDEX_WIDTH-1:0] current_cq;
wire [15:0]                  current_sq_head;
wire [63:0]                  current_cq_slot_address;
wire                         current_cq_phase, current_cq_interrupts;
wire [4:0]                   current_cq_vector;
wire                         doorbell_io_exists, doorbell_io_value_fits;

// ---- Admin commands: nvme_admin_command decides, nvme_queue_table keeps the queues ----

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
wire        admin_queue_cq_valid, admin_queue_sq_valid, admin_queue_cq_has_sq, admin_sq_cq_valid;
wire        error_log_read, smart_log_read;
wire [7:0]  critical_warning, event_config_warnings;
// What the log pages report (nvme_error_log, nvme_io_statistics, below)
wire [`NVME_ERROR_LOG_ENTRIES*`NVME_ERROR_ENTRY_BITS-1:0] error_entries;
wire [31:0] error_count;
wire [47:0] data_units_read, data_units_written, host_read_commands, host_write_commands;

nvme_admin_command #(
    .QUEUES(QUEUES),
    .DATA_WIDTH(DATA_WIDTH),
    .NAMESPACE_BLOCKS(NAMESPACE_BLOCKS),
    .LBA_SHIFT(LBA_SHIFT),
    .MDTS(MDTS),
    .MAX_QUEUE_ENTRIES(MAX_QUEUE_ENTRIES),
    .VECTORS(VECTORS),
    .TEMPERATURE_KELVIN(TEMPERATURE_KELVIN)
) admin_command_inst (
    .clk(clk), .rst(rst || !enabled),
    .execute(state == S_EXECUTE && !entry_unreadable && current_queue == {QUEUE_INDEX_WIDTH{1'b0}}),
    .opcode(opcode), .fused_or_sgl(fused_or_sgl), .cid(cid), .nsid(nsid), .prp1(prp1), .prp2(prp2), .cdw10(cdw10),
    .cdw11(cdw11), .cdw12(cdw12), .cdw13(cdw13),
    .result(admin_result), .status_code(admin_status_code), .status_type(admin_status_type),
    .waits_for_event(admin_waits_for_event), .moves_data(admin_moves_data), .data_done(admin_data_done),
    .queue_index(admin_queue_index), .sq_cq_index(admin_sq_cq_index),
    .queue_cq_valid(admin_queue_cq_valid), .queue_sq_valid(admin_queue_sq_valid),
    .queue_cq_has_sq(admin_queue_cq_has_sq), .sq_cq_valid(admin_sq_cq_valid),
    .create_cq(admin_create_cq), .create_sq(admin_create_sq), .delete_cq(admin_delete_cq), .delete_sq(admin_delete_sq),
    .queue_size(admin_queue_size), .queue_vector_or_cq(admin_queue_vector_or_cq),
    .queue_interrupts(admin_queue_interrupts),
    .bulk_valid(bulk_valid), .bulk_ready(bulk_ready), .bulk_address(bulk_address), .bulk_dwords(bulk_dwords),
    .bulk_source_index(bulk_source_index), .bulk_source_data(bulk_source_data), .bulk_done(bulk_done),
    .event_request_waiting(event_request_waiting), .event_request_cid(event_request_cid),
    .event_request_taken(event_request_taken),
    .error_entries(error_entries), .error_count(error_count),
    .data_units_read(data_units_read), .data_units_written(data_units_written),
    .host_read_commands(host_read_commands), .host_write_commands(host_write_commands),
    .error_log_read(error_log_read), .smart_log_read(smart_log_read),
    .critical_warning(critical_warning), .event_config_warnings(event_config_warnings),
    .interrupt_coalescing_setting(interrupt_coalescing_setting),
    .vector_coalescing_disabled(vector_coalescing_disabled)
);

// ---- What the engine starts this cycle ----
// Named once for the state machine below and for nvme_queue_table and nvme_sq_arbiter, which move
// heads, tails and turns on the same decisions.

// The entries of a fetch are in (read_done while read_valid is up answers a read issued before a
// disable: not ours)
wire entries_arrive = state == S_FETCH && read_done && !read_valid;
// An NVM command's end is handed to nvme_cq_post: a released Write's slot, or its completion
wire io_command_ends = state == S_IO && (io_released || ((io_done || io_finished) && post_free));
wire idle_starts = state == S_IDLE && enabled && !stopping;
// Idle with nothing of a batch in hand (a batch being prefetched comes first, once it is in)
wire idle_free = idle_starts && prefetch == P_NONE && batch_left == 3'd0;
// The next entry of the batch in hand, or the prefetched batch once the batch is done: when idle,
// or straight after an NVM command while its completion is sent
wire take_batch_entry_now = batch_left != 3'd0 && ((io_command_ends && !stopping) || (idle_starts && prefetch == P_NONE));
wire take_prefetched = prefetch == P_READY && (idle_starts || (io_command_ends && !stopping && batch_left == 3'd0));
// An event completes the oldest waiting Asynchronous Event Request, before any fetch
assign event_request_taken = idle_free && !cq_full && event_pending && event_request_waiting;
// The admin SQ has entries and its CQ room: served before the I/O SQs
wire admin_sq_waiting = !cq_full && sq_head != sq_tail;
wire idle_fetches_pick = idle_free && !event_request_taken && !admin_sq_waiting && io_found;
// The next batch, read while the last entry of this one runs (see prefetch above)
wire prefetch_starts = state == S_IO && batch_left == 3'd0 && prefetch == P_NONE && !read_valid && enabled && !stopping
                    && sq_head == sq_tail && !(event_pending && event_request_waiting) && io_found
                    && io_pick != current_queue
                    && pick_cq != current_cq;

// An I/O SQ's head moves past each entry taken (one per cycle: these are exclusive branches of
// the state machine); the running I/O command's CQ slot is taken when its completion is handed over
wire sq_head_advance = take_prefetched || take_batch_entry_now
                    || (entries_arrive && current_queue != {QUEUE_INDEX_WIDTH{1'b0}});
wire [QUEUE_INDEX_WIDTH-1:0] sq_head_advance_queue = take_prefetched ? prefetch_queue : current_queue;
wire cq_slot_take = io_command_ends || (state == S_POST && post_free && current_queue != {QUEUE_INDEX_WIDTH{1'b0}});

nvme_queue_table #(
    .QUEUES(QUEUES),
    .FETCH_BATCH(FETCH_BATCH)
) queue_table_inst (
    .clk(clk), .rst(rst || !enabled),
    .admin_queue_index(admin_queue_index), .admin_sq_cq_index(admin_sq_cq_index),
    .admin_queue_cq_valid(admin_queue_cq_valid), .admin_queue_sq_valid(admin_queue_sq_valid),
    .admin_queue_cq_has_sq(admin_queue_cq_has_sq), .admin_sq_cq_valid(admin_sq_cq_valid),
    .create_cq(admin_create_cq), .create_sq(admin_create_sq), .delete_cq(admin_delete_cq), .delete_sq(admin_delete_sq),
    .queue_base(prp1), .queue_size(admin_queue_size), .queue_vector_or_cq(admin_queue_vector_or_cq),
    .queue_interrupts(admin_queue_interrupts),
    .doorbell_valid(doorbell_valid), .doorbell_queue(doorbell_queue), .doorbell_is_cq_head(doorbell_is_cq_head),
    .doorbell_value(doorbell_value),
    .doorbell_io_exists(doorbell_io_exists), .doorbell_io_value_fits(doorbell_io_value_fits),
    .sq_ready(sq_ready), .sq_fetch_count(sq_fetch_count),
    .pick_queue(io_pick), .pick_cq(pick_cq), .pick_sq_head_address(pick_sq_head_address),
    .current_queue(current_queue), .current_cq(current_cq), .current_sq_head(current_sq_head),
    .current_cq_slot_address(current_cq_slot_address), .current_cq_phase(current_cq_phase),
    .current_cq_vector(current_cq_vector), .current_cq_interrupts(current_cq_interrupts),
    .sq_head_advance(sq_head_advance), .sq_head_advance_queue(sq_head_advance_queue),
    .cq_slot_take(cq_slot_take), .cq_slot_take_cq(current_cq)
);

nvme_sq_arbiter #(
    .QUEUES(QUEUES)
) sq_arbiter_inst (
    .clk(clk), .rst(rst || !enabled),
    .sq_ready(sq_ready), .sq_fetch_count(sq_fetch_count), .found(io_found), .pick(io_pick),
    .pick_taken(prefetch_starts || idle_fetches_pick), .pick_count(pick_count)
);

// A doorbell that moves an SQ's tail (it exists and the value fits), for the counters
assign event_sq_doorbell = doorbell_valid && !doorbell_is_cq_head
                        && (doorbell_queue == 7'd0 ? doorbell_value <= {4'd0, sq_size}
                                                   : doorbell_io_exists && doorbell_io_value_fits);
assign sq_doorbell_queue = doorbell_queue[QUEUE_INDEX_WIDTH-1:0];
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
    .post_sq_head(post_admin ? {4'd0, sq_head} : current_sq_head),
    .post_status_code(in_io_post ? (io_done ? io_status_code : io_result) : status_code),
    .post_status_type(in_io_post ? `NVME_SCT_GENERIC : status_type),
    .post_result(result),
    .io_slot_address(current_cq_slot_address),
    .io_slot_phase(current_cq_phase),
    .io_vector(current_cq_vector),
    .io_interrupts(current_cq_interrupts),
    .drain_done(io_drain_done), .drain_status(io_drain_status),
    .post_free(post_free), .drain_pending(drain_pending), .posting(posting),
    .write_valid(write_valid), .write_ready(write_ready), .write_address(write_address), .write_data(write_data),
    .write_done(write_done), .interrupt_request(interrupt_request), .interrupt_vector(interrupt_vector),
    .interrupt_admin(interrupt_admin),
    .event_post(event_post), .event_completion(event_completion),
    .completion_status_code(completion_status_code), .completion_status_type(completion_status_type),
    .completion_drained(completion_drained)
);

// Doorbells: a bad one (no such queue, a value past its size) becomes an event and an error log
// entry; a good one of an I/O queue moves nvme_queue_table's tail or head, one of the admin queue
// moves sq_tail here or nvme_cq_post's CQ head
wire doorbell_register_error = (doorbell_valid && doorbell_queue != 7'd0 && !doorbell_io_exists)
                            || (invalid_doorbell && enabled);
wire doorbell_value_error = doorbell_valid && (doorbell_queue != 7'd0
                          ? doorbell_io_exists && !doorbell_io_value_fits
                          : doorbell_value > {4'd0, doorbell_is_cq_head ? cq_size : sq_size});

always @(posedge clk) begin
    if (doorbell_valid && doorbell_queue == 7'd0 && !doorbell_is_cq_head && !doorbell_value_error) begin
        sq_tail <= doorbell_value[11:0];  // (the CQ head is nvme_cq_post's: admin_cq_head_valid)
    end
    if (rst || !enabled) begin
        sq_tail <= 12'd0;
    end
end

// The event is handed over exactly when a waiting request takes it (its completion is then
// posted); its type is masked from then until the host reads the type's log page
nvme_async_events async_events_inst (
    .clk(clk), .rst(rst || !enabled),
    .doorbell_register_error(doorbell_register_error), .doorbell_value_error(doorbell_value_error),
    .critical_warning(critical_warning), .event_config_warnings(event_config_warnings),
    .error_log_read(error_log_read), .smart_log_read(smart_log_read),
    .pending(event_pending), .result(event_result), .taken(event_request_taken)
);

// ---- What the log pages report ----

// Every completion handed over with an error status, and every bad doorbell (DW3 of the entry:
// the status field in 31:17, the phase tag in 16, the CID in 15:0; DW2: the SQ ID in 31:16)
wire [14:0] posted_status_field = write_data[127:113];
// The error log and the SMART counters are the controller's life since power-on: a controller
// reset (CC.EN cleared) keeps them
nvme_error_log #(
    .ENTRIES(`NVME_ERROR_LOG_ENTRIES)
) error_log_inst (
    .clk(clk), .rst(rst),
    .command_error(event_completion && posted_status_field[10:0] != 11'd0),
    .command_sqid(write_data[95:80]), .command_cid(write_data[111:96]), .command_status(posted_status_field),
    .command_phase(write_data[112]),
    .doorbell_error(doorbell_register_error || doorbell_value_error),
    .error_count(error_count), .entries(error_entries)
);

// Reads and Writes as they complete: a command's status with io_done, or a released Write's with
// io_drain_done (its block count kept from its release). When both end in one cycle the drained
// Write is counted the next: io_done never comes two cycles running, and a released Write
// drains long after the one before it.
reg        drained_write_waiting;
reg [16:0] drained_write_blocks, released_write_blocks;
reg        drained_write_ok;
wire       count_drained_write = drained_write_waiting && !io_done;
nvme_io_statistics #(
    .LBA_SHIFT(LBA_SHIFT)
) io_statistics_inst (
    .clk(clk), .rst(rst),
    .io_done(io_done || count_drained_write),
    .io_read(io_done && opcode == `NVME_NVM_READ),
    .io_write(io_done ? opcode == `NVME_NVM_WRITE : 1'b1),
    .io_success(io_done ? io_status_code == `NVME_SC_SUCCESS : drained_write_ok),
    .io_blocks(io_done ? {1'b0, io_nlb} + 17'd1 : drained_write_blocks),
    .data_units_read(data_units_read), .data_units_written(data_units_written),
    .host_read_commands(host_read_commands), .host_write_commands(host_write_commands)
);

always @(posedge clk) begin
    if (count_drained_write) begin
        drained_write_waiting <= 1'b0;
    end
    if (io_released) begin
        released_write_blocks <= {1'b0, io_nlb} + 17'd1;
    end
    if (io_drain_done) begin
        drained_write_waiting <= 1'b1;
        drained_write_blocks <= released_write_blocks;
        drained_write_ok <= io_drain_status == `NVME_SC_SUCCESS;
    end
    if (rst || !enabled) begin
        drained_write_waiting <= 1'b0;
    end
end

always @(posedge clk) begin
    event_command <= 1'b0;
    if (read_valid && read_ready) begin
        read_valid <= 1'b0;
    end
    if (io_done) begin
        io_finished <= 1'b1;
        io_result <= io_status_code;
    end
    if (prefetch_starts) begin
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
            if (take_prefetched) begin
                take_prefetched_batch();
            end else if (take_batch_entry_now) begin
                take_batch_entry();
            end else if (idle_free) begin
                if (event_request_taken) begin
                    completion_cid <= event_request_cid;
                    result <= event_result;
                    status_code <= `NVME_SC_SUCCESS;
                    status_type <= `NVME_SCT_GENERIC;
                    // An admin completion, whichever queue ran last
                    current_queue <= {QUEUE_INDEX_WIDTH{1'b0}};
                    state <= S_POST;
                end else if (admin_sq_waiting) begin
                    // (after a draining Write: an admin command may delete its queues)
                    if (!drain_pending) begin
                        current_queue <= {QUEUE_INDEX_WIDTH{1'b0}};
                        read_address <= sq_base + {46'd0, sq_head, 6'd0};
                        fetch_count <= 3'd1;
                        read_valid <= 1'b1;
                        state <= S_FETCH;
                    end
                end else if (idle_fetches_pick) begin
                    current_queue <= io_pick;
                    fetch_picked_batch();
                    state <= S_FETCH;
                end
            end
        end
        S_FETCH: begin
            // (an I/O SQ's head moves in nvme_queue_table: sq_head_advance)
            if (entries_arrive) begin
                begin_batch(read_data, read_error, fetch_count);
                if (current_queue == {QUEUE_INDEX_WIDTH{1'b0}}) begin
                    sq_head <= sq_head_next;
                end
            end
        end
        S_IO: begin
            // (posted by nvme_cq_post, release or post; the CQ slot is taken in nvme_queue_table)
            if (io_command_ends) begin
                if (!io_released) begin
                    io_finished <= 1'b0;
                end
                // A batch goes straight on to its next entry (or the prefetched batch) while the
                // completion is sent
                if (take_batch_entry_now) begin
                    take_batch_entry();
                end else if (take_prefetched) begin
                    take_prefetched_batch();
                end else begin
                    state <= S_IDLE;
                end
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
                if (fused_or_sgl) begin
                    // Neither fused commands nor SGLs are supported: nothing is executed
                    status_code <= `NVME_SC_INVALID_FIELD;
                end else begin
                    // An NVM command: nvme_io_command takes it this cycle (io_start)
                    state <= S_IO;
                end
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
        default: begin  // S_POST (an I/O queue's CQ slot is taken in nvme_queue_table)
            if (post_free) begin
                state <= S_IDLE;
            end
        end
    endcase

    if (rst || !enabled) begin
        state <= S_IDLE;
        sq_head <= 12'd0;
        current_queue <= {QUEUE_INDEX_WIDTH{1'b0}};
        batch_left <= 3'd0;
        prefetch <= P_NONE;
        io_finished <= 1'b0;
        read_valid <= 1'b0;
    end
end

// The read of the picked I/O SQ's next entries (nvme_sq_arbiter's turn moves on: pick_taken)
task fetch_picked_batch;
    begin
        read_address <= pick_sq_head_address;
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
        entry_last_lba <= last_lba_of(entries[399:320]);
        entry_unreadable <= unreadable;
        batch_next <= 2'd1;
        batch_left <= unreadable ? 3'd0 : count - 3'd1;
        state <= S_EXECUTE;
    end
endtask

// The prefetched batch becomes the one in hand (its SQ's head moves past the first entry:
// sq_head_advance)
task take_prefetched_batch;
    begin
        begin_batch(prefetch_batch, prefetch_unreadable, prefetch_count);
        current_queue <= prefetch_queue;
        prefetch <= P_NONE;
    end
endtask

// The batch's next entry (its CQ's room was counted when it was fetched; its SQ's head moves:
// sq_head_advance)
task take_batch_entry;
    begin
        entry <= batch[512 * batch_next +: 512];
        entry_last_lba <= last_lba_of(batch[512 * batch_next + 320 +: 80]);
        entry_unreadable <= 1'b0;
        batch_next <= batch_next + 2'd1;
        batch_left <= batch_left - 3'd1;
        state <= S_EXECUTE;
    end
endtask

endmodule

`resetall
