# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
# rtl/collective: the collective engine that runs ring all-reduce over the RDMA engine. Paths are
# relative to this file; it needs rtl/common, rtl/rdma and rtl/allreduce before it.
collective.vlt
generated/collective_engine_csr.sv
collective_pieces.v
collective_wqe_poster.v
collective_engine.v
