// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// One NVM command's checks and data movement: Read, Write, Flush, Write Zeroes between host memory (PRPs) and the namespace
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "nvme_defs.vh"

// Facts from docs/reference/nvme.md (NVMe base specification):
// - Read 02h / Write 01h / Write Zeroes 08h: CDW10-11 SLBA, CDW12[15:0] NLB, 0-based. Flush 00h
//   has nothing to move (the namespace has no volatile cache). Namespace 1 is the only one.
// - Checks, in order: NSID (Invalid Namespace 0Bh), the opcode (Invalid Opcode 01h), SLBA + NLB
//   past the namespace, 64-bit wrap included (LBA Out of Range 80h), a transfer over MDTS
//   (Invalid Field 02h), PRP1 not dword aligned (PRP Offset Invalid 13h).
// - PRPs: PRP1 may start inside its page; when the data spans two pages PRP2 is the second page,
//   beyond that PRP2 points at a list of page entries whose last entry in a list page chains to
//   the next list page. Every page entry after PRP1 must be page aligned (13h otherwise).
// - A host read that comes back Unsupported Request or Completer Abort ends the command with
//   Data Transfer Error (04h); nothing after it is moved.
// Data never crosses a host page in one piece. A Read streams: each piece (up to the host's Max
// Payload Size) is a namespace DMA read whose data goes straight out as one memory write TLP,
// and the next piece is queued while one is on the wire. A Write streams the other way: each
// piece (up to the host's Max Read Request Size) is one memory read whose completions each
// become a namespace DMA write as they arrive. Write Zeroes writes 64-byte pieces of zeros. The
// namespace is an AXI4 master (the backend: a RAM here, NVMe-oF later).
module nvme_io_command #(
    // Width of the namespace data streams in bits (256 or 512)
    parameter DATA_WIDTH = 512,
    // Namespace 1: its size in logical blocks and the block size, 2^LBA_SHIFT bytes (512 B to
    // 4 KiB, so a block never spans host pages)
    parameter [63:0] NAMESPACE_BLOCKS = 64'd2048,
    parameter [7:0] LBA_SHIFT = 8'd9,
    // Largest transfer: 2^MDTS pages of 4 KiB (1 to 19: the byte count is 32 bits; 0, no
    // limit in the specification, is not offered)
    parameter [7:0] MDTS = 8'd5
) (
    input  wire                     clk,
    input  wire                     rst,

    input  wire                     start,
    input  wire [7:0]               opcode,
    input  wire [31:0]              nsid,
    input  wire [63:0]              slba,
    input  wire [15:0]              nlb,          // blocks - 1
    input  wire [64:0]              last_lba,     // slba + nlb
    input  wire [63:0]              prp1,
    input  wire [63:0]              prp2,
    output reg                      done,         // one cycle, with the status
    output reg  [7:0]               status_code,
    // A Write with every read issued hands its completion on (it comes with drain_done) and the
    // next command may start while its data arrives: one such Write at a time
    output reg                      released,     // one cycle, instead of done
    output reg                      drain_done,   // one cycle, with the released Write's status
    output reg  [7:0]               drain_status,
    input  wire                     release_allowed, // the previous released Write's completion is out

    // Host memory, through the PCIe requester
    output reg                      host_read_valid,
    input  wire                     host_read_ready,
    output reg  [63:0]              host_read_address,
    output reg  [4:0]               host_read_dwords,
    input  wire                     host_read_done,
    input  wire [511:0]             host_read_data,
    input  wire                     host_read_error,
    // A Read's pieces: one memory write TLP each, the data from the namespace reader's stream
    output reg                      host_stream_valid,
    input  wire                     host_stream_ready,
    output reg  [63:0]              host_stream_address,
    output reg  [10:0]              host_stream_dwords,
    input  wire                     host_stream_done,
    input  wire [2:0]               max_payload,   // the host's MPS: 128 << max_payload bytes
    // A Write's pieces: one memory read each, its completions announced as pieces of data
    output reg                      host_stream_read_valid,
    input  wire                     host_stream_read_ready,
    output reg  [63:0]              host_stream_read_address,
    output reg  [10:0]              host_stream_read_dwords,
    output reg  [63:0]              host_stream_read_context, // the namespace address of the piece
    input  wire                     host_stream_read_done,
    input  wire                     host_stream_read_error,
    input  wire [63:0]              host_stream_read_done_context,
    input  wire                     host_piece_valid,
    output wire                     host_piece_ready,
    input  wire [11:0]              host_piece_offset,
    input  wire [12:0]              host_piece_bytes,
    input  wire [63:0]              host_piece_context,
    input  wire [2:0]               max_read_request, // the host's MRRS: 128 << max_read_request bytes
    output wire                     ns_write_from_host, // the namespace writer's data: the pieces' frames

    // The namespace: DMA reads and writes of byte ranges
    output reg  [63:0]              ns_read_cmd_addr,
    output reg  [15:0]              ns_read_cmd_len,
    output reg                      ns_read_cmd_valid,
    input  wire                     ns_read_cmd_ready,
    output wire [63:0]              ns_write_cmd_addr,
    output wire [15:0]              ns_write_cmd_len,
    output wire                     ns_write_cmd_valid,
    input  wire                     ns_write_cmd_ready,
    output wire [DATA_WIDTH-1:0]    ns_write_tdata,
    output wire [DATA_WIDTH/8-1:0]  ns_write_tkeep,
    output wire                     ns_write_tvalid,
    input  wire                     ns_write_tready,
    output wire                     ns_write_tlast,
    input  wire                     ns_write_status_valid,
    input  wire                     ns_write_status_error,

    // For the counters: a piece of data finished (host data only: Read to the host, Write to the
    // namespace), and the command's last piece of any kind
    output reg                      data_event,
    output wire                     data_to_host,
    output reg  [12:0]              data_bytes,
    output wire                     data_last_event,
    output wire                     drain_data_last_event  // the released Write's last data
);

