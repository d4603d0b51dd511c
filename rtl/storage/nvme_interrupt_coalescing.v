// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// NVMe Interrupt Coalescing: completion interrupts of I/O completion queues held per vector until enough entries or enough time has gone by
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Feature 08h (Set Features CDW11): Aggregation Threshold THR (bits 7:0, a 0's based count of
// completion entries per interrupt) and Aggregation Time TIME (bits 15:8, the longest a
// controller may hold an interrupt back for coalescing, in 100 us units; 0 is no delay). The
// Admin Completion Queue is never coalesced, nor is a vector whose Coalescing Disable the host
// set (Feature 09h, Interrupt Vector Configuration).
// Each completion entry asks for its CQ's vector. An admin entry, or any entry while TIME is 0,
// goes straight through (and carries the entries of I/O CQs held on the same vector with it).
// Otherwise the vector counts it; the vector's interrupt goes out when THR + 1 entries are held,
// or when TIME units (ticks of TIME_UNIT_CYCLES) have begun since the first one: at most TIME x
// 100 us late. One held vector goes out a cycle, the lowest first, whenever nothing passes
// straight through.
module nvme_interrupt_coalescing #(
    // MSI-X vectors an entry may ask for (a power of two: the request names one in full)
    parameter VECTORS = 32,
    // Cycles of the 100 us Aggregation Time unit (250 MHz)
    parameter TIME_UNIT_CYCLES = 25000
) (
    input  wire                       clk,
    input  wire                       rst,          // also when the controller is disabled

    input  wire [15:0]                setting,      // Feature 08h: TIME in 15:8, THR in 7:0

    input  wire                       request_valid,  // a completion entry went out
    input  wire [VECTOR_WIDTH-1:0]    request_vector,
    input  wire                       request_admin,
    input  wire [VECTORS-1:0]         vector_not_coalesced, // Feature 09h's Coalescing Disable per vector

    output wire                       interrupt_valid,
    output wire [VECTOR_WIDTH-1:0]    interrupt_vector
);

initial begin
    if (VECTORS < 2 || (VECTORS & (VECTORS - 1)) != 0 || TIME_UNIT_CYCLES < 2) begin
        $error("Error: VECTORS must be a power of two, 2 or more, and TIME_UNIT_CYCLES 2 or more (instance %m)");
        $finish;
    end
end

localparam VECTOR_WIDTH = $clog2(VECTORS);
localparam UNIT_WIDTH = $clog2(TIME_UNIT_CYCLES);
localparam [UNIT_WIDTH-1:0] LAST_UNIT_CYCLE = TIME_UNIT_CYCLES - 1;

wire [7:0] threshold = setting[7:0];
wire [7:0] time_limit = setting[15:8];

reg [UNIT_WIDTH-1:0] unit_cycle;
wire                 unit_tick = unit_cycle == LAST_UNIT_CYCLE;

reg [7:0] held [0:VECTORS-1];        // entries held per vector
reg [7:0] units [0:VECTORS-1];       // time units begun since the first of them

wire pass = request_valid && (request_admin || vector_not_coalesced[request_vector] || time_limit == 8'd0);

// The lowest vector that is due
wire [VECTORS-1:0]     due;
wire                   due_found;
wire [VECTOR_WIDTH-1:0] due_vector;
genvar due_index;
generate
    for (due_index = 0; due_index < VECTORS; due_index = due_index + 1) begin : due_vectors
        assign due[due_index] = held[due_index] != 8'd0
                             && (held[due_index] > threshold || units[due_index] >= time_limit);
    end
endgenerate
lowest_set_bit #(
    .WIDTH(VECTORS)
) due_select_inst (
    .bits(due), .found(due_found), .index(due_vector)
);

assign interrupt_valid = pass || due_found;
assign interrupt_vector = pass ? request_vector : due_vector;

integer vector;
always @(posedge clk) begin
    unit_cycle <= unit_tick ? {UNIT_WIDTH{1'b0}} : unit_cycle + 1'b1;
    for (vector = 0; vector < VECTORS; vector = vector + 1) begin
        if (unit_tick && held[vector] != 8'd0 && units[vector] != 8'hFF) begin
            units[vector] <= units[vector] + 8'd1;
        end
    end
    if (!pass && due_found) begin
        held[due_vector] <= 8'd0;
    end
    if (pass) begin
        held[request_vector] <= 8'd0;
    end else if (request_valid) begin
        // Held; the first one starts the clock
        if (held[request_vector] == 8'd0 || (due_found && due_vector == request_vector)) begin
            held[request_vector] <= 8'd1;
            units[request_vector] <= 8'd0;
        end else if (held[request_vector] != 8'hFF) begin
            held[request_vector] <= held[request_vector] + 8'd1;
        end
    end
    if (rst) begin
        unit_cycle <= {UNIT_WIDTH{1'b0}};
        for (vector = 0; vector < VECTORS; vector = vector + 1) begin
            held[vector] <= 8'd0;
            units[vector] <= 8'd0;
        end
    end
end

endmodule

`resetall
