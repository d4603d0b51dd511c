# rtl/common: shared building blocks. Paths are relative to this file.
common.vlt
axis_skid_buffer.v
axis_fifo.v
rr_arbiter.v
axis_arb_mux.v
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
