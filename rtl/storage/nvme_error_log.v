// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// NVMe Error Information log state: the newest ENTRIES errors, newest first, and the lifetime error count
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Facts from docs/reference/nvme.md and docs/storage.md (NVMe 1.4: Get Log Page 01h, SMART bytes
// 191:176):
// - Every completion posted with a non-zero status is an error, and so is every invalid doorbell
//   write; a doorbell error is recorded with SQID FFFFh, CID FFFFh and Status Field 0.
// - Each entry's Error Count is the controller's error count when it was recorded: 1 for the first
//   error since reset, then 2, 3 ...; 0 marks an unused entry, so the count stops at FFFFFFFFh
//   instead of wrapping to 0. error_count is that lifetime count (SMART's Number of Error
//   Information Log Entries).
// - The Status Field is the completion's bits 15:1 (SC 7:0, SCT 10:8, CRD 12:11, M 13, DNR 14)
//   over the phase tag the completion was posted with, in bit 0.
// A command error and a doorbell error in one cycle are both recorded, the doorbell's first (the
// command's is the newer). Each entry is 80 bits at entries[80*i +: 80], entry 0 the newest:
// {status field[15:0], CID[15:0], SQID[15:0], error count[31:0]}; the log page source adds the
// constant fields (Parameter Error Location FFFFh, LBA 0, namespace 0). Everything changes at the
// clock edge that samples the error; reset clears the entries and the count.
module nvme_error_log #(
    // Entries kept (the log page's entries: Identify ELPE + 1)
    parameter ENTRIES = 4
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire                  command_error,    // one cycle: a completion with a non-zero status was posted
    input  wire [15:0]           command_sqid,
    input  wire [15:0]           command_cid,
    input  wire [14:0]           command_status,   // the completion's status field, bits 15:1
    input  wire                  command_phase,    // the phase tag it was posted with
    input  wire                  doorbell_error,   // one cycle: an invalid doorbell write

    output wire [31:0]           error_count,
    output wire [ENTRIES*80-1:0] entries
);

initial begin
    if (ENTRIES < 1 || ENTRIES > 256) begin
        $error("Error: ENTRIES must be 1 to 256 (instance %m)");
        $finish;
    end
end

// The lifetime count (the test bench deposits it near the limit: 2^32 errors take too long to simulate)
reg [31:0] lifetime_count;
assign error_count = lifetime_count;

// The count each error of this cycle is recorded with (the doorbell's first), stopping at FFFFFFFFh
wire [31:0] count_first = lifetime_count == 32'hFFFFFFFF ? lifetime_count : lifetime_count + 32'd1;
wire [31:0] count_second = count_first == 32'hFFFFFFFF ? count_first : count_first + 32'd1;

wire        two_errors = command_error && doorbell_error;
wire [79:0] doorbell_entry = {16'h0000, 16'hFFFF, 16'hFFFF, count_first};
wire [79:0] command_entry = {command_status, command_phase, command_cid, command_sqid,
                             doorbell_error ? count_second : count_first};
// The newest entry when only one error comes
wire [79:0] single_entry = command_error ? command_entry : doorbell_entry;

always @(posedge clk) begin
    if (two_errors) begin
        lifetime_count <= count_second;
    end else if (command_error || doorbell_error) begin
        lifetime_count <= count_first;
    end
    if (rst) begin
        lifetime_count <= 32'd0;
    end
end

// Each entry moves one place older per error recorded: after one error entry i holds what entry
// i - 1 held, after two what entry i - 2 held; the new ones fill the front
genvar slot;
generate
    for (slot = 0; slot < ENTRIES; slot = slot + 1) begin : log_entry
        reg  [79:0] value;
        wire [79:0] after_one;
        wire [79:0] after_two;
        if (slot == 0) begin : newest
            assign after_one = single_entry;
            assign after_two = command_entry;
        end else if (slot == 1) begin : second
            assign after_one = entries[79:0];
            assign after_two = doorbell_entry;
        end else begin : older
            assign after_one = entries[80*(slot-1) +: 80];
            assign after_two = entries[80*(slot-2) +: 80];
        end
        always @(posedge clk) begin
            if (two_errors) begin
                value <= after_two;
            end else if (command_error || doorbell_error) begin
                value <= after_one;
            end
            if (rst) begin
                value <= 80'd0;
            end
        end
        assign entries[80*slot +: 80] = value;
    end
endgenerate

endmodule

`resetall
