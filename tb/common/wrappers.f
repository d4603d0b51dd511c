# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
# tb/common: testbench-only wrappers that give cocotbext-axi one named bus per port. Paths are
# relative to this file.
axi_read_arbiter_wrap.v
axi_write_arbiter_wrap.v
