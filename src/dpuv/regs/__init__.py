"""Register access: one async interface, its backends (cocotb AXI4-Lite, board link), the generated maps and the chain walk."""
