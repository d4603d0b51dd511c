# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
# rtl/storage: the NVMe storage engine. Paths are relative to this file.
storage.vlt
nvme_defs.vh
nvme_registers.v
nvme_write_slots.v
nvme_io_command.v
nvme_identify_data.v
nvme_log_page_data.v
nvme_admin_command.v
nvme_async_events.v
nvme_cq_post.v
nvme_interrupt_coalescing.v
nvme_queue_table.v
nvme_sq_arbiter.v
nvme_queue_engine.v
nvme_controller.v
generated/nvme_counters_csr.sv
nvme_counters.v
nvme_error_log.v
nvme_io_statistics.v
