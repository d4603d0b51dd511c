// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// RoCEv2 ICRC insertion: appends the invariant CRC to each frame of an Ethernet/IPv4/UDP/BTH stream
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The ICRC (docs/reference/roce.md) is zlib's CRC-32 over eight 0xFF bytes (the masked LRH of
// InfiniBand, folded here into the CRC's initial state), then every byte from the IP header on,
// with the fields a router may rewrite counted as all ones: IPv4 TOS (frame byte 15), TTL (22)
// and header checksum (24, 25), UDP checksum (40, 41) and BTH byte 4 (FECN, BECN; 46). The four
// ICRC bytes go out least significant first, right after the frame's last byte: in its last
// beat when there is room, else in one more beat. One register stage; full rate otherwise.
// A frame whose last beat comes with tuser set is poisoned: its ICRC goes out inverted, so every
// receiver drops it (the way a MAC spoils the FCS of a frame it cannot finish). The sender uses
// it for a frame whose payload could not be read.
module roce_icrc_append #(
    // Width of tdata in bits (64 to 512, a multiple of 32)
    parameter DATA_WIDTH = 64
) (
    input  wire                    clk,
    input  wire                    rst,

    // A frame from its Ethernet header to its last payload or pad byte; beats full but the last
    input  wire [DATA_WIDTH-1:0]   s_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0] s_axis_tkeep,
    input  wire                    s_axis_tvalid,
    output wire                    s_axis_tready,
    input  wire                    s_axis_tlast,
    // With the last beat: poison the frame
    input  wire                    s_axis_tuser,

    output reg  [DATA_WIDTH-1:0]   m_axis_tdata,
    output reg  [DATA_WIDTH/8-1:0] m_axis_tkeep,
    output wire                    m_axis_tvalid,
    input  wire                    m_axis_tready,
    output reg                     m_axis_tlast
);

localparam KEEP_WIDTH = DATA_WIDTH / 8;
localparam [31:0] STATE_AFTER_MASKED_LRH = 32'hDEBB20E3;
localparam ETHERNET_HEADER_BYTES = 14;
localparam [15:0] BEAT_BYTES = KEEP_WIDTH[15:0];
// Past this offset no byte is masked or skipped, so the beat offset stops counting
localparam [15:0] MASKED_BYTES_END = 16'd48;

initial begin
    if (DATA_WIDTH < 64 || DATA_WIDTH > 512 || DATA_WIDTH % 32 != 0) begin
        $error("Error: DATA_WIDTH must be a multiple of 32 from 64 to 512 (instance %m)");
        $finish;
    end
end

// Offset of a beat's first byte in its frame, saturated once past the masked bytes
reg  [15:0]           beat_offset;
reg                   mid_frame;

// The beat held in the output register, its CRC already folded in
reg  [DATA_WIDTH-1:0] held_tdata;
reg  [KEEP_WIDTH-1:0] held_tkeep;
reg                   held_valid, held_last, held_poisoned;
// ICRC bytes that did not fit in the last beat, still to send in a beat of their own
reg  [2:0]            spill_bytes;
reg  [31:0]           spill_icrc;

wire in_fire = s_axis_tvalid && s_axis_tready;
wire out_fire = m_axis_tvalid && m_axis_tready;

// The output register drains one beat per cycle; a spill beat holds the input back one cycle.
assign s_axis_tready = (!held_valid || m_axis_tready) && spill_bytes == 3'd0;

reg [DATA_WIDTH-1:0] crc_data;
reg [KEEP_WIDTH-1:0] crc_keep;
// One loop index per always block: an index shared between blocks, or assigned on one branch
// only, makes synthesis infer a latch for it
integer byte_index;
reg [15:0] frame_offset;
integer icrc_position;
integer held_index;
integer icrc_byte;

