// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// AXI4-Stream FIFO between two unrelated clocks, optionally releasing only whole frames
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The write side and the read side each keep a binary pointer and publish its Gray code; the other
// side samples it through two flip-flops. Gray code changes one bit per step, so a sample taken
// while it changes is either the old or the new pointer, never a mix: the reader may see the FIFO
// emptier and the writer fuller than they are, never the reverse.
//
// FRAME_FIFO: the pointer published to the read side moves only when a frame's last beat is stored,
// so a frame leaves without gaps once it starts. A MAC's transmit side needs this (a 100G MAC that
// runs dry inside a frame aborts it); DEPTH must then hold the longest frame, or it never leaves.
//
// Both resets must come from one source, each synchronised to its own clock (reset_synchronizer):
// the sides reset their own pointers and a FIFO reset on one side only would leave them disagreeing.
module axis_async_fifo #(
    // Number of beats stored (a power of two, at least 4)
    parameter DEPTH = 64,
    // Width of tdata in bits (a multiple of 8)
    parameter DATA_WIDTH = 512,
    // Width of tkeep in bits: one enable per byte of tdata
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // Width of tuser in bits
    parameter USER_WIDTH = 1,
    // 1: a frame becomes visible at the read side only once its last beat is stored
    parameter FRAME_FIFO = 0
) (
    input  wire                    s_clk,
    input  wire                    s_rst,
    input  wire [DATA_WIDTH-1:0]   s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0]   s_axis_tkeep,
    input  wire                    s_axis_tvalid,
    output wire                    s_axis_tready,
    input  wire                    s_axis_tlast,
    input  wire [USER_WIDTH-1:0]   s_axis_tuser,

    input  wire                    m_clk,
    input  wire                    m_rst,
    output reg  [DATA_WIDTH-1:0]   m_axis_tdata,
    output reg  [KEEP_WIDTH-1:0]   m_axis_tkeep,
    output reg                     m_axis_tvalid,
    input  wire                    m_axis_tready,
    output reg                     m_axis_tlast,
    output reg  [USER_WIDTH-1:0]   m_axis_tuser
);

localparam ADDR_WIDTH = $clog2(DEPTH);
localparam BEAT_WIDTH = DATA_WIDTH + KEEP_WIDTH + 1 + USER_WIDTH;

initial begin
    if (DEPTH < 4 || (1 << ADDR_WIDTH) != DEPTH) begin
        $error("Error: DEPTH must be a power of two, at least 4 (instance %m)");
        $finish;
    end
    if (DATA_WIDTH % 8 != 0 || KEEP_WIDTH * 8 != DATA_WIDTH) begin
        $error("Error: DATA_WIDTH must be a multiple of 8 and KEEP_WIDTH = DATA_WIDTH/8 (instance %m)");
        $finish;
    end
end

function [ADDR_WIDTH:0] to_gray(input [ADDR_WIDTH:0] binary);
    to_gray = binary ^ (binary >> 1);
endfunction

reg [BEAT_WIDTH-1:0] beats [0:DEPTH-1];

// ---- Write side (s_clk) ----

reg  [ADDR_WIDTH:0] write_pointer;
// What the read side may take: every stored beat, or in frame mode every beat of a finished frame
reg  [ADDR_WIDTH:0] published_gray;
(* ASYNC_REG = "TRUE" *) reg [ADDR_WIDTH:0] read_gray_meta, read_gray_seen;

// Full: the writer is a whole FIFO ahead of the reader (top two Gray bits inverted, the rest equal)
wire full = to_gray(write_pointer) == {~read_gray_seen[ADDR_WIDTH:ADDR_WIDTH-1], read_gray_seen[ADDR_WIDTH-2:0]};
wire write = s_axis_tvalid && !full;
assign s_axis_tready = !full;

always @(posedge s_clk) begin
    read_gray_meta <= read_gray;
    read_gray_seen <= read_gray_meta;
    if (write) begin
        beats[write_pointer[ADDR_WIDTH-1:0]] <= {s_axis_tuser, s_axis_tlast, s_axis_tkeep, s_axis_tdata};
        write_pointer <= write_pointer + 1'b1;
        if (!FRAME_FIFO || s_axis_tlast) begin
            published_gray <= to_gray(write_pointer + 1'b1);
        end
    end
    if (s_rst) begin
        write_pointer <= 0;
        published_gray <= 0;
        read_gray_meta <= 0;
        read_gray_seen <= 0;
    end
end

// ---- Read side (m_clk) ----

reg  [ADDR_WIDTH:0] read_pointer;
reg  [ADDR_WIDTH:0] read_gray;
(* ASYNC_REG = "TRUE" *) reg [ADDR_WIDTH:0] published_gray_meta, published_gray_seen;

wire empty = to_gray(read_pointer) == published_gray_seen;
// The output register is the FIFO's last stage: refill it whenever it is empty or being taken
wire read = !empty && (!m_axis_tvalid || m_axis_tready);

always @(posedge m_clk) begin
    published_gray_meta <= published_gray;
    published_gray_seen <= published_gray_meta;
    if (m_axis_tready) begin
        m_axis_tvalid <= 1'b0;
    end
    if (read) begin
        {m_axis_tuser, m_axis_tlast, m_axis_tkeep, m_axis_tdata} <= beats[read_pointer[ADDR_WIDTH-1:0]];
        m_axis_tvalid <= 1'b1;
        read_pointer <= read_pointer + 1'b1;
        read_gray <= to_gray(read_pointer + 1'b1);
    end
    if (m_rst) begin
        read_pointer <= 0;
        read_gray <= 0;
        published_gray_meta <= 0;
        published_gray_seen <= 0;
        m_axis_tvalid <= 1'b0;
    end
end

endmodule

`resetall
