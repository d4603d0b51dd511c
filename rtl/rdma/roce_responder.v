// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// RoCEv2 RC responder: PSN rules, SEND into posted receives, RDMA WRITE into registered memory, RDMA READ responses, atomics, ACK and NAK
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "roce_defs.vh"
`include "rdma_host_interface.vh"

// Takes parsed request packets (roce_rx_parser's header and payload) and answers them, one
// packet at a time, from a per-QP context kept in RAM. Facts from docs/reference/roce.md:
// - PSN == ePSN executes. A PSN in the 2^23 below ePSN is a duplicate: a WRITE is dropped and
//   re-ACKed with ePSN - 1; a READ is executed again from its own PSN. A PSN ahead of ePSN is a
//   sequence error: one NAK (syndrome 0x60, carrying ePSN), then silence until ePSN arrives.
// - WRITE_FIRST/ONLY and READ_REQUEST carry a RETH whose R_Key and range must fall inside a
//   registered region with the right access, else NAK remote access error (0x62) and the QP
//   goes to the error state; a MIDDLE/LAST with no WRITE open, or more payload than the RETH
//   announced, is an invalid request (NAK 0x61, QP in error). Zero-length requests skip the key.
// - A READ consumes one PSN per response packet; responses FIRST/LAST/ONLY carry an AETH.
// - ACKs are cumulative: one is sent when AckReq is set, after the WRITE's data is in memory.
// - SEND (its first packet) and the WRITE packets with immediate data consume a receive: a
//   receive WQE (wr_id, buffer address, buffer length: rtl/rdma/host_interface.toml) from the
//   QP's receive queue in host memory, posted with the receive-queue doorbell. With none posted
//   the packet is answered RNR NAK (timer code 1, 0.01 ms) and not executed. A SEND longer than
//   its buffer is an invalid request (NAK 0x61, QP in error) and its receive completes with
//   LOC_LEN_ERR. A message's last packet writes its receive completion (RECV, or
//   RECV_RDMA_WITH_IMM with the WRITE's length) after its data is in memory.
// - COMPARE_SWAP and FETCH_ADD (IBA 9.4.5): the AtomicETH's 8 bytes must lie in a region with
//   remote atomic access (else NAK 0x62) at an 8-byte aligned address (else NAK 0x61; rxe's
//   order of checks). The operand is read (little endian, as a host on x86 holds it), the
//   result written back, and ATOMIC_ACKNOWLEDGE carries the original value, whatever AckReq
//   says. The responder answers one request at a time and an atomic waits for earlier READs'
//   data to leave memory, so no other request of the engine sees the operand half done. The
//   last ATOMIC_RESULTS atomics of each QP are kept (roce_atomic_results): a duplicate is
//   answered from them, never executed twice, and one older than them is dropped unanswered.
module roce_responder #(
    // Width of the receive WQE stream from the DMA reader in bits (64 to 512, a power of two)
    parameter DATA_WIDTH = 64,
    // Queue pairs in the context RAM (a power of two)
    parameter QP_COUNT = 256,
    // Registered memory regions (a power of two); an R_Key's low bits pick the entry
    parameter MR_COUNT = 16,
    // Executed atomics kept per QP for their duplicates (a power of two, at least 2): the
    // max_dest_rd_atomic a peer's max_rd_atomic must not pass
    parameter ATOMIC_RESULTS = 4
) (
    input  wire                          clk,
    input  wire                          rst,

    input  wire [47:0]                   local_mac,
    input  wire [31:0]                   local_ip,

    // QP set-up (the host writes one entry per cycle; the responder waits for it). After reset
    // the context RAM is swept to "no QP" entry by entry: cfg_qp_ready is low until it is done.
    output wire                          cfg_qp_ready,
    input  wire                          cfg_qp_write,
    input  wire [$clog2(QP_COUNT)-1:0]   cfg_qp_index,
    input  wire                          cfg_qp_valid,
    input  wire [23:0]                   cfg_qp_remote_qpn,
    input  wire [47:0]                   cfg_qp_remote_mac,
    input  wire [31:0]                   cfg_qp_remote_ip,
    input  wire [15:0]                   cfg_qp_udp_source_port,
    input  wire [23:0]                   cfg_qp_expected_psn,
    input  wire [2:0]                    cfg_qp_pmtu_code,     // PMTU = 256 << code bytes
    input  wire [63:0]                   cfg_qp_rq_base,       // the receive queue: 2^log_size receive WQEs
    input  wire [3:0]                    cfg_qp_rq_log_size,

    // Receive-queue doorbell: the receive queue of rq_doorbell_qpn now ends before entry
    // rq_doorbell_producer_index (free running)
    input  wire                          rq_doorbell_valid,
    input  wire [15:0]                   rq_doorbell_qpn,
    input  wire [15:0]                   rq_doorbell_producer_index,

    input  wire                          cfg_mr_write,
    input  wire [$clog2(MR_COUNT)-1:0]   cfg_mr_index,
    input  wire                          cfg_mr_valid,
    input  wire [31:0]                   cfg_mr_rkey,
    input  wire [63:0]                   cfg_mr_base,
    input  wire [31:0]                   cfg_mr_length,
    input  wire                          cfg_mr_remote_write,
    input  wire                          cfg_mr_remote_read,
    input  wire                          cfg_mr_remote_atomic,

    // Requests, from the receive parser
    input  wire                          s_hdr_valid,
    output wire                          s_hdr_ready,
    input  wire [7:0]                    s_hdr_bth_opcode,
    input  wire [23:0]                   s_hdr_bth_dest_qp,
    input  wire                          s_hdr_bth_ack_req,
    input  wire [23:0]                   s_hdr_bth_psn,
    input  wire [63:0]                   s_hdr_reth_va,
    input  wire [31:0]                   s_hdr_reth_rkey,
    input  wire [31:0]                   s_hdr_reth_length,
    input  wire [31:0]                   s_hdr_immdt,
    // An atomic's operands (its address and R_Key are on s_hdr_reth_va and s_hdr_reth_rkey)
    input  wire [63:0]                   s_hdr_atomic_swap_add,
    input  wire [63:0]                   s_hdr_atomic_compare,
    input  wire [12:0]                   s_hdr_payload_bytes,
    // Payload of requests that carry one: written to memory or drained
    input  wire [DATA_WIDTH-1:0]         s_payload_tdata,
    input  wire [DATA_WIDTH/8-1:0]       s_payload_tkeep,
    input  wire                          s_payload_tvalid,
    output wire                          s_payload_tready,
    input  wire                          s_payload_tlast,
    // To the DMA writer: a WRITE's or SEND's payload, or an atomic's result
    output wire [DATA_WIDTH-1:0]         m_write_data_tdata,
    output wire [DATA_WIDTH/8-1:0]       m_write_data_tkeep,
    output wire                          m_write_data_tvalid,
    input  wire                          m_write_data_tready,
    output wire                          m_write_data_tlast,

    // DMA write of a WRITE's payload or an atomic's result
    output reg  [63:0]                   m_write_cmd_addr,
    output reg  [15:0]                   m_write_cmd_len,
    output reg                           m_write_cmd_valid,
    input  wire                          m_write_cmd_ready,
    input  wire                          write_status_valid,
    input  wire                          write_status_error,

    // DMA read of a READ response packet's payload (its data goes straight to the builder)
    output reg  [63:0]                   m_read_cmd_addr,
    output reg  [15:0]                   m_read_cmd_len,
    output reg                           m_read_cmd_valid,
    input  wire                          m_read_cmd_ready,
    // READ response payloads asked of the DMA reader and not yet out of it
    input  wire                          read_data_pending,
    // A READ response payload's last beat left the reader, and whether its read failed (SLVERR
    // or DECERR: its frame goes out poisoned, and the QP answers NAK remote operational error)
    input  wire                          read_payload_done,
    input  wire                          read_payload_failed,

    // Receive WQE fetch, and an atomic's operand, through a DMA reader
    output reg  [63:0]                   m_recv_cmd_addr,
    output reg  [15:0]                   m_recv_cmd_len,
    output reg                           m_recv_cmd_valid,
    input  wire                          m_recv_cmd_ready,
    input  wire [DATA_WIDTH-1:0]         s_recv_tdata,
    input  wire                          s_recv_tvalid,
    output wire                          s_recv_tready,
    input  wire                          s_recv_tlast,
    // With the last beat: the read failed (SLVERR or DECERR)
    input  wire                          s_recv_tuser,

    // Receive completions, to the completion queue
    output reg                           m_cqe_valid,
    input  wire                          m_cqe_ready,
    output reg  [63:0]                   m_cqe_wr_id,
    output reg  [31:0]                   m_cqe_byte_len,
    output reg  [31:0]                   m_cqe_immediate,
    output reg                           m_cqe_immediate_valid,
    output wire [23:0]                   m_cqe_qpn,
    output reg  [7:0]                    m_cqe_opcode,
    output reg  [7:0]                    m_cqe_status,

    // Responses, to the frame builder
    output reg                           m_hdr_valid,
    input  wire                          m_hdr_ready,
    output reg  [47:0]                   m_hdr_eth_dest_mac,
    output wire [47:0]                   m_hdr_eth_src_mac,
    output wire [31:0]                   m_hdr_ip_source,
    output reg  [31:0]                   m_hdr_ip_dest,
    output reg  [15:0]                   m_hdr_udp_source_port,
    output reg  [7:0]                    m_hdr_bth_opcode,
    output reg  [23:0]                   m_hdr_bth_dest_qp,
    output reg  [23:0]                   m_hdr_bth_psn,
    output reg  [7:0]                    m_hdr_aeth_syndrome,
    output reg  [23:0]                   m_hdr_aeth_msn,
    output reg  [12:0]                   m_hdr_payload_bytes,
    // An ATOMIC_ACKNOWLEDGE's AtomicAckETH: the operand before the atomic
    output reg  [63:0]                   m_hdr_atomic_original,

    // One cycle per event, for the counters
    output reg                           event_ack_sent,
    output reg                           event_nak_sent,
    output reg                           event_duplicate,
    output reg                           event_sequence_drop,
    output reg                           event_unknown_qp,
    output reg                           event_access_error,
    output reg                           event_invalid_request,
    output reg                           event_write_done,
    output reg                           event_read_done,
    output reg                           event_rnr_nak_sent,
    output reg                           event_over_qp_pmtu,
    output reg                           event_atomic_done,
    output reg                           event_atomic_replayed
);

`include "roce_psn.vh"

