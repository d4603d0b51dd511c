# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""allreduce_ring at 512 bits and 1 MiB per rank: bus bandwidth from the ranks' own counters, checked
against the link rate and the spec target, plus reducer utilisation per dtype."""

import cocotb
import numpy as np
from cocotb.triggers import RisingEdge

from dpuv.models.reduction import DTYPES, chunk_bounds, ring_allreduce
from dpuv.drivers import allreduce
from dpuv.harness import perf
from dpuv.tb.testbench import CLOCK_PERIOD_NS, LinkActivity
from ring_bench import RingTB, assert_every_rank_matches

MESSAGE_BYTES = 1 << 20



class ReducerFrames:
    """The testbench's own view of every rank's reducer: beats out, and the cycles from each
    frame's first beat to its last. A bubble inside a frame shows as a span longer than its beats."""

    def __init__(self, dut, ranks: int):
        self.reducers = [dut.ranks[rank].rank_inst.receiver_inst.reducer_inst for rank in range(ranks)]
        self.clock = dut.clk
        self.beats = self.span_cycles = 0
        cocotb.start_soon(self._run())

    async def _run(self):
        cycle, first = 0, [None] * len(self.reducers)
        while True:
            await RisingEdge(self.clock)
            cycle += 1
            for rank, reducer in enumerate(self.reducers):
                if reducer.m_axis_tvalid.value == 1:  # the reducer's sink never stalls
                    self.beats += 1
                    first[rank] = cycle if first[rank] is None else first[rank]
                    if reducer.m_axis_tlast.value == 1:
                        self.span_cycles += cycle - first[rank] + 1
                        first[rank] = None


def bytes_sent(elements: int, ranks: int, rank: int, lanes: int, element_bytes: int) -> tuple[int, int]:
    """Bytes rank r sends in reduce-scatter (every chunk but r+1) and all-gather (every chunk but r+2)."""
    sizes = [(end - start) * element_bytes for start, end in chunk_bounds(elements, ranks, lanes)]
    return sum(sizes) - sizes[(rank + 1) % ranks], sum(sizes) - sizes[(rank + 2) % ranks]


@cocotb.test(timeout_time=1, timeout_unit="ms")
async def bus_bandwidth_at_one_mebibyte(dut):
    tb = RingTB(dut)
    activity = LinkActivity(dut)
    await tb.reset()
    elements = MESSAGE_BYTES // 4
    rng = np.random.default_rng(cocotb.RANDOM_SEED)
    vectors = [rng.standard_normal(elements).astype(np.float32).view(np.uint32) for _ in range(tb.ranks)]
    await tb.load(vectors, backdoor=True)
    activity.clear()
    reports = await allreduce.run_collective(tb.windows, elements, "fp32", "sum")
    results = await tb.unload(elements, "fp32", backdoor=True)
    assert_every_rank_matches(results, ring_allreduce(vectors, "fp32", "sum", 8 * tb.beat_bytes), "1 MiB fp32")

    n = tb.ranks
    link_bytes_per_cycle = tb.beat_bytes
    for report in reports:
        expected_rs, expected_ag = bytes_sent(elements, n, report.rank, tb.lanes("fp32"), 4)
        assert report.counters["reduce_scatter_bytes"] == expected_rs, f"rank {report.rank} reduce-scatter bytes"
        assert report.counters["all_gather_bytes"] == expected_ag, f"rank {report.rank} all-gather bytes"
    cycles = max(report.counters["collective_cycles"] for report in reports)
    observed = activity.last - activity.first + 1
    # busbw = algbw * 2(n-1)/n with algbw = S / t; as a share of the link rate it needs no clock.
    ratio = MESSAGE_BYTES * 2 * (n - 1) / n / cycles / link_bytes_per_cycle
    observed_ratio = MESSAGE_BYTES * 2 * (n - 1) / n / observed / link_bytes_per_cycle
    clock_hz = 1e9 / CLOCK_PERIOD_NS
    busbw_gbytes = ratio * link_bytes_per_cycle * clock_hz / 1e9
    context = f"n={n}, 1 MiB fp32, busbw {busbw_gbytes:.2f} GB/s at {clock_hz / 1e6:.0f} MHz"
    dut._log.info("collective: %d cycles (links busy %d), busbw/link %.4f, %s", cycles, observed, ratio, context)
    assert ratio <= 1.0, f"busbw {ratio:.4f} of the link rate is impossible: a ring cannot beat its links"
    # The counter spans start to done; the links' busy span is inside it, a few hops shorter.
    perf.check("allreduce", "busbw_ratio", ratio, observed_ratio, tolerance=0.01, context=context)


@cocotb.test(timeout_time=50, timeout_unit="us")
@cocotb.parametrize(dtype=list(DTYPES))
async def reducer_keeps_one_beat_per_cycle(dut, dtype):
    tb = RingTB(dut)
    await tb.reset()
    frames = ReducerFrames(dut, tb.ranks)
    info = DTYPES[dtype]
    elements = 64 * tb.ranks * tb.lanes(dtype)
    rng = np.random.default_rng(cocotb.RANDOM_SEED)
    vectors = [rng.integers(0, 1 << info.bits, elements, dtype=np.uint64).astype(info.unsigned) for _ in range(tb.ranks)]
    results, reports = await tb.allreduce(vectors, dtype, "max", backdoor=True)
    assert_every_rank_matches(results, ring_allreduce(vectors, dtype, "max", 8 * tb.beat_bytes), dtype)
    beats = sum(report.counters["reducer_beats"] for report in reports)
    starved = sum(report.counters["reducer_starved_cycles"] for report in reports)
    expected_beats = (tb.ranks - 1) * -(-elements * info.bits // 8 // tb.beat_bytes)
    assert beats == expected_beats == frames.beats, f"{beats} reducer beats, saw {frames.beats}, expected {expected_beats}"
    perf.check("allreduce", "reducer_utilisation", beats / (beats + starved), frames.beats / frames.span_cycles,
               context=f"n={tb.ranks}, {dtype}")
