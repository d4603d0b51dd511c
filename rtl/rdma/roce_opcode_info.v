// RoCEv2 RC opcode decoder: which extension headers a BTH opcode carries, and where it sits in its message
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Facts from the IBA opcode table (shared/reference/roce.md): RETH on WRITE_FIRST, WRITE_ONLY
// (with and without immediate) and READ_REQUEST; AETH on ACKNOWLEDGE and READ_RESPONSE_FIRST,
// LAST and ONLY (not MIDDLE); ImmDt on the *_WITH_IMMEDIATE forms. Only the RC opcodes the
// engine speaks are known; every other opcode is reported unknown.
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
    // LAST or ONLY: the packet ends its message
    output reg        ends_message,
    // Bytes of BTH and extension headers: 12, 16, 28 or 32
    output reg  [5:0] transport_header_bytes
);

always @* begin
    known = 1'b1;
    has_reth = 1'b0;
    has_aeth = 1'b0;
    has_immdt = 1'b0;
    has_payload = 1'b1;
    full_pmtu = 1'b0;
    ends_message = 1'b0;
    case (opcode)
        8'h00, 8'h06, 8'h0D: full_pmtu = 1'b1;                           // *_FIRST
        8'h01, 8'h07, 8'h0E: full_pmtu = 1'b1;                           // *_MIDDLE
        8'h02, 8'h04, 8'h08, 8'h0A, 8'h0F, 8'h10: ends_message = 1'b1;   // *_LAST, *_ONLY
        8'h03, 8'h05, 8'h09, 8'h0B: begin                                // *_WITH_IMMEDIATE
            ends_message = 1'b1;
            has_immdt = 1'b1;
        end
        8'h0C, 8'h11: begin                                              // READ_REQUEST, ACKNOWLEDGE
            ends_message = 1'b1;
            has_payload = 1'b0;
        end
        default: known = 1'b0;
    endcase
    has_reth = opcode == 8'h06 || opcode == 8'h0A || opcode == 8'h0B || opcode == 8'h0C;
    has_aeth = opcode == 8'h0D || opcode == 8'h0F || opcode == 8'h10 || opcode == 8'h11;
    transport_header_bytes = 6'd12 + (has_reth ? 6'd16 : 6'd0) + (has_aeth ? 6'd4 : 6'd0) + (has_immdt ? 6'd4 : 6'd0);
end

endmodule

`resetall
