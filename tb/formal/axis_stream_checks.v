// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Formal only: the checks of a block with one stream in and one out. The input's handshake rules
// are assumed, the output's asserted, and the beats are numbered through (axis_beat_scoreboard).
`default_nettype none

module axis_stream_checks #(
    // tdata and sidebands of one beat
    parameter PAYLOAD_WIDTH = 8,
    // 1: assert the delivered payloads (bounded checks only, where they sit in hidden state)
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
    output wire [7:0]               in_flight,
    output wire [7:0]               delivered
);

axis_handshake_rules #(.PAYLOAD_WIDTH(PAYLOAD_WIDTH), .ENVIRONMENT(1)) input_rules (
    .clk(clk), .rst(rst), .valid(in_valid), .ready(in_ready), .payload(in_payload));
axis_handshake_rules #(.PAYLOAD_WIDTH(PAYLOAD_WIDTH), .ENVIRONMENT(0)) output_rules (
    .clk(clk), .rst(rst), .valid(out_valid), .ready(out_ready), .payload(out_payload));
axis_beat_scoreboard #(.PAYLOAD_WIDTH(PAYLOAD_WIDTH), .CHECK_PAYLOAD(CHECK_PAYLOAD)) scoreboard (
    .clk(clk), .rst(rst),
    .in_valid(in_valid), .in_ready(in_ready), .in_payload(in_payload),
    .out_valid(out_valid), .out_ready(out_ready), .out_payload(out_payload),
    .in_flight(in_flight), .delivered(delivered));

endmodule
