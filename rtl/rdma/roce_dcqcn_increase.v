// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// DCQCN rate increase: one step of the reaction point's recovery, combinational
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "roce_dcqcn_stages.vh"

// The step dpuv.models.dcqcn.ReactionPoint._increase_rate takes, bit for bit: the stage counts
// (this step already counted) choose fast recovery, additive or hyper increase; RT rises by
// nothing, R_AI or R_HAI, never past the line rate; RC moves half way to RT, rounded up so that
// it reaches RT instead of stopping 1 Mb/s short. roce_dcqcn_rate takes up to two steps a
// cycle (a time stage and a byte stage), so the step is a module of its own, used twice.
module roce_dcqcn_increase #(
    // Width of the rates in whole Mb/s
    parameter RATE_WIDTH = 20,
    // Width of the stage counts (they saturate, and need only be compared with F)
    parameter STAGE_COUNT_WIDTH = 9
) (
    input  wire [RATE_WIDTH-1:0]        current_rate_mbps,
    input  wire [RATE_WIDTH-1:0]        target_rate_mbps,
    input  wire [STAGE_COUNT_WIDTH-1:0] time_stage,
    input  wire [STAGE_COUNT_WIDTH-1:0] byte_stage,
    input  wire [7:0]                   fast_recovery_stages,
    input  wire [RATE_WIDTH-1:0]        line_rate_mbps,
    input  wire [RATE_WIDTH-1:0]        additive_increase_mbps,
    input  wire [RATE_WIDTH-1:0]        hyper_increase_mbps,

    output wire [RATE_WIDTH-1:0]        next_current_rate_mbps,
    output wire [RATE_WIDTH-1:0]        next_target_rate_mbps,
    output wire [1:0]                   next_stage,
    // RC is back at the line rate: the caller stops the increase timer and clears both counts
    output wire                         recovered
);

initial begin
    if (RATE_WIDTH < 1 || RATE_WIDTH > 32 || STAGE_COUNT_WIDTH < 9) begin
        $error("Error: RATE_WIDTH must be 1 to 32 and STAGE_COUNT_WIDTH 9 or more, past any 8-bit F (instance %m)");
        $finish;
    end
end

wire [STAGE_COUNT_WIDTH-1:0] stage_limit = {{(STAGE_COUNT_WIDTH-8){1'b0}}, fast_recovery_stages};
wire time_in_fast_recovery = time_stage <= stage_limit;
wire byte_in_fast_recovery = byte_stage <= stage_limit;

wire [1:0] increase_stage = time_in_fast_recovery && byte_in_fast_recovery ? `DCQCN_STAGE_FAST_RECOVERY
                          : time_in_fast_recovery || byte_in_fast_recovery ? `DCQCN_STAGE_ADDITIVE_INCREASE
                          : `DCQCN_STAGE_HYPER_INCREASE;
wire [RATE_WIDTH-1:0] target_increase = increase_stage == `DCQCN_STAGE_FAST_RECOVERY ? {RATE_WIDTH{1'b0}}
                                      : increase_stage == `DCQCN_STAGE_ADDITIVE_INCREASE ? additive_increase_mbps
                                      : hyper_increase_mbps;

// One bit wider than a rate: neither sum may wrap before it is clamped or halved
wire [RATE_WIDTH:0] raised_target = {1'b0, target_rate_mbps} + {1'b0, target_increase};
assign next_target_rate_mbps = raised_target > {1'b0, line_rate_mbps} ? line_rate_mbps : raised_target[RATE_WIDTH-1:0];
wire [RATE_WIDTH:0] rates_sum = {1'b0, next_target_rate_mbps} + {1'b0, current_rate_mbps} + 1'b1;
assign next_current_rate_mbps = rates_sum[RATE_WIDTH:1];

assign recovered = next_current_rate_mbps == line_rate_mbps;
assign next_stage = recovered ? `DCQCN_STAGE_UNTHROTTLED : increase_stage;

endmodule

`resetall
