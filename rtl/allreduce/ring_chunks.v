// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Chunk boundaries of a ring all-reduce: the vector's beats split as evenly as whole beats allow
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Chunk c holds beats floor(c*T/n) to floor((c+1)*T/n) - 1 of a T-beat vector on n ranks. The
// table is built by accumulating T/n and its remainder, one chunk per cycle, without a divider
// in the datapath (the quotient comes from a small serial divider first).
module ring_chunks #(
    // Largest ring size
    parameter MAX_RANKS = 16,
    // Width of a beat count
    parameter COUNT_WIDTH = 24,
    // Width of a rank index or ring size
    parameter RANK_WIDTH = 5
) (
    input  wire                   clk,
    input  wire                   rst,

    input  wire                   compute,
    input  wire [COUNT_WIDTH-1:0] total_beats,
    input  wire [RANK_WIDTH-1:0]  ranks,
    output reg                    ready,

    input  wire [RANK_WIDTH-1:0]  lookup_a_chunk,
    output wire [COUNT_WIDTH-1:0] lookup_a_start,
    output wire [COUNT_WIDTH-1:0] lookup_a_beats,
    input  wire [RANK_WIDTH-1:0]  lookup_b_chunk,
    output wire [COUNT_WIDTH-1:0] lookup_b_start,
    output wire [COUNT_WIDTH-1:0] lookup_b_beats
);

localparam [31:0] DIVIDE_STEPS = COUNT_WIDTH;

reg [COUNT_WIDTH-1:0] starts [0:MAX_RANKS];
reg [COUNT_WIDTH-1:0] quotient, remainder_of_division;
reg [COUNT_WIDTH-1:0] dividend;
reg [RANK_WIDTH-1:0]  running_remainder, chunk;
reg [5:0]             divide_steps;
reg                   dividing, filling;

assign lookup_a_start = starts[lookup_a_chunk];
assign lookup_a_beats = starts[lookup_a_chunk + 1'b1] - starts[lookup_a_chunk];
assign lookup_b_start = starts[lookup_b_chunk];
assign lookup_b_beats = starts[lookup_b_chunk + 1'b1] - starts[lookup_b_chunk];

wire [COUNT_WIDTH:0]  trial = {remainder_of_division, dividend[COUNT_WIDTH-1]} - {{COUNT_WIDTH+1-RANK_WIDTH{1'b0}}, ranks};
wire [RANK_WIDTH:0]   next_remainder = {1'b0, running_remainder} + {1'b0, remainder_of_division[RANK_WIDTH-1:0]};
wire                  carry = next_remainder >= {1'b0, ranks};

always @(posedge clk) begin
    if (dividing) begin
        // Restoring division, one quotient bit per cycle.
        if (!trial[COUNT_WIDTH]) begin
            remainder_of_division <= trial[COUNT_WIDTH-1:0];
            quotient <= {quotient[COUNT_WIDTH-2:0], 1'b1};
        end else begin
            remainder_of_division <= {remainder_of_division[COUNT_WIDTH-2:0], dividend[COUNT_WIDTH-1]};
            quotient <= {quotient[COUNT_WIDTH-2:0], 1'b0};
        end
        dividend <= dividend << 1;
        divide_steps <= divide_steps - 1'b1;
        if (divide_steps == 1) begin
            dividing <= 1'b0;
            filling <= 1'b1;
            chunk <= {RANK_WIDTH{1'b0}};
            running_remainder <= {RANK_WIDTH{1'b0}};
            starts[0] <= {COUNT_WIDTH{1'b0}};
        end
    end else if (filling) begin
        starts[chunk + 1'b1] <= starts[chunk] + quotient + {{COUNT_WIDTH-1{1'b0}}, carry};
        running_remainder <= carry ? next_remainder[RANK_WIDTH-1:0] - ranks : next_remainder[RANK_WIDTH-1:0];
        chunk <= chunk + 1'b1;
        if (chunk + 1'b1 == ranks) begin
            filling <= 1'b0;
            ready <= 1'b1;
        end
    end
    if (compute) begin
        dividend <= total_beats;
        remainder_of_division <= {COUNT_WIDTH{1'b0}};
        quotient <= {COUNT_WIDTH{1'b0}};
        divide_steps <= DIVIDE_STEPS[5:0];
        dividing <= 1'b1;
        filling <= 1'b0;
        ready <= 1'b0;
    end
    if (rst) begin
        dividing <= 1'b0;
        filling <= 1'b0;
        ready <= 1'b0;
    end
end

endmodule

`resetall
