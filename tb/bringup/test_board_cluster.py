# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""A board build with two DPU nodes (a two-node cluster on one chip): `dpuv bringup` through the
UART pins, exactly as on a board, connects the collective engines into a ring of two and runs an
all-reduce of a known vector, every element held against the ring-order model."""

import io

import cocotb

from board_bench import TB
from dpuv.board import bringup


@cocotb.test(timeout_time=15, timeout_unit="ms")
async def an_allreduce_of_a_known_vector_runs_through_the_uart_as_on_a_board(dut):
    tb = TB(dut)
    await tb.reset()
    log = io.StringIO()
    report = await bringup.bring_up(tb.link, "cocotb uart", bringup.Progress(log))
    dut._log.info("bring-up report:\n%s", log.getvalue())
    assert report.passed, log.getvalue()
    assert [block["type"] for block in report.blocks] == ["DPID", "PERF", "TRAF", "DPID", "RDMA", "COLL", "DPID",
                                                          "RDMA", "COLL"], report.blocks
    assert "all-reduce of a known vector" in [check.name for check in report.checks], report.checks
    assert tb.link.retries == 0 and tb.uart.framing_errors == 0
