// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// AXI4-Stream skid buffer: registers every output and tready without losing throughput
`resetall
`timescale 1ns / 1ps
`default_nettype none

module axis_skid_buffer #(
    // Width of tdata in bits (a multiple of 8)
    parameter DATA_WIDTH = 64,
    // Width of tkeep in bits: one enable per byte of tdata
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // Width of tuser in bits
    parameter USER_WIDTH = 1,
    // Width of tid in bits
    parameter ID_WIDTH = 1
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire [DATA_WIDTH-1:0] s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0] s_axis_tkeep,
    input  wire                  s_axis_tvalid,
    output wire                  s_axis_tready,
    input  wire                  s_axis_tlast,
    input  wire [USER_WIDTH-1:0] s_axis_tuser,
    input  wire [ID_WIDTH-1:0]   s_axis_tid,

    output wire [DATA_WIDTH-1:0] m_axis_tdata,
    output wire [KEEP_WIDTH-1:0] m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,
    output wire [USER_WIDTH-1:0] m_axis_tuser,
    output wire [ID_WIDTH-1:0]   m_axis_tid
);

initial begin
    if (DATA_WIDTH % 8 != 0 || KEEP_WIDTH * 8 != DATA_WIDTH) begin
        $error("Error: DATA_WIDTH must be a multiple of 8 and KEEP_WIDTH = DATA_WIDTH/8 (instance %m)");
        $finish;
    end
end

localparam BEAT_WIDTH = DATA_WIDTH + KEEP_WIDTH + 1 + USER_WIDTH + ID_WIDTH;

// The output register holds the beat on offer; the skid register catches the one beat that
// arrives in the cycle after the sink stalls, because our tready is registered.
reg [BEAT_WIDTH-1:0] output_beat;
reg                  output_valid;
reg [BEAT_WIDTH-1:0] skid_beat;
reg                  skid_valid;

wire [BEAT_WIDTH-1:0] input_beat = {s_axis_tid, s_axis_tuser, s_axis_tlast, s_axis_tkeep, s_axis_tdata};
wire                  input_accepted = s_axis_tvalid && s_axis_tready;
wire                  output_can_advance = m_axis_tready || !output_valid;

assign s_axis_tready = !skid_valid;

assign {m_axis_tid, m_axis_tuser, m_axis_tlast, m_axis_tkeep, m_axis_tdata} = output_beat;
assign m_axis_tvalid = output_valid;

always @(posedge clk) begin
    if (output_can_advance) begin
        if (skid_valid) begin
            output_beat <= skid_beat;
            output_valid <= 1'b1;
            skid_valid <= 1'b0;
        end else begin
            output_beat <= input_beat;
            output_valid <= input_accepted;
        end
    end else if (input_accepted) begin
        skid_beat <= input_beat;
        skid_valid <= 1'b1;
    end

    if (rst) begin
        output_valid <= 1'b0;
        skid_valid <= 1'b0;
    end
end

endmodule

`resetall
