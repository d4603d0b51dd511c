// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// AXI4 DMA reader: bytes from any byte address of AXI4 memory onto a byte-aligned stream, bursts never crossing 4 KiB
`resetall
`timescale 1ns / 1ps
`default_nettype none

// One output frame per command: exactly s_cmd_len bytes, byte 0 in the first beat's lowest
// lane, beats full but the last. The reads are beat-aligned INCR bursts of at most
// MAX_BURST_BEATS that never cross a 4 KiB boundary, issued ahead of the data for up to
// COMMAND_DEPTH commands. The aligned read data goes through axis_realign moved up by
// (beat - offset) lanes, which puts the command's first byte at the start of the second beat:
// the first beat (only bytes before the address) is dropped and the frame cut after its last byte.
// A burst answered SLVERR or DECERR still delivers its frame (its bytes are what the memory
// returned) and raises frame_error with the frame's last beat.
module axi_dma_read #(
    // Width of the data bus and output stream in bits (a power of two, 32 to 1024)
    parameter DATA_WIDTH = 64,
    // Width of byte addresses
    parameter ADDR_WIDTH = 64,
    // Width of the byte length of one command
    parameter LEN_WIDTH = 16,
    // AXI ID of every burst
    parameter ID_WIDTH = 4,
    // Longest burst in beats (1 to 256)
    parameter MAX_BURST_BEATS = 256,
    // Commands whose reads may be in flight at once (a power of two)
    parameter COMMAND_DEPTH = 4,
    // 0: read data goes straight to the output, and a stalled output stalls the R channel.
    // Otherwise a buffer of this many beats (a power of two): a burst is only asked for once
    // the buffer has room for all of it, so this reader never holds the R channel, which
    // readers sharing one memory port need (one stalled consumer would block them all).
    parameter BUFFER_BEATS = 0
) (
    input  wire                    clk,
    input  wire                    rst,

    // Read s_cmd_len bytes (1 or more) from s_cmd_addr
    input  wire [ADDR_WIDTH-1:0]   s_cmd_addr,
    input  wire [LEN_WIDTH-1:0]    s_cmd_len,
    input  wire                    s_cmd_valid,
    output wire                    s_cmd_ready,

    output wire [ID_WIDTH-1:0]     m_axi_arid,
    output wire [ADDR_WIDTH-1:0]   m_axi_araddr,
    output wire [7:0]              m_axi_arlen,
    output wire [2:0]              m_axi_arsize,
    output wire [1:0]              m_axi_arburst,
    output wire                    m_axi_arlock,
    output wire [3:0]              m_axi_arcache,
    output wire [2:0]              m_axi_arprot,
    output wire                    m_axi_arvalid,
    input  wire                    m_axi_arready,
    input  wire [ID_WIDTH-1:0]     m_axi_rid,
    input  wire [DATA_WIDTH-1:0]   m_axi_rdata,
    input  wire [1:0]              m_axi_rresp,
    input  wire                    m_axi_rlast,
    input  wire                    m_axi_rvalid,
    output wire                    m_axi_rready,

    output wire [DATA_WIDTH-1:0]   m_axis_tdata,
    output wire [DATA_WIDTH/8-1:0] m_axis_tkeep,
    output wire                    m_axis_tvalid,
    input  wire                    m_axis_tready,
    output wire                    m_axis_tlast,
    // With the last beat: some burst of this frame came back SLVERR or DECERR
    output wire                    m_axis_tuser
);

localparam STRB_WIDTH = DATA_WIDTH / 8;
localparam OFFSET_WIDTH = $clog2(STRB_WIDTH);
localparam COMMAND_INDEX_WIDTH = $clog2(COMMAND_DEPTH);
localparam BEAT_COUNT_WIDTH = LEN_WIDTH + 1;

localparam BURST_LIMIT_BEATS = MAX_BURST_BEATS < 4096 / STRB_WIDTH ? MAX_BURST_BEATS : 4096 / STRB_WIDTH;

initial begin
    if (BUFFER_BEATS != 0 && (BUFFER_BEATS < BURST_LIMIT_BEATS || (BUFFER_BEATS & (BUFFER_BEATS - 1)) != 0)) begin
        $error("Error: BUFFER_BEATS must be 0 or a power of two holding the longest burst (instance %m)");
        $finish;
    end
    if (COMMAND_DEPTH < 2 || (COMMAND_DEPTH & (COMMAND_DEPTH - 1)) != 0) begin
        $error("Error: COMMAND_DEPTH must be a power of two, 2 or more (instance %m)");
        $finish;
    end
end

assign m_axi_arid    = {ID_WIDTH{1'b0}};
assign m_axi_arsize  = OFFSET_WIDTH[2:0];
assign m_axi_arburst = 2'b01;  // INCR
assign m_axi_arlock  = 1'b0;
assign m_axi_arcache = 4'b0011;
assign m_axi_arprot  = 3'b000;

// ---- Commands in flight: what the data side needs to cut each frame ----

reg [OFFSET_WIDTH-1:0]     command_offset [0:COMMAND_DEPTH-1];
reg [LEN_WIDTH-1:0]        command_length [0:COMMAND_DEPTH-1];
reg [BEAT_COUNT_WIDTH-1:0] command_read_beats [0:COMMAND_DEPTH-1];
reg [COMMAND_INDEX_WIDTH:0] accept_pointer, data_pointer;

wire [OFFSET_WIDTH-1:0]     new_offset;
wire [BEAT_COUNT_WIDTH-1:0] new_read_beats;
wire                        splitter_ready;
wire [8:0]                  next_burst_beats;
wire                        burst_valid;
wire                        buffer_has_room;
// Read data as this reader takes it: from the R channel, or from the buffer behind it
wire [DATA_WIDTH-1:0]       read_tdata;
wire                        read_tvalid, read_failed;
wire                        read_tready;

// ---- Address side: each command cut into bursts ----

assign s_cmd_ready = splitter_ready && accept_pointer - data_pointer != COMMAND_DEPTH[COMMAND_INDEX_WIDTH:0];

axi_burst_splitter #(
    .DATA_WIDTH(DATA_WIDTH),
    .ADDR_WIDTH(ADDR_WIDTH),
    .LEN_WIDTH(LEN_WIDTH),
    .MAX_BURST_BEATS(MAX_BURST_BEATS)
) splitter_inst (
    .clk(clk),
    .rst(rst),
    .s_cmd_addr(s_cmd_addr),
    .s_cmd_len(s_cmd_len),
    .s_cmd_valid(s_cmd_valid && s_cmd_ready),
    .s_cmd_ready(splitter_ready),
    .cmd_offset(new_offset),
    .cmd_beats(new_read_beats),
    .m_burst_addr(m_axi_araddr),
    .m_burst_beats(next_burst_beats),
    .m_burst_offset(),
    .m_burst_last(),
    .m_burst_valid(burst_valid),
    .m_burst_ready(m_axi_arready && buffer_has_room)
);

assign m_axi_arvalid = burst_valid && buffer_has_room;

assign m_axi_arlen = next_burst_beats[7:0] - 8'd1;

always @(posedge clk) begin
    if (s_cmd_valid && s_cmd_ready) begin
        command_offset[accept_pointer[COMMAND_INDEX_WIDTH-1:0]] <= new_offset;
        command_length[accept_pointer[COMMAND_INDEX_WIDTH-1:0]] <= s_cmd_len;
        command_read_beats[accept_pointer[COMMAND_INDEX_WIDTH-1:0]] <= new_read_beats;
        accept_pointer <= accept_pointer + 1'b1;
    end
    if (rst) begin
        accept_pointer <= {(COMMAND_INDEX_WIDTH+1){1'b0}};
    end
end

// ---- Data side: the command's read beats as one frame, realigned, cut to its bytes ----

wire [COMMAND_INDEX_WIDTH-1:0] data_slot = data_pointer[COMMAND_INDEX_WIDTH-1:0];
wire [OFFSET_WIDTH-1:0]        data_offset = command_offset[data_slot];
reg  [BEAT_COUNT_WIDTH-1:0]    read_beat_index;
wire                           last_read_beat = read_beat_index + 1'b1 == command_read_beats[data_slot];
reg                            frame_failed;

wire [DATA_WIDTH-1:0] shifted_tdata;
wire [STRB_WIDTH-1:0] shifted_tkeep;
wire                  shifted_tvalid, shifted_tlast;
reg                   shifted_tready;
wire                  realign_ready;

axis_realign #(
    .DATA_WIDTH(DATA_WIDTH)
) realign_inst (
    .clk(clk),
    .rst(rst),
    .s_shift(STRB_WIDTH[OFFSET_WIDTH-1:0] - data_offset),
    .s_axis_tdata(read_tdata),
    .s_axis_tkeep({STRB_WIDTH{1'b1}}),
    .s_axis_tvalid(read_tvalid && data_pointer != accept_pointer),
    .s_axis_tready(realign_ready),
    .s_axis_tlast(last_read_beat),
    .m_axis_tdata(shifted_tdata),
    .m_axis_tkeep(shifted_tkeep),
    .m_axis_tvalid(shifted_tvalid),
    .m_axis_tready(shifted_tready),
    .m_axis_tlast(shifted_tlast)
);

assign read_tready = realign_ready && data_pointer != accept_pointer;

generate
    if (BUFFER_BEATS == 0) begin : direct
        assign read_tdata = m_axi_rdata;
        assign read_tvalid = m_axi_rvalid;
        assign read_failed = m_axi_rresp[1];
        assign m_axi_rready = read_tready;
        assign buffer_has_room = 1'b1;
    end else begin : buffered
        // Beats asked for and not yet taken out of the buffer: never more than it holds
        localparam RESERVED_WIDTH = $clog2(BUFFER_BEATS) + 1;
        reg [RESERVED_WIDTH-1:0] reserved;
        wire [RESERVED_WIDTH+8:0] burst_beats_wide = {{RESERVED_WIDTH{1'b0}}, next_burst_beats};
        wire [RESERVED_WIDTH-1:0] burst_beats = burst_beats_wide[RESERVED_WIDTH-1:0];
        wire                      buffered_tready;
        wire [RESERVED_WIDTH:0] reserved_after = {1'b0, reserved} + {1'b0, burst_beats};
        assign buffer_has_room = {{(31-RESERVED_WIDTH){1'b0}}, reserved_after} <= BUFFER_BEATS;
        always @(posedge clk) begin
            reserved <= reserved + (m_axi_arvalid && m_axi_arready ? burst_beats : {RESERVED_WIDTH{1'b0}})
                                 - {{(RESERVED_WIDTH-1){1'b0}}, read_tvalid && read_tready};
            if (rst) begin
                reserved <= {RESERVED_WIDTH{1'b0}};
            end
        end
        axis_fifo #(
            .DEPTH(BUFFER_BEATS),
            .DATA_WIDTH(DATA_WIDTH),
            .USER_WIDTH(1)
        ) buffer_inst (
            .clk(clk), .rst(rst),
            .s_axis_tdata(m_axi_rdata), .s_axis_tkeep({STRB_WIDTH{1'b1}}), .s_axis_tvalid(m_axi_rvalid),
            .s_axis_tready(buffered_tready), .s_axis_tlast(1'b0), .s_axis_tuser(m_axi_rresp[1]),
            .m_axis_tdata(read_tdata), .m_axis_tkeep(), .m_axis_tvalid(read_tvalid), .m_axis_tready(read_tready),
            .m_axis_tlast(), .m_axis_tuser(read_failed),
            .status_good_frame(), .status_bad_frame(), .status_oversize_frame()
        );
        // Room was reserved for every beat asked for, so the buffer always takes the R beat
        assign m_axi_rready = buffered_tready;
    end
endgenerate

// Output side of the cut: beats of the realigned frame before the command's first byte are
// dropped, beats after its last byte are dropped, the last kept beat is trimmed.
reg  [LEN_WIDTH-1:0] bytes_left;
reg                  first_realigned_beat, output_started, output_done;
wire [LEN_WIDTH-1:0] frame_length = command_length[data_slot];
wire                 skip_beat = first_realigned_beat && data_offset != {OFFSET_WIDTH{1'b0}};
wire [LEN_WIDTH-1:0] bytes_before = output_started ? bytes_left : frame_length;
wire                 final_beat = bytes_before <= STRB_WIDTH[LEN_WIDTH-1:0];

assign m_axis_tdata  = shifted_tdata;
assign m_axis_tkeep  = final_beat ? {STRB_WIDTH{1'b1}} >> (STRB_WIDTH[LEN_WIDTH-1:0] - bytes_before) : {STRB_WIDTH{1'b1}};
assign m_axis_tvalid = shifted_tvalid && !skip_beat && !output_done;
assign m_axis_tlast  = final_beat;
assign m_axis_tuser  = frame_failed || (read_tvalid && read_tready && read_failed);

always @* begin
    shifted_tready = skip_beat || output_done || m_axis_tready;
end

always @(posedge clk) begin
    if (read_tvalid && read_tready) begin
        read_beat_index <= read_beat_index + 1'b1;
        if (read_failed) begin
            frame_failed <= 1'b1;
        end
        if (last_read_beat) begin
            read_beat_index <= {BEAT_COUNT_WIDTH{1'b0}};
        end
    end
    if (shifted_tvalid && shifted_tready) begin
        first_realigned_beat <= 1'b0;
    end
    if (m_axis_tvalid && m_axis_tready) begin
        output_started <= 1'b1;
        bytes_left <= bytes_before - STRB_WIDTH[LEN_WIDTH-1:0];
        if (final_beat) begin
            output_done <= 1'b1;
        end
    end
    // The realigned frame ends: the next command's frame begins
    if (shifted_tvalid && shifted_tready && shifted_tlast) begin
        data_pointer <= data_pointer + 1'b1;
        first_realigned_beat <= 1'b1;
        output_started <= 1'b0;
        output_done <= 1'b0;
        frame_failed <= 1'b0;
    end
    if (rst) begin
        read_beat_index <= {BEAT_COUNT_WIDTH{1'b0}};
        data_pointer <= {(COMMAND_INDEX_WIDTH+1){1'b0}};
        bytes_left <= {LEN_WIDTH{1'b0}};
        first_realigned_beat <= 1'b1;
        output_started <= 1'b0;
        output_done <= 1'b0;
        frame_failed <= 1'b0;
    end
end

endmodule

`resetall
