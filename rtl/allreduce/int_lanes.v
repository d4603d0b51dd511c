// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Every lane of a beat as two's-complement integers: wrapping sum, signed maximum or minimum; registered
`resetall
`timescale 1ns / 1ps
`default_nettype none

module int_lanes #(
    // Width of a beat in bits
    parameter DATA_WIDTH = 512,
    // Width of one integer
    parameter LANE_WIDTH = 32
) (
    input  wire                  clk,
    // Compute this cycle (see fp_add): the result holds the last enabled beat
    input  wire                  enable,
    input  wire [DATA_WIDTH-1:0] a,
    input  wire [DATA_WIDTH-1:0] b,
    // 0 sum, 1 maximum, 2 minimum
    input  wire [1:0]            op,
    output wire [DATA_WIDTH-1:0] result
);

initial begin
    if (DATA_WIDTH % LANE_WIDTH != 0) begin
        $error("Error: DATA_WIDTH must be a whole number of LANE_WIDTH lanes (instance %m)");
        $finish;
    end
end

genvar lane;
generate
    for (lane = 0; lane < DATA_WIDTH / LANE_WIDTH; lane = lane + 1) begin : lanes
        wire signed [LANE_WIDTH-1:0] a_value = a[lane*LANE_WIDTH +: LANE_WIDTH];
        wire signed [LANE_WIDTH-1:0] b_value = b[lane*LANE_WIDTH +: LANE_WIDTH];
        wire a_greater = a_value > b_value;
        reg [LANE_WIDTH-1:0] lane_result;
        always @(posedge clk) begin
            if (enable) begin
                lane_result <= op == 2'd0 ? a_value + b_value :
                               op == 2'd1 ? (a_greater ? a_value : b_value) :
                                            (a_greater ? b_value : a_value);
            end
        end
        assign result[lane*LANE_WIDTH +: LANE_WIDTH] = lane_result;
    end
endgenerate

endmodule

`resetall
