// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// RoCEv2 RC opcode decoder: which extension headers a BTH opcode carries, what kind of packet it is, and where it sits in its message
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "roce_defs.vh"

// Facts from the IBA opcode table (docs/reference/roce.md): RETH on WRITE_FIRST, WRITE_ONLY
// (with and without immediate) and READ_REQUEST; AETH on ACKNOWLEDGE, ATOMIC_ACKNOWLEDGE and
// READ_RESPONSE_FIRST, LAST and ONLY (not MIDDLE); ImmDt on the *_WITH_IMMEDIATE forms; AtomicETH
// (28 bytes) on COMPARE_SWAP and FETCH_ADD, AtomicAckETH (8 bytes) after ATOMIC_ACKNOWLEDGE's
// AETH; 16 reserved bytes on RoCEv2's CNP (0x81), taken as a header extension so that a CNP has
// no payload. Only the RC opcodes the engine speaks or must answer are known, and the CNP, which
// is neither a request nor a response (annex A17); every other opcode is reported unknown, and is
// none of the kinds.
// This is the one place that knows the opcode table: the other modules ask it instead of
// comparing opcodes.
module roce_opcode_info (
    input  wire [7:0] opcode,
    output reg        known,
    output reg        has_reth,
    output reg        has_aeth,
    output reg        has_immdt,
    // READ_REQUEST and ACKNOWLEDGE carry no payload
    output reg        has_payload,
    // FIRST and MIDDLE packets carry exactly one PMTU of payload
    output reg        full_pmtu,
    // FIRST or ONLY (READ_REQUEST and ACKNOWLEDGE are messages of one packet): the packet starts its message
    output reg        starts_message,
    // LAST or ONLY (and READ_REQUEST, ACKNOWLEDGE): the packet ends its message
    output reg        ends_message,
    // The kind of packet: a SEND or RDMA WRITE packet (any position, with or without immediate),
    // an RDMA READ request, an RDMA READ response packet, an ACK or NAK
    output reg        is_send,
    output reg        is_write,
    output reg        is_read_request,
    // COMPARE_SWAP or FETCH_ADD
    output reg        is_atomic,
    output reg        is_read_response,
    output reg        is_acknowledge,
    // ATOMIC_ACKNOWLEDGE: an AETH and the AtomicAckETH (the operand's original value)
    output reg        is_atomic_acknowledge,
    // Requests go to a responder (SEND, WRITE, READ request, atomics); responses to a requester (READ
    // responses, ACKNOWLEDGE, ATOMIC_ACKNOWLEDGE)
    output reg        is_request,
    output reg        is_response,
    // A congestion notification: for the QP's rate control, not for its transport
    output reg        is_cnp,
    // Bytes of BTH and extension headers: 12, 16, 24, 28, 32 or 40
    output reg  [5:0] transport_header_bytes
);

always @* begin
    known = 1'b1;
    has_immdt = 1'b0;
    has_payload = 1'b1;
    full_pmtu = 1'b0;
    starts_message = 1'b0;
    ends_message = 1'b0;
    case (opcode)
        `ROCE_OP_SEND_FIRST, `ROCE_OP_WRITE_FIRST, `ROCE_OP_READ_RESPONSE_FIRST: begin
            full_pmtu = 1'b1;
            starts_message = 1'b1;
        end
        `ROCE_OP_SEND_MIDDLE, `ROCE_OP_WRITE_MIDDLE, `ROCE_OP_READ_RESPONSE_MIDDLE: full_pmtu = 1'b1;
        `ROCE_OP_SEND_LAST, `ROCE_OP_WRITE_LAST, `ROCE_OP_READ_RESPONSE_LAST: ends_message = 1'b1;
        `ROCE_OP_SEND_ONLY, `ROCE_OP_WRITE_ONLY, `ROCE_OP_READ_RESPONSE_ONLY: begin
            starts_message = 1'b1;
            ends_message = 1'b1;
        end
        `ROCE_OP_SEND_LAST_IMM, `ROCE_OP_WRITE_LAST_IMM: begin
            ends_message = 1'b1;
            has_immdt = 1'b1;
        end
        `ROCE_OP_SEND_ONLY_IMM, `ROCE_OP_WRITE_ONLY_IMM: begin
            starts_message = 1'b1;
            ends_message = 1'b1;
            has_immdt = 1'b1;
        end
        `ROCE_OP_READ_REQUEST, `ROCE_OP_ACKNOWLEDGE, `ROCE_OP_ATOMIC_ACKNOWLEDGE, `ROCE_OP_COMPARE_SWAP, `ROCE_OP_FETCH_ADD,
        `ROCE_OP_CNP: begin
            starts_message = 1'b1;
            ends_message = 1'b1;
            has_payload = 1'b0;
        end
        default: known = 1'b0;
    endcase
    is_send = opcode <= `ROCE_OP_SEND_ONLY_IMM;
    is_write = opcode >= `ROCE_OP_WRITE_FIRST && opcode <= `ROCE_OP_WRITE_ONLY_IMM;
    is_read_request = opcode == `ROCE_OP_READ_REQUEST;
    is_read_response = opcode >= `ROCE_OP_READ_RESPONSE_FIRST && opcode <= `ROCE_OP_READ_RESPONSE_ONLY;
    is_acknowledge = opcode == `ROCE_OP_ACKNOWLEDGE;
    is_atomic = opcode == `ROCE_OP_COMPARE_SWAP || opcode == `ROCE_OP_FETCH_ADD;
    is_atomic_acknowledge = opcode == `ROCE_OP_ATOMIC_ACKNOWLEDGE;
    is_cnp = opcode == `ROCE_OP_CNP;
    is_request = is_send || is_write || is_read_request || is_atomic;
    is_response = is_read_response || is_acknowledge || is_atomic_acknowledge;
    has_reth = opcode == `ROCE_OP_WRITE_FIRST || opcode == `ROCE_OP_WRITE_ONLY || opcode == `ROCE_OP_WRITE_ONLY_IMM
            || opcode == `ROCE_OP_READ_REQUEST;
    has_aeth = opcode == `ROCE_OP_READ_RESPONSE_FIRST || opcode == `ROCE_OP_READ_RESPONSE_LAST
            || opcode == `ROCE_OP_READ_RESPONSE_ONLY || opcode == `ROCE_OP_ACKNOWLEDGE || is_atomic_acknowledge;
    transport_header_bytes = 6'd12 + (has_reth ? 6'd16 : 6'd0) + (has_aeth ? 6'd4 : 6'd0) + (has_immdt ? 6'd4 : 6'd0)
                           + (is_atomic ? 6'd28 : 6'd0) + (is_atomic_acknowledge ? 6'd8 : 6'd0) + (is_cnp ? 6'd16 : 6'd0);
end

endmodule

`resetall
