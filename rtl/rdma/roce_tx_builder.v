// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// RoCEv2 frame builder: Ethernet, IPv4, UDP, BTH and extension headers before a payload stream, pad and ICRC after it
`resetall
`timescale 1ns / 1ps
`default_nettype none

// One packet per header handshake. The payload arrives byte-aligned (byte 0 in tdata[7:0], beats
// full but the last) and leaves shifted behind the headers, so after the header beats the
// frame moves one beat per clock. Facts from docs/reference/roce.md: IPv4 with DF set, UDP
// destination port 4791 and checksum 0, BTH TVer 0 with PadCnt padding the payload to a multiple
// of four bytes, RETH/AETH/ImmDt/AtomicETH/AtomicAckETH as the opcode requires (a CNP's 16
// reserved bytes as zeros),
// ICRC last (roce_icrc_append).
module roce_tx_builder #(
    // Width of tdata in bits (64 to 512, a multiple of 32)
    parameter DATA_WIDTH = 64
) (
    input  wire                    clk,
    input  wire                    rst,

    input  wire                    s_hdr_valid,
    output wire                    s_hdr_ready,
    input  wire [47:0]             s_hdr_eth_dest_mac,
    input  wire [47:0]             s_hdr_eth_src_mac,
    input  wire [31:0]             s_hdr_ip_source,
    input  wire [31:0]             s_hdr_ip_dest,
    input  wire [7:0]              s_hdr_ip_tos,
    input  wire [7:0]              s_hdr_ip_ttl,
    input  wire [15:0]             s_hdr_udp_source_port,
    input  wire [7:0]              s_hdr_bth_opcode,
    input  wire                    s_hdr_bth_solicited,
    input  wire                    s_hdr_bth_migreq,
    input  wire [15:0]             s_hdr_bth_pkey,
    // BECN: set on a CNP (the builder writes FECN as 0: the network sets it, never a sender)
    input  wire                    s_hdr_bth_becn,
    input  wire [23:0]             s_hdr_bth_dest_qp,
    input  wire                    s_hdr_bth_ack_req,
    input  wire [23:0]             s_hdr_bth_psn,
    input  wire [63:0]             s_hdr_reth_va,
    input  wire [31:0]             s_hdr_reth_rkey,
    input  wire [31:0]             s_hdr_reth_length,
    input  wire [7:0]              s_hdr_aeth_syndrome,
    input  wire [23:0]             s_hdr_aeth_msn,
    input  wire [31:0]             s_hdr_immdt,
    // An atomic request's AtomicETH is s_hdr_reth_va and s_hdr_reth_rkey (where a RETH has them),
    // then these operands; an ATOMIC_ACKNOWLEDGE's AtomicAckETH is s_hdr_atomic_original
    input  wire [63:0]             s_hdr_atomic_swap_add,
    input  wire [63:0]             s_hdr_atomic_compare,
    input  wire [63:0]             s_hdr_atomic_original,
    // Payload bytes that follow on s_axis_payload (0: none; the opcode must allow a payload)
    input  wire [12:0]             s_hdr_payload_bytes,

    input  wire [DATA_WIDTH-1:0]   s_axis_payload_tdata,
    input  wire [DATA_WIDTH/8-1:0] s_axis_payload_tkeep,
    input  wire                    s_axis_payload_tvalid,
    output wire                    s_axis_payload_tready,
    input  wire                    s_axis_payload_tlast,
    // With the payload's last beat: its bytes could not be read, so the frame goes out poisoned
    // (its ICRC inverted: roce_icrc_append) and no receiver takes it
    input  wire                    s_axis_payload_tuser,

    // Frames without FCS (the MAC adds it)
    output wire [DATA_WIDTH-1:0]   m_axis_tdata,
    output wire [DATA_WIDTH/8-1:0] m_axis_tkeep,
    output wire                    m_axis_tvalid,
    input  wire                    m_axis_tready,
    output wire                    m_axis_tlast
);

localparam KEEP_WIDTH = DATA_WIDTH / 8;
// Ethernet, IPv4, UDP, BTH, then at most an AtomicETH (RETH and ImmDt are 8 bytes fewer)
localparam MAX_HEADER_BYTES = 14 + 20 + 8 + 12 + 28;
localparam [7:0] BEAT_BYTES = KEEP_WIDTH[7:0];
localparam [6:0] BEAT_MASK = KEEP_WIDTH[6:0] - 7'd1;
localparam BEAT_SHIFT = $clog2(KEEP_WIDTH);
localparam HEADER_BEATS = (MAX_HEADER_BYTES + KEEP_WIDTH - 1) / KEEP_WIDTH;
localparam [15:0] UDP_PORT_ROCE = 16'd4791;

initial begin
    if (DATA_WIDTH != 64 && DATA_WIDTH != 128 && DATA_WIDTH != 256 && DATA_WIDTH != 512) begin
        $error("Error: DATA_WIDTH must be 64, 128, 256 or 512 (instance %m)");
        $finish;
    end
end

// The builder trusts its caller (the engine's requester and responder) to pair opcodes with
// payloads; it only needs to know which headers to write.
wire       has_reth, has_aeth, has_immdt, is_atomic, is_atomic_acknowledge;
wire [5:0] transport_header_bytes;

roce_opcode_info opcode_info_inst (
    .opcode(s_hdr_bth_opcode),
    .known(),
    .has_reth(has_reth),
    .has_aeth(has_aeth),
    .has_immdt(has_immdt),
    .has_payload(),
    .full_pmtu(),
    .starts_message(),
    .ends_message(),
    .is_send(),
    .is_write(),
    .is_read_request(), .is_atomic(is_atomic),
    .is_read_response(),
    .is_acknowledge(), .is_atomic_acknowledge(is_atomic_acknowledge),
    .is_request(),
    .is_response(), .is_cnp(),
    .transport_header_bytes(transport_header_bytes)
);

// ---- Header bytes in wire order, byte k at [8k +: 8] ----

wire [1:0]  pad_count = 2'd0 - s_hdr_payload_bytes[1:0];
// Beats hold a power-of-two number of bytes, at most 64, so the low 7 bits of the padded
// payload length decide how much of the last beat it fills.
wire [6:0]  padded_payload_low_bits = s_hdr_payload_bytes[6:0] + {5'd0, pad_count};
wire [6:0]  padded_last_beat_offset = (padded_payload_low_bits - 7'd1) & BEAT_MASK;
wire [7:0]  padded_length_in_last_beat = {1'b0, padded_last_beat_offset} + 8'd1;
wire [15:0] udp_length = 16'd8 + {10'd0, transport_header_bytes} + {3'd0, s_hdr_payload_bytes} + {14'd0, pad_count} + 16'd4;
wire [15:0] ip_total_length = 16'd20 + udp_length;

// The IPv4 header checksum: the one's complement of the one's complement sum of the header's
// 16-bit words. That sum is taken as one plain sum of every word (the total length's parts
// included), its carries then folded back in twice: the same value as adding word by word with
// end-around carries, but a single adder tree instead of seven chained adders.
wire [20:0] ip_word_sum = {5'd0, 16'h4500 | {8'd0, s_hdr_ip_tos}}
                        + 21'd20 + 21'd8 + 21'd4 + {15'd0, transport_header_bytes}   // total length
                        + {8'd0, s_hdr_payload_bytes} + {19'd0, pad_count}
                        + 21'h4000                                                   // flags: don't fragment
                        + {5'd0, s_hdr_ip_ttl, 8'd17}                                // TTL, protocol UDP
                        + {5'd0, s_hdr_ip_source[31:16]} + {5'd0, s_hdr_ip_source[15:0]}
                        + {5'd0, s_hdr_ip_dest[31:16]} + {5'd0, s_hdr_ip_dest[15:0]};
wire [16:0] ip_sum_folded_once = {1'b0, ip_word_sum[15:0]} + {12'd0, ip_word_sum[20:16]};
wire [15:0] ip_sum_folded = ip_sum_folded_once[15:0] + {15'd0, ip_sum_folded_once[16]};
wire [15:0] ip_checksum = ~ip_sum_folded;

// Headers most significant byte first, as they go on the wire; extension headers left-aligned,
// zero past the header's end
reg [223:0]                    extension_headers;
reg [6:0]                      header_length;
wire [MAX_HEADER_BYTES*8-1:0]  header_wire_order = {
    s_hdr_eth_dest_mac, s_hdr_eth_src_mac, 16'h0800,
    8'h45, s_hdr_ip_tos, ip_total_length, 16'h0000, 16'h4000, s_hdr_ip_ttl, 8'd17, ip_checksum,
    s_hdr_ip_source, s_hdr_ip_dest,
    s_hdr_udp_source_port, UDP_PORT_ROCE, udp_length, 16'h0000,
    s_hdr_bth_opcode, s_hdr_bth_solicited, s_hdr_bth_migreq, pad_count, 4'd0, s_hdr_bth_pkey,
    1'b0, s_hdr_bth_becn, 6'd0, s_hdr_bth_dest_qp, s_hdr_bth_ack_req, 7'd0, s_hdr_bth_psn,
    extension_headers
};

always @* begin
    extension_headers = 224'd0;
    if (has_reth) begin
        extension_headers = {s_hdr_reth_va, s_hdr_reth_rkey, s_hdr_reth_length, has_immdt ? s_hdr_immdt : 32'd0, 64'd0};
    end else if (is_atomic) begin
        extension_headers = {s_hdr_reth_va, s_hdr_reth_rkey, s_hdr_atomic_swap_add, s_hdr_atomic_compare};
    end else if (is_atomic_acknowledge) begin
        extension_headers = {s_hdr_aeth_syndrome, s_hdr_aeth_msn, s_hdr_atomic_original, 128'd0};
    end else if (has_aeth) begin
        extension_headers = {s_hdr_aeth_syndrome, s_hdr_aeth_msn, 192'd0};
    end else if (has_immdt) begin
        extension_headers = {s_hdr_immdt, 192'd0};
    end
    header_length = 7'd42 + {1'b0, transport_header_bytes};
end

wire [6:0] header_beats_before_payload = header_length >> BEAT_SHIFT;
wire [6:0] header_bytes_in_first_mixed_beat = header_length & BEAT_MASK;

// ---- Realigning the payload behind the headers ----

// The headers, byte k of the frame at [8k +: 8]
reg  [HEADER_BEATS*DATA_WIDTH-1:0] header_bytes;
integer byte_index;
always @(posedge clk) begin
    if (s_hdr_valid && s_hdr_ready) begin
        header_bytes <= {HEADER_BEATS*DATA_WIDTH{1'b0}};
        for (byte_index = 0; byte_index < MAX_HEADER_BYTES; byte_index = byte_index + 1) begin
            header_bytes[byte_index*8 +: 8] <= header_wire_order[(MAX_HEADER_BYTES-1-byte_index)*8 +: 8];
        end
    end
end

localparam [1:0] STATE_IDLE = 2'd0, STATE_HEADER = 2'd1, STATE_PAYLOAD = 2'd2, STATE_TAIL = 2'd3;

reg [1:0]            state;
reg [6:0]            header_beat;
// Header beats holding nothing but header bytes; the beat after them mixes in the payload
reg [6:0]            header_only_beats;
// Header bytes in the first mixed beat: also how far every payload byte moves up
reg [6:0]            shift_bytes;
reg                  with_payload;
// Payload and pad bytes in the payload's last beat (1 to KEEP_WIDTH)
reg [7:0]            padded_last_bytes;
// Upper bytes of the previous payload beat that belong to the next output beat
reg [DATA_WIDTH-1:0] carry_data;
reg [KEEP_WIDTH-1:0] carry_keep;

assign s_hdr_ready = state == STATE_IDLE;

// The payload beat with its pad: zero bytes past the payload, up to a multiple of four. Only
// the last beat can be short, and its padded length never passes the beat (beats hold a
// multiple of four bytes).
reg [DATA_WIDTH-1:0] padded_data;
reg [KEEP_WIDTH-1:0] padded_keep;
// Its own loop index: an index shared with the clocked block above is driven from two blocks
integer payload_byte;
always @* begin
    padded_keep = s_axis_payload_tlast ? {KEEP_WIDTH{1'b1}} >> (BEAT_BYTES - padded_last_bytes)
                                       : s_axis_payload_tkeep;
    for (payload_byte = 0; payload_byte < KEEP_WIDTH; payload_byte = payload_byte + 1) begin
        padded_data[payload_byte*8 +: 8] = s_axis_payload_tkeep[payload_byte] ? s_axis_payload_tdata[payload_byte*8 +: 8] : 8'd0;
    end
end

wire [DATA_WIDTH-1:0] header_beat_data = header_bytes[header_beat*DATA_WIDTH +: DATA_WIDTH];
wire [KEEP_WIDTH-1:0] shifted_out_keep = padded_keep >> (BEAT_BYTES - {1'b0, shift_bytes});
// Payload bytes of this beat that spill past the output beat
wire                  payload_spills = shifted_out_keep != {KEEP_WIDTH{1'b0}};

reg  [DATA_WIDTH-1:0] frame_tdata;
reg  [KEEP_WIDTH-1:0] frame_tkeep;
reg                   frame_tvalid, frame_tlast, frame_tuser;
wire                  frame_tready;
// The payload's last beat was poisoned and its bytes spilled into the tail beat
reg                   tail_poisoned;
wire                  first_mixed_beat = header_beat == header_only_beats;

assign s_axis_payload_tready = frame_tready && (
    (state == STATE_HEADER && first_mixed_beat && with_payload) || state == STATE_PAYLOAD);

always @* begin
    frame_tvalid = 1'b0;
    frame_tlast = 1'b0;
    // The reader may raise tuser for a payload not yet started: only a payload beat of this
    // frame may poison it
    frame_tuser = 1'b0;
    frame_tdata = header_beat_data;
    frame_tkeep = {KEEP_WIDTH{1'b1}};
    case (state)
        STATE_HEADER: begin
            if (!first_mixed_beat) begin
                frame_tvalid = 1'b1;
            end else if (!with_payload) begin
                frame_tvalid = 1'b1;
                frame_tlast = 1'b1;
                frame_tkeep = {KEEP_WIDTH{1'b1}} >> (BEAT_BYTES - {1'b0, shift_bytes});
            end else begin
                frame_tvalid = s_axis_payload_tvalid;
                frame_tdata = header_beat_data | (padded_data << (shift_bytes * 8));
                frame_tkeep = ({KEEP_WIDTH{1'b1}} >> (BEAT_BYTES - {1'b0, shift_bytes})) | (padded_keep << shift_bytes);
                frame_tlast = s_axis_payload_tlast && !payload_spills;
                frame_tuser = s_axis_payload_tuser;
            end
        end
        STATE_PAYLOAD: begin
            frame_tvalid = s_axis_payload_tvalid;
            frame_tdata = carry_data | (padded_data << (shift_bytes * 8));
            frame_tkeep = carry_keep | (padded_keep << shift_bytes);
            frame_tlast = s_axis_payload_tlast && !payload_spills;
            frame_tuser = s_axis_payload_tuser;
        end
        STATE_TAIL: begin
            frame_tvalid = 1'b1;
            frame_tdata = carry_data;
            frame_tkeep = carry_keep;
            frame_tlast = 1'b1;
            frame_tuser = tail_poisoned;
        end
        default: ;
    endcase
end

wire frame_fire = frame_tvalid && frame_tready;
wire payload_fire = s_axis_payload_tvalid && s_axis_payload_tready;

always @(posedge clk) begin
    if (payload_fire) begin
        tail_poisoned <= s_axis_payload_tlast && s_axis_payload_tuser;
        carry_data <= padded_data >> ((BEAT_BYTES - {1'b0, shift_bytes}) * 8);
        carry_keep <= shifted_out_keep;
    end
    case (state)
        STATE_IDLE: begin
            if (s_hdr_valid) begin
                state <= STATE_HEADER;
                header_beat <= 7'd0;
                header_only_beats <= header_beats_before_payload;
                shift_bytes <= header_bytes_in_first_mixed_beat;
                with_payload <= s_hdr_payload_bytes != 13'd0;
                padded_last_bytes <= padded_length_in_last_beat;
            end
        end
        STATE_HEADER: begin
            if (frame_fire) begin
                header_beat <= header_beat + 7'd1;
                if (first_mixed_beat) begin
                    state <= frame_tlast ? STATE_IDLE : (s_axis_payload_tlast ? STATE_TAIL : STATE_PAYLOAD);
                end
            end
        end
        STATE_PAYLOAD: begin
            if (frame_fire && s_axis_payload_tlast) begin
                state <= frame_tlast ? STATE_IDLE : STATE_TAIL;
            end
        end
        default: begin  // STATE_TAIL
            if (frame_fire) begin
                state <= STATE_IDLE;
            end
        end
    endcase
    if (rst) begin
        state <= STATE_IDLE;
        header_beat <= 7'd0;
        header_only_beats <= 7'd0;
        shift_bytes <= 7'd0;
        with_payload <= 1'b0;
        padded_last_bytes <= 8'd0;
        carry_data <= {DATA_WIDTH{1'b0}};
        carry_keep <= {KEEP_WIDTH{1'b0}};
        tail_poisoned <= 1'b0;
    end
end

roce_icrc_append #(
    .DATA_WIDTH(DATA_WIDTH)
) icrc_inst (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(frame_tdata),
    .s_axis_tkeep(frame_tkeep),
    .s_axis_tvalid(frame_tvalid),
    .s_axis_tready(frame_tready),
    .s_axis_tlast(frame_tlast),
    .s_axis_tuser(frame_tuser),
    .m_axis_tdata(m_axis_tdata),
    .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tready(m_axis_tready),
    .m_axis_tlast(m_axis_tlast)
);

endmodule

`resetall
