// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Receive demultiplexer: requests to the responder, responses (ACK, NAK, READ responses) to the requester
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The parser hands out a header, then that packet's payload frame (if it has one). A header
// goes to the side its opcode belongs to, and the payload that follows goes after it to the
// same side; the next header waits until that payload's last beat has gone, so the two sides
// never see each other's bytes. READ responses and ACKNOWLEDGE are responses (roce_opcode_info
// says which opcodes those are); a CNP (no payload) is taken at once and reported on m_cnp_valid
// for rate control; every other opcode the parser passes is a request.
module roce_rx_demux (
    input  wire        clk,
    input  wire        rst,

    input  wire        s_hdr_valid,
    output wire        s_hdr_ready,
    input  wire [7:0]  s_hdr_bth_opcode,
    input  wire [12:0] s_hdr_payload_bytes,
    input  wire        s_payload_tvalid,
    output wire        s_payload_tready,
    input  wire        s_payload_tlast,

    output wire        m_request_hdr_valid,
    input  wire        m_request_hdr_ready,
    output wire        m_request_payload_tvalid,
    input  wire        m_request_payload_tready,

    output wire        m_response_hdr_valid,
    input  wire        m_response_hdr_ready,
    output wire        m_response_payload_tvalid,
    input  wire        m_response_payload_tready,

    // A CNP's header is being taken this cycle (its fields are still on the parser's bus)
    output wire        m_cnp_valid
);

wire is_response, is_cnp;

roce_opcode_info opcode_info_inst (
    .opcode(s_hdr_bth_opcode),
    .known(), .has_reth(), .has_aeth(), .has_immdt(), .has_payload(), .full_pmtu(), .starts_message(),
    .ends_message(), .is_send(), .is_write(), .is_read_request(), .is_atomic(), .is_read_response(), .is_acknowledge(), .is_atomic_acknowledge(),
    .is_request(), .is_response(is_response), .is_cnp(is_cnp), .transport_header_bytes()
);

// Set from a header with a payload until that payload's last beat is taken
reg payload_pending;
reg payload_to_response;

assign m_request_hdr_valid = s_hdr_valid && !payload_pending && !is_response && !is_cnp;
assign m_response_hdr_valid = s_hdr_valid && !payload_pending && is_response;
assign m_cnp_valid = s_hdr_valid && !payload_pending && is_cnp;
assign s_hdr_ready = !payload_pending && (is_cnp || (is_response ? m_response_hdr_ready : m_request_hdr_ready));

assign m_request_payload_tvalid = s_payload_tvalid && payload_pending && !payload_to_response;
assign m_response_payload_tvalid = s_payload_tvalid && payload_pending && payload_to_response;
assign s_payload_tready = payload_pending && (payload_to_response ? m_response_payload_tready : m_request_payload_tready);

always @(posedge clk) begin
    if (s_hdr_valid && s_hdr_ready && s_hdr_payload_bytes != 13'd0) begin
        payload_pending <= 1'b1;
        payload_to_response <= is_response;
    end
    if (s_payload_tvalid && s_payload_tready && s_payload_tlast) begin
        payload_pending <= 1'b0;
    end
    if (rst) begin
        payload_pending <= 1'b0;
        payload_to_response <= 1'b0;
    end
end

endmodule

`resetall
