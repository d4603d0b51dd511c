// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// One admin command's checks and effects: Identify and Get Log Page (with their data), Create/Delete I/O CQ and SQ, Set/Get Features, Abort, Asynchronous Event Request
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "nvme_defs.vh"

// Facts from docs/reference/nvme.md (NVMe base specification 1.4):
// - Every command: FUSE or PSDT set is Invalid Field before anything else (the controller
//   advertises neither fused operations nor SGLs).
// - Identify: CNS 01h controller, 00h namespace and 03h its identification descriptors (NSID 1
//   only, Invalid Namespace 0Bh otherwise), 02h active namespace list above NSID (FFFFFFFEh and
//   FFFFFFFFh: Invalid Namespace); 4 KiB to PRP1 and, when PRP1 has an offset, the rest to PRP2.
//   PRP1 must be dword aligned and PRP2 page aligned when used (PRP Offset Invalid 13h).
// - Get Log Page: LID, RAE and NUMDL in CDW10, NUMDU in CDW11, the byte offset in CDW12/13;
//   pages 01h error information, 02h SMART/health (controller-wide: NSID 0 or FFFFFFFFh) and 03h
//   firmware slot (nvme_log_page_data). Checked in order: the page (Invalid Log Page, SCT 1
//   09h), SMART's NSID, the offset (dword aligned, inside the page), the length (4 KiB at most:
//   no page is longer), then the PRPs as for Identify. NUMD dwords from the offset go to the
//   host, zeros past the page's end. A read with RAE cleared lets that page's event type be
//   reported again (nvme_async_events).
// - Create I/O CQ/SQ: CDW10 QID and size (0-based), CDW11 PC, IEN (CQ) and the vector (CQ) or
//   CQ (SQ). Checked as the specification orders: QID (Invalid Queue Identifier), size (Invalid
//   Queue Size), contiguity (CAP.CQR: Invalid Field), vector (Invalid Interrupt Vector) or CQ
//   (Completion Queue Invalid), base alignment (PRP Offset Invalid).
// - Delete I/O SQ/CQ: the queue must exist; a CQ with an SQ on it cannot be deleted (Invalid
//   Queue Deletion).
// - Set/Get Features: the mandatory features and Interrupt Coalescing. Set with SV is Feature
//   Identifier Not Saveable (ONCS has no Save); Get's SEL answers the current value, the default
//   (also for "saved": nothing is saved) or the capabilities (changeable). Arbitration 01h,
//   Power Management 02h (power state 0 only), Temperature Threshold 04h (the composite sensor:
//   TMPSEL 0 or Fh; over and under thresholds), Error Recovery 05h (TLER; no DULBE), Number of
//   Queues 07h (Set asks for counts, 0-based, FFFFh invalid, and after an I/O queue has been
//   created is a Command Sequence Error; both answer with the queues the controller has),
//   Interrupt Coalescing 08h, Interrupt Vector Configuration 09h (a vector's Coalescing
//   Disable; admin completions are never coalesced anyway), Write Atomicity Normal 0Ah, Asynchronous
//   Event Configuration 0Bh (which SMART critical warnings raise an event). Every other
//   feature (Volatile Write Cache 06h included: VWC is 0) is Invalid Field.
// - Abort is answered "not aborted" (DW0 bit 0).
// - Asynchronous Event Request: up to 4 outstanding (Identify AERL + 1), completed oldest first,
//   one per event; a fifth is refused with Asynchronous Event Request Limit Exceeded.
// Every other opcode completes with Invalid Opcode.
// The queue engine holds the entry and pulses execute in the cycle it executes it. What the
// command decides (its completion's DW0 and status, whether it completes now, later or after its
// data, the I/O queue it creates or deletes) is combinational on the entry, so the engine takes
// it in that cycle; this module keeps the state admin commands own (the features, the waiting
// event requests, the Identify or log page transfer). A new admin command is one more case below.
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
    parameter VECTORS = 32,
    // The composite temperature the SMART log reports, in kelvin (the board has no sensor)
    parameter [15:0] TEMPERATURE_KELVIN = 16'd313
) (
    input  wire         clk,
    input  wire         rst,            // also while the controller is disabled

    // The entry in hand, executed in the cycle of execute
    input  wire         execute,
    input  wire [7:0]   opcode,
    input  wire         fused_or_sgl,   // CDW0 FUSE or PSDT is not 0
    input  wire [15:0]  cid,
    input  wire [31:0]  nsid,
    input  wire [63:0]  prp1,
    input  wire [63:0]  prp2,
    input  wire [31:0]  cdw10,
    input  wire [31:0]  cdw11,
    input  wire [31:0]  cdw12,
    input  wire [31:0]  cdw13,

    // Its completion: DW0 and status, and when it is posted (now, unless it waits for an event
    // or for its data)
    output reg  [31:0]  result,
    output reg  [7:0]   status_code,
    output reg  [2:0]   status_type,
    output wire         waits_for_event,  // an accepted Asynchronous Event Request: no completion now
    output wire         moves_data,       // an accepted Identify or Get Log Page: the completion after data_done
    output wire         data_done,        // its data is written (one cycle)

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

    // Bulk writes of Identify and log page data, the data from nvme_identify_data or
    // nvme_log_page_data
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

    // What the log pages report: the error log's entries and count (nvme_error_log) and the
    // I/O statistics (nvme_io_statistics)
    input  wire [`NVME_ERROR_LOG_ENTRIES*`NVME_ERROR_ENTRY_BITS-1:0] error_entries,
    input  wire [31:0]  error_count,
    input  wire [47:0]  data_units_read,
    input  wire [47:0]  data_units_written,
    input  wire [47:0]  host_read_commands,
    input  wire [47:0]  host_write_commands,
    // A log page read with RAE cleared (one cycle, with execute): that page's event type may be
    // reported again
    output wire         error_log_read,
    output wire         smart_log_read,
    // The SMART critical warning (bit 1: temperature past a threshold) and which warnings raise
    // an event (Feature 0Bh)
    output wire [7:0]   critical_warning,
    output wire [7:0]   event_config_warnings,

    output wire [15:0]  interrupt_coalescing_setting,  // Feature 08h as the host set it
    output wire [VECTORS-1:0] vector_coalescing_disabled // Feature 09h's CD per vector (0: always)
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
localparam VECTOR_INDEX_WIDTH = VECTORS > 1 ? $clog2(VECTORS) : 1;
localparam [10:0] ERROR_LOG_DWORDS = `NVME_ERROR_LOG_ENTRIES * 16;  // 64-byte entries
localparam [15:0] MQES = MAX_QUEUE_ENTRIES - 1;
localparam [31:0] QUEUE_COUNT = QUEUES;
localparam [15:0] IO_QUEUES_ZERO_BASED = QUEUE_COUNT[15:0] - 16'd2;
localparam EVENT_REQUEST_LIMIT = 4;  // Identify AERL + 1

// The features the host may change (Set Features), as it set them
reg [31:0] interrupt_coalescing;
reg [31:0] arbitration;
reg [15:0] over_temperature, under_temperature;  // Feature 04h's thresholds for the composite sensor
reg [15:0] error_recovery_time;                  // Feature 05h TLER
reg        write_atomicity_normal;               // Feature 0Ah DN
reg [7:0]  event_config;                         // Feature 0Bh: the SMART warnings that raise an event
reg [VECTORS-1:0] coalescing_disabled;           // Feature 09h CD per vector (0 by default)
reg        io_queue_created;                     // since the controller was enabled
assign interrupt_coalescing_setting = interrupt_coalescing[15:0];
// Every vector's as the host set it, vector 0's too: I/O CQs may share it, and the admin CQ's
// entries are never coalesced whatever it says (nvme_interrupt_coalescing passes them through)
assign vector_coalescing_disabled = coalescing_disabled;
assign event_config_warnings = event_config;
// Bit 1: the temperature at or past a threshold (greater than or equal to the over threshold,
// less than or equal to the under one)
assign critical_warning = {6'd0, TEMPERATURE_KELVIN >= over_temperature || TEMPERATURE_KELVIN <= under_temperature, 1'b0};

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

// ---- Data to the host: PRP1 from its offset to the page end, the rest to PRP2 ----

// Dwords the command transfers (Identify: 4 KiB; a log page: NUMD), and PRP1's share of them
wire [10:0] prp1_room = 11'd1024 - {1'b0, prp1[11:2]};
wire [31:0] log_dwords_minus_1 = {cdw11[15:0], cdw10[31:16]};       // NUMDU:NUMDL, 0's based
wire [10:0] transfer_dwords = opcode == `NVME_ADMIN_IDENTIFY ? 11'd1024 : log_dwords_minus_1[10:0] + 11'd1;
wire [10:0] first_part = transfer_dwords < prp1_room ? transfer_dwords : prp1_room;
// PRP1 may start inside its page (dword aligned); PRP2, when the data reaches it, must be page
// aligned
wire        prps_aligned = prp1[1:0] == 2'd0 && (transfer_dwords == first_part || prp2[11:0] == 12'd0);

