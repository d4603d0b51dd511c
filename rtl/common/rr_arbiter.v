// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Round-robin arbiter: grants the first requester after the one granted last
`resetall
`timescale 1ns / 1ps
`default_nettype none

module rr_arbiter #(
    // Number of requesters
    parameter PORTS = 4,
    // Width of the grant index output
    parameter INDEX_WIDTH = PORTS > 1 ? $clog2(PORTS) : 1
) (
    input  wire                   clk,
    input  wire                   rst,

    input  wire [PORTS-1:0]       request,
    // Pulse when the current grant is taken; the next search starts after it
    input  wire                   grant_taken,

    output reg                    grant_valid,
    output reg  [INDEX_WIDTH-1:0] grant_index
);

initial begin
    if (PORTS < 1 || (1 << INDEX_WIDTH) < PORTS) begin
        $error("Error: PORTS must be at least 1 and fit in INDEX_WIDTH bits (instance %m)");
        $finish;
    end
end

localparam [INDEX_WIDTH:0]   PORT_COUNT = PORTS[INDEX_WIDTH:0];
localparam [INDEX_WIDTH:0]   LAST_PORT_WIDE = PORT_COUNT - 1;
localparam [INDEX_WIDTH-1:0] LAST_PORT = LAST_PORT_WIDE[INDEX_WIDTH-1:0];

reg [INDEX_WIDTH-1:0] last_granted;
reg [INDEX_WIDTH:0]   candidate;
integer offset;

always @* begin
    grant_valid = 1'b0;
    grant_index = {INDEX_WIDTH{1'b0}};
    for (offset = 1; offset <= PORTS; offset = offset + 1) begin
        candidate = {1'b0, last_granted} + offset[INDEX_WIDTH:0];
        if (candidate >= PORT_COUNT) begin
            candidate = candidate - PORT_COUNT;
        end
        if (!grant_valid && request[candidate[INDEX_WIDTH-1:0]]) begin
            grant_valid = 1'b1;
            grant_index = candidate[INDEX_WIDTH-1:0];
        end
    end
end

always @(posedge clk) begin
    if (grant_taken && grant_valid) begin
        last_granted <= grant_index;
    end
    if (rst) begin
        // Start so that port 0 wins the first search
        last_granted <= LAST_PORT;
    end
end

`ifdef FORMAL
// For the proof in tb/formal (read_verilog -formal defines FORMAL): the pointer only ever holds a
// port number, the reset value or a granted index. Stated here because the harness cannot see
// inside, and k-induction would otherwise start from a pointer of 5 to 7 that no reset reaches.
// The proofs hold reset in their first cycle.
always @(*) begin
    if (!rst) assert(last_granted < PORT_COUNT);
end
`endif

endmodule

`resetall
