// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// NVMe controller counters: commands by opcode, errors by status, bytes moved and four latencies, behind their CSRs
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "nvme_defs.vh"

// Every input is a one-cycle event from the queue engine, the NVM command or the MSI-X sender;
// this module only watches. Latencies are measured from a cycle stamp taken at the start event:
// - fetch: an SQ tail doorbell to that SQ's next entry fetch request. Each SQ keeps the stamp of
//   its first doorbell since its last fetch (later doorbells before the fetch do not restart it).
// - post: an NVM command's last data beat to its completion entry handed to the requester (the
//   same cycle when the entry waited for the data to leave).
// - interrupt: a completion's interrupt request (its entry is at the IP) to the MSI-X message.
// - command: an entry's fetch request (the batch's, for entries fetched together) to its
//   completion entry posted (built and queued for the requester, which may still be sending
//   the previous one).
// The engine executes one command at a time, posts each before the next fetch, and sends a
// completion before the next command's data, so one stamp each suffices; a start with no stop
// (an Asynchronous Event Request held open) is overwritten by the next start.
module nvme_counters #(
    // Queue slots the doorbell and fetch events can name (a power of two)
    parameter QUEUE_SLOTS = 32,
    // Width of the CSR offset: the generated register block decodes 13 bits
    parameter ADDR_WIDTH = 13
) (
    input  wire                           clk,
    input  wire                           rst,

    input  wire [ADDR_WIDTH-1:0]          s_axil_awaddr,
    input  wire                           s_axil_awvalid,
    output wire                           s_axil_awready,
    input  wire [31:0]                    s_axil_wdata,
    input  wire [3:0]                     s_axil_wstrb,
    input  wire                           s_axil_wvalid,
    output wire                           s_axil_wready,
    output wire [1:0]                     s_axil_bresp,
    output wire                           s_axil_bvalid,
    input  wire                           s_axil_bready,
    input  wire [ADDR_WIDTH-1:0]          s_axil_araddr,
    input  wire                           s_axil_arvalid,
    output wire                           s_axil_arready,
    output wire [31:0]                    s_axil_rdata,
    output wire [1:0]                     s_axil_rresp,
    output wire                           s_axil_rvalid,
    input  wire                           s_axil_rready,

    // An entry was fetched and its command starts: the admin queue's, or an I/O one by opcode
    input  wire                           command_event,
    input  wire                           command_admin,
    input  wire                           command_unreadable,
    input  wire [7:0]                     command_opcode,
    // A completion entry was handed to the requester, with its status
    input  wire                           post_event,       // a completion entry built (queued for the requester)
    input  wire                           release_event,    // a Write drains: its completion comes later, first
    input  wire                           completion_event,
    input  wire [2:0]                     completion_status_type,
    input  wire [7:0]                     completion_status_code,
    // A piece of NVM command data was handed on, to the host (Read) or to the namespace (Write)
    input  wire                           data_event,
    input  wire                           data_to_host,
    input  wire [12:0]                    data_bytes,
    input  wire                           data_last_event,
    // A released Write's last data, and its completion entry (handed over with completion_drained)
    input  wire                           drain_data_last_event,
    input  wire                           completion_drained,
    input  wire                           sq_doorbell_event,
    input  wire [$clog2(QUEUE_SLOTS)-1:0] sq_doorbell_queue,
    input  wire                           fetch_event,
    input  wire [$clog2(QUEUE_SLOTS)-1:0] fetch_queue,
    input  wire                           interrupt_request_event,
    input  wire                           interrupt_sent_event
);

initial begin
    if (QUEUE_SLOTS < 2 || (QUEUE_SLOTS & (QUEUE_SLOTS - 1)) != 0) begin
        $error("Error: QUEUE_SLOTS must be a power of two, 2 or more (instance %m)");
        $finish;
    end
    if (ADDR_WIDTH != 13) begin
        $error("Error: ADDR_WIDTH must be 13, the generated register block's (instance %m)");
        $finish;
    end
