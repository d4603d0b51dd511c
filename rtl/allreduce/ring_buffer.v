// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Local buffer of a ring rank: one write port, two registered read ports (block-RAM style)
`resetall
`timescale 1ns / 1ps
`default_nettype none

module ring_buffer #(
    // Width of a beat in bits
    parameter DATA_WIDTH = 512,
    // Beats held (a power of two)
    parameter DEPTH = 1024,
    // Width of a beat address
    parameter ADDR_WIDTH = $clog2(DEPTH)
) (
    input  wire                  clk,

    input  wire                  write_enable,
    input  wire [ADDR_WIDTH-1:0] write_address,
    input  wire [DATA_WIDTH-1:0] write_data,

    input  wire [ADDR_WIDTH-1:0] read_a_address,
    output reg  [DATA_WIDTH-1:0] read_a_data,

    input  wire [ADDR_WIDTH-1:0] read_b_address,
    output reg  [DATA_WIDTH-1:0] read_b_data
);

initial begin
    if ((1 << ADDR_WIDTH) != DEPTH) begin
        $error("Error: DEPTH must be a power of two matching ADDR_WIDTH (instance %m)");
        $finish;
    end
end

reg [DATA_WIDTH-1:0] memory [0:DEPTH-1];

// A read of the address being written returns the old beat; the ring engines never rely on
// anything else (they read a beat only in a cycle after the one that wrote it).
always @(posedge clk) begin
    if (write_enable) begin
        memory[write_address] <= write_data;
    end
    read_a_data <= memory[read_a_address];
    read_b_data <= memory[read_b_address];
end

endmodule

`resetall
