# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
# tb/rdma: testbench-only tops. Paths are relative to this file.
pair.vlt
rdma_engine_pair.v
