// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// QP context RAM: each queue pair's set-up fields and its engine side's state, cleared after reset, set up by the host, written back by an FSM
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The requester and the responder each keep one of these: the host's set-up fields of every QP
// (written only when the host commits a QP) beside the state the side's FSM keeps for it (reset
// by that commit, then written back by the FSM after each job). The caller packs its named
// fields into the two words and unpacks them again; this block knows only their widths.
//
// A RAM has no reset: after reset every entry is written to zero, one per cycle, so that no QP
// exists by accident; `ready` is low until that is done and no other write lands meanwhile. The
// RAMs have one write port each: a state write-back in the cycle of a set-up is dropped (the
// callers hold write-backs back while the host commits, and a commit starts its QP afresh
// whatever the FSM was doing with it). A read returns the entry as it was before this cycle's
// write, the cycle after, and holds it until the next read.
module roce_qp_context #(
    // Queue pairs (a power of two, 2 or more)
    parameter QP_COUNT = 256,
    // Bits of a QP's set-up fields
    parameter CONFIG_WIDTH = 8,
    // Bits of a QP's state
    parameter STATE_WIDTH = 8
) (
    input  wire                        clk,
    input  wire                        rst,

    output wire                        ready,

    // The host sets QP config_index up: its set-up fields, and the state it starts from
    input  wire                        config_write,
    input  wire [$clog2(QP_COUNT)-1:0] config_index,
    input  wire [CONFIG_WIDTH-1:0]     config_data,
    input  wire [STATE_WIDTH-1:0]      config_initial_state,

    // The FSM writes a QP's state back
    input  wire                        state_write,
    input  wire [$clog2(QP_COUNT)-1:0] state_write_index,
    input  wire [STATE_WIDTH-1:0]      state_write_data,

    input  wire                        read,
    input  wire [$clog2(QP_COUNT)-1:0] read_index,
    output reg  [CONFIG_WIDTH-1:0]     config_read_data,
    output reg  [STATE_WIDTH-1:0]      state_read_data
);

localparam INDEX_WIDTH = $clog2(QP_COUNT);
localparam [INDEX_WIDTH-1:0] LAST_INDEX = {INDEX_WIDTH{1'b1}};  // QP_COUNT is a power of two

initial begin
    if (QP_COUNT < 2 || (QP_COUNT & (QP_COUNT - 1)) != 0) begin
        $error("Error: QP_COUNT must be a power of two, 2 or more (instance %m)");
        $finish;
    end
    if (CONFIG_WIDTH < 1 || STATE_WIDTH < 1) begin
        $error("Error: CONFIG_WIDTH and STATE_WIDTH must be 1 or more (instance %m)");
        $finish;
    end
end

// Block RAM at every QP count: at a few QPs a synthesiser would otherwise take these hundreds of
// bits per entry into LUT RAM, a slice's worth of logic for every 4 bits, which is what a small
// board runs out of first (docs/bringup.md)
(* ram_style = "block" *) reg [CONFIG_WIDTH-1:0] config_ram [0:QP_COUNT-1];
(* ram_style = "block" *) reg [STATE_WIDTH-1:0]  state_ram [0:QP_COUNT-1];

reg                   clearing;
reg [INDEX_WIDTH-1:0] clear_index;
assign ready = !clearing;

always @(posedge clk) begin
    if (clearing) begin
        config_ram[clear_index] <= {CONFIG_WIDTH{1'b0}};
        state_ram[clear_index] <= {STATE_WIDTH{1'b0}};
        clear_index <= clear_index + 1'b1;
        if (clear_index == LAST_INDEX) begin
            clearing <= 1'b0;
        end
    end else if (config_write) begin
        config_ram[config_index] <= config_data;
        state_ram[config_index] <= config_initial_state;
    end else if (state_write) begin
        state_ram[state_write_index] <= state_write_data;
    end
    if (rst) begin
        clearing <= 1'b1;
        clear_index <= {INDEX_WIDTH{1'b0}};
    end
end

always @(posedge clk) begin
    if (read) begin
        config_read_data <= config_ram[read_index];
        state_read_data <= state_ram[read_index];
    end
end

endmodule

`resetall