wire [7:0] cns = cdw10[7:0];
wire       cns_supported = cns == `NVME_CNS_CONTROLLER || cns == `NVME_CNS_NAMESPACE || cns == `NVME_CNS_ACTIVE_NAMESPACES
                        || cns == `NVME_CNS_NAMESPACE_DESCRIPTORS;
wire       identify_namespace_exists = cns == `NVME_CNS_CONTROLLER ? 1'b1
                                     : cns == `NVME_CNS_ACTIVE_NAMESPACES ? nsid < 32'hFFFFFFFE : nsid == 32'd1;
wire       identify_accepted = !fused_or_sgl && cns_supported && identify_namespace_exists && prps_aligned;
wire       event_request_accepted = event_requests != EVENT_REQUEST_LIMIT;

// Get Log Page: the page, its size, and the checks in the specification's order
wire [7:0]  log_id = cdw10[7:0];
wire        log_retain_event = cdw10[15];  // RAE
wire [10:0] log_page_dwords = log_id == `NVME_LOG_ERROR_INFORMATION ? ERROR_LOG_DWORDS
                            : log_id == `NVME_LOG_SMART_HEALTH ? `NVME_LOG_SMART_DWORDS
                            : log_id == `NVME_LOG_FIRMWARE_SLOT ? `NVME_LOG_FIRMWARE_DWORDS : 11'd0;
wire        log_supported = log_page_dwords != 11'd0;
wire        log_namespace_valid = log_id != `NVME_LOG_SMART_HEALTH || nsid == 32'd0 || nsid == 32'hFFFFFFFF;
wire        log_offset_valid = cdw13 == 32'd0 && cdw12[1:0] == 2'd0 && cdw12[31:2] < {19'd0, log_page_dwords};
wire        log_length_valid = log_dwords_minus_1 < 32'd1024;
wire        log_accepted = !fused_or_sgl && log_supported && log_namespace_valid && log_offset_valid
                        && log_length_valid && prps_aligned;

// Set/Get Features: the feature, SEL (Get), SV (Set)
wire [7:0]  feature = cdw10[7:0];
wire [2:0]  feature_select = cdw10[10:8];
wire        feature_save = cdw10[31];
wire        feature_supported = feature == `NVME_FEATURE_ARBITRATION || feature == `NVME_FEATURE_POWER_MANAGEMENT
                             || feature == `NVME_FEATURE_TEMPERATURE_THRESHOLD || feature == `NVME_FEATURE_ERROR_RECOVERY
                             || feature == `NVME_FEATURE_NUMBER_OF_QUEUES || feature == `NVME_FEATURE_INTERRUPT_COALESCING
                             || feature == `NVME_FEATURE_INTERRUPT_VECTOR_CONFIG || feature == `NVME_FEATURE_WRITE_ATOMICITY
                             || feature == `NVME_FEATURE_ASYNC_EVENT_CONFIG;
// Temperature Threshold: the composite sensor (TMPSEL 0, or Fh for every sensor) and the over
// (THSEL 0) or under (1) threshold
wire [3:0]  threshold_sensor = cdw11[19:16];
wire [1:0]  threshold_kind = cdw11[21:20];
wire        threshold_valid = (threshold_sensor == 4'h0 || threshold_sensor == 4'hF) && !threshold_kind[1];
// Interrupt Vector Configuration: the vector and its Coalescing Disable
wire [15:0] config_vector = cdw11[15:0];
wire        config_vector_valid = config_vector < VECTORS;
wire [VECTOR_INDEX_WIDTH-1:0] config_vector_index = config_vector[VECTOR_INDEX_WIDTH-1:0];
// A feature's checks for a Set (which also stores it) or a Get
wire        feature_value_valid = feature == `NVME_FEATURE_POWER_MANAGEMENT ? opcode == `NVME_ADMIN_GET_FEATURES || cdw11[7:0] == 8'd0
                               : feature == `NVME_FEATURE_TEMPERATURE_THRESHOLD ? threshold_valid
                               : feature == `NVME_FEATURE_ERROR_RECOVERY ? opcode == `NVME_ADMIN_GET_FEATURES || !cdw11[16]
                               : feature == `NVME_FEATURE_NUMBER_OF_QUEUES ? opcode == `NVME_ADMIN_GET_FEATURES
                                                                             || (cdw11[15:0] != 16'hFFFF && cdw11[31:16] != 16'hFFFF)
                               : feature == `NVME_FEATURE_INTERRUPT_VECTOR_CONFIG ? config_vector_valid
                               : 1'b1;
wire        feature_set_accepted = !fused_or_sgl && opcode == `NVME_ADMIN_SET_FEATURES && feature_supported && !feature_save
                                && feature_value_valid
                                && !(feature == `NVME_FEATURE_NUMBER_OF_QUEUES && io_queue_created);

// A feature's current value and its default, as Get Features answers them in DW0 (a block of
// its own, not a function: Icarus would not see the state a function reads change)
reg [31:0] feature_current, feature_default;
always @* begin
    feature_current = 32'd0;
    feature_default = 32'd0;  // Power Management: power state 0, no workload hint
    case (feature)
        `NVME_FEATURE_ARBITRATION: feature_current = arbitration;
        `NVME_FEATURE_TEMPERATURE_THRESHOLD: begin
            feature_current = {10'd0, threshold_kind, threshold_sensor, threshold_kind[0] ? under_temperature : over_temperature};
            feature_default = {10'd0, threshold_kind, threshold_sensor, threshold_kind[0] ? 16'd0 : `NVME_WARNING_TEMPERATURE};
        end
        `NVME_FEATURE_ERROR_RECOVERY: feature_current = {16'd0, error_recovery_time};
        `NVME_FEATURE_INTERRUPT_COALESCING: feature_current = interrupt_coalescing;
        `NVME_FEATURE_INTERRUPT_VECTOR_CONFIG: begin
            feature_current = {15'd0, coalescing_disabled[config_vector_index], config_vector};
            feature_default = {16'd0, config_vector};
        end
        `NVME_FEATURE_WRITE_ATOMICITY: feature_current = {31'd0, write_atomicity_normal};
        `NVME_FEATURE_ASYNC_EVENT_CONFIG: feature_current = {24'd0, event_config};
        default: ;
    endcase
end

// The command's outcome; a create or delete that passes every check has succeeded
always @* begin
    result = 32'd0;
    status_code = `NVME_SC_SUCCESS;
    status_type = `NVME_SCT_GENERIC;
    case (opcode)
        `NVME_ADMIN_SET_FEATURES, `NVME_ADMIN_GET_FEATURES: begin
            if (!feature_supported) begin
                status_code = `NVME_SC_INVALID_FIELD;
            end else if (opcode == `NVME_ADMIN_SET_FEATURES && feature_save) begin
                status_type = `NVME_SCT_COMMAND_SPECIFIC;
                status_code = `NVME_SC_FEATURE_NOT_SAVEABLE;
            end else if (opcode == `NVME_ADMIN_GET_FEATURES && feature_select > `NVME_SELECT_CAPABILITIES) begin
                status_code = `NVME_SC_INVALID_FIELD;
            end else if (opcode == `NVME_ADMIN_SET_FEATURES && feature == `NVME_FEATURE_NUMBER_OF_QUEUES
                         && io_queue_created) begin
                status_code = `NVME_SC_COMMAND_SEQUENCE_ERROR;
            end else if (opcode == `NVME_ADMIN_GET_FEATURES && feature_select == `NVME_SELECT_CAPABILITIES) begin
                // What the feature is, whatever CDW11 names
                result = `NVME_CAPABILITY_CHANGEABLE;
            end else if (!feature_value_valid) begin
                status_code = `NVME_SC_INVALID_FIELD;
            end else if (feature == `NVME_FEATURE_NUMBER_OF_QUEUES) begin
                // Set answers too, with what the controller has
                result = {IO_QUEUES_ZERO_BASED, IO_QUEUES_ZERO_BASED};
            end else if (opcode == `NVME_ADMIN_GET_FEATURES) begin
                result = feature_select == `NVME_SELECT_CURRENT ? feature_current : feature_default;
            end
        end
        `NVME_ADMIN_IDENTIFY: begin
            if (!cns_supported) begin
                status_code = `NVME_SC_INVALID_FIELD;
            end else if (!identify_namespace_exists) begin
                status_code = `NVME_SC_INVALID_NAMESPACE;
            end else if (!prps_aligned) begin
                status_code = `NVME_SC_PRP_OFFSET_INVALID;
            end
        end
        `NVME_ADMIN_GET_LOG_PAGE: begin
            if (!log_supported) begin
                status_type = `NVME_SCT_COMMAND_SPECIFIC;
                status_code = `NVME_SC_INVALID_LOG_PAGE;
            end else if (!log_namespace_valid || !log_offset_valid || !log_length_valid) begin
                status_code = `NVME_SC_INVALID_FIELD;
            end else if (!prps_aligned) begin
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
    // Checked before the opcode: no command may be fused or use SGLs
    if (fused_or_sgl) begin
        result = 32'd0;
        status_type = `NVME_SCT_GENERIC;
        status_code = `NVME_SC_INVALID_FIELD;
    end
end


wire succeeded = status_code == `NVME_SC_SUCCESS && status_type == `NVME_SCT_GENERIC;
assign create_cq = execute && opcode == `NVME_ADMIN_CREATE_CQ && succeeded;
assign create_sq = execute && opcode == `NVME_ADMIN_CREATE_SQ && succeeded;
assign delete_cq = execute && opcode == `NVME_ADMIN_DELETE_CQ && succeeded;
assign delete_sq = execute && opcode == `NVME_ADMIN_DELETE_SQ && succeeded;
assign waits_for_event = opcode == `NVME_ADMIN_ASYNC_EVENT_REQUEST && event_request_accepted && !fused_or_sgl;
assign moves_data = (opcode == `NVME_ADMIN_IDENTIFY && identify_accepted)
                 || (opcode == `NVME_ADMIN_GET_LOG_PAGE && log_accepted);
wire   log_read_clearing = execute && opcode == `NVME_ADMIN_GET_LOG_PAGE && log_accepted && !log_retain_event;
assign error_log_read = log_read_clearing && log_id == `NVME_LOG_ERROR_INFORMATION;
assign smart_log_read = log_read_clearing && log_id == `NVME_LOG_SMART_HEALTH;

// ---- Identify or log page data: one beat of the structure's dwords at a time, for the bulk write ----

// Which structure, the namespace list's start, the second PRP and its share, where the source is
reg        data_is_log;
reg [7:0]  data_structure;  // the Identify CNS or the log page LID
reg [31:0] identify_start_nsid;
reg [63:0] data_prp2;
reg [10:0] data_second_dwords;
reg [10:0] source_base;
// The transfer: none, to PRP1, to PRP2
localparam [1:0] D_NONE = 2'd0, D_FIRST = 2'd1, D_SECOND = 2'd2;
reg [1:0]  data_part;

assign data_done = bulk_done && (data_part == D_SECOND || (data_part == D_FIRST && data_second_dwords == 11'd0));

wire [10:0] source_index = source_base + bulk_source_index;
// The error log as it stood when the command executed: an error during the transfer must not
// shift the entries under it (the counters cannot move then: admin commands wait for I/O)
reg [`NVME_ERROR_LOG_ENTRIES*`NVME_ERROR_ENTRY_BITS-1:0] held_error_entries;
reg [31:0] held_error_count;
wire [DATA_WIDTH-1:0] identify_dwords, log_dwords;
assign bulk_source_data = data_is_log ? log_dwords : identify_dwords;

nvme_identify_data #(
    .DATA_WIDTH(DATA_WIDTH),
    .NAMESPACE_BLOCKS(NAMESPACE_BLOCKS),
    .LBA_SHIFT(LBA_SHIFT),
    .MDTS(MDTS)
) identify_data_inst (
    .cns(data_structure), .start_nsid(identify_start_nsid), .first_dword(source_index),
    .dwords(identify_dwords)
);

nvme_log_page_data #(
    .DATA_WIDTH(DATA_WIDTH),
    .TEMPERATURE_KELVIN(TEMPERATURE_KELVIN)
) log_page_data_inst (
    .log_id(data_structure), .first_dword(source_index),
    .error_entries(held_error_entries), .error_count(held_error_count), .critical_warning(critical_warning),
    .data_units_read(data_units_read), .data_units_written(data_units_written),
    .host_read_commands(host_read_commands), .host_write_commands(host_write_commands),
    .dwords(log_dwords)
);

integer index;
always @(posedge clk) begin
    if (bulk_valid && bulk_ready) begin
        bulk_valid <= 1'b0;
    end
    if (create_cq || create_sq) begin
        io_queue_created <= 1'b1;
    end
    if (execute && feature_set_accepted) begin
        case (feature)
            `NVME_FEATURE_ARBITRATION: arbitration <= {cdw11[31:8], 5'd0, cdw11[2:0]};
            `NVME_FEATURE_TEMPERATURE_THRESHOLD: begin
                if (threshold_kind[0]) under_temperature <= cdw11[15:0];
                else over_temperature <= cdw11[15:0];
            end
            `NVME_FEATURE_ERROR_RECOVERY: error_recovery_time <= cdw11[15:0];
            `NVME_FEATURE_INTERRUPT_COALESCING: interrupt_coalescing <= {16'd0, cdw11[15:0]};
            `NVME_FEATURE_INTERRUPT_VECTOR_CONFIG: coalescing_disabled[config_vector_index] <= cdw11[16];
            `NVME_FEATURE_WRITE_ATOMICITY: write_atomicity_normal <= cdw11[0];
            `NVME_FEATURE_ASYNC_EVENT_CONFIG: event_config <= cdw11[7:0];
            default: ;  // Power Management and Number of Queues keep nothing
        endcase
    end
    if (execute && moves_data) begin
        held_error_entries <= error_entries;
        held_error_count <= error_count;
        data_is_log <= opcode == `NVME_ADMIN_GET_LOG_PAGE;
        data_structure <= cdw10[7:0];
        identify_start_nsid <= nsid;
        data_prp2 <= prp2;
        data_second_dwords <= transfer_dwords - first_part;
        bulk_address <= prp1;
        bulk_dwords <= first_part;
        bulk_valid <= 1'b1;
        // A log page's data starts at its offset (checked to lie inside the page)
        source_base <= opcode == `NVME_ADMIN_GET_LOG_PAGE ? cdw12[12:2] : 11'd0;
        data_part <= D_FIRST;
    end
    if (execute && waits_for_event) begin
        // Completes when an event happens
        event_request_cids[event_requests[1:0]] <= cid;
        event_requests <= event_requests + 3'd1;
    end
    if (bulk_done) begin
        if (data_part == D_FIRST && data_second_dwords != 11'd0) begin
            bulk_address <= data_prp2;
            bulk_dwords <= data_second_dwords;
            bulk_valid <= 1'b1;
            source_base <= source_base + bulk_dwords;
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
        arbitration <= 32'd0;
        over_temperature <= `NVME_WARNING_TEMPERATURE;
        under_temperature <= 16'd0;
        error_recovery_time <= 16'd0;
        write_atomicity_normal <= 1'b0;
        event_config <= 8'd0;
        coalescing_disabled <= {VECTORS{1'b0}};
        io_queue_created <= 1'b0;
        bulk_valid <= 1'b0;
        data_part <= D_NONE;
    end
end

endmodule

`resetall
