# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
# rtl/rdma: the RoCEv2 RDMA transport engine. Paths are relative to this file.
rdma.vlt
roce_defs.vh
roce_psn.vh
generated/rdma_host_interface.vh
roce_opcode_info.v
roce_icrc_check.v
roce_rx_parser.v
roce_icrc_append.v
roce_tx_builder.v
roce_qp_context.v
roce_timer_scan.v
roce_wqe_prefetch.v
roce_sent_wqes.v
roce_atomic_results.v
roce_responder.v
roce_ack_latency.v
roce_dcqcn_stages.vh
roce_dcqcn_increase.v
roce_dcqcn_rate.v
generated/rdma_engine_csr.sv
roce_rx_filter.v
roce_rx_demux.v
roce_cnp_notifier.v
roce_rate_control.v
roce_segmenter.v
roce_completion_queue.v
roce_requester.v
rdma_host_memory.v
rdma_engine.v
