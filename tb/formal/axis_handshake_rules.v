// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Formal only: the AXI4-Stream handshake rules on one stream, assumed of the environment's
// streams and asserted of the design's, so one module states the rules for every proof
`default_nettype none

module axis_handshake_rules #(
    // Width of everything the source must hold still while it waits (tdata, tkeep, tlast, ...)
    parameter PAYLOAD_WIDTH = 8,
    // 1: the environment drives this stream (the rules are assumed); 0: the design does (asserted)
    parameter ENVIRONMENT = 0,
    // 1: the source must not offer a beat in the cycle after reset (a design's registered output)
    parameter IDLE_AFTER_RESET = 1
) (
    input wire                     clk,
    input wire                     rst,
    input wire                     valid,
    input wire                     ready,
    input wire [PAYLOAD_WIDTH-1:0] payload
);

reg                     past_valid = 1'b0;
reg                     stalled = 1'b0;
reg                     in_reset = 1'b0;
reg [PAYLOAD_WIDTH-1:0] stalled_payload;

always @(posedge clk) begin
    past_valid <= 1'b1;
    in_reset <= rst;
    // A beat offered and not taken must be offered again, unchanged, unless a reset intervenes
    stalled <= valid && !ready && !rst;
    stalled_payload <= payload;
end

wire beat_held = valid && payload == stalled_payload;

generate
    if (ENVIRONMENT) begin : assumed
        always @(*) begin
            if (past_valid && stalled) assume(beat_held);
        end
    end else begin : asserted
        always @(*) begin
            if (past_valid && stalled) assert(beat_held);
            if (IDLE_AFTER_RESET && past_valid && in_reset) assert(!valid);
        end
    end
endgenerate

endmodule
