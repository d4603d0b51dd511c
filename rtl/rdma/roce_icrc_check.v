// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// RoCEv2 ICRC check: CRC-32 over a frame's IPv4 packet with the variant fields masked, compared with the good residue
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The ICRC is zlib.crc32 over eight 0xFF bytes, the IPv4 header, UDP header, BTH, extension
// headers, payload and pad, with the fields a router may change (IPv4 TOS, TTL and header
// checksum, UDP checksum, BTH byte 4) read as all ones; it is sent least significant byte
// first (docs/reference/roce.md). Running the CRC on through the four ICRC bytes as well
// leaves zlib's fixed residue when they are right, so no look-ahead is needed to find them:
// every byte from frame offset 14 up to the end of the IPv4 packet enters the CRC, and the
// frame is good when the CRC then reads 32'h2144DF1C. Untagged IPv4 without options only.
module roce_icrc_check #(
    // Width of the frame stream in bits (a multiple of 64)
    parameter DATA_WIDTH = 64,
    // Width of tkeep: one enable per byte
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // Width of a frame byte offset
    parameter OFFSET_WIDTH = 18
) (
    input  wire                    clk,
    input  wire                    rst,

    // One beat of the Ethernet frame; data[7:0] is the byte at frame offset beat_offset
    input  wire [DATA_WIDTH-1:0]   data,
    input  wire                    valid,
    // With valid: the frame's first beat (beat_offset 0)
    input  wire                    start,
    // A multiple of KEEP_WIDTH
    input  wire [OFFSET_WIDTH-1:0] beat_offset,
    // Frame offset just past the IPv4 packet (14 + IPv4 total length): later bytes are the
    // MAC's padding and stay out of the CRC
    input  wire [OFFSET_WIDTH-1:0] covered_end,

    // The cycle after a frame's last beat: the covered bytes, ICRC included, are consistent
    output wire                    residue_ok
);

localparam ETHERNET_HEADER_BYTES = 14;
// zlib.crc32(m + le32(zlib.crc32(m))) for every message m
localparam [31:0] GOOD_RESIDUE = 32'h2144DF1C;
// crc32 register state after eight 0xFF bytes (the masked InfiniBand LRH RoCEv2 leaves out)
localparam [31:0] STATE_AFTER_LRH = 32'hDEBB20E3;

initial begin
    if (DATA_WIDTH % 64 != 0 || KEEP_WIDTH * 8 != DATA_WIDTH) begin
        $error("Error: DATA_WIDTH must be a multiple of 64 and KEEP_WIDTH = DATA_WIDTH/8 (instance %m)");
        $finish;
    end
end

wire [DATA_WIDTH-1:0] masked_data;
wire [KEEP_WIDTH-1:0] covered;

genvar lane;
generate
    for (lane = 0; lane < KEEP_WIDTH; lane = lane + 1) begin : lanes
        wire [OFFSET_WIDTH-1:0] offset = beat_offset + lane;
        // Frame offsets of IPv4 TOS (15), TTL (22), header checksum (24, 25), UDP checksum
        // (40, 41) and BTH byte 4 (46)
        wire masked = offset == 15 || offset == 22 || offset == 24 || offset == 25
                   || offset == 40 || offset == 41 || offset == 46;
        assign masked_data[lane*8 +: 8] = masked ? 8'hFF : data[lane*8 +: 8];
        assign covered[lane] = offset >= ETHERNET_HEADER_BYTES && offset < covered_end;
    end
endgenerate

wire [31:0] crc;

crc32 #(
    .DATA_WIDTH(DATA_WIDTH),
    .INITIAL_STATE(STATE_AFTER_LRH)
) crc_inst (
    .clk(clk),
    .rst(rst),
    .data(masked_data),
    .keep(covered),
    .valid(valid),
    .start(start),
    .crc(crc)
);

assign residue_ok = crc == GOOD_RESIDUE;

endmodule

`resetall
