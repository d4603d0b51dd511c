// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Formal only: numbers the beats a block accepts and delivers. The source is assumed to send its
// beat number (and a function of it in every sideband bit), and each delivered beat is asserted
// to carry the next number, so a lost, repeated, reordered or mixed-up beat is a failed assertion.
`default_nettype none

module axis_beat_scoreboard #(
    // tdata, then the sidebands: at least the 8 bits of the beat number
    parameter PAYLOAD_WIDTH = 8,
    // 1: assert the delivered payloads (they may sit in hidden state: bounded checks only)
    parameter CHECK_PAYLOAD = 1
) (
    input  wire                     clk,
    input  wire                     rst,
    input  wire                     in_valid,
    input  wire                     in_ready,
    input  wire [PAYLOAD_WIDTH-1:0] in_payload,
    input  wire                     out_valid,
    input  wire                     out_ready,
    input  wire [PAYLOAD_WIDTH-1:0] out_payload,
    // Accepted and not yet delivered, modulo 256
    output wire [7:0]               in_flight,
    // Delivered since reset, modulo 256 (for cover statements)
    output reg  [7:0]               delivered
);

reg [7:0] accepted = 8'd0;
initial delivered = 8'd0;
assign in_flight = accepted - delivered;

// Beat n: n in the low byte; sideband bit i is n[i mod 8] xor n[(i + 3) mod 8], so that no two
// beats in flight share a sideband pattern and a sideband swapped between beats is seen
function [PAYLOAD_WIDTH-1:0] numbered(input [7:0] number);
    integer bit_index;
    begin
        numbered = {PAYLOAD_WIDTH{1'b0}};
        numbered[7:0] = number;
        for (bit_index = 8; bit_index < PAYLOAD_WIDTH; bit_index = bit_index + 1)
            numbered[bit_index] = number[bit_index % 8] ^ number[(bit_index + 3) % 8];
    end
endfunction

always @(posedge clk) begin
    if (in_valid && in_ready) accepted <= accepted + 8'd1;
    if (out_valid && out_ready) delivered <= delivered + 8'd1;
    if (rst) begin
        accepted <= 8'd0;
        delivered <= 8'd0;
    end
end

always @(*) begin
    if (in_valid) assume(in_payload == numbered(accepted));
    if (CHECK_PAYLOAD && !rst && out_valid) assert(out_payload == numbered(delivered));
end

endmodule
