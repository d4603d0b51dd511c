// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// UART transmitter: bytes from a stream onto a serial line as 8N1
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Every bit, the stop bit included, lasts exactly CLKS_PER_BIT cycles, and the next byte's start
// bit follows its stop bit without a gap, so a burst runs at the full bit rate.
module uart_tx #(
    // Clock cycles per bit: clock frequency / baud rate (4 or more)
    parameter CLKS_PER_BIT = 217
) (
    input  wire       clk,
    input  wire       rst,

    input  wire [7:0] s_axis_tdata,
    input  wire       s_axis_tvalid,
    output wire       s_axis_tready,

    output reg        txd
);

initial begin
    if (CLKS_PER_BIT < 4) begin
        $error("Error: CLKS_PER_BIT must be at least 4 (instance %m)");
        $finish;
    end
end

localparam COUNT_WIDTH = $clog2(CLKS_PER_BIT + 1);
localparam integer FULL_BIT = CLKS_PER_BIT - 1;

// Bits still to send after the one on the line: 8 data bits (least significant first), stop bit
reg [8:0]             pending;
// Bits on the line or pending; 0 when idle
reg [3:0]             bits_left;
// Cycles the bit on the line still lasts after this one
reg [COUNT_WIDTH-1:0] bit_timer;

wire bit_ends = bit_timer == 0;
assign s_axis_tready = bits_left == 4'd0 || (bits_left == 4'd1 && bit_ends);

always @(posedge clk) begin
    if (bits_left != 4'd0) begin
        if (!bit_ends) begin
            bit_timer <= bit_timer - 1'b1;
        end else begin
            bits_left <= bits_left - 4'd1;
            if (bits_left != 4'd1) begin
                txd <= pending[0];
                pending <= {1'b1, pending[8:1]};
                bit_timer <= FULL_BIT[COUNT_WIDTH-1:0];
            end
        end
    end
    if (s_axis_tvalid && s_axis_tready) begin
        txd <= 1'b0;  // start bit
        pending <= {1'b1, s_axis_tdata};
        bits_left <= 4'd10;
        bit_timer <= FULL_BIT[COUNT_WIDTH-1:0];
    end
    if (rst) begin
        pending <= 9'h1FF;
        bits_left <= 4'd0;
        bit_timer <= 0;
        txd <= 1'b1;
    end
end

endmodule

`resetall
