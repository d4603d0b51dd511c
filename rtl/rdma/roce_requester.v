// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// RoCEv2 RC requester: doorbells, work queues in host memory, ACK/NAK and READ responses, go-back-N, completions
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "roce_defs.vh"
`include "rdma_host_interface.vh"

// Host side: each QP has a send queue, a ring of 2^log_size work queue entries (WQEs) in host
// memory. The host writes WQEs, then rings the doorbell with its free-running producer index;
// the requester fetches each WQE by DMA and hands it to roce_segmenter, which cuts it into
// packets. Completions go to roce_completion_queue in order, per QP. The WQE's layout and
// opcodes are rtl/rdma/host_interface.toml's (the generated rdma_host_interface.vh); its
// other bytes are ignored.
//
// Facts from docs/reference/roce.md and the IBA requester rules:
// - Responses count only for PSNs from the oldest unacknowledged to the last sent; the rest
//   are stale and dropped. ACKs are cumulative (a coalesced ACK completes every request it
//   covers); every NAK and every READ response also acknowledges the PSNs before its own.
// - A response that acknowledges past an RDMA READ whose responses have not all arrived is an
//   implicit NAK: those responses were lost.
// - NAK PSN sequence error, an implicit NAK and the local ACK timeout (4.096 us x 2^timeout,
//   0 = never) go back N: sending starts again at the oldest unacknowledged PSN. Each costs one
//   of the QP's retry_count tries, which come back with every acknowledged PSN; with none left
//   the QP enters the error state. A NAK for a PSN already being retried is not counted twice.
// - An atomic (COMPARE_SWAP, FETCH_ADD) takes one PSN and is answered by an ATOMIC_ACKNOWLEDGE,
//   whose original value goes to the WQE's local buffer (8 bytes, little endian) before the
//   completion; like a READ, it is not acknowledged by an ACK beyond it (an implicit NAK). It is
//   sent only once every request before it is complete, so at most one atomic of a QP is ever
//   outstanding: within any responder's max_dest_rd_atomic, whose results it must keep.
// - NAK invalid request, remote access error and remote operational error end the oldest
//   request with that status and put the QP in the error state.
// - In the error state the oldest request completes with the error and every other posted one
//   is flushed; requests posted later are flushed as they come.
// - An RNR NAK acknowledges the PSNs before its own, then the QP waits the time its timer code
//   names (0.01 ms to 655.36 ms) and goes back to that PSN; each costs one of rnr_retry tries
//   (7: without end), which come back with progress; with none left the oldest request fails
//   RNR_RETRY_EXC_ERR and the rest are flushed.
//
// One FSM owns the per-QP state RAM and does one thing at a time: a response, a QP with work
// to send, or a visit to the next QP with a timer armed (roce_timer_scan), taken in turn.
module roce_requester #(
    // Queue pairs in the context RAM (a power of two)
    parameter QP_COUNT = 256,
    // Width of the WQE stream from the DMA reader in bits (64 to 512, a power of two)
    parameter DATA_WIDTH = 64,
    // The IBA timeout unit, 4.096 us, in clock cycles (1024 at 250 MHz)
    parameter TIMEOUT_UNIT_CYCLES = 1024,
    // The RNR timer unit, 10 us, in clock cycles (2500 at 250 MHz)
    parameter RNR_UNIT_CYCLES = 2500,
    // The requester sends no new request while this many PSNs are unacknowledged
    parameter MAX_UNACKED_PSNS = 1024
) (
    input  wire                          clk,
    input  wire                          rst,

    // QP set-up: the requester half of each QP. After reset the context RAM is swept to
    // "no QP" entry by entry; cfg_qp_ready is low until that is done.
    output wire                          cfg_qp_ready,
    input  wire                          cfg_qp_write,
    input  wire [$clog2(QP_COUNT)-1:0]   cfg_qp_index,
    input  wire                          cfg_qp_valid,
    input  wire [23:0]                   cfg_qp_remote_qpn,
    input  wire [47:0]                   cfg_qp_remote_mac,
    input  wire [31:0]                   cfg_qp_remote_ip,
    input  wire [15:0]                   cfg_qp_udp_source_port,
    input  wire [2:0]                    cfg_qp_pmtu_code,
    input  wire [23:0]                   cfg_qp_send_psn,
    input  wire [63:0]                   cfg_qp_sq_base,
    input  wire [3:0]                    cfg_qp_sq_log_size,
    input  wire [4:0]                    cfg_qp_timeout,
    input  wire [2:0]                    cfg_qp_retry_count,
    input  wire [2:0]                    cfg_qp_rnr_retry,

    // Doorbell: the send queue of doorbell_qpn now ends before entry doorbell_producer_index
    input  wire                          doorbell_valid,
    input  wire [15:0]                   doorbell_qpn,
    input  wire [15:0]                   doorbell_producer_index,

    // Responses (ACK, NAK, READ responses), from the receive parser
    input  wire                          s_hdr_valid,
    output wire                          s_hdr_ready,
    input  wire [7:0]                    s_hdr_bth_opcode,
    input  wire [23:0]                   s_hdr_bth_dest_qp,
    input  wire [23:0]                   s_hdr_bth_psn,
    input  wire [7:0]                    s_hdr_aeth_syndrome,
    input  wire [63:0]                   s_hdr_atomic_original,
    input  wire [12:0]                   s_hdr_payload_bytes,
    input  wire [DATA_WIDTH-1:0]         s_payload_tdata,
    input  wire [DATA_WIDTH/8-1:0]       s_payload_tkeep,
    input  wire                          s_payload_tvalid,
    output wire                          s_payload_tready,
    input  wire                          s_payload_tlast,
    // READ response payloads and atomics' original values go to host memory through the DMA
    // writer; other payloads are drained
    output wire [DATA_WIDTH-1:0]         m_write_data_tdata,
    output wire [DATA_WIDTH/8-1:0]       m_write_data_tkeep,
    output wire                          m_write_data_tvalid,
    input  wire                          m_write_data_tready,
    output wire                          m_write_data_tlast,
    output reg  [63:0]                   m_write_cmd_addr,
    output reg  [15:0]                   m_write_cmd_len,
    output reg                           m_write_cmd_valid,
    input  wire                          m_write_cmd_ready,
    input  wire                          write_status_valid,
    input  wire                          write_status_error,

    // WQE fetch through a DMA reader
    output reg  [63:0]                   m_wqe_cmd_addr,
    output wire [15:0]                   m_wqe_cmd_len,
    output reg                           m_wqe_cmd_valid,
    input  wire                          m_wqe_cmd_ready,
    input  wire [DATA_WIDTH-1:0]         s_wqe_tdata,
    input  wire                          s_wqe_tvalid,
    output wire                          s_wqe_tready,
    input  wire                          s_wqe_tlast,

    // Work requests to the segmenter
    output reg                           m_job_valid,
    input  wire                          m_job_ready,
    output reg                           m_job_read,
    output reg                           m_job_send,
    output reg                           m_job_with_immediate,
    output reg                           m_job_atomic,
    output reg                           m_job_fetch_add,
    output reg  [63:0]                   m_job_swap_add,
    output reg  [63:0]                   m_job_compare,
    output reg  [47:0]                   m_job_dest_mac,
    output reg  [31:0]                   m_job_dest_ip,
    output reg  [15:0]                   m_job_udp_source_port,
    output reg  [23:0]                   m_job_dest_qp,
    // The local QP the work request is for (its packets are paced by its rate, roce_rate_control)
    output reg  [$clog2(QP_COUNT)-1:0]   m_job_qpn,
    output reg  [2:0]                    m_job_pmtu_code,
    output reg  [63:0]                   m_job_local_address,
    output reg  [63:0]                   m_job_remote_address,
    output reg  [31:0]                   m_job_rkey,
    output reg  [31:0]                   m_job_length,
    output reg  [31:0]                   m_job_immediate,
    output reg  [23:0]                   m_job_first_psn,
    output reg  [23:0]                   m_job_first_packet,
    output reg  [23:0]                   m_job_resend_end_psn,

    // Completions, to the completion queue
    output reg                           m_cqe_valid,
    input  wire                          m_cqe_ready,
    output reg  [63:0]                   m_cqe_wr_id,
    output reg  [31:0]                   m_cqe_byte_len,
    output reg  [23:0]                   m_cqe_qpn,
    output reg  [7:0]                    m_cqe_opcode,
    output reg  [7:0]                    m_cqe_status,

    // One cycle per event, for the counters
    output reg                           event_doorbell_rejected,
    output reg                           event_ack_received,
    output reg                           event_nak_received,
    output reg                           event_response_dropped,
    output reg                           event_timeout,
    output reg                           event_retry,
    output reg                           event_rnr_nak_received,
    output reg                           event_completion_error
);

localparam QP_INDEX_WIDTH = $clog2(QP_COUNT);
localparam KEEP_WIDTH = DATA_WIDTH / 8;
localparam WQE_BYTES = `RDMA_SEND_WQE_BYTES;
// WQEs sit at whole multiples of their size in the ring
localparam WQE_ADDRESS_SHIFT = $clog2(WQE_BYTES);
localparam WQE_BEATS = WQE_BYTES / KEEP_WIDTH > 0 ? WQE_BYTES / KEEP_WIDTH : 1;
localparam LANE_BITS = KEEP_WIDTH > WQE_BYTES ? WQE_BYTES * 8 : DATA_WIDTH;

