# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
# rtl/boards/alveo_u55c: the Alveo U55C top. Paths are relative to this file; needs rtl/common,
# rtl/pcie, rtl/rdma, rtl/allreduce, rtl/collective, rtl/cluster/cluster.f, rtl/cluster/node.f and
# rtl/bringup/engines.f before it. Vivado adds the two hard blocks it instantiates (build.tcl);
# a simulation adds their models instead (models/models.f).
alveo_u55c.vlt
alveo_u55c_top.v
