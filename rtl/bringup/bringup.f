# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
# rtl/bringup: the board link. Paths are relative to this file. A build with engines
# (board_core's ENGINE_AREA) also needs engines.f and the engines' own file lists.
bringup.vlt
link_bridge.v
board_core.v
uart_rx.v
uart_tx.v
board_top.v