localparam [2:0] RNR_RETRY_WITHOUT_END = 3'd7;

initial begin
    if (QP_COUNT < 2 || (QP_COUNT & (QP_COUNT - 1)) != 0 || QP_COUNT > 65536) begin
        $error("Error: QP_COUNT must be a power of two from 2 to 65536 (instance %m)");
        $finish;
    end
    if (DATA_WIDTH < 64 || (DATA_WIDTH & (DATA_WIDTH - 1)) != 0) begin
        $error("Error: DATA_WIDTH must be a power of two, 64 or more (instance %m)");
        $finish;
    end
    if (MAX_UNACKED_PSNS < 1 || MAX_UNACKED_PSNS >= 8388608) begin
        $error("Error: MAX_UNACKED_PSNS must be from 1 to 2^23 - 1 (instance %m)");
        $finish;
    end
    if ((WQE_BYTES & (WQE_BYTES - 1)) != 0) begin
        $error("Error: the send WQE of host_interface.toml must be a power of two bytes (instance %m)");
        $finish;
    end
end

function [23:0] packets_of(input [31:0] length, input [2:0] pmtu_code);
    // Packets a message of this length takes (a READ: response packets); an empty one takes one.
    // Lengths are below 2^31 and the PMTU at least 2^8, so the count fits 24 bits.
    // Whole packets plus one for a remainder, so that the shift and the remainder test run side by
    // side and one increment follows (not a decrement, the shift, then an increment)
    reg [31:0] packets;
    reg        remainder;
    begin
        remainder = (length & ((32'd256 << pmtu_code) - 32'd1)) != 32'd0;
        packets = length == 32'd0 ? 32'd1 : (length >> (4'd8 + {1'b0, pmtu_code})) + {31'd0, remainder};
        packets_of = packets[23:0];
    end
endfunction

`include "roce_psn.vh"

function [16:0] rnr_wait_units(input [4:0] code);
    // The RNR timer codes in units of 10 us (docs/reference/roce.md): 0 is 655.36 ms
    begin
        case (code)
            5'd0: rnr_wait_units = 17'd65536;   5'd1: rnr_wait_units = 17'd1;      5'd2: rnr_wait_units = 17'd2;
            5'd3: rnr_wait_units = 17'd3;       5'd4: rnr_wait_units = 17'd4;      5'd5: rnr_wait_units = 17'd6;
            5'd6: rnr_wait_units = 17'd8;       5'd7: rnr_wait_units = 17'd12;     5'd8: rnr_wait_units = 17'd16;
            5'd9: rnr_wait_units = 17'd24;      5'd10: rnr_wait_units = 17'd32;    5'd11: rnr_wait_units = 17'd48;
            5'd12: rnr_wait_units = 17'd64;     5'd13: rnr_wait_units = 17'd96;    5'd14: rnr_wait_units = 17'd128;
            5'd15: rnr_wait_units = 17'd192;    5'd16: rnr_wait_units = 17'd256;   5'd17: rnr_wait_units = 17'd384;
            5'd18: rnr_wait_units = 17'd512;    5'd19: rnr_wait_units = 17'd768;   5'd20: rnr_wait_units = 17'd1024;
            5'd21: rnr_wait_units = 17'd1536;   5'd22: rnr_wait_units = 17'd2048;  5'd23: rnr_wait_units = 17'd3072;
            5'd24: rnr_wait_units = 17'd4096;   5'd25: rnr_wait_units = 17'd6144;  5'd26: rnr_wait_units = 17'd8192;
            5'd27: rnr_wait_units = 17'd12288;  5'd28: rnr_wait_units = 17'd16384; 5'd29: rnr_wait_units = 17'd24576;
            5'd30: rnr_wait_units = 17'd32768;  default: rnr_wait_units = 17'd49152;
        endcase
    end
endfunction

function [7:0] completion_opcode(input [7:0] wqe_opcode);
    begin
        completion_opcode = wqe_opcode == `RDMA_WQE_READ ? `RDMA_WC_RDMA_READ
                          : wqe_opcode == `RDMA_WQE_COMPARE_SWAP ? `RDMA_WC_COMP_SWAP
                          : wqe_opcode == `RDMA_WQE_FETCH_ADD ? `RDMA_WC_FETCH_ADD
                          : (wqe_opcode == `RDMA_WQE_SEND || wqe_opcode == `RDMA_WQE_SEND_IMM) ? `RDMA_WC_SEND : `RDMA_WC_RDMA_WRITE;
    end
endfunction

// ---- Cycle time, for the retransmission timers ----

reg [47:0] now;
always @(posedge clk) begin
    now <= now + 48'd1;
    if (rst) begin
        now <= 48'd0;
    end
end

// ---- QP context in RAM (roce_qp_context): set-up (written by the host) and requester state (by the FSM) ----

localparam CONFIG_WIDTH = 1 + 24 + 48 + 32 + 16 + 3 + 64 + 4 + 5 + 3 + 3;
// error, accepted producer index, next WQE to send, oldest incomplete WQE, next PSN to send,
// oldest unacknowledged PSN, first PSN of the oldest incomplete WQE, PSN to resume sending at,
// end of the PSNs ever sent, retries left, retry in progress and its PSN, timer armed, deadline,
// and the oldest incomplete WQE itself once fetched (valid, opcode, wr_id, local address, length)
// the last producer index refused, RNR retries left and whether an RNR wait is running
localparam STATE_WIDTH = 1 + 16 + 16 + 16 + 24 + 24 + 24 + 24 + 24 + 3 + 1 + 24 + 1 + 48 + 1 + 8 + 64 + 64 + 32 + 1 + 16
                       + 3 + 1;

wire [CONFIG_WIDTH-1:0] config_read;
wire [STATE_WIDTH-1:0]  state_read;

wire                      state_write;
wire [QP_INDEX_WIDTH-1:0] state_write_index;
wire [STATE_WIDTH-1:0]    state_write_data;

// The context RAM is cleared entry by entry after reset; nothing else happens to a QP meanwhile
wire clearing = !cfg_qp_ready;

// The doorbell of each QP: the producer index last rung, read with the context
reg [15:0] qp_doorbell [0:QP_COUNT-1];
reg [15:0] doorbell_read;

// ---- Doorbells and the queue of QPs with work ----

// Each QP waits in the queue at most once (its `queued` bit), so the queue never overflows.
reg [QP_COUNT-1:0]       queued;
reg [QP_INDEX_WIDTH-1:0] ready_queue [0:QP_COUNT-1];
reg [QP_INDEX_WIDTH:0]   ready_write, ready_read;
wire                     ready_empty = ready_write == ready_read;
wire [QP_INDEX_WIDTH-1:0] ready_head = ready_queue[ready_read[QP_INDEX_WIDTH-1:0]];

wire [QP_INDEX_WIDTH-1:0] doorbell_index = doorbell_qpn[QP_INDEX_WIDTH-1:0];
wire doorbell_exists = QP_COUNT == 65536 || doorbell_qpn < QP_COUNT;
wire ready_pop;
wire requeue_request;
wire [QP_INDEX_WIDTH-1:0] requeue_index;
wire doorbell_push = doorbell_valid && doorbell_exists && !clearing
                  && (!queued[doorbell_index] || (ready_pop && ready_head == doorbell_index));
// The FSM puts a QP back only when no doorbell takes the queue's write port that cycle
wire requeue_push = requeue_request && !doorbell_push
                 && (!queued[requeue_index] || (ready_pop && ready_head == requeue_index));
wire requeue_done = requeue_request && !doorbell_push;

always @(posedge clk) begin
    if (doorbell_valid && doorbell_exists && !clearing && !cfg_qp_write) begin
        qp_doorbell[doorbell_index] <= doorbell_producer_index;
    end else if (cfg_qp_write && !clearing) begin
        qp_doorbell[cfg_qp_index] <= 16'd0;
    end
    if (ready_pop) begin
        queued[ready_head] <= 1'b0;
        ready_read <= ready_read + 1'b1;
    end
    if (doorbell_push || requeue_push) begin
        ready_queue[ready_write[QP_INDEX_WIDTH-1:0]] <= doorbell_push ? doorbell_index : requeue_index;
        queued[doorbell_push ? doorbell_index : requeue_index] <= 1'b1;
        ready_write <= ready_write + 1'b1;
    end
    if (rst) begin
        queued <= {QP_COUNT{1'b0}};
        ready_write <= {(QP_INDEX_WIDTH+1){1'b0}};
        ready_read <= {(QP_INDEX_WIDTH+1){1'b0}};
    end
end

// ---- The FSM ----

localparam [4:0] S_IDLE = 5'd0, S_LOAD = 5'd1, S_DECIDE = 5'd2, S_FETCH_WAIT = 5'd4,
                 S_FETCHED = 5'd5, S_RETIRE = 5'd7, S_AFTER_RETIRE = 5'd8, S_READ_DATA = 5'd9,
                 S_READ_STATUS = 5'd10, S_DRAIN = 5'd11, S_COMPLETE = 5'd12, S_ERROR_FLUSH = 5'd13,
                 S_WRITEBACK = 5'd14, S_RETRY = 5'd15, S_RNR_WAIT = 5'd16, S_ATOMIC_DATA = 5'd17,
                 S_HEAD_LOOKUP = 5'd18, S_HEAD_FOUND = 5'd19;
// What the FSM is doing for the QP
localparam [1:0] JOB_SEND = 2'd0, JOB_RESPONSE = 2'd1, JOB_TIMER = 2'd2;
// Why a WQE is being fetched
localparam [1:0] FETCH_SEND = 2'd0, FETCH_HEAD = 2'd1, FETCH_ERROR = 2'd2;

reg [4:0]  state;
reg [1:0]  job;
reg [1:0]  turn;              // whose go it is next, so none of the three starves
reg [1:0]  fetch_purpose;
reg [4:0]  after_complete;
reg        cancelled;          // the host set the QP up again while the FSM worked on it
reg        requeue;            // put the QP back in the ready queue at write-back
reg        write_back;
reg [QP_INDEX_WIDTH-1:0] qp;

// The response being handled
reg [7:0]  response_opcode;
reg [23:0] response_psn;
reg [7:0]  response_syndrome;
reg [12:0] response_payload_bytes;
reg [63:0] response_atomic_original;
reg        response_unknown_qp;
// Where the oldest request stands after the PSNs before this response are acknowledged:
// the acknowledgement reached no further than a READ or atomic still missing its response
reg        retire_blocked_by_read;
// The response acknowledged at least one PSN
reg        progressed;

// The next QP with its ACK timer or RNR wait armed, as each write-back leaves it
wire                      timer_found;
wire [QP_INDEX_WIDTH-1:0] timer_qp;
// The FSM may take up its next job: idle, no set-up in the way, and no WQE prefetch command still
// waiting to be taken (the next job's own fetch would overwrite it)
wire                      fsm_free = state == S_IDLE && !clearing && !cfg_qp_write && !m_wqe_cmd_valid;
wire                      timer_take = fsm_free && turn == JOB_TIMER && timer_found;

// The QP the FSM takes up next is read as it leaves S_IDLE: a response's, the next QP with work,
// or the next with a timer armed, by whose turn it is
wire context_read_request = fsm_free
                         && ((turn == JOB_RESPONSE && s_hdr_valid) || (turn == JOB_SEND && !ready_empty && !m_job_valid)
                             || timer_take);
wire [QP_INDEX_WIDTH-1:0] context_read_index = turn == JOB_RESPONSE ? s_hdr_bth_dest_qp[QP_INDEX_WIDTH-1:0]
                                             : turn == JOB_SEND ? ready_head : timer_qp;

roce_qp_context #(
    .QP_COUNT(QP_COUNT),
    .CONFIG_WIDTH(CONFIG_WIDTH),
    .STATE_WIDTH(STATE_WIDTH)
) context_inst (
    .clk(clk), .rst(rst),
    .ready(cfg_qp_ready),
    .config_write(cfg_qp_write), .config_index(cfg_qp_index),
    .config_data({cfg_qp_valid, cfg_qp_remote_qpn, cfg_qp_remote_mac, cfg_qp_remote_ip, cfg_qp_udp_source_port,
                  cfg_qp_pmtu_code, cfg_qp_sq_base, cfg_qp_sq_log_size, cfg_qp_timeout, cfg_qp_retry_count,
                  cfg_qp_rnr_retry}),
    // A QP starts with an empty send queue at index 0, every PSN at its first, all its retries,
    // no timer, no oldest WQE fetched and no doorbell refused
    .config_initial_state({1'b0, 16'd0, 16'd0, 16'd0, cfg_qp_send_psn, cfg_qp_send_psn, cfg_qp_send_psn,
                           cfg_qp_send_psn, cfg_qp_send_psn, cfg_qp_retry_count, 1'b0, 24'd0, 1'b0, 48'd0,
                           1'b0, 8'd0, 64'd0, 64'd0, 32'd0, 1'b0, 16'd0, cfg_qp_rnr_retry, 1'b0}),
    .state_write(state_write), .state_write_index(state_write_index), .state_write_data(state_write_data),
    .read(context_read_request), .read_index(context_read_index),
    .config_read_data(config_read), .state_read_data(state_read)
);

// Set-up fields of the QP, in the order they are packed
wire        qp_valid;
wire [23:0] qp_remote_qpn;
wire [47:0] qp_remote_mac;
wire [31:0] qp_remote_ip;
wire [15:0] qp_udp_source_port;
wire [2:0]  qp_pmtu_code;
wire [63:0] qp_sq_base;
wire [3:0]  qp_sq_log_size;
wire [4:0]  qp_timeout;
wire [2:0]  qp_retry_count;
wire [2:0]  qp_rnr_retry;
assign {qp_valid, qp_remote_qpn, qp_remote_mac, qp_remote_ip, qp_udp_source_port, qp_pmtu_code, qp_sq_base,
        qp_sq_log_size, qp_timeout, qp_retry_count, qp_rnr_retry} = config_read;
localparam [47:0] RNR_UNIT = RNR_UNIT_CYCLES;
wire [47:0] rnr_wait_cycles = RNR_UNIT * {31'd0, rnr_wait_units(response_syndrome[4:0])};
wire [15:0] qp_sq_entries = 16'd1 << qp_sq_log_size;
wire [15:0] qp_sq_mask = qp_sq_entries - 16'd1;
// IBA local ACK timeout: TIMEOUT_UNIT_CYCLES x 2^timeout
localparam [47:0] TIMEOUT_UNIT = TIMEOUT_UNIT_CYCLES;
wire [47:0] qp_timeout_cycles = TIMEOUT_UNIT << qp_timeout;

// Requester state of the QP, as read, then updated here and written back
reg        qp_error;
reg [15:0] producer_index, next_wqe, oldest_wqe;
reg [23:0] next_psn, unacked_psn, head_first_psn, resume_psn, sent_end_psn;
reg [2:0]  retries_left, rnr_retries_left;
reg        rnr_waiting;
reg        retrying;
reg [23:0] retried_psn;
reg        timer_armed;
reg [47:0] deadline;
reg        head_valid;
reg [7:0]  head_opcode;
reg [63:0] head_wr_id, head_local_address;
reg [31:0] head_length;

reg        refused;
reg [15:0] refused_index;

wire        doorbell_acceptable = doorbell_read - oldest_wqe <= qp_sq_entries
                               && doorbell_read - oldest_wqe >= producer_index - oldest_wqe;
wire [15:0] accepted_producer_index = doorbell_acceptable ? doorbell_read : producer_index;
// The oldest request's packet count, worked out from its length in S_DECIDE (the cycle after the
// state loads, before any S_RETIRE) and as the oldest WQE is taken, so that retiring it adds two
// registers instead of working the count out of the length first: that was the 512-bit engine's
// longest path
reg  [23:0] head_packets;
wire [23:0] head_end_psn = head_first_psn + head_packets;
wire        outstanding = unacked_psn != sent_end_psn;
// Taken in 24 bits, so that it holds across the PSN wrap. After going back N inside a message the
// next PSN is behind the oldest unacknowledged one: that resend is always allowed.
wire [23:0] unacked_psns = next_psn - unacked_psn;
wire        window_open = psn_before(next_psn, unacked_psn) || unacked_psns < MAX_UNACKED_PSNS;

// The fetched WQE
reg [WQE_BYTES*8-1:0] wqe;
reg [$clog2(WQE_BEATS+1)-1:0] wqe_beat;
wire [7:0]  wqe_opcode = wqe[`RDMA_SEND_WQE_OPCODE_LSB +: `RDMA_SEND_WQE_OPCODE_WIDTH];
wire [31:0] wqe_immediate = wqe[`RDMA_SEND_WQE_IMMEDIATE_LSB +: `RDMA_SEND_WQE_IMMEDIATE_WIDTH];
wire [63:0] wqe_wr_id = wqe[`RDMA_SEND_WQE_WR_ID_LSB +: `RDMA_SEND_WQE_WR_ID_WIDTH];
wire [63:0] wqe_local_address = wqe[`RDMA_SEND_WQE_LOCAL_ADDRESS_LSB +: `RDMA_SEND_WQE_LOCAL_ADDRESS_WIDTH];
wire [31:0] wqe_length = wqe[`RDMA_SEND_WQE_LENGTH_LSB +: `RDMA_SEND_WQE_LENGTH_WIDTH];
wire [31:0] wqe_rkey = wqe[`RDMA_SEND_WQE_RKEY_LSB +: `RDMA_SEND_WQE_RKEY_WIDTH];
wire [63:0] wqe_remote_address = wqe[`RDMA_SEND_WQE_REMOTE_ADDRESS_LSB +: `RDMA_SEND_WQE_REMOTE_ADDRESS_WIDTH];
wire [63:0] wqe_compare = wqe[`RDMA_SEND_WQE_COMPARE_LSB +: `RDMA_SEND_WQE_COMPARE_WIDTH];
wire [63:0] wqe_swap_add = wqe[`RDMA_SEND_WQE_SWAP_ADD_LSB +: `RDMA_SEND_WQE_SWAP_ADD_WIDTH];
wire        wqe_atomic = wqe_opcode == `RDMA_WQE_COMPARE_SWAP || wqe_opcode == `RDMA_WQE_FETCH_ADD;
// An atomic's local buffer holds its 8-byte original value, and nothing else will do
wire        wqe_known = wqe_atomic ? wqe_length == 32'd8 : wqe_opcode <= `RDMA_WQE_READ && !wqe_length[31];
// An atomic waits until it is the oldest incomplete request: one outstanding atomic at most
wire        wqe_sendable = wqe_known && (!wqe_atomic || oldest_wqe == next_wqe);
wire [23:0] wqe_packets = packets_of(wqe_length, qp_pmtu_code);

// The next WQE of the QP a WQE was just taken from, fetched ahead (roce_wqe_prefetch): asked for as
// the WQE goes to the segmenter, when the QP has another posted and nothing else is held; looked
// up when the QP is next taken up to send. A WQE held for the QP that is not its next (it went
// back N meanwhile) is dropped then.
wire                  prefetch_empty, prefetch_pending, prefetch_held_for_qp, prefetch_hit;
wire [WQE_BYTES*8-1:0] prefetch_wqe;
wire                  prefetch_issue = state == S_FETCHED && fetch_purpose == FETCH_SEND && wqe_sendable && prefetch_empty
                                    && next_wqe + 16'd1 != producer_index && !cancelled && !cfg_qp_write;
wire                  prefetch_consume = state == S_DECIDE && job == JOB_SEND && prefetch_held_for_qp;

roce_wqe_prefetch #(
    .QP_INDEX_WIDTH(QP_INDEX_WIDTH),
    .DATA_WIDTH(DATA_WIDTH),
    .WQE_BYTES(WQE_BYTES)
) prefetch_inst (
    .clk(clk), .rst(rst),
    .issue(prefetch_issue), .issue_qp(qp), .issue_index(next_wqe + 16'd1),
    .empty(prefetch_empty), .pending(prefetch_pending),
    .s_wqe_tdata(s_wqe_tdata), .s_wqe_tvalid(s_wqe_tvalid), .s_wqe_tlast(s_wqe_tlast),
    .lookup_qp(qp), .lookup_index(next_wqe),
    .held_for_qp(prefetch_held_for_qp), .hit(prefetch_hit), .wqe(prefetch_wqe), .consume(prefetch_consume),
    .forget(cfg_qp_write), .forget_qp(cfg_qp_index)
);

// The WQEs sent lately (roce_sent_wqes): the oldest incomplete one is looked up there first, and
// read from host memory only when it is not kept
wire        sent_found;
wire [7:0]  sent_opcode;
wire [63:0] sent_wr_id, sent_local_address;
wire [31:0] sent_length;
// Every WQE sent is kept (a set-up of another QP that cycle changes nothing here); one of a QP
// being set up again is not: the QP starts afresh and keeps its WQEs as it sends them again
wire        sent_record = state == S_FETCHED && fetch_purpose == FETCH_SEND && wqe_sendable && !cancelled
                       && !(cfg_qp_write && cfg_qp_index == qp);

roce_sent_wqes #(
    .QP_INDEX_WIDTH(QP_INDEX_WIDTH)
) sent_wqes_inst (
    .clk(clk), .rst(rst),
    .record(sent_record), .record_qp(qp), .record_index(next_wqe), .record_opcode(wqe_opcode),
    .record_wr_id(wqe_wr_id), .record_local_address(wqe_local_address), .record_length(wqe_length),
    .lookup(state == S_HEAD_LOOKUP), .lookup_qp(qp), .lookup_index(oldest_wqe),
    .found(sent_found), .found_opcode(sent_opcode), .found_wr_id(sent_wr_id),
    .found_local_address(sent_local_address), .found_length(sent_length)
);

