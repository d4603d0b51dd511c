// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// PCIe requester on the UltraScale+ RQ/RC interfaces: small reads and writes, bulk and stream writes, tagged stream reads
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Queue entries and completion entries are small and dword aligned (an NVMe SQE is 16 dwords, a
// CQE 4), so the small requests carry exactly those: a memory write of 1 to 16 dwords from a
// register, or a memory read of 1 to 64 dwords (up to four SQEs) into one, never crossing 4 KiB
// (the caller's addresses are entry-aligned inside their queue's pages). One small read is
// outstanding at a time, with tag 0; other requests go out while it waits (so a prefetch of queue
// entries does not stall the data), and its completions (several if the host splits them) are
// placed by Byte Count until the one marked "request completed". A small read that has no
// completion for COMPLETION_TIMEOUT cycles ends with read_error (PCIe Completion Timeout); its
// tag alternates between 0 and 16 after that, so a late completion is not taken for the next
// read's (completions whose tags match no read under way are dropped).
// A completion with an error code (Unsupported Request, Completer Abort, poisoned) ends the read
// with read_error: the caller answers it, the tag is free again.
// A bulk write (up to 4 KiB) takes its data from a dword source the caller computes (the payload
// dwords from bulk_source_index on, one beat's worth) and goes out as memory writes no longer
// than the Max Payload Size the host set and never crossing a 4 KiB boundary.
// A stream write is one memory write TLP whose payload arrives as an AXI4-Stream frame (byte 0 in
// lane 0, say from a DMA reader): the caller keeps it within the MPS and its 4 KiB page. The
// payload is moved up past the descriptor on the way through (axis_realign), so the data goes
// out at the stream's pace with no buffering here.
// A stream read is one memory read (up to 1024 dwords, within a page, no longer than the host's
// Max Read Request Size: the caller cuts it) with a tag of its own, so up to STREAM_TAGS of them
// are outstanding at once; their completions come out as pieces (pcie_us_read_pieces): a header
// with the caller's context, the byte offset in the read and the length, then the payload as a
// frame. The caller turns each into a DMA write. An error completion ends its read with
// stream_read_error and no piece. Small reads use tag 0.
// Formats: Xilinx PG213, DWORD-aligned mode, no straddling.
module pcie_us_requester #(
    // Width of the RQ and RC streams in bits: 256 or 512
    parameter DATA_WIDTH = 512,
    // Stream reads outstanding at once (tags 1 to STREAM_TAGS)
    parameter STREAM_TAGS = 8,
    // Cycles a read waits for its next completion before it ends with an error
    parameter COMPLETION_TIMEOUT = 16384
) (
    input  wire                       clk,
    input  wire                       rst,

    input  wire                       write_valid,
    output wire                       write_ready,
    input  wire [63:0]                write_address,
    input  wire [4:0]                 write_dwords,   // 1 to 16
    input  wire [511:0]               write_data,     // dword 0 in bits 31:0
    output reg                        write_done,     // one cycle: the write's last beat went to the IP

    input  wire                       bulk_valid,
    output wire                       bulk_ready,
    input  wire [63:0]                bulk_address,   // dword aligned
    input  wire [10:0]                bulk_dwords,    // 1 to 1024
    output wire [10:0]                bulk_source_index,
    input  wire [DATA_WIDTH-1:0]      bulk_source_data, // dwords bulk_source_index, +1, ... in lanes 0, 1, ...
    output reg                        bulk_done,      // one cycle, after the last beat

    input  wire                       stream_valid,
    output wire                       stream_ready,
    input  wire [63:0]                stream_address, // dword aligned
    input  wire [10:0]                stream_dwords,  // 1 to the MPS, within one 4 KiB page
    input  wire [DATA_WIDTH-1:0]      s_stream_tdata,
    input  wire [DATA_WIDTH/8-1:0]    s_stream_tkeep,
    input  wire                       s_stream_tvalid,
    output wire                       s_stream_tready,
    input  wire                       s_stream_tlast,
    output wire                       stream_done,    // one cycle: the TLP's last beat goes out

    input  wire                       stream_read_valid,
    output wire                       stream_read_ready,
    input  wire [63:0]                stream_read_address, // dword aligned
    input  wire [10:0]                stream_read_dwords,  // 1 to 1024 (0 is not used), within one 4 KiB page
    input  wire [63:0]                stream_read_context, // the caller's, given back with each piece
    output wire                       stream_read_done,    // one cycle, after a read's last completion
    output wire                       stream_read_error,   // with done: a completion reported an error
    output wire [63:0]                stream_read_done_context,
    output wire                       stream_reads_outstanding,
    output wire                       piece_valid,         // a completion's header: its data follows
    input  wire                       piece_ready,
    output wire [11:0]                piece_offset,        // bytes from the read's start
    output wire [12:0]                piece_bytes,
    output wire [63:0]                piece_context,
    output wire [DATA_WIDTH-1:0]      m_piece_tdata,
    output wire [DATA_WIDTH/8-1:0]    m_piece_tkeep,
    output wire                       m_piece_tvalid,
    input  wire                       m_piece_tready,
    output wire                       m_piece_tlast,

    input  wire [2:0]                 max_payload,    // the host's Max Payload Size: 128 << max_payload bytes

    input  wire                       read_valid,
    output wire                       read_ready,
    input  wire [63:0]                read_address,
    input  wire [6:0]                 read_dwords,    // 1 to 64
    output reg                        read_done,      // one cycle
    output reg  [2047:0]              read_data,
    output reg                        read_error,

    output wire [DATA_WIDTH-1:0]      m_axis_rq_tdata,
    output wire [DATA_WIDTH/32-1:0]   m_axis_rq_tkeep,
    output wire                       m_axis_rq_tvalid,
    input  wire                       m_axis_rq_tready,
    output wire                       m_axis_rq_tlast,
    output wire [RQ_USER_WIDTH-1:0]   m_axis_rq_tuser,

    input  wire [DATA_WIDTH-1:0]      s_axis_rc_tdata,
    input  wire [DATA_WIDTH/32-1:0]   s_axis_rc_tkeep,
    input  wire                       s_axis_rc_tvalid,
    output wire                       s_axis_rc_tready,
    input  wire                       s_axis_rc_tlast,
    input  wire [RC_USER_WIDTH-1:0]   s_axis_rc_tuser
);

