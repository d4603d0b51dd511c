# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The bring-up's all-reduce scenario, on a board build that carries two DPU nodes back to back (a
two-node cluster on one chip, rtl/bringup/board_node_pair.v with COLLECTIVE): the collective
engines connected into a ring of two over their RDMA engines by the same driver the cluster's
host uses (dpuv.drivers.collective), a known vector on each node written through its memory
window, and every element of both results held against the ring-order model."""

from __future__ import annotations

import random

import numpy as np

from dpuv.board.rdma_pair import NODE_MEMORY_OFFSET, node_areas
from dpuv.drivers import collective
from dpuv.models.reduction import random_vectors, ring_allreduce
from dpuv.regs import chain
from dpuv.regs.access import OffsetAccess, PollTimeout, RegisterAccess
from dpuv.regs.maps import collective_engine, id_block, rdma_engine

# Two ranks' slots and vector inside the 32 KiB each node has: four 1 KiB slots from 0x1000, the
# vector from 0x2000 (collective.Layout puts it after the slots)
LAYOUT = collective.Layout(slots=4, slot_bytes=1024)
PMTU = 256
# Not a multiple of the ranks, the slot or the PMTU: the pieces' edges are all exercised
ELEMENTS = 301
DTYPE, OP = "fp32", "sum"
TIMEOUT_CYCLES = 400_000


def find_ranks(bus: RegisterAccess, found: list[chain.FoundBlock]) -> list[collective.Node]:
    """Every node with an RDMA and a collective engine, in chain order: rank 0, rank 1, ..."""
    ranks = []
    for node_id, own in node_areas(found):
        engines = chain.blocks_of_type(own, rdma_engine.BLOCK)
        collectives = chain.blocks_of_type(own, collective_engine.BLOCK)
        if len(engines) == 1 and len(collectives) == 1:
            memory = OffsetAccess(bus, node_id.address + NODE_MEMORY_OFFSET)
            rank = len(ranks)
            ranks.append(collective.Node(rank, engines[0].window(bus), collectives[0].window(bus),
                                         collective.node_mac(rank), collective.node_ip(rank), memory.write, memory.read))
    return ranks


async def beat_bits(bus: RegisterAccess, found: list[chain.FoundBlock]) -> int:
    """The nodes' stream width, from the first node's ID block (the reducer's lanes follow it, and
    the ring-order model needs it)"""
    node_id = next(block for block in found if block.type_id == id_block.BLOCK.type_id
                   and block.address != chain.ID_BLOCK_ADDRESS)
    options = await bus.window(node_id.address, id_block.BLOCK).read_register("BUILD_OPTIONS")
    return 8 * id_block.BLOCK["BUILD_OPTIONS"].field("stream_bytes").extract(options)


async def known_vector_allreduce(ranks: list[collective.Node], bits: int, rng: random.Random) -> tuple[bool, str]:
    vectors = random_vectors(rng, len(ranks), ELEMENTS, DTYPE)
    await collective.connect_ring(ranks, LAYOUT, pmtu=PMTU, timeout=8, rng=rng)
    expected = ring_allreduce(vectors, DTYPE, OP, beat_bits=bits)
    try:
        results, reports = await collective.allreduce(ranks, vectors, DTYPE, OP, collective_id=1, layout=LAYOUT,
                                                      timeout_cycles=TIMEOUT_CYCLES)
    except PollTimeout as error:
        return False, f"the all-reduce did not finish: {error}"
    problems = [f"rank {report.rank}: {report.failed or report.status}" for report in reports
                if report.failed or not report.status["done"]]
    for rank, result in enumerate(results):
        wrong = np.flatnonzero(result != expected)
        if wrong.size:
            problems.append(f"rank {rank}: {wrong.size} of {ELEMENTS} elements wrong, first at {wrong[0]}")
    cycles = max(report.counters["collective_cycles"] for report in reports)
    detail = "; ".join(problems) if problems else (
        f"{ELEMENTS} {DTYPE} elements {OP} over {len(ranks)} ranks in {cycles} cycles, every element "
        f"equal to the ring-order model's on every rank")
    return not problems, detail