assign m_wqe_cmd_len = WQE_BYTES;
// While a prefetch is pending the stream's next WQE is the prefetch's
assign s_wqe_tready = state == S_FETCH_WAIT || prefetch_pending;

// READ responses: bytes of the oldest request already in memory, bytes still to come, and what the
// next response must carry. Registered, so that S_AFTER_RETIRE compares a response with them
// rather than working them out first: S_AFTER_RETIRE is entered only from S_RETIRE, which moves
// none of their inputs (the oldest unacknowledged PSN, the oldest request's first PSN and length,
// the QP's PMTU) when the oldest request is a READ, so in S_AFTER_RETIRE they equal what the wires
// would say; with any other request as the oldest they are not looked at.
wire [31:0] pmtu_bytes = 32'd256 << qp_pmtu_code;
wire [31:0] read_received_now = {8'd0, unacked_psn - head_first_psn} << (4'd8 + {1'b0, qp_pmtu_code});
wire [31:0] read_left_now = head_length - read_received_now;
reg  [31:0] read_received, read_left, read_expected_bytes;
always @(posedge clk) begin
    read_received <= read_received_now;
    read_left <= read_left_now;
    read_expected_bytes <= read_left_now > pmtu_bytes ? pmtu_bytes : read_left_now;
end
// What the response is, from the shared decoder
wire        response_is_read, response_is_acknowledge, response_is_atomic_acknowledge, response_starts_message,
            response_ends_message;

roce_opcode_info opcode_info_inst (
    .opcode(response_opcode),
    .known(), .has_reth(), .has_aeth(), .has_immdt(), .has_payload(), .full_pmtu(),
    .starts_message(response_starts_message), .ends_message(response_ends_message), .is_send(), .is_write(),
    .is_read_request(), .is_atomic(), .is_read_response(response_is_read), .is_acknowledge(response_is_acknowledge),
    .is_atomic_acknowledge(response_is_atomic_acknowledge),
    .is_request(), .is_response(), .is_cnp(), .transport_header_bytes()
);

wire        response_starts = response_is_read && response_starts_message;
wire        response_ends = response_is_read && response_ends_message;
wire        read_response_fits = {19'd0, response_payload_bytes} == read_expected_bytes
                              && response_ends == (read_left == {19'd0, response_payload_bytes})
                              && (read_received != 32'd0 || response_starts);
wire        is_ack = response_is_acknowledge && response_syndrome[6:5] == `ROCE_AETH_CLASS_ACK;
wire        has_payload = response_payload_bytes != 13'd0;
// The oldest request is answered by responses of its own (a READ's, an atomic's), not by ACKs
wire        head_has_responses = head_opcode == `RDMA_WQE_READ || head_opcode == `RDMA_WQE_COMPARE_SWAP
                              || head_opcode == `RDMA_WQE_FETCH_ADD;
wire        head_is_atomic = head_opcode == `RDMA_WQE_COMPARE_SWAP || head_opcode == `RDMA_WQE_FETCH_ADD;
// The response answers the oldest request: its next READ response, or its ATOMIC_ACKNOWLEDGE
wire        response_answers_head = head_valid && response_psn == unacked_psn
                                 && (response_is_atomic_acknowledge ? head_is_atomic
                                                                    : head_opcode == `RDMA_WQE_READ && read_response_fits);

assign s_hdr_ready = fsm_free && turn == JOB_RESPONSE;
// The job register is the segmenter's one-deep queue: a QP is taken for sending only when it is
// free, so the next WQE is fetched while the segmenter cuts the last one, and the FSM never
// waits on the segmenter (which waits on the MAC) with responses queued behind it.
assign ready_pop = fsm_free && turn == JOB_SEND && !ready_empty && !m_job_valid;
assign s_payload_tready = state == S_DRAIN || (state == S_READ_DATA && m_write_data_tready);
// A READ response's payload as it arrives, or an atomic's original value as one beat
wire   writing_atomic = state == S_ATOMIC_DATA;
assign m_write_data_tvalid = (state == S_READ_DATA && s_payload_tvalid) || writing_atomic;
assign m_write_data_tdata = writing_atomic ? {{(DATA_WIDTH-64){1'b0}}, response_atomic_original} : s_payload_tdata;
assign m_write_data_tkeep = writing_atomic ? {{(KEEP_WIDTH-8){1'b0}}, 8'hFF} : s_payload_tkeep;
assign m_write_data_tlast = writing_atomic || s_payload_tlast;

assign state_write = state == S_WRITEBACK && write_back && !cancelled && !cfg_qp_write && !clearing;
assign state_write_index = qp;
assign state_write_data = {qp_error, producer_index, next_wqe, oldest_wqe, next_psn, unacked_psn, head_first_psn,
                           resume_psn, sent_end_psn, retries_left, retrying, retried_psn, timer_armed, deadline,
                           head_valid, head_opcode, head_wr_id, head_local_address, head_length, refused,
                           refused_index, rnr_retries_left, rnr_waiting};

roce_timer_scan #(
    .QP_COUNT(QP_COUNT)
) timer_scan_inst (
    .clk(clk), .rst(rst),
    // A QP set up again starts with no timer
    .mark_valid(state_write || cfg_qp_write),
    .mark_index(cfg_qp_write ? cfg_qp_index : state_write_index),
    .mark_armed(!cfg_qp_write && (timer_armed || rnr_waiting)),
    .found_valid(timer_found), .found_index(timer_qp), .take(timer_take)
);
// Only a QP with posted WQEs not yet sent goes back in the queue
assign requeue_request = state == S_WRITEBACK && requeue && !cancelled && !qp_error && next_wqe != producer_index;
assign requeue_index = qp;

task complete(input [7:0] opcode, input [31:0] byte_len, input [63:0] wr_id, input [7:0] status, input [4:0] next);
    begin
        m_cqe_valid <= 1'b1;
        m_cqe_wr_id <= wr_id;
        m_cqe_byte_len <= status == `RDMA_WC_SUCCESS ? byte_len : 32'd0;
        m_cqe_qpn <= {{(24-QP_INDEX_WIDTH){1'b0}}, qp};
        m_cqe_opcode <= opcode;
        m_cqe_status <= status;
        event_completion_error <= status != `RDMA_WC_SUCCESS;
        after_complete <= next;
        state <= S_COMPLETE;
    end
endtask

// Ask the DMA reader for the QP's WQE at `index`
task ask_for_wqe(input [15:0] index);
    begin
        m_wqe_cmd_addr <= qp_sq_base + ({48'd0, index & qp_sq_mask} << WQE_ADDRESS_SHIFT);
        m_wqe_cmd_valid <= 1'b1;
    end
endtask

task fetch(input [15:0] index, input [1:0] purpose);
    begin
        ask_for_wqe(index);
        fetch_purpose <= purpose;
        wqe_beat <= 0;
        state <= S_FETCH_WAIT;
    end
endtask

// The QP's oldest incomplete WQE, kept in its state for the completion (its packet count worked
// out here, ahead of the retire that adds it to the first PSN)
task take_head(input [7:0] opcode, input [63:0] wr_id, input [63:0] local_address, input [31:0] length);
    begin
        head_valid <= 1'b1;
        head_opcode <= opcode;
        head_wr_id <= wr_id;
        head_local_address <= local_address;
        head_length <= length;
        head_packets <= packets_of(length, qp_pmtu_code);
    end
endtask

// Every acknowledged PSN gives the retries back and restarts the timer (IBA: on progress)
task made_progress;
    begin
        progressed <= 1'b1;
        retries_left <= qp_retry_count;
        rnr_retries_left <= qp_rnr_retry;
        retrying <= 1'b0;
        requeue <= 1'b1;
    end
endtask

always @(posedge clk) begin
    event_doorbell_rejected <= 1'b0;
    event_ack_received <= 1'b0;
    event_nak_received <= 1'b0;
    event_response_dropped <= 1'b0;
    event_timeout <= 1'b0;
    event_retry <= 1'b0;
    event_rnr_nak_received <= 1'b0;
    event_completion_error <= 1'b0;

    if (m_wqe_cmd_valid && m_wqe_cmd_ready) begin
        m_wqe_cmd_valid <= 1'b0;
    end
    if (m_write_cmd_valid && m_write_cmd_ready) begin
        m_write_cmd_valid <= 1'b0;
    end
    if (m_job_valid && m_job_ready) begin
        m_job_valid <= 1'b0;
    end
    if (m_cqe_valid && m_cqe_ready) begin
        m_cqe_valid <= 1'b0;
    end
    if (cfg_qp_write && cfg_qp_index == qp && state != S_IDLE) begin
        cancelled <= 1'b1;
    end
    if (doorbell_valid && (!doorbell_exists || clearing)) begin
        event_doorbell_rejected <= 1'b1;
    end

    case (state)
        S_IDLE: begin
            cancelled <= 1'b0;
            requeue <= 1'b0;
            write_back <= 1'b0;
            if (fsm_free) begin
                turn <= turn == JOB_TIMER ? JOB_SEND : turn + 2'd1;
                job <= turn;
                if (turn == JOB_RESPONSE && s_hdr_valid) begin
                    qp <= s_hdr_bth_dest_qp[QP_INDEX_WIDTH-1:0];
                    response_opcode <= s_hdr_bth_opcode;
                    response_psn <= s_hdr_bth_psn;
                    response_syndrome <= s_hdr_aeth_syndrome;
                    response_payload_bytes <= s_hdr_payload_bytes;
                    response_atomic_original <= s_hdr_atomic_original;
                    response_unknown_qp <= s_hdr_bth_dest_qp[23:QP_INDEX_WIDTH] != {(24-QP_INDEX_WIDTH){1'b0}};
                    doorbell_read <= qp_doorbell[s_hdr_bth_dest_qp[QP_INDEX_WIDTH-1:0]];
                    state <= S_LOAD;
                end else if (turn == JOB_SEND && !ready_empty && !m_job_valid) begin
                    qp <= ready_head;
                    doorbell_read <= qp_doorbell[ready_head];
                    state <= S_LOAD;
                end else if (timer_take) begin
                    qp <= timer_qp;
                    doorbell_read <= qp_doorbell[timer_qp];
                    state <= S_LOAD;
                end
            end
        end
        S_LOAD: begin
            {qp_error, producer_index, next_wqe, oldest_wqe, next_psn, unacked_psn, head_first_psn, resume_psn,
             sent_end_psn, retries_left, retrying, retried_psn, timer_armed, deadline, head_valid, head_opcode,
             head_wr_id, head_local_address, head_length, refused, refused_index, rnr_retries_left,
             rnr_waiting} <= state_read;
            state <= S_DECIDE;
        end
        S_DECIDE: begin
            head_packets <= packets_of(head_length, qp_pmtu_code);
            write_back <= 1'b1;
            case (job)
                JOB_RESPONSE: begin
                    if (!qp_valid || qp_error || response_unknown_qp
                            || !(response_is_read || response_is_acknowledge || response_is_atomic_acknowledge)
                            // Only PSNs from the oldest unacknowledged to the last sent are answers
                            || (response_psn - unacked_psn) >= (sent_end_psn - unacked_psn)) begin
                        event_response_dropped <= 1'b1;
                        write_back <= 1'b0;
                        after_complete <= S_WRITEBACK;
                        state <= has_payload ? S_DRAIN : S_WRITEBACK;
                    end else begin
                        event_ack_received <= is_ack;
                        event_nak_received <= response_is_acknowledge && !is_ack;
                        retire_blocked_by_read <= 1'b0;
                        progressed <= 1'b0;
                        state <= S_RETIRE;
                    end
                end
                JOB_TIMER: begin
                    if (qp_valid && !qp_error && rnr_waiting && (now - deadline) < 48'h800000000000) begin
                        // The RNR wait is over: send again from where the RNR NAK pointed
                        rnr_waiting <= 1'b0;
                        deadline <= now + qp_timeout_cycles;
                        requeue <= 1'b1;
                        state <= S_WRITEBACK;
                    end else if (qp_valid && !qp_error && !rnr_waiting && outstanding && timer_armed
                                 && qp_timeout != 5'd0 && (now - deadline) < 48'h800000000000) begin
                        event_timeout <= 1'b1;
                        state <= S_RETRY;
                    end else begin
                        write_back <= 1'b0;
                        state <= S_WRITEBACK;
                    end
                end
                default: begin  // JOB_SEND
                    // A producer index that claims more WQEs than the ring holds, or moves back,
                    // is refused (counted once): the QP keeps the last one it accepted
                    if (!doorbell_acceptable) begin
                        event_doorbell_rejected <= !(refused && refused_index == doorbell_read);
                        refused <= 1'b1;
                        refused_index <= doorbell_read;
                    end else begin
                        producer_index <= doorbell_read;
                    end
                    state <= S_WRITEBACK;
                    if (!qp_valid) begin
                        event_doorbell_rejected <= 1'b1;
                        write_back <= 1'b0;
                    end else if (qp_error) begin
                        state <= S_ERROR_FLUSH;
                    end else if (next_wqe != accepted_producer_index && window_open && !rnr_waiting) begin
                        if (prefetch_hit) begin
                            // Fetched ahead when the WQE before it was taken
                            wqe <= prefetch_wqe;
                            fetch_purpose <= FETCH_SEND;
                            state <= S_FETCHED;
                        end else begin
                            fetch(next_wqe, FETCH_SEND);
                        end
                    end
                end
            endcase
        end
        S_FETCH_WAIT: begin
            if (s_wqe_tvalid && !prefetch_pending) begin
                wqe[wqe_beat * LANE_BITS +: LANE_BITS] <= s_wqe_tdata[LANE_BITS-1:0];
                wqe_beat <= wqe_beat + 1'b1;
                if (s_wqe_tlast) begin
                    state <= S_FETCHED;
                end
            end
        end
        S_FETCHED: begin
            case (fetch_purpose)
                FETCH_HEAD: begin
                    take_head(wqe_opcode, wqe_wr_id, wqe_local_address, wqe_length);
                    state <= S_RETIRE;
                end
                FETCH_ERROR: begin
                    // The oldest request ends with the error; every one after it is flushed
                    oldest_wqe <= oldest_wqe + 16'd1;
                    complete(completion_opcode(wqe_opcode), 32'd0, wqe_wr_id,
                             head_valid ? m_cqe_status : `RDMA_WC_WR_FLUSH_ERR, S_ERROR_FLUSH);
                    head_valid <= 1'b0;
                end
                default: begin  // FETCH_SEND
                    if (wqe_known && !wqe_sendable) begin
                        // An atomic behind incomplete requests: taken up again as they complete
                        state <= S_WRITEBACK;
                    end else if (!wqe_known) begin
                        // A WQE the requester cannot carry out: once everything before it is
                        // complete, it fails and the QP enters the error state
                        if (oldest_wqe == next_wqe) begin
                            qp_error <= 1'b1;
                            head_valid <= 1'b1;
                            m_cqe_status <= `RDMA_WC_LOC_QP_OP_ERR;
                            state <= S_ERROR_FLUSH;
                        end else begin
                            state <= S_WRITEBACK;
                        end
                    end else begin
                        m_job_valid <= 1'b1;
                        m_job_read <= wqe_opcode == `RDMA_WQE_READ;
                        m_job_send <= wqe_opcode == `RDMA_WQE_SEND || wqe_opcode == `RDMA_WQE_SEND_IMM;
                        m_job_with_immediate <= wqe_opcode == `RDMA_WQE_SEND_IMM || wqe_opcode == `RDMA_WQE_WRITE_IMM;
                        m_job_atomic <= wqe_atomic;
                        m_job_fetch_add <= wqe_opcode == `RDMA_WQE_FETCH_ADD;
                        m_job_swap_add <= wqe_swap_add;
                        m_job_compare <= wqe_compare;
                        m_job_dest_mac <= qp_remote_mac;
                        m_job_dest_ip <= qp_remote_ip;
                        m_job_udp_source_port <= qp_udp_source_port;
                        m_job_dest_qp <= qp_remote_qpn;
                        m_job_qpn <= qp;
                        m_job_pmtu_code <= qp_pmtu_code;
                        m_job_local_address <= wqe_local_address;
                        m_job_remote_address <= wqe_remote_address;
                        m_job_rkey <= wqe_rkey;
                        m_job_length <= wqe_length;
                        m_job_immediate <= wqe_immediate;
                        m_job_first_psn <= next_psn;
                        // Going back N inside a message: its packets before resume_psn were acknowledged
                        m_job_first_packet <= psn_before(next_psn, resume_psn) && psn_before(resume_psn, next_psn + wqe_packets)
                                              ? resume_psn - next_psn : 24'd0;
                        m_job_resend_end_psn <= sent_end_psn;
                        if (oldest_wqe == next_wqe && !head_valid) begin
                            take_head(wqe_opcode, wqe_wr_id, wqe_local_address, wqe_length);
                        end
                        next_wqe <= next_wqe + 16'd1;
                        next_psn <= next_psn + wqe_packets;
                        if (psn_before(sent_end_psn, next_psn + wqe_packets)) begin
                            sent_end_psn <= next_psn + wqe_packets;
                        end
                        if (!timer_armed) begin
                            timer_armed <= 1'b1;
                            deadline <= now + qp_timeout_cycles;
                        end
                        // Its next WQE, if any, waits for the other QPs' turns, and is fetched
                        // meanwhile
                        requeue <= 1'b1;
                        if (prefetch_issue) begin
                            ask_for_wqe(next_wqe + 16'd1);
                        end
                        state <= S_WRITEBACK;
                    end
                end
            endcase
        end
        S_RETIRE: begin
            // Complete the oldest requests the acknowledgement covers: every PSN before
            // this response's own, and for an ACK its own too
            if (!psn_before(unacked_psn, is_ack ? response_psn + 24'd1 : response_psn)) begin
                state <= S_AFTER_RETIRE;
            end else if (!head_valid) begin
                state <= S_HEAD_LOOKUP;
            end else if (head_has_responses) begin
                retire_blocked_by_read <= 1'b1;
                state <= S_AFTER_RETIRE;
            end else if (!psn_before(is_ack ? response_psn + 24'd1 : response_psn, head_end_psn)) begin
                unacked_psn <= head_end_psn;
                head_first_psn <= head_end_psn;
                head_valid <= 1'b0;
                oldest_wqe <= oldest_wqe + 16'd1;
                // A request acknowledged before it was sent again need not be sent again
                if (next_wqe == oldest_wqe) begin
                    next_wqe <= next_wqe + 16'd1;
                    next_psn <= head_end_psn;
                end
                made_progress;
                complete(completion_opcode(head_opcode), head_length, head_wr_id, `RDMA_WC_SUCCESS, S_RETIRE);
            end else begin
                unacked_psn <= is_ack ? response_psn + 24'd1 : response_psn;
                made_progress;
                state <= S_AFTER_RETIRE;
            end
        end
        S_AFTER_RETIRE: begin
            // The timer restarts when an acknowledgement moved things on and more is outstanding
            if (progressed) begin
                timer_armed <= outstanding;
                deadline <= now + qp_timeout_cycles;
            end
            if (response_is_read || response_is_atomic_acknowledge) begin
                if (!head_valid && outstanding) begin
                    state <= S_HEAD_LOOKUP;
                end else if (response_answers_head && response_is_atomic_acknowledge) begin
                    m_write_cmd_addr <= head_local_address;
                    m_write_cmd_len <= 16'd8;
                    m_write_cmd_valid <= 1'b1;
                    state <= S_ATOMIC_DATA;
                end else if (response_answers_head) begin
                    if (has_payload) begin
                        m_write_cmd_addr <= head_local_address + {32'd0, read_received};
                        m_write_cmd_len <= {3'd0, response_payload_bytes};
                        m_write_cmd_valid <= 1'b1;
                        state <= S_READ_DATA;
                    end else begin
                        state <= S_READ_STATUS;
                    end
                end else if (psn_before(unacked_psn, response_psn)) begin
                    // Responses before this one are missing
                    after_complete <= S_RETRY;
                    state <= has_payload ? S_DRAIN : S_RETRY;
                end else begin
                    event_response_dropped <= 1'b1;
                    after_complete <= S_WRITEBACK;
                    state <= has_payload ? S_DRAIN : S_WRITEBACK;
                end
            end else if (retire_blocked_by_read) begin
                state <= S_RETRY;
            end else if (is_ack) begin
                state <= S_WRITEBACK;
            end else if (response_syndrome == `ROCE_AETH_NAK_INVALID_REQUEST || response_syndrome == `ROCE_AETH_NAK_REMOTE_ACCESS
                         || response_syndrome == `ROCE_AETH_NAK_REMOTE_OPERATIONAL) begin
                qp_error <= 1'b1;
                m_cqe_status <= response_syndrome == `ROCE_AETH_NAK_INVALID_REQUEST ? `RDMA_WC_REM_INV_REQ_ERR
                              : response_syndrome == `ROCE_AETH_NAK_REMOTE_ACCESS ? `RDMA_WC_REM_ACCESS_ERR : `RDMA_WC_REM_OP_ERR;
                head_valid <= 1'b1;  // marks the first flushed completion as the one with the error
                state <= S_ERROR_FLUSH;
            end else if (response_syndrome[6:5] == `ROCE_AETH_CLASS_RNR_NAK) begin
                event_rnr_nak_received <= 1'b1;
                state <= S_RNR_WAIT;
            end else begin
                // PSN sequence error: go back to the oldest unacknowledged PSN
                state <= S_RETRY;
            end
        end
        S_HEAD_LOOKUP: begin
            state <= S_HEAD_FOUND;
        end
        S_HEAD_FOUND: begin
            // The oldest incomplete WQE, as it was sent, or read again from the send queue
            if (sent_found) begin
                take_head(sent_opcode, sent_wr_id, sent_local_address, sent_length);
                state <= S_RETIRE;
            end else begin
                fetch(oldest_wqe, FETCH_HEAD);
            end
        end
        S_READ_DATA: begin
            if (s_payload_tvalid && s_payload_tready && s_payload_tlast) begin
                state <= S_READ_STATUS;
            end
        end
        S_ATOMIC_DATA: begin
            if (m_write_data_tready) begin
                state <= S_READ_STATUS;
            end
        end
        S_READ_STATUS: begin
            // The completion promises the data is in memory: wait for the write responses
            if (write_status_valid || !(has_payload || response_is_atomic_acknowledge)) begin
                unacked_psn <= response_psn + 24'd1;
                made_progress;
                timer_armed <= psn_before(response_psn + 24'd1, sent_end_psn);
                deadline <= now + qp_timeout_cycles;
                if (write_status_valid && write_status_error) begin
                    qp_error <= 1'b1;
                    m_cqe_status <= `RDMA_WC_LOC_QP_OP_ERR;
                    state <= S_ERROR_FLUSH;
                end else if (response_ends || response_is_atomic_acknowledge) begin
                    head_valid <= 1'b0;
                    head_first_psn <= response_psn + 24'd1;
                    oldest_wqe <= oldest_wqe + 16'd1;
                    if (next_wqe == oldest_wqe) begin
                        next_wqe <= next_wqe + 16'd1;
                        next_psn <= response_psn + 24'd1;
                    end
                    complete(completion_opcode(head_opcode), head_length, head_wr_id, `RDMA_WC_SUCCESS, S_WRITEBACK);
                end else begin
                    state <= S_WRITEBACK;
                end
            end
        end
        S_RETRY: begin
            if (job != JOB_TIMER && retrying && retried_psn == unacked_psn) begin
                // Already going back to this PSN: a second NAK for it costs nothing
                state <= S_WRITEBACK;
            end else if (retries_left == 3'd0) begin
                qp_error <= 1'b1;
                head_valid <= 1'b1;
                m_cqe_status <= `RDMA_WC_RETRY_EXC_ERR;
                state <= S_ERROR_FLUSH;
            end else begin
                event_retry <= 1'b1;
                retries_left <= retries_left - 3'd1;
                retrying <= 1'b1;
                retried_psn <= unacked_psn;
                next_wqe <= oldest_wqe;
                next_psn <= head_first_psn;
                resume_psn <= unacked_psn;
                timer_armed <= 1'b1;
                deadline <= now + qp_timeout_cycles;
                requeue <= 1'b1;
                state <= S_WRITEBACK;
            end
        end
        S_RNR_WAIT: begin
            requeue <= 1'b0;
            if (qp_rnr_retry != RNR_RETRY_WITHOUT_END && rnr_retries_left == 3'd0) begin
                qp_error <= 1'b1;
                head_valid <= 1'b1;
                m_cqe_status <= `RDMA_WC_RNR_RETRY_EXC_ERR;
                state <= S_ERROR_FLUSH;
            end else begin
                if (qp_rnr_retry != RNR_RETRY_WITHOUT_END) begin
                    rnr_retries_left <= rnr_retries_left - 3'd1;
                end
                // Nothing was executed from the NAK's PSN on: send it again after the wait
                next_wqe <= oldest_wqe;
                next_psn <= head_first_psn;
                resume_psn <= unacked_psn;
                rnr_waiting <= 1'b1;
                timer_armed <= 1'b1;
                deadline <= now + rnr_wait_cycles;
                state <= S_WRITEBACK;
            end
        end
        S_ERROR_FLUSH: begin
            // head_valid here marks "the next completion carries the error status"
            if (oldest_wqe == producer_index) begin
                next_wqe <= producer_index;
                head_valid <= 1'b0;
                timer_armed <= 1'b0;
                rnr_waiting <= 1'b0;
                state <= S_WRITEBACK;
            end else begin
                fetch(oldest_wqe, FETCH_ERROR);
            end
        end
        S_COMPLETE: begin
            if (!m_cqe_valid || m_cqe_ready) begin
                state <= after_complete;
            end
        end
        S_DRAIN: begin
            if (s_payload_tvalid && s_payload_tlast) begin
                state <= after_complete;
            end
        end
        default: begin  // S_WRITEBACK
            if ((state_write || !write_back || cancelled) && (!requeue_request || requeue_done)) begin
                state <= S_IDLE;
            end
        end
    endcase

    if (rst) begin
        state <= S_IDLE;
        turn <= JOB_SEND;
        m_wqe_cmd_valid <= 1'b0;
        m_write_cmd_valid <= 1'b0;
        m_job_valid <= 1'b0;
        m_cqe_valid <= 1'b0;
        cancelled <= 1'b0;
        requeue <= 1'b0;
        write_back <= 1'b0;
    end
end

endmodule

`resetall
