// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Egress frame buffer: store-and-forward, whole-frame tail drop, depth and peak in bytes
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The write side never refuses a beat. A frame is kept, at its last beat, only if the bytes
// queued then (the depth of that cycle) plus its own length fit BUFFER_BYTES, fewer than
// BUFFER_FRAMES frames are queued and it is at most MAX_FRAME_BYTES long; otherwise it is
// dropped whole and counted. A kept frame becomes a descriptor (first beat address, length) the
// cycle after its last beat. The depth counts a frame from then until its descriptor is popped
// by the reader; the reader later releases the frame's memory (release_pointer), which may be
// after frames behind it were popped (a held frame), so the beat memory is sized for the bytes
// allowed, one partial beat per frame and three longest frames in flight (one being written,
// one being read, one held), and never overflows while the rules above hold.
module fabric_egress_queue #(
    // Width of tdata in bits (a multiple of 8)
    parameter DATA_WIDTH = 64,
    // Width of tkeep in bits: one enable per byte of tdata
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // Width of tuser in bits
    parameter USER_WIDTH = 1,
    // Frame bytes the queue may hold
    parameter BUFFER_BYTES = 16384,
    // Frames the queue may hold (a power of two)
    parameter BUFFER_FRAMES = 32,
    // Longest frame kept, in bytes; longer ones are dropped as tail drops
    parameter MAX_FRAME_BYTES = 9600,
    // Width of the depth counters in bytes
    parameter DEPTH_WIDTH = 24,
    // Width of a beat address, with one extra bit (from the parameters above)
    parameter POINTER_WIDTH = $clog2((BUFFER_BYTES + KEEP_WIDTH - 1) / KEEP_WIDTH + BUFFER_FRAMES
                                     + 3 * ((MAX_FRAME_BYTES + KEEP_WIDTH - 1) / KEEP_WIDTH)) + 1,
    // Width of a frame length in bytes
    parameter LENGTH_WIDTH = $clog2(MAX_FRAME_BYTES + 1) + 1
) (
    input  wire                      clk,
    input  wire                      rst,

    input  wire [DATA_WIDTH-1:0]     s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0]     s_axis_tkeep,
    input  wire                      s_axis_tvalid,
    output wire                      s_axis_tready,
    input  wire                      s_axis_tlast,
    input  wire [USER_WIDTH-1:0]     s_axis_tuser,
    // With the last beat: the frame was ECN-marked on its way in
    input  wire                      s_frame_marked,

    // The two oldest frames, for a reader that may send the second first
    output wire                      head_valid,
    output wire [POINTER_WIDTH-1:0]  head_address,
    output wire [LENGTH_WIDTH-1:0]   head_length,
    output wire                      next_valid,
    output wire [POINTER_WIDTH-1:0]  next_address,
    output wire [LENGTH_WIDTH-1:0]   next_length,
    input  wire                      pop_head,
    input  wire                      pop_head_and_next,

    // Beat memory read: data the cycle after read_enable
    input  wire                      read_enable,
    input  wire [POINTER_WIDTH-1:0]  read_address,
    output reg  [DATA_WIDTH-1:0]     read_tdata,
    output reg  [KEEP_WIDTH-1:0]     read_tkeep,
    output reg                       read_tlast,
    output reg  [USER_WIDTH-1:0]     read_tuser,
    // Every beat before release_pointer may be written again
    input  wire                      release_valid,
    input  wire [POINTER_WIDTH-1:0]  release_pointer,

    output reg  [DEPTH_WIDTH-1:0]    depth_bytes,
    output reg  [DEPTH_WIDTH-1:0]    peak_depth_bytes,
    // One-cycle pulses at a frame's last beat
    output reg                       status_tail_drop,
    output reg                       status_frame_marked
);

