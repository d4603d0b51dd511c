# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
# rtl/bringup: the board link and the engine areas of board builds. Paths are relative to this
# file; the engine areas need rtl/rdma, rtl/allreduce, rtl/collective and rtl/cluster before it.
bringup.vlt
link_bridge.v
axil_to_axi.v
board_node_pair.v
board_core.v
uart_rx.v
uart_tx.v
board_top.v
