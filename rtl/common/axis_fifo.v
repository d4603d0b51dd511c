// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Synchronous AXI4-Stream FIFO with an optional packet mode that drops bad and oversize frames
`resetall
`timescale 1ns / 1ps
`default_nettype none

module axis_fifo #(
    // Number of beats stored (a power of two)
    parameter DEPTH = 16,
    // Width of tdata in bits (a multiple of 8)
    parameter DATA_WIDTH = 64,
    // Width of tkeep in bits: one enable per byte of tdata
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // Width of tuser in bits
    parameter USER_WIDTH = 1,
    // 1: packet mode, a frame becomes visible at the output only once its last beat is stored
    parameter FRAME_FIFO = 0,
    // With FRAME_FIFO: drop a frame whose last beat carries tuser & USER_BAD_FRAME_MASK != 0
    parameter DROP_BAD_FRAME = 0,
    // With DROP_BAD_FRAME: the tuser bits that mark a frame bad
    parameter USER_BAD_FRAME_MASK = 1
) (
    input  wire                    clk,
    input  wire                    rst,

    input  wire [DATA_WIDTH-1:0]   s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0]   s_axis_tkeep,
    input  wire                    s_axis_tvalid,
    output wire                    s_axis_tready,
    input  wire                    s_axis_tlast,
    input  wire [USER_WIDTH-1:0]   s_axis_tuser,

    output wire [DATA_WIDTH-1:0]   m_axis_tdata,
    output wire [KEEP_WIDTH-1:0]   m_axis_tkeep,
    output wire                    m_axis_tvalid,
    input  wire                    m_axis_tready,
    output wire                    m_axis_tlast,
    output wire [USER_WIDTH-1:0]   m_axis_tuser,

    // One-cycle pulses, for counters
    output reg                     status_good_frame,
    output reg                     status_bad_frame,
    output reg                     status_oversize_frame
);

localparam ADDR_WIDTH = $clog2(DEPTH);
localparam BEAT_WIDTH = DATA_WIDTH + KEEP_WIDTH + 1 + USER_WIDTH;

initial begin
    if (DEPTH < 2 || (1 << ADDR_WIDTH) != DEPTH) begin
        $error("Error: DEPTH must be a power of two, at least 2 (instance %m)");
        $finish;
    end
    if (DATA_WIDTH % 8 != 0 || KEEP_WIDTH * 8 != DATA_WIDTH) begin
        $error("Error: DATA_WIDTH must be a multiple of 8 and KEEP_WIDTH = DATA_WIDTH/8 (instance %m)");
        $finish;
    end
    if (DROP_BAD_FRAME && !FRAME_FIFO) begin
        $error("Error: DROP_BAD_FRAME needs FRAME_FIFO (instance %m)");
        $finish;
    end
end

reg [BEAT_WIDTH-1:0] storage [0:DEPTH-1];

// Pointers carry one extra bit so that full and empty differ. write_pointer runs ahead through
// the frame being written; committed_pointer is what the reader may see.
reg [ADDR_WIDTH:0] write_pointer;
reg [ADDR_WIDTH:0] committed_pointer;
reg [ADDR_WIDTH:0] read_pointer;
reg                dropping_frame;

reg [BEAT_WIDTH-1:0] output_beat;
reg                  output_valid;

wire [ADDR_WIDTH:0] stored_beats = write_pointer - read_pointer;
wire                full = stored_beats[ADDR_WIDTH];
wire                empty = committed_pointer == read_pointer;
wire [ADDR_WIDTH:0] frame_beats = write_pointer - committed_pointer;
// A frame that alone fills the FIFO can never complete: it must be dropped, not waited on.
wire                frame_fills_fifo = FRAME_FIFO && frame_beats[ADDR_WIDTH];

assign s_axis_tready = !full || dropping_frame || frame_fills_fifo;

wire input_accepted = s_axis_tvalid && s_axis_tready;
wire frame_marked_bad = DROP_BAD_FRAME && ((s_axis_tuser & USER_BAD_FRAME_MASK) != 0);
wire output_can_advance = m_axis_tready || !output_valid;

assign {m_axis_tuser, m_axis_tlast, m_axis_tkeep, m_axis_tdata} = output_beat;
assign m_axis_tvalid = output_valid;

always @(posedge clk) begin
    status_good_frame <= 1'b0;
    status_bad_frame <= 1'b0;
    status_oversize_frame <= 1'b0;

    if (input_accepted) begin
        if (dropping_frame || frame_fills_fifo) begin
            dropping_frame <= !s_axis_tlast;
            write_pointer <= committed_pointer;
            if (!dropping_frame) begin
                status_oversize_frame <= 1'b1;
            end
        end else begin
            storage[write_pointer[ADDR_WIDTH-1:0]] <= {s_axis_tuser, s_axis_tlast, s_axis_tkeep, s_axis_tdata};
            if (!FRAME_FIFO) begin
                write_pointer <= write_pointer + 1;
                committed_pointer <= write_pointer + 1;
                status_good_frame <= s_axis_tlast;
            end else if (s_axis_tlast && frame_marked_bad) begin
                write_pointer <= committed_pointer;
                status_bad_frame <= 1'b1;
            end else if (s_axis_tlast) begin
                write_pointer <= write_pointer + 1;
                committed_pointer <= write_pointer + 1;
                status_good_frame <= 1'b1;
            end else begin
                write_pointer <= write_pointer + 1;
            end
        end
    end

    if (output_can_advance) begin
        output_valid <= !empty;
        if (!empty) begin
            output_beat <= storage[read_pointer[ADDR_WIDTH-1:0]];
            read_pointer <= read_pointer + 1;
        end
    end

    if (rst) begin
        write_pointer <= 0;
        committed_pointer <= 0;
        read_pointer <= 0;
        dropping_frame <= 1'b0;
        output_valid <= 1'b0;
        status_good_frame <= 1'b0;
        status_bad_frame <= 1'b0;
        status_oversize_frame <= 1'b0;
    end
end

endmodule

`resetall