localparam ADDR_WIDTH = POINTER_WIDTH - 1;
localparam MEMORY_BEATS = 1 << ADDR_WIDTH;
localparam FRAME_ADDR_WIDTH = $clog2(BUFFER_FRAMES);
localparam KEEP_COUNT_WIDTH = $clog2(KEEP_WIDTH + 1);
localparam BEAT_WIDTH = DATA_WIDTH + KEEP_WIDTH + 1 + USER_WIDTH;
localparam DESCRIPTOR_WIDTH = POINTER_WIDTH + LENGTH_WIDTH;
localparam [DEPTH_WIDTH:0] CAPACITY = BUFFER_BYTES[DEPTH_WIDTH:0];
localparam [LENGTH_WIDTH-1:0] LONGEST = MAX_FRAME_BYTES[LENGTH_WIDTH-1:0];
localparam [FRAME_ADDR_WIDTH:0] FRAME_CAPACITY = BUFFER_FRAMES[FRAME_ADDR_WIDTH:0];

initial begin
    if (DATA_WIDTH % 8 != 0 || KEEP_WIDTH * 8 != DATA_WIDTH) begin
        $error("Error: DATA_WIDTH must be a multiple of 8 and KEEP_WIDTH = DATA_WIDTH/8 (instance %m)");
        $finish;
    end
    if (BUFFER_FRAMES < 2 || (1 << FRAME_ADDR_WIDTH) != BUFFER_FRAMES) begin
        $error("Error: BUFFER_FRAMES must be a power of two, at least 2 (instance %m)");
        $finish;
    end
    if (BUFFER_BYTES < 64 || BUFFER_BYTES >= (1 << (DEPTH_WIDTH - 1)) || MAX_FRAME_BYTES < 64) begin
        $error("Error: BUFFER_BYTES must be 64..2^(DEPTH_WIDTH-1) and MAX_FRAME_BYTES at least 64 (instance %m)");
        $finish;
    end
end

reg [BEAT_WIDTH-1:0]       beat_memory [0:MEMORY_BEATS-1];
reg [DESCRIPTOR_WIDTH-1:0] descriptors [0:BUFFER_FRAMES-1];

reg [POINTER_WIDTH-1:0]    write_pointer;
reg [POINTER_WIDTH-1:0]    frame_start_pointer;
reg [POINTER_WIDTH-1:0]    free_pointer;
reg [LENGTH_WIDTH-1:0]     frame_bytes;
reg                        mid_frame;
reg                        dropping;
reg [FRAME_ADDR_WIDTH:0]   descriptor_write;
reg [FRAME_ADDR_WIDTH:0]   descriptor_read;

assign s_axis_tready = 1'b1;

