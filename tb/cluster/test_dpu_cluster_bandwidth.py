# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The DPU cluster at 512 bits and 100 Gb/s links: ring all-reduce bus bandwidth over RoCEv2 at
the message sizes a training job sends, from the collective engines' own cycle counters, held
against the testbench's view of the links and against the RoCEv2 goodput ceiling; and the
latency of small all-reduces and of one host-posted RDMA WRITE through the switch."""

from __future__ import annotations

import random
from dataclasses import dataclass

import cocotb
import numpy as np

from dpuv.drivers import collective, rdma
from dpuv.harness import perf
from dpuv.models.reduction import ring_allreduce
from dpuv.models.roce_qp import WorkRequest
from dpuv.tb.testbench import CLOCK_PERIOD_NS, CycleCounter, LinkActivity, test_rng
from cluster_bench import LINE_RATE_BYTES_PER_NS, ClusterTB, CollectiveEnds, MemoryWrites

PMTU = 4096
# Per packet on the wire beyond its payload: preamble and SFD, gap, Ethernet, IPv4, UDP, BTH, ICRC, FCS
PACKET_OVERHEAD_BYTES = 8 + 12 + 14 + 20 + 8 + 12 + 4 + 4
GOODPUT_CEILING = PMTU / (PMTU + PACKET_OVERHEAD_BYTES)
MESSAGE_SIZES = (64 << 10, 1 << 20)
# Under 1 % loss: a size whose run takes minutes, not tens of them, and a short ACK timeout
LOSSY_SIZE = 256 << 10
ONE_PERCENT_OF_65536 = 655
LOSSY_TIMEOUT_CODE = 2

# Latency: fp32 vectors of 2 to 256 elements per rank
LATENCY_SIZES = (8, 64, 256, 1024)
# A rank's end from its counter (start stamp + COLLECTIVE_CYCLES) and from its busy flag differ by
# where each is sampled: the stamp is taken when the bus master sees the start write's response,
# a cycle or two after the engine took the write, and the flag is read at the edge after it fell
# (one cycle apart on Verilator)
END_TOLERANCE_CYCLES = 2
# A RAM word read at the edge that writes it still shows the old bytes: the array shows a beat one
# cycle after the memory port took it
RAM_ARRAY_LAG_CYCLES = 1
# perf.compare's tolerance is in us: half a cycle beyond the cycles allowed, so that the rounding of
# cycles into us never decides
ROUNDING_CYCLES = 0.5
# The one-way WRITE: a host-posted QP pair beside the ring's offloaded QPs (collective.QPN_NEXT,
# QPN_PREV), and its queues, source and target from 1 MiB of node memory on, far past the
# collective layout's slots and vector
WRITE_BYTES = 64
WRITE_REPEATS = 4
WRITER_QPN, TARGET_QPN = 4, 5
WRITE_RKEY_INDEX = 2
WRITE_QUEUE_LOG_SIZE = 4
WRITE_SQ_BASE, WRITE_RQ_BASE, WRITE_CQ_BASE = 0x100000, 0x101000, 0x102000
WRITE_SOURCE_BASE, WRITE_TARGET_BASE, WRITE_TARGET_BYTES = 0x104000, 0x110000, 0x1000


def cycles_to_us(cycles: int) -> float:
    return cycles * CLOCK_PERIOD_NS / 1000


async def measure_busbw(tb: ClusterTB, links: LinkActivity, size: int, collective_id: int, layout: collective.Layout,
                        generator: np.random.Generator, context: str, metric: str = "busbw_ratio",
                        alpha_cycles: float | None = None) -> dict[str, list[int]]:
    """One exact fp32 all-reduce of `size` bytes per rank, its busbw recorded from the engines'
    COLLECTIVE_CYCLES and held against the testbench's view of the links; with alpha_cycles (one
    step's latency, measured), its time also against the ring's bound 2(n-1) alpha + 2(n-1)/n S/B,
    B the per-port goodput ceiling. Returns the ranks' counters."""
    ranks = tb.nodes_count
    vectors = [generator.standard_normal(size // 4).astype(np.float32).view(np.uint32) for _ in range(ranks)]
    expected = ring_allreduce(vectors, "fp32", "sum", beat_bits=tb.data_width)
    links.clear()
    results, reports = await collective.allreduce(tb.nodes, vectors, "fp32", "sum", collective_id, layout,
                                                  timeout_cycles=4_000_000)
    for report, result in zip(reports, results):
        assert not report.failed and report.status["done"], f"rank {report.rank}: {report.status}"
        assert np.array_equal(result, expected), f"rank {report.rank}: {np.count_nonzero(result != expected)} wrong"
    cycles = max(report.counters["collective_cycles"] for report in reports)
    observed = links.last - links.first + 1

    def busbw_ratio(span_cycles: int) -> float:
        algbw = size / (span_cycles * CLOCK_PERIOD_NS)  # bytes per ns
        return algbw * 2 * (ranks - 1) / ranks / (LINE_RATE_BYTES_PER_NS * GOODPUT_CEILING)

    context = f"{ranks} nodes, {size >> 10} KiB per rank, fp32, 100G links, PMTU {PMTU}{context}"
    figure = perf.compare("cluster", metric, busbw_ratio(cycles), busbw_ratio(observed),
                          tolerance=0.02, context=context)
    perf.record(figure)
    counters = {name: [report.counters[name] for report in reports] for name in reports[0].counters}
    tb.dut._log.info("%s: %d cycles, busbw %.2f GB/s, %.3f of the goodput ceiling; credit stalls %s; slot peak %s",
                     context, cycles, size * 2 * (ranks - 1) / ranks / (cycles * CLOCK_PERIOD_NS),
                     busbw_ratio(cycles), counters["credit_stall_cycles"], counters["slot_peak"])
    # The counters must agree with the links; the targets are reported, not asserted, while the
    # engine takes each piece through node memory (docs/cluster.md, figures)
    assert figure.agrees, figure.explain()
    if alpha_cycles is not None:
        steps = 2 * (ranks - 1)
        bytes_per_cycle = LINE_RATE_BYTES_PER_NS * GOODPUT_CEILING * CLOCK_PERIOD_NS
        bound_cycles = steps * alpha_cycles + steps / ranks * size / bytes_per_cycle
        model = perf.compare("cluster", "time_over_model", cycles / bound_cycles, observed / bound_cycles,
                             tolerance=0.05, context=f"{context}, alpha {alpha_cycles:.0f} cycles a step")
        perf.record(model)
        assert model.agrees, model.explain()
    return counters


async def step_latency_cycles(tb: ClusterTB, collective_id: int, layout: collective.Layout) -> float:
    """alpha: one step of the ring with next to no data (an 8-byte all-reduce over its 2(n-1) steps)."""
    vectors = [np.arange(2, dtype=np.uint32) for _ in tb.nodes]
    _, reports = await collective.allreduce(tb.nodes, vectors, "int32", "sum", collective_id, layout,
                                            timeout_cycles=100_000)
    assert all(report.status["done"] for report in reports), reports
    return max(report.counters["collective_cycles"] for report in reports) / (2 * (tb.nodes_count - 1))


@cocotb.test(timeout_time=4, timeout_unit="ms")
async def busbw_at_every_message_size(dut):
    rng = test_rng("cluster bandwidth")
    tb = ClusterTB(dut, rng)
    await tb.reset()
    await collective.connect_ring(tb.nodes, collective.STREAMING_LAYOUT, pmtu=PMTU, rng=rng)
    links = LinkActivity(dut)
    generator = np.random.default_rng(rng.getrandbits(32))
    alpha = await step_latency_cycles(tb, len(MESSAGE_SIZES), collective.STREAMING_LAYOUT)
    for collective_id, size in enumerate(MESSAGE_SIZES):
        await measure_busbw(tb, links, size, collective_id, collective.STREAMING_LAYOUT, generator, context="",
                            alpha_cycles=alpha)


@cocotb.test(timeout_time=1, timeout_unit="ms")
async def busbw_under_one_percent_loss(dut):
    """1 % random loss on every switch port: the result is bit-identical to the clean ring's (the
    model's), and busbw is recorded beside the clean figures. A lost packet is mostly recovered
    by the NAK the next packet draws; a lost last packet before a pause (a sender waiting for
    credits) waits for the local ACK timeout, here code 2 (16 us)."""
    rng = test_rng("cluster bandwidth under loss")
    tb = ClusterTB(dut, rng)
    await tb.reset()
    await collective.connect_ring(tb.nodes, collective.STREAMING_LAYOUT, pmtu=PMTU, timeout=LOSSY_TIMEOUT_CODE, rng=rng)
    tb.set_faults(loss_threshold=ONE_PERCENT_OF_65536)
    links = LinkActivity(dut)
    generator = np.random.default_rng(rng.getrandbits(32))
    await measure_busbw(tb, links, LOSSY_SIZE, 0, collective.STREAMING_LAYOUT, generator, context=", 1 % loss",
                        metric="busbw_ratio_under_loss")
    switch = tb.switch_counters()
    engines = [await rdma.read_counters(node.rdma) for node in tb.nodes]
    assert sum(switch["frames_lost"]) > 0, switch
    assert sum(engine["retransmits"] for engine in engines) > 0, engines
    dut._log.info("1 %% loss: lost %s, retransmits %s, timeouts %s", switch["frames_lost"],
                  [engine["retransmits"] for engine in engines], [engine["timeouts"] for engine in engines])


@dataclass
class AllreduceTiming:
    counted_cycles: int       # first start to the last end by the ranks' COLLECTIVE_CYCLES
    seen_cycles: int          # the same by the ranks' busy flags
    start_spread_cycles: int  # first start write to the last


async def timed_allreduce(tb: ClusterTB, counter: CycleCounter, ends: CollectiveEnds, size: int, collective_id: int,
                          layout: collective.Layout, generator: np.random.Generator) -> AllreduceTiming:
    """One exact fp32 all-reduce of `size` bytes per rank: its latency from the first rank's start
    to the last rank's end, by the engines' counters and by the busy flags."""
    vectors = [generator.standard_normal(size // 4).astype(np.float32).view(np.uint32) for _ in tb.nodes]
    expected = ring_allreduce(vectors, "fp32", "sum", beat_bits=tb.data_width)
    started: dict[int, int] = {}

    def stamp(node: collective.Node) -> None:
        started[node.rank] = counter.now

    ends.clear()
    results, reports = await collective.allreduce(tb.nodes, vectors, "fp32", "sum", collective_id, layout,
                                                  timeout_cycles=100_000, after_start=stamp)
    for report, result in zip(reports, results):
        assert not report.failed and report.status["done"], f"rank {report.rank}: {report.status}"
        assert np.array_equal(result, expected), f"rank {report.rank}: wrong elements"
    # COLLECTIVE_CYCLES counts from the edge at which the engine takes CTRL.start (its `started`
    # flag rises on it and the count on every edge after) through the edge at which busy falls:
    # the start write taking effect to the rank's end, so start stamp + counter is the rank's end
    counted_ends = [started[report.rank] + report.counters["collective_cycles"] for report in reports]
    for rank, (counted, seen) in enumerate(zip(counted_ends, ends.ended)):
        assert seen is not None and abs(counted - seen) <= END_TOLERANCE_CYCLES, \
            f"rank {rank}: counter says it ended at cycle {counted}, its busy flag fell at {seen}"
    first_start = min(started.values())
    return AllreduceTiming(max(counted_ends) - first_start, max(ends.ended) - first_start,
                           max(started.values()) - first_start)


async def connect_write_pair(writer: collective.Node, target: collective.Node, rng: random.Random) -> tuple[rdma.HostQueues, int]:
    """An RC QP pair between two nodes, posted to by the host as a verbs application would (not
    offloaded): the writer's host queues, and the R_Key of the target's region."""
    writer_psn, target_psn = rng.getrandbits(24), rng.getrandbits(24)
    hosts = {}
    for node, peer, qpn, peer_qpn, send_psn, expected_psn in (
            (writer, target, WRITER_QPN, TARGET_QPN, writer_psn, target_psn),
            (target, writer, TARGET_QPN, WRITER_QPN, target_psn, writer_psn)):
        await rdma.create_qp(node.rdma, qpn, peer_qpn, peer.mac, peer.ip, 0xC200 + node.rank, expected_psn,
                             pmtu=PMTU, send_psn=send_psn, sq_base=WRITE_SQ_BASE, sq_log_size=WRITE_QUEUE_LOG_SIZE,
                             rq_base=WRITE_RQ_BASE, rq_log_size=WRITE_QUEUE_LOG_SIZE)
        # Both engines' completion queues are set up here, never left at their reset base, where
        # the ring's send queues are
        hosts[node.rank] = rdma.HostQueues(node.rdma, node.write_memory, node.read_memory)
        await hosts[node.rank].create_completion_queue(WRITE_CQ_BASE, WRITE_QUEUE_LOG_SIZE)
    rkey = (rng.getrandbits(24) << 8) | WRITE_RKEY_INDEX
    await rdma.register_region(target.rdma, rkey, WRITE_TARGET_BASE, WRITE_TARGET_BYTES, remote_write=True,
                               remote_read=False)
    host = hosts[writer.rank]
    host.attach_send_queue(WRITER_QPN, WRITE_SQ_BASE, WRITE_QUEUE_LOG_SIZE)
    return host, rkey


async def first_cycle_holding(tb: ClusterTB, target: collective.Node, address: int, data: bytes,
                              counter: CycleCounter, limit_cycles: int) -> int:
    """The first cycle node memory holds `data` at `address`, read straight from the RAM array."""
    for _ in range(limit_cycles):
        if target.read_memory(address, len(data)) == data:
            return counter.now
        await tb.bus.cycles(1)
    raise AssertionError(f"{len(data)} bytes not at {address:#x} after {limit_cycles} cycles")


async def timed_write(tb: ClusterTB, counter: CycleCounter, landing: MemoryWrites, host: rdma.HostQueues, rkey: int,
                      repeat: int) -> tuple[int, int, int]:
    """One 64-byte RDMA WRITE from node 0's host to node 1's memory: cycles from the doorbell
    write's completion to the data in the target memory, by the memory's AXI handshake and by
    the RAM array (less its lag), and the requester's own doorbell-to-first-beat count."""
    writer, target = tb.nodes[0], tb.nodes[1]
    data = tb.rng.randbytes(WRITE_BYTES)
    source, destination = WRITE_SOURCE_BASE + repeat * WRITE_BYTES, WRITE_TARGET_BASE + repeat * WRITE_BYTES
    writer.write_memory(source, data)
    target.write_memory(destination, bytes(byte ^ 0xFF for byte in data))
    doorbells_before = [await writer.rdma.read_register(name) for name in ("DOORBELL_LATENCY_SUM",
                                                                              "DOORBELL_LATENCY_COUNT")]
    host.place(WRITER_QPN, WorkRequest.write(repeat, data, destination, rkey), source)
    await host.ring(WRITER_QPN)
    rung = counter.now
    held = await first_cycle_holding(tb, target, destination, data, counter, limit_cycles=2_000)
    completions = []
    for _ in range(100):
        completions += await host.poll()
        if completions:
            break
        await tb.bus.cycles(16)
    assert [(c.wr_id, c.status) for c in completions] == [(repeat, rdma.WcStatus.SUCCESS)], completions
    assert target.read_memory(destination, WRITE_BYTES) == data
    latency_sum, latency_count = [await writer.rdma.read_register(name) - before for name, before in
                                  zip(("DOORBELL_LATENCY_SUM", "DOORBELL_LATENCY_COUNT"), doorbells_before)]
    assert latency_count == 1, f"{latency_count} doorbells measured for one WRITE"
    landed = landing.landed(destination, WRITE_BYTES)
    assert landed is not None, f"no write burst into {destination:#x} seen on node 1's memory port"
    return landed - rung, held - RAM_ARRAY_LAG_CYCLES - rung, latency_sum


@cocotb.test(timeout_time=300, timeout_unit="us")
async def latency_of_small_allreduces_and_of_a_one_way_write(dut):
    rng = test_rng("cluster latency")
    tb = ClusterTB(dut, rng)
    await tb.reset()
    counter = CycleCounter(dut.clk)
    ends = CollectiveEnds(dut, counter, tb.nodes_count)
    # One piece per step at every size here: the slots' size does not matter
    layout = collective.Layout()
    await collective.connect_ring(tb.nodes, layout, pmtu=PMTU, rng=rng)
    generator = np.random.default_rng(rng.getrandbits(32))
    for collective_id, size in enumerate(LATENCY_SIZES):
        timing = await timed_allreduce(tb, counter, ends, size, collective_id, layout, generator)
        context = f"{tb.nodes_count} nodes, {size} B per rank, fp32 sum, first start to last end"
        figure = perf.compare("cluster", "allreduce_latency_us", cycles_to_us(timing.counted_cycles),
                              cycles_to_us(timing.seen_cycles),
                              tolerance=cycles_to_us(END_TOLERANCE_CYCLES + ROUNDING_CYCLES), context=context)
        perf.record(figure)
        dut._log.info("%s: %d cycles, %.3f us (busy flags: %d cycles; the starts spread over %d cycles)", context,
                      timing.counted_cycles, cycles_to_us(timing.counted_cycles), timing.seen_cycles,
                      timing.start_spread_cycles)
        # The counters must agree with the flags; the target is reported, not asserted, while the
        # 1 KiB collective misses it (docs/cluster.md, latency)
        assert figure.agrees, figure.explain()

    landing = MemoryWrites(dut, 1, counter)
    host, rkey = await connect_write_pair(tb.nodes[0], tb.nodes[1], rng)
    one_way = []
    for repeat in range(WRITE_REPEATS):
        probed, held, doorbell_cycles = await timed_write(tb, counter, landing, host, rkey, repeat)
        dut._log.info("64 B RDMA WRITE %d, node 0 to node 1: %d cycles doorbell to data in node 1's memory "
                      "(RAM array, less its lag: %d; the requester's doorbell to first beat out: %d)",
                      repeat, probed, held, doorbell_cycles)
        assert probed == held, f"memory port says cycle {probed}, the RAM array {held}"
        one_way.append((probed, held))
    worst_probed, worst_held = max(one_way)
    context = (f"64 B RDMA WRITE, node 0 host to node 1 memory through the switch, worst of {WRITE_REPEATS} "
               f"(mean {cycles_to_us(sum(p for p, _ in one_way) / WRITE_REPEATS):.3f} us)")
    # Both sides of this figure are the testbench's: no counter spans two nodes. The figure is the
    # node memory's AXI handshake of the last data beat (the bytes are in the remote RAM, which is
    # what a peer that polls them sees), held against the RAM array itself
    figure = perf.compare("cluster", "write_one_way_us", cycles_to_us(worst_probed), cycles_to_us(worst_held),
                          tolerance=cycles_to_us(ROUNDING_CYCLES), context=context)
    perf.record(figure)
    assert figure.passed, figure.explain()
