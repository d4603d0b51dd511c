"""Testbench library shared by the cocotb benches in tb/: clock and reset, seeds, buses, independent decoders."""
