// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// UART receiver: 8N1 bytes from a serial line onto a byte stream, framing errors dropped and flagged
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The line is asynchronous to clk, so it passes two flops before anything looks at it. A start
// bit must still be low at its middle, so a glitch shorter than half a bit is not a byte. Each
// bit is sampled at its middle, which tolerates a baud mismatch of several percent. A byte whose
// stop bit is low is dropped (framing error); the link's CRC then fails the frame it belonged to.
module uart_rx #(
    // Clock cycles per bit: clock frequency / baud rate (4 or more)
    parameter CLKS_PER_BIT = 217
) (
    input  wire       clk,
    input  wire       rst,

    input  wire       rxd,

    output reg  [7:0] m_axis_tdata,
    output reg        m_axis_tvalid,
    input  wire       m_axis_tready,

    // One cycle per byte dropped for a low stop bit
    output reg        framing_error,
    // One cycle per byte dropped because the previous one had not been taken
    output reg        overrun
);

initial begin
    if (CLKS_PER_BIT < 4) begin
        $error("Error: CLKS_PER_BIT must be at least 4 (instance %m)");
        $finish;
    end
end

localparam COUNT_WIDTH = $clog2(CLKS_PER_BIT + 1);
localparam integer FULL_BIT = CLKS_PER_BIT - 1;
localparam integer HALF_BIT = CLKS_PER_BIT / 2 - 1;

localparam [1:0] STATE_IDLE = 2'd0, STATE_START = 2'd1, STATE_DATA = 2'd2, STATE_STOP = 2'd3;

reg [1:0]             rxd_sync;
reg [1:0]             state;
reg [COUNT_WIDTH-1:0] bit_timer;
reg [2:0]             bit_index;
reg [7:0]             shift;

wire line = rxd_sync[1];

always @(posedge clk) begin
    rxd_sync <= {rxd_sync[0], rxd};
    framing_error <= 1'b0;
    overrun <= 1'b0;
    if (m_axis_tvalid && m_axis_tready) begin
        m_axis_tvalid <= 1'b0;
    end
    if (bit_timer != 0) begin
        bit_timer <= bit_timer - 1'b1;
    end

    case (state)
        STATE_IDLE: begin
            if (!line) begin
                state <= STATE_START;
                bit_timer <= HALF_BIT[COUNT_WIDTH-1:0];
            end
        end
        STATE_START: begin
            if (bit_timer == 0) begin
                if (line) begin
                    state <= STATE_IDLE;  // a glitch, not a start bit
                end else begin
                    state <= STATE_DATA;
                    bit_timer <= FULL_BIT[COUNT_WIDTH-1:0];
                    bit_index <= 3'd0;
                end
            end
        end
        STATE_DATA: begin
            if (bit_timer == 0) begin
                shift <= {line, shift[7:1]};  // least significant bit first
                bit_timer <= FULL_BIT[COUNT_WIDTH-1:0];
                bit_index <= bit_index + 3'd1;
                if (bit_index == 3'd7) begin
                    state <= STATE_STOP;
                end
            end
        end
        default: begin  // STATE_STOP
            if (bit_timer == 0) begin
                state <= STATE_IDLE;
                if (!line) begin
                    framing_error <= 1'b1;
                end else if (m_axis_tvalid && !m_axis_tready) begin
                    overrun <= 1'b1;
                end else begin
                    m_axis_tdata <= shift;
                    m_axis_tvalid <= 1'b1;
                end
            end
        end
    endcase

    if (rst) begin
        rxd_sync <= 2'b11;
        state <= STATE_IDLE;
        bit_timer <= 0;
        bit_index <= 3'd0;
        shift <= 8'd0;
        m_axis_tdata <= 8'd0;
        m_axis_tvalid <= 1'b0;
        framing_error <= 1'b0;
        overrun <= 1'b0;
    end
end

endmodule

`resetall
