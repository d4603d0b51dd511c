# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
# rtl/allreduce: the all-reduce reduction unit and ring. Paths are relative to this file.
allreduce.vlt
element_bytes.vh
fp_add.v
fp_max_min.v
float_lanes.v
int_lanes.v
reduce_alu.v
allreduce_reducer.v
ring_buffer.v
buffer_reader.v
ring_chunks.v
ring_schedule.v
ring_sender.v
ring_receiver.v
generated/allreduce_rank_csr.sv
allreduce_rank.v
allreduce_ring.v
