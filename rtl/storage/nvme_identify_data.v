// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// The Identify data structures a controller with one namespace returns: Identify Controller, Identify Namespace, the active namespace list and the namespace identification descriptors, a beat of dwords at a time
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "nvme_defs.vh"

// Offsets and values from the NVMe base specification 1.4 (docs/reference/nvme.md):
// - Identify Controller: VID, SSVID, SN, MN, FR, MDTS, CNTLID, VER, CNTRLTYPE (an I/O
//   controller), OACS (no optional admin commands), ACL, AERL, FRMW (one read-only slot), LPA
//   (Get Log Page takes NUMDU and an offset), ELPE, NPSS (one power state, its MP in descriptor
//   0), WCTEMP, CCTEMP, SQES, CQES, MAXCMD, NN, ONCS (Write Zeroes, which nvme_io_command
//   executes) and SUBNQN, which a 1.4 controller must fill (Linux otherwise makes one up).
// - Identify Namespace: NSZE, NCAP, NUSE, LBA format 0's LBADS, and the NGUID that the
//   identification descriptor list (CNS 03h, mandatory from 1.3) repeats: the host checks that
//   both name the namespace alike.
// Every other field is zero. Combinational: the caller's bulk write asks for the dwords from
// first_dword on.
module nvme_identify_data #(
    // Width of one beat of the bulk write: DATA_WIDTH/32 dwords of the structure (256 or 512)
    parameter DATA_WIDTH = 512,
    // Namespace 1: its size in logical blocks and the block size, 2^LBA_SHIFT bytes (9 to 12)
    parameter [63:0] NAMESPACE_BLOCKS = 64'd2048,
    parameter [7:0] LBA_SHIFT = 8'd9,
    // Largest transfer: 2^MDTS pages of 4 KiB
    parameter [7:0] MDTS = 8'd5
) (
    input  wire [7:0]             cns,          // 00h namespace, 01h controller, 02h active namespaces, 03h descriptors
    input  wire [31:0]            start_nsid,   // the active list starts above this namespace
    input  wire [10:0]            first_dword,
    output wire [DATA_WIDTH-1:0]  dwords        // first_dword in lane 0, the next in lane 1, ...
);

