// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// AXI4-Stream arbitrated multiplexer: whole frames from S_COUNT inputs, round-robin, tid = source
`resetall
`timescale 1ns / 1ps
`default_nettype none

module axis_arb_mux #(
    // Number of input streams
    parameter S_COUNT = 4,
    // Width of tdata in bits (a multiple of 8)
    parameter DATA_WIDTH = 64,
    // Width of tkeep in bits: one enable per byte of tdata
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // Width of tuser in bits
    parameter USER_WIDTH = 1,
    // Width of m_axis_tid, which carries the index of the input a frame came from
    parameter ID_WIDTH = S_COUNT > 1 ? $clog2(S_COUNT) : 1
) (
    input  wire                          clk,
    input  wire                          rst,

    input  wire [S_COUNT*DATA_WIDTH-1:0] s_axis_tdata,
    input  wire [S_COUNT*KEEP_WIDTH-1:0] s_axis_tkeep,
    input  wire [S_COUNT-1:0]            s_axis_tvalid,
    output wire [S_COUNT-1:0]            s_axis_tready,
    input  wire [S_COUNT-1:0]            s_axis_tlast,
    input  wire [S_COUNT*USER_WIDTH-1:0] s_axis_tuser,

    output wire [DATA_WIDTH-1:0]         m_axis_tdata,
    output wire [KEEP_WIDTH-1:0]         m_axis_tkeep,
    output wire                          m_axis_tvalid,
    input  wire                          m_axis_tready,
    output wire                          m_axis_tlast,
    output wire [USER_WIDTH-1:0]         m_axis_tuser,
    output wire [ID_WIDTH-1:0]           m_axis_tid
);

initial begin
    if (S_COUNT < 1 || (1 << ID_WIDTH) < S_COUNT) begin
        $error("Error: S_COUNT must be at least 1 and fit in ID_WIDTH bits (instance %m)");
        $finish;
    end
end

wire               arbiter_grant_valid;
wire [ID_WIDTH-1:0] arbiter_grant_index;

// A grant holds from the first beat offered until the last beat of that frame is taken, so
// frames never interleave and an offered beat never changes before it is accepted.
reg                frame_locked;
reg [ID_WIDTH-1:0] locked_source;

wire                selected_valid = frame_locked || arbiter_grant_valid;
wire [ID_WIDTH-1:0] selected_source = frame_locked ? locked_source : arbiter_grant_index;

wire internal_tready;
wire internal_tvalid = selected_valid && s_axis_tvalid[selected_source];
wire internal_tlast = s_axis_tlast[selected_source];
wire beat_taken = internal_tvalid && internal_tready;

rr_arbiter #(
    .PORTS(S_COUNT),
    .INDEX_WIDTH(ID_WIDTH)
) arbiter_inst (
    .clk(clk),
    .rst(rst),
    .request(s_axis_tvalid),
    .grant_taken(!frame_locked),
    .grant_valid(arbiter_grant_valid),
    .grant_index(arbiter_grant_index)
);

assign s_axis_tready = (selected_valid && internal_tready) ? ({{S_COUNT-1{1'b0}}, 1'b1} << selected_source) : {S_COUNT{1'b0}};

always @(posedge clk) begin
    if (!frame_locked && arbiter_grant_valid) begin
        locked_source <= arbiter_grant_index;
        frame_locked <= !(beat_taken && internal_tlast);
    end else if (frame_locked && beat_taken && internal_tlast) begin
        frame_locked <= 1'b0;
    end
    if (rst) begin
        frame_locked <= 1'b0;
    end
end

// The output skid buffer keeps m_axis_tready off the input ready paths.
axis_skid_buffer #(
    .DATA_WIDTH(DATA_WIDTH),
    .KEEP_WIDTH(KEEP_WIDTH),
    .USER_WIDTH(USER_WIDTH),
    .ID_WIDTH(ID_WIDTH)
) output_buffer_inst (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(s_axis_tdata[selected_source*DATA_WIDTH +: DATA_WIDTH]),
    .s_axis_tkeep(s_axis_tkeep[selected_source*KEEP_WIDTH +: KEEP_WIDTH]),
    .s_axis_tvalid(internal_tvalid),
    .s_axis_tready(internal_tready),
    .s_axis_tlast(internal_tlast),
    .s_axis_tuser(s_axis_tuser[selected_source*USER_WIDTH +: USER_WIDTH]),
    .s_axis_tid(selected_source),
    .m_axis_tdata(m_axis_tdata),
    .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tready(m_axis_tready),
    .m_axis_tlast(m_axis_tlast),
    .m_axis_tuser(m_axis_tuser),
    .m_axis_tid(m_axis_tid)
);

endmodule

`resetall
