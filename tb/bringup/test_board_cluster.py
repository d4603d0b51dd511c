# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""A board build with two DPU nodes (a two-node cluster on one chip): `dpuv bringup` through the
UART pins, exactly as on a board, connects the collective engines into a ring of two and runs an
all-reduce of a known vector, every element held against the ring-order model; each node's blocks
found on the chain and every register of theirs defined after reset (4-state Icarus sees an
undefined one). `make test` runs the all-reduce on Verilator alone (over four minutes on Icarus);
`make regress` on both."""

import cocotb

from board_bench import TB
from dpuv.regs import chain


@cocotb.test(timeout_time=15, timeout_unit="ms")
async def an_allreduce_of_a_known_vector_runs_through_the_uart_as_on_a_board(dut):
    tb = TB(dut)
    report = await tb.bring_up_passes()
    assert [block["type"] for block in report.blocks] == ["DPID", "PERF", "TRAF", "DPID", "RDMA", "COLL", "DPID",
                                                          "RDMA", "COLL"], report.blocks
    assert "all-reduce of a known vector" in [check.name for check in report.checks], report.checks


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def each_node_is_found_on_the_chain_and_its_registers_read_defined_after_reset(dut):
    tb = TB(dut)
    await tb.reset()
    found = await chain.walk(tb.link)
    assert [block.type_name for block in found] == ["DPID", "PERF", "TRAF", "DPID", "RDMA", "COLL", "DPID", "RDMA",
                                                    "COLL"], found
    first_node, second_node = (block.address for block in found[3:] if block.type_name == "DPID")
    await tb.read_every_register(first_node, second_node)
