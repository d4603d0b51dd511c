# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""A board build with two DPU nodes (a two-node cluster on one chip): `dpuv bringup` through the
UART pins, exactly as on a board, connects the collective engines into a ring of two and runs an
all-reduce of a known vector, every element held against the ring-order model."""

import cocotb

from board_bench import TB


@cocotb.test(timeout_time=15, timeout_unit="ms")
async def an_allreduce_of_a_known_vector_runs_through_the_uart_as_on_a_board(dut):
    tb = TB(dut)
    report = await tb.bring_up_passes()
    assert [block["type"] for block in report.blocks] == ["DPID", "PERF", "TRAF", "DPID", "RDMA", "COLL", "DPID",
                                                          "RDMA", "COLL"], report.blocks
    assert "all-reduce of a known vector" in [check.name for check in report.checks], report.checks