reg [KEEP_COUNT_WIDTH-1:0] beat_bytes;
integer lane;
always @* begin
    beat_bytes = {KEEP_COUNT_WIDTH{1'b0}};
    for (lane = 0; lane < KEEP_WIDTH; lane = lane + 1) begin
        beat_bytes = beat_bytes + {{(KEEP_COUNT_WIDTH-1){1'b0}}, s_axis_tkeep[lane]};
    end
end

wire [FRAME_ADDR_WIDTH:0] queued_frames = descriptor_write - descriptor_read;
wire [FRAME_ADDR_WIDTH:0] next_read = descriptor_read + 1'b1;
assign head_valid = queued_frames != 0;
assign next_valid = queued_frames > 1;
assign {head_address, head_length} = descriptors[descriptor_read[FRAME_ADDR_WIDTH-1:0]];
assign {next_address, next_length} = descriptors[next_read[FRAME_ADDR_WIDTH-1:0]];

wire [LENGTH_WIDTH:0] length_so_far = (mid_frame ? {1'b0, frame_bytes} : {(LENGTH_WIDTH+1){1'b0}})
                                      + {{(LENGTH_WIDTH+1-KEEP_COUNT_WIDTH){1'b0}}, beat_bytes};
wire                  too_long = length_so_far > {1'b0, LONGEST};
wire [POINTER_WIDTH-1:0] memory_used = write_pointer - free_pointer;
wire                  memory_full = memory_used[POINTER_WIDTH-1];
wire                  beat_lost = dropping || too_long || memory_full;
wire [DEPTH_WIDTH:0]  depth_with_frame = {1'b0, depth_bytes} + {{(DEPTH_WIDTH-LENGTH_WIDTH){1'b0}}, length_so_far};
wire                  fits = depth_with_frame <= CAPACITY && queued_frames < FRAME_CAPACITY;
wire                  keep_frame = s_axis_tvalid && s_axis_tlast && !beat_lost && fits;

wire [DEPTH_WIDTH-1:0] popped_bytes = pop_head_and_next ? {{(DEPTH_WIDTH-LENGTH_WIDTH){1'b0}}, head_length}
                                                          + {{(DEPTH_WIDTH-LENGTH_WIDTH){1'b0}}, next_length}
                                    : pop_head ? {{(DEPTH_WIDTH-LENGTH_WIDTH){1'b0}}, head_length}
                                    : {DEPTH_WIDTH{1'b0}};
wire [DEPTH_WIDTH-1:0] kept_bytes = keep_frame ? depth_with_frame[DEPTH_WIDTH-1:0] - depth_bytes : {DEPTH_WIDTH{1'b0}};
wire [DEPTH_WIDTH-1:0] next_depth = depth_bytes + kept_bytes - popped_bytes;

always @(posedge clk) begin
    status_tail_drop <= 1'b0;
    status_frame_marked <= 1'b0;

    if (s_axis_tvalid) begin
        mid_frame <= !s_axis_tlast;
        frame_bytes <= length_so_far[LENGTH_WIDTH-1:0];
        if (!beat_lost) begin
            beat_memory[write_pointer[ADDR_WIDTH-1:0]] <= {s_axis_tuser, s_axis_tlast, s_axis_tkeep, s_axis_tdata};
        end
        if (s_axis_tlast) begin
            dropping <= 1'b0;
            if (keep_frame) begin
                descriptors[descriptor_write[FRAME_ADDR_WIDTH-1:0]] <= {frame_start_pointer, length_so_far[LENGTH_WIDTH-1:0]};
                descriptor_write <= descriptor_write + 1'b1;
                write_pointer <= write_pointer + 1'b1;
                frame_start_pointer <= write_pointer + 1'b1;
                status_frame_marked <= s_frame_marked;
            end else begin
                write_pointer <= frame_start_pointer;
                status_tail_drop <= 1'b1;
            end
        end else if (beat_lost) begin
            dropping <= 1'b1;
        end else begin
            write_pointer <= write_pointer + 1'b1;
        end
    end

    if (pop_head_and_next) begin
        descriptor_read <= descriptor_read + {{(FRAME_ADDR_WIDTH-1){1'b0}}, 2'd2};
    end else if (pop_head) begin
        descriptor_read <= descriptor_read + 1'b1;
    end
    depth_bytes <= next_depth;
    if (next_depth > peak_depth_bytes) begin
        peak_depth_bytes <= next_depth;
    end

    if (read_enable) begin
        {read_tuser, read_tlast, read_tkeep, read_tdata} <= beat_memory[read_address[ADDR_WIDTH-1:0]];
    end
    if (release_valid) begin
        free_pointer <= release_pointer;
    end

    if (rst) begin
        write_pointer <= {POINTER_WIDTH{1'b0}};
        frame_start_pointer <= {POINTER_WIDTH{1'b0}};
        free_pointer <= {POINTER_WIDTH{1'b0}};
        frame_bytes <= {LENGTH_WIDTH{1'b0}};
        mid_frame <= 1'b0;
        dropping <= 1'b0;
        descriptor_write <= {(FRAME_ADDR_WIDTH+1){1'b0}};
        descriptor_read <= {(FRAME_ADDR_WIDTH+1){1'b0}};
        depth_bytes <= {DEPTH_WIDTH{1'b0}};
        peak_depth_bytes <= {DEPTH_WIDTH{1'b0}};
            status_tail_drop <= 1'b0;
        status_frame_marked <= 1'b0;
    end
end

endmodule

`resetall
