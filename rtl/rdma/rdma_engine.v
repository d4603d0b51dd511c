// SPDX-FileCopyrightText: 2026 dpuv contributors
// SPDX-License-Identifier: Apache-2.0
// RDMA engine top: a RoCEv2 RC requester and responder on one MAC port and one AXI4 host memory port
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "roce_defs.vh"
`include "rdma_host_interface.vh"

// Receive: roce_rx_parser -> roce_rx_filter (only frames for this node's address and partitions)
// -> roce_rx_demux -> requests to roce_responder, responses (ACK, NAK, READ responses) to
// roce_requester; roce_cnp_notifier watches every accepted frame for ECN CE. Transmit: the
// responder's ACKs and READ responses (and the notifier's CNPs, which take the responder's
// builder between its frames) and the requester's requests (cut by roce_segmenter, paced by
// roce_rate_control for QPs with a DCQCN reaction point) each have a frame builder; whole frames share the MAC through a round-robin multiplexer. Host memory (rdma_host_memory): seven DMA engines
// (WRITE and SEND payloads in, READ response payloads out, READ data back in, request payloads
// out, WQE and receive WQE fetches, completion entries) share one AXI4 master. The MAC side never sees
// backpressure on receive: the parser buffers, and drops (and counts) what does not fit.
module rdma_engine #(
    // Width of the MAC streams and the memory bus in bits (64 to 512, a power of two)
    parameter DATA_WIDTH = 64,
    // Queue pairs in the context RAM (a power of two)
    parameter QP_COUNT = 1024,
    // Registered memory regions (a power of two)
    parameter MR_COUNT = 16,
    // Receive buffer for payloads in bytes (a power of two, at least one 4 KiB packet): bursts a
    // peer sends faster than the responder executes them wait here (beyond it they are dropped,
    // counted, and recovered by the peer's go-back-N)
    parameter RX_BUFFER_BYTES = 65536,
    // Packets the receive buffer holds headers for (a power of two)
    parameter RX_BUFFER_PACKETS = 128,
    // Executed atomics the responder keeps per QP, to answer their duplicates (a power of two, at
    // least 2): the engine's max_dest_rd_atomic (CAPS2.atomic_results)
    parameter ATOMIC_RESULTS = 4,
    // The IBA timeout unit, 4.096 us, in clock cycles (1024 at 250 MHz)
    parameter TIMEOUT_UNIT_CYCLES = 1024,
    // The RNR timer unit, 10 us, in clock cycles (2500 at 250 MHz)
    parameter RNR_UNIT_CYCLES = 2500,
    // The clock period in ps, for the DCQCN timers (it must divide 8 000 000; 4000: 250 MHz)
    parameter CLOCK_PERIOD_PS = 4000,
    // QPs with a DCQCN reaction point that paces their requests, from DCQCN_CTRL.first_qpn on (a
    // power of two, at most QP_COUNT; 0: none)
    parameter RATE_LIMITED_QPS = 4,
    // Byte address of the next block in the register-block chain (0: none)
    parameter [31:0] NEXT_BLOCK_ADDRESS = 32'd0
) (
    input  wire                          clk,
    input  wire                          rst,

    // Registers (rtl/rdma/regs/rdma_engine.rdl): set-up, doorbell, completion queue, regions, counters
    input  wire [11:0]                   s_axil_awaddr,
    input  wire [2:0]                    s_axil_awprot,
    input  wire                          s_axil_awvalid,
    output wire                          s_axil_awready,
    input  wire [31:0]                   s_axil_wdata,
    input  wire [3:0]                    s_axil_wstrb,
    input  wire                          s_axil_wvalid,
    output wire                          s_axil_wready,
    output wire [1:0]                    s_axil_bresp,
    output wire                          s_axil_bvalid,
    input  wire                          s_axil_bready,
    input  wire [11:0]                   s_axil_araddr,
    input  wire [2:0]                    s_axil_arprot,
    input  wire                          s_axil_arvalid,
    output wire                          s_axil_arready,
    output wire [31:0]                   s_axil_rdata,
    output wire [1:0]                    s_axil_rresp,
    output wire                          s_axil_rvalid,
    input  wire                          s_axil_rready,

    // From the MAC: frames without FCS, tuser on the last beat for a MAC error; never stalled
    input  wire [DATA_WIDTH-1:0]         s_axis_rx_tdata,
    input  wire [DATA_WIDTH/8-1:0]       s_axis_rx_tkeep,
    input  wire                          s_axis_rx_tvalid,
    input  wire                          s_axis_rx_tlast,
    input  wire                          s_axis_rx_tuser,

    // To the MAC: frames without FCS
    output wire [DATA_WIDTH-1:0]         m_axis_tx_tdata,
    output wire [DATA_WIDTH/8-1:0]       m_axis_tx_tkeep,
    output wire                          m_axis_tx_tvalid,
    input  wire                          m_axis_tx_tready,
    output wire                          m_axis_tx_tlast,

    // Host memory
    output wire [3:0]                    m_axi_awid,
    output wire [63:0]                   m_axi_awaddr,
    output wire [7:0]                    m_axi_awlen,
    output wire [2:0]                    m_axi_awsize,
    output wire [1:0]                    m_axi_awburst,
    output wire                          m_axi_awlock,
    output wire [3:0]                    m_axi_awcache,
    output wire [2:0]                    m_axi_awprot,
    output wire                          m_axi_awvalid,
    input  wire                          m_axi_awready,
    output wire [DATA_WIDTH-1:0]         m_axi_wdata,
    output wire [DATA_WIDTH/8-1:0]       m_axi_wstrb,
    output wire                          m_axi_wlast,
    output wire                          m_axi_wvalid,
    input  wire                          m_axi_wready,
    input  wire [3:0]                    m_axi_bid,
    input  wire [1:0]                    m_axi_bresp,
    input  wire                          m_axi_bvalid,
    output wire                          m_axi_bready,
    output wire [3:0]                    m_axi_arid,
    output wire [63:0]                   m_axi_araddr,
    output wire [7:0]                    m_axi_arlen,
    output wire [2:0]                    m_axi_arsize,
    output wire [1:0]                    m_axi_arburst,
    output wire                          m_axi_arlock,
    output wire [3:0]                    m_axi_arcache,
    output wire [2:0]                    m_axi_arprot,
    output wire                          m_axi_arvalid,
    input  wire                          m_axi_arready,
    input  wire [3:0]                    m_axi_rid,
    input  wire [DATA_WIDTH-1:0]         m_axi_rdata,
    input  wire [1:0]                    m_axi_rresp,
    input  wire                          m_axi_rlast,
    input  wire                          m_axi_rvalid,
    output wire                          m_axi_rready,

    // Doorbells from the node's own engines (the collective engine), meaning what a write of
    // SQ_DOORBELL or RQ_DOORBELL means. A register doorbell has the cycle when both come; the port's
    // waits for the next one
    input  wire                          s_sq_doorbell_valid,
    output wire                          s_sq_doorbell_ready,
    input  wire [15:0]                   s_sq_doorbell_qpn,
    input  wire [15:0]                   s_sq_doorbell_producer_index,
    input  wire                          s_rq_doorbell_valid,
    output wire                          s_rq_doorbell_ready,
    input  wire [15:0]                   s_rq_doorbell_qpn,
    input  wire [15:0]                   s_rq_doorbell_producer_index,

    // Completions, send and receive, of the QPs in OFFLOAD_QPS: the fields of a completion entry.
    // The completion queue in host memory never sees them; a stalled port holds them back
    output wire                          m_completion_valid,
    input  wire                          m_completion_ready,
    output wire [63:0]                   m_completion_wr_id,
    output wire [31:0]                   m_completion_byte_len,
    output wire [31:0]                   m_completion_immediate,
    output wire                          m_completion_immediate_valid,
    output wire [23:0]                   m_completion_qpn,
    output wire [7:0]                    m_completion_opcode,
    output wire [7:0]                    m_completion_status
);

localparam KEEP_WIDTH = DATA_WIDTH / 8;
localparam QP_INDEX_WIDTH = $clog2(QP_COUNT);
// The P_Key table's entries: PKEY_0 to PKEY_3 in the registers
localparam PKEY_ENTRIES = 4;

// ---- Registers ----

wire [12:0] pmtu_bytes;
wire [31:0] local_mac_low, local_ip, qp_remote_mac_low, qp_remote_ip, mr_rkey, mr_base_low, mr_base_high, mr_length,
            qp_sq_base_low, qp_sq_base_high, cq_base_low, cq_base_high, qp_rq_base_low, qp_rq_base_high;
wire [15:0] pkey_0, pkey_1, pkey_2, pkey_3;
wire [15:0] local_mac_high, qp_remote_mac_high, qp_index, qp_udp_source_port, doorbell_producer_index, doorbell_qpn,
            cq_consumer_index, cq_producer_index, rq_doorbell_producer_index, rq_doorbell_qpn,
            offload_first_qpn, offload_qp_count;
wire [23:0] qp_remote_qpn, qp_expected_psn, qp_send_psn;
wire [7:0]  mr_index;
wire [3:0]  qp_sq_log_size, cq_log_size, qp_rq_log_size;
wire [2:0]  qp_pmtu_code, qp_retry_count, qp_rnr_retry;
wire [4:0]  qp_timeout;
wire        responder_qp_ready, requester_qp_ready, qp_valid, qp_commit, mr_valid, mr_remote_write, mr_remote_read,
            mr_remote_atomic, mr_commit, doorbell_written, cq_restart, rq_doorbell_written;
wire        send_ect, cnp_notify, dcqcn_enable;
wire [19:0] dcqcn_line_rate, dcqcn_min_rate, dcqcn_ai_rate, dcqcn_hai_rate, dcqcn_current_rate, dcqcn_target_rate;
wire [10:0] dcqcn_initial_alpha, dcqcn_alpha_gain, dcqcn_alpha;
wire [31:0] dcqcn_alpha_period, dcqcn_increase_period, dcqcn_byte_counter;
wire [7:0]  dcqcn_fast_recovery;
wire [15:0] dcqcn_observe_qpn, dcqcn_first_qpn;
wire [1:0]  dcqcn_stage;
wire [5:0]  cnp_dscp;
wire [31:0] cnp_interval_cycles;

// The event counters' slots, by name: each one's increment and its register are wired by the same name
localparam COUNTERS = 36;
localparam COUNTER_RX_FRAMES = 0, COUNTER_RX_BYTES = 1, COUNTER_RX_FRAMES_GOOD = 2, COUNTER_TX_FRAMES = 3,
           COUNTER_TX_BYTES = 4, COUNTER_ACKS_SENT = 5, COUNTER_NAKS_SENT = 6, COUNTER_DUPLICATES = 7,
           COUNTER_SEQUENCE_DROPS = 8, COUNTER_UNKNOWN_QP_DROPS = 9, COUNTER_ACCESS_ERRORS = 10,
           COUNTER_INVALID_REQUESTS = 11, COUNTER_DROPS_ICRC = 12, COUNTER_DROPS_MALFORMED = 13,
           COUNTER_DROPS_OVERFLOW = 14, COUNTER_REQUESTS_SENT = 15, COUNTER_RETRANSMITS = 16, COUNTER_TIMEOUTS = 17,
           COUNTER_RETRIES = 18, COUNTER_ACKS_RECEIVED = 19, COUNTER_NAKS_RECEIVED = 20,
           COUNTER_RESPONSES_DROPPED = 21, COUNTER_COMPLETIONS = 22, COUNTER_COMPLETION_ERRORS = 23,
           COUNTER_DOORBELLS_REJECTED = 24, COUNTER_TX_BEATS = 25, COUNTER_RNR_NAKS_SENT = 26,
           COUNTER_RNR_NAKS_RECEIVED = 27, COUNTER_DROPS_WRONG_ADDRESS = 28, COUNTER_DROPS_PKEY = 29,
           COUNTER_CE_MARKED_RECEIVED = 30, COUNTER_CNPS_SENT = 31, COUNTER_CNPS_RECEIVED = 32,
           COUNTER_RATE_PACED_CYCLES = 33, COUNTER_ATOMICS_EXECUTED = 34, COUNTER_ATOMIC_REPLAYS = 35;
wire [COUNTERS*32-1:0] counter_values;
wire [31:0] tx_span_cycles;
wire [31:0] ack_latency_min, ack_latency_max, ack_latency_sum, ack_latency_count,
            doorbell_latency_min, doorbell_latency_max, doorbell_latency_sum, doorbell_latency_count;
localparam [15:0] QP_COUNT_FIELD = QP_COUNT;
localparam [7:0]  MR_COUNT_FIELD = MR_COUNT;
localparam [7:0]  DATA_BYTES_FIELD = KEEP_WIDTH[7:0];
localparam [15:0] RATE_LIMITED_QPS_FIELD = RATE_LIMITED_QPS;
localparam [7:0]  ATOMIC_RESULTS_FIELD = ATOMIC_RESULTS;

rdma_engine_csr csr_inst (
    .clk(clk), .rst(rst),
    .s_axil_awready(s_axil_awready), .s_axil_awvalid(s_axil_awvalid), .s_axil_awaddr(s_axil_awaddr),
    .s_axil_awprot(s_axil_awprot), .s_axil_wready(s_axil_wready), .s_axil_wvalid(s_axil_wvalid),
    .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb), .s_axil_bready(s_axil_bready),
    .s_axil_bvalid(s_axil_bvalid), .s_axil_bresp(s_axil_bresp), .s_axil_arready(s_axil_arready),
    .s_axil_arvalid(s_axil_arvalid), .s_axil_araddr(s_axil_araddr), .s_axil_arprot(s_axil_arprot),
    .s_axil_rready(s_axil_rready), .s_axil_rvalid(s_axil_rvalid), .s_axil_rdata(s_axil_rdata),
    .s_axil_rresp(s_axil_rresp),
    .hwif_in_block_next_address(NEXT_BLOCK_ADDRESS),
    .hwif_in_caps_qp_count(QP_COUNT_FIELD), .hwif_in_caps_mr_count(MR_COUNT_FIELD),
    .hwif_in_caps_data_bytes(DATA_BYTES_FIELD), .hwif_in_caps2_rate_limited_qps(RATE_LIMITED_QPS_FIELD),
    .hwif_in_caps2_atomic_results(ATOMIC_RESULTS_FIELD),
    .hwif_out_dcqcn_ctrl_enable(dcqcn_enable), .hwif_out_dcqcn_ctrl_first_qpn(dcqcn_first_qpn), .hwif_out_dcqcn_line_rate_mbps(dcqcn_line_rate),
    .hwif_out_dcqcn_min_rate_mbps(dcqcn_min_rate), .hwif_out_dcqcn_alpha_initial_value(dcqcn_initial_alpha),
    .hwif_out_dcqcn_alpha_gain(dcqcn_alpha_gain), .hwif_out_dcqcn_alpha_period_ns(dcqcn_alpha_period),
    .hwif_out_dcqcn_increase_period_ns(dcqcn_increase_period), .hwif_out_dcqcn_byte_counter_bytes(dcqcn_byte_counter),
    .hwif_out_dcqcn_fast_recovery_stages(dcqcn_fast_recovery), .hwif_out_dcqcn_ai_rate_mbps(dcqcn_ai_rate),
    .hwif_out_dcqcn_hai_rate_mbps(dcqcn_hai_rate), .hwif_out_dcqcn_observe_qpn(dcqcn_observe_qpn),
    .hwif_in_dcqcn_rate_mbps(dcqcn_current_rate), .hwif_in_dcqcn_target_rate_mbps(dcqcn_target_rate),
    .hwif_in_dcqcn_state_alpha(dcqcn_alpha), .hwif_in_dcqcn_state_stage(dcqcn_stage),
    .hwif_out_pmtu_bytes(pmtu_bytes), .hwif_out_local_mac_low_value(local_mac_low),
    .hwif_out_local_mac_high_value(local_mac_high), .hwif_out_local_ip_value(local_ip),
    .hwif_out_pkey_0_value(pkey_0), .hwif_out_pkey_1_value(pkey_1), .hwif_out_pkey_2_value(pkey_2),
    .hwif_out_pkey_3_value(pkey_3),
    .hwif_out_offload_qps_first_qpn(offload_first_qpn), .hwif_out_offload_qps_count(offload_qp_count),
    .hwif_out_congestion_ect(send_ect), .hwif_out_congestion_notify(cnp_notify),
    .hwif_out_congestion_cnp_dscp(cnp_dscp), .hwif_out_cnp_interval_cycles(cnp_interval_cycles),
    .hwif_in_status_qp_ready(qp_contexts_ready), .hwif_in_status_qp_refused(qp_commit_refused),
    .hwif_out_qp_index_value(qp_index), .hwif_out_qp_remote_qpn_value(qp_remote_qpn),
    .hwif_out_qp_remote_mac_low_value(qp_remote_mac_low), .hwif_out_qp_remote_mac_high_value(qp_remote_mac_high),
    .hwif_out_qp_remote_ip_value(qp_remote_ip), .hwif_out_qp_udp_source_port_value(qp_udp_source_port),
    .hwif_out_qp_expected_psn_value(qp_expected_psn), .hwif_out_qp_send_psn_value(qp_send_psn),
    .hwif_out_qp_sq_base_low_value(qp_sq_base_low), .hwif_out_qp_sq_base_high_value(qp_sq_base_high),
    .hwif_out_qp_transport_sq_log_size(qp_sq_log_size), .hwif_out_qp_transport_pmtu_code(qp_pmtu_code),
    .hwif_out_qp_transport_timeout(qp_timeout), .hwif_out_qp_transport_retry_count(qp_retry_count),
    .hwif_out_qp_transport_rq_log_size(qp_rq_log_size), .hwif_out_qp_transport_rnr_retry(qp_rnr_retry), .hwif_out_qp_rq_base_low_value(qp_rq_base_low),
    .hwif_out_qp_rq_base_high_value(qp_rq_base_high),
    .hwif_out_rq_doorbell_producer_index(rq_doorbell_producer_index),
    .hwif_out_rq_doorbell_producer_index_swmod(rq_doorbell_written), .hwif_out_rq_doorbell_qpn(rq_doorbell_qpn),
    .hwif_out_qp_ctrl_valid(qp_valid), .hwif_out_qp_ctrl_commit(qp_commit),
    .hwif_out_mr_index_value(mr_index), .hwif_out_mr_rkey_value(mr_rkey),
    .hwif_out_mr_base_low_value(mr_base_low), .hwif_out_mr_base_high_value(mr_base_high),
    .hwif_out_mr_length_value(mr_length), .hwif_out_mr_ctrl_valid(mr_valid),
    .hwif_out_mr_ctrl_remote_write(mr_remote_write), .hwif_out_mr_ctrl_remote_read(mr_remote_read),
    .hwif_out_mr_ctrl_remote_atomic(mr_remote_atomic),
    .hwif_out_mr_ctrl_commit(mr_commit),
    .hwif_out_sq_doorbell_producer_index(doorbell_producer_index),
    .hwif_out_sq_doorbell_producer_index_swmod(doorbell_written), .hwif_out_sq_doorbell_qpn(doorbell_qpn),
    .hwif_out_cq_base_low_value(cq_base_low), .hwif_out_cq_base_high_value(cq_base_high),
    .hwif_out_cq_config_log_size(cq_log_size), .hwif_out_cq_config_restart(cq_restart),
    .hwif_out_cq_consumer_value(cq_consumer_index), .hwif_in_cq_producer_value(cq_producer_index),
    .hwif_in_rx_frames_value(counter_values[COUNTER_RX_FRAMES*32 +: 32]), .hwif_in_rx_bytes_value(counter_values[COUNTER_RX_BYTES*32 +: 32]),
    .hwif_in_rx_frames_good_value(counter_values[COUNTER_RX_FRAMES_GOOD*32 +: 32]), .hwif_in_tx_frames_value(counter_values[COUNTER_TX_FRAMES*32 +: 32]),
    .hwif_in_tx_bytes_value(counter_values[COUNTER_TX_BYTES*32 +: 32]), .hwif_in_acks_sent_value(counter_values[COUNTER_ACKS_SENT*32 +: 32]),
    .hwif_in_naks_sent_value(counter_values[COUNTER_NAKS_SENT*32 +: 32]), .hwif_in_duplicates_value(counter_values[COUNTER_DUPLICATES*32 +: 32]),
    .hwif_in_sequence_drops_value(counter_values[COUNTER_SEQUENCE_DROPS*32 +: 32]),
    .hwif_in_unknown_qp_drops_value(counter_values[COUNTER_UNKNOWN_QP_DROPS*32 +: 32]),
    .hwif_in_access_errors_value(counter_values[COUNTER_ACCESS_ERRORS*32 +: 32]),
    .hwif_in_invalid_requests_value(counter_values[COUNTER_INVALID_REQUESTS*32 +: 32]),
    .hwif_in_drops_icrc_value(counter_values[COUNTER_DROPS_ICRC*32 +: 32]),
    .hwif_in_drops_malformed_value(counter_values[COUNTER_DROPS_MALFORMED*32 +: 32]),
    .hwif_in_drops_overflow_value(counter_values[COUNTER_DROPS_OVERFLOW*32 +: 32]),
    .hwif_in_requests_sent_value(counter_values[COUNTER_REQUESTS_SENT*32 +: 32]),
    .hwif_in_retransmits_value(counter_values[COUNTER_RETRANSMITS*32 +: 32]),
    .hwif_in_timeouts_value(counter_values[COUNTER_TIMEOUTS*32 +: 32]),
    .hwif_in_retries_value(counter_values[COUNTER_RETRIES*32 +: 32]),
    .hwif_in_acks_received_value(counter_values[COUNTER_ACKS_RECEIVED*32 +: 32]),
    .hwif_in_naks_received_value(counter_values[COUNTER_NAKS_RECEIVED*32 +: 32]),
    .hwif_in_responses_dropped_value(counter_values[COUNTER_RESPONSES_DROPPED*32 +: 32]),
    .hwif_in_completions_value(counter_values[COUNTER_COMPLETIONS*32 +: 32]),
    .hwif_in_completion_errors_value(counter_values[COUNTER_COMPLETION_ERRORS*32 +: 32]),
    .hwif_in_doorbells_rejected_value(counter_values[COUNTER_DOORBELLS_REJECTED*32 +: 32]),
    .hwif_in_tx_beats_value(counter_values[COUNTER_TX_BEATS*32 +: 32]), .hwif_in_tx_span_cycles_value(tx_span_cycles),
    .hwif_in_rnr_naks_sent_value(counter_values[COUNTER_RNR_NAKS_SENT*32 +: 32]),
    .hwif_in_rnr_naks_received_value(counter_values[COUNTER_RNR_NAKS_RECEIVED*32 +: 32]),
    .hwif_in_drops_wrong_address_value(counter_values[COUNTER_DROPS_WRONG_ADDRESS*32 +: 32]),
    .hwif_in_drops_pkey_value(counter_values[COUNTER_DROPS_PKEY*32 +: 32]),
    .hwif_in_ce_marked_received_value(counter_values[COUNTER_CE_MARKED_RECEIVED*32 +: 32]),
    .hwif_in_cnps_sent_value(counter_values[COUNTER_CNPS_SENT*32 +: 32]),
    .hwif_in_cnps_received_value(counter_values[COUNTER_CNPS_RECEIVED*32 +: 32]),
    .hwif_in_rate_paced_cycles_value(counter_values[COUNTER_RATE_PACED_CYCLES*32 +: 32]),
    .hwif_in_atomics_executed_value(counter_values[COUNTER_ATOMICS_EXECUTED*32 +: 32]),
    .hwif_in_atomic_replays_value(counter_values[COUNTER_ATOMIC_REPLAYS*32 +: 32]),
    .hwif_in_ack_latency_min_value(ack_latency_min), .hwif_in_ack_latency_max_value(ack_latency_max),
    .hwif_in_ack_latency_sum_value(ack_latency_sum), .hwif_in_ack_latency_count_value(ack_latency_count),
    .hwif_in_doorbell_latency_min_value(doorbell_latency_min), .hwif_in_doorbell_latency_max_value(doorbell_latency_max),
    .hwif_in_doorbell_latency_sum_value(doorbell_latency_sum),
    .hwif_in_doorbell_latency_count_value(doorbell_latency_count)
);

wire [47:0] local_mac = {local_mac_high, local_mac_low};
wire [PKEY_ENTRIES*16-1:0] pkey_table = {pkey_3, pkey_2, pkey_1, pkey_0};
// Every QP sends with table entry 0: the engine has no per-QP P_Key index (docs/rdma.md)
wire [15:0] send_pkey = pkey_0;
// A commit to an entry that does not exist is ignored, never folded onto another entry; a QP
// commit while the context RAMs are still being cleared is ignored too (software polls
// STATUS.qp_ready first).
wire qp_index_exists = qp_index < QP_COUNT;
wire mr_index_exists = mr_index < MR_COUNT;
wire [QP_INDEX_WIDTH-1:0] qp_index_in_range = qp_index[QP_INDEX_WIDTH-1:0];
wire [$clog2(MR_COUNT)-1:0] mr_index_in_range = mr_index[$clog2(MR_COUNT)-1:0];
wire notifier_qp_ready;
wire qp_contexts_ready = responder_qp_ready && requester_qp_ready && notifier_qp_ready;
// A path MTU is 256 << code bytes for codes 0 to 4 (IBA 256 to 4096); 5 to 7 name none, and a QP
// set up with one would have every packet it sends or receives dropped as over its PMTU
wire qp_pmtu_legal = qp_pmtu_code <= 3'd4;
wire cfg_qp_write = qp_commit && qp_contexts_ready && qp_index_exists && qp_pmtu_legal;
reg  qp_commit_refused;
always @(posedge clk) begin
    if (qp_commit) begin
        qp_commit_refused <= !cfg_qp_write;
    end
    if (rst) begin
        qp_commit_refused <= 1'b0;
    end
end
wire cfg_mr_write = mr_commit && mr_index_exists;

// The doorbells' fields hold the written value from the cycle after the write strobe
reg register_sq_doorbell, register_rq_doorbell;
always @(posedge clk) begin
    register_sq_doorbell <= doorbell_written && !rst;
    register_rq_doorbell <= rq_doorbell_written && !rst;
end

// One doorbell a cycle to each queue's owner: the register's, else the port's. A QP commit takes
// the cycle too: the requester and responder keep a doorbell only when no QP is being set up
assign s_sq_doorbell_ready = !register_sq_doorbell && !cfg_qp_write;
assign s_rq_doorbell_ready = !register_rq_doorbell && !cfg_qp_write;
wire        sq_doorbell_valid = register_sq_doorbell || s_sq_doorbell_valid;
wire [15:0] sq_doorbell_qpn = register_sq_doorbell ? doorbell_qpn : s_sq_doorbell_qpn;
wire [15:0] sq_doorbell_producer_index = register_sq_doorbell ? doorbell_producer_index : s_sq_doorbell_producer_index;
wire        rq_doorbell_valid = register_rq_doorbell || s_rq_doorbell_valid;
wire [15:0] rq_doorbell_qpn_any = register_rq_doorbell ? rq_doorbell_qpn : s_rq_doorbell_qpn;
wire [15:0] rq_doorbell_producer_index_any = register_rq_doorbell ? rq_doorbell_producer_index
                                                                  : s_rq_doorbell_producer_index;

// ---- Receive: parse, keep only this node's frames, then requests to the responder and responses
// to the requester ----

wire        rx_hdr_valid, rx_hdr_ready, rx_hdr_ack_req;
wire [7:0]  rx_hdr_opcode, rx_hdr_syndrome;
wire [23:0] rx_hdr_dest_qp, rx_hdr_psn;
wire [63:0] rx_hdr_va;
wire [31:0] rx_hdr_rkey, rx_hdr_length, rx_hdr_immdt, rx_hdr_ip_dest;
wire [63:0] rx_hdr_atomic_swap_add, rx_hdr_atomic_compare, rx_hdr_atomic_original;
wire [15:0] rx_hdr_pkey;
wire [7:0]  rx_hdr_ip_tos;
wire [12:0] rx_hdr_payload_bytes;
wire [DATA_WIDTH-1:0] rx_payload_tdata;
wire [KEEP_WIDTH-1:0] rx_payload_tkeep;
wire        rx_payload_tvalid, rx_payload_tready, rx_payload_tlast;
wire        event_frame_good, drop_mac_error, drop_truncated, drop_not_roce, drop_bad_length, drop_bad_version,
            drop_unknown_opcode, drop_bad_pad, drop_over_pmtu, drop_bad_icrc, drop_overflow;

roce_rx_parser #(
    .DATA_WIDTH(DATA_WIDTH),
    .PAYLOAD_FIFO_DEPTH(RX_BUFFER_BYTES * 8 / DATA_WIDTH),
    .HEADER_FIFO_DEPTH(RX_BUFFER_PACKETS)
) parser_inst (
    .clk(clk), .rst(rst),
    .s_axis_tdata(s_axis_rx_tdata), .s_axis_tkeep(s_axis_rx_tkeep), .s_axis_tvalid(s_axis_rx_tvalid),
    .s_axis_tlast(s_axis_rx_tlast), .s_axis_tuser(s_axis_rx_tuser),
    .pmtu_bytes(pmtu_bytes),
    .m_hdr_valid(rx_hdr_valid), .m_hdr_ready(rx_hdr_ready),
    .m_hdr_eth_dest_mac(), .m_hdr_eth_src_mac(), .m_hdr_ip_source(), .m_hdr_ip_dest(rx_hdr_ip_dest), .m_hdr_ip_tos(rx_hdr_ip_tos),
    .m_hdr_ip_ttl(), .m_hdr_udp_source_port(), .m_hdr_bth_opcode(rx_hdr_opcode), .m_hdr_bth_solicited(),
    .m_hdr_bth_migreq(), .m_hdr_bth_pkey(rx_hdr_pkey), .m_hdr_bth_fecn(), .m_hdr_bth_becn(),
    .m_hdr_bth_dest_qp(rx_hdr_dest_qp), .m_hdr_bth_ack_req(rx_hdr_ack_req), .m_hdr_bth_psn(rx_hdr_psn),
    .m_hdr_reth_va(rx_hdr_va), .m_hdr_reth_rkey(rx_hdr_rkey), .m_hdr_reth_length(rx_hdr_length),
    .m_hdr_aeth_syndrome(rx_hdr_syndrome), .m_hdr_aeth_msn(), .m_hdr_immdt(rx_hdr_immdt),
    .m_hdr_atomic_swap_add(rx_hdr_atomic_swap_add), .m_hdr_atomic_compare(rx_hdr_atomic_compare),
    .m_hdr_atomic_original(rx_hdr_atomic_original), .m_hdr_payload_bytes(rx_hdr_payload_bytes),
    .m_axis_payload_tdata(rx_payload_tdata), .m_axis_payload_tkeep(rx_payload_tkeep),
    .m_axis_payload_tvalid(rx_payload_tvalid), .m_axis_payload_tready(rx_payload_tready),
    .m_axis_payload_tlast(rx_payload_tlast),
    .status_frame_good(event_frame_good), .status_drop_mac_error(drop_mac_error),
    .status_drop_truncated(drop_truncated), .status_drop_not_roce(drop_not_roce),
    .status_drop_bad_length(drop_bad_length), .status_drop_bad_version(drop_bad_version),
    .status_drop_unknown_opcode(drop_unknown_opcode), .status_drop_bad_pad(drop_bad_pad),
    .status_drop_over_pmtu(drop_over_pmtu), .status_drop_bad_icrc(drop_bad_icrc),
    .status_drop_overflow(drop_overflow)
);

wire accepted_hdr_valid, accepted_hdr_ready, accepted_payload_tvalid, accepted_payload_tready;
wire drop_wrong_address, drop_pkey;

roce_rx_filter #(
    .PKEY_ENTRIES(PKEY_ENTRIES)
) filter_inst (
    .clk(clk), .rst(rst),
    .local_ip(local_ip), .pkey_table(pkey_table),
    .s_hdr_valid(rx_hdr_valid), .s_hdr_ready(rx_hdr_ready), .s_hdr_ip_dest(rx_hdr_ip_dest),
    .s_hdr_bth_pkey(rx_hdr_pkey), .s_hdr_payload_bytes(rx_hdr_payload_bytes),
    .s_payload_tvalid(rx_payload_tvalid), .s_payload_tready(rx_payload_tready), .s_payload_tlast(rx_payload_tlast),
    .m_hdr_valid(accepted_hdr_valid), .m_hdr_ready(accepted_hdr_ready),
    .m_payload_tvalid(accepted_payload_tvalid), .m_payload_tready(accepted_payload_tready),
    .status_drop_wrong_address(drop_wrong_address), .status_drop_pkey(drop_pkey)
);

wire request_hdr_valid, request_hdr_ready, request_payload_tvalid, request_payload_tready;
wire response_hdr_valid, response_hdr_ready, response_payload_tvalid, response_payload_tready;
wire cnp_received;

roce_rx_demux demux_inst (
    .clk(clk), .rst(rst),
    .s_hdr_valid(accepted_hdr_valid), .s_hdr_ready(accepted_hdr_ready), .s_hdr_bth_opcode(rx_hdr_opcode),
    .s_hdr_payload_bytes(rx_hdr_payload_bytes),
    .s_payload_tvalid(accepted_payload_tvalid), .s_payload_tready(accepted_payload_tready),
    .s_payload_tlast(rx_payload_tlast),
    .m_request_hdr_valid(request_hdr_valid), .m_request_hdr_ready(request_hdr_ready),
    .m_request_payload_tvalid(request_payload_tvalid), .m_request_payload_tready(request_payload_tready),
    .m_response_hdr_valid(response_hdr_valid), .m_response_hdr_ready(response_hdr_ready),
    .m_response_payload_tvalid(response_payload_tvalid), .m_response_payload_tready(response_payload_tready),
    .m_cnp_valid(cnp_received)
);

// ---- Congestion notification: CNPs for CE-marked frames ----

wire        cnp_valid, cnp_ready, event_ce_marked, event_cnp_queued;
wire [47:0] cnp_eth_dest_mac;
wire [31:0] cnp_ip_dest;
wire [15:0] cnp_udp_source_port;
wire [23:0] cnp_dest_qp;

roce_cnp_notifier #(
    .QP_COUNT(QP_COUNT)
) cnp_notifier_inst (
    .clk(clk), .rst(rst),
    .enable(cnp_notify), .min_interval_cycles(cnp_interval_cycles), .ready(notifier_qp_ready),
    .cfg_qp_write(cfg_qp_write), .cfg_qp_index(qp_index_in_range), .cfg_qp_valid(qp_valid),
    .cfg_qp_remote_qpn(qp_remote_qpn), .cfg_qp_remote_mac({qp_remote_mac_high, qp_remote_mac_low}),
    .cfg_qp_remote_ip(qp_remote_ip), .cfg_qp_udp_source_port(qp_udp_source_port),
    .s_hdr_taken(accepted_hdr_valid && accepted_hdr_ready), .s_hdr_ecn(rx_hdr_ip_tos[1:0]),
    .s_hdr_is_cnp(cnp_received), .s_hdr_bth_dest_qp(rx_hdr_dest_qp),
    .m_cnp_valid(cnp_valid), .m_cnp_ready(cnp_ready), .m_cnp_eth_dest_mac(cnp_eth_dest_mac),
    .m_cnp_ip_dest(cnp_ip_dest), .m_cnp_udp_source_port(cnp_udp_source_port), .m_cnp_bth_dest_qp(cnp_dest_qp),
    .event_ce_marked(event_ce_marked), .event_cnp_queued(event_cnp_queued)
);

// ---- Host memory: DMA engines on one AXI4 master ----
// Write side: 0 WRITE and SEND payloads (responder), 1 READ response data (requester), 2 completion entries.
// Read side: 0 READ response payloads (responder), 1 request payloads (segmenter), 2 WQE fetch,
// 3 receive WQE fetch (responder).

localparam WRITE_PORTS = 3;
localparam READ_PORTS = 4;

wire [WRITE_PORTS*64-1:0]         dma_write_cmd_addr;
wire [WRITE_PORTS*16-1:0]         dma_write_cmd_len;
wire [WRITE_PORTS-1:0]            dma_write_cmd_valid, dma_write_cmd_ready, dma_write_tvalid, dma_write_tready,
                                  dma_write_tlast, dma_write_status_valid, dma_write_status_error;
wire [WRITE_PORTS*DATA_WIDTH-1:0] dma_write_tdata;
wire [WRITE_PORTS*KEEP_WIDTH-1:0] dma_write_tkeep;
wire [READ_PORTS*64-1:0]          dma_read_cmd_addr;
wire [READ_PORTS*16-1:0]          dma_read_cmd_len;
wire [READ_PORTS-1:0]             dma_read_cmd_valid, dma_read_cmd_ready, dma_read_tvalid, dma_read_tready,
                                  dma_read_tlast, dma_read_tuser;
wire [READ_PORTS*DATA_WIDTH-1:0]  dma_read_tdata;
wire [READ_PORTS*KEEP_WIDTH-1:0]  dma_read_tkeep;

rdma_host_memory #(
    .DATA_WIDTH(DATA_WIDTH),
    .WRITE_PORTS(WRITE_PORTS),
    .READ_PORTS(READ_PORTS),
    .PAYLOAD_READ_PORTS(2),
    .AXI_ID_WIDTH(4)
) host_memory_inst (
    .clk(clk), .rst(rst),
    .s_write_cmd_addr(dma_write_cmd_addr), .s_write_cmd_len(dma_write_cmd_len), .s_write_cmd_valid(dma_write_cmd_valid),
    .s_write_cmd_ready(dma_write_cmd_ready), .s_write_axis_tdata(dma_write_tdata), .s_write_axis_tkeep(dma_write_tkeep),
    .s_write_axis_tvalid(dma_write_tvalid), .s_write_axis_tready(dma_write_tready), .s_write_axis_tlast(dma_write_tlast),
    .write_status_valid(dma_write_status_valid), .write_status_error(dma_write_status_error),
    .s_read_cmd_addr(dma_read_cmd_addr), .s_read_cmd_len(dma_read_cmd_len), .s_read_cmd_valid(dma_read_cmd_valid),
    .s_read_cmd_ready(dma_read_cmd_ready), .m_read_axis_tdata(dma_read_tdata), .m_read_axis_tkeep(dma_read_tkeep),
    .m_read_axis_tvalid(dma_read_tvalid), .m_read_axis_tready(dma_read_tready), .m_read_axis_tlast(dma_read_tlast),
    .m_read_axis_tuser(dma_read_tuser),
    .m_axi_awid(m_axi_awid), .m_axi_awaddr(m_axi_awaddr), .m_axi_awlen(m_axi_awlen), .m_axi_awsize(m_axi_awsize),
    .m_axi_awburst(m_axi_awburst), .m_axi_awlock(m_axi_awlock), .m_axi_awcache(m_axi_awcache),
    .m_axi_awprot(m_axi_awprot), .m_axi_awvalid(m_axi_awvalid), .m_axi_awready(m_axi_awready),
    .m_axi_wdata(m_axi_wdata), .m_axi_wstrb(m_axi_wstrb), .m_axi_wlast(m_axi_wlast), .m_axi_wvalid(m_axi_wvalid),
    .m_axi_wready(m_axi_wready), .m_axi_bid(m_axi_bid), .m_axi_bresp(m_axi_bresp), .m_axi_bvalid(m_axi_bvalid),
    .m_axi_bready(m_axi_bready),
    .m_axi_arid(m_axi_arid), .m_axi_araddr(m_axi_araddr), .m_axi_arlen(m_axi_arlen), .m_axi_arsize(m_axi_arsize),
    .m_axi_arburst(m_axi_arburst), .m_axi_arlock(m_axi_arlock), .m_axi_arcache(m_axi_arcache),
    .m_axi_arprot(m_axi_arprot), .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready),
    .m_axi_rid(m_axi_rid), .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp), .m_axi_rlast(m_axi_rlast),
    .m_axi_rvalid(m_axi_rvalid), .m_axi_rready(m_axi_rready)
);

// ---- Responder ----

// READ response payloads the responder asked for whose frames have not yet left the reader: a
// WRITE behind a READ waits for them (the READ must read memory before the WRITE changes it)
reg [3:0] read_payloads_pending;
always @(posedge clk) begin
    read_payloads_pending <= read_payloads_pending
                           + {3'd0, dma_read_cmd_valid[0] && dma_read_cmd_ready[0]}
                           - {3'd0, dma_read_tvalid[0] && dma_read_tready[0] && dma_read_tlast[0]};
    if (rst) begin
        read_payloads_pending <= 4'd0;
    end
end

wire        event_ack_sent, event_nak_sent, event_duplicate, event_sequence_drop, event_unknown_qp,
            event_access_error, event_invalid_request, event_rnr_nak_sent, event_over_qp_pmtu, event_atomic_done,
            event_atomic_replayed;
wire        receive_cqe_valid, receive_cqe_ready, receive_cqe_immediate_valid;
wire [63:0] receive_cqe_wr_id;
wire [31:0] receive_cqe_byte_len, receive_cqe_immediate;
wire [23:0] receive_cqe_qpn;
wire [7:0]  receive_cqe_opcode, receive_cqe_status;
wire        responder_hdr_valid, responder_hdr_ready;
wire [47:0] responder_hdr_eth_dest_mac, responder_hdr_eth_src_mac;
wire [31:0] responder_hdr_ip_source, responder_hdr_ip_dest;
wire [15:0] responder_hdr_udp_source_port;
wire [7:0]  responder_hdr_opcode, responder_hdr_syndrome;
wire [23:0] responder_hdr_dest_qp, responder_hdr_psn, responder_hdr_msn;
wire [12:0] responder_hdr_payload_bytes;
wire [63:0] responder_hdr_atomic_original;

roce_responder #(
    .DATA_WIDTH(DATA_WIDTH),
    .QP_COUNT(QP_COUNT),
    .MR_COUNT(MR_COUNT),
    .ATOMIC_RESULTS(ATOMIC_RESULTS)
) responder_inst (
    .clk(clk), .rst(rst),
    .local_mac(local_mac), .local_ip(local_ip),
    .cfg_qp_ready(responder_qp_ready), .cfg_qp_write(cfg_qp_write), .cfg_qp_index(qp_index_in_range),
    .cfg_qp_valid(qp_valid), .cfg_qp_remote_qpn(qp_remote_qpn),
    .cfg_qp_remote_mac({qp_remote_mac_high, qp_remote_mac_low}), .cfg_qp_remote_ip(qp_remote_ip),
    .cfg_qp_udp_source_port(qp_udp_source_port), .cfg_qp_expected_psn(qp_expected_psn),
    .cfg_qp_pmtu_code(qp_pmtu_code), .cfg_qp_rq_base({qp_rq_base_high, qp_rq_base_low}),
    .cfg_qp_rq_log_size(qp_rq_log_size),
    .rq_doorbell_valid(rq_doorbell_valid), .rq_doorbell_qpn(rq_doorbell_qpn_any),
    .rq_doorbell_producer_index(rq_doorbell_producer_index_any),
    .cfg_mr_write(cfg_mr_write), .cfg_mr_index(mr_index_in_range), .cfg_mr_valid(mr_valid),
    .cfg_mr_rkey(mr_rkey), .cfg_mr_base({mr_base_high, mr_base_low}), .cfg_mr_length(mr_length),
    .cfg_mr_remote_write(mr_remote_write), .cfg_mr_remote_read(mr_remote_read), .cfg_mr_remote_atomic(mr_remote_atomic),
    .s_hdr_valid(request_hdr_valid), .s_hdr_ready(request_hdr_ready), .s_hdr_bth_opcode(rx_hdr_opcode),
    .s_hdr_bth_dest_qp(rx_hdr_dest_qp), .s_hdr_bth_ack_req(rx_hdr_ack_req), .s_hdr_bth_psn(rx_hdr_psn),
    .s_hdr_reth_va(rx_hdr_va), .s_hdr_reth_rkey(rx_hdr_rkey), .s_hdr_reth_length(rx_hdr_length),
    .s_hdr_immdt(rx_hdr_immdt), .s_hdr_atomic_swap_add(rx_hdr_atomic_swap_add),
    .s_hdr_atomic_compare(rx_hdr_atomic_compare), .s_hdr_payload_bytes(rx_hdr_payload_bytes),
    .s_payload_tdata(rx_payload_tdata), .s_payload_tkeep(rx_payload_tkeep),
    .s_payload_tvalid(request_payload_tvalid), .s_payload_tready(request_payload_tready),
    .s_payload_tlast(rx_payload_tlast),
    .m_write_data_tdata(dma_write_tdata[0*DATA_WIDTH +: DATA_WIDTH]),
    .m_write_data_tkeep(dma_write_tkeep[0*KEEP_WIDTH +: KEEP_WIDTH]),
    .m_write_data_tvalid(dma_write_tvalid[0]), .m_write_data_tready(dma_write_tready[0]),
    .m_write_data_tlast(dma_write_tlast[0]),
    .m_write_cmd_addr(dma_write_cmd_addr[0*64 +: 64]), .m_write_cmd_len(dma_write_cmd_len[0*16 +: 16]),
    .m_write_cmd_valid(dma_write_cmd_valid[0]), .m_write_cmd_ready(dma_write_cmd_ready[0]),
    .write_status_valid(dma_write_status_valid[0]), .write_status_error(dma_write_status_error[0]),
    .m_read_cmd_addr(dma_read_cmd_addr[0*64 +: 64]), .m_read_cmd_len(dma_read_cmd_len[0*16 +: 16]),
    .m_read_cmd_valid(dma_read_cmd_valid[0]), .m_read_cmd_ready(dma_read_cmd_ready[0]),
    .read_data_pending(read_payloads_pending != 0),
    .read_payload_done(dma_read_tvalid[0] && dma_read_tready[0] && dma_read_tlast[0]),
    .read_payload_failed(dma_read_tuser[0]),
    .m_recv_cmd_addr(dma_read_cmd_addr[3*64 +: 64]), .m_recv_cmd_len(dma_read_cmd_len[3*16 +: 16]),
    .m_recv_cmd_valid(dma_read_cmd_valid[3]), .m_recv_cmd_ready(dma_read_cmd_ready[3]),
    .s_recv_tdata(dma_read_tdata[3*DATA_WIDTH +: DATA_WIDTH]), .s_recv_tvalid(dma_read_tvalid[3]),
    .s_recv_tready(dma_read_tready[3]), .s_recv_tlast(dma_read_tlast[3]), .s_recv_tuser(dma_read_tuser[3]),
    .m_cqe_valid(receive_cqe_valid), .m_cqe_ready(receive_cqe_ready), .m_cqe_wr_id(receive_cqe_wr_id),
    .m_cqe_byte_len(receive_cqe_byte_len), .m_cqe_immediate(receive_cqe_immediate),
    .m_cqe_immediate_valid(receive_cqe_immediate_valid), .m_cqe_qpn(receive_cqe_qpn),
    .m_cqe_opcode(receive_cqe_opcode), .m_cqe_status(receive_cqe_status),
    .m_hdr_valid(responder_hdr_valid), .m_hdr_ready(responder_hdr_ready),
    .m_hdr_eth_dest_mac(responder_hdr_eth_dest_mac), .m_hdr_eth_src_mac(responder_hdr_eth_src_mac),
    .m_hdr_ip_source(responder_hdr_ip_source), .m_hdr_ip_dest(responder_hdr_ip_dest),
    .m_hdr_udp_source_port(responder_hdr_udp_source_port), .m_hdr_bth_opcode(responder_hdr_opcode),
    .m_hdr_bth_dest_qp(responder_hdr_dest_qp), .m_hdr_bth_psn(responder_hdr_psn),
    .m_hdr_aeth_syndrome(responder_hdr_syndrome), .m_hdr_aeth_msn(responder_hdr_msn),
    .m_hdr_payload_bytes(responder_hdr_payload_bytes), .m_hdr_atomic_original(responder_hdr_atomic_original),
    .event_ack_sent(event_ack_sent), .event_nak_sent(event_nak_sent), .event_duplicate(event_duplicate),
    .event_sequence_drop(event_sequence_drop), .event_unknown_qp(event_unknown_qp),
    .event_access_error(event_access_error), .event_invalid_request(event_invalid_request),
    .event_write_done(), .event_read_done(), .event_rnr_nak_sent(event_rnr_nak_sent),
    .event_over_qp_pmtu(event_over_qp_pmtu), .event_atomic_done(event_atomic_done),
    .event_atomic_replayed(event_atomic_replayed)
);


// ---- Requester ----

wire        event_doorbell_rejected, event_ack_received, event_nak_received, event_response_dropped, event_timeout,
            event_retry, event_completion_error, event_request_sent, event_retransmit, event_rnr_nak_received;
wire        job_valid, job_ready, job_read, job_send, job_with_immediate, job_atomic, job_fetch_add;
wire [63:0] job_swap_add, job_compare;
wire [47:0] job_dest_mac;
wire [31:0] job_dest_ip, job_rkey, job_length, job_immediate;
wire [15:0] job_udp_source_port;
wire [23:0] job_dest_qp, job_first_psn, job_first_packet, job_resend_end_psn;
wire [QP_INDEX_WIDTH-1:0] job_qpn, requester_hdr_qpn;
wire [2:0]  job_pmtu_code;
wire [63:0] job_local_address, job_remote_address, cqe_wr_id;
wire        cqe_valid, cqe_ready;
wire [31:0] cqe_byte_len;
wire [23:0] cqe_qpn;
wire [7:0]  cqe_opcode, cqe_status;

roce_requester #(
    .QP_COUNT(QP_COUNT),
    .DATA_WIDTH(DATA_WIDTH),
    .TIMEOUT_UNIT_CYCLES(TIMEOUT_UNIT_CYCLES),
    .RNR_UNIT_CYCLES(RNR_UNIT_CYCLES)
) requester_inst (
    .clk(clk), .rst(rst),
    .cfg_qp_ready(requester_qp_ready), .cfg_qp_write(cfg_qp_write), .cfg_qp_index(qp_index_in_range),
    .cfg_qp_valid(qp_valid), .cfg_qp_remote_qpn(qp_remote_qpn),
    .cfg_qp_remote_mac({qp_remote_mac_high, qp_remote_mac_low}), .cfg_qp_remote_ip(qp_remote_ip),
    .cfg_qp_udp_source_port(qp_udp_source_port), .cfg_qp_pmtu_code(qp_pmtu_code), .cfg_qp_send_psn(qp_send_psn),
    .cfg_qp_sq_base({qp_sq_base_high, qp_sq_base_low}), .cfg_qp_sq_log_size(qp_sq_log_size),
    .cfg_qp_timeout(qp_timeout), .cfg_qp_retry_count(qp_retry_count), .cfg_qp_rnr_retry(qp_rnr_retry),
    .doorbell_valid(sq_doorbell_valid), .doorbell_qpn(sq_doorbell_qpn), .doorbell_producer_index(sq_doorbell_producer_index),
    .s_hdr_valid(response_hdr_valid), .s_hdr_ready(response_hdr_ready), .s_hdr_bth_opcode(rx_hdr_opcode),
    .s_hdr_bth_dest_qp(rx_hdr_dest_qp), .s_hdr_bth_psn(rx_hdr_psn), .s_hdr_aeth_syndrome(rx_hdr_syndrome),
    .s_hdr_atomic_original(rx_hdr_atomic_original), .s_hdr_payload_bytes(rx_hdr_payload_bytes),
    .s_payload_tdata(rx_payload_tdata), .s_payload_tkeep(rx_payload_tkeep),
    .s_payload_tvalid(response_payload_tvalid), .s_payload_tready(response_payload_tready),
    .s_payload_tlast(rx_payload_tlast),
    .m_write_data_tdata(dma_write_tdata[1*DATA_WIDTH +: DATA_WIDTH]),
    .m_write_data_tkeep(dma_write_tkeep[1*KEEP_WIDTH +: KEEP_WIDTH]),
    .m_write_data_tvalid(dma_write_tvalid[1]), .m_write_data_tready(dma_write_tready[1]),
    .m_write_data_tlast(dma_write_tlast[1]),
    .m_write_cmd_addr(dma_write_cmd_addr[1*64 +: 64]), .m_write_cmd_len(dma_write_cmd_len[1*16 +: 16]),
    .m_write_cmd_valid(dma_write_cmd_valid[1]), .m_write_cmd_ready(dma_write_cmd_ready[1]),
    .write_status_valid(dma_write_status_valid[1]), .write_status_error(dma_write_status_error[1]),
    .m_wqe_cmd_addr(dma_read_cmd_addr[2*64 +: 64]), .m_wqe_cmd_len(dma_read_cmd_len[2*16 +: 16]),
    .m_wqe_cmd_valid(dma_read_cmd_valid[2]), .m_wqe_cmd_ready(dma_read_cmd_ready[2]),
    .s_wqe_tdata(dma_read_tdata[2*DATA_WIDTH +: DATA_WIDTH]), .s_wqe_tvalid(dma_read_tvalid[2]),
    .s_wqe_tready(dma_read_tready[2]), .s_wqe_tlast(dma_read_tlast[2]),
    .m_job_valid(job_valid), .m_job_ready(job_ready), .m_job_read(job_read), .m_job_send(job_send),
    .m_job_with_immediate(job_with_immediate), .m_job_atomic(job_atomic), .m_job_fetch_add(job_fetch_add),
    .m_job_swap_add(job_swap_add), .m_job_compare(job_compare), .m_job_dest_mac(job_dest_mac), .m_job_dest_ip(job_dest_ip),
    .m_job_udp_source_port(job_udp_source_port), .m_job_dest_qp(job_dest_qp), .m_job_qpn(job_qpn),
    .m_job_pmtu_code(job_pmtu_code),
    .m_job_local_address(job_local_address), .m_job_remote_address(job_remote_address), .m_job_rkey(job_rkey),
    .m_job_length(job_length), .m_job_immediate(job_immediate), .m_job_first_psn(job_first_psn),
    .m_job_first_packet(job_first_packet), .m_job_resend_end_psn(job_resend_end_psn),
    .m_cqe_valid(cqe_valid), .m_cqe_ready(cqe_ready), .m_cqe_wr_id(cqe_wr_id), .m_cqe_byte_len(cqe_byte_len),
    .m_cqe_qpn(cqe_qpn), .m_cqe_opcode(cqe_opcode), .m_cqe_status(cqe_status),
    .event_doorbell_rejected(event_doorbell_rejected), .event_ack_received(event_ack_received),
    .event_nak_received(event_nak_received), .event_response_dropped(event_response_dropped),
    .event_timeout(event_timeout), .event_retry(event_retry), .event_rnr_nak_received(event_rnr_nak_received),
    .event_completion_error(event_completion_error)
);


wire        requester_hdr_valid, requester_hdr_ready, requester_hdr_ack_req;
wire [47:0] requester_hdr_eth_dest_mac;
wire [31:0] requester_hdr_ip_dest, requester_hdr_reth_rkey, requester_hdr_reth_length, requester_hdr_immdt;
wire [15:0] requester_hdr_udp_source_port;
wire [7:0]  requester_hdr_opcode;
wire [23:0] requester_hdr_dest_qp, requester_hdr_psn;
wire [63:0] requester_hdr_reth_va, requester_hdr_atomic_swap_add, requester_hdr_atomic_compare;
wire [12:0] requester_hdr_payload_bytes;

roce_segmenter #(
    .QP_INDEX_WIDTH(QP_INDEX_WIDTH)
) segmenter_inst (
    .clk(clk), .rst(rst),
    .s_job_valid(job_valid), .s_job_ready(job_ready), .s_job_read(job_read), .s_job_send(job_send),
    .s_job_with_immediate(job_with_immediate), .s_job_atomic(job_atomic), .s_job_fetch_add(job_fetch_add),
    .s_job_swap_add(job_swap_add), .s_job_compare(job_compare), .s_job_dest_mac(job_dest_mac), .s_job_dest_ip(job_dest_ip),
    .s_job_udp_source_port(job_udp_source_port), .s_job_dest_qp(job_dest_qp), .s_job_qpn(job_qpn),
    .s_job_pmtu_code(job_pmtu_code),
    .s_job_local_address(job_local_address), .s_job_remote_address(job_remote_address), .s_job_rkey(job_rkey),
    .s_job_length(job_length), .s_job_immediate(job_immediate), .s_job_first_psn(job_first_psn),
    .s_job_first_packet(job_first_packet), .s_job_resend_end_psn(job_resend_end_psn),
    .m_hdr_valid(requester_hdr_valid), .m_hdr_ready(requester_hdr_ready),
    .m_hdr_eth_dest_mac(requester_hdr_eth_dest_mac), .m_hdr_ip_dest(requester_hdr_ip_dest),
    .m_hdr_udp_source_port(requester_hdr_udp_source_port), .m_hdr_bth_opcode(requester_hdr_opcode),
    .m_hdr_bth_dest_qp(requester_hdr_dest_qp), .m_hdr_qpn(requester_hdr_qpn), .m_hdr_bth_ack_req(requester_hdr_ack_req),
    .m_hdr_bth_psn(requester_hdr_psn), .m_hdr_reth_va(requester_hdr_reth_va), .m_hdr_reth_rkey(requester_hdr_reth_rkey),
    .m_hdr_reth_length(requester_hdr_reth_length), .m_hdr_immdt(requester_hdr_immdt),
    .m_hdr_atomic_swap_add(requester_hdr_atomic_swap_add), .m_hdr_atomic_compare(requester_hdr_atomic_compare),
    .m_hdr_payload_bytes(requester_hdr_payload_bytes),
    .m_read_cmd_addr(dma_read_cmd_addr[1*64 +: 64]), .m_read_cmd_len(dma_read_cmd_len[1*16 +: 16]),
    .m_read_cmd_valid(dma_read_cmd_valid[1]), .m_read_cmd_ready(dma_read_cmd_ready[1]),
    .event_packet(event_request_sent), .event_retransmit(event_retransmit)
);

// ---- DCQCN rate control: the limited QPs' requests paced to their rates ----

wire paced_hdr_valid, paced_hdr_ready, event_paced;

roce_rate_control #(
    .QP_COUNT(QP_COUNT),
    .LIMITED_QPS(RATE_LIMITED_QPS),
    .CLOCK_PERIOD_PS(CLOCK_PERIOD_PS)
) rate_control_inst (
    .clk(clk), .rst(rst),
    .enable(dcqcn_enable), .first_qpn(dcqcn_first_qpn), .line_rate_mbps(dcqcn_line_rate), .min_rate_mbps(dcqcn_min_rate),
    .initial_alpha(dcqcn_initial_alpha), .alpha_gain(dcqcn_alpha_gain), .alpha_update_period_ns(dcqcn_alpha_period),
    .rate_increase_period_ns(dcqcn_increase_period), .byte_counter_bytes(dcqcn_byte_counter),
    .fast_recovery_stages(dcqcn_fast_recovery), .additive_increase_mbps(dcqcn_ai_rate),
    .hyper_increase_mbps(dcqcn_hai_rate),
    .cfg_qp_write(cfg_qp_write), .cfg_qp_index(qp_index_in_range),
    .cnp_valid(cnp_received), .cnp_qpn(rx_hdr_dest_qp),
    .s_hdr_valid(requester_hdr_valid), .s_hdr_ready(requester_hdr_ready), .s_hdr_qpn(requester_hdr_qpn),
    .s_hdr_bth_opcode(requester_hdr_opcode), .s_hdr_payload_bytes(requester_hdr_payload_bytes),
    .m_hdr_valid(paced_hdr_valid), .m_hdr_ready(paced_hdr_ready),
    .observe_qpn(dcqcn_observe_qpn), .observe_current_rate_mbps(dcqcn_current_rate),
    .observe_target_rate_mbps(dcqcn_target_rate), .observe_alpha(dcqcn_alpha), .observe_stage(dcqcn_stage),
    .event_paced(event_paced)
);

// Send and receive completions take turns when both wait. The one taken goes to the completion
// port if its QP is offloaded (OFFLOAD_QPS), else to the completion queue. One offered and not
// taken stays chosen until it is: the port's consumer may rely on an offer staying unchanged,
// and a receive completion arriving while a send completion waits must not replace it
reg  cqe_last_was_receive;
reg  completion_waiting, completion_waiting_is_receive;
wire cqe_take_receive = completion_waiting ? completion_waiting_is_receive
                                           : receive_cqe_valid && (!cqe_valid || !cqe_last_was_receive);
wire        chosen_completion_valid = cqe_valid || receive_cqe_valid;
wire [63:0] chosen_completion_wr_id = cqe_take_receive ? receive_cqe_wr_id : cqe_wr_id;
wire [31:0] chosen_completion_byte_len = cqe_take_receive ? receive_cqe_byte_len : cqe_byte_len;
wire [31:0] chosen_completion_immediate = cqe_take_receive ? receive_cqe_immediate : 32'd0;
wire        chosen_completion_immediate_valid = cqe_take_receive && receive_cqe_immediate_valid;
wire [23:0] chosen_completion_qpn = cqe_take_receive ? receive_cqe_qpn : cqe_qpn;
wire [7:0]  chosen_completion_opcode = cqe_take_receive ? receive_cqe_opcode : cqe_opcode;
wire [7:0]  chosen_completion_status = cqe_take_receive ? receive_cqe_status : cqe_status;
// A QPN below the first wraps to a large offset, outside any count
wire [15:0] chosen_completion_offload_offset = chosen_completion_qpn[15:0] - offload_first_qpn;
wire        chosen_completion_offloaded = chosen_completion_qpn[23:16] == 8'd0 && chosen_completion_offload_offset < offload_qp_count;
wire queue_cqe_ready;
wire chosen_completion_ready = chosen_completion_offloaded ? m_completion_ready : queue_cqe_ready;
assign cqe_ready = chosen_completion_ready && !cqe_take_receive;
assign receive_cqe_ready = chosen_completion_ready && cqe_take_receive;
always @(posedge clk) begin
    if (chosen_completion_ready && chosen_completion_valid) begin
        cqe_last_was_receive <= cqe_take_receive;
    end
    completion_waiting <= chosen_completion_valid && !chosen_completion_ready;
    completion_waiting_is_receive <= cqe_take_receive;
    if (rst) begin
        cqe_last_was_receive <= 1'b0;
        completion_waiting <= 1'b0;
    end
end

assign m_completion_valid = chosen_completion_valid && chosen_completion_offloaded;
assign m_completion_wr_id = chosen_completion_wr_id;
assign m_completion_byte_len = chosen_completion_byte_len;
assign m_completion_immediate = chosen_completion_immediate;
assign m_completion_immediate_valid = chosen_completion_immediate_valid;
assign m_completion_qpn = chosen_completion_qpn;
assign m_completion_opcode = chosen_completion_opcode;
assign m_completion_status = chosen_completion_status;

roce_completion_queue #(
    .DATA_WIDTH(DATA_WIDTH)
) completion_queue_inst (
    .clk(clk), .rst(rst),
    .cq_base({cq_base_high, cq_base_low}), .cq_log_size(cq_log_size), .cq_consumer_index(cq_consumer_index),
    .cq_restart(cq_restart), .cq_producer_index(cq_producer_index),
    .s_cqe_valid(chosen_completion_valid && !chosen_completion_offloaded), .s_cqe_ready(queue_cqe_ready),
    .s_cqe_wr_id(chosen_completion_wr_id), .s_cqe_byte_len(chosen_completion_byte_len),
    .s_cqe_immediate(chosen_completion_immediate), .s_cqe_immediate_valid(chosen_completion_immediate_valid),
    .s_cqe_qpn(chosen_completion_qpn), .s_cqe_opcode(chosen_completion_opcode), .s_cqe_status(chosen_completion_status),
    .m_write_cmd_addr(dma_write_cmd_addr[2*64 +: 64]), .m_write_cmd_len(dma_write_cmd_len[2*16 +: 16]),
    .m_write_cmd_valid(dma_write_cmd_valid[2]), .m_write_cmd_ready(dma_write_cmd_ready[2]),
    .m_axis_tdata(dma_write_tdata[2*DATA_WIDTH +: DATA_WIDTH]), .m_axis_tkeep(dma_write_tkeep[2*KEEP_WIDTH +: KEEP_WIDTH]),
    .m_axis_tvalid(dma_write_tvalid[2]), .m_axis_tready(dma_write_tready[2]), .m_axis_tlast(dma_write_tlast[2]),
    .full()
);

// ---- Transmit: one frame builder per side, whole frames multiplexed onto the MAC ----

wire [2*DATA_WIDTH-1:0] frame_tdata;
wire [2*KEEP_WIDTH-1:0] frame_tkeep;
wire [1:0]              frame_tvalid, frame_tready, frame_tlast;
wire                    tx_source;  // 1: the frame on the MAC is the requester's

// The ECN field of every request and response: ECT(0) when CONGESTION.ect is set. A CNP is Not-ECT
wire [7:0] transport_tos = {6'd0, send_ect, 1'b0};

// A waiting CNP goes before the responder's next frame (it takes two beats at 512 bits, and the
// sooner its QP's sender slows down, the shorter the queue that marked it); the responder's
// header waits meanwhile. A CNP has no payload, so the builder never reads the responder's
// payload stream for it.
wire        responder_builder_hdr_valid = cnp_valid || responder_hdr_valid;
wire        responder_builder_hdr_ready;
assign      cnp_ready = responder_builder_hdr_ready;
assign      responder_hdr_ready = responder_builder_hdr_ready && !cnp_valid;

roce_tx_builder #(
    .DATA_WIDTH(DATA_WIDTH)
) responder_builder_inst (
    .clk(clk), .rst(rst),
    .s_hdr_valid(responder_builder_hdr_valid), .s_hdr_ready(responder_builder_hdr_ready),
    .s_hdr_eth_dest_mac(cnp_valid ? cnp_eth_dest_mac : responder_hdr_eth_dest_mac),
    .s_hdr_eth_src_mac(cnp_valid ? local_mac : responder_hdr_eth_src_mac),
    .s_hdr_ip_source(cnp_valid ? local_ip : responder_hdr_ip_source),
    .s_hdr_ip_dest(cnp_valid ? cnp_ip_dest : responder_hdr_ip_dest),
    .s_hdr_ip_tos(cnp_valid ? {cnp_dscp, 2'b00} : transport_tos),
    .s_hdr_ip_ttl(8'd64), .s_hdr_udp_source_port(cnp_valid ? cnp_udp_source_port : responder_hdr_udp_source_port),
    .s_hdr_bth_opcode(cnp_valid ? `ROCE_OP_CNP : responder_hdr_opcode), .s_hdr_bth_solicited(1'b0),
    .s_hdr_bth_migreq(1'b0), .s_hdr_bth_pkey(send_pkey), .s_hdr_bth_becn(cnp_valid),
    .s_hdr_bth_dest_qp(cnp_valid ? cnp_dest_qp : responder_hdr_dest_qp), .s_hdr_bth_ack_req(1'b0),
    .s_hdr_bth_psn(cnp_valid ? 24'd0 : responder_hdr_psn), .s_hdr_reth_va(64'd0), .s_hdr_reth_rkey(32'd0),
    .s_hdr_reth_length(32'd0), .s_hdr_aeth_syndrome(responder_hdr_syndrome), .s_hdr_aeth_msn(responder_hdr_msn),
    .s_hdr_immdt(32'd0), .s_hdr_atomic_swap_add(64'd0), .s_hdr_atomic_compare(64'd0),
    .s_hdr_atomic_original(responder_hdr_atomic_original),
    .s_hdr_payload_bytes(cnp_valid ? 13'd0 : responder_hdr_payload_bytes),
    .s_axis_payload_tdata(dma_read_tdata[0*DATA_WIDTH +: DATA_WIDTH]),
    .s_axis_payload_tkeep(dma_read_tkeep[0*KEEP_WIDTH +: KEEP_WIDTH]), .s_axis_payload_tvalid(dma_read_tvalid[0]),
    .s_axis_payload_tready(dma_read_tready[0]), .s_axis_payload_tlast(dma_read_tlast[0]),
    .s_axis_payload_tuser(dma_read_tuser[0]),
    .m_axis_tdata(frame_tdata[0*DATA_WIDTH +: DATA_WIDTH]), .m_axis_tkeep(frame_tkeep[0*KEEP_WIDTH +: KEEP_WIDTH]),
    .m_axis_tvalid(frame_tvalid[0]), .m_axis_tready(frame_tready[0]), .m_axis_tlast(frame_tlast[0])
);

roce_tx_builder #(
    .DATA_WIDTH(DATA_WIDTH)
) requester_builder_inst (
    .clk(clk), .rst(rst),
    .s_hdr_valid(paced_hdr_valid), .s_hdr_ready(paced_hdr_ready),
    .s_hdr_eth_dest_mac(requester_hdr_eth_dest_mac), .s_hdr_eth_src_mac(local_mac),
    .s_hdr_ip_source(local_ip), .s_hdr_ip_dest(requester_hdr_ip_dest), .s_hdr_ip_tos(transport_tos), .s_hdr_ip_ttl(8'd64),
    .s_hdr_udp_source_port(requester_hdr_udp_source_port), .s_hdr_bth_opcode(requester_hdr_opcode),
    .s_hdr_bth_solicited(1'b0), .s_hdr_bth_migreq(1'b0), .s_hdr_bth_pkey(send_pkey), .s_hdr_bth_becn(1'b0),
    .s_hdr_bth_dest_qp(requester_hdr_dest_qp), .s_hdr_bth_ack_req(requester_hdr_ack_req),
    .s_hdr_bth_psn(requester_hdr_psn), .s_hdr_reth_va(requester_hdr_reth_va), .s_hdr_reth_rkey(requester_hdr_reth_rkey),
    .s_hdr_reth_length(requester_hdr_reth_length), .s_hdr_aeth_syndrome(8'd0), .s_hdr_aeth_msn(24'd0),
    .s_hdr_immdt(requester_hdr_immdt), .s_hdr_atomic_swap_add(requester_hdr_atomic_swap_add),
    .s_hdr_atomic_compare(requester_hdr_atomic_compare), .s_hdr_atomic_original(64'd0),
    .s_hdr_payload_bytes(requester_hdr_payload_bytes),
    .s_axis_payload_tdata(dma_read_tdata[1*DATA_WIDTH +: DATA_WIDTH]),
    .s_axis_payload_tkeep(dma_read_tkeep[1*KEEP_WIDTH +: KEEP_WIDTH]), .s_axis_payload_tvalid(dma_read_tvalid[1]),
    .s_axis_payload_tready(dma_read_tready[1]), .s_axis_payload_tlast(dma_read_tlast[1]),
    .s_axis_payload_tuser(1'b0),
    .m_axis_tdata(frame_tdata[1*DATA_WIDTH +: DATA_WIDTH]), .m_axis_tkeep(frame_tkeep[1*KEEP_WIDTH +: KEEP_WIDTH]),
    .m_axis_tvalid(frame_tvalid[1]), .m_axis_tready(frame_tready[1]), .m_axis_tlast(frame_tlast[1])
);

axis_arb_mux #(
    .S_COUNT(2),
    .DATA_WIDTH(DATA_WIDTH)
) tx_mux_inst (
    .clk(clk), .rst(rst),
    .s_axis_tdata(frame_tdata), .s_axis_tkeep(frame_tkeep), .s_axis_tvalid(frame_tvalid),
    .s_axis_tready(frame_tready), .s_axis_tlast(frame_tlast), .s_axis_tuser(2'b00),
    .m_axis_tdata(m_axis_tx_tdata), .m_axis_tkeep(m_axis_tx_tkeep), .m_axis_tvalid(m_axis_tx_tvalid),
    .m_axis_tready(m_axis_tx_tready), .m_axis_tlast(m_axis_tx_tlast), .m_axis_tuser(), .m_axis_tid(tx_source)
);

// ---- Counters ----

function [7:0] bytes_in(input [KEEP_WIDTH-1:0] keep);
    integer lane;
    begin
        bytes_in = 8'd0;
        for (lane = 0; lane < KEEP_WIDTH; lane = lane + 1) begin
            bytes_in = bytes_in + {7'd0, keep[lane]};
        end
    end
endfunction

wire rx_beat = s_axis_rx_tvalid;
wire tx_beat = m_axis_tx_tvalid && m_axis_tx_tready;
reg  tx_mid_frame;
always @(posedge clk) begin
    if (tx_beat) begin
        tx_mid_frame <= !m_axis_tx_tlast;
    end
    if (rst) begin
        tx_mid_frame <= 1'b0;
    end
end
wire tx_frame_started = tx_beat && !tx_mid_frame;

// The span of the MAC traffic since reset, for the utilisation of a burst
reg [31:0] now, tx_first_beat_cycle, tx_last_beat_cycle;
reg        tx_any_beat;
always @(posedge clk) begin
    now <= now + 32'd1;
    if (tx_beat) begin
        tx_any_beat <= 1'b1;
        tx_last_beat_cycle <= now;
        if (!tx_any_beat) begin
            tx_first_beat_cycle <= now;
        end
    end
    if (rst) begin
        now <= 32'd0;
        tx_any_beat <= 1'b0;
        tx_first_beat_cycle <= 32'd0;
        tx_last_beat_cycle <= 32'd0;
    end
end
assign tx_span_cycles = tx_any_beat ? tx_last_beat_cycle - tx_first_beat_cycle + 32'd1 : 32'd0;

wire drop_malformed = drop_mac_error | drop_truncated | drop_not_roce | drop_bad_length | drop_bad_version
                    | drop_unknown_opcode | drop_bad_pad | drop_over_pmtu | event_over_qp_pmtu;
wire completion_written = (cqe_valid && cqe_ready) || (receive_cqe_valid && receive_cqe_ready);
wire completion_failed = event_completion_error || (receive_cqe_valid && receive_cqe_ready && receive_cqe_status != `RDMA_WC_SUCCESS);

wire [COUNTERS*8-1:0] counter_increments;
assign counter_increments[COUNTER_RX_FRAMES*8 +: 8]          = {7'd0, rx_beat && s_axis_rx_tlast};
assign counter_increments[COUNTER_RX_BYTES*8 +: 8]           = rx_beat ? bytes_in(s_axis_rx_tkeep) : 8'd0;
assign counter_increments[COUNTER_RX_FRAMES_GOOD*8 +: 8]     = {7'd0, event_frame_good};
assign counter_increments[COUNTER_TX_FRAMES*8 +: 8]          = {7'd0, tx_frame_started};
assign counter_increments[COUNTER_TX_BYTES*8 +: 8]           = tx_beat ? bytes_in(m_axis_tx_tkeep) : 8'd0;
assign counter_increments[COUNTER_ACKS_SENT*8 +: 8]          = {7'd0, event_ack_sent};
assign counter_increments[COUNTER_NAKS_SENT*8 +: 8]          = {7'd0, event_nak_sent};
assign counter_increments[COUNTER_DUPLICATES*8 +: 8]         = {7'd0, event_duplicate};
assign counter_increments[COUNTER_SEQUENCE_DROPS*8 +: 8]     = {7'd0, event_sequence_drop};
assign counter_increments[COUNTER_UNKNOWN_QP_DROPS*8 +: 8]   = {7'd0, event_unknown_qp};
assign counter_increments[COUNTER_ACCESS_ERRORS*8 +: 8]      = {7'd0, event_access_error};
assign counter_increments[COUNTER_INVALID_REQUESTS*8 +: 8]   = {7'd0, event_invalid_request};
assign counter_increments[COUNTER_DROPS_ICRC*8 +: 8]         = {7'd0, drop_bad_icrc};
assign counter_increments[COUNTER_DROPS_MALFORMED*8 +: 8]    = {7'd0, drop_malformed};
assign counter_increments[COUNTER_DROPS_OVERFLOW*8 +: 8]     = {7'd0, drop_overflow};
assign counter_increments[COUNTER_REQUESTS_SENT*8 +: 8]      = {7'd0, event_request_sent};
assign counter_increments[COUNTER_RETRANSMITS*8 +: 8]        = {7'd0, event_retransmit};
assign counter_increments[COUNTER_TIMEOUTS*8 +: 8]           = {7'd0, event_timeout};
assign counter_increments[COUNTER_RETRIES*8 +: 8]            = {7'd0, event_retry};
assign counter_increments[COUNTER_ACKS_RECEIVED*8 +: 8]      = {7'd0, event_ack_received};
assign counter_increments[COUNTER_NAKS_RECEIVED*8 +: 8]      = {7'd0, event_nak_received};
assign counter_increments[COUNTER_RESPONSES_DROPPED*8 +: 8]  = {7'd0, event_response_dropped};
assign counter_increments[COUNTER_COMPLETIONS*8 +: 8]        = {7'd0, completion_written};
assign counter_increments[COUNTER_COMPLETION_ERRORS*8 +: 8]  = {7'd0, completion_failed};
assign counter_increments[COUNTER_DOORBELLS_REJECTED*8 +: 8] = {7'd0, event_doorbell_rejected};
assign counter_increments[COUNTER_TX_BEATS*8 +: 8]           = {7'd0, tx_beat};
assign counter_increments[COUNTER_RNR_NAKS_SENT*8 +: 8]      = {7'd0, event_rnr_nak_sent};
assign counter_increments[COUNTER_RNR_NAKS_RECEIVED*8 +: 8]  = {7'd0, event_rnr_nak_received};
assign counter_increments[COUNTER_DROPS_WRONG_ADDRESS*8 +: 8] = {7'd0, drop_wrong_address};
assign counter_increments[COUNTER_DROPS_PKEY*8 +: 8]        = {7'd0, drop_pkey};
assign counter_increments[COUNTER_CE_MARKED_RECEIVED*8 +: 8] = {7'd0, event_ce_marked};
assign counter_increments[COUNTER_CNPS_SENT*8 +: 8]         = {7'd0, event_cnp_queued};
assign counter_increments[COUNTER_CNPS_RECEIVED*8 +: 8]     = {7'd0, cnp_received};
assign counter_increments[COUNTER_RATE_PACED_CYCLES*8 +: 8] = {7'd0, event_paced};
assign counter_increments[COUNTER_ATOMICS_EXECUTED*8 +: 8]  = {7'd0, event_atomic_done};
assign counter_increments[COUNTER_ATOMIC_REPLAYS*8 +: 8]    = {7'd0, event_atomic_replayed};

event_counters #(
    .COUNT(COUNTERS),
    .WIDTH(32),
    .INCREMENT_WIDTH(8)
) counters_inst (
    .clk(clk), .rst(rst), .clear(1'b0),
    .increments(counter_increments),
    .values(counter_values)
);

roce_ack_latency #(
    .REQUEST_DEPTH(RX_BUFFER_PACKETS)
) ack_latency_inst (
    .clk(clk), .rst(rst),
    .request_received(event_frame_good),
    .request_taken(rx_hdr_valid && rx_hdr_ready),
    .taken_is_request(request_hdr_valid),
    // CNPs share the responder's builder: each keeps the queue of responses in step, none is timed
    .response_taken(responder_builder_hdr_valid && responder_builder_hdr_ready),
    .response_is_ack(!cnp_valid && responder_hdr_opcode == `ROCE_OP_ACKNOWLEDGE
                     && responder_hdr_syndrome[6:5] == `ROCE_AETH_CLASS_ACK),
    .frame_started(tx_frame_started && !tx_source),
    .latency_min(ack_latency_min),
    .latency_max(ack_latency_max),
    .latency_sum(ack_latency_sum),
    .latency_count(ack_latency_count)
);

// Doorbell to the first beat of the next request frame on the MAC, measured while no other
// doorbell is being timed (so a burst of doorbells is timed from its first)
reg        doorbell_timing;
reg [31:0] doorbell_cycles;
always @(posedge clk) begin
    doorbell_cycles <= doorbell_cycles + 32'd1;
    if (sq_doorbell_valid && !doorbell_timing) begin
        doorbell_timing <= 1'b1;
        doorbell_cycles <= 32'd0;
    end else if (doorbell_timing && tx_frame_started && tx_source) begin
        doorbell_timing <= 1'b0;
    end
    if (rst) begin
        doorbell_timing <= 1'b0;
        doorbell_cycles <= 32'd0;
    end
end

latency_stats doorbell_latency_inst (
    .clk(clk), .rst(rst),
    .sample_valid(doorbell_timing && tx_frame_started && tx_source), .sample(doorbell_cycles + 32'd1),
    .latency_min(doorbell_latency_min), .latency_max(doorbell_latency_max),
    .latency_sum(doorbell_latency_sum), .latency_count(doorbell_latency_count)
);

endmodule

`resetall
