// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// One admin command's checks and effects: Identify (with its data), Create/Delete I/O CQ and SQ, Set/Get Features, Abort, Asynchronous Event Request
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "nvme_defs.vh"

// Facts from docs/reference/nvme.md (NVMe base specification):
// - Identify: CNS 01h controller, 00h namespace (NSID 1 only, Invalid Namespace 0Bh otherwise),
//   02h active namespace list above NSID; 4 KiB to PRP1 and, when PRP1 has an offset, the rest
//   to PRP2. PRP1 must be dword aligned and PRP2 page aligned when used (PRP Offset Invalid 13h).
// - Create I/O CQ/SQ: CDW10 QID and size (0-based), CDW11 PC, IEN (CQ) and the vector (CQ) or
//   CQ (SQ). Checked as the specification orders: QID (Invalid Queue Identifier), size (Invalid
//   Queue Size), contiguity (CAP.CQR: Invalid Field), vector (Invalid Interrupt Vector) or CQ
//   (Completion Queue Invalid), base alignment (PRP Offset Invalid).
// - Delete I/O SQ/CQ: the queue must exist; a CQ with an SQ on it cannot be deleted (Invalid
//   Queue Deletion).
// - Set/Get Features: Number of Queues (07h; Set asks for counts, 0-based, 0xFFFF invalid; both
//   answer with the queues the controller has) and Interrupt Coalescing (08h).
// - Abort is answered "not aborted" (DW0 bit 0).
// - Asynchronous Event Request: up to 4 outstanding (Identify AERL + 1), completed oldest first,
//   one per event; a fifth is refused with Asynchronous Event Request Limit Exceeded.
// Every other opcode completes with Invalid Opcode.
// The queue engine holds the entry and pulses execute in the cycle it executes it. What the
// command decides (its completion's DW0 and status, whether it completes now, later or after its
// data, the I/O queue it creates or deletes) is combinational on the entry, so the engine takes
// it in that cycle; this module keeps the state admin commands own (Feature 08h, the waiting
// event requests, the Identify transfer). A new admin command is one more case below.
module nvme_admin_command #(
    // Queue pairs of the controller, the admin one included (Number of Queues reports QUEUES-1)
    parameter QUEUES = 17,
    // Width of the bulk data source (one beat of the PCIe requester: 256 or 512)
    parameter DATA_WIDTH = 512,
    // Namespace 1: its size in logical blocks and the block size, 2^LBA_SHIFT bytes (9 to 12)
    parameter [63:0] NAMESPACE_BLOCKS = 64'd2048,
    parameter [7:0] LBA_SHIFT = 8'd9,
    // Identify Controller MDTS: largest transfer 2^MDTS pages of 4 KiB
    parameter [7:0] MDTS = 8'd5,
    // Largest I/O queue, in entries (CAP.MQES + 1: 2 to 65536)
    parameter MAX_QUEUE_ENTRIES = 1024,
    // MSI-X vectors a CQ may name
    parameter VECTORS = 32
) (
    input  wire         clk,
    input  wire         rst,            // also while the controller is disabled

    // The entry in hand, executed in the cycle of execute
    input  wire         execute,
    input  wire [7:0]   opcode,
    input  wire [15:0]  cid,
    input  wire [31:0]  nsid,
    input  wire [63:0]  prp1,
    input  wire [63:0]  prp2,
    input  wire [31:0]  cdw10,
    input  wire [31:0]  cdw11,

    // Its completion: DW0 and status, and when it is posted (now, unless it waits for an event
    // or for its data)
    output reg  [31:0]  result,
    output reg  [7:0]   status_code,
    output reg  [2:0]   status_type,
    output wire         waits_for_event,  // an accepted Asynchronous Event Request: no completion now
    output wire         moves_data,       // an accepted Identify: the completion after data_done
    output wire         data_done,        // the Identify data is written (one cycle)

    // The I/O queue table: the queue the command names, what the table says of it, and the
    // change the command makes (one cycle, with execute)
    output wire [$clog2(QUEUES)-1:0] queue_index,
    output wire [$clog2(QUEUES)-1:0] sq_cq_index,    // the CQ a Create I/O SQ names
    input  wire         queue_cq_valid,
    input  wire         queue_sq_valid,
    input  wire         queue_cq_has_sq,  // an SQ still posts to the CQ queue_index
    input  wire         sq_cq_valid,
    output wire         create_cq,
    output wire         create_sq,
    output wire         delete_cq,
    output wire         delete_sq,
    output wire [15:0]  queue_size,       // entries - 1
    output wire [15:0]  queue_vector_or_cq,
    output wire         queue_interrupts, // a CQ's IEN

    // Bulk writes of Identify data, the data from nvme_identify_data
    output reg          bulk_valid,
    input  wire         bulk_ready,
    output reg  [63:0]  bulk_address,
    output reg  [10:0]  bulk_dwords,
    input  wire [10:0]  bulk_source_index,
    output wire [DATA_WIDTH-1:0] bulk_source_data,
    input  wire         bulk_done,

    // Asynchronous Event Requests waiting for an event; the engine takes the oldest when it
    // completes it
    output wire         event_request_waiting,
    output wire [15:0]  event_request_cid,
    input  wire         event_request_taken,

    output wire [15:0]  interrupt_coalescing_setting  // Feature 08h as the host set it
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
end

localparam QUEUE_INDEX_WIDTH = $clog2(QUEUES);
localparam [15:0] MQES = MAX_QUEUE_ENTRIES - 1;
localparam [31:0] QUEUE_COUNT = QUEUES;
localparam [15:0] IO_QUEUES_ZERO_BASED = QUEUE_COUNT[15:0] - 16'd2;
localparam EVENT_REQUEST_LIMIT = 4;  // Identify AERL + 1

reg [31:0] interrupt_coalescing;
assign interrupt_coalescing_setting = interrupt_coalescing[15:0];

reg [15:0] event_request_cids [0:EVENT_REQUEST_LIMIT-1];  // oldest first
reg [2:0]  event_requests;
assign event_request_waiting = event_requests != 3'd0;
assign event_request_cid = event_request_cids[0];

// Create/Delete: CDW10 QID and size (0-based), CDW11 PC, and the vector (CQ) or CQ (SQ)
wire [15:0] queue_id = cdw10[15:0];
wire        queue_contiguous = cdw11[0];
wire        queue_id_exists = queue_id != 16'd0 && {16'd0, queue_id} < QUEUE_COUNT;
assign queue_size = cdw10[31:16];
assign queue_vector_or_cq = cdw11[31:16];
assign queue_interrupts = cdw11[1];
assign queue_index = queue_id[QUEUE_INDEX_WIDTH-1:0];
assign sq_cq_index = queue_vector_or_cq[QUEUE_INDEX_WIDTH-1:0];

