// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// Tagged PCIe reads whose completions come out as pieces: a header (where in the read, how long, the caller's context) then the payload as a frame
`resetall
`timescale 1ns / 1ps
`default_nettype none

// The requester allocates a tag here for each such read it sends (the read's length and a
// caller-chosen context are kept against the tag) and routes every completion with one of these
// tags here. Completions of different tags may interleave; those of one tag come in address
// order, and each is placed by its Byte Count (the request's bytes less those still to come;
// the Lower Address field has only 7 bits on the wire). Each completion with data becomes a
// piece: its header first, then its payload moved down past the 3-dword completion descriptor
// (axis_realign by a beat less 3 dwords, the first output beat, which holds only the
// descriptor, dropped), byte 0 in lane 0. A read ends (read_done, with its context and
// whether any completion reported an error) with the completion marked "request completed", or
// the first error completion; its tag is free again.
// A read whose next completion has not come within COMPLETION_TIMEOUT cycles ends with an error
// (PCIe Completion Timeout). Its tag's generation bit (tag bit 4) flips, so a completion that
// turns up late is not taken for the tag's next read: like any completion whose tag is not that
// of a read under way (an Unexpected Completion), it is dropped.
// Formats: Xilinx PG213 requester completion descriptor, DWORD-aligned mode, no straddling.
module pcie_us_read_pieces #(
    // Width of the RC stream in bits: 256 or 512
    parameter DATA_WIDTH = 512,
    // Tags 1 to TAGS, and with bit 4 set (tag index 0 is the requester's own small reads)
    parameter TAGS = 8,
    // Cycles a read waits for its next completion
    parameter COMPLETION_TIMEOUT = 16384,
    // Width of the context a read carries to its completions (the caller's, returned as given)
    parameter CONTEXT_WIDTH = 64
) (
    input  wire                     clk,
    input  wire                     rst,

    output wire                     tag_available,
    output wire [7:0]               tag,             // the tag the next read takes
    input  wire                     allocate,        // a read with `tag` goes out now
    input  wire [12:0]              allocate_bytes,  // its length (at most 4096)
    input  wire [CONTEXT_WIDTH-1:0] allocate_context,

    input  wire [DATA_WIDTH-1:0]    s_axis_rc_tdata,
    input  wire                     s_axis_rc_tvalid,
    output wire                     s_axis_rc_tready,
    input  wire                     s_axis_rc_tlast,

    output wire                     piece_valid,
    input  wire                     piece_ready,
    output wire [11:0]              piece_offset,    // bytes from the read's start
    output wire [12:0]              piece_bytes,
    output wire [CONTEXT_WIDTH-1:0] piece_context,
    output wire [DATA_WIDTH-1:0]    m_piece_tdata,
    output wire [DATA_WIDTH/8-1:0]  m_piece_tkeep,
    output wire                     m_piece_tvalid,
    input  wire                     m_piece_tready,
    output wire                     m_piece_tlast,

    output reg                      read_done,       // one cycle
    output reg                      read_error,
    output reg  [CONTEXT_WIDTH-1:0] read_context,
    output wire                     reads_outstanding
);

localparam LANES = DATA_WIDTH / 32;
localparam [5:0] LANE_COUNT = LANES[5:0];
localparam BEAT_BYTES = DATA_WIDTH / 8;
localparam SHIFT_WIDTH = $clog2(BEAT_BYTES);
localparam [SHIFT_WIDTH-1:0] EXTRACT_SHIFT = BEAT_BYTES[SHIFT_WIDTH-1:0] - 12;
localparam TAG_INDEX_WIDTH = 4;
localparam AGE_WIDTH = $clog2(COMPLETION_TIMEOUT + 1);
localparam [AGE_WIDTH-1:0] TIMEOUT = COMPLETION_TIMEOUT[AGE_WIDTH-1:0];

initial begin
    if (DATA_WIDTH != 256 && DATA_WIDTH != 512) begin
        $error("Error: DATA_WIDTH must be 256 or 512 (instance %m)");
        $finish;
    end
    if (TAGS < 1 || TAGS > 15) begin
        $error("Error: TAGS must be 1 to 15 (instance %m)");
        $finish;
    end
    if (COMPLETION_TIMEOUT < 1 || CONTEXT_WIDTH < 1) begin
        $error("Error: COMPLETION_TIMEOUT and CONTEXT_WIDTH must be 1 or more (instance %m)");
        $finish;
    end
end

// ---- Tags in use, their reads' lengths and contexts ----

reg [TAGS:1]            tag_busy;
reg [12:0]              tag_bytes [1:TAGS];
reg [CONTEXT_WIDTH-1:0] tag_context [1:TAGS];
reg [TAGS:1]            tag_failed;
reg [TAGS:1]            tag_generation;
reg [AGE_WIDTH-1:0]     tag_age [1:TAGS];   // cycles since the read went out or its last beat came

// The lowest free tag
wire                       free_found;
wire [TAG_INDEX_WIDTH-1:0] free_below;   // the free tag less one
wire [TAG_INDEX_WIDTH-1:0] free_tag = free_below + 1'b1;
lowest_set_bit #(
    .WIDTH(TAGS), .INDEX_WIDTH(TAG_INDEX_WIDTH)
) free_select_inst (
    .bits(~tag_busy), .found(free_found), .index(free_below)
);
assign tag_available = free_found;
assign tag = {3'd0, tag_generation[free_tag], free_tag};
assign reads_outstanding = tag_busy != {TAGS{1'b0}};

// ---- The completion coming in ----

reg         first_beat;          // the next beat starts a completion
reg  [TAG_INDEX_WIDTH-1:0] current_tag_index; // the tag of the completion under way (after its first beat)
wire [3:0]  completion_error = s_axis_rc_tdata[15:12];
wire [12:0] completion_byte_count = s_axis_rc_tdata[28:16];
wire        completion_last = s_axis_rc_tdata[30];
wire [10:0] completion_dwords = s_axis_rc_tdata[42:32];
wire [7:0]  completion_tag = s_axis_rc_tdata[71:64];
wire [TAG_INDEX_WIDTH-1:0] tag_index = completion_tag[TAG_INDEX_WIDTH-1:0];
wire        tag_index_valid = tag_index != 4'd0 && {28'd0, tag_index} <= TAGS;
// The completion answers a read under way: its tag, generation included
wire        completion_known = completion_tag[7:5] == 3'd0 && tag_index_valid && tag_busy[tag_index]
                            && completion_tag[4] == tag_generation[tag_index];
wire [12:0] completion_offset = tag_bytes[tag_index] - completion_byte_count;
wire        completion_is_piece = completion_known && completion_error == 4'd0 && completion_dwords != 11'd0;

reg         piece_announced;     // this completion's header was taken
reg         dropping;            // the completion under way carries no piece: its beats are dropped
reg  [10:0] frame_dwords_after;  // dwords of the completion still to come after this beat
assign piece_valid = s_axis_rc_tvalid && first_beat && completion_is_piece && !piece_announced;
assign piece_offset = completion_offset[11:0];
assign piece_bytes = {completion_dwords, 2'b00};
assign piece_context = tag_context[tag_index];
wire   piece_flowing = piece_announced || (piece_valid && piece_ready);

// Dwords of this beat in the realigner's frame: the descriptor's 3 and the payload on the first
wire [11:0] frame_dwords_left = first_beat ? {1'b0, completion_dwords} + 12'd3 : {1'b0, frame_dwords_after};
wire [5:0]  frame_beat_dwords = frame_dwords_left > {6'd0, LANE_COUNT} ? LANE_COUNT : frame_dwords_left[5:0];
wire [BEAT_BYTES-1:0] frame_keep;
genvar keep_byte;
generate
    for (keep_byte = 0; keep_byte < BEAT_BYTES; keep_byte = keep_byte + 1) begin : frame_keep_bytes
        assign frame_keep[keep_byte] = keep_byte / 4 < frame_beat_dwords;
    end
endgenerate

wire in_piece = first_beat ? completion_is_piece : !dropping;
wire extract_tready, extracted_tvalid, extracted_tlast;
reg  drop_extracted;             // the next realigned beat is the descriptor's: not passed on
wire extract_tvalid = in_piece && s_axis_rc_tvalid && piece_flowing;
assign s_axis_rc_tready = !in_piece || (piece_flowing && extract_tready);
wire beat_taken = s_axis_rc_tvalid && s_axis_rc_tready;

axis_realign #(
    .DATA_WIDTH(DATA_WIDTH)
) completion_realign_inst (
    .clk(clk), .rst(rst),
    .s_shift(EXTRACT_SHIFT), .s_axis_tdata(s_axis_rc_tdata), .s_axis_tkeep(frame_keep),
    .s_axis_tvalid(extract_tvalid), .s_axis_tready(extract_tready), .s_axis_tlast(s_axis_rc_tlast),
    .m_axis_tdata(m_piece_tdata), .m_axis_tkeep(m_piece_tkeep), .m_axis_tvalid(extracted_tvalid),
    .m_axis_tready(drop_extracted || m_piece_tready), .m_axis_tlast(extracted_tlast)
);
assign m_piece_tvalid = extracted_tvalid && !drop_extracted;
assign m_piece_tlast = extracted_tlast;

// The completion that ends its read: "request completed", or an error
reg        ending;               // latched from the first beat
wire       ends_read = first_beat ? completion_known && (completion_last || completion_error != 4'd0) : ending;
wire [TAG_INDEX_WIDTH-1:0] beat_tag_index = first_beat ? tag_index : current_tag_index;
reg        current_known;        // the completion under way answers a read under way
wire       beat_known = first_beat ? completion_known : current_known;
wire       read_ends_now = beat_taken && s_axis_rc_tlast && ends_read;

// The oldest read past its time, ended when no completion ends one this cycle (and not while
// one of its completions is coming in)
wire [TAGS:1]              expired;
wire                       expired_found;
wire [TAG_INDEX_WIDTH-1:0] expired_below;   // the expired tag less one
wire [TAG_INDEX_WIDTH-1:0] expired_tag = expired_below + 1'b1;
genvar expiry_tag;
generate
    for (expiry_tag = 1; expiry_tag <= TAGS; expiry_tag = expiry_tag + 1) begin : expiry
        assign expired[expiry_tag] = tag_busy[expiry_tag] && tag_age[expiry_tag] == TIMEOUT
                                  && (first_beat || current_tag_index != expiry_tag);
    end
endgenerate
lowest_set_bit #(
    .WIDTH(TAGS), .INDEX_WIDTH(TAG_INDEX_WIDTH)
) expired_select_inst (
    .bits(expired), .found(expired_found), .index(expired_below)
);

integer age_scan;
always @(posedge clk) begin
    read_done <= 1'b0;
    if (extracted_tvalid && drop_extracted) begin
        drop_extracted <= 1'b0;
    end else if (m_piece_tvalid && m_piece_tready && m_piece_tlast) begin
        drop_extracted <= 1'b1;
    end
    if (piece_valid && piece_ready) begin
        piece_announced <= 1'b1;
    end
    for (age_scan = 1; age_scan <= TAGS; age_scan = age_scan + 1) begin
        if (tag_busy[age_scan] && tag_age[age_scan] != TIMEOUT) begin
            tag_age[age_scan] <= tag_age[age_scan] + 1'b1;
        end
    end
    if (beat_taken && beat_known) begin
        tag_age[beat_tag_index] <= {AGE_WIDTH{1'b0}};
    end
    if (expired_found && !read_ends_now) begin
        read_done <= 1'b1;
        read_error <= 1'b1;
        read_context <= tag_context[expired_tag];
        tag_busy[expired_tag] <= 1'b0;
        tag_generation[expired_tag] <= !tag_generation[expired_tag];
    end
    if (allocate) begin
        tag_age[free_tag] <= {AGE_WIDTH{1'b0}};
        tag_busy[free_tag] <= 1'b1;
        tag_bytes[free_tag] <= allocate_bytes;
        tag_context[free_tag] <= allocate_context;
        tag_failed[free_tag] <= 1'b0;
    end
    if (beat_taken) begin
        first_beat <= s_axis_rc_tlast;
        frame_dwords_after <= frame_dwords_left[10:0] - {5'd0, frame_beat_dwords};
        if (first_beat) begin
            current_tag_index <= tag_index;
            current_known <= completion_known;
            dropping <= !completion_is_piece;
            ending <= completion_known && (completion_last || completion_error != 4'd0);
            if (completion_known && completion_error != 4'd0) begin
                tag_failed[tag_index] <= 1'b1;
            end
        end
        if (s_axis_rc_tlast) begin
            piece_announced <= 1'b0;
            if (ends_read) begin
                read_done <= 1'b1;
                read_error <= tag_failed[beat_tag_index] || (first_beat && completion_error != 4'd0);
                read_context <= tag_context[beat_tag_index];
                tag_busy[beat_tag_index] <= 1'b0;
            end
        end
    end
    if (rst) begin
        tag_busy <= {TAGS{1'b0}};
        tag_generation <= {TAGS{1'b0}};
        first_beat <= 1'b1;
        drop_extracted <= 1'b1;
        piece_announced <= 1'b0;
        dropping <= 1'b0;
        read_done <= 1'b0;
    end
end

endmodule

`resetall
