# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""rdma_engine's message rate at every message size a user sends (64 B to 4 KiB, one packet each
at PMTU 4096), as responder and as requester, against what the MAC could carry.

Each burst is posted at once, so the requests arrive (or leave) back to back. The rate is the
spacing of the frames the engine sends (its ACKs, its READ responses, its requests), taken from
the engine's counters, TX_SPAN_CYCLES less one frame's beats (TX_BEATS / TX_FRAMES) over
TX_FRAMES - 1, and from the testbench's cycle stamps of each frame's first beat; the two must
agree. The MAC ceiling is one frame every `beats` cycles, the larger of a request's and its
reply's frame. Every request must complete exactly once with its bytes and nothing may be dropped
or answered twice: a burst within the receive buffer (64 KiB, 128 packets) is the peer staying
inside the window. The shares are recorded against targets.toml for the benchmark table, not
asserted: the responder takes one packet at a time (docs/rdma.md, Known limits)."""

import cocotb

from dpuv.drivers import rdma
from dpuv.harness import perf
from dpuv.models.roce_qp import QpConfig, QueuePair, WorkRequest
from dpuv.models.fabric import beats
from dpuv.tb.testbench import CLOCK_PERIOD_NS, CycleCounter, HandshakeMonitor, pulse_reset, test_rng

from rdma_engine_bench import ACK_TIMEOUT_CODE, DUT, DUT_QPN, PEER, PEER_QPN, REGION_BASE, REGION_BYTES, RKEY, TB
from requester_bench import LOCAL_BASE, PEER_BASE, PEER_RKEY, Requester, check_exactly_once

PMTU = 4096
CLOCK_MHZ = 1000 / CLOCK_PERIOD_NS
# Requests per burst at each size: at most 48 KiB and 32 packets, inside the responder's receive
# buffer and the requester's host buffers
BURSTS = {64: 32, 256: 32, 1024: 16, 4096: 12}


class Rate:
    """The spacing of a burst's frames out of the engine, by its counters and by the monitor."""

    def __init__(self, events: dict[str, int], monitor: HandshakeMonitor, frames: int):
        assert events["tx_frames"] == frames == len(monitor.first_beat_cycles), \
            f"expected {frames} frames out, the engine counted {events['tx_frames']}, " \
            f"the monitor saw {len(monitor.first_beat_cycles)}"
        frame_beats = events["tx_beats"] / frames
        self.counter_spacing = (events["tx_span_cycles"] - frame_beats) / (frames - 1)
        starts = monitor.first_beat_cycles
        self.testbench_spacing = (starts[-1] - starts[0]) / (frames - 1)
        self.reply_beats = frame_beats

    def record(self, metric: str, ceiling_beats: float, what: str, data_width: int) -> perf.Figure:
        def share(spacing: float) -> float:
            return ceiling_beats / spacing
        mpps = CLOCK_MHZ / self.counter_spacing
        context = (f"{data_width}-bit, {what}: {mpps:.1f} Mpps, {self.counter_spacing:.1f} cycles each; "
                   f"MAC ceiling {CLOCK_MHZ / ceiling_beats:.1f} Mpps")
        figure = perf.compare("rdma", metric, share(self.counter_spacing), share(self.testbench_spacing),
                              tolerance=0.01, context=context)
        perf.record(figure)
        assert figure.agrees, figure.explain()
        return figure