always @* begin
    crc_data = s_axis_tdata;
    crc_keep = s_axis_tkeep;
    for (byte_index = 0; byte_index < KEEP_WIDTH; byte_index = byte_index + 1) begin
        frame_offset = beat_offset + byte_index[15:0];
        if (frame_offset < ETHERNET_HEADER_BYTES) begin
            crc_keep[byte_index] = 1'b0;
        end
        if (frame_offset == 16'd15 || frame_offset == 16'd22 || frame_offset == 16'd24 || frame_offset == 16'd25
                || frame_offset == 16'd40 || frame_offset == 16'd41 || frame_offset == 16'd46) begin
            crc_data[byte_index*8 +: 8] = 8'hFF;
        end
    end
end

wire [31:0] icrc;

crc32 #(
    .DATA_WIDTH(DATA_WIDTH),
    .INITIAL_STATE(STATE_AFTER_MASKED_LRH)
) crc_inst (
    .clk(clk),
    .rst(rst),
    .data(crc_data),
    .keep(crc_keep),
    .valid(in_fire),
    .start(!mid_frame),
    .crc(icrc)
);

// Bytes used in the held beat (the ICRC starts right after them in a last one), counted as the beat
// is taken and held with it, so that the count (a 64-way sum at 512 bits) is not in series with
// the room check and the output's multiplexers
reg  [7:0] held_bytes;
reg  [7:0] incoming_bytes;
always @* begin
    incoming_bytes = 8'd0;
    for (held_index = 0; held_index < KEEP_WIDTH; held_index = held_index + 1) begin
        incoming_bytes = incoming_bytes + {7'd0, s_axis_tkeep[held_index]};
    end
end

wire [31:0] sent_icrc = held_poisoned ? ~icrc : icrc;
wire [7:0] room = BEAT_BYTES[7:0] - held_bytes;
wire       icrc_fits = room >= 8'd4;

assign m_axis_tvalid = held_valid || spill_bytes != 3'd0;

always @* begin
    m_axis_tdata = held_tdata;
    m_axis_tkeep = held_tkeep;
    m_axis_tlast = held_last && icrc_fits;
    icrc_position = 0;
    icrc_byte = 0;
    if (spill_bytes != 3'd0) begin
        m_axis_tdata = {{(DATA_WIDTH-32){1'b0}}, spill_icrc};
        m_axis_tkeep = {{(KEEP_WIDTH-4){1'b0}}, 4'hF} >> (4 - spill_bytes);
        m_axis_tlast = 1'b1;
    end else if (held_last) begin
        for (icrc_byte = 0; icrc_byte < 4; icrc_byte = icrc_byte + 1) begin
            icrc_position = {24'd0, held_bytes} + icrc_byte;
            if (icrc_position < KEEP_WIDTH) begin
                m_axis_tdata[icrc_position*8 +: 8] = sent_icrc[icrc_byte*8 +: 8];
                m_axis_tkeep[icrc_position] = 1'b1;
            end
        end
    end
end

always @(posedge clk) begin
    if (out_fire) begin
        if (spill_bytes != 3'd0) begin
            spill_bytes <= 3'd0;
        end else begin
            held_valid <= 1'b0;
            if (held_last && !icrc_fits) begin
                spill_bytes <= 3'd4 - room[2:0];
                spill_icrc <= sent_icrc >> (room * 8);
            end
        end
    end
    if (in_fire) begin
        held_tdata <= s_axis_tdata;
        held_tkeep <= s_axis_tkeep;
        held_bytes <= incoming_bytes;
        held_last <= s_axis_tlast;
        held_poisoned <= s_axis_tlast && s_axis_tuser;
        held_valid <= 1'b1;
        mid_frame <= !s_axis_tlast;
        if (s_axis_tlast) begin
            beat_offset <= 16'd0;
        end else if (beat_offset < MASKED_BYTES_END) begin
            beat_offset <= beat_offset + BEAT_BYTES;
        end
    end
    if (rst) begin
        beat_offset <= 16'd0;
        mid_frame <= 1'b0;
        held_valid <= 1'b0;
        held_last <= 1'b0;
        held_poisoned <= 1'b0;
        spill_bytes <= 3'd0;
        spill_icrc <= 32'd0;
    end
end

endmodule

`resetall
