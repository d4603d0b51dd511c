# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
# Simulation models of what Vivado supplies for the Alveo top: the PCIe and 100G MAC blocks as
# build.tcl configures them, and the clock buffers. Paths are relative to this file.
models.vlt
dpuv_pcie.v
dpuv_cmac.v
unisim_buffers.v
