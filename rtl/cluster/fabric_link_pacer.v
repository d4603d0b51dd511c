// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Link pacer: holds a frame stream to an Ethernet line rate, counting FCS, padding, preamble and gap
`resetall
`timescale 1ns / 1ps
`default_nettype none

// A frame of L bytes (no FCS in the stream) occupies the wire for max(L + 4, 64) + 8 + 12 bytes.
// The pacer keeps `debt`: how much wire time the frames already started still need, in exact
// units (a byte is BYTE_UNITS, one clock cycle of wire is RATE_UNITS; both are the rate pair
// reduced by their greatest common divisor, so nothing is rounded and nothing drifts). A frame
// may start only when the debt is paid (debt <= 0); beats of a started frame are never held.
// A frame whose first beat moves at clock edge f starts on the wire at max(end of the previous
// frame's wire time, f - 1): the beat was on its way during the cycle before the edge, so a frame
// ready by the time the wire frees takes the wire exactly then (the fraction of a cycle left in
// `debt` is kept, which is what holds back-to-back frames at line rate), and a frame that comes
// later starts a cycle before its edge, the same for every frame.
// The frame's bytes are added beat by beat and its overhead with its last beat, which gives the
// same debt at the next frame's start as adding the whole wire length up front.
module fabric_link_pacer #(
    // Width of tdata in bits (a multiple of 8)
    parameter DATA_WIDTH = 64,
    // Width of tkeep in bits: one enable per byte of tdata
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // Width of tuser in bits
    parameter USER_WIDTH = 1,
    // Line rate in Mb/s
    parameter LINE_RATE_MBPS = 100000,
    // Clock period in ps
    parameter CLOCK_PERIOD_PS = 4000,
    // Longest frame in bytes the stream carries (bounds the debt register)
    parameter MAX_FRAME_BYTES = 16384
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire [DATA_WIDTH-1:0] s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0] s_axis_tkeep,
    input  wire                  s_axis_tvalid,
    output wire                  s_axis_tready,
    input  wire                  s_axis_tlast,
    input  wire [USER_WIDTH-1:0] s_axis_tuser,

    output wire [DATA_WIDTH-1:0] m_axis_tdata,
    output wire [KEEP_WIDTH-1:0] m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,
    output wire [USER_WIDTH-1:0] m_axis_tuser
);

function integer greatest_common_divisor(input integer a, input integer b);
    integer x, y, remainder;
    begin
        x = a;
        y = b;
        while (y != 0) begin
            remainder = x % y;
            x = y;
            y = remainder;
        end
        greatest_common_divisor = x;
    end
endfunction

// Wire bits per cycle are LINE_RATE_MBPS * CLOCK_PERIOD_PS in units of 1e-6 bit; a byte is 8e6 of them.
localparam integer MICROBITS_PER_BYTE = 8000000;
localparam integer RATE_PRODUCT = LINE_RATE_MBPS * CLOCK_PERIOD_PS;
localparam integer DIVISOR = greatest_common_divisor(RATE_PRODUCT, MICROBITS_PER_BYTE);
localparam integer BYTE_UNITS = MICROBITS_PER_BYTE / DIVISOR;
localparam integer RATE_UNITS = RATE_PRODUCT / DIVISOR;
localparam integer LENGTH_WIDTH = $clog2(MAX_FRAME_BYTES + 1) + 1;
localparam integer DEBT_WIDTH = 48;
// Overhead bytes of a frame at least 60 bytes long: FCS 4, preamble and SFD 8, gap 12
localparam integer OVERHEAD_BYTES = 24;
// Shorter frames are padded to 64 bytes with their FCS: 64 + 20 in all
localparam integer SHORT_FRAME_WIRE_BYTES = 84;
localparam integer KEEP_COUNT_WIDTH = $clog2(KEEP_WIDTH + 1);

localparam signed [DEBT_WIDTH-1:0] RATE = {{(DEBT_WIDTH-32){1'b0}}, RATE_UNITS};
localparam signed [DEBT_WIDTH-1:0] BYTE = {{(DEBT_WIDTH-32){1'b0}}, BYTE_UNITS};
// Lowest debt kept: below it, one more frame can no longer bring the debt above zero, so a
// long idle link (or a source idle mid-frame) cannot wrap the register.
localparam integer FLOOR_BYTES = 2 * (MAX_FRAME_BYTES + SHORT_FRAME_WIRE_BYTES + KEEP_WIDTH);
localparam signed [DEBT_WIDTH-1:0] DEBT_FLOOR = -({{(DEBT_WIDTH-32){1'b0}}, FLOOR_BYTES} * BYTE + RATE);

initial begin
    if (DATA_WIDTH % 8 != 0 || KEEP_WIDTH * 8 != DATA_WIDTH) begin
        $error("Error: DATA_WIDTH must be a multiple of 8 and KEEP_WIDTH = DATA_WIDTH/8 (instance %m)");
        $finish;
    end
    if (LINE_RATE_MBPS < 1 || CLOCK_PERIOD_PS < 1 || LINE_RATE_MBPS > 2147483647 / CLOCK_PERIOD_PS) begin
        $error("Error: LINE_RATE_MBPS and CLOCK_PERIOD_PS must be positive with a product below 2^31 (instance %m)");
        $finish;
    end
    if (BYTE_UNITS >= (1 << 24) || MAX_FRAME_BYTES < 64 || MAX_FRAME_BYTES > 65535) begin
        $error("Error: the rate pair must reduce to at most 2^24 units per byte and MAX_FRAME_BYTES be 64..65535 (instance %m)");
        $finish;
    end
end

reg signed [DEBT_WIDTH-1:0] debt;
reg                         mid_frame;
reg [LENGTH_WIDTH-1:0]      frame_bytes;

wire wire_free = debt <= 0;
wire allow = mid_frame || wire_free;

assign m_axis_tdata = s_axis_tdata;
assign m_axis_tkeep = s_axis_tkeep;
assign m_axis_tlast = s_axis_tlast;
assign m_axis_tuser = s_axis_tuser;
assign m_axis_tvalid = s_axis_tvalid && allow;
assign s_axis_tready = m_axis_tready && allow;

wire beat_taken = s_axis_tvalid && s_axis_tready;

reg [KEEP_COUNT_WIDTH-1:0] beat_bytes;
integer lane;
always @* begin
    beat_bytes = {KEEP_COUNT_WIDTH{1'b0}};
    for (lane = 0; lane < KEEP_WIDTH; lane = lane + 1) begin
        beat_bytes = beat_bytes + {{(KEEP_COUNT_WIDTH-1){1'b0}}, s_axis_tkeep[lane]};
    end
end

wire [LENGTH_WIDTH-1:0] length_so_far = (mid_frame ? frame_bytes : {LENGTH_WIDTH{1'b0}})
                                        + {{(LENGTH_WIDTH-KEEP_COUNT_WIDTH){1'b0}}, beat_bytes};
wire [LENGTH_WIDTH-1:0] overhead_bytes = length_so_far < 60 ? SHORT_FRAME_WIRE_BYTES[LENGTH_WIDTH-1:0] - length_so_far
                                                            : OVERHEAD_BYTES[LENGTH_WIDTH-1:0];
wire [LENGTH_WIDTH-1:0] added_bytes = {{(LENGTH_WIDTH-KEEP_COUNT_WIDTH){1'b0}}, beat_bytes}
                                      + (s_axis_tlast ? overhead_bytes : {LENGTH_WIDTH{1'b0}});
wire signed [DEBT_WIDTH-1:0] added_debt = $signed({{(DEBT_WIDTH-LENGTH_WIDTH){1'b0}}, added_bytes}) * BYTE;
// A new frame starts on the wire where the last ended, but not before the cycle before its edge.
wire signed [DEBT_WIDTH-1:0] debt_before = (!mid_frame && debt < -RATE) ? -RATE : debt;
wire signed [DEBT_WIDTH-1:0] debt_after = (beat_taken ? debt_before + added_debt : debt) - RATE;

always @(posedge clk) begin
    debt <= debt_after < DEBT_FLOOR ? DEBT_FLOOR : debt_after;
    if (beat_taken) begin
        mid_frame <= !s_axis_tlast;
        frame_bytes <= length_so_far;
    end
    if (rst) begin
        debt <= {DEBT_WIDTH{1'b0}};
        mid_frame <= 1'b0;
        frame_bytes <= {LENGTH_WIDTH{1'b0}};
    end
end

endmodule

`resetall