initial begin
    if (DATA_WIDTH != 256 && DATA_WIDTH != 512) begin
        $error("Error: DATA_WIDTH must be 256 or 512 (instance %m)");
        $finish;
    end
    if (LBA_SHIFT < 8'd9 || LBA_SHIFT > 8'd12 || MDTS < 8'd1) begin
        $error("Error: LBA_SHIFT must be 9 to 12 and MDTS 1 or more (instance %m)");
        $finish;
    end
end

localparam [8*20-1:0] SERIAL = "DPUV0001            ";
localparam [8*40-1:0] MODEL = "dpuv NVMe controller                    ";
localparam [8*8-1:0]  FIRMWARE = `NVME_FIRMWARE_REVISION;
localparam [8*40-1:0] SUBSYSTEM_NQN = "nqn.2026-12.io.github.dpuv:nvme:DPUV0001";
// Namespace 1's NGUID as four little-endian dwords, bytes 64 70 75 76 00 .. 00 01 ("dpuv", 1)
localparam [127:0] NAMESPACE_GUID = {32'h01000000, 32'h00000000, 32'h00000000, 32'h76757064};
// A namespace identification descriptor's type (NIDT 02h: an NGUID) and length (NIDL)
localparam [7:0] DESCRIPTOR_NGUID = 8'h02, DESCRIPTOR_NGUID_BYTES = 8'd16;
localparam [15:0] POWER_STATE_0_CENTIWATTS = 16'd2500;
localparam [7:0] ERROR_LOG_LAST_ENTRY = `NVME_ERROR_LOG_ENTRIES - 1;  // ELPE is 0's based

function [7:0] text_byte(input [8*40-1:0] text, input integer length, input integer position);
    // Byte `position` of a space-padded ASCII field of `length` bytes (first character leftmost)
    begin
        text_byte = text[8*(length-1-position) +: 8];
    end
endfunction

function [31:0] text_dword(input [8*40-1:0] text, input integer length, input integer first);
    begin
        text_dword = {text_byte(text, length, first + 3), text_byte(text, length, first + 2),
                      text_byte(text, length, first + 1), text_byte(text, length, first)};
    end
endfunction

// Dword `index` of a structure (the arguments are passed, not read from the ports, so that
// Icarus re-evaluates the continuous assignments below when any of them changes)
function [31:0] identify_dword(input [7:0] structure, input [31:0] list_start, input [10:0] index);
    begin
        identify_dword = 32'd0;
        if (structure == `NVME_CNS_CONTROLLER) begin
            if (index == 11'd0) identify_dword = {16'h1234, 16'h1234};                 // SSVID, VID
            else if (index <= 11'd5) identify_dword = text_dword({160'd0, SERIAL}, 20, 4 * ({21'd0, index} - 1));
            else if (index <= 11'd15) identify_dword = text_dword(MODEL, 40, 4 * ({21'd0, index} - 6));
            else if (index <= 11'd17) identify_dword = text_dword({256'd0, FIRMWARE}, 8, 4 * ({21'd0, index} - 16));
            else if (index == 11'd19) identify_dword = {16'd1, MDTS, 8'd0};          // CNTLID, MDTS, CMIC
            else if (index == 11'd20) identify_dword = `NVME_VERSION;                 // VER
            else if (index == 11'd27) identify_dword = {8'h01, 24'd0};               // CNTRLTYPE: I/O
            else if (index == 11'd64) identify_dword = {8'd3, 8'd3, 16'd0};          // AERL, ACL, OACS
            // NPSS, ELPE (entries - 1), LPA (extended Get Log Page data), FRMW (1 slot, read-only)
            else if (index == 11'd65) identify_dword = {8'd0, ERROR_LOG_LAST_ENTRY, 8'h04, 8'h03};
            else if (index == 11'd66) identify_dword = {`NVME_WARNING_TEMPERATURE, 16'd0};  // WCTEMP
            else if (index == 11'd67) identify_dword = {16'd0, `NVME_CRITICAL_TEMPERATURE}; // CCTEMP
            else if (index == 11'd128) identify_dword = {16'd0, 8'h44, 8'h66};       // MAXCMD, CQES, SQES
            else if (index == 11'd129) identify_dword = 32'd1;                       // NN
            else if (index == 11'd130) identify_dword = 32'h00000008;                // ONCS: Write Zeroes
            else if (index >= 11'd192 && index <= 11'd201)                           // SUBNQN
                identify_dword = text_dword(SUBSYSTEM_NQN, 40, 4 * ({21'd0, index} - 192));
            else if (index == 11'd512) identify_dword = {16'd0, POWER_STATE_0_CENTIWATTS}; // PSD0 MP
        end else if (structure == `NVME_CNS_NAMESPACE) begin
            if (index == 11'd0 || index == 11'd2 || index == 11'd4) identify_dword = NAMESPACE_BLOCKS[31:0];
            else if (index == 11'd1 || index == 11'd3 || index == 11'd5) identify_dword = NAMESPACE_BLOCKS[63:32];
            else if (index >= 11'd26 && index <= 11'd29) identify_dword = NAMESPACE_GUID[32*(index-26) +: 32];
            else if (index == 11'd32) identify_dword = {8'd0, LBA_SHIFT, 16'd0};     // LBA format 0: LBADS
        end else if (structure == `NVME_CNS_NAMESPACE_DESCRIPTORS) begin
            if (index == 11'd0) identify_dword = {16'd0, DESCRIPTOR_NGUID_BYTES, DESCRIPTOR_NGUID};
            else if (index >= 11'd1 && index <= 11'd4) identify_dword = NAMESPACE_GUID[32*(index-1) +: 32];
        end else if (index == 11'd0 && list_start == 32'd0) begin
            identify_dword = 32'd1;  // the active namespace list: namespace 1 after any start below it
        end
    end
endfunction

genvar lane;
generate
    for (lane = 0; lane < DATA_WIDTH / 32; lane = lane + 1) begin : lanes
        assign dwords[32*lane +: 32] = identify_dword(cns, start_nsid, first_dword + lane[10:0]);
    end
endgenerate

endmodule

`resetall
