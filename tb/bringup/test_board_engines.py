# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""A board build with engines: `dpuv bringup`'s engine scenarios through the UART pins, exactly as
on a board (at 4 clocks a bit, the fastest the UART takes, to keep the run short). The RDMA
pair's smoke (WRITE, WRITE with immediate, READ and SEND both ways) and each engine's counters
against the targets, a soak round of random work, every byte checked through the nodes' memory
windows."""

import io

import cocotb

from board_bench import TB
from dpuv.board import bringup, rdma_pair
from dpuv.regs import chain
from dpuv.regs.maps import id_block, rdma_engine
from dpuv.tb.testbench import test_rng


@cocotb.test(timeout_time=12, timeout_unit="ms")
async def the_rdma_pair_smoke_runs_through_the_uart_as_on_a_board(dut):
    tb = TB(dut)
    await tb.reset()
    log = io.StringIO()
    report = await bringup.bring_up(tb.link, "cocotb uart", bringup.Progress(log))
    dut._log.info("bring-up report:\n%s", log.getvalue())
    assert report.passed, log.getvalue()
    names = [check.name for check in report.checks]
    assert "RDMA pair smoke" in names and sum(name.startswith("RDMA counters") for name in names) == 2, names
    assert tb.link.retries == 0 and tb.uart.framing_errors == 0


@cocotb.test(timeout_time=12, timeout_unit="ms")
async def a_soak_round_of_random_work_both_ways_lands_every_byte(dut):
    tb = TB(dut)
    await tb.reset()
    nodes = rdma_pair.find_nodes(tb.link, await chain.walk(tb.link))
    rng = test_rng()
    await rdma_pair.set_up_pair(nodes[0], nodes[1], rng)
    passed, detail = await rdma_pair.pair_soak(nodes, rng, rounds=1)
    dut._log.info("soak: %s", detail)
    assert passed, detail


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def the_nodes_are_found_on_the_chain_with_their_memory_windows(dut):
    tb = TB(dut)
    await tb.reset()
    found = await chain.walk(tb.link)
    types = [block.type_id for block in found]
    assert types.count(id_block.BLOCK.type_id) == 3 and types.count(rdma_engine.BLOCK.type_id) == 2, found
    nodes = rdma_pair.find_nodes(tb.link, found)
    assert [node.id_address for node in nodes] == [0x40000, 0x60000]
    # Each memory window reaches its own node's memory only: a pattern written through one is not
    # seen through the other, and an address past the memory is refused, not wrapped
    await nodes[0].memory.write(0x100, b"node zero memory")
    await nodes[1].memory.write(0x100, b"node one  memory")
    assert await nodes[0].memory.read(0x100, 16) == b"node zero memory"
    assert await nodes[1].memory.read(0x102, 9) == b"de one  m"
    try:
        await nodes[0].memory.read(0x8000, 4)
    except bringup.BusError as error:
        assert error.response in ("SLVERR", "DECERR"), error
    else:
        raise AssertionError("a read past the node's 32 KiB of memory was answered")