end

// Every event and what comes with it, registered once on the way in: the counters and latency
// sums (32-bit carry chains) then start from registers, not from the end of the engine's
// decisions that raise the events. Starts and stops lag alike, so latencies are unchanged; counts
// appear a cycle after their event.
reg                           command_event_seen, command_admin_seen, command_unreadable_seen;
reg  [7:0]                    command_opcode_seen;
reg                           post_event_seen, release_event_seen, completion_event_seen;
reg  [2:0]                    completion_status_type_seen;
reg  [7:0]                    completion_status_code_seen;
reg                           data_event_seen, data_to_host_seen, data_last_event_seen;
reg  [12:0]                   data_bytes_seen;
reg                           drain_data_last_event_seen, completion_drained_seen;
reg                           sq_doorbell_event_seen, fetch_event_seen;
reg  [$clog2(QUEUE_SLOTS)-1:0] sq_doorbell_queue_seen, fetch_queue_seen;
reg                           interrupt_request_event_seen, interrupt_sent_event_seen;

always @(posedge clk) begin
    {command_event_seen, command_admin_seen, command_unreadable_seen, command_opcode_seen} <=
        {command_event, command_admin, command_unreadable, command_opcode};
    {post_event_seen, release_event_seen, completion_event_seen, completion_status_type_seen,
     completion_status_code_seen} <= {post_event, release_event, completion_event, completion_status_type,
                                      completion_status_code};
    {data_event_seen, data_to_host_seen, data_bytes_seen, data_last_event_seen} <=
        {data_event, data_to_host, data_bytes, data_last_event};
    {drain_data_last_event_seen, completion_drained_seen} <= {drain_data_last_event, completion_drained};
    {sq_doorbell_event_seen, sq_doorbell_queue_seen, fetch_event_seen, fetch_queue_seen} <=
        {sq_doorbell_event, sq_doorbell_queue, fetch_event, fetch_queue};
    {interrupt_request_event_seen, interrupt_sent_event_seen} <= {interrupt_request_event, interrupt_sent_event};
    if (rst) begin
        {command_event_seen, post_event_seen, release_event_seen, completion_event_seen, data_event_seen,
         data_last_event_seen, drain_data_last_event_seen, sq_doorbell_event_seen, fetch_event_seen,
         interrupt_request_event_seen, interrupt_sent_event_seen} <= 11'd0;
    end
end

wire clear;
reg  [31:0] cycles, active_cycles, first_fetch_cycle;
reg         first_fetch_seen;

always @(posedge clk) begin
    cycles <= cycles + 32'd1;
    if (fetch_event_seen && !first_fetch_seen) begin
        first_fetch_seen <= 1'b1;
        first_fetch_cycle <= cycles;
    end
    if (completion_event_seen && first_fetch_seen) begin
        active_cycles <= cycles - first_fetch_cycle + 32'd1;
    end
    if (rst || clear) begin
        cycles <= 32'd0;
        active_cycles <= 32'd0;
        first_fetch_seen <= 1'b0;
    end
end

// ---- Events by cause: commands by opcode, completions by status, bytes by direction ----

localparam EVENTS = 19;
localparam [4:0] E_ADMIN = 5'd0, E_READ = 5'd1, E_WRITE = 5'd2, E_FLUSH = 5'd3, E_WRITE_ZEROES = 5'd4,
                 E_OTHER = 5'd5, E_COMPLETIONS = 5'd6, E_ERRORS = 5'd7, E_INVALID_OPCODE = 5'd8,
                 E_INVALID_FIELD = 5'd9, E_DATA_TRANSFER = 5'd10, E_INTERNAL = 5'd11, E_INVALID_NAMESPACE = 5'd12,
                 E_PRP_OFFSET = 5'd13, E_LBA_RANGE = 5'd14, E_COMMAND_SPECIFIC = 5'd15, E_STATUS_OTHER = 5'd16,
                 E_READ_BYTES = 5'd17, E_WRITE_BYTES = 5'd18;

