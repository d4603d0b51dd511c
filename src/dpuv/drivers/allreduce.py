# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Driver model of the all-reduce ring: what host software does to run a collective.

It finds the ranks by walking the register-block chain, configures each one, starts them, waits
for done and reads back status and counters. Only the register access interface is used, so the
same code runs under cocotb and against a board.
"""

from __future__ import annotations

from dataclasses import dataclass

from dpuv.models.reduction import DTYPES, OPS
from dpuv.regs import chain
from dpuv.regs.access import BlockWindow, RegisterAccess
from dpuv.regs.maps import allreduce_rank

COUNTERS = ("COLLECTIVE_CYCLES", "REDUCE_SCATTER_BYTES", "ALL_GATHER_BYTES", "REDUCER_BEATS",
            "REDUCER_STARVED_CYCLES", "SEND_BACKPRESSURE_CYCLES", "NAN_ELEMENTS", "OVERFLOW_ELEMENTS")
STATUS_FLAGS = ("busy", "done", "config_error", "ring_error", "length_error", "data_error")


class CollectiveError(RuntimeError):
    pass


@dataclass
class RankReport:
    rank: int
    status: dict[str, int]
    errors: int
    counters: dict[str, int]


async def find_ranks(bus: RegisterAccess) -> list[BlockWindow]:
    found = chain.blocks_of_type(await chain.walk(bus), allreduce_rank.BLOCK)
    if not found:
        raise CollectiveError("no all-reduce rank on this bus")
    return [block.window(bus) for block in found]


async def configure(window: BlockWindow, rank: int, ranks: int, elements: int, dtype: int | str,
                    op: int | str, flush: bool = False) -> None:
    config = allreduce_rank.BLOCK["CONFIG"]
    value = config.field("dtype").insert(0, DTYPES[dtype].code if isinstance(dtype, str) else dtype)
    value = config.field("op").insert(value, OPS[op] if isinstance(op, str) else op)
    value = config.field("flush_subnormals").insert(value, int(flush))
    await window.write_register("CONFIG", value)
    ring = allreduce_rank.BLOCK["RING"]
    await window.write_register("RING", ring.field("size").insert(ring.field("rank").insert(0, rank), ranks))
    await window.write_register("LENGTH", elements)


async def start(window: BlockWindow) -> None:
    await window.write_register("CTRL", allreduce_rank.BLOCK["CTRL"].field("start").insert(0, 1))


async def clear(window: BlockWindow) -> None:
    """Zero the rank's counters, error flags and error count (CTRL.clear_counters)."""
    await window.write_register("CTRL", allreduce_rank.BLOCK["CTRL"].field("clear_counters").insert(0, 1))


async def report(window: BlockWindow, rank: int) -> RankReport:
    status_register = allreduce_rank.BLOCK["STATUS"]
    status_value = await window.read_register("STATUS")
    status = {name: status_register.field(name).extract(status_value) for name in STATUS_FLAGS}
    counters = {name.lower(): await window.read_register(name) for name in COUNTERS}
    return RankReport(rank, status, await window.read_register("ERRORS"), counters)


async def run_collective(ranks: list[BlockWindow], elements: int, dtype: int | str, op: int | str,
                         flush: bool = False, ring_size: int | None = None,
                         timeout_cycles: int = 2_000_000) -> list[RankReport]:
    """Configure and start every rank, wait until each says done, and report."""
    size = len(ranks) if ring_size is None else ring_size
    for index, window in enumerate(ranks):
        await configure(window, index, size, elements, dtype, op, flush)
    for window in ranks:
        await start(window)
    done = allreduce_rank.BLOCK["STATUS"].field("done")
    for window in ranks:
        await window.poll("STATUS", lambda value: done.extract(value) == 1, timeout_cycles, interval_cycles=64)
    return [await report(window, index) for index, window in enumerate(ranks)]
