# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Register access: one async interface, its backends (cocotb AXI4-Lite, board link), the generated maps and the chain walk."""
