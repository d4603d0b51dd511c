// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// The log pages Get Log Page returns: Error Information, SMART / Health Information and Firmware Slot Information, a beat of dwords at a time
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "nvme_defs.vh"

// Layouts from the NVMe base specification 1.4 (docs/reference/nvme.md):
// - Error Information (01h): 64 bytes per entry, newest first; an entry's Error Count (bytes 7:0,
//   0 = unused), SQID (9:8), CID (11:10), Status Field (13:12), Parameter Error Location (15:14,
//   FFFFh: not tied to a field); LBA, namespace and the rest 0. An unused entry is all 0.
// - SMART / Health (02h, 512 bytes): Critical Warning (byte 0), Composite Temperature in kelvin
//   (2:1), Available Spare 100 % (3) over its threshold of 10 % (4), Percentage Used 0 (5), Data
//   Units Read (47:32) and Written (63:48) in thousands of 512-byte units, Host Read (79:64) and
//   Write (95:80) Commands, Number of Error Information Log Entries (191:176). Nothing survives a
//   reset here, so power cycles, power-on hours, unsafe shutdowns and media errors are 0.
// - Firmware Slot (03h, 512 bytes): AFI (byte 0: slot 1 active) and slot 1's revision (15:8).
// Dwords past a page's end are 0: the host may ask for more than the page holds.
// Combinational: the caller's bulk write asks for the dwords from first_dword on.
module nvme_log_page_data #(
    // Width of one beat of the bulk write: DATA_WIDTH/32 dwords of the page (256 or 512)
    parameter DATA_WIDTH = 512,
    // The composite temperature reported, in kelvin
    parameter [15:0] TEMPERATURE_KELVIN = 16'd313
) (
    input  wire [7:0]   log_id,
    input  wire [10:0]  first_dword,
    input  wire [`NVME_ERROR_LOG_ENTRIES*`NVME_ERROR_ENTRY_BITS-1:0] error_entries,  // newest first
    input  wire [31:0]  error_count,
    input  wire [7:0]   critical_warning,
    input  wire [47:0]  data_units_read,
    input  wire [47:0]  data_units_written,
    input  wire [47:0]  host_read_commands,
    input  wire [47:0]  host_write_commands,
    output wire [DATA_WIDTH-1:0] dwords        // first_dword in lane 0, the next in lane 1, ...
);

initial begin
    if (DATA_WIDTH != 256 && DATA_WIDTH != 512) begin
        $error("Error: DATA_WIDTH must be 256 or 512 (instance %m)");
        $finish;
    end
end

localparam ENTRIES = `NVME_ERROR_LOG_ENTRIES;
localparam [7:0] AVAILABLE_SPARE_PERCENT = 8'd100, SPARE_THRESHOLD_PERCENT = 8'd10;
localparam [7:0] ACTIVE_SLOT_1 = 8'h01;
localparam [8*8-1:0] FIRMWARE = `NVME_FIRMWARE_REVISION;

// The 8 ASCII bytes of the revision as two little-endian dwords (first character lowest)
function [31:0] revision_dword(input integer first);
    integer position;
    begin
        for (position = 0; position < 4; position = position + 1)
            revision_dword[8*position +: 8] = FIRMWARE[8*(7 - first - position) +: 8];
    end
endfunction

// Dword `index` of a page (everything it reads is passed in, so that Icarus re-evaluates the
// continuous assignments below when any of it changes)
function [31:0] page_dword(input [7:0] page, input [11:0] index,
                           input [ENTRIES*`NVME_ERROR_ENTRY_BITS-1:0] entries, input [31:0] errors,
                           input [7:0] warning, input [47:0] units_read, input [47:0] units_written,
                           input [47:0] reads, input [47:0] writes);
    reg [`NVME_ERROR_ENTRY_BITS-1:0] entry;  // {status field, CID, SQID, error count}
    begin
        page_dword = 32'd0;
        entry = entries[`NVME_ERROR_ENTRY_BITS*(index[11:4] % ENTRIES) +: `NVME_ERROR_ENTRY_BITS];
        if (page == `NVME_LOG_ERROR_INFORMATION) begin
            if (index < ENTRIES * 16) begin
                case (index[3:0])
                    4'd0: page_dword = entry[31:0];                   // Error Count
                    4'd2: page_dword = entry[63:32];                  // CID, SQID
                    // Parameter Error Location (none: FFFFh, in a used entry), Status Field
                    4'd3: page_dword = {entry[31:0] != 32'd0 ? 16'hFFFF : 16'h0000, entry[79:64]};
                    default: ;
                endcase
            end
        end else if (page == `NVME_LOG_SMART_HEALTH) begin
            case (index)
                12'd0: page_dword = {AVAILABLE_SPARE_PERCENT, TEMPERATURE_KELVIN, warning};
                12'd1: page_dword = {24'd0, SPARE_THRESHOLD_PERCENT};
                12'd8: page_dword = units_read[31:0];
                12'd9: page_dword = {16'd0, units_read[47:32]};
                12'd12: page_dword = units_written[31:0];
                12'd13: page_dword = {16'd0, units_written[47:32]};
                12'd16: page_dword = reads[31:0];
                12'd17: page_dword = {16'd0, reads[47:32]};
                12'd20: page_dword = writes[31:0];
                12'd21: page_dword = {16'd0, writes[47:32]};
                12'd44: page_dword = errors;
                default: ;
            endcase
        end else if (page == `NVME_LOG_FIRMWARE_SLOT) begin
            if (index == 12'd0) page_dword = {24'd0, ACTIVE_SLOT_1};
            else if (index == 12'd2) page_dword = revision_dword(0);
            else if (index == 12'd3) page_dword = revision_dword(4);
        end
    end
endfunction

genvar lane;
generate
    for (lane = 0; lane < DATA_WIDTH / 32; lane = lane + 1) begin : lanes
        assign dwords[32*lane +: 32] = page_dword(log_id, {1'b0, first_dword} + lane[11:0], error_entries, error_count,
                                                  critical_warning, data_units_read, data_units_written,
                                                  host_read_commands, host_write_commands);
    end
endgenerate

endmodule

`resetall
