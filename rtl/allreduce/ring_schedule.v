// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Which chunk a ring rank sends or receives at each step of reduce-scatter then all-gather
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Steps 0 .. n-2 are reduce-scatter, n-1 .. 2n-3 all-gather (s = step - (n-1)). Rank r sends
// chunk (r - step) in reduce-scatter and (r + 1 - s) in all-gather; it receives chunk
// (r - 1 - step) and (r - s) (all modulo n). After reduce-scatter rank r holds chunk r + 1.
module ring_schedule #(
    // Width of a rank index, ring size or step number
    parameter RANK_WIDTH = 5
) (
    input  wire [RANK_WIDTH-1:0] rank,
    input  wire [RANK_WIDTH-1:0] ranks,
    input  wire [RANK_WIDTH:0]   step,
    output wire                  all_gather,
    output wire [RANK_WIDTH-1:0] send_chunk,
    output wire [RANK_WIDTH-1:0] receive_chunk
);

// value is below 3n here, so two conditional subtractions bring it into 0 .. n-1.
function [RANK_WIDTH-1:0] modulo(input [RANK_WIDTH+1:0] value, input [RANK_WIDTH-1:0] n);
    reg [RANK_WIDTH+1:0] reduced;
    begin
        reduced = value;
        if (reduced >= {2'b00, n}) reduced = reduced - {2'b00, n};
        if (reduced >= {2'b00, n}) reduced = reduced - {2'b00, n};
        modulo = reduced[RANK_WIDTH-1:0];
    end
endfunction

wire [RANK_WIDTH+1:0] rank_wide = {2'b00, rank};
wire [RANK_WIDTH+1:0] ranks_wide = {2'b00, ranks};
wire [RANK_WIDTH+1:0] step_wide = {1'b0, step};
wire [RANK_WIDTH+1:0] gather_step = step_wide - ranks_wide + 1'b1;

assign all_gather = step_wide >= ranks_wide - 1'b1;
assign send_chunk = all_gather ? modulo(rank_wide + 1'b1 + ranks_wide - gather_step, ranks)
                               : modulo(rank_wide + ranks_wide - step_wide, ranks);
assign receive_chunk = all_gather ? modulo(rank_wide + ranks_wide - gather_step, ranks)
                                  : modulo(rank_wide + ranks_wide + ranks_wide - 1'b1 - step_wide, ranks);

endmodule

`resetall