localparam QP_INDEX_WIDTH = $clog2(QP_COUNT);
localparam MR_INDEX_WIDTH = $clog2(MR_COUNT);

localparam KEEP_WIDTH = DATA_WIDTH / 8;
localparam RECV_WQE_BYTES = `RDMA_RECEIVE_WQE_BYTES;
// Receive WQEs sit at whole multiples of their size in the ring
localparam RECV_WQE_ADDRESS_SHIFT = $clog2(RECV_WQE_BYTES);
localparam RECV_WQE_BEATS = RECV_WQE_BYTES / KEEP_WIDTH > 0 ? RECV_WQE_BYTES / KEEP_WIDTH : 1;
localparam RECV_LANE_BITS = KEEP_WIDTH > RECV_WQE_BYTES ? RECV_WQE_BYTES * 8 : DATA_WIDTH;
localparam ATOMIC_RESULTS_WIDTH = ATOMIC_RESULTS * 89;
localparam ATOMIC_NEXT_WIDTH = $clog2(ATOMIC_RESULTS);

initial begin
    if (QP_COUNT < 2 || (QP_COUNT & (QP_COUNT - 1)) != 0 || MR_COUNT < 2 || (MR_COUNT & (MR_COUNT - 1)) != 0) begin
        $error("Error: QP_COUNT and MR_COUNT must be powers of two, 2 or more (instance %m)");
        $finish;
    end
    if ((RECV_WQE_BYTES & (RECV_WQE_BYTES - 1)) != 0) begin
        $error("Error: the receive WQE of host_interface.toml must be a power of two bytes (instance %m)");
        $finish;
    end
end

assign m_hdr_eth_src_mac = local_mac;
assign m_hdr_ip_source = local_ip;

// ---- QP context: set-up fields and responder state, in RAM (roce_qp_context) ----

// valid, remote QPN, MAC, IP, UDP port, PMTU code, receive queue base and size
localparam CONTEXT_WIDTH = 1 + 24 + 48 + 32 + 16 + 3 + 64 + 4;
// error, nak_sent, ePSN, MSN, write open, VA, bytes left, WRITE length; the receive queue's
// consumer index and the receive being filled (open, wr_id, address, capacity, bytes so far);
// the atomics executed last and the entry the next one takes
localparam STATE_WIDTH = 1 + 1 + 24 + 24 + 1 + 64 + 32 + 32 + 16 + 1 + 64 + 64 + 32 + 32 + ATOMIC_RESULTS_WIDTH
                       + ATOMIC_NEXT_WIDTH;

wire [CONTEXT_WIDTH-1:0] context_read;
wire [STATE_WIDTH-1:0]   state_read;

// Written back in the cycle the request is done, so the next request (same QP or not) reads it
wire                      state_write;
wire [QP_INDEX_WIDTH-1:0] state_write_index;
wire [STATE_WIDTH-1:0]    state_write_data;

// The context RAM is cleared entry by entry after reset; nothing else happens to a QP meanwhile
wire clearing = !cfg_qp_ready;

// ---- Memory regions (few: flops, looked up in one cycle) ----

reg        mr_valid [0:MR_COUNT-1];
reg [31:0] mr_rkey [0:MR_COUNT-1];
reg [63:0] mr_base [0:MR_COUNT-1];
reg [64:0] mr_end [0:MR_COUNT-1];  // base + length, added once when the region is set
reg        mr_remote_write [0:MR_COUNT-1];
reg        mr_remote_read [0:MR_COUNT-1];
reg        mr_remote_atomic [0:MR_COUNT-1];

integer mr_reset_index;
always @(posedge clk) begin
    if (cfg_mr_write) begin
        mr_valid[cfg_mr_index] <= cfg_mr_valid;
        mr_rkey[cfg_mr_index] <= cfg_mr_rkey;
        mr_base[cfg_mr_index] <= cfg_mr_base;
        mr_end[cfg_mr_index] <= {1'b0, cfg_mr_base} + {33'd0, cfg_mr_length};
        mr_remote_write[cfg_mr_index] <= cfg_mr_remote_write;
        mr_remote_read[cfg_mr_index] <= cfg_mr_remote_read;
        mr_remote_atomic[cfg_mr_index] <= cfg_mr_remote_atomic;
    end
    if (rst) begin
        for (mr_reset_index = 0; mr_reset_index < MR_COUNT; mr_reset_index = mr_reset_index + 1) begin
            mr_valid[mr_reset_index] <= 1'b0;
        end
    end
end

// ---- The request being answered ----

localparam [4:0] S_IDLE = 5'd0, S_LOOKUP = 5'd1, S_DECIDE = 5'd2, S_WRITE_COMMAND = 5'd3, S_WRITE_DATA = 5'd4,
                 S_WRITE_STATUS = 5'd5, S_DRAIN = 5'd6, S_RESPOND = 5'd7, S_READ_PACKET = 5'd8,
                 S_WRITEBACK = 5'd9, S_RECEIVE_WAIT = 5'd10, S_RECEIVE_LOAD = 5'd11, S_RECEIVE_CHECK = 5'd12,
                 S_FLUSH_NEXT = 5'd13, S_FLUSH_COMPLETE = 5'd14, S_READ_FAILED = 5'd15, S_ATOMIC_READ = 5'd16,
                 S_ATOMIC_WRITE_COMMAND = 5'd17, S_ATOMIC_WRITE_DATA = 5'd18, S_ATOMIC_STATUS = 5'd19;

reg [4:0]  state;
reg [7:0]  request_opcode;
reg [23:0] request_qpn;
reg        request_ack_req;
reg [23:0] request_psn;
reg [63:0] request_va;
reg [31:0] request_rkey;
reg [31:0] request_length;
reg [31:0] request_immdt;
reg [12:0] request_payload_bytes;
reg [23:0] request_msn;  // a failure job's: the MSN before the READ that failed
reg [63:0] request_swap_add, request_compare;
// The atomic being executed: the operand as read, whether its read failed, and what is written back
reg [63:0] atomic_original, atomic_result;
reg        atomic_read_failed;

// The request's QP is read as its header is taken
roce_qp_context #(
    .QP_COUNT(QP_COUNT),
    .CONFIG_WIDTH(CONTEXT_WIDTH),
    .STATE_WIDTH(STATE_WIDTH)
) context_inst (
    .clk(clk), .rst(rst),
    .ready(cfg_qp_ready),
    .config_write(cfg_qp_write), .config_index(cfg_qp_index),
    .config_data({cfg_qp_valid, cfg_qp_remote_qpn, cfg_qp_remote_mac, cfg_qp_remote_ip, cfg_qp_udp_source_port,
                  cfg_qp_pmtu_code, cfg_qp_rq_base, cfg_qp_rq_log_size}),
    // A QP starts with no error and no NAK sent, at its first PSN, with no message or receive open
    .config_initial_state({1'b0, 1'b0, cfg_qp_expected_psn, 24'd0, 1'b0, 64'd0, 32'd0, 32'd0, 16'd0, 1'b0,
                           64'd0, 64'd0, 32'd0, 32'd0, {ATOMIC_RESULTS_WIDTH{1'b0}}, {ATOMIC_NEXT_WIDTH{1'b0}}}),
    .state_write(state_write), .state_write_index(state_write_index), .state_write_data(state_write_data),
    .read((state == S_IDLE && s_hdr_valid && s_hdr_ready) || flush_start || failure_start),
    .read_index(failure_start ? failed_qp_index : flush_start ? flush_scan : s_hdr_bth_dest_qp[QP_INDEX_WIDTH-1:0]),
    .config_read_data(context_read), .state_read_data(state_read)
);

// Context fields of the request's QP, in the order they are packed
wire        qp_valid;
wire [23:0] qp_remote_qpn;
wire [47:0] qp_remote_mac;
wire [31:0] qp_remote_ip;
wire [15:0] qp_udp_source_port;
wire [2:0]  qp_pmtu_code;
wire [63:0] qp_rq_base;
wire [3:0]  qp_rq_log_size;
assign {qp_valid, qp_remote_qpn, qp_remote_mac, qp_remote_ip, qp_udp_source_port, qp_pmtu_code, qp_rq_base,
        qp_rq_log_size} = context_read;
wire [12:0] pmtu_bytes = 13'd256 << qp_pmtu_code;
wire [15:0] qp_rq_mask = (16'd1 << qp_rq_log_size) - 16'd1;

// Responder state of that QP, as read, then updated in these registers and written back
reg        qp_error, nak_sent, write_open;
reg [23:0] expected_psn, msn;
reg [63:0] write_va;
reg [31:0] write_bytes_left, write_length;
reg [15:0] rq_consumer;
reg        receive_open;
reg [63:0] receive_wr_id, receive_address;
reg [31:0] receive_capacity, receive_bytes;
reg [15:0] rq_producer;  // from the doorbell RAM
reg [ATOMIC_RESULTS_WIDTH-1:0] atomic_results;
reg [ATOMIC_NEXT_WIDTH-1:0]    atomic_results_next;

// Receive-queue doorbells: the producer index of each QP's receive queue
reg [15:0] rq_doorbell [0:QP_COUNT-1];
wire       rq_doorbell_exists = QP_COUNT >= 65536 || rq_doorbell_qpn < QP_COUNT;
always @(posedge clk) begin
    if (cfg_qp_write && !clearing) begin
        rq_doorbell[cfg_qp_index] <= 16'd0;
    end else if (rq_doorbell_valid && rq_doorbell_exists) begin
        rq_doorbell[rq_doorbell_qpn[QP_INDEX_WIDTH-1:0]] <= rq_doorbell_producer_index;
    end
end

// Receive flush (IBA 10.3.1: a QP in the error state completes every receive posted to it, those
// waiting when it entered the state and those posted later, with a flush error). A QP in error is
// marked here; its flush is wanted when it enters the state and after every receive doorbell
// while it stays there. The responder takes wanted flushes between requests, found by a pointer
// that walks the QPs one per cycle: a flush waits at most QP_COUNT cycles to start.
reg                       rq_in_error [0:QP_COUNT-1];
reg                       flush_wanted [0:QP_COUNT-1];
reg [QP_INDEX_WIDTH-1:0]  flush_scan;
reg                       flush_job;  // the request being answered is a flush, not a packet
wire                      flush_start;
integer                   flush_reset_index;
always @(posedge clk) begin
    if (flush_start) begin
        flush_wanted[flush_scan] <= 1'b0;
    end
    if (state_write && qp_error && !rq_in_error[state_write_index]) begin
        rq_in_error[state_write_index] <= 1'b1;
        flush_wanted[state_write_index] <= 1'b1;
    end
    if (rq_doorbell_valid && rq_doorbell_exists && rq_in_error[rq_doorbell_qpn[QP_INDEX_WIDTH-1:0]]) begin
        flush_wanted[rq_doorbell_qpn[QP_INDEX_WIDTH-1:0]] <= 1'b1;
    end
    if (cfg_qp_write && !clearing) begin
        rq_in_error[cfg_qp_index] <= 1'b0;
        flush_wanted[cfg_qp_index] <= 1'b0;
    end
    if (!flush_wanted[flush_scan]) begin
        flush_scan <= flush_scan + 1'b1;
    end
    if (rst) begin
        flush_scan <= {QP_INDEX_WIDTH{1'b0}};
        for (flush_reset_index = 0; flush_reset_index < QP_COUNT; flush_reset_index = flush_reset_index + 1) begin
            rq_in_error[flush_reset_index] <= 1'b0;
            flush_wanted[flush_reset_index] <= 1'b0;
        end
    end
end

// The receive WQE being fetched
reg [RECV_WQE_BYTES*8-1:0]         receive_wqe;
reg [$clog2(RECV_WQE_BEATS+1)-1:0] receive_wqe_beat;
assign m_cqe_qpn = {{(24-QP_INDEX_WIDTH){1'b0}}, request_qpn[QP_INDEX_WIDTH-1:0]};

wire        psn_in_order = request_psn == expected_psn;
wire        psn_duplicate = psn_before(request_psn, expected_psn);

// What the request is and where it sits in its message, from the shared decoder
wire is_request, is_send, is_write, is_read, is_atomic, starts_message, ends_message, has_immediate, full_pmtu;

roce_opcode_info opcode_info_inst (
    .opcode(request_opcode),
    .known(), .has_reth(), .has_aeth(), .has_immdt(has_immediate), .has_payload(), .full_pmtu(full_pmtu),
    .starts_message(starts_message), .ends_message(ends_message), .is_send(is_send), .is_write(is_write),
    .is_read_request(is_read), .is_atomic(is_atomic), .is_read_response(), .is_acknowledge(), .is_atomic_acknowledge(), .is_request(is_request), .is_response(), .is_cnp(),
    .transport_header_bytes()
);

// The header being taken is an atomic's: it covers the 8 bytes of its operand
wire header_is_atomic;

roce_opcode_info header_opcode_info_inst (
    .opcode(s_hdr_bth_opcode),
    .known(), .has_reth(), .has_aeth(), .has_immdt(), .has_payload(), .full_pmtu(), .starts_message(), .ends_message(),
    .is_send(), .is_write(), .is_read_request(), .is_atomic(header_is_atomic), .is_read_response(), .is_acknowledge(),
    .is_atomic_acknowledge(), .is_request(), .is_response(), .is_cnp(), .transport_header_bytes()
);
wire [31:0] header_length = header_is_atomic ? 32'd8 : s_hdr_reth_length;

wire is_write_start = is_write && starts_message;
wire is_write_continue = is_write && !starts_message;
wire is_write_end = is_write && ends_message;
wire is_write_only = is_write && starts_message && ends_message;
wire is_send_start = is_send && starts_message;
wire is_send_continue = is_send && !starts_message;
wire is_send_end = is_send && ends_message;
// These take the next posted receive (IBA: SEND's first packet, a WRITE's immediate)
wire takes_receive = is_send_start || (is_write && has_immediate);
wire has_payload = request_payload_bytes != 13'd0;
wire write_failed = has_payload && write_status_valid && write_status_error;
// The QP's own path MTU: FIRST and MIDDLE carry exactly one, LAST and ONLY at most one (the
// parser checked only against the largest of any QP). A packet that breaks it is malformed for
// this QP and dropped unanswered, as a receiver of that PMTU would drop it.
wire payload_breaks_pmtu = full_pmtu ? request_payload_bytes != pmtu_bytes : request_payload_bytes > pmtu_bytes;
// IBA 9.7.5.1.3: inside a message (after its FIRST, before its LAST) only that message's MIDDLE
// and LAST may come; a new request of any kind there, or a MIDDLE/LAST with no message open,
// breaks the opcode sequence. Only a new packet (PSN == ePSN) is checked: a retried READ from
// before the open message is a duplicate, answered again whatever is open now.
wire message_open = write_open || receive_open;
wire opcode_out_of_sequence = psn_in_order && ((starts_message && message_open)
                           || (is_send_continue && !receive_open) || (is_write_continue && !write_open));

// Key and range check against the region the R_Key names, over three cycles so no 64-bit carry
// chain sits behind another or in front of the decision (the engine's longest path at 512 bits
// was an add, a compare and the decision in one cycle): the request's end and its region's entry
// are registered as the header is taken, compared in the lookup cycle, and the decision reads
// one registered bit.
reg [64:0] request_end;
reg        request_mr_valid, request_mr_remote_read, request_mr_remote_write, request_mr_remote_atomic;
reg [31:0] request_mr_rkey;
reg [63:0] request_mr_base;
reg [64:0] request_mr_end;
reg        access_ok;
wire [MR_INDEX_WIDTH-1:0] header_mr_index = s_hdr_reth_rkey[MR_INDEX_WIDTH-1:0];
wire key_and_range_ok = request_mr_valid && request_mr_rkey == request_rkey
                     && request_va >= request_mr_base && request_end <= request_mr_end;
wire access_allowed = request_length == 32'd0
                   || (key_and_range_ok && (is_read ? request_mr_remote_read
                                            : is_atomic ? request_mr_remote_atomic : request_mr_remote_write));

// What the QP's kept atomics say of the request's PSN, and what they become once it is executed
wire        atomic_replay_hit;
wire [63:0] atomic_replay_original;
wire [ATOMIC_RESULTS_WIDTH-1:0] atomic_results_recorded;
wire [ATOMIC_NEXT_WIDTH-1:0]    atomic_results_next_recorded;

roce_atomic_results #(
    .ENTRIES(ATOMIC_RESULTS)
) atomic_results_inst (
    .entries(atomic_results), .next(atomic_results_next),
    .lookup_psn(request_psn), .hit(atomic_replay_hit), .hit_original(atomic_replay_original),
    .record_psn(request_psn), .record_original(atomic_original),
    .recorded_entries(atomic_results_recorded), .recorded_next(atomic_results_next_recorded)
);

// READ responses: one packet per PMTU of the requested length (one empty ONLY for length 0)
reg [31:0] read_bytes_left;
reg [23:0] read_psn;
reg        read_first_packet, read_in_order;
reg        read_header_sent, read_command_sent;
wire [31:0] read_packet_bytes = read_bytes_left > {19'd0, pmtu_bytes} ? {19'd0, pmtu_bytes} : read_bytes_left;
wire        read_last_packet = read_bytes_left <= {19'd0, pmtu_bytes};

// READ response payloads in flight, in the order the reader returns them: whose packet each is
// (QP index, PSN, and the QP's MSN before that READ, which the NAK carries: the READ did not
// complete). A payload whose read failed is queued as a failure, and its QP marked; the responder
// answers failures between requests, before any new one: the QP goes to the error state with NAK
// 0x63 at that PSN, and a request of a marked QP is dropped meanwhile. No command is issued while
// the owner queue is full; each failure was an owner entry, so the failure queue cannot overflow
// either.
localparam PAYLOAD_QUEUE_DEPTH = 16;
localparam OWNER_WIDTH = QP_INDEX_WIDTH + 48;
reg [OWNER_WIDTH-1:0]     payload_owner [0:PAYLOAD_QUEUE_DEPTH-1];
reg [4:0]                 payload_owner_write, payload_owner_read;
wire                      payload_owners_full = payload_owner_write - payload_owner_read == 5'd16;
reg [OWNER_WIDTH-1:0]     read_failure [0:PAYLOAD_QUEUE_DEPTH-1];
reg [4:0]                 read_failure_write, read_failure_read;
wire                      read_failure_pending = read_failure_write != read_failure_read;
wire [OWNER_WIDTH-1:0]    failure_head = read_failure[read_failure_read[3:0]];
wire [QP_INDEX_WIDTH-1:0] failed_qp_index = failure_head[OWNER_WIDTH-1:48];
wire [23:0]               failed_psn = failure_head[47:24];
wire [23:0]               failed_msn = failure_head[23:0];
wire [QP_INDEX_WIDTH-1:0] finished_owner_index = payload_owner[payload_owner_read[3:0]][OWNER_WIDTH-1:48];
reg                       failure_queued [0:QP_COUNT-1];
wire                      failure_start;
reg                       failure_job;  // the request being answered is a failed READ payload
integer                   failure_reset_index;
always @(posedge clk) begin
    if (m_read_cmd_valid && m_read_cmd_ready) begin
        payload_owner[payload_owner_write[3:0]] <= {request_qpn[QP_INDEX_WIDTH-1:0], read_psn,
                                                   read_in_order ? msn - 24'd1 : msn};
        payload_owner_write <= payload_owner_write + 5'd1;
    end
    if (failure_start) begin
        read_failure_read <= read_failure_read + 5'd1;
        failure_queued[failed_qp_index] <= 1'b0;
    end
    if (read_payload_done) begin
        payload_owner_read <= payload_owner_read + 5'd1;
        if (read_payload_failed) begin
            read_failure[read_failure_write[3:0]] <= payload_owner[payload_owner_read[3:0]];
            read_failure_write <= read_failure_write + 5'd1;
            failure_queued[finished_owner_index] <= 1'b1;
        end
    end
    if (rst) begin
        payload_owner_write <= 5'd0;
        payload_owner_read <= 5'd0;
        read_failure_write <= 5'd0;
        read_failure_read <= 5'd0;
        for (failure_reset_index = 0; failure_reset_index < QP_COUNT; failure_reset_index = failure_reset_index + 1) begin
            failure_queued[failure_reset_index] <= 1'b0;
        end
    end
end

// Where to go once a payload has been drained or a response sent
reg [4:0]  after_respond;
reg        drain_after_respond;

// One receive completion at a time: the next request waits until the last one is taken. A wanted
// flush goes before the next request (flushes are rare; requests for a QP in error are dropped).
// A failed READ payload goes before both: the requester must hear of it before anything else the
// QP answers.
wire   responder_free = state == S_IDLE && !cfg_qp_write && !clearing && !m_cqe_valid;
assign failure_start = responder_free && read_failure_pending;
assign flush_start = responder_free && !read_failure_pending && flush_wanted[flush_scan];
assign s_hdr_ready = responder_free && !read_failure_pending && !flush_wanted[flush_scan];
assign s_recv_tready = state == S_RECEIVE_WAIT || state == S_ATOMIC_READ;
// The host set the QP up again while its request or job was being answered: the old QP's state
// must not land on the new one, so it is not written back (and a flush stops)
reg    qp_set_up_meanwhile;
always @(posedge clk) begin
    if (state == S_IDLE || rst) begin
        qp_set_up_meanwhile <= 1'b0;
    end else if (cfg_qp_write && !clearing && cfg_qp_index == request_qpn[QP_INDEX_WIDTH-1:0]) begin
        qp_set_up_meanwhile <= 1'b1;
    end
end
assign state_write = state == S_WRITEBACK && !cfg_qp_write && !clearing && !qp_set_up_meanwhile;
assign state_write_index = request_qpn[QP_INDEX_WIDTH-1:0];
assign state_write_data = {qp_error, nak_sent, expected_psn, msn, write_open, write_va, write_bytes_left, write_length,
                           rq_consumer, receive_open, receive_wr_id, receive_address, receive_capacity, receive_bytes,
                           atomic_results, atomic_results_next};
assign s_payload_tready = (state == S_DRAIN) || (state == S_WRITE_DATA && m_write_data_tready);
// The DMA writer takes a payload as it arrives, or an atomic's 8-byte result as one beat
wire   writing_atomic = state == S_ATOMIC_WRITE_DATA;
assign m_write_data_tvalid = (state == S_WRITE_DATA && s_payload_tvalid) || writing_atomic;
assign m_write_data_tdata = writing_atomic ? {{(DATA_WIDTH-64){1'b0}}, atomic_result} : s_payload_tdata;
assign m_write_data_tkeep = writing_atomic ? {{(KEEP_WIDTH-8){1'b0}}, 8'hFF} : s_payload_tkeep;
assign m_write_data_tlast = writing_atomic || s_payload_tlast;

task respond(input [7:0] opcode, input [23:0] psn, input [7:0] syndrome, input [12:0] payload_bytes);
    begin
        m_hdr_valid <= 1'b1;
        m_hdr_bth_opcode <= opcode;
        m_hdr_bth_psn <= psn;
        m_hdr_aeth_syndrome <= syndrome;
        m_hdr_payload_bytes <= payload_bytes;
        m_hdr_eth_dest_mac <= qp_remote_mac;
        m_hdr_ip_dest <= qp_remote_ip;
        m_hdr_udp_source_port <= qp_udp_source_port;
        m_hdr_bth_dest_qp <= qp_remote_qpn;
    end
endtask

// Every receive completion the responder posts
task post_receive_completion(input [63:0] wr_id, input [7:0] opcode, input [7:0] status, input [31:0] byte_len,
                             input [31:0] immediate, input immediate_valid);
    begin
        m_cqe_valid <= 1'b1;
        m_cqe_wr_id <= wr_id;
        m_cqe_byte_len <= byte_len;
        m_cqe_immediate <= immediate;
        m_cqe_immediate_valid <= immediate_valid;
        m_cqe_opcode <= opcode;
        m_cqe_status <= status;
    end
endtask

// Reads through the receive-WQE reader: a receive WQE, or an atomic's operand
task fetch(input [63:0] address, input [15:0] length);
    begin
        m_recv_cmd_addr <= address;
        m_recv_cmd_len <= length;
        m_recv_cmd_valid <= 1'b1;
        receive_wqe_beat <= 0;
    end
endtask

// The receive being filled ends with an error: its completion, with nothing received
task complete_receive(input [7:0] status);
    post_receive_completion(receive_wr_id, `RDMA_WC_RECV, status, 32'd0, 32'd0, 1'b0);