localparam RQ_USER_WIDTH = DATA_WIDTH == 512 ? 137 : 62;
localparam RC_USER_WIDTH = DATA_WIDTH == 512 ? 161 : 75;
localparam LANES = DATA_WIDTH / 32;
localparam [5:0] LANE_COUNT = LANES[5:0];
localparam LANE_INDEX_WIDTH = $clog2(LANES);
// A TLP: the 4-dword descriptor and at most 16 dwords, sent DATA_WIDTH bits a beat
localparam TLP_BITS = 128 + 512;
localparam [3:0] REQ_MEM_READ = 4'b0000, REQ_MEM_WRITE = 4'b0001;
localparam READ_DWORDS = 64;  // the largest small read

initial begin
    if (DATA_WIDTH != 256 && DATA_WIDTH != 512) begin
        $error("Error: DATA_WIDTH must be 256 or 512 (instance %m)");
        $finish;
    end
    // Tags 1 to 15 are the stream reads' (tag 0 the small reads'), bit 4 their generation
    if (STREAM_TAGS < 1 || STREAM_TAGS > 15 || COMPLETION_TIMEOUT < 1) begin
        $error("Error: STREAM_TAGS must be 1 to 15 and COMPLETION_TIMEOUT 1 or more (instance %m)");
        $finish;
    end
end

localparam [1:0] S_IDLE = 2'd0, S_SEND = 2'd1, S_BULK = 2'd2, S_STREAM = 2'd3;

