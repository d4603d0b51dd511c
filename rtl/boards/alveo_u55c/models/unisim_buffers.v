// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Simulation models of the three UltraScale+ clock buffers the Alveo top instantiates
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Vivado supplies the real primitives (UNISIM); these stand in for them where Vivado is absent,
// with the same names and ports, and behave as a buffer does in a zero-delay simulation.

// Transceiver reference clock input: O is the clock, ODIV2 the same clock divided by 1 or 2 as
// the transceiver is configured; here both follow the input (a simulation runs at one rate).
module IBUFDS_GTE4 #(
    parameter [1:0] REFCLK_HROW_CK_SEL = 2'b00
) (
    input  wire I,
    input  wire IB,
    input  wire CEB,
    output wire O,
    output wire ODIV2
);
/* verilator lint_off UNUSEDSIGNAL */
wire unused = IB;
/* verilator lint_on UNUSEDSIGNAL */
assign O = I && !CEB;
assign ODIV2 = I && !CEB;
endmodule

// Differential input buffer: the positive leg's level
module IBUFDS (
    input  wire I,
    input  wire IB,
    output wire O
);
/* verilator lint_off UNUSEDSIGNAL */
wire unused = IB;
/* verilator lint_on UNUSEDSIGNAL */
assign O = I;
endmodule

// Global clock buffer
module BUFG (
    input  wire I,
    output wire O
);
assign O = I;
endmodule

`resetall
