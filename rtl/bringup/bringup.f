# rtl/bringup: the board link. Paths are relative to this file.
bringup.vlt
link_bridge.v
board_core.v
uart_rx.v
uart_tx.v
board_top.v
