# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Ring all-reduce between DPU nodes over RoCEv2, in one simulation: every node's collective engine
drives its own RDMA engine (no host software in the loop) through the switch and link model.

The expected result is dpuv.models.reduction.ring_allreduce, the ring's fixed element order
written from the algorithm; every rank must end with exactly its bits."""

from __future__ import annotations

import numpy as np
import cocotb

from dpuv.drivers import collective
from dpuv.models.reduction import DTYPES, ring_allreduce
from dpuv.tb.testbench import test_rng
from cluster_bench import ClusterTB


def random_vectors(rng, ranks: int, elements: int, dtype: str) -> list[np.ndarray]:
    info = DTYPES[dtype]
    generator = np.random.default_rng(rng.getrandbits(32))
    if info.floating:
        values = generator.standard_normal((ranks, elements)).astype(np.float32)
        if dtype == "fp32":
            return [row.view(np.uint32) for row in values]
        bits = values.view(np.uint32)
        if dtype == "bf16":
            return [(row >> 16).astype(np.uint16) for row in bits]
        return [row.astype(np.float16).view(np.uint16) for row in values]
    return [generator.integers(0, 1 << info.bits, elements, dtype=np.uint64).astype(info.unsigned) for _ in range(ranks)]


async def check_allreduce(tb: ClusterTB, elements: int, dtype: str, op: str, collective_id: int,
                          layout: collective.Layout, timeout_cycles: int) -> list[collective.RankReport]:
    vectors = random_vectors(tb.rng, tb.nodes_count, elements, dtype)
    expected = ring_allreduce(vectors, dtype, op, beat_bits=tb.data_width)
    results, reports = await collective.allreduce(tb.nodes, vectors, dtype, op, collective_id, layout,
                                                  timeout_cycles=timeout_cycles)
    for report in reports:
        assert not report.failed and report.status["done"], f"rank {report.rank}: {report.status}"
    for rank, result in enumerate(results):
        wrong = np.flatnonzero(result != expected)
        assert wrong.size == 0, (f"rank {rank}: {wrong.size} of {elements} {dtype} elements wrong, first at "
                                 f"{wrong[0]}: {result[wrong[0]]:#x} instead of {expected[wrong[0]]:#x} "
                                 f"(its input {vectors[rank][wrong[0]]:#x}); reports {reports}")
    return reports


@cocotb.test(timeout_time=400, timeout_unit="us")
async def ring_allreduce_is_exact_on_every_rank(dut):
    """fp32 sum over every rank, the vector not a multiple of the ranks, the slot or the beat; then
    more collectives on the same QPs (int32 max, bf16 sum), each exact on every rank."""
    rng = test_rng("ring")
    tb = ClusterTB(dut, rng)
    await tb.reset()
    layout = collective.Layout(slots=4, slot_bytes=1024)
    await collective.connect_ring(tb.nodes, layout, pmtu=1024, rng=rng)
    for collective_id, (elements, dtype, op) in enumerate(((3001, "fp32", "sum"), (1237, "int32", "max"),
                                                          (2049, "bf16", "sum"))):
        reports = await check_allreduce(tb, elements, dtype, op, collective_id, layout, timeout_cycles=200_000)
        dut._log.info("%d %s %s on %d ranks: %s", elements, dtype, op, tb.nodes_count,
                      [(r.counters["collective_cycles"], r.counters["pieces_received"]) for r in reports])
    dut._log.info("switch: %s", tb.switch_counters())
