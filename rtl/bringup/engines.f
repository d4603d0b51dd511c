# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
# rtl/bringup: the engine areas of board builds (board_core's ENGINE_AREA). Paths are relative to
# this file; needs rtl/common, rtl/rdma, rtl/allreduce, rtl/collective, rtl/cluster/cluster.f and
# rtl/cluster/node.f before it, and bringup.f.
axil_to_axi.v
board_node.v
board_node_pair.v
axil_buffer_window.v
board_rank_ring.v
