// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// A node's transmit side into the switch: a frame cut off by the node's own reset is ended as a
// bad frame, as a MAC ends a truncated frame with a bad FCS
`resetall
`timescale 1ns / 1ps
`default_nettype none

// A node that resets in the middle of a frame stops sending without a last beat. Passed on as it
// is, the switch would take the node's next frame, after the reset, as the rest of the cut one.
// So while a frame is open and the node is in reset, this block sends one beat of its own (one
// byte, tlast, tuser set: a bad frame, which the switch forwards and the receiver drops), and
// holds the node back until that beat is taken. Outside a node reset it passes every signal
// through unchanged, with no added cycle.
module fabric_reset_guard #(
    // Width of tdata in bits (a multiple of 8)
    parameter DATA_WIDTH = 64,
    // Width of tkeep in bits: one enable per byte of tdata
    parameter KEEP_WIDTH = DATA_WIDTH / 8
) (
    input  wire                  clk,
    // The whole cluster's reset (the guard's own state)
    input  wire                  rst,
    // The node's reset, alone or with the cluster's
    input  wire                  node_rst,

    input  wire [DATA_WIDTH-1:0] s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0] s_axis_tkeep,
    input  wire                  s_axis_tvalid,
    output wire                  s_axis_tready,
    input  wire                  s_axis_tlast,

    output wire [DATA_WIDTH-1:0] m_axis_tdata,
    output wire [KEEP_WIDTH-1:0] m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,
    output wire                  m_axis_tuser
);

// A beat of the node's frame has gone to the switch and its last beat has not
reg frame_open;
// The node reset with a frame open: the closing bad-frame beat is owed
wire cut = frame_open && node_rst;
reg  cut_pending;
wire closing = cut || cut_pending;

assign m_axis_tdata  = closing ? {DATA_WIDTH{1'b0}} : s_axis_tdata;
assign m_axis_tkeep  = closing ? {{(KEEP_WIDTH-1){1'b0}}, 1'b1} : s_axis_tkeep;
assign m_axis_tvalid = closing || (s_axis_tvalid && !node_rst);
assign m_axis_tlast  = closing || s_axis_tlast;
assign m_axis_tuser  = closing;
assign s_axis_tready = m_axis_tready && !closing;

always @(posedge clk) begin
    if (closing && m_axis_tready) begin
        frame_open  <= 1'b0;
        cut_pending <= 1'b0;
    end else begin
        if (cut) begin
            // The closing beat waits for the switch; the frame stays open until it is taken
            cut_pending <= 1'b1;
        end
        if (s_axis_tvalid && s_axis_tready && !node_rst) begin
            frame_open <= !s_axis_tlast;
        end
    end
    if (rst) begin
        frame_open  <= 1'b0;
        cut_pending <= 1'b0;
    end
end

endmodule

`resetall
