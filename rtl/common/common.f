# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
# rtl/common: shared building blocks. Paths are relative to this file.
common.vlt
axis_skid_buffer.v
axis_fifo.v
axis_async_fifo.v
reset_synchronizer.v
lowest_set_bit.v
rr_arbiter.v
axis_arb_mux.v
axi_read_arbiter.v
axi_write_arbiter.v
crc32.v
perf_counters.v
axil_decoder.v
generated/id_block_csr.sv
generated/perf_block_csr.sv
id_block.v
perf_block.v
traffic_pattern.v
traffic_generator.v
traffic_checker.v
generated/traffic_block_csr.sv
traffic_block.v
axis_realign.v
axi_burst_splitter.v
axi_dma_write.v
axi_dma_read.v
axi_ram.v
axi_window_split_steer.v
axi_window_split.v
event_counters.v
latency_stats.v
