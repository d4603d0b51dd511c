// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// RoCEv2 RC requester segmenter: one work request in, one header (and one payload read) per packet out
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "roce_defs.vh"

// The requester hands over a whole work request and goes back to its other work; this block
// cuts it into packets at the QP's PMTU. Facts from docs/reference/roce.md: FIRST and MIDDLE
// packets carry exactly one PMTU, the LAST (or ONLY) the rest, a zero-length message is one
// empty ONLY packet; RETH on WRITE_FIRST/ONLY; ImmDt on the last packet of the *_WITH_IMMEDIATE
// forms; an RDMA READ is one request that consumes one PSN per response packet it asks for; an
// atomic (COMPARE_SWAP, FETCH_ADD) is one packet with an AtomicETH and no payload, one PSN.
// AckReq is set on the last packet of a message and on every PSN one below a multiple of
// ACK_REQUEST_INTERVAL, so a long message is acknowledged before the whole of it is sent.
//
// A retransmission starts inside a message at packet first_packet: the packets before it were
// acknowledged. A WRITE or SEND goes on with its MIDDLE/LAST packets (the responder still has
// the message open); a READ is asked again for the bytes from that packet on.
//
// Each packet's header goes to the frame builder and its payload read to the DMA reader in the
// same order, so the reader's frames pair with the builder's headers one to one.
module roce_segmenter #(
    // AckReq on PSNs one below a multiple of this (a power of two), besides message ends
    parameter ACK_REQUEST_INTERVAL = 32,
    // Bits of a local QP index (the engine's QP_COUNT, log 2)
    parameter QP_INDEX_WIDTH = 8
) (
    input  wire        clk,
    input  wire        rst,

    // The work request, with the QP's addressing
    input  wire        s_job_valid,
    output wire        s_job_ready,
    input  wire        s_job_read,          // an RDMA READ (else WRITE or SEND)
    input  wire        s_job_send,          // a SEND (else WRITE)
    input  wire        s_job_with_immediate, // the *_WITH_IMMEDIATE form
    input  wire        s_job_atomic,        // COMPARE_SWAP or FETCH_ADD (s_job_read low)
    input  wire        s_job_fetch_add,     // the atomic is FETCH_ADD (else COMPARE_SWAP)
    input  wire [63:0] s_job_swap_add,
    input  wire [63:0] s_job_compare,
    input  wire [47:0] s_job_dest_mac,
    input  wire [31:0] s_job_dest_ip,
    input  wire [15:0] s_job_udp_source_port,
    input  wire [23:0] s_job_dest_qp,
    input  wire [QP_INDEX_WIDTH-1:0] s_job_qpn,  // the local QP, carried to each packet's header
    input  wire [2:0]  s_job_pmtu_code,     // PMTU = 256 << code: 0 to 4 (256 to 4096 bytes)
    input  wire [63:0] s_job_local_address,
    input  wire [63:0] s_job_remote_address,
    input  wire [31:0] s_job_rkey,
    input  wire [31:0] s_job_length,
    input  wire [31:0] s_job_immediate,
    input  wire [23:0] s_job_first_psn,     // PSN of the message's first packet
    input  wire [23:0] s_job_first_packet,  // packets before this one are not sent again
    input  wire [23:0] s_job_resend_end_psn, // packets before this PSN were sent before

    // One per packet, to the frame builder
    output reg         m_hdr_valid,
    input  wire        m_hdr_ready,
    output reg  [47:0] m_hdr_eth_dest_mac,
    output reg  [31:0] m_hdr_ip_dest,
    output reg  [15:0] m_hdr_udp_source_port,
    output reg  [7:0]  m_hdr_bth_opcode,
    output reg  [23:0] m_hdr_bth_dest_qp,
    output reg  [QP_INDEX_WIDTH-1:0] m_hdr_qpn,
    output reg         m_hdr_bth_ack_req,
    output reg  [23:0] m_hdr_bth_psn,
    output reg  [63:0] m_hdr_reth_va,
    output reg  [31:0] m_hdr_reth_rkey,
    output reg  [31:0] m_hdr_reth_length,
    output reg  [31:0] m_hdr_immdt,
    // An atomic's AtomicETH: its address and R_Key on m_hdr_reth_va and m_hdr_reth_rkey
    output reg  [63:0] m_hdr_atomic_swap_add,
    output reg  [63:0] m_hdr_atomic_compare,
    output reg  [12:0] m_hdr_payload_bytes,

    // One per packet with a payload, to the DMA reader
    output reg  [63:0] m_read_cmd_addr,
    output reg  [15:0] m_read_cmd_len,
    output reg         m_read_cmd_valid,
    input  wire        m_read_cmd_ready,

    // One cycle per packet handed to the builder; retransmit when its PSN was sent before
    output reg         event_packet,
    output reg         event_retransmit
);

localparam [23:0] ACK_REQUEST_MASK = ACK_REQUEST_INTERVAL - 1;