wire [7:0] cns = cdw10[7:0];
wire       cns_supported = cns == `NVME_CNS_CONTROLLER || cns == `NVME_CNS_NAMESPACE || cns == `NVME_CNS_ACTIVE_NAMESPACES;
wire       identify_namespace_exists = cns != `NVME_CNS_NAMESPACE || nsid == 32'd1;
// PRP1 may start inside its page (dword aligned); the rest goes to PRP2, which must then be
// page aligned
wire       identify_prps_aligned = prp1[1:0] == 2'd0 && (prp1[11:0] == 12'd0 || prp2[11:0] == 12'd0);
wire       identify_accepted = cns_supported && identify_namespace_exists && identify_prps_aligned;
wire       event_request_accepted = event_requests != EVENT_REQUEST_LIMIT;

// The command's outcome; a create or delete that passes every check has succeeded
always @* begin
    result = 32'd0;
    status_code = `NVME_SC_SUCCESS;
    status_type = `NVME_SCT_GENERIC;
    case (opcode)
        `NVME_ADMIN_SET_FEATURES, `NVME_ADMIN_GET_FEATURES: begin
            if (cdw10[7:0] == `NVME_FEATURE_NUMBER_OF_QUEUES) begin
                if (opcode == `NVME_ADMIN_SET_FEATURES && (cdw11[15:0] == 16'hFFFF || cdw11[31:16] == 16'hFFFF)) begin
                    status_code = `NVME_SC_INVALID_FIELD;
                end else begin
                    result = {IO_QUEUES_ZERO_BASED, IO_QUEUES_ZERO_BASED};
                end
            end else if (cdw10[7:0] == `NVME_FEATURE_INTERRUPT_COALESCING) begin
                if (opcode != `NVME_ADMIN_SET_FEATURES) begin
                    result = interrupt_coalescing;
                end
            end else begin
                status_code = `NVME_SC_INVALID_FIELD;
            end
        end
        `NVME_ADMIN_IDENTIFY: begin
            if (!cns_supported) begin
                status_code = `NVME_SC_INVALID_FIELD;
            end else if (!identify_namespace_exists) begin
                status_code = `NVME_SC_INVALID_NAMESPACE;
            end else if (!identify_prps_aligned) begin
                status_code = `NVME_SC_PRP_OFFSET_INVALID;
            end
        end
        `NVME_ADMIN_CREATE_CQ: begin
            if (!queue_id_exists || queue_cq_valid) begin
                status_type = `NVME_SCT_COMMAND_SPECIFIC;
                status_code = `NVME_SC_INVALID_QID;
            end else if (queue_size == 16'd0 || queue_size > MQES) begin
                status_type = `NVME_SCT_COMMAND_SPECIFIC;
                status_code = `NVME_SC_INVALID_QUEUE_SIZE;
            end else if (!queue_contiguous) begin
                status_code = `NVME_SC_INVALID_FIELD;  // CAP.CQR: queues must be contiguous
            end else if (cdw11[1] && queue_vector_or_cq >= VECTORS) begin
                status_type = `NVME_SCT_COMMAND_SPECIFIC;
                status_code = `NVME_SC_INVALID_VECTOR;
            end else if (prp1[11:0] != 12'd0) begin
                status_code = `NVME_SC_PRP_OFFSET_INVALID;
            end
        end
        `NVME_ADMIN_CREATE_SQ: begin
            if (!queue_id_exists || queue_sq_valid) begin
                status_type = `NVME_SCT_COMMAND_SPECIFIC;
                status_code = `NVME_SC_INVALID_QID;
            end else if (queue_size == 16'd0 || queue_size > MQES) begin
                status_type = `NVME_SCT_COMMAND_SPECIFIC;
                status_code = `NVME_SC_INVALID_QUEUE_SIZE;
            end else if (!queue_contiguous) begin
                status_code = `NVME_SC_INVALID_FIELD;
            end else if (queue_vector_or_cq == 16'd0 || {16'd0, queue_vector_or_cq} >= QUEUE_COUNT || !sq_cq_valid) begin
                status_type = `NVME_SCT_COMMAND_SPECIFIC;
                status_code = `NVME_SC_CQ_INVALID;
            end else if (prp1[11:0] != 12'd0) begin
                status_code = `NVME_SC_PRP_OFFSET_INVALID;
            end
        end
        `NVME_ADMIN_DELETE_SQ: begin
            if (!queue_id_exists || !queue_sq_valid) begin
                status_type = `NVME_SCT_COMMAND_SPECIFIC;
                status_code = `NVME_SC_INVALID_QID;
            end
        end
        `NVME_ADMIN_DELETE_CQ: begin
            if (!queue_id_exists || !queue_cq_valid) begin
                status_type = `NVME_SCT_COMMAND_SPECIFIC;
                status_code = `NVME_SC_INVALID_QID;
            end else if (queue_cq_has_sq) begin
                status_type = `NVME_SCT_COMMAND_SPECIFIC;
                status_code = `NVME_SC_INVALID_QUEUE_DELETION;
            end
        end
        `NVME_ADMIN_ABORT: result = 32'd1;  // bit 0: the command was not aborted
        `NVME_ADMIN_ASYNC_EVENT_REQUEST: begin
            if (!event_request_accepted) begin
                status_type = `NVME_SCT_COMMAND_SPECIFIC;
                status_code = `NVME_SC_EVENT_REQUEST_LIMIT_EXCEEDED;
            end
        end
        default: status_code = `NVME_SC_INVALID_OPCODE;
    endcase
end

wire succeeded = status_code == `NVME_SC_SUCCESS && status_type == `NVME_SCT_GENERIC;
assign create_cq = execute && opcode == `NVME_ADMIN_CREATE_CQ && succeeded;
assign create_sq = execute && opcode == `NVME_ADMIN_CREATE_SQ && succeeded;
assign delete_cq = execute && opcode == `NVME_ADMIN_DELETE_CQ && succeeded;
assign delete_sq = execute && opcode == `NVME_ADMIN_DELETE_SQ && succeeded;
assign waits_for_event = opcode == `NVME_ADMIN_ASYNC_EVENT_REQUEST && event_request_accepted;
assign moves_data = opcode == `NVME_ADMIN_IDENTIFY && identify_accepted;

// ---- Identify data: one beat of the structure's dwords at a time, for the bulk write ----

// Which structure, the namespace list's start, the second PRP and its share, where the source is
reg [7:0]  identify_cns;
reg [31:0] identify_start_nsid;
reg [63:0] identify_prp2;
reg [10:0] identify_second_dwords;
reg [10:0] source_base;
// The Identify transfer: none, to PRP1, to PRP2
localparam [1:0] D_NONE = 2'd0, D_FIRST = 2'd1, D_SECOND = 2'd2;
reg [1:0]  data_part;

assign data_done = bulk_done && (data_part == D_SECOND || (data_part == D_FIRST && identify_second_dwords == 11'd0));

nvme_identify_data #(
    .DATA_WIDTH(DATA_WIDTH),
    .NAMESPACE_BLOCKS(NAMESPACE_BLOCKS),
    .LBA_SHIFT(LBA_SHIFT),
    .MDTS(MDTS)
) identify_data_inst (
    .cns(identify_cns), .start_nsid(identify_start_nsid), .first_dword(source_base + bulk_source_index),
    .dwords(bulk_source_data)
);

integer index;
always @(posedge clk) begin
    if (bulk_valid && bulk_ready) begin
        bulk_valid <= 1'b0;
    end
    if (execute && opcode == `NVME_ADMIN_SET_FEATURES && cdw10[7:0] == `NVME_FEATURE_INTERRUPT_COALESCING) begin
        interrupt_coalescing <= {16'd0, cdw11[15:0]};
    end
    if (execute && opcode == `NVME_ADMIN_IDENTIFY) begin
        identify_cns <= cns;
        identify_start_nsid <= nsid;
        identify_prp2 <= prp2;
        identify_second_dwords <= {1'b0, prp1[11:2]};
        if (identify_accepted) begin
            bulk_address <= prp1;
            bulk_dwords <= 11'd1024 - {1'b0, prp1[11:2]};
            bulk_valid <= 1'b1;
            source_base <= 11'd0;
            data_part <= D_FIRST;
        end
    end
    if (execute && waits_for_event) begin
        // Completes when an event happens
        event_request_cids[event_requests[1:0]] <= cid;
        event_requests <= event_requests + 3'd1;
    end
    if (bulk_done) begin
        if (data_part == D_FIRST && identify_second_dwords != 11'd0) begin
            bulk_address <= identify_prp2;
            bulk_dwords <= identify_second_dwords;
            bulk_valid <= 1'b1;
            source_base <= 11'd1024 - identify_second_dwords;
            data_part <= D_SECOND;
        end else begin
            data_part <= D_NONE;
        end
    end
    if (event_request_taken) begin
        for (index = 0; index < EVENT_REQUEST_LIMIT - 1; index = index + 1) begin
            event_request_cids[index] <= event_request_cids[index + 1];
        end
        event_requests <= event_requests - 3'd1;
    end
    if (rst) begin
        event_requests <= 3'd0;
        interrupt_coalescing <= 32'd0;
        bulk_valid <= 1'b0;
        data_part <= D_NONE;
    end
end

endmodule

`resetall
