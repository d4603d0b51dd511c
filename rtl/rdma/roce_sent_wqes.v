// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// What the requester needs to complete the WQEs it sent lately, kept on chip so a completion needs no second WQE read
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The requester keeps only its oldest incomplete WQE of each QP in the QP's state; when an
// acknowledgement retires it, the next one's opcode, wr_id, local address and length were read
// from host memory again, a DMA read (8 cycles and more) for every request a stream of small
// WRITEs completes. This keeps those fields of each WQE as it is sent, in ENTRIES slots picked by
// the WQE's index and QP, so the retire finds them here instead; a WQE whose slot was taken by
// another since is read from host memory as before.
//
// A kept WQE is found only by its own QP and index (its tag); one whose slot another WQE has taken
// since (another QP's, or its own QP's ENTRIES indices later) is not found. What is found is the
// WQE as it was sent: the host owns a WQE again only once it has completed, and a QP set up again
// sends, and so keeps afresh, each of its WQEs before it can look one up. A lookup is answered
// the next cycle (found, and the fields).
module roce_sent_wqes #(
    // Bits of a local QP index
    parameter QP_INDEX_WIDTH = 8,
    // Slots (a power of two)
    parameter ENTRIES = 64
) (
    input  wire                      clk,
    input  wire                      rst,

    // A WQE just sent
    input  wire                      record,
    input  wire [QP_INDEX_WIDTH-1:0] record_qp,
    input  wire [15:0]               record_index,
    input  wire [7:0]                record_opcode,
    input  wire [63:0]               record_wr_id,
    input  wire [63:0]               record_local_address,
    input  wire [31:0]               record_length,

    // The WQE at (lookup_qp, lookup_index), if kept: answered the cycle after `lookup`
    input  wire                      lookup,
    input  wire [QP_INDEX_WIDTH-1:0] lookup_qp,
    input  wire [15:0]               lookup_index,
    output reg                       found,
    output wire [7:0]                found_opcode,
    output wire [63:0]               found_wr_id,
    output wire [63:0]               found_local_address,
    output wire [31:0]               found_length
);

localparam SLOT_BITS = $clog2(ENTRIES);
localparam DATA_WIDTH = 8 + 64 + 64 + 32;

initial begin
    if (ENTRIES < 2 || (ENTRIES & (ENTRIES - 1)) != 0) begin
        $error("Error: ENTRIES must be a power of two, 2 or more (instance %m)");
        $finish;
    end
end

// The slot of a WQE: its index's low bits, turned by the QP's so that QPs sending at once spread
// (a QP index narrower than a slot number is widened with zeros)
localparam QP_SPREAD_BITS = QP_INDEX_WIDTH < SLOT_BITS ? QP_INDEX_WIDTH : SLOT_BITS;
function [SLOT_BITS-1:0] slot_of(input [QP_SPREAD_BITS-1:0] qp_low, input [SLOT_BITS-1:0] index_low);
    slot_of = index_low ^ {{(SLOT_BITS-QP_SPREAD_BITS){1'b0}}, qp_low};
endfunction

// Valid bits in flops (cleared by reset); each slot's QP, index and fields in RAM
localparam TAG_WIDTH = QP_INDEX_WIDTH + 16;
reg [ENTRIES-1:0]              slot_valid;
reg [TAG_WIDTH+DATA_WIDTH-1:0] slot_entry [0:ENTRIES-1];
reg [TAG_WIDTH+DATA_WIDTH-1:0] read_entry;
reg                            read_valid;
reg [TAG_WIDTH-1:0]            read_key;

wire [SLOT_BITS-1:0] record_slot = slot_of(record_qp[QP_SPREAD_BITS-1:0], record_index[SLOT_BITS-1:0]);
wire [SLOT_BITS-1:0] lookup_slot = slot_of(lookup_qp[QP_SPREAD_BITS-1:0], lookup_index[SLOT_BITS-1:0]);

always @(posedge clk) begin
    if (record) begin
        slot_entry[record_slot] <= {record_qp, record_index, record_opcode, record_wr_id, record_local_address,
                                    record_length};
        slot_valid[record_slot] <= 1'b1;
    end
    read_entry <= slot_entry[lookup_slot];
    read_valid <= lookup && slot_valid[lookup_slot];
    read_key <= {lookup_qp, lookup_index};
    if (rst) begin
        slot_valid <= {ENTRIES{1'b0}};
        read_valid <= 1'b0;
    end
end

always @* begin
    found = read_valid && read_entry[TAG_WIDTH+DATA_WIDTH-1:DATA_WIDTH] == read_key;
end
assign {found_opcode, found_wr_id, found_local_address, found_length} = read_entry[DATA_WIDTH-1:0];

endmodule

`resetall
