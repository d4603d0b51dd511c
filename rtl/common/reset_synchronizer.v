// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// A reset from anywhere, asserted at once and released in step with one clock
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The reset reaches the clock domain's flip-flops as soon as it rises (even with the clock
// stopped, as a transceiver's recovered clock is before lock), and falls only after STAGES edges
// of clk, so no flip-flop sees it fall near an edge.
module reset_synchronizer #(
    // Flip-flops in the release chain (at least 2)
    parameter STAGES = 3
) (
    input  wire clk,
    input  wire rst_in,
    output wire rst_out
);

initial begin
    if (STAGES < 2) begin
        $error("Error: STAGES must be at least 2 (instance %m)");
        $finish;
    end
end

(* ASYNC_REG = "TRUE" *) reg [STAGES-1:0] chain;

always @(posedge clk or posedge rst_in) begin
    if (rst_in) begin
        chain <= {STAGES{1'b1}};
    end else begin
        chain <= {chain[STAGES-2:0], 1'b0};
    end
end

assign rst_out = chain[STAGES-1];

endmodule

`resetall