`include "roce_psn.vh"

initial begin
    if (ACK_REQUEST_INTERVAL < 1 || (ACK_REQUEST_INTERVAL & (ACK_REQUEST_INTERVAL - 1)) != 0) begin
        $error("Error: ACK_REQUEST_INTERVAL must be a power of two (instance %m)");
        $finish;
    end
end

reg        busy;
reg        is_read, is_send, has_immediate, is_atomic, is_fetch_add;
reg [12:0] pmtu_bytes;
reg [63:0] local_address, remote_address;
reg [31:0] rkey, length, immediate;
reg [23:0] first_psn, resend_end_psn;
// The packet being cut: its index in the message and the bytes of the message after it starts
reg [23:0] packet_index;
reg [31:0] offset;
reg        header_sent, command_sent;

assign s_job_ready = !busy;

wire [31:0] bytes_left = length - offset;
wire        last_packet = bytes_left <= {19'd0, pmtu_bytes};
wire        first_of_message = offset == 32'd0;
wire [31:0] packet_bytes = last_packet ? bytes_left : {19'd0, pmtu_bytes};
wire [23:0] packet_psn = first_psn + packet_index;

reg [7:0] packet_opcode;
always @* begin
    if (is_read) begin
        packet_opcode = `ROCE_OP_READ_REQUEST;
    end else if (is_atomic) begin
        packet_opcode = is_fetch_add ? `ROCE_OP_FETCH_ADD : `ROCE_OP_COMPARE_SWAP;
    end else if (first_of_message && last_packet) begin
        packet_opcode = is_send ? (has_immediate ? `ROCE_OP_SEND_ONLY_IMM : `ROCE_OP_SEND_ONLY)
                                : (has_immediate ? `ROCE_OP_WRITE_ONLY_IMM : `ROCE_OP_WRITE_ONLY);
    end else if (first_of_message) begin
        packet_opcode = is_send ? `ROCE_OP_SEND_FIRST : `ROCE_OP_WRITE_FIRST;
    end else if (last_packet) begin
        packet_opcode = is_send ? (has_immediate ? `ROCE_OP_SEND_LAST_IMM : `ROCE_OP_SEND_LAST)
                                : (has_immediate ? `ROCE_OP_WRITE_LAST_IMM : `ROCE_OP_WRITE_LAST);
    end else begin
        packet_opcode = is_send ? `ROCE_OP_SEND_MIDDLE : `ROCE_OP_WRITE_MIDDLE;
    end
end

// A READ or an atomic is one packet whatever its length; the others end with their last payload packet
wire job_done_after_this = is_read || is_atomic || last_packet;
wire packet_has_payload = !is_read && !is_atomic && packet_bytes != 32'd0;

always @(posedge clk) begin
    event_packet <= 1'b0;
    event_retransmit <= 1'b0;
    if (m_hdr_valid && m_hdr_ready) begin
        m_hdr_valid <= 1'b0;
        event_packet <= 1'b1;
        // Within the half window below the resend mark: a PSN this QP sent before
        event_retransmit <= psn_before(m_hdr_bth_psn, resend_end_psn);
    end
    if (m_read_cmd_valid && m_read_cmd_ready) begin
        m_read_cmd_valid <= 1'b0;
    end

    if (!busy) begin
        if (s_job_valid) begin
            busy <= 1'b1;
            is_read <= s_job_read;
            is_send <= s_job_send;
            has_immediate <= s_job_with_immediate;
            is_atomic <= s_job_atomic;
            is_fetch_add <= s_job_fetch_add;
            m_hdr_atomic_swap_add <= s_job_swap_add;
            // FETCH_ADD sends the compare field as zero (IBA: the responder ignores it)
            m_hdr_atomic_compare <= s_job_fetch_add ? 64'd0 : s_job_compare;
            pmtu_bytes <= 13'd256 << s_job_pmtu_code;
            local_address <= s_job_local_address;
            remote_address <= s_job_remote_address;
            rkey <= s_job_rkey;
            length <= s_job_length;
            immediate <= s_job_immediate;
            first_psn <= s_job_first_psn;
            resend_end_psn <= s_job_resend_end_psn;
            packet_index <= s_job_first_packet;
            // The first packet's offset: packets times the PMTU, a power of two
            offset <= {s_job_first_packet, 8'd0} << s_job_pmtu_code;
            header_sent <= 1'b0;
            command_sent <= 1'b0;
            m_hdr_eth_dest_mac <= s_job_dest_mac;
            m_hdr_ip_dest <= s_job_dest_ip;
            m_hdr_udp_source_port <= s_job_udp_source_port;
            m_hdr_bth_dest_qp <= s_job_dest_qp;
            m_hdr_qpn <= s_job_qpn;
        end
    end else begin
        if (!header_sent && !m_hdr_valid) begin
            m_hdr_valid <= 1'b1;
            m_hdr_bth_opcode <= packet_opcode;
            m_hdr_bth_psn <= packet_psn;
            m_hdr_bth_ack_req <= job_done_after_this || (packet_psn & ACK_REQUEST_MASK) == ACK_REQUEST_MASK;
            // A reissued READ asks for the rest of the message from this packet's bytes on
            m_hdr_reth_va <= remote_address + {32'd0, offset};
            m_hdr_reth_rkey <= rkey;
            m_hdr_reth_length <= is_read ? bytes_left : length;
            m_hdr_immdt <= immediate;
            m_hdr_payload_bytes <= packet_has_payload ? packet_bytes[12:0] : 13'd0;
            header_sent <= 1'b1;
        end
        if (!command_sent && !m_read_cmd_valid) begin
            command_sent <= 1'b1;
            if (packet_has_payload) begin
                m_read_cmd_addr <= local_address + {32'd0, offset};
                m_read_cmd_len <= packet_bytes[15:0];
                m_read_cmd_valid <= 1'b1;
            end
        end
        if (header_sent && command_sent && !m_hdr_valid && !m_read_cmd_valid) begin
            header_sent <= 1'b0;
            command_sent <= 1'b0;
            packet_index <= packet_index + 24'd1;
            offset <= offset + {19'd0, pmtu_bytes};
            if (job_done_after_this) begin
                busy <= 1'b0;
            end
        end
    end

    if (rst) begin
        busy <= 1'b0;
        m_hdr_valid <= 1'b0;
        m_read_cmd_valid <= 1'b0;
        event_packet <= 1'b0;
        event_retransmit <= 1'b0;
    end
end

endmodule

`resetall
