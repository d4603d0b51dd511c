# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
# rtl/cluster: the DPU node core and the cluster top. Paths are relative to this file; it needs
# rtl/common, rtl/rdma, rtl/allreduce, rtl/collective and rtl/cluster/cluster.f before it.
node_slot_memory.v
dpu_node.v
dpu_cluster.v