reg [1:0]          state;
reg [TLP_BITS-1:0] tlp;
reg [5:0]          tlp_dwords_left;   // descriptor and payload dwords not yet sent
reg                tlp_is_read;        // a small read: its completions are awaited once it is sent
reg                small_read_outstanding;
reg                small_read_generation; // tag bit 4 of the small reads
localparam SMALL_AGE_WIDTH = $clog2(COMPLETION_TIMEOUT + 1);
localparam [SMALL_AGE_WIDTH-1:0] SMALL_TIMEOUT = COMPLETION_TIMEOUT[SMALL_AGE_WIDTH-1:0];
reg [SMALL_AGE_WIDTH-1:0] small_read_age;
reg                tlp_is_small_write; // a small write: write_done after its last beat
reg [3:0]          last_be;
reg                first_beat;

// A request starts when none is going out, or in the cycle a small or stream TLP ends (so
// TLPs follow each other with no idle cycle), in this order of priority: a small read (when
// none is outstanding; while one is, the rest go on), a small write, a stream read, a bulk
// write, a stream write
wire   tlp_ending = (state == S_SEND || state == S_STREAM) && m_axis_rq_tvalid && m_axis_rq_tready
                 && m_axis_rq_tlast;
wire   can_start = state == S_IDLE || tlp_ending;
assign stream_done = tlp_ending && state == S_STREAM;
wire   read_blocked = small_read_outstanding || (state == S_SEND && tlp_is_read);
wire   read_goes = read_valid && !read_blocked;
wire   stream_tag_available;
wire [7:0] stream_tag;
wire   stream_read_goes = stream_read_valid && stream_tag_available;
assign read_ready = can_start && !read_blocked;
assign write_ready = can_start && !read_goes;
assign stream_read_ready = can_start && !read_goes && !write_valid && stream_tag_available;
assign bulk_ready = can_start && !read_goes && !write_valid && !stream_read_goes;
assign stream_ready = can_start && !read_goes && !write_valid && !stream_read_goes && !bulk_valid;

// ---- Stream write: the payload frame moved up by the 4-dword descriptor ----

wire [DATA_WIDTH-1:0]   shifted_tdata;
wire [DATA_WIDTH/8-1:0] shifted_tkeep;
wire                    shifted_tvalid, shifted_tlast;
wire                    shifted_tready = state == S_STREAM && m_axis_rq_tready;
reg  [127:0]            stream_descriptor;
localparam [$clog2(DATA_WIDTH/8)-1:0] DESCRIPTOR_SHIFT = 16;  // bytes

axis_realign #(
    .DATA_WIDTH(DATA_WIDTH)
) stream_realign_inst (
    .clk(clk), .rst(rst),
    .s_shift(DESCRIPTOR_SHIFT), .s_axis_tdata(s_stream_tdata), .s_axis_tkeep(s_stream_tkeep),
    .s_axis_tvalid(s_stream_tvalid), .s_axis_tready(s_stream_tready), .s_axis_tlast(s_stream_tlast),
    .m_axis_tdata(shifted_tdata), .m_axis_tkeep(shifted_tkeep), .m_axis_tvalid(shifted_tvalid),
    .m_axis_tready(shifted_tready), .m_axis_tlast(shifted_tlast)
);

// ---- Bulk write: one TLP after another, each cut at the MPS and at 4 KiB ----

