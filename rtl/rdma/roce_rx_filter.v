// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Receive filter: frames for another IPv4 address or another partition are discarded and counted, the rest passed on
`resetall
`timescale 1ns / 1ps
`default_nettype none

// A node acts only on frames addressed to it (IPv4 destination = local_ip) in one of its
// partitions (BTH P_Key matching a P_Key table entry, docs/reference/roce.md "Partitions"). Every
// other frame is discarded whole, header and payload, and never answered: it reaches neither the
// responder nor the requester, so no QP's PSNs, receives or memory can see it.
//
// It sits behind the parser, so a frame is judged here only once its ICRC and every format check
// have passed: the address and P_Key of a damaged frame cannot be trusted, and such a frame is
// counted once, by the parser, for what is really wrong with it. The address is checked before
// the P_Key (network layer before transport), so a frame wrong in both counts as a wrong address.
//
// Headers and payloads pass straight through (no added cycle); as in roce_rx_demux, the next
// header waits until the payload of the one before has gone, so a discarded frame's payload
// beats are never confused with a delivered frame's. A discarded payload drains one beat a clock.
//
// The P_Key table is the engine's and not the QP's: a frame is accepted if any entry matches,
// whichever QP it is for (IBA has each QP name one entry; see docs/rdma.md, Known limits).
module roce_rx_filter #(
    // Entries in the P_Key table
    parameter PKEY_ENTRIES = 4
) (
    input  wire                       clk,
    input  wire                       rst,

    // The node's own IPv4 address
    input  wire [31:0]                local_ip,
    // P_Key table, entry i in bits [16*i +: 16]; an entry with bits 14:0 zero is empty
    input  wire [PKEY_ENTRIES*16-1:0] pkey_table,

    // From the parser: a header, then that frame's payload if payload_bytes is not zero
    input  wire                       s_hdr_valid,
    output wire                       s_hdr_ready,
    input  wire [31:0]                s_hdr_ip_dest,
    input  wire [15:0]                s_hdr_bth_pkey,
    input  wire [12:0]                s_hdr_payload_bytes,
    input  wire                       s_payload_tvalid,
    output wire                       s_payload_tready,
    input  wire                       s_payload_tlast,

    // Accepted frames; header fields and payload data are taken from the parser's outputs
    output wire                       m_hdr_valid,
    input  wire                       m_hdr_ready,
    output wire                       m_payload_tvalid,
    input  wire                       m_payload_tready,

    // One-cycle pulses, one per discarded frame, the cycle after its header is taken
    output reg                        status_drop_wrong_address,
    output reg                        status_drop_pkey
);

initial begin
    if (PKEY_ENTRIES < 1) begin
        $error("Error: PKEY_ENTRIES must be at least 1 (instance %m)");
        $finish;
    end
end

// IBA partition rule: the same partition (bits 14:0), not the invalid partition 0, and at least
// one side a full member (bit 15): two limited members may not talk
function pkey_matches(input [15:0] frame_pkey, input [15:0] entry);
    begin
        pkey_matches = frame_pkey[14:0] == entry[14:0] && entry[14:0] != 15'd0 && (frame_pkey[15] || entry[15]);
    end
endfunction

reg pkey_in_table;
integer entry_index;
always @* begin
    pkey_in_table = 1'b0;
    for (entry_index = 0; entry_index < PKEY_ENTRIES; entry_index = entry_index + 1) begin
        pkey_in_table = pkey_in_table || pkey_matches(s_hdr_bth_pkey, pkey_table[16*entry_index +: 16]);
    end
end

wire addressed_here = s_hdr_ip_dest == local_ip;
wire accepted = addressed_here && pkey_in_table;

// Set from a header with a payload until that payload's last beat is taken
reg payload_pending;
reg payload_discarded;

assign m_hdr_valid = s_hdr_valid && !payload_pending && accepted;
assign s_hdr_ready = !payload_pending && (!accepted || m_hdr_ready);

assign m_payload_tvalid = s_payload_tvalid && payload_pending && !payload_discarded;
assign s_payload_tready = payload_pending && (payload_discarded || m_payload_tready);

wire header_taken = s_hdr_valid && s_hdr_ready;

always @(posedge clk) begin
    if (header_taken && s_hdr_payload_bytes != 13'd0) begin
        payload_pending <= 1'b1;
        payload_discarded <= !accepted;
    end
    if (s_payload_tvalid && s_payload_tready && s_payload_tlast) begin
        payload_pending <= 1'b0;
    end
    status_drop_wrong_address <= header_taken && !addressed_here;
    status_drop_pkey <= header_taken && addressed_here && !pkey_in_table;
    if (rst) begin
        payload_pending <= 1'b0;
        payload_discarded <= 1'b0;
        status_drop_wrong_address <= 1'b0;
        status_drop_pkey <= 1'b0;
    end
end

endmodule

`resetall
