# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The DPU cluster at 512 bits and 100 Gb/s links: ring all-reduce bus bandwidth over RoCEv2 at
the message sizes a training job sends, from the collective engines' own cycle counters, held
against the testbench's view of the links and against the RoCEv2 goodput ceiling."""

from __future__ import annotations

import cocotb
import numpy as np

from dpuv.drivers import collective
from dpuv.harness import perf
from dpuv.models.reduction import ring_allreduce
from dpuv.tb.testbench import CLOCK_PERIOD_NS, LinkActivity, test_rng
from cluster_bench import ClusterTB

LINE_RATE_BYTES_PER_NS = 100e9 / 8 / 1e9
PMTU = 4096
# Per packet on the wire beyond its payload: preamble and SFD, gap, Ethernet, IPv4, UDP, BTH, ICRC, FCS
PACKET_OVERHEAD_BYTES = 8 + 12 + 14 + 20 + 8 + 12 + 4 + 4
GOODPUT_CEILING = PMTU / (PMTU + PACKET_OVERHEAD_BYTES)
MESSAGE_SIZES = (64 << 10, 1 << 20)


@cocotb.test(timeout_time=4, timeout_unit="ms")
async def busbw_at_every_message_size(dut):
    rng = test_rng("cluster bandwidth")
    tb = ClusterTB(dut, rng)
    await tb.reset()
    layout = collective.Layout(slots=8, slot_bytes=32768)
    await collective.connect_ring(tb.nodes, layout, pmtu=PMTU, rng=rng)
    links = LinkActivity(dut)
    ranks = tb.nodes_count
    generator = np.random.default_rng(rng.getrandbits(32))
    for collective_id, size in enumerate(MESSAGE_SIZES):
        elements = size // 4
        vectors = [generator.standard_normal(elements).astype(np.float32).view(np.uint32) for _ in range(ranks)]
        expected = ring_allreduce(vectors, "fp32", "sum", beat_bits=tb.data_width)
        links.clear()
        results, reports = await collective.allreduce(tb.nodes, vectors, "fp32", "sum", collective_id, layout,
                                                      timeout_cycles=4_000_000)
        for report, result in zip(reports, results):
            assert not report.failed and report.status["done"], f"rank {report.rank}: {report.status}"
            assert np.array_equal(result, expected), f"rank {report.rank}: wrong elements"
        cycles = max(report.counters["collective_cycles"] for report in reports)
        observed = links.last - links.first + 1

        def busbw_ratio(span_cycles: int) -> float:
            algbw = size / (span_cycles * CLOCK_PERIOD_NS)  # bytes per ns
            return algbw * 2 * (ranks - 1) / ranks / (LINE_RATE_BYTES_PER_NS * GOODPUT_CEILING)

        context = f"{ranks} nodes, {size >> 10} KiB per rank, fp32, 100G links, PMTU {PMTU}"
        figure = perf.compare("cluster", "busbw_ratio", busbw_ratio(cycles), busbw_ratio(observed),
                              tolerance=0.02, context=context)
        perf.record(figure)
        dut._log.info("%s: %d cycles, busbw %.2f GB/s, %.3f of the goodput ceiling; credit stalls %s; slot peak %s",
                      context, cycles, size * 2 * (ranks - 1) / ranks / (cycles * CLOCK_PERIOD_NS),
                      busbw_ratio(cycles), [r.counters["credit_stall_cycles"] for r in reports],
                      [r.counters["slot_peak"] for r in reports])
        # The counters must agree with the links; the target is reported, not asserted, while the
        # engine takes each piece through node memory (docs/cluster.md, figures)
        assert figure.agrees, figure.explain()
