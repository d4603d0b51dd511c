# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The bring-up's all-reduce scenario on a board build that carries an all-reduce ring of ranks
(rtl/bringup/board_rank_ring.v): each rank's vector written into its buffer through the buffer's
window on the register bus, the ranks run by the driver the simulations use
(dpuv.drivers.allreduce), and every element of every rank's result read back through the same
windows and held against the ring-order model.

The ranks are found as every engine node is (rdma_pair.node_areas): an ID block opens an area; an
area whose blocks hold an all-reduce rank is a rank, its buffer NODE_MEMORY_OFFSET
above the ID block."""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from dpuv.board.rdma_pair import NODE_MEMORY_OFFSET, node_areas
from dpuv.drivers import allreduce
from dpuv.models.reduction import DTYPES, random_vectors, ring_allreduce
from dpuv.regs import chain
from dpuv.regs.access import BlockWindow, OffsetAccess, PollTimeout, RegisterAccess
from dpuv.regs.maps import allreduce_rank

# Not a multiple of the ranks or of a beat's lanes, so the chunks' ragged edges are exercised;
# each pair a sum where rounding order matters and an operation on another element width
COLLECTIVES = ((301, "fp32", "sum"), (203, "bf16", "max"), (777, "int8", "sum"))
TIMEOUT_CYCLES = 200_000


@dataclass
class Rank:
    csrs: BlockWindow
    buffer: RegisterAccess


def find_ranks(bus: RegisterAccess, found: list[chain.FoundBlock]) -> list[Rank]:
    """Every node of the build holding an all-reduce rank, in chain order (ring order)."""
    ranks = []
    for node_id, own in node_areas(found):
        blocks = chain.blocks_of_type(own, allreduce_rank.BLOCK)
        if len(blocks) == 1:
            ranks.append(Rank(blocks[0].window(bus), OffsetAccess(bus, node_id.address + NODE_MEMORY_OFFSET)))
    return ranks


async def known_vector_allreduces(ranks: list[Rank], beat_bits: int, rng: random.Random) -> tuple[bool, str]:
    """Each of COLLECTIVES once over every rank: seeded vectors in, every element of every result
    checked, with the ranks' status and counters."""
    problems, done = [], []
    for elements, dtype, op in COLLECTIVES:
        info = DTYPES[dtype]
        vectors = random_vectors(rng, len(ranks), elements, dtype)
        for rank, vector in zip(ranks, vectors):
            await rank.buffer.write(0, vector.tobytes())
        try:
            reports = await allreduce.run_collective([rank.csrs for rank in ranks], elements, dtype, op,
                                                     timeout_cycles=TIMEOUT_CYCLES)
        except PollTimeout as error:
            return False, f"{dtype} {op}: the all-reduce did not finish: {error}"
        expected = ring_allreduce(vectors, dtype, op, beat_bits=beat_bits)
        label = f"{elements} {dtype} {op}"
        problems += [f"{label}, rank {report.rank}: {report.status}" for report in reports
                     if not report.status["done"] or report.errors]
        for index, rank in enumerate(ranks):
            raw = await rank.buffer.read(0, elements * info.bits // 8)
            wrong = np.flatnonzero(np.frombuffer(raw, dtype=info.unsigned) != expected)
            if wrong.size:
                problems.append(f"{label}, rank {index}: {wrong.size} of {elements} elements wrong, first at {wrong[0]}")
        done.append(f"{label} in {max(report.counters['collective_cycles'] for report in reports)} cycles")
    detail = "; ".join(problems) if problems else (
        f"over {len(ranks)} ranks: {', '.join(done)}; every element equal to the ring-order model's on every rank")
    return not problems, detail