reg  [63:0] bulk_next_address;
// The page after bulk_next_address's, kept ready: a TLP never crosses a 4 KiB page, so the next
// TLP's address is either this one's plus its length within the page (a 13-bit add) or the next
// page's first byte, and no 64-bit add follows the TLP's length (cut at the MPS, the page's end
// and the dwords left) in the same cycle
reg  [51:0] bulk_page_after;
reg  [10:0] bulk_left, bulk_index, bulk_tlp_left;
reg  [10:0] bulk_tlp_dwords;
wire [10:0] mps_dwords = max_payload >= 3'd3 ? 11'd256 : (11'd32 << max_payload);  // at most 1024 B
wire [10:0] page_left_dwords = 11'd1024 - {1'b0, bulk_next_address[11:2]};
wire [10:0] bulk_first_limit = mps_dwords < page_left_dwords ? mps_dwords : page_left_dwords;
// A TLP starts when none is open
wire [10:0] tlp_start_dwords = bulk_left < bulk_first_limit ? bulk_left : bulk_first_limit;
wire        bulk_tlp_start = bulk_tlp_left == 11'd0;
wire [10:0] bulk_tlp_remaining = bulk_tlp_start ? tlp_start_dwords : bulk_tlp_left;
// Payload dwords in this beat: the first beat of a TLP carries the 4-dword descriptor too
wire [10:0] bulk_room = bulk_tlp_start ? {5'd0, LANE_COUNT} - 11'd4 : {5'd0, LANE_COUNT};
wire [10:0] bulk_beat_payload = bulk_tlp_remaining < bulk_room ? bulk_tlp_remaining : bulk_room;
wire        bulk_beat_last = bulk_beat_payload == bulk_tlp_remaining;
wire [127:0] bulk_descriptor = descriptor(bulk_next_address, REQ_MEM_WRITE, tlp_start_dwords);
// Where in its page the TLP ends (4096: at the page's end)
wire [12:0] bulk_tlp_page_offset_after = {1'b0, bulk_next_address[11:0]}
                                       + {(bulk_tlp_start ? tlp_start_dwords : bulk_tlp_dwords), 2'b00};
assign bulk_source_index = bulk_index;

// Stream writes count their dwords like small ones (descriptor and payload left to send)
reg  [10:0] stream_dwords_left;
wire [10:0] dwords_left = state == S_STREAM ? stream_dwords_left : {5'd0, tlp_dwords_left};
wire [5:0] beat_dwords = state == S_BULK ? bulk_beat_payload[5:0] + (bulk_tlp_start ? 6'd4 : 6'd0)
                       : (dwords_left > {5'd0, LANE_COUNT} ? LANE_COUNT : dwords_left[5:0]);
assign m_axis_rq_tvalid = state == S_SEND || state == S_BULK || (state == S_STREAM && shifted_tvalid);
assign m_axis_rq_tdata = state == S_STREAM ? (first_beat ? {shifted_tdata[DATA_WIDTH-1:128], stream_descriptor}
                                                         : shifted_tdata)
                       : state != S_BULK ? tlp[DATA_WIDTH-1:0]
                       : bulk_tlp_start ? {bulk_source_data[DATA_WIDTH-129:0], bulk_descriptor} : bulk_source_data;
assign m_axis_rq_tlast = state == S_BULK ? bulk_beat_last : dwords_left <= {5'd0, LANE_COUNT};
// Every request's first dword is whole; the last is whole too unless it is the first
wire       tlp_first_beat = state == S_BULK ? bulk_tlp_start : first_beat;
wire [3:0] tlp_last_be = state == S_BULK ? (tlp_start_dwords == 11'd1 && bulk_tlp_start ? 4'h0 : 4'hF) : last_be;

genvar lane;
generate
    for (lane = 0; lane < LANES; lane = lane + 1) begin : keep
        assign m_axis_rq_tkeep[lane] = lane < beat_dwords;
    end
endgenerate
// Byte enables (the last dword's are 0 for a one-dword request) and, at 512 bits, start and
// end of packet in segment 0
generate
    if (DATA_WIDTH == 512) begin : user_512
        // [3:0] first_be, [11:8] last_be, [20] is_sop0, [26] is_eop0, [31:28] is_eop0_ptr
        assign m_axis_rq_tuser = {{(RQ_USER_WIDTH-32){1'b0}}, beat_dwords[3:0] - 4'd1, 1'b0, m_axis_rq_tlast,
                                  5'd0, tlp_first_beat, 4'd0, 4'd0, tlp_last_be, 4'd0, 4'hF};
    end else begin : user_256
        assign m_axis_rq_tuser = {{(RQ_USER_WIDTH-8){1'b0}}, tlp_last_be, 4'hF};
    end
endgenerate

task start_stream;
    begin
        stream_descriptor <= descriptor(stream_address, REQ_MEM_WRITE, stream_dwords);
        stream_dwords_left <= stream_dwords + 11'd4;
        last_be <= stream_dwords == 11'd1 ? 4'h0 : 4'hF;
        state <= S_STREAM;
    end
endtask

function [127:0] descriptor(input [63:0] address, input [3:0] request_type, input [10:0] dwords);
    begin
        // address, dword count, request type, tag 0, requester ID 0 (the IP fills in the bus)
        descriptor = {32'd0, 16'd0, 1'b0, request_type, dwords, address[63:2], 2'b00};
    end
endfunction


// Completions for the outstanding read
wire [3:0]  completion_error = s_axis_rc_tdata[15:12];
wire        completion_last = s_axis_rc_tdata[30];
// Where a completion's data goes: the request's bytes less those still to come (Byte Count, which
// every completion carries in full; the Lower Address field has only 7 bits on the wire)
wire [12:0] completion_byte_count = s_axis_rc_tdata[28:16];
reg  [12:0] request_bytes;
wire [12:0] completion_offset = request_bytes - completion_byte_count;
// The first payload dword's place in the read's data, and the next one after it
wire [31:0] completion_first_dword = {21'd0, completion_offset[12:2]};
reg  [31:0] place_dword;
reg         completion_first_beat;
reg         request_completed;  // the completion being received is the read's last

// ---- Completions: tag 0 for the small read waiting here, the others for the pieces ----

reg  rc_first_beat;
reg  rc_to_pieces;               // the completion under way is for the pieces (tag index not 0)
wire rc_beat_to_pieces = rc_first_beat ? s_axis_rc_tdata[67:64] != 4'd0 : rc_to_pieces;
wire pieces_tready;
assign s_axis_rc_tready = rc_beat_to_pieces ? pieces_tready : 1'b1;
// The small read's own completions (its tag and generation, while it is under way); others with
// tag index 0 are dropped
reg  small_completion_ours;
wire small_tag_matches = s_axis_rc_tdata[71:64] == {3'd0, small_read_generation, 4'd0};
wire small_read_beat = s_axis_rc_tvalid && !rc_beat_to_pieces && small_read_outstanding
                    && (rc_first_beat ? small_tag_matches : small_completion_ours);

always @(posedge clk) begin
    if (s_axis_rc_tvalid && s_axis_rc_tready) begin
        rc_first_beat <= s_axis_rc_tlast;
        if (rc_first_beat) begin
            rc_to_pieces <= s_axis_rc_tdata[67:64] != 4'd0;
            small_completion_ours <= small_tag_matches;
        end
    end
    if (rst) begin
        rc_first_beat <= 1'b1;
        rc_to_pieces <= 1'b0;
    end
end

pcie_us_read_pieces #(
    .DATA_WIDTH(DATA_WIDTH),
    .TAGS(STREAM_TAGS),
    .COMPLETION_TIMEOUT(COMPLETION_TIMEOUT),
    .CONTEXT_WIDTH(64)
) read_pieces_inst (
    .clk(clk), .rst(rst),
    .tag_available(stream_tag_available), .tag(stream_tag),
    .allocate(stream_read_valid && stream_read_ready), .allocate_bytes({stream_read_dwords, 2'b00}),
    .allocate_context(stream_read_context),
    .s_axis_rc_tdata(s_axis_rc_tdata), .s_axis_rc_tvalid(s_axis_rc_tvalid && rc_beat_to_pieces),
    .s_axis_rc_tready(pieces_tready), .s_axis_rc_tlast(s_axis_rc_tlast),
    .piece_valid(piece_valid), .piece_ready(piece_ready), .piece_offset(piece_offset), .piece_bytes(piece_bytes),
    .piece_context(piece_context),
    .m_piece_tdata(m_piece_tdata), .m_piece_tkeep(m_piece_tkeep), .m_piece_tvalid(m_piece_tvalid),
    .m_piece_tready(m_piece_tready), .m_piece_tlast(m_piece_tlast),
    .read_done(stream_read_done), .read_error(stream_read_error), .read_context(stream_read_done_context),
    .reads_outstanding(stream_reads_outstanding)
);

// The next request, if one is waiting (the ready signals above follow the same order)
task start_next;
    begin
        first_beat <= 1'b1;
        state <= S_IDLE;
        if (read_goes) begin
            tlp <= {{(TLP_BITS-128){1'b0}}, descriptor(read_address, REQ_MEM_READ, {4'd0, read_dwords})
                                            | {27'd0, small_read_generation, 100'd0}};
            tlp_dwords_left <= 6'd4;
            tlp_is_read <= 1'b1;
            last_be <= read_dwords == 7'd1 ? 4'h0 : 4'hF;
            request_bytes <= {4'd0, read_dwords, 2'b00};
            small_read_age <= {SMALL_AGE_WIDTH{1'b0}};
            read_error <= 1'b0;
            read_data <= 2048'd0;
            completion_first_beat <= 1'b1;
            state <= S_SEND;
        end else if (write_valid) begin
            tlp <= {write_data, descriptor(write_address, REQ_MEM_WRITE, {6'd0, write_dwords})};
            tlp_dwords_left <= 6'd4 + {1'b0, write_dwords};
            tlp_is_read <= 1'b0;
            tlp_is_small_write <= 1'b1;
            last_be <= write_dwords == 5'd1 ? 4'h0 : 4'hF;
            state <= S_SEND;
        end else if (stream_read_goes) begin
            // Sent with its own tag; its completions go to the pieces, not waited for here
            tlp <= {{(TLP_BITS-128){1'b0}},
                    descriptor(stream_read_address, REQ_MEM_READ, stream_read_dwords) | {24'd0, stream_tag, 96'd0}};
            tlp_dwords_left <= 6'd4;
            tlp_is_read <= 1'b0;
            tlp_is_small_write <= 1'b0;
            last_be <= stream_read_dwords == 11'd1 ? 4'h0 : 4'hF;
            state <= S_SEND;
        end else if (bulk_valid) begin
            bulk_next_address <= bulk_address;
            bulk_page_after <= bulk_address[63:12] + 52'd1;
            bulk_left <= bulk_dwords;
            bulk_index <= 11'd0;
            bulk_tlp_left <= 11'd0;
            state <= S_BULK;
        end else if (stream_valid) begin
            start_stream();
        end
    end
endtask

// Where this beat's lanes land in the small read's buffer. Each dword of the buffer takes the
// lane that carries it (a first beat has the descriptor in lanes 0-2, data from lane 3 placed
// by its offset): a choice of LANES per dword. Written the other way round, a lane stored at a
// moving index, each lane becomes a shifter as wide as the buffer (Yosys ran out of memory on
// it at 512 bits).
reg [2047:0] beat_placed;               // the beat's dwords at their places in the buffer
reg [READ_DWORDS-1:0] beat_carries;     // which dwords of the buffer the beat carries
reg [31:0] lane_of_dword;
integer dword;
always @* begin
    beat_placed = 2048'd0;
    beat_carries = {READ_DWORDS{1'b0}};
    for (dword = 0; dword < READ_DWORDS; dword = dword + 1) begin
        lane_of_dword = completion_first_beat ? dword - completion_first_dword + 3 : dword - place_dword;
        if (lane_of_dword < LANES && (!completion_first_beat || lane_of_dword >= 3)) begin
            beat_carries[dword] = 1'b1;
            beat_placed[32*dword +: 32] = s_axis_rc_tdata[32*lane_of_dword[LANE_INDEX_WIDTH-1:0] +: 32];
        end
    end
end

integer index;
always @(posedge clk) begin
    read_done <= 1'b0;
    write_done <= 1'b0;
    bulk_done <= 1'b0;
    case (state)
        S_IDLE: begin
            start_next();
        end
        S_STREAM: begin
            if (m_axis_rq_tvalid && m_axis_rq_tready) begin
                first_beat <= 1'b0;
                stream_dwords_left <= stream_dwords_left - {5'd0, beat_dwords};
                if (m_axis_rq_tlast) begin
                    start_next();
                end
            end
        end
        S_BULK: begin
            if (m_axis_rq_tready) begin
                bulk_index <= bulk_index + bulk_beat_payload;
                bulk_left <= bulk_left - bulk_beat_payload;
                bulk_tlp_left <= bulk_tlp_remaining - bulk_beat_payload;
                if (bulk_tlp_start) begin
                    bulk_tlp_dwords <= tlp_start_dwords;
                end
                if (bulk_beat_last) begin
                    if (bulk_tlp_page_offset_after[12]) begin
                        bulk_next_address <= {bulk_page_after, 12'd0};
                        bulk_page_after <= bulk_page_after + 52'd1;
                    end else begin
                        bulk_next_address[11:0] <= bulk_tlp_page_offset_after[11:0];
                    end
                    if (bulk_left == bulk_beat_payload) begin
                        bulk_done <= 1'b1;
                        state <= S_IDLE;
                    end
                end
            end
        end
        default: begin  // S_SEND
            if (m_axis_rq_tready) begin
                first_beat <= 1'b0;
                tlp <= tlp >> DATA_WIDTH;
                tlp_dwords_left <= tlp_dwords_left - beat_dwords;
                if (m_axis_rq_tlast) begin
                    write_done <= !tlp_is_read && tlp_is_small_write;
                    if (tlp_is_read) begin
                        small_read_outstanding <= 1'b1;
                    end
                    start_next();
                end
            end
        end
    endcase
    // The small read's completions, whatever goes out meanwhile; or its timeout
    if (small_read_outstanding) begin
        small_read_age <= small_read_beat ? {SMALL_AGE_WIDTH{1'b0}}
                        : small_read_age + {{(SMALL_AGE_WIDTH-1){1'b0}}, small_read_age != SMALL_TIMEOUT};
    end
    if (small_read_outstanding && !small_read_beat && small_read_age == SMALL_TIMEOUT && completion_first_beat) begin
        read_done <= 1'b1;
        read_error <= 1'b1;
        small_read_outstanding <= 1'b0;
        small_read_generation <= !small_read_generation;
    end
    if (small_read_beat) begin
        for (index = 0; index < READ_DWORDS; index = index + 1) begin
            if (beat_carries[index]) read_data[32*index +: 32] <= beat_placed[32*index +: 32];
        end
        if (completion_first_beat) begin
            place_dword <= completion_first_dword + LANES - 3;
            if (completion_error != 4'd0) begin
                read_error <= 1'b1;
            end
        end else begin
            place_dword <= place_dword + LANES;
        end
        completion_first_beat <= s_axis_rc_tlast;
        if (s_axis_rc_tlast && (completion_first_beat ? (completion_last || completion_error != 4'd0)
                                                     : request_completed)) begin
            read_done <= 1'b1;
            small_read_outstanding <= 1'b0;
        end
        if (completion_first_beat) begin
            request_completed <= completion_last || completion_error != 4'd0;
                end
    end
    if (rst) begin
        state <= S_IDLE;
        small_read_outstanding <= 1'b0;
        small_read_generation <= 1'b0;
        read_done <= 1'b0;
        read_error <= 1'b0;
        bulk_done <= 1'b0;
    end
end

endmodule

`resetall
