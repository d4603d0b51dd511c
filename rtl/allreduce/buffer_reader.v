// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Streams a run of beats out of a registered-read buffer port, one beat per cycle, with backpressure
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The caller says which beat may be read next (read_allowed, for data hazards); the reader keeps
// reads in flight only while the output FIFO has room for them, so no beat is ever lost.
module buffer_reader #(
    // Width of a beat in bits
    parameter DATA_WIDTH = 512,
    // Width of a beat address
    parameter ADDR_WIDTH = 10,
    // Width of a beat count
    parameter COUNT_WIDTH = 24
) (
    input  wire                    clk,
    input  wire                    rst,

    // A pulse with the run to send: first address, beats, tkeep of the final beat, and whether
    // the run ends with the whole vector's last (possibly partial) beat
    input  wire                    run_start,
    input  wire [ADDR_WIDTH-1:0]   run_address,
    input  wire [COUNT_WIDTH-1:0]  run_beats,
    input  wire [DATA_WIDTH/8-1:0] run_final_keep,
    input  wire                    run_ends_vector,
    output wire                    run_busy,
    // How many beats of the run have been issued (the caller's hazard check uses it)
    output reg  [COUNT_WIDTH-1:0]  beats_issued,
    input  wire                    read_allowed,

    output wire [ADDR_WIDTH-1:0]   read_address,
    input  wire [DATA_WIDTH-1:0]   read_data,

    output wire [DATA_WIDTH-1:0]   m_axis_tdata,
    output wire [DATA_WIDTH/8-1:0] m_axis_tkeep,
    output wire                    m_axis_tvalid,
    input  wire                    m_axis_tready,
    output wire                    m_axis_tlast
);

localparam KEEP_WIDTH = DATA_WIDTH / 8;
localparam FIFO_DEPTH = 4;

reg [ADDR_WIDTH-1:0]  next_address;
reg [COUNT_WIDTH-1:0] beats_left;
reg [KEEP_WIDTH-1:0]  final_keep;
reg                   ends_vector;
reg                   issued_valid, issued_last;
reg [KEEP_WIDTH-1:0]  issued_keep;
// Beats read but not yet taken from the FIFO's output
reg [3:0]             in_flight;

wire output_beat = m_axis_tvalid && m_axis_tready;
wire issue = beats_left != 0 && read_allowed && in_flight < FIFO_DEPTH;
wire issuing_last = beats_left == 1;

assign run_busy = beats_left != 0 || in_flight != 0;
assign read_address = next_address;

always @(posedge clk) begin
    issued_valid <= issue;
    issued_last <= issue && issuing_last;
    issued_keep <= (issue && issuing_last && ends_vector) ? final_keep : {KEEP_WIDTH{1'b1}};
    in_flight <= in_flight + {3'd0, issue} - {3'd0, output_beat};
    if (issue) begin
        next_address <= next_address + 1'b1;
        beats_left <= beats_left - 1'b1;
        beats_issued <= beats_issued + 1'b1;
    end
    if (run_start) begin
        next_address <= run_address;
        beats_left <= run_beats;
        beats_issued <= {COUNT_WIDTH{1'b0}};
        final_keep <= run_final_keep;
        ends_vector <= run_ends_vector;
    end
    if (rst) begin
        beats_left <= {COUNT_WIDTH{1'b0}};
        beats_issued <= {COUNT_WIDTH{1'b0}};
        issued_valid <= 1'b0;
        in_flight <= 4'd0;
    end
end

// Room for every beat in flight is reserved before its read is issued, so the FIFO's tready
// is always high when a read returns.
axis_fifo #(
    .DEPTH(FIFO_DEPTH),
    .DATA_WIDTH(DATA_WIDTH),
    .KEEP_WIDTH(KEEP_WIDTH),
    .USER_WIDTH(1),
    .FRAME_FIFO(0)
) output_fifo_inst (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(read_data),
    .s_axis_tkeep(issued_keep),
    .s_axis_tvalid(issued_valid),
    .s_axis_tready(),
    .s_axis_tlast(issued_last),
    .s_axis_tuser(1'b0),
    .m_axis_tdata(m_axis_tdata),
    .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tready(m_axis_tready),
    .m_axis_tlast(m_axis_tlast),
    .m_axis_tuser(),
    .status_good_frame(),
    .status_bad_frame(),
    .status_oversize_frame()
);

endmodule

`resetall
