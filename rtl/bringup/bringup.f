# rtl/bringup: the board link. Paths are relative to this file.
bringup.vlt
link_bridge.v
board_core.v