initial begin
    if (DATA_WIDTH != 256 && DATA_WIDTH != 512) begin
        $error("Error: DATA_WIDTH must be 256 or 512 (instance %m)");
        $finish;
    end
    if (NAMESPACE_BLOCKS == 64'd0 || LBA_SHIFT < 8'd9 || LBA_SHIFT > 8'd12) begin
        $error("Error: NAMESPACE_BLOCKS must be 1 or more and LBA_SHIFT 9 to 12 (instance %m)");
        $finish;
    end
    if (MDTS < 8'd1 || MDTS > 8'd19) begin
        $error("Error: MDTS must be 1 to 19 (instance %m)");
        $finish;
    end
end

localparam BEAT_BYTES = DATA_WIDTH / 8;
localparam CHUNK_BEATS = 64 / BEAT_BYTES > 0 ? 64 / BEAT_BYTES : 1;
localparam [31:0] MAX_TRANSFER_BYTES = 32'd4096 << MDTS;

reg [3:0]  state;
localparam [3:0] S_IDLE = 4'd0, S_PAGE = 4'd1, S_LIST_ENTRY = 4'd2, S_CHUNK = 4'd3, S_STREAM_READ = 4'd4,
                 S_NS_WRITE = 4'd5, S_NS_WRITE_STATUS = 4'd6, S_STREAM_ISSUE = 4'd7, S_DRAIN = 4'd8,
                 S_FINISH = 4'd9, S_LIST_CHAIN = 4'd10, S_WAIT_DRAIN = 4'd11;

reg [7:0]  command;
reg [63:0] list_pointer;        // next PRP list entry's address
reg [31:0] bytes_left;
reg [31:0] pages_left;          // host pages still to start, the current one excluded
reg [63:0] host_address, ns_address;
reg [12:0] page_left;           // bytes left in the current host page
reg [12:0] chunk_bytes;
reg [5:0]  streams_in_flight;   // Read pieces handed to the requester and not yet sent
localparam BEAT_INDEX_WIDTH = $clog2(CHUNK_BEATS + 1);
reg [BEAT_INDEX_WIDTH-1:0] beat;
wire [31:0] beat_wide = {{(32-BEAT_INDEX_WIDTH){1'b0}}, beat};
reg        two_pages;           // PRP2 is the second page itself, not a list

// Checks on the command as received
wire        lba_in_range = !last_lba[64] && last_lba[63:0] < NAMESPACE_BLOCKS;
wire [31:0] transfer_bytes = ({16'd0, nlb} + 32'd1) << LBA_SHIFT;
wire [31:0] first_page_bytes = 32'd4096 - {20'd0, prp1[11:0]};
wire [31:0] page_count = transfer_bytes <= first_page_bytes ? 32'd1
                       : 32'd1 + ((transfer_bytes - first_page_bytes + 32'd4095) >> 12);
wire        moves_host_data = opcode == `NVME_NVM_READ || opcode == `NVME_NVM_WRITE;

// A Read's pieces are the Max Payload Size (at most 1024 bytes), a Write's the Max Read Request
// Size (at most 4096), Write Zeroes' 64 bytes
wire [31:0] mps_bytes = max_payload >= 3'd3 ? 32'd1024 : (32'd128 << max_payload);
wire [31:0] mrrs_bytes = max_read_request >= 3'd5 ? 32'd4096 : (32'd128 << max_read_request);
wire [31:0] piece_limit = command == `NVME_NVM_READ ? mps_bytes : command == `NVME_NVM_WRITE ? mrrs_bytes : 32'd64;
wire [31:0] chunk_limit = {19'd0, page_left} < piece_limit ? {19'd0, page_left} : piece_limit;
wire [31:0] next_chunk = bytes_left < chunk_limit ? bytes_left : chunk_limit;
wire        stream_issued = host_stream_valid && host_stream_ready;

// Namespace writes: a Write's pieces as their completions arrive, or a piece of zeros
reg  [63:0] zeros_cmd_addr;
reg  [10:0] zeros_cmd_len;
reg         zeros_cmd_valid;
// A Write's host reads go out one after another (the requester tags them); each completion's
// piece becomes a namespace write at its read's namespace address (the read's context) plus
// its offset, whatever order the completions of different reads arrive in
// A released Write drains in its slot while the next command runs in the other (the read's
// context carries the slot in bit 63, above any namespace address)
reg         slot;
reg         drain_busy;
reg         drain_slot;
reg  [63:0] command_first_lba, command_last_lba, drain_first_lba, drain_last_lba;
wire [1:0]  reads_pending, writes_pending, read_failed_slots, write_failed_slots;
wire        write_answered_slot, slot_emptied;
wire        read_failed = read_failed_slots[slot];
wire        write_failed = write_failed_slots[slot];
wire        own_under_way = reads_pending[slot] || writes_pending[slot];
// Commands run in order as the host sees it: only a Write that does not touch the draining
// Write's blocks starts before that one is complete (a Read must see its data, Write Zeroes and
// Flush come after it)
wire        overlaps_drain = !(last_lba[63:0] < drain_first_lba || slba > drain_last_lba);
wire        must_wait = drain_busy && (opcode != `NVME_NVM_WRITE || overlaps_drain);
wire        command_begins = (state == S_IDLE && start && !must_wait) || (state == S_WAIT_DRAIN && !must_wait);
wire        start_slot = drain_busy ? !drain_slot : slot;
wire        read_issued = host_stream_read_valid && host_stream_read_ready;
assign ns_write_from_host = command == `NVME_NVM_WRITE || drain_busy;
assign ns_write_cmd_valid = ns_write_from_host ? host_piece_valid : zeros_cmd_valid;
assign ns_write_cmd_addr = ns_write_from_host ? {1'b0, host_piece_context[62:0]} + {52'd0, host_piece_offset}
                         : zeros_cmd_addr;
assign ns_write_cmd_len = ns_write_from_host ? {3'd0, host_piece_bytes} : {5'd0, zeros_cmd_len};
assign host_piece_ready = ns_write_from_host && ns_write_cmd_ready;
wire   write_asked = ns_write_cmd_valid && ns_write_cmd_ready;

assign ns_write_tvalid = state == S_NS_WRITE;
assign ns_write_tdata = {DATA_WIDTH{1'b0}};  // only Write Zeroes writes from here
assign ns_write_tlast = (beat_wide + 32'd1) * BEAT_BYTES >= {19'd0, chunk_bytes};
genvar lane;
generate
    for (lane = 0; lane < BEAT_BYTES; lane = lane + 1) begin : keep
        assign ns_write_tkeep[lane] = beat_wide * BEAT_BYTES + lane < {19'd0, chunk_bytes};
    end
endgenerate

assign data_to_host = command == `NVME_NVM_READ;
// The last data, for the counters: the namespace's write response to the last piece of a Write
// or Write Zeroes, or a Read's last piece leaving the requester. A Read ends when its last piece
// is handed to the requester (its completion can only follow the data out, and the next
// command's data waits behind that completion), so its last data may come after it has ended.
reg  data_last_written;
reg  read_pieces_issued;   // a Read's last piece is with the requester: its TLP's end is the last data
reg  host_stream_last;     // the piece being handed on is its Read's last
assign data_last_event = data_last_written
                      || (read_pieces_issued && host_stream_done && streams_in_flight == 6'd1)
                      || (slot_emptied && state == S_CHUNK && bytes_left == 32'd0 && command == `NVME_NVM_WRITE
                          && write_answered_slot == slot);

assign drain_data_last_event = slot_emptied && drain_busy && write_answered_slot == drain_slot;

nvme_write_slots #(
    .WRITES(64)
) write_slots_inst (
    .clk(clk), .rst(rst),
    .clear(command_begins), .clear_slot(start_slot),
    .read_issued(read_issued), .read_issued_slot(slot),
    .read_answered(host_stream_read_done), .read_answered_slot(host_stream_read_done_context[63]),
    .read_error(host_stream_read_error),
    .write_asked(write_asked), .write_asked_slot(ns_write_from_host ? host_piece_context[63] : slot),
    .write_answered(ns_write_status_valid), .write_error(ns_write_status_error),
    .reads_pending(reads_pending), .writes_pending(writes_pending), .read_failed(read_failed_slots),
    .write_failed(write_failed_slots), .write_answered_slot(write_answered_slot), .slot_emptied(slot_emptied)
);

always @(posedge clk) begin
    done <= 1'b0;
    released <= 1'b0;
    drain_done <= 1'b0;
    data_event <= 1'b0;
    data_last_written <= 1'b0;
    if (host_read_valid && host_read_ready) host_read_valid <= 1'b0;
    if (stream_issued) host_stream_valid <= 1'b0;
    if (host_stream_done && streams_in_flight == 6'd1) read_pieces_issued <= 1'b0;
    // (set as the last piece is taken, not when the Read ends: a short last TLP may be out first)
    if (stream_issued && host_stream_last) read_pieces_issued <= 1'b1;
    if (ns_write_from_host && write_asked) begin
        data_event <= 1'b1;
        data_bytes <= host_piece_bytes;
    end
    streams_in_flight <= streams_in_flight + {5'd0, stream_issued} - {5'd0, host_stream_done};
    if (ns_read_cmd_valid && ns_read_cmd_ready) ns_read_cmd_valid <= 1'b0;
    if (zeros_cmd_valid && ns_write_cmd_ready) zeros_cmd_valid <= 1'b0;
    if (read_issued) host_stream_read_valid <= 1'b0;
    // The released Write completes when its last read and namespace write are answered
    if (drain_busy && !reads_pending[drain_slot] && !writes_pending[drain_slot]) begin
        drain_done <= 1'b1;
        drain_status <= read_failed_slots[drain_slot] ? `NVME_SC_DATA_TRANSFER_ERROR
                      : write_failed_slots[drain_slot] ? `NVME_SC_INTERNAL_ERROR : `NVME_SC_SUCCESS;
        drain_busy <= 1'b0;
    end

    case (state)
        S_IDLE: begin
            if (start) begin
                if (must_wait) begin
                    state <= S_WAIT_DRAIN;
                end else begin
                    begin_command();
                end
            end
        end
        S_WAIT_DRAIN: begin
            if (!must_wait) begin
                begin_command();
            end
        end
        S_CHUNK: begin
            if (bytes_left == 32'd0) begin
                // A Read ends with its last piece handed on; a Write when every read and write is answered
                if (command == `NVME_NVM_READ || !own_under_way) begin
                    if (read_failed) status_code <= `NVME_SC_DATA_TRANSFER_ERROR;
                    else if (write_failed) status_code <= `NVME_SC_INTERNAL_ERROR;
                    done <= 1'b1;
                    state <= S_IDLE;
                end else if (!drain_busy && release_allowed && !read_failed
                             && !(slot_emptied && write_answered_slot == slot)) begin
                    // A Write's data is still arriving: it drains while the next command runs
                    // (not when its last write is answered now: it ends next cycle, and its last
                    // data counts as the command in hand's)
                    drain_busy <= 1'b1;
                    drain_slot <= slot;
                    drain_first_lba <= command_first_lba;
                    drain_last_lba <= command_last_lba;
                    released <= 1'b1;
                    state <= S_IDLE;
                end
            end else if (read_failed) begin
                // A host read failed: no more pieces; wait for those under way
                status_code <= `NVME_SC_DATA_TRANSFER_ERROR;
                state <= S_DRAIN;
            end else if (page_left == 13'd0) begin
                state <= S_PAGE;
            end else begin
                chunk_bytes <= next_chunk[12:0];
                beat <= 0;
                if (command == `NVME_NVM_WRITE) begin
                    host_stream_read_address <= host_address;
                    host_stream_read_dwords <= next_chunk[12:2];
                    host_stream_read_context <= {slot, ns_address[62:0]};
                    host_stream_read_valid <= 1'b1;
                    state <= S_STREAM_READ;
                end else if (command == `NVME_NVM_READ) begin
                    ns_read_cmd_addr <= ns_address;
                    ns_read_cmd_len <= {5'd0, next_chunk[10:0]};
                    ns_read_cmd_valid <= 1'b1;
                    host_stream_address <= host_address;
                    host_stream_dwords <= {2'd0, next_chunk[10:2]};
                    host_stream_valid <= 1'b1;
                    host_stream_last <= next_chunk == bytes_left;
                    state <= S_STREAM_ISSUE;
                end else begin  // Write Zeroes
                    zeros_cmd_addr <= ns_address;
                    zeros_cmd_len <= next_chunk[10:0];
                    zeros_cmd_valid <= 1'b1;
                    state <= S_NS_WRITE;
                end
            end
        end
        S_STREAM_ISSUE: begin
            // Both halves of the piece taken: the namespace read and the TLP that carries it
            if ((!ns_read_cmd_valid || ns_read_cmd_ready) && (!host_stream_valid || host_stream_ready)) begin
                advance();
            end
        end
        S_PAGE: begin
            // The next host page: PRP2 itself, or the next PRP list entry
            page_left <= 13'd4096;
            if (command == `NVME_NVM_WRITE_ZEROES) begin
                state <= S_CHUNK;
            end else if (two_pages) begin
                // PRP2's offset was checked when the command began
                host_address <= prp2;
                state <= S_CHUNK;
            end else begin
                // The list pointer is dword aligned: PRP2 was checked when the command began,
                // entries are 8 bytes and each chain to a next list page is checked as it is read
                host_read_address <= list_pointer;
                host_read_dwords <= 5'd2;
                host_read_valid <= 1'b1;
                // The last entry of a list page points at the next list page when pages remain
                state <= list_pointer[11:0] == 12'hFF8 && pages_left > 32'd1 ? S_LIST_CHAIN : S_LIST_ENTRY;
            end
        end
        S_LIST_CHAIN: begin
            if (host_read_done) begin
                if (host_read_error) begin
                    status_code <= `NVME_SC_DATA_TRANSFER_ERROR;
                    state <= S_FINISH;
                end else if (host_read_data[11:0] != 12'd0) begin
                    // The chain is an entry of a PRP list, page aligned like the others
                    status_code <= `NVME_SC_PRP_OFFSET_INVALID;
                    state <= S_FINISH;
                end else begin
                    list_pointer <= host_read_data[63:0];
                    state <= S_PAGE;
                end
            end
        end
        S_LIST_ENTRY: begin
            if (host_read_done) begin
                pages_left <= pages_left - 32'd1;
                list_pointer <= list_pointer + 64'd8;
                host_address <= host_read_data[63:0];
                if (host_read_error) begin
                    status_code <= `NVME_SC_DATA_TRANSFER_ERROR;
                    state <= S_FINISH;
                end else if (host_read_data[11:0] != 12'd0) begin
                    status_code <= `NVME_SC_PRP_OFFSET_INVALID;
                    state <= S_FINISH;
                end else begin
                    state <= S_CHUNK;
                end
            end
        end
        S_STREAM_READ: begin
            // The read is on its way: on to the next piece (its completions arrive meanwhile)
            if (read_issued) begin
                advance();
            end
        end
        S_DRAIN: begin
            // A failed command still waits for the reads and namespace writes it started
            if (!own_under_way && !read_issued) begin
                state <= S_FINISH;
            end
        end
        S_NS_WRITE: begin
            if (ns_write_tready) begin
                beat <= beat + 1'b1;
                if (ns_write_tlast) begin
                    state <= S_NS_WRITE_STATUS;
                end
            end
        end
        S_NS_WRITE_STATUS: begin
            if (ns_write_status_valid) begin
                if (ns_write_status_error) begin
                    status_code <= `NVME_SC_INTERNAL_ERROR;
                    state <= S_FINISH;
                end else begin
                    advance();
                end
            end
        end
        default: begin  // S_FINISH
            done <= 1'b1;
            state <= S_IDLE;
        end
    endcase

    if (rst) begin
        state <= S_IDLE;
        done <= 1'b0;
        data_event <= 1'b0;
        data_last_written <= 1'b0;
        host_read_valid <= 1'b0;
        host_stream_valid <= 1'b0;
        host_stream_read_valid <= 1'b0;
        streams_in_flight <= 6'd0;
        read_pieces_issued <= 1'b0;
        drain_busy <= 1'b0;
        slot <= 1'b0;
        released <= 1'b0;
        drain_done <= 1'b0;
        ns_read_cmd_valid <= 1'b0;
        zeros_cmd_valid <= 1'b0;
    end
end

// The command (its fields held by the queue engine while it runs): checks, then the first step
task begin_command;
    begin
        command <= opcode;
        status_code <= `NVME_SC_SUCCESS;
        slot <= start_slot;
        command_first_lba <= slba;
        command_last_lba <= last_lba[63:0];
        bytes_left <= transfer_bytes;
        ns_address <= slba << LBA_SHIFT;
        host_address <= prp1;
        page_left <= 13'd4096 - {1'b0, prp1[11:0]};
        pages_left <= page_count - 32'd1;
        two_pages <= page_count == 32'd2;
        list_pointer <= prp2;
        state <= S_CHUNK;
        if (nsid != 32'd1) begin
            status_code <= `NVME_SC_INVALID_NAMESPACE;
            state <= S_FINISH;
        end else if (opcode != `NVME_NVM_FLUSH && opcode != `NVME_NVM_WRITE && opcode != `NVME_NVM_READ
                     && opcode != `NVME_NVM_WRITE_ZEROES) begin
            status_code <= `NVME_SC_INVALID_OPCODE;
            state <= S_FINISH;
        end else if (opcode == `NVME_NVM_FLUSH) begin
            state <= S_FINISH;
        end else if (!lba_in_range) begin
            status_code <= `NVME_SC_LBA_OUT_OF_RANGE;
            state <= S_FINISH;
        end else if (moves_host_data && transfer_bytes > MAX_TRANSFER_BYTES) begin
            status_code <= `NVME_SC_INVALID_FIELD;
            state <= S_FINISH;
        end else if (moves_host_data && (prp1[1:0] != 2'd0
                                          || (page_count == 32'd2 && prp2[11:0] != 12'd0)
                                          || (page_count > 32'd2 && prp2[1:0] != 2'd0))) begin
            // PRP1, and PRP2 as a page or as a list pointer, are checked before any data
            // moves; list entries are checked as they are reached
            status_code <= `NVME_SC_PRP_OFFSET_INVALID;
            state <= S_FINISH;
        end else if (opcode == `NVME_NVM_WRITE_ZEROES) begin
            // No host pages: the namespace range is written with zeros in 64-byte pieces
            page_left <= 13'd4096;
            pages_left <= 32'hFFFFFFFF;
        end
    end
endtask

// The piece is done: move every position on by its size
task advance;
    begin
        // A Read's bytes count as its pieces go out; a Write's as its pieces come in (above)
        if (command == `NVME_NVM_READ) begin
            data_event <= 1'b1;
            data_bytes <= chunk_bytes;
        end
        data_last_written <= command == `NVME_NVM_WRITE_ZEROES && bytes_left == {19'd0, chunk_bytes};
        bytes_left <= bytes_left - {19'd0, chunk_bytes};
        page_left <= page_left - chunk_bytes;
        host_address <= host_address + {51'd0, chunk_bytes};
        ns_address <= ns_address + {51'd0, chunk_bytes};
        state <= S_CHUNK;
    end
endtask

endmodule

`resetall