// The one counter a command counts in
reg [4:0] command_kind;
always @* begin
    if (command_unreadable_seen) command_kind = E_OTHER;
    else if (command_admin_seen) command_kind = E_ADMIN;
    else case (command_opcode_seen)
        `NVME_NVM_READ: command_kind = E_READ;
        `NVME_NVM_WRITE: command_kind = E_WRITE;
        `NVME_NVM_FLUSH: command_kind = E_FLUSH;
        `NVME_NVM_WRITE_ZEROES: command_kind = E_WRITE_ZEROES;
        default: command_kind = E_OTHER;
    endcase
end

// The error counter a completion's status counts in (E_COMPLETIONS: none, it succeeded)
reg [4:0] status_kind;
always @* begin
    if (completion_status_type_seen == `NVME_SCT_COMMAND_SPECIFIC) status_kind = E_COMMAND_SPECIFIC;
    else if (completion_status_type_seen != `NVME_SCT_GENERIC) status_kind = E_STATUS_OTHER;
    else case (completion_status_code_seen)
        `NVME_SC_SUCCESS: status_kind = E_COMPLETIONS;
        `NVME_SC_INVALID_OPCODE: status_kind = E_INVALID_OPCODE;
        `NVME_SC_INVALID_FIELD: status_kind = E_INVALID_FIELD;
        `NVME_SC_DATA_TRANSFER_ERROR: status_kind = E_DATA_TRANSFER;
        `NVME_SC_INTERNAL_ERROR: status_kind = E_INTERNAL;
        `NVME_SC_INVALID_NAMESPACE: status_kind = E_INVALID_NAMESPACE;
        `NVME_SC_PRP_OFFSET_INVALID: status_kind = E_PRP_OFFSET;
        `NVME_SC_LBA_OUT_OF_RANGE: status_kind = E_LBA_RANGE;
        default: status_kind = E_STATUS_OTHER;
    endcase
end

reg  [EVENTS*13-1:0] increments;
wire [EVENTS*32-1:0] counts;
integer kind;
always @* begin
    for (kind = 0; kind < EVENTS; kind = kind + 1) begin
        increments[13*kind +: 13] = 13'd0;
        if (command_event_seen && command_kind == kind[4:0]) increments[13*kind +: 13] = 13'd1;
        if (completion_event_seen && (kind[4:0] == E_COMPLETIONS
                                 || (status_kind != E_COMPLETIONS
                                     && (kind[4:0] == E_ERRORS || kind[4:0] == status_kind)))) begin
            increments[13*kind +: 13] = 13'd1;
        end
    end
    if (data_event_seen) begin
        increments[13*(data_to_host_seen ? E_READ_BYTES : E_WRITE_BYTES) +: 13] = data_bytes_seen;
    end
end

event_counters #(
    .COUNT(EVENTS), .WIDTH(32), .INCREMENT_WIDTH(13)
) event_counters_inst (
    .clk(clk), .rst(rst), .clear(clear), .increments(increments), .values(counts)
);

// ---- Latencies ----

reg  [31:0]            doorbell_stamp [0:QUEUE_SLOTS-1];
reg  [QUEUE_SLOTS-1:0] doorbell_waiting;
reg  [31:0]            data_last_stamp, interrupt_stamp;
reg                    data_last_armed, drain_last_armed, interrupt_armed, command_armed, released_armed;
reg  [31:0]            drain_last_stamp;
reg  [31:0]            command_stamp, released_stamp;