async def responder_burst(tb: TB, kind: str, size: int) -> perf.Figure:
    """A burst of `size`-byte WRITEs or READs from a fresh model peer to the engine's responder,
    reset and set up again first, so that its counters cover this burst alone."""
    dut, rng, count = tb.dut, tb.rng, BURSTS[size]
    await pulse_reset(dut.clk, dut.rst)
    await rdma.set_up(tb.registers, DUT.mac, DUT.ip, PMTU)
    await rdma.create_qp(tb.registers, DUT_QPN, PEER_QPN, PEER.mac, PEER.ip, DUT.udp_source_port, 0, pmtu=PMTU)
    await rdma.register_region(tb.registers, RKEY, REGION_BASE, REGION_BYTES)
    tb.memory.write(REGION_BASE, rng.randbytes(REGION_BYTES))
    peer = QueuePair(QpConfig(PEER_QPN, DUT_QPN, PEER, DUT, pmtu=PMTU, local_ack_timeout=ACK_TIMEOUT_CODE))
    if kind == "WRITE":
        requests = [WorkRequest.write(index, rng.randbytes(size), REGION_BASE + index * size, RKEY)
                    for index in range(count)]
    else:
        requests = [WorkRequest.read(index, REGION_BASE + index * size, RKEY, size) for index in range(count)]
    memory_before = tb.memory.read(REGION_BASE, REGION_BYTES)
    for request in requests:
        peer.post_send(request)
    tb.monitor.clear()
    first_delivered = len(tb.delivered)
    completions = sorted(await tb.run(peer, count), key=lambda completion: completion.wr_id)
    assert [(c.wr_id, c.status.name) for c in completions] == [(index, "SUCCESS") for index in range(count)]
    for request, completion in zip(requests, completions):
        if kind == "WRITE":
            assert tb.memory.read(request.remote_address, size) == request.data, f"WRITE {request.wr_id}"
        else:
            offset = request.remote_address - REGION_BASE
            assert completion.data == memory_before[offset:offset + size], f"READ {request.wr_id}"
    events = tb.events
    assert (events["naks_sent"], events["duplicates"], events["drops_overflow"], events["sequence_drops"]) == \
        (0, 0, 0, 0), f"a burst inside the receive buffer was not taken whole: {events}"
    data_width = len(dut.s_axis_rx_tdata)
    rate = Rate(events, tb.monitor, count)
    request_beats = beats(len(tb.delivered[first_delivered]), data_width // 8)
    metric = "responder_read_share" if kind == "READ" else (
        "responder_write_share_64" if size == 64 else "responder_write_share")
    return rate.record(metric, max(request_beats, rate.reply_beats), f"responder, {kind} {size} B", data_width)


async def requester_burst(requester: Requester, monitor: HandshakeMonitor, size: int) -> perf.Figure:
    """A burst of `size`-byte WRITEs from host memory posted at once to the engine's send queue,
    the engine reset and set up again first (a fresh model responder)."""
    dut, rng, count = requester.tb.dut, requester.rng, BURSTS[size]
    await pulse_reset(dut.clk, dut.rst)
    requester.new_peer(rng.randrange(1 << 24))
    await requester.set_up(reset=False)
    work = []
    for index in range(count):
        data = rng.randbytes(size)
        requester.tb.memory.write(LOCAL_BASE + index * size, data)
        work.append((WorkRequest.write(index, data, PEER_BASE + index * size, PEER_RKEY), LOCAL_BASE + index * size))
    monitor.clear()
    requester.completions = []
    await requester.run(work)
    await check_exactly_once(requester, work)
    events = requester.tb.events
    assert (events["retransmits"], events["timeouts"], events["naks_received"]) == (0, 0, 0), events
    rate = Rate(events, monitor, count)
    return rate.record("requester_write_share", rate.reply_beats, f"requester, WRITE {size} B",
                       len(dut.s_axis_rx_tdata))


def log_rates(dut, figures: list[perf.Figure]) -> None:
    for figure in figures:
        dut._log.info("%-26s %.3f of the MAC ceiling (%s)", figure.metric, figure.counter_value, figure.context)


@cocotb.test(timeout_time=1, timeout_unit="ms")
async def responder_message_rates_at_every_size(dut):
    """Back-to-back WRITEs and READs of 64 B to 4 KiB from the model peer; the rates go to the
    benchmark report and the log."""
    tb = TB(dut, test_rng("responder rates"))
    tb.pmtu = PMTU
    await tb.reset()
    tb.monitor = HandshakeMonitor(dut, "m_axis_tx", CycleCounter(dut.clk))
    figures = []
    for size in BURSTS:
        for kind in ("WRITE", "READ"):
            figures.append(await responder_burst(tb, kind, size))
    log_rates(dut, figures)


@cocotb.test(timeout_time=600, timeout_unit="us")
async def requester_message_rates_at_every_size(dut):
    """Back-to-back WRITEs of 64 B to 4 KiB from host memory; the rates go to the benchmark report
    and the log."""
    requester = Requester(dut, test_rng("requester rates"), pmtu=PMTU)
    await requester.set_up()
    monitor = HandshakeMonitor(dut, "m_axis_tx", CycleCounter(dut.clk))
    log_rates(dut, [await requester_burst(requester, monitor, size) for size in BURSTS])