endtask

always @(posedge clk) begin
    event_ack_sent <= 1'b0;
    event_nak_sent <= 1'b0;
    event_duplicate <= 1'b0;
    event_sequence_drop <= 1'b0;
    event_unknown_qp <= 1'b0;
    event_access_error <= 1'b0;
    event_invalid_request <= 1'b0;
    event_write_done <= 1'b0;
    event_read_done <= 1'b0;
    event_rnr_nak_sent <= 1'b0;
    event_over_qp_pmtu <= 1'b0;
    event_atomic_done <= 1'b0;
    event_atomic_replayed <= 1'b0;
    if (m_cqe_valid && m_cqe_ready) begin
        m_cqe_valid <= 1'b0;
    end
    if (m_recv_cmd_valid && m_recv_cmd_ready) begin
        m_recv_cmd_valid <= 1'b0;
    end

    if (m_hdr_valid && m_hdr_ready) begin
        m_hdr_valid <= 1'b0;
    end
    if (m_write_cmd_valid && m_write_cmd_ready) begin
        m_write_cmd_valid <= 1'b0;
    end
    if (m_read_cmd_valid && m_read_cmd_ready) begin
        m_read_cmd_valid <= 1'b0;
    end

    case (state)
        S_IDLE: begin
            if (s_hdr_valid && s_hdr_ready) begin
                request_opcode <= s_hdr_bth_opcode;
                request_qpn <= s_hdr_bth_dest_qp;
                request_ack_req <= s_hdr_bth_ack_req;
                request_psn <= s_hdr_bth_psn;
                request_va <= s_hdr_reth_va;
                request_rkey <= s_hdr_reth_rkey;
                request_length <= header_length;
                request_end <= {1'b0, s_hdr_reth_va} + {33'd0, header_length};
                request_swap_add <= s_hdr_atomic_swap_add;
                request_compare <= s_hdr_atomic_compare;
                request_mr_valid <= mr_valid[header_mr_index];
                request_mr_rkey <= mr_rkey[header_mr_index];
                request_mr_base <= mr_base[header_mr_index];
                request_mr_end <= mr_end[header_mr_index];
                request_mr_remote_read <= mr_remote_read[header_mr_index];
                request_mr_remote_write <= mr_remote_write[header_mr_index];
                request_mr_remote_atomic <= mr_remote_atomic[header_mr_index];
                request_immdt <= s_hdr_immdt;
                request_payload_bytes <= s_hdr_payload_bytes;
                rq_producer <= rq_doorbell[s_hdr_bth_dest_qp[QP_INDEX_WIDTH-1:0]];
                flush_job <= 1'b0;
                failure_job <= 1'b0;
                state <= S_LOOKUP;
            end
            if (flush_start) begin
                request_qpn <= {{(24-QP_INDEX_WIDTH){1'b0}}, flush_scan};
                rq_producer <= rq_doorbell[flush_scan];
                flush_job <= 1'b1;
                failure_job <= 1'b0;
                state <= S_LOOKUP;
            end
            if (failure_start) begin
                request_qpn <= {{(24-QP_INDEX_WIDTH){1'b0}}, failed_qp_index};
                request_psn <= failed_psn;
                request_msn <= failed_msn;
                rq_producer <= rq_doorbell[failed_qp_index];
                flush_job <= 1'b0;
                failure_job <= 1'b1;
                state <= S_LOOKUP;
            end
        end
        S_LOOKUP: begin
            {qp_error, nak_sent, expected_psn, msn, write_open, write_va, write_bytes_left, write_length, rq_consumer,
             receive_open, receive_wr_id, receive_address, receive_capacity, receive_bytes, atomic_results,
             atomic_results_next} <= state_read;
            access_ok <= access_allowed;
            state <= flush_job ? S_FLUSH_NEXT : failure_job ? S_READ_FAILED : S_DECIDE;
        end
        S_DECIDE: begin
            after_respond <= S_WRITEBACK;
            drain_after_respond <= has_payload;
            if (read_data_pending && (is_send || is_write || is_atomic)) begin
                // A WRITE, SEND or atomic waits until every READ before it has its data out of
                // memory: IBA executes a QP's requests in order, and the READ must not see this write
            end else if (!qp_valid || qp_error
                    || request_qpn[23:QP_INDEX_WIDTH] != {(24-QP_INDEX_WIDTH){1'b0}}
                    || failure_queued[request_qpn[QP_INDEX_WIDTH-1:0]]) begin
                // Unknown QP, or a QP in the error state or about to be (a READ of it failed):
                // dropped, nothing answered
                event_unknown_qp <= 1'b1;
                state <= has_payload ? S_DRAIN : S_IDLE;
                after_respond <= S_IDLE;
            end else if (!is_request) begin
                // Responses and ACKs belong to a requester: not this responder's to answer
                event_invalid_request <= 1'b1;
                state <= has_payload ? S_DRAIN : S_IDLE;
                after_respond <= S_IDLE;
            end else if (payload_breaks_pmtu) begin
                event_over_qp_pmtu <= 1'b1;
                state <= has_payload ? S_DRAIN : S_IDLE;
                after_respond <= S_IDLE;
            end else if (psn_duplicate && is_atomic) begin
                // Answered with its first result, never executed again; one no longer kept is dropped
                event_duplicate <= 1'b1;
                after_respond <= S_IDLE;
                if (atomic_replay_hit) begin
                    event_atomic_replayed <= 1'b1;
                    respond(`ROCE_OP_ATOMIC_ACKNOWLEDGE, request_psn, `ROCE_AETH_ACK, 13'd0);
                    m_hdr_atomic_original <= atomic_replay_original;
                    state <= S_RESPOND;
                end else begin
                    state <= S_IDLE;
                end
            end else if (psn_duplicate && !is_read) begin
                event_duplicate <= 1'b1;
                respond(`ROCE_OP_ACKNOWLEDGE, expected_psn - 24'd1, `ROCE_AETH_ACK, 13'd0);
                event_ack_sent <= 1'b1;
                state <= S_RESPOND;
                after_respond <= S_IDLE;
            end else if (!psn_in_order && !psn_duplicate) begin
                event_sequence_drop <= 1'b1;
                if (!nak_sent) begin
                    nak_sent <= 1'b1;
                    respond(`ROCE_OP_ACKNOWLEDGE, expected_psn, `ROCE_AETH_NAK_PSN_SEQUENCE_ERROR, 13'd0);
                    event_nak_sent <= 1'b1;
                    state <= S_RESPOND;
                end else begin
                    state <= has_payload ? S_DRAIN : S_IDLE;
                    after_respond <= S_IDLE;
                end
            end else if (opcode_out_of_sequence
                         || (is_write_start && {19'd0, request_payload_bytes} > request_length)
                         || (is_write_only && {19'd0, request_payload_bytes} != request_length)
                         || (is_write_continue && {19'd0, request_payload_bytes} > write_bytes_left)
                         || (is_write_continue && is_write_end && {19'd0, request_payload_bytes} != write_bytes_left)) begin
                // A SEND cut short completes its receive with the error; the QP's other receives
                // are flushed once it is in the error state.
                event_invalid_request <= 1'b1;
                event_nak_sent <= 1'b1;
                qp_error <= 1'b1;
                respond(`ROCE_OP_ACKNOWLEDGE, request_psn, `ROCE_AETH_NAK_INVALID_REQUEST, 13'd0);
                if (receive_open) begin
                    complete_receive(`RDMA_WC_REM_INV_REQ_ERR);
                    receive_open <= 1'b0;
                end
                state <= S_RESPOND;
            end else if ((is_write_start || is_read || is_atomic) && !access_ok) begin
                event_access_error <= 1'b1;
                event_nak_sent <= 1'b1;
                qp_error <= 1'b1;
                respond(`ROCE_OP_ACKNOWLEDGE, request_psn, `ROCE_AETH_NAK_REMOTE_ACCESS, 13'd0);
                state <= S_RESPOND;
            end else if (is_atomic && request_va[2:0] != 3'd0) begin
                // IBA 9.4.5: an atomic's operand is 8-byte aligned (rxe: misaligned atomic, class C)
                event_invalid_request <= 1'b1;
                event_nak_sent <= 1'b1;
                qp_error <= 1'b1;
                respond(`ROCE_OP_ACKNOWLEDGE, request_psn, `ROCE_AETH_NAK_INVALID_REQUEST, 13'd0);
                state <= S_RESPOND;
            end else if (is_atomic) begin
                nak_sent <= 1'b0;
                fetch(request_va, 16'd8);
                state <= S_ATOMIC_READ;
            end else if (takes_receive && rq_consumer == rq_producer && !psn_duplicate) begin
                // No receive posted: nothing is executed and the requester tries again later
                event_rnr_nak_sent <= 1'b1;
                event_nak_sent <= 1'b1;
                nak_sent <= 1'b1;
                respond(`ROCE_OP_ACKNOWLEDGE, request_psn, `ROCE_AETH_RNR_NAK_SHORTEST, 13'd0);
                state <= S_RESPOND;
            end else if (is_read) begin
                event_duplicate <= psn_duplicate;
                read_bytes_left <= request_length;
                read_psn <= request_psn;
                read_first_packet <= 1'b1;
                read_in_order <= psn_in_order;
                read_header_sent <= 1'b0;
                read_command_sent <= 1'b0;
                if (psn_in_order) begin
                    msn <= msn + 24'd1;
                    nak_sent <= 1'b0;
                end
                state <= S_READ_PACKET;
            end else begin
                // An in-order WRITE or SEND packet
                nak_sent <= 1'b0;
                if (is_write_start) begin
                    write_va <= request_va;
                    write_bytes_left <= request_length;
                    write_length <= request_length;
                end
                if (takes_receive) begin
                    fetch(qp_rq_base + ({48'd0, rq_consumer & qp_rq_mask} << RECV_WQE_ADDRESS_SHIFT), RECV_WQE_BYTES);
                    state <= S_RECEIVE_WAIT;
                end else if (is_send) begin
                    state <= S_RECEIVE_CHECK;
                end else begin
                    state <= has_payload ? S_WRITE_COMMAND : S_WRITE_STATUS;
                end
            end
        end
        S_RECEIVE_WAIT: begin
            if (s_recv_tvalid) begin
                receive_wqe[receive_wqe_beat * RECV_LANE_BITS +: RECV_LANE_BITS] <= s_recv_tdata[RECV_LANE_BITS-1:0];
                receive_wqe_beat <= receive_wqe_beat + 1'b1;
                if (s_recv_tlast) begin
                    state <= flush_job ? S_FLUSH_COMPLETE : S_RECEIVE_LOAD;
                end
            end
        end
        S_RECEIVE_LOAD: begin
            rq_consumer <= rq_consumer + 16'd1;
            receive_wr_id <= receive_wqe[`RDMA_RECEIVE_WQE_WR_ID_LSB +: `RDMA_RECEIVE_WQE_WR_ID_WIDTH];
            receive_address <= receive_wqe[`RDMA_RECEIVE_WQE_ADDRESS_LSB +: `RDMA_RECEIVE_WQE_ADDRESS_WIDTH];
            receive_capacity <= receive_wqe[`RDMA_RECEIVE_WQE_LENGTH_LSB +: `RDMA_RECEIVE_WQE_LENGTH_WIDTH];
            receive_bytes <= 32'd0;
            receive_open <= is_send;
            state <= is_send ? S_RECEIVE_CHECK : (has_payload ? S_WRITE_COMMAND : S_WRITE_STATUS);
        end
        S_RECEIVE_CHECK: begin
            if (receive_bytes + {19'd0, request_payload_bytes} > receive_capacity) begin
                // Longer than the posted buffer: the receive fails, the requester hears invalid request
                complete_receive(`RDMA_WC_LOC_LEN_ERR);
                receive_open <= 1'b0;
                event_invalid_request <= 1'b1;
                event_nak_sent <= 1'b1;
                qp_error <= 1'b1;
                respond(`ROCE_OP_ACKNOWLEDGE, request_psn, `ROCE_AETH_NAK_INVALID_REQUEST, 13'd0);
                state <= S_RESPOND;
            end else begin
                state <= has_payload ? S_WRITE_COMMAND : S_WRITE_STATUS;
            end
        end
        S_WRITE_COMMAND: begin
            m_write_cmd_addr <= is_send ? receive_address + {32'd0, receive_bytes} : write_va;
            m_write_cmd_len <= {3'd0, request_payload_bytes};
            m_write_cmd_valid <= 1'b1;
            state <= S_WRITE_DATA;
        end
        S_WRITE_DATA: begin
            if (s_payload_tvalid && s_payload_tready && s_payload_tlast) begin
                state <= S_WRITE_STATUS;
            end
        end
        S_WRITE_STATUS: begin
            // The ACK promises the data is in memory: wait for the write responses
            if (write_status_valid || !has_payload) begin
                // A receive whose data could not be written (a SEND's, or the one a WRITE's
                // immediate took) stays open: the QP's flush completes it
                receive_open <= (is_send && !is_send_end) || (write_failed && (is_send || has_immediate));
                if (is_send) begin
                    receive_bytes <= receive_bytes + {19'd0, request_payload_bytes};
                end else begin
                    write_va <= write_va + {51'd0, request_payload_bytes};
                    write_bytes_left <= write_bytes_left - {19'd0, request_payload_bytes};
                    write_open <= !is_write_end;
                end
                expected_psn <= expected_psn + 24'd1;
                if (is_write_end || is_send_end) begin
                    msn <= msn + 24'd1;
                    event_write_done <= is_write_end;
                end
                // The message's receive completes once its data is in memory
                if ((is_send_end || (is_write_end && has_immediate)) && !write_failed) begin
                    post_receive_completion(receive_wr_id, is_send ? `RDMA_WC_RECV : `RDMA_WC_RECV_RDMA_WITH_IMM,
                                            `RDMA_WC_SUCCESS,
                                            is_send ? receive_bytes + {19'd0, request_payload_bytes} : write_length,
                                            request_immdt, has_immediate);
                end
                if (write_failed) begin
                    qp_error <= 1'b1;
                    event_nak_sent <= 1'b1;
                    respond(`ROCE_OP_ACKNOWLEDGE, request_psn, `ROCE_AETH_NAK_REMOTE_OPERATIONAL, 13'd0);
                    drain_after_respond <= 1'b0;
                    state <= S_RESPOND;
                end else if (request_ack_req) begin
                    event_ack_sent <= 1'b1;
                    respond(`ROCE_OP_ACKNOWLEDGE, request_psn, `ROCE_AETH_ACK, 13'd0);
                    drain_after_respond <= 1'b0;
                    m_hdr_aeth_msn <= is_write_end || is_send_end ? msn + 24'd1 : msn;
                    state <= S_RESPOND;
                end else begin
                    state <= S_WRITEBACK;
                end
            end
        end
        S_READ_FAILED: begin
            // IBA: a responder that cannot read the memory a READ names answers NAK remote
            // operational error (0x63) at that packet's PSN and goes to the error state
            after_respond <= S_WRITEBACK;
            drain_after_respond <= 1'b0;
            if (!qp_valid || qp_error) begin
                state <= S_WRITEBACK;
            end else if (!m_hdr_valid) begin
                qp_error <= 1'b1;
                event_nak_sent <= 1'b1;
                respond(`ROCE_OP_ACKNOWLEDGE, request_psn, `ROCE_AETH_NAK_REMOTE_OPERATIONAL, 13'd0);
                state <= S_RESPOND;
            end
        end
        S_FLUSH_NEXT: begin
            // A receive left open (a SEND whose data could not be written) is flushed first, then
            // every posted one, oldest first; each WQE is read for its wr_id
            if (qp_set_up_meanwhile) begin
                state <= S_WRITEBACK;
            end else if (!m_cqe_valid && !m_recv_cmd_valid) begin
                if (receive_open) begin
                    complete_receive(`RDMA_WC_WR_FLUSH_ERR);
                    receive_open <= 1'b0;
                end else if (rq_consumer != rq_producer) begin
                    fetch(qp_rq_base + ({48'd0, rq_consumer & qp_rq_mask} << RECV_WQE_ADDRESS_SHIFT), RECV_WQE_BYTES);
                    state <= S_RECEIVE_WAIT;
                end else begin
                    state <= S_WRITEBACK;
                end
            end
        end
        S_FLUSH_COMPLETE: begin
            rq_consumer <= rq_consumer + 16'd1;
            post_receive_completion(receive_wqe[`RDMA_RECEIVE_WQE_WR_ID_LSB +: `RDMA_RECEIVE_WQE_WR_ID_WIDTH],
                                    `RDMA_WC_RECV, `RDMA_WC_WR_FLUSH_ERR, 32'd0, 32'd0, 1'b0);
            state <= S_FLUSH_NEXT;
        end
        S_ATOMIC_READ: begin
            // The operand is the first 8 bytes of the read's only beat, little endian
            if (s_recv_tvalid) begin
                atomic_original <= s_recv_tdata[63:0];
                atomic_read_failed <= s_recv_tuser;
                state <= S_ATOMIC_WRITE_COMMAND;
            end
        end
        S_ATOMIC_WRITE_COMMAND: begin
            if (atomic_read_failed) begin
                // The operand could not be read: answered as a WRITE that could not be written
                qp_error <= 1'b1;
                event_nak_sent <= 1'b1;
                respond(`ROCE_OP_ACKNOWLEDGE, request_psn, `ROCE_AETH_NAK_REMOTE_OPERATIONAL, 13'd0);
                state <= S_RESPOND;
            end else begin
                atomic_result <= request_opcode == `ROCE_OP_FETCH_ADD ? atomic_original + request_swap_add
                               : atomic_original == request_compare ? request_swap_add : atomic_original;
                m_write_cmd_addr <= request_va;
                m_write_cmd_len <= 16'd8;
                m_write_cmd_valid <= 1'b1;
                state <= S_ATOMIC_WRITE_DATA;
            end
        end
        S_ATOMIC_WRITE_DATA: begin
            if (m_write_data_tready) begin
                state <= S_ATOMIC_STATUS;
            end
        end
        S_ATOMIC_STATUS: begin
            if (write_status_valid) begin
                if (write_status_error) begin
                    qp_error <= 1'b1;
                    event_nak_sent <= 1'b1;
                    respond(`ROCE_OP_ACKNOWLEDGE, request_psn, `ROCE_AETH_NAK_REMOTE_OPERATIONAL, 13'd0);
                end else begin
                    expected_psn <= expected_psn + 24'd1;
                    msn <= msn + 24'd1;
                    atomic_results <= atomic_results_recorded;
                    atomic_results_next <= atomic_results_next_recorded;
                    event_atomic_done <= 1'b1;
                    respond(`ROCE_OP_ATOMIC_ACKNOWLEDGE, request_psn, `ROCE_AETH_ACK, 13'd0);
                    m_hdr_aeth_msn <= msn + 24'd1;
                    m_hdr_atomic_original <= atomic_original;
                end
                state <= S_RESPOND;
            end
        end
        S_READ_PACKET: begin
            if (!read_header_sent && !m_hdr_valid) begin
                respond(read_first_packet ? (read_last_packet ? `ROCE_OP_READ_RESPONSE_ONLY : `ROCE_OP_READ_RESPONSE_FIRST)
                                          : (read_last_packet ? `ROCE_OP_READ_RESPONSE_LAST : `ROCE_OP_READ_RESPONSE_MIDDLE),
                        read_psn, `ROCE_AETH_ACK, read_packet_bytes[12:0]);
                read_header_sent <= 1'b1;
            end
            if (!read_command_sent && !m_read_cmd_valid && !payload_owners_full) begin
                read_command_sent <= 1'b1;
                if (read_packet_bytes != 32'd0) begin
                    m_read_cmd_addr <= request_va + {32'd0, request_length - read_bytes_left};
                    m_read_cmd_len <= read_packet_bytes[15:0];
                    m_read_cmd_valid <= 1'b1;
                end
            end
            if (read_header_sent && read_command_sent && !m_hdr_valid && !m_read_cmd_valid) begin
                read_header_sent <= 1'b0;
                read_command_sent <= 1'b0;
                read_first_packet <= 1'b0;
                read_psn <= read_psn + 24'd1;
                read_bytes_left <= read_bytes_left - read_packet_bytes;
                if (read_in_order) begin
                    expected_psn <= expected_psn + 24'd1;
                end
                if (read_last_packet) begin
                    event_read_done <= 1'b1;
                    state <= S_WRITEBACK;
                end
            end
        end
        S_RESPOND: begin
            if (!m_hdr_valid || m_hdr_ready) begin
                if (drain_after_respond) begin
                    state <= S_DRAIN;
                end else begin
                    state <= after_respond;
                end
            end
        end
        S_DRAIN: begin
            if (s_payload_tvalid && s_payload_tlast) begin
                state <= after_respond;
            end
        end
        default: begin  // S_WRITEBACK: the context RAM takes the state this cycle
            if (state_write || qp_set_up_meanwhile) begin
                state <= S_IDLE;
            end
        end
    endcase

    // The AETH's MSN is the QP's count of completed messages at the time of the response
    if (state == S_DECIDE || state == S_READ_PACKET) begin
        m_hdr_aeth_msn <= msn;
    end
    if (state == S_READ_FAILED) begin
        m_hdr_aeth_msn <= request_msn;
    end

    if (rst) begin
        state <= S_IDLE;
        m_hdr_valid <= 1'b0;
        m_write_cmd_valid <= 1'b0;
        m_read_cmd_valid <= 1'b0;
        m_recv_cmd_valid <= 1'b0;
        m_cqe_valid <= 1'b0;
    end
end

endmodule

`resetall
