// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// RoCEv2 receive parser: checks MAC frames (Ethernet, IPv4, UDP, BTH, ICRC), delivers good frames' header metadata and realigned payload, drops and counts the rest
`resetall
`timescale 1ns / 1ps
`default_nettype none

// Frame from the MAC, without FCS: Ethernet 14 | IPv4 20 | UDP 8 | BTH 12 | RETH/AETH/ImmDt |
// payload | pad | ICRC 4, possibly followed by the MAC's padding up to 60 bytes.
//
// The MAC has no tready: a beat is taken every cycle. Payload is written into a packet FIFO as
// it arrives and every check is settled once the frame's last beat is in, so a frame is
// committed or dropped as a whole; downstream backpressure only fills the buffers.
//
// Drop causes. Exactly one status pulse per frame, two cycles after its last beat. The causes
// of src/dpuv/models/roce_packet.py parse_frame are tried in its order, which is also wire order:
//   Ethernet length, EtherType, IPv4 length, IPv4 version/IHL, header checksum (a mismatch
//   is not_roce), fragment, protocol, UDP length, destination port, room for BTH and ICRC,
//   IPv4/UDP length fields against each other and the frame, ICRC, TVer, opcode, extension
//   headers within the packet, bytes on an opcode without payload (bad_length), pad, PMTU.
// Two causes the model cannot see: mac_error (tuser on any beat) comes before all of them,
// because nothing in a frame with a bad FCS can be trusted; overflow (no room for the payload
// in the payload FIFO or for the metadata in the header FIFO) comes after all of them, so only
// a frame that would otherwise have been delivered is counted as lost to overflow.
//
// Payload space is reserved for a whole frame when its first payload beat is ready, from the
// lengths in its headers; a frame that does not fit writes nothing. A frame whose headers
// claim more payload than it carries is closed with a bad last beat at its end; it always
// fails a length check, so the FIFO discards it.
//
// Latency: with the last beat of a frame on s_axis in cycle t, its verdict is settled in t+1
// (the ICRC residue needs that beat), the status pulse is high in t+2, and its metadata (and
// the first payload beat, behind any earlier frames) can be on the outputs from t+3.
module roce_rx_parser #(
    // Width of the MAC stream and of the payload stream in bits: 64, 128, 256 or 512
    parameter DATA_WIDTH = 64,
    // Width of tkeep: one enable per byte
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // Payload buffer in beats (a power of two); the default holds two 4096-byte payloads
    parameter PAYLOAD_FIFO_DEPTH = 65536 / DATA_WIDTH,
    // Header metadata buffer in frames (a power of two)
    parameter HEADER_FIFO_DEPTH = 32
) (
    input  wire                    clk,
    input  wire                    rst,

    // From the MAC: tkeep all ones except on the last beat, where it is contiguous from lane 0;
    // tuser high marks the frame bad (FCS error), normally on its last beat
    input  wire [DATA_WIDTH-1:0]   s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0]   s_axis_tkeep,
    input  wire                    s_axis_tvalid,
    input  wire                    s_axis_tlast,
    input  wire                    s_axis_tuser,

    // The largest path MTU of any QP in bytes (256, 512, 1024, 2048 or 4096); change it only
    // between frames. A FIRST or MIDDLE packet must carry exactly some path MTU up to it: which
    // one its QP uses, the QP's side checks once it has looked the QP up.
    input  wire [12:0]             pmtu_bytes,

    // Header metadata of each good frame, in frame order; fields of extension headers the
    // opcode does not carry read zero
    output wire                    m_hdr_valid,
    input  wire                    m_hdr_ready,
    output wire [47:0]             m_hdr_eth_dest_mac,
    output wire [47:0]             m_hdr_eth_src_mac,
    output wire [31:0]             m_hdr_ip_source,
    output wire [31:0]             m_hdr_ip_dest,
    output wire [7:0]              m_hdr_ip_tos,
    output wire [7:0]              m_hdr_ip_ttl,
    output wire [15:0]             m_hdr_udp_source_port,
    output wire [7:0]              m_hdr_bth_opcode,
    output wire                    m_hdr_bth_solicited,
    output wire                    m_hdr_bth_migreq,
    output wire [15:0]             m_hdr_bth_pkey,
    output wire                    m_hdr_bth_fecn,
    output wire                    m_hdr_bth_becn,
    output wire [23:0]             m_hdr_bth_dest_qp,
    output wire                    m_hdr_bth_ack_req,
    output wire [23:0]             m_hdr_bth_psn,
    output wire [63:0]             m_hdr_reth_va,
    output wire [31:0]             m_hdr_reth_rkey,
    output wire [31:0]             m_hdr_reth_length,
    output wire [7:0]              m_hdr_aeth_syndrome,
    output wire [23:0]             m_hdr_aeth_msn,
    output wire [31:0]             m_hdr_immdt,
    // An atomic request's AtomicETH: its virtual address and R_Key are on m_hdr_reth_va and
    // m_hdr_reth_rkey (the same fields at the same place as a RETH's; m_hdr_reth_length is 0),
    // its operands here
    output wire [63:0]             m_hdr_atomic_swap_add,
    output wire [63:0]             m_hdr_atomic_compare,
    // An ATOMIC_ACKNOWLEDGE's AtomicAckETH: the operand's value before the atomic
    output wire [63:0]             m_hdr_atomic_original,
    // Payload bytes, pad excluded; 0 means the frame has no payload beats
    output wire [12:0]             m_hdr_payload_bytes,

    // Payload of each good frame with payload bytes: byte 0 in tdata[7:0] of the first beat,
    // every beat full except the last, pad and ICRC removed
    output wire [DATA_WIDTH-1:0]   m_axis_payload_tdata,
    output wire [KEEP_WIDTH-1:0]   m_axis_payload_tkeep,
    output wire                    m_axis_payload_tvalid,
    input  wire                    m_axis_payload_tready,
    output wire                    m_axis_payload_tlast,

    // One-cycle pulses, one per frame, for counters
    output reg                     status_frame_good,
    output reg                     status_drop_mac_error,
    output reg                     status_drop_truncated,
    output reg                     status_drop_not_roce,
    output reg                     status_drop_bad_length,
    output reg                     status_drop_bad_version,
    output reg                     status_drop_unknown_opcode,
    output reg                     status_drop_bad_pad,
    output reg                     status_drop_over_pmtu,
    output reg                     status_drop_bad_icrc,
    output reg                     status_drop_overflow
);

localparam LANE_WIDTH = $clog2(KEEP_WIDTH);
// Frame byte offsets; they stop growing at 2^17, past any length an IPv4 header can claim
localparam OFFSET_WIDTH = 18;
localparam [OFFSET_WIDTH-1:0] OFFSET_LIMIT = 18'h20000;
localparam [OFFSET_WIDTH-1:0] BEAT_BYTES = 18'd1 << LANE_WIDTH;
localparam PAYLOAD_COUNT_WIDTH = $clog2(PAYLOAD_FIFO_DEPTH) + 1;
localparam [OFFSET_WIDTH-1:0] PAYLOAD_CAPACITY = 18'd1 << $clog2(PAYLOAD_FIFO_DEPTH);

// Bytes held for the checks and the metadata: up to the end of the longest extension headers,
// the AtomicETH (RETH + ImmDt end 8 bytes sooner)
localparam HEADER_BYTES = 82;
localparam HEADER_BITS = HEADER_BYTES * 8;
localparam HEADER_BEATS = (HEADER_BYTES + KEEP_WIDTH - 1) / KEEP_WIDTH;
// Header byte offsets in the frame
localparam ETHERTYPE_AT = 12;
localparam IPV4_AT = 14;
localparam IPV4_TOS_AT = 15;
localparam IPV4_TOTAL_LENGTH_AT = 16;
localparam IPV4_FRAGMENT_AT = 20;
localparam IPV4_TTL_AT = 22;
localparam IPV4_PROTOCOL_AT = 23;
localparam IPV4_SOURCE_AT = 26;
localparam IPV4_DEST_AT = 30;
localparam UDP_SOURCE_PORT_AT = 34;
localparam UDP_DEST_PORT_AT = 36;
localparam UDP_LENGTH_AT = 38;
localparam BTH_AT = 42;
localparam EXTENSION_AT = 54;
localparam IMMDT_AFTER_RETH_AT = 70;
localparam ATOMIC_SWAP_ADD_AT = 66;
localparam ATOMIC_COMPARE_AT = 74;
localparam ATOMIC_ORIGINAL_AT = 58;

// Frame lengths that hold each header (without FCS)
localparam [OFFSET_WIDTH-1:0] ETHERNET_END = 14;
localparam [OFFSET_WIDTH-1:0] IPV4_END = 34;
localparam [OFFSET_WIDTH-1:0] UDP_END = 42;
localparam [OFFSET_WIDTH-1:0] BTH_AND_ICRC_END = 58;
// The MAC pads shorter frames to this length; only such frames may carry bytes after the IP packet
localparam [OFFSET_WIDTH-1:0] MIN_FRAME_BYTES = 60;
// No payload starts before the end of a bare BTH
localparam [OFFSET_WIDTH-1:0] EARLIEST_PAYLOAD = 54;

// Where payload starts within a beat, for each size of BTH plus extension headers (12, 16,
// 28, 32 bytes). Every payload offset is 2 mod 4, never beat aligned.
localparam SHIFT_BTH = (42 + 12) % KEEP_WIDTH;
localparam SHIFT_BTH_4 = (42 + 16) % KEEP_WIDTH;
localparam SHIFT_BTH_RETH = (42 + 28) % KEEP_WIDTH;
localparam SHIFT_BTH_RETH_IMMDT = (42 + 32) % KEEP_WIDTH;
localparam MIN_SHIFT_PAIR_1 = SHIFT_BTH < SHIFT_BTH_4 ? SHIFT_BTH : SHIFT_BTH_4;
localparam MIN_SHIFT_PAIR_2 = SHIFT_BTH_RETH < SHIFT_BTH_RETH_IMMDT ? SHIFT_BTH_RETH : SHIFT_BTH_RETH_IMMDT;
// Lanes of a beat below this never reach the payload stream from the previous beat
localparam MIN_SHIFT = MIN_SHIFT_PAIR_1 < MIN_SHIFT_PAIR_2 ? MIN_SHIFT_PAIR_1 : MIN_SHIFT_PAIR_2;
localparam KEPT_WIDTH = DATA_WIDTH - 8 * MIN_SHIFT;

localparam HEADER_META_WIDTH = 48 + 48 + 32 + 32 + 8 + 8 + 16 + 8 + 1 + 1 + 16 + 1 + 1 + 24 + 1 + 24
                             + 64 + 32 + 32 + 8 + 24 + 32 + 64 + 64 + 64 + 13;
localparam HEADER_FIFO_WIDTH = (HEADER_META_WIDTH + 7) / 8 * 8;

localparam [3:0] CAUSE_NONE = 4'd0;
localparam [3:0] CAUSE_MAC_ERROR = 4'd1;
localparam [3:0] CAUSE_TRUNCATED = 4'd2;
localparam [3:0] CAUSE_NOT_ROCE = 4'd3;
localparam [3:0] CAUSE_BAD_LENGTH = 4'd4;
localparam [3:0] CAUSE_BAD_VERSION = 4'd5;
localparam [3:0] CAUSE_UNKNOWN_OPCODE = 4'd6;
localparam [3:0] CAUSE_BAD_PAD = 4'd7;
localparam [3:0] CAUSE_OVER_PMTU = 4'd8;
localparam [3:0] CAUSE_BAD_ICRC = 4'd9;
localparam [3:0] CAUSE_OVERFLOW = 4'd10;

initial begin
    if (DATA_WIDTH != 64 && DATA_WIDTH != 128 && DATA_WIDTH != 256 && DATA_WIDTH != 512) begin
        $error("Error: DATA_WIDTH must be 64, 128, 256 or 512 (instance %m)");
        $finish;
    end
    if (KEEP_WIDTH * 8 != DATA_WIDTH) begin
        $error("Error: KEEP_WIDTH must be DATA_WIDTH/8 (instance %m)");
        $finish;
    end
    if (PAYLOAD_FIFO_DEPTH < 2 || (1 << $clog2(PAYLOAD_FIFO_DEPTH)) != PAYLOAD_FIFO_DEPTH) begin
        $error("Error: PAYLOAD_FIFO_DEPTH must be a power of two, at least 2 (instance %m)");
        $finish;
    end
    if (HEADER_FIFO_DEPTH < 2 || (1 << $clog2(HEADER_FIFO_DEPTH)) != HEADER_FIFO_DEPTH) begin
        $error("Error: HEADER_FIFO_DEPTH must be a power of two, at least 2 (instance %m)");
        $finish;
    end
end

function [LANE_WIDTH:0] count_ones(input [KEEP_WIDTH-1:0] bits);
    integer index;
    begin
        count_ones = 0;
        for (index = 0; index < KEEP_WIDTH; index = index + 1) begin
            count_ones = count_ones + {{LANE_WIDTH{1'b0}}, bits[index]};
        end
    end
endfunction

// Byte enables for the first `count` lanes
function [KEEP_WIDTH-1:0] lanes_below(input [LANE_WIDTH:0] count);
    integer index;
    begin
        for (index = 0; index < KEEP_WIDTH; index = index + 1) begin
            lanes_below[index] = index < count;
        end
    end
endfunction

// ---------------------------------------------------------------------------------------------
// Frame position and header capture

// Frame offset of the beat on s_axis (a multiple of KEEP_WIDTH)
reg  [OFFSET_WIDTH-1:0] beat_offset;
// One-hot: which of the frame's header beats is on s_axis (none once past the header)
reg  [HEADER_BEATS-1:0] header_beat;
reg                     frame_mac_error;
// Header bytes seen so far in the frame, byte 0 in the most significant bits (network order)
reg  [HEADER_BITS-1:0]  header_reg;
// The same with the beat on s_axis merged in: what the header is once this beat is taken
wire [HEADER_BITS-1:0]  header_now;
// The lanes of the previous beat that a straddling payload beat can take
reg  [KEPT_WIDTH-1:0]   previous_upper_lanes;

wire beat = s_axis_tvalid;
wire last_beat = beat && s_axis_tlast;

genvar byte_index;
generate
    for (byte_index = 0; byte_index < HEADER_BYTES; byte_index = byte_index + 1) begin : header_bytes
        localparam LANE = byte_index % KEEP_WIDTH;
        assign header_now[HEADER_BITS-1-8*byte_index -: 8] = header_beat[byte_index / KEEP_WIDTH]
            ? s_axis_tdata[8*LANE +: 8] : header_reg[HEADER_BITS-1-8*byte_index -: 8];
    end
endgenerate

wire [15:0] ethertype_now = header_now[HEADER_BITS-1-8*ETHERTYPE_AT -: 16];
wire [7:0]  ipv4_version_ihl_now = header_now[HEADER_BITS-1-8*IPV4_AT -: 8];
wire [15:0] ipv4_total_length_now = header_now[HEADER_BITS-1-8*IPV4_TOTAL_LENGTH_AT -: 16];
wire [15:0] ipv4_fragment_now = header_now[HEADER_BITS-1-8*IPV4_FRAGMENT_AT -: 16];
wire [7:0]  ipv4_protocol_now = header_now[HEADER_BITS-1-8*IPV4_PROTOCOL_AT -: 8];
wire [15:0] udp_dest_port_now = header_now[HEADER_BITS-1-8*UDP_DEST_PORT_AT -: 16];
wire [15:0] udp_length_now = header_now[HEADER_BITS-1-8*UDP_LENGTH_AT -: 16];
wire [7:0]  bth_opcode_now = header_now[HEADER_BITS-1-8*BTH_AT -: 8];
// BTH byte 1 is SE, M, PadCnt[2], TVer[4]
wire [1:0]  pad_count_now = header_now[HEADER_BITS-1-8*(BTH_AT+1)-2 -: 2];
wire [3:0]  transport_version_now = header_now[HEADER_BITS-1-8*(BTH_AT+1)-4 -: 4];

wire       opcode_known_now;
wire       has_reth_now;
wire       has_aeth_now;
wire       has_immdt_now;
wire       is_atomic_now;
wire       is_atomic_acknowledge_now;
wire       has_payload_now;
wire       full_pmtu_now;
wire       starts_message_now;
wire       ends_message_now;
wire [5:0] transport_header_bytes_now;

roce_opcode_info opcode_info_inst (
    .opcode(bth_opcode_now),
    .known(opcode_known_now),
    .has_reth(has_reth_now),
    .has_aeth(has_aeth_now),
    .has_immdt(has_immdt_now),
    .has_payload(has_payload_now),
    .full_pmtu(full_pmtu_now),
    .starts_message(starts_message_now),
    .ends_message(ends_message_now),
    .is_send(),
    .is_write(),
    .is_read_request(), .is_atomic(is_atomic_now),
    .is_read_response(),
    .is_acknowledge(), .is_atomic_acknowledge(is_atomic_acknowledge_now),
    .is_request(),
    .is_response(), .is_cnp(),
    .transport_header_bytes(transport_header_bytes_now)
);

// LAST packets (not ONLY) must carry at least one byte
wire position_last_now = ends_message_now && !starts_message_now;

// Where the IP packet, the transport headers and the payload end, as the headers claim. Before
// the beat that carries them these are stale, but no payload lane is reached before then.
wire [OFFSET_WIDTH-1:0] ip_end_now = {2'b00, ipv4_total_length_now} + 18'd14;
wire [OFFSET_WIDTH-1:0] icrc_start_now = ip_end_now - 18'd4;
wire [OFFSET_WIDTH-1:0] payload_start_now = {12'd0, transport_header_bytes_now} + 18'd42;
wire [OFFSET_WIDTH-1:0] payload_end_now = icrc_start_now - {16'd0, pad_count_now};
wire [OFFSET_WIDTH-1:0] payload_length_now = payload_end_now - payload_start_now;
wire [OFFSET_WIDTH-1:0] pmtu_now = {5'd0, pmtu_bytes};
wire                    payload_in_pmtu_now = payload_end_now > payload_start_now && payload_length_now <= pmtu_now;
wire [OFFSET_WIDTH-1:0] payload_beats_now = (payload_length_now + BEAT_BYTES - 18'd1) >> LANE_WIDTH;

// ---------------------------------------------------------------------------------------------
// Checks, settled on the frame's last beat

wire [OFFSET_WIDTH-1:0] frame_length_now = beat_offset + {{(OFFSET_WIDTH-LANE_WIDTH-1){1'b0}}, count_ones(s_axis_tkeep)};

// Ones' complement sum of the IPv4 header's ten 16-bit words: all ones when the checksum is right
reg [19:0] ipv4_word_sum_now;
integer word_index;
always @* begin
    ipv4_word_sum_now = 20'd0;
    for (word_index = 0; word_index < 10; word_index = word_index + 1) begin
        ipv4_word_sum_now = ipv4_word_sum_now + {4'd0, header_now[HEADER_BITS-1-8*IPV4_AT-16*word_index -: 16]};
    end
end
wire [16:0] ipv4_sum_folded_once = {1'b0, ipv4_word_sum_now[15:0]} + {13'd0, ipv4_word_sum_now[19:16]};
wire [15:0] ipv4_sum_folded = ipv4_sum_folded_once[15:0] + {15'd0, ipv4_sum_folded_once[16]};

wire ipv4_not_roce_now = ipv4_version_ihl_now != 8'h45
                      || ipv4_sum_folded != 16'hFFFF
                      || (ipv4_fragment_now & 16'h3FFF) != 16'd0
                      || ipv4_protocol_now != 8'd17;
wire lengths_bad_now = {1'b0, udp_length_now} + 17'd20 != {1'b0, ipv4_total_length_now}
                    || udp_length_now < 16'd24
                    || ip_end_now > frame_length_now
                    || (ip_end_now != frame_length_now && frame_length_now > MIN_FRAME_BYTES);

reg [3:0] link_cause_now;
always @* begin
    if (frame_length_now < ETHERNET_END) begin
        link_cause_now = CAUSE_TRUNCATED;
    end else if (ethertype_now != 16'h0800) begin
        link_cause_now = CAUSE_NOT_ROCE;
    end else if (frame_length_now < IPV4_END) begin
        link_cause_now = CAUSE_TRUNCATED;
    end else if (ipv4_not_roce_now) begin
        link_cause_now = CAUSE_NOT_ROCE;
    end else if (frame_length_now < UDP_END) begin
        link_cause_now = CAUSE_TRUNCATED;
    end else if (udp_dest_port_now != 16'd4791) begin
        link_cause_now = CAUSE_NOT_ROCE;
    end else if (frame_length_now < BTH_AND_ICRC_END) begin
        link_cause_now = CAUSE_TRUNCATED;
    end else if (lengths_bad_now) begin
        link_cause_now = CAUSE_BAD_LENGTH;
    end else begin
        link_cause_now = CAUSE_NONE;
    end
end

// One of the five path MTUs IBA allows
function is_path_mtu(input [OFFSET_WIDTH-1:0] length);
    begin
        is_path_mtu = length == 18'd256 || length == 18'd512 || length == 18'd1024 || length == 18'd2048
                   || length == 18'd4096;
    end
endfunction

// Payload plus pad, meaningful once the extension headers are known to fit before the ICRC
wire [OFFSET_WIDTH-1:0] padded_length_now = icrc_start_now - payload_start_now;
wire pad_bad_now = padded_length_now[1:0] != 2'd0
                || {16'd0, pad_count_now} > padded_length_now
                || (pad_count_now != 2'd0 && !ends_message_now);
wire size_bad_now = payload_length_now > pmtu_now
                 || (full_pmtu_now && !is_path_mtu(payload_length_now))
                 || (position_last_now && payload_length_now == 18'd0);

reg [3:0] transport_cause_now;
always @* begin
    if (transport_version_now != 4'd0) begin
        transport_cause_now = CAUSE_BAD_VERSION;
    end else if (!opcode_known_now) begin
        transport_cause_now = CAUSE_UNKNOWN_OPCODE;
    end else if (payload_start_now > icrc_start_now) begin
        transport_cause_now = CAUSE_TRUNCATED;
    end else if (!has_payload_now && padded_length_now != 18'd0) begin
        transport_cause_now = CAUSE_BAD_LENGTH;
    end else if (pad_bad_now) begin
        transport_cause_now = CAUSE_BAD_PAD;
    end else if (size_bad_now) begin
        transport_cause_now = CAUSE_OVER_PMTU;
    end else begin
        transport_cause_now = CAUSE_NONE;
    end
end

// ---------------------------------------------------------------------------------------------
// Payload realignment. Output beat k holds frame bytes [start + k*B, start + (k+1)*B), cut at
// the payload end, and leaves on the input beat that carries its last byte:
//   straddling: the previous beat's upper lanes and this beat's lower lanes (from beat q+1)
//   final: this beat's upper lanes only, when the payload ends inside them
// A beat can finish a straddling beat and a final one; the final beat of a frame always waits
// in the tail register until the frame's verdict, one cycle after its last beat, so the FIFO
// still takes at most one beat per cycle.

wire [LANE_WIDTH-1:0]   payload_shift_now = payload_start_now[LANE_WIDTH-1:0];
wire [OFFSET_WIDTH-1:0] shift_offset_now = {{(OFFSET_WIDTH-LANE_WIDTH){1'b0}}, payload_shift_now};

wire straddling_due = beat_offset > payload_start_now && payload_end_now > beat_offset;
wire straddling_ends = payload_end_now <= beat_offset + shift_offset_now;
wire final_due = beat_offset + BEAT_BYTES > payload_start_now
              && beat_offset + shift_offset_now < payload_end_now
              && payload_end_now <= beat_offset + BEAT_BYTES;

// Bytes in the closing beat: 1..B, so the arithmetic needs only the low bits
wire [LANE_WIDTH:0] straddling_bytes = payload_end_now[LANE_WIDTH:0] + BEAT_BYTES[LANE_WIDTH:0]
                                     - beat_offset[LANE_WIDTH:0] - shift_offset_now[LANE_WIDTH:0];
wire [LANE_WIDTH:0] final_bytes = payload_end_now[LANE_WIDTH:0] - beat_offset[LANE_WIDTH:0]
                                - shift_offset_now[LANE_WIDTH:0];

reg [DATA_WIDTH-1:0] straddling_data;
reg [DATA_WIDTH-1:0] final_data;

always @* begin
    case (transport_header_bytes_now)
        6'd16: begin
            straddling_data = {s_axis_tdata[8*SHIFT_BTH_4-1:0], previous_upper_lanes[KEPT_WIDTH-1:8*(SHIFT_BTH_4-MIN_SHIFT)]};
            final_data = {{(8*SHIFT_BTH_4){1'b0}}, s_axis_tdata[DATA_WIDTH-1:8*SHIFT_BTH_4]};
        end
        6'd28: begin
            straddling_data = {s_axis_tdata[8*SHIFT_BTH_RETH-1:0], previous_upper_lanes[KEPT_WIDTH-1:8*(SHIFT_BTH_RETH-MIN_SHIFT)]};
            final_data = {{(8*SHIFT_BTH_RETH){1'b0}}, s_axis_tdata[DATA_WIDTH-1:8*SHIFT_BTH_RETH]};
        end
        6'd32: begin
            straddling_data = {s_axis_tdata[8*SHIFT_BTH_RETH_IMMDT-1:0],
                               previous_upper_lanes[KEPT_WIDTH-1:8*(SHIFT_BTH_RETH_IMMDT-MIN_SHIFT)]};
            final_data = {{(8*SHIFT_BTH_RETH_IMMDT){1'b0}}, s_axis_tdata[DATA_WIDTH-1:8*SHIFT_BTH_RETH_IMMDT]};
        end
        default: begin
            straddling_data = {s_axis_tdata[8*SHIFT_BTH-1:0], previous_upper_lanes[KEPT_WIDTH-1:8*(SHIFT_BTH-MIN_SHIFT)]};
            final_data = {{(8*SHIFT_BTH){1'b0}}, s_axis_tdata[DATA_WIDTH-1:8*SHIFT_BTH]};
        end
    endcase
end

// Payload FIFO space: beats reserved by admitted frames and not yet read out or discarded.
// It counts a beat until the FIFO's reader takes it, so it never under-states what is stored.
reg  [PAYLOAD_COUNT_WIDTH-1:0] payload_space_used;
reg  [PAYLOAD_COUNT_WIDTH-1:0] frame_reserved_beats;
reg                            payload_decided;
reg                            payload_admitted;
reg                            payload_refused;
reg                            payload_closed;

// The closing beat of the frame in progress, written once the frame's verdict is known
reg                  tail_pending;
reg [DATA_WIDTH-1:0] tail_data;
reg [KEEP_WIDTH-1:0] tail_keep;

// ---------------------------------------------------------------------------------------------
// Verdict, the cycle after a frame's last beat

reg        frame_ended;
reg        ended_mac_error;
reg        ended_refused;
reg [3:0]  ended_link_cause;
reg [3:0]  ended_transport_cause;
reg [12:0] ended_payload_bytes;
reg        ended_has_reth;
reg        ended_has_aeth;
reg        ended_has_immdt;
reg        ended_is_atomic;
reg        ended_is_atomic_acknowledge;

wire icrc_residue_ok;
wire header_fifo_ready;

roce_icrc_check #(
    .DATA_WIDTH(DATA_WIDTH),
    .OFFSET_WIDTH(OFFSET_WIDTH)
) icrc_check_inst (
    .clk(clk),
    .rst(rst),
    .data(s_axis_tdata),
    .valid(beat),
    .start(beat_offset == 18'd0),
    .beat_offset(beat_offset),
    // The IPv4 length arrives with byte 17; bytes before it are inside any valid packet
    .covered_end(beat_offset + BEAT_BYTES > 18'd17 ? ip_end_now : OFFSET_LIMIT),
    .residue_ok(icrc_residue_ok)
);

reg [3:0] verdict_cause;
always @* begin
    if (ended_mac_error) begin
        verdict_cause = CAUSE_MAC_ERROR;
    end else if (ended_link_cause != CAUSE_NONE) begin
        verdict_cause = ended_link_cause;
    end else if (!icrc_residue_ok) begin
        verdict_cause = CAUSE_BAD_ICRC;
    end else if (ended_transport_cause != CAUSE_NONE) begin
        verdict_cause = ended_transport_cause;
    end else if (ended_refused || !header_fifo_ready) begin
        verdict_cause = CAUSE_OVERFLOW;
    end else begin
        verdict_cause = CAUSE_NONE;
    end
end

wire deliver = frame_ended && verdict_cause == CAUSE_NONE;
wire tail_push = frame_ended && tail_pending;
wire payload_pop = m_axis_payload_tvalid && m_axis_payload_tready;

// What stays reserved after this cycle's read and this cycle's discarded frame (a bad frame's
// beats leave the FIFO at its last beat, with the rest of its reservation), before admissions
wire [PAYLOAD_COUNT_WIDTH-1:0] payload_space_left_over = payload_space_used
    - {{(PAYLOAD_COUNT_WIDTH-1){1'b0}}, payload_pop}
    - (tail_push && !deliver ? frame_reserved_beats : {PAYLOAD_COUNT_WIDTH{1'b0}});

// Admission: a frame's whole payload is reserved when its first payload beat is ready. Beats
// before the earliest payload byte are never looked at: the lengths are not in yet.
wire payload_reachable = beat_offset + BEAT_BYTES > EARLIEST_PAYLOAD;
wire payload_due = beat && payload_reachable && payload_in_pmtu_now && (straddling_due || final_due);
wire payload_fits = {{(OFFSET_WIDTH-PAYLOAD_COUNT_WIDTH){1'b0}}, payload_space_left_over} + payload_beats_now
                  <= PAYLOAD_CAPACITY;
wire admit = payload_due && !payload_decided && payload_fits;
wire refuse = payload_due && !payload_decided && !payload_fits;
wire frame_admitted = payload_admitted || admit;
wire payload_going = payload_due && frame_admitted;
wire straddling_closes = straddling_due && straddling_ends;
wire push_straddling = payload_going && straddling_due && !straddling_ends;
wire close_now = payload_going && (straddling_closes || final_due);
// A frame shorter than its headers claim: close what was written, as a beat the verdict drops
wire abort_now = last_beat && frame_admitted && !payload_closed && !close_now;

// ---------------------------------------------------------------------------------------------
// Payload FIFO: frames become visible once their last beat is in; a bad last beat discards them

axis_fifo #(
    .DEPTH(PAYLOAD_FIFO_DEPTH),
    .DATA_WIDTH(DATA_WIDTH),
    .KEEP_WIDTH(KEEP_WIDTH),
    .USER_WIDTH(1),
    .FRAME_FIFO(1),
    .DROP_BAD_FRAME(1),
    .USER_BAD_FRAME_MASK(1)
) payload_fifo_inst (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(tail_push ? tail_data : straddling_data),
    .s_axis_tkeep(tail_push ? tail_keep : {KEEP_WIDTH{1'b1}}),
    .s_axis_tvalid(tail_push || push_straddling),
    // Always ready when written: a frame writes only into the space reserved for it
    .s_axis_tready(),
    .s_axis_tlast(tail_push),
    .s_axis_tuser(tail_push && !deliver),
    .m_axis_tdata(m_axis_payload_tdata),
    .m_axis_tkeep(m_axis_payload_tkeep),
    .m_axis_tvalid(m_axis_payload_tvalid),
    .m_axis_tready(m_axis_payload_tready),
    .m_axis_tlast(m_axis_payload_tlast),
    .m_axis_tuser(),
    .status_good_frame(),
    .status_bad_frame(),
    .status_oversize_frame()
);

// ---------------------------------------------------------------------------------------------
// Header FIFO: metadata of delivered frames, pushed together with their payload's last beat

wire [HEADER_META_WIDTH-1:0] header_meta = {
    header_reg[HEADER_BITS-1 -: 48],                                            // destination MAC
    header_reg[HEADER_BITS-1-8*6 -: 48],                                        // source MAC
    header_reg[HEADER_BITS-1-8*IPV4_SOURCE_AT -: 32],
    header_reg[HEADER_BITS-1-8*IPV4_DEST_AT -: 32],
    header_reg[HEADER_BITS-1-8*IPV4_TOS_AT -: 8],
    header_reg[HEADER_BITS-1-8*IPV4_TTL_AT -: 8],
    header_reg[HEADER_BITS-1-8*UDP_SOURCE_PORT_AT -: 16],
    header_reg[HEADER_BITS-1-8*BTH_AT -: 8],                                    // opcode
    header_reg[HEADER_BITS-1-8*(BTH_AT+1) -: 2],                                // solicited, migreq
    header_reg[HEADER_BITS-1-8*(BTH_AT+2) -: 16],                               // P_Key
    header_reg[HEADER_BITS-1-8*(BTH_AT+4) -: 2],                                // FECN, BECN
    header_reg[HEADER_BITS-1-8*(BTH_AT+5) -: 24],                               // destination QP
    header_reg[HEADER_BITS-1-8*(BTH_AT+8)],                                     // AckReq
    header_reg[HEADER_BITS-1-8*(BTH_AT+9) -: 24],                               // PSN
    ended_has_reth || ended_is_atomic ? header_reg[HEADER_BITS-1-8*EXTENSION_AT -: 96] : 96'd0,  // VA, R_Key
    ended_has_reth ? header_reg[HEADER_BITS-1-8*(EXTENSION_AT+12) -: 32] : 32'd0,               // DMA length
    ended_has_aeth ? header_reg[HEADER_BITS-1-8*EXTENSION_AT -: 32] : 32'd0,    // syndrome, MSN
    !ended_has_immdt ? 32'd0 : ended_has_reth ? header_reg[HEADER_BITS-1-8*IMMDT_AFTER_RETH_AT -: 32]
                                              : header_reg[HEADER_BITS-1-8*EXTENSION_AT -: 32],
    ended_is_atomic ? header_reg[HEADER_BITS-1-8*ATOMIC_SWAP_ADD_AT -: 64] : 64'd0,
    ended_is_atomic ? header_reg[HEADER_BITS-1-8*ATOMIC_COMPARE_AT -: 64] : 64'd0,
    ended_is_atomic_acknowledge ? header_reg[HEADER_BITS-1-8*ATOMIC_ORIGINAL_AT -: 64] : 64'd0,
    ended_payload_bytes
};

wire [HEADER_FIFO_WIDTH-1:0] header_fifo_data;

assign {m_hdr_eth_dest_mac, m_hdr_eth_src_mac, m_hdr_ip_source, m_hdr_ip_dest, m_hdr_ip_tos, m_hdr_ip_ttl,
        m_hdr_udp_source_port, m_hdr_bth_opcode, m_hdr_bth_solicited, m_hdr_bth_migreq, m_hdr_bth_pkey,
        m_hdr_bth_fecn, m_hdr_bth_becn, m_hdr_bth_dest_qp, m_hdr_bth_ack_req, m_hdr_bth_psn,
        m_hdr_reth_va, m_hdr_reth_rkey, m_hdr_reth_length, m_hdr_aeth_syndrome, m_hdr_aeth_msn,
        m_hdr_immdt, m_hdr_atomic_swap_add, m_hdr_atomic_compare, m_hdr_atomic_original,
        m_hdr_payload_bytes} = header_fifo_data[HEADER_META_WIDTH-1:0];

axis_fifo #(
    .DEPTH(HEADER_FIFO_DEPTH),
    .DATA_WIDTH(HEADER_FIFO_WIDTH),
    .USER_WIDTH(1)
) header_fifo_inst (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata({{(HEADER_FIFO_WIDTH-HEADER_META_WIDTH){1'b0}}, header_meta}),
    .s_axis_tkeep({(HEADER_FIFO_WIDTH/8){1'b1}}),
    .s_axis_tvalid(deliver),
    .s_axis_tready(header_fifo_ready),
    .s_axis_tlast(1'b1),
    .s_axis_tuser(1'b0),
    .m_axis_tdata(header_fifo_data),
    .m_axis_tkeep(),
    .m_axis_tvalid(m_hdr_valid),
    .m_axis_tready(m_hdr_ready),
    .m_axis_tlast(),
    .m_axis_tuser(),
    .status_good_frame(),
    .status_bad_frame(),
    .status_oversize_frame()
);

// ---------------------------------------------------------------------------------------------

always @(posedge clk) begin
    if (beat) begin
        header_reg <= header_now;
        previous_upper_lanes <= s_axis_tdata[DATA_WIDTH-1:8*MIN_SHIFT];
        frame_mac_error <= frame_mac_error || s_axis_tuser;
        header_beat <= header_beat << 1;
        if (beat_offset != OFFSET_LIMIT) begin
            beat_offset <= beat_offset + BEAT_BYTES;
        end
    end

    if (admit) begin
        frame_reserved_beats <= payload_beats_now[PAYLOAD_COUNT_WIDTH-1:0];
    end
    if (payload_due && !payload_decided) begin
        payload_decided <= 1'b1;
        payload_admitted <= payload_fits;
        payload_refused <= !payload_fits;
    end
    if (close_now) begin
        payload_closed <= 1'b1;
    end

    payload_space_used <= payload_space_left_over
        + (admit ? payload_beats_now[PAYLOAD_COUNT_WIDTH-1:0] : {PAYLOAD_COUNT_WIDTH{1'b0}});

    if (tail_push) begin
        tail_pending <= 1'b0;
    end
    if (close_now || abort_now) begin
        tail_pending <= 1'b1;
        tail_data <= straddling_closes ? straddling_data : final_data;
        tail_keep <= abort_now ? {KEEP_WIDTH{1'b1}}
                   : straddling_closes ? lanes_below(straddling_bytes)
                   : lanes_below(final_bytes);
    end

    frame_ended <= last_beat;
    if (last_beat) begin
        beat_offset <= 18'd0;
        header_beat <= {{(HEADER_BEATS-1){1'b0}}, 1'b1};
        frame_mac_error <= 1'b0;
        payload_decided <= 1'b0;
        payload_admitted <= 1'b0;
        payload_refused <= 1'b0;
        payload_closed <= 1'b0;
        ended_mac_error <= frame_mac_error || s_axis_tuser;
        ended_refused <= payload_refused || refuse;
        ended_link_cause <= link_cause_now;
        ended_transport_cause <= transport_cause_now;
        ended_payload_bytes <= payload_length_now[12:0];
        ended_has_reth <= has_reth_now;
        ended_has_aeth <= has_aeth_now;
        ended_has_immdt <= has_immdt_now;
        ended_is_atomic <= is_atomic_now;
        ended_is_atomic_acknowledge <= is_atomic_acknowledge_now;
    end

    status_frame_good <= deliver;
    status_drop_mac_error <= frame_ended && verdict_cause == CAUSE_MAC_ERROR;
    status_drop_truncated <= frame_ended && verdict_cause == CAUSE_TRUNCATED;
    status_drop_not_roce <= frame_ended && verdict_cause == CAUSE_NOT_ROCE;
    status_drop_bad_length <= frame_ended && verdict_cause == CAUSE_BAD_LENGTH;
    status_drop_bad_version <= frame_ended && verdict_cause == CAUSE_BAD_VERSION;
    status_drop_unknown_opcode <= frame_ended && verdict_cause == CAUSE_UNKNOWN_OPCODE;
    status_drop_bad_pad <= frame_ended && verdict_cause == CAUSE_BAD_PAD;
    status_drop_over_pmtu <= frame_ended && verdict_cause == CAUSE_OVER_PMTU;
    status_drop_bad_icrc <= frame_ended && verdict_cause == CAUSE_BAD_ICRC;
    status_drop_overflow <= frame_ended && verdict_cause == CAUSE_OVERFLOW;

    if (rst) begin
        beat_offset <= 18'd0;
        header_beat <= {{(HEADER_BEATS-1){1'b0}}, 1'b1};
        frame_mac_error <= 1'b0;
        payload_space_used <= {PAYLOAD_COUNT_WIDTH{1'b0}};
        payload_decided <= 1'b0;
        payload_admitted <= 1'b0;
        payload_refused <= 1'b0;
        payload_closed <= 1'b0;
        tail_pending <= 1'b0;
        frame_ended <= 1'b0;
        status_frame_good <= 1'b0;
        status_drop_mac_error <= 1'b0;
        status_drop_truncated <= 1'b0;
        status_drop_not_roce <= 1'b0;
        status_drop_bad_length <= 1'b0;
        status_drop_bad_version <= 1'b0;
        status_drop_unknown_opcode <= 1'b0;
        status_drop_bad_pad <= 1'b0;
        status_drop_over_pmtu <= 1'b0;
        status_drop_bad_icrc <= 1'b0;
        status_drop_overflow <= 1'b0;
    end
end

endmodule

`resetall
