// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Priority encoder: the index of the lowest set bit of a vector, and whether there is one
`resetall
`timescale 1ns / 1ps
`default_nettype none

module lowest_set_bit #(
    parameter WIDTH = 8,
    parameter INDEX_WIDTH = WIDTH > 1 ? $clog2(WIDTH) : 1
) (
    input  wire [WIDTH-1:0]       bits,
    output reg                    found,
    output reg  [INDEX_WIDTH-1:0] index    // 0 when none is set
);

integer scan;
always @* begin
    found = 1'b0;
    index = {INDEX_WIDTH{1'b0}};
    for (scan = WIDTH - 1; scan >= 0; scan = scan - 1) begin
        if (bits[scan]) begin
            found = 1'b1;
            index = scan[INDEX_WIDTH-1:0];
        end
    end
end

endmodule

`resetall