always @(posedge clk) begin
    if (sq_doorbell_event_seen && !doorbell_waiting[sq_doorbell_queue_seen]) begin
        doorbell_waiting[sq_doorbell_queue_seen] <= 1'b1;
        doorbell_stamp[sq_doorbell_queue_seen] <= cycles;
    end
    if (fetch_event_seen) begin
        doorbell_waiting[fetch_queue_seen] <= 1'b0;
    end
    // A command's latency runs from its start to its completion entry. A released Write's stamp
    // waits aside while the next command runs; its completion is the next one built.
    if (command_event_seen) begin
        command_stamp <= cycles;
        command_armed <= 1'b1;
    end else if (release_event_seen) begin
        command_armed <= 1'b0;
    end else if (post_event_seen && !released_armed) begin
        command_armed <= 1'b0;
    end
    if (release_event_seen) begin
        released_stamp <= command_stamp;
        released_armed <= 1'b1;
    end else if (post_event_seen) begin
        released_armed <= 1'b0;
    end
    // The last data of the command in hand and of a released Write are kept apart: with one
    // draining, the other's data may end first
    if (completion_event_seen && !completion_drained_seen) begin
        data_last_armed <= 1'b0;
    end else if (data_last_event_seen) begin
        data_last_stamp <= cycles;
        data_last_armed <= 1'b1;
    end
    if (completion_event_seen && completion_drained_seen) begin
        drain_last_armed <= 1'b0;
    end else if (drain_data_last_event_seen) begin
        drain_last_stamp <= cycles;
        drain_last_armed <= 1'b1;
    end
    if (interrupt_request_event_seen && !interrupt_armed) begin
        interrupt_stamp <= cycles;
        interrupt_armed <= 1'b1;
    end else if (interrupt_sent_event_seen) begin
        interrupt_armed <= 1'b0;
    end
    if (rst || clear) begin
        doorbell_waiting <= {QUEUE_SLOTS{1'b0}};
        data_last_armed <= 1'b0;
        drain_last_armed <= 1'b0;
        interrupt_armed <= 1'b0;
        command_armed <= 1'b0;
        released_armed <= 1'b0;
    end
end

wire [31:0] fetch_min, fetch_max, fetch_sum, fetch_count, post_min, post_max, post_sum, post_count,
            interrupt_min, interrupt_max, interrupt_sum, interrupt_count,
            command_min, command_max, command_sum, command_count;

latency_stats fetch_latency_inst (
    .clk(clk), .rst(rst || clear),
    .sample_valid(fetch_event_seen && doorbell_waiting[fetch_queue_seen]), .sample(cycles - doorbell_stamp[fetch_queue_seen]),
    .latency_min(fetch_min), .latency_max(fetch_max), .latency_sum(fetch_sum), .latency_count(fetch_count)
);
latency_stats post_latency_inst (
    .clk(clk), .rst(rst || clear),
    .sample_valid(completion_event_seen && (completion_drained_seen ? drain_last_armed || drain_data_last_event_seen
                                                          : data_last_armed || data_last_event_seen)),
    .sample(completion_drained_seen ? (drain_data_last_event_seen ? 32'd0 : cycles - drain_last_stamp)
                               : (data_last_event_seen ? 32'd0 : cycles - data_last_stamp)),
    .latency_min(post_min), .latency_max(post_max), .latency_sum(post_sum), .latency_count(post_count)
);
latency_stats interrupt_latency_inst (
    .clk(clk), .rst(rst || clear),
    .sample_valid(interrupt_sent_event_seen && interrupt_armed), .sample(cycles - interrupt_stamp),
    .latency_min(interrupt_min), .latency_max(interrupt_max), .latency_sum(interrupt_sum),
    .latency_count(interrupt_count)
);
latency_stats command_latency_inst (
    .clk(clk), .rst(rst || clear),
    .sample_valid(post_event_seen && (released_armed || command_armed)),
    .sample(cycles - (released_armed ? released_stamp : command_stamp)),
    .latency_min(command_min), .latency_max(command_max), .latency_sum(command_sum), .latency_count(command_count)
);

nvme_counters_csr csr_inst (
    .clk(clk), .rst(rst),
    .s_axil_awready(s_axil_awready), .s_axil_awvalid(s_axil_awvalid), .s_axil_awaddr(s_axil_awaddr),
    .s_axil_awprot(3'b000), .s_axil_wready(s_axil_wready), .s_axil_wvalid(s_axil_wvalid),
    .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb), .s_axil_bready(s_axil_bready),
    .s_axil_bvalid(s_axil_bvalid), .s_axil_bresp(s_axil_bresp), .s_axil_arready(s_axil_arready),
    .s_axil_arvalid(s_axil_arvalid), .s_axil_araddr(s_axil_araddr), .s_axil_arprot(3'b000),
    .s_axil_rready(s_axil_rready), .s_axil_rvalid(s_axil_rvalid), .s_axil_rdata(s_axil_rdata),
    .s_axil_rresp(s_axil_rresp),
    .hwif_in_block_next_address(32'd0), .hwif_out_ctrl_clear(clear),
    .hwif_in_cycles_value(cycles), .hwif_in_active_cycles_value(active_cycles),
    .hwif_in_commands_admin_value(counts[32*E_ADMIN +: 32]),
    .hwif_in_commands_read_value(counts[32*E_READ +: 32]),
    .hwif_in_commands_write_value(counts[32*E_WRITE +: 32]),
    .hwif_in_commands_flush_value(counts[32*E_FLUSH +: 32]),
    .hwif_in_commands_write_zeroes_value(counts[32*E_WRITE_ZEROES +: 32]),
    .hwif_in_commands_other_value(counts[32*E_OTHER +: 32]),
    .hwif_in_completions_value(counts[32*E_COMPLETIONS +: 32]), .hwif_in_errors_value(counts[32*E_ERRORS +: 32]),
    .hwif_in_errors_invalid_opcode_value(counts[32*E_INVALID_OPCODE +: 32]),
    .hwif_in_errors_invalid_field_value(counts[32*E_INVALID_FIELD +: 32]),
    .hwif_in_errors_data_transfer_value(counts[32*E_DATA_TRANSFER +: 32]),
    .hwif_in_errors_internal_value(counts[32*E_INTERNAL +: 32]),
    .hwif_in_errors_invalid_namespace_value(counts[32*E_INVALID_NAMESPACE +: 32]),
    .hwif_in_errors_prp_offset_value(counts[32*E_PRP_OFFSET +: 32]),
    .hwif_in_errors_lba_range_value(counts[32*E_LBA_RANGE +: 32]),
    .hwif_in_errors_command_specific_value(counts[32*E_COMMAND_SPECIFIC +: 32]),
    .hwif_in_errors_other_value(counts[32*E_STATUS_OTHER +: 32]),
    .hwif_in_read_bytes_value(counts[32*E_READ_BYTES +: 32]),
    .hwif_in_write_bytes_value(counts[32*E_WRITE_BYTES +: 32]),
    .hwif_in_fetch_latency_min_value(fetch_min), .hwif_in_fetch_latency_max_value(fetch_max),
    .hwif_in_fetch_latency_sum_value(fetch_sum), .hwif_in_fetch_latency_count_value(fetch_count),
    .hwif_in_post_latency_min_value(post_min), .hwif_in_post_latency_max_value(post_max),
    .hwif_in_post_latency_sum_value(post_sum), .hwif_in_post_latency_count_value(post_count),
    .hwif_in_interrupt_latency_min_value(interrupt_min), .hwif_in_interrupt_latency_max_value(interrupt_max),
    .hwif_in_interrupt_latency_sum_value(interrupt_sum), .hwif_in_interrupt_latency_count_value(interrupt_count),
    .hwif_in_command_latency_min_value(command_min), .hwif_in_command_latency_max_value(command_max),
    .hwif_in_command_latency_sum_value(command_sum), .hwif_in_command_latency_count_value(command_count)
);

endmodule

`resetall
