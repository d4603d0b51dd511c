# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""A board build with engines: `dpuv bringup`'s engine scenarios through the UART pins, exactly as
on a board (at 4 clocks a bit, the fastest the UART takes, to keep the run short). The RDMA
pair's smoke (WRITE, WRITE with immediate, READ and SEND both ways) and each engine's counters
against the targets, every byte checked through the nodes' memory windows; the nodes found on the
chain; every register defined after reset (4-state Icarus sees an undefined one). The soak runs
in `make regress` (test_board_soak.py)."""

import cocotb

from board_bench import TB
from dpuv.board import rdma_pair
from dpuv.regs import chain
from dpuv.regs.access import BusError
from dpuv.regs.maps import id_block, rdma_engine
from dpuv.tb.testbench import build_parameters


@cocotb.test(timeout_time=12, timeout_unit="ms")
async def the_rdma_pair_smoke_runs_through_the_uart_as_on_a_board(dut):
    tb = TB(dut)
    report = await tb.bring_up_passes()
    names = [check.name for check in report.checks]
    assert "RDMA pair smoke" in names and sum(name.startswith("RDMA counters") for name in names) == 2, names


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def the_nodes_are_found_on_the_chain_with_their_memory_windows(dut):
    tb = TB(dut)
    await tb.reset()
    found = await chain.walk(tb.link)
    types = [block.type_id for block in found]
    assert types.count(id_block.BLOCK.type_id) == 3 and types.count(rdma_engine.BLOCK.type_id) == 2, found
    if build_parameters().get("SELF_TEST", 1) == 0:
        # Without the self-test the board's ID block leads straight to the engines, and the rest
        # of the core's window (where the counters and the traffic block would be) is unmapped
        assert len(found) == 5 and found[1].address == 0x40000, found
        for access in (tb.link.read(0x1000, 4), tb.link.write(0x2000, b"self")):
            try:
                await access
            except BusError as error:
                assert error.response == "DECERR", error
            else:
                raise AssertionError("an access where the self-test would be was answered")
    nodes = rdma_pair.find_nodes(tb.link, found)
    assert [node.id_address for node in nodes] == [0x40000, 0x50000]
    # Each memory window reaches its own node's memory only: a pattern written through one is not
    # seen through the other, and the window does not wrap: its 32 KiB end where node 1's
    # registers begin
    await nodes[0].memory.write(0x100, b"node zero memory")
    await nodes[1].memory.write(0x100, b"node one  memory")
    assert await nodes[0].memory.read(0x100, 16) == b"node zero memory"
    assert await nodes[1].memory.read(0x102, 9) == b"de one  m"
    await nodes[0].memory.write(0, b"wrap")
    past_the_end = await nodes[0].memory.read(0x8000, 4)
    assert past_the_end != b"wrap" and past_the_end == await tb.link.read(nodes[1].id_address, 4), past_the_end


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def every_register_of_a_node_reads_a_defined_value_after_reset(dut):
    tb = TB(dut)
    await tb.reset()
    await tb.read_every_register(0x40000, 0x50000)
