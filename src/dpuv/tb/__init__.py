# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Testbench library shared by the cocotb benches in tb/: clock and reset, seeds, buses, independent decoders."""
