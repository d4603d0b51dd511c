# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Ring all-reduce between DPU nodes at the ring sizes of the bench's parameter sets: every dtype
once per size, the ops turning with the size so that three consecutive sizes together take every
dtype with every op, exact on every rank against the ring-order model."""

from __future__ import annotations

import cocotb

from dpuv.drivers import collective
from dpuv.models.reduction import DTYPES, OPS
from dpuv.tb.testbench import build_parameters, test_rng
from cluster_bench import ClusterTB, check_allreduce

# The ring sizes the bench's parameter sets build, in the order that turns the ops: size k of
# these takes op (dtype index + k) mod 3, so 2, 3 and 5 (the suite's) together take every dtype with
# every op, as do 3, 5 and 8; 8 repeats the ops of 2
RING_SIZES = (2, 3, 5, 8)
SLOT_BYTES = 1024


def elements_for(dtype: str, ranks: int) -> int:
    """About 1.5 slots per rank's chunk, an odd count: a multiple of neither the ranks, the slot,
    the PMTU nor the beat, and chunks that take a full piece and a part of another."""
    return (3 * SLOT_BYTES * ranks // 2) // (DTYPES[dtype].bits // 8) + 1


@cocotb.test(timeout_time=1000, timeout_unit="us")
async def every_dtype_is_exact_at_this_ring_size(dut):
    ranks = int(build_parameters()["NODES"])
    assert ranks in RING_SIZES, f"NODES={ranks}: add it to RING_SIZES so that it takes its turn of the ops"
    rng = test_rng("ring sizes", ranks)
    tb = ClusterTB(dut, rng)
    await tb.reset()
    layout = collective.Layout(slots=4, slot_bytes=SLOT_BYTES)
    await collective.connect_ring(tb.nodes, layout, pmtu=SLOT_BYTES, rng=rng)
    ops = list(OPS)
    turn = RING_SIZES.index(ranks)
    for index, dtype in enumerate(DTYPES):
        op = ops[(index + turn) % len(ops)]
        elements = elements_for(dtype, ranks)
        reports = await check_allreduce(tb, elements, dtype, op, index, layout, timeout_cycles=40_000)
        dut._log.info("%d ranks, %d %s %s: %s cycles", ranks, elements, dtype, op,
                      max(report.counters["collective_cycles"] for report in reports))
