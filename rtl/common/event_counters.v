// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Event counters: COUNT free-running counters, each advanced by its own increment every cycle
`resetall
`timescale 1ns / 1ps
`default_nettype none

// For register blocks that count events by cause (1 per pulse) and bytes (a beat's byte count):
// one adder per counter, wrapping at 2^WIDTH, all cleared together.
module event_counters #(
    // Number of counters
    parameter COUNT = 4,
    // Bits per counter
    parameter WIDTH = 32,
    // Bits per increment
    parameter INCREMENT_WIDTH = 8
) (
    input  wire                             clk,
    input  wire                             rst,
    input  wire                             clear,
    // Counter i adds increments[i*INCREMENT_WIDTH +: INCREMENT_WIDTH] each cycle
    input  wire [COUNT*INCREMENT_WIDTH-1:0] increments,
    output reg  [COUNT*WIDTH-1:0]           values
);

initial begin
    if (COUNT < 1 || WIDTH < INCREMENT_WIDTH) begin
        $error("Error: need COUNT >= 1 and WIDTH >= INCREMENT_WIDTH (instance %m)");
        $finish;
    end
end

integer index;
always @(posedge clk) begin
    for (index = 0; index < COUNT; index = index + 1) begin
        values[index*WIDTH +: WIDTH] <= values[index*WIDTH +: WIDTH]
            + {{(WIDTH-INCREMENT_WIDTH){1'b0}}, increments[index*INCREMENT_WIDTH +: INCREMENT_WIDTH]};
    end
    if (rst || clear) begin
        values <= {COUNT*WIDTH{1'b0}};
    end
end

endmodule

`resetall
