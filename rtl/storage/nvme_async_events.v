// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// NVMe asynchronous events: which event the next Asynchronous Event Request reports, and each event type masked from its report until the host reads its log page
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "nvme_defs.vh"

// Facts from docs/reference/nvme.md (NVMe base specification 1.4, Asynchronous Events):
// - Error status events (type 0): an invalid doorbell register or value; explained by the Error
//   Information log (01h). SMART / Health status events (type 1): a critical warning that
//   Asynchronous Event Configuration (Feature 0Bh) enables has come on; explained by the SMART
//   log (02h). Completion DW0: log page in 23:16, information in 15:8, type in 2:0.
// - Once an event of a type is reported, the controller reports no more of that type until the
//   host reads its log page with Retain Asynchronous Event cleared. An event that happens while
//   its type is masked is not reported (the error is in the error log; the warning stays in
//   the SMART log).
// - A SMART event is the warning coming on while Feature 0Bh enables it (not the feature being
//   enabled while the warning is on).
// An error event waiting is reported before a SMART one; an event of a type that already waits
// is dropped (the waiting one's report masks the type anyway; the log holds each error).
module nvme_async_events (
    input  wire         clk,
    input  wire         rst,                  // also while the controller is disabled
    input  wire         doorbell_register_error,  // a write to a doorbell of no queue (one cycle)
    input  wire         doorbell_value_error,     // a doorbell value the queue cannot take (one cycle)
    input  wire [7:0]   critical_warning,     // the SMART log's Critical Warning, as it stands
    input  wire [7:0]   event_config_warnings, // Feature 0Bh: the warnings that raise an event
    input  wire         error_log_read,       // the error log read with RAE cleared (one cycle)
    input  wire         smart_log_read,       // the SMART log read with RAE cleared (one cycle)
    output wire         pending,              // an event waits for an Asynchronous Event Request
    output wire [31:0]  result,               // its completion DW0
    input  wire         taken                 // a request completes with it (one cycle)
);

reg        error_waiting, smart_waiting;
reg [7:0]  error_information;
reg        error_masked, smart_masked;
reg [7:0]  warnings_seen;  // the critical warnings as they stood last cycle

assign pending = error_waiting || smart_waiting;
assign result = error_waiting
              ? {8'd0, `NVME_LOG_ERROR_INFORMATION, error_information, 5'd0, `NVME_EVENT_TYPE_ERROR}
              : {8'd0, `NVME_LOG_SMART_HEALTH, `NVME_EVENT_TEMPERATURE_THRESHOLD, 5'd0, `NVME_EVENT_TYPE_SMART};

wire       taking_error = taken && error_waiting;
wire       taking_smart = taken && !error_waiting && smart_waiting;
wire       warning_rises = (critical_warning & ~warnings_seen & event_config_warnings) != 8'd0;
// An event of a type just reported is masked from this cycle on; one of a type waiting is dropped
wire       error_open = !error_masked && !error_waiting;
wire       smart_open = !smart_masked && !smart_waiting;

always @(posedge clk) begin
    warnings_seen <= critical_warning;
    if (taking_error) begin
        error_waiting <= 1'b0;
        error_masked <= 1'b1;
    end
    if (taking_smart) begin
        smart_waiting <= 1'b0;
        smart_masked <= 1'b1;
    end
    if (error_log_read) begin
        error_masked <= 1'b0;
    end
    if (smart_log_read) begin
        smart_masked <= 1'b0;
    end
    if (error_open && (doorbell_register_error || doorbell_value_error)) begin
        error_waiting <= 1'b1;
        error_information <= doorbell_register_error ? `NVME_EVENT_INVALID_DOORBELL_REGISTER
                                                     : `NVME_EVENT_INVALID_DOORBELL_VALUE;
    end
    if (smart_open && warning_rises) begin
        smart_waiting <= 1'b1;
    end
    if (rst) begin
        error_waiting <= 1'b0;
        smart_waiting <= 1'b0;
        error_masked <= 1'b0;
        smart_masked <= 1'b0;
        warnings_seen <= 8'd0;
    end
end

endmodule

`resetall
