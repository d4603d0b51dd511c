# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""rdma_engine's congestion notification (docs/rdma.md) against dpuv.models.dcqcn's notification
point: CE-marked frames for the engine's QPs are answered with CNPs byte for byte the model's, at
most one per QP per interval; CNPs, unknown QPs and unmarked frames are never answered; received
CNPs are counted and change no QP; with CONGESTION.ect every request and response the engine
sends is ECN-capable, and with the register at its reset values nothing changes at all. And the
reaction point, against dcqcn.ReactionPoint: a CNP cuts the QP's rate as the model does, the rate
registers follow the model's recovery, and the bytes the engine sends follow the rate."""

from __future__ import annotations

import random

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiStreamFrame

from dpuv.drivers import rdma
from dpuv.models.dcqcn import DcqcnParameters, NotificationPoint, RateStage, ReactionPoint
from dpuv.models.roce_packet import (ECN_CE, ECN_ECT0, ECN_NOT_ECT, Addressing, Endpoint, Opcode, build_frame,
                                     cnp_packet, parse_frame, with_ecn)
from dpuv.models.roce_qp import QpConfig, QueuePair, WorkRequest
from dpuv.regs.maps import rdma_engine
from dpuv.tb.testbench import CLOCK_PERIOD_NS, test_rng

from rdma_engine_bench import (ACK_TIMEOUT_CODE, DUT, DUT_QPN, PEER, PEER_QPN, PMTU, REGION_BASE, REGION_BYTES, RKEY,
                               RQ_BASE, RQ_LOG_SIZE, TB)
from requester_bench import LOCAL_BASE, PEER_BASE, PEER_RKEY, Requester, check_exactly_once, exchange_on

# The least interval between two CNPs to one QP in these tests: 4 us at 250 MHz
INTERVAL_CYCLES = 1000
# Waves of frames start this far apart: well inside the interval, or well past it, so that the
# at most 160 cycles a wave takes to reach the engine (eight frames of at most 20 beats) never
# move a frame across its boundary: at most three short gaps in a row (600 cycles), any long one
# past 1 500
SHORT_GAP, LONG_GAP = INTERVAL_CYCLES // 5, 3 * INTERVAL_CYCLES // 2
# The second QP pair, besides the bench's DUT_QPN <-> PEER_QPN
DUT_QPN_2, PEER_QPN_2 = DUT_QPN + 1, PEER_QPN + 1
PEER_2 = Endpoint("02:00:00:00:00:03", "10.0.0.3", 0xC022)
DUT_PORT_2 = 0xC0DD
CNP_DSCP_AFTER_RESET = rdma_engine.BLOCK["CONGESTION"].field("cnp_dscp").reset
ECT0_TOS = ECN_ECT0


async def two_qps(tb: TB) -> tuple[QueuePair, QueuePair]:
    """The bench's QP and a second one to another peer, each with a model requester writing to it."""
    await tb.set_up(0)
    await rdma.create_qp(tb.registers, DUT_QPN_2, PEER_QPN_2, PEER_2.mac, PEER_2.ip, DUT_PORT_2, 0, pmtu=PMTU,
                         rq_base=RQ_BASE, rq_log_size=RQ_LOG_SIZE)
    first = tb.requester(0)
    second = QueuePair(QpConfig(PEER_QPN_2, DUT_QPN_2, PEER_2, DUT, pmtu=PMTU, local_ack_timeout=ACK_TIMEOUT_CODE))
    return first, second


def notification_point(interval_cycles: int) -> NotificationPoint:
    """The model of what the engine must do, with the engine's two QPs' paths."""
    model = NotificationPoint(DcqcnParameters(min_time_between_cnps_ns=interval_cycles * CLOCK_PERIOD_NS))
    tos = CNP_DSCP_AFTER_RESET << 2
    model.add_qp(DUT_QPN, PEER_QPN, Addressing.between(DUT, PEER, tos))
    model.add_qp(DUT_QPN_2, PEER_QPN_2, Addressing.between(Endpoint(DUT.mac, DUT.ip, DUT_PORT_2), PEER_2, tos))
    return model


def writes(rng: random.Random, peer: QueuePair, shadow: bytearray, count: int, slice_offset: int) -> list[bytes]:
    """`count` short WRITE ONLY frames from `peer` into its quarter of the region, in PSN order."""
    quarter = REGION_BYTES // 4
    for _ in range(count):
        length = rng.randint(1, 96)
        offset = slice_offset + rng.randrange(quarter - length)
        data = rng.randbytes(length)
        shadow[offset:offset + length] = data
        peer.post_send(WorkRequest.write(rng.getrandbits(32), data, REGION_BASE + offset, RKEY))
    frames = peer.poll(0)
    assert len(frames) == count, "the model requester held WRITEs back"
    return frames


def foreign_frame(dest_qpn: int) -> bytes:
    """A WRITE from the peer to an engine QP that was never set up (or past the engine's QPs)."""
    stranger = QueuePair(QpConfig(PEER_QPN, dest_qpn, PEER, DUT, pmtu=PMTU))
    stranger.post_send(WorkRequest.write(0, bytes(8), REGION_BASE, RKEY))
    return stranger.poll(0)[0]


def cnps_in(packets) -> list:
    return [packet for packet in packets if packet.bth.opcode == Opcode.CNP]


@cocotb.test(timeout_time=120, timeout_unit="us")
async def marked_frames_get_cnps_paced_per_qp_as_the_model_sends_them(dut):
    """Two QPs receive waves of short WRITEs, each frame CE-marked, ECT(0) or Not-ECT at random,
    with CE-marked frames for a QP never set up and for one past the engine's QPs, and CE-marked
    CNPs, slipped in. Waves start a fifth of the interval or one and a half intervals apart. The
    engine's CNPs are the model's, frame for frame (peer QP, addresses, the QP's UDP port, DSCP 48,
    BECN, P_Key, ICRC); its counters match the model's; every WRITE lands; and every ACK is
    ECT(0)."""
    rng = test_rng("cnp-pacing")
    tb = TB(dut, rng)
    await tb.reset()
    first, second = await two_qps(tb)
    await rdma.set_congestion(tb.registers, ect=True, notify=True, cnp_interval_cycles=INTERVAL_CYCLES)
    model = notification_point(INTERVAL_CYCLES)
    shadow = bytearray(tb.memory.read(REGION_BASE, REGION_BYTES))
    never_set_up = foreign_frame(DUT_QPN + 2)
    past_the_qps = foreign_frame(0x800000 | DUT_QPN)
    cnp_from_peer = build_frame(cnp_packet(Addressing.between(PEER, DUT), DUT_QPN))

    expected_cnps, sent_cnps, cnps_delivered, short_gaps_in_a_row = [], [], 0, 0
    for wave in range(12):
        frames = (writes(rng, first, shadow, rng.randint(0, 3), 0)
                  + writes(rng, second, shadow, rng.randint(0, 3), REGION_BYTES // 4))
        frames = [with_ecn(frame, rng.choice((ECN_CE, ECN_CE, ECN_ECT0, ECN_NOT_ECT))) for frame in frames]
        if rng.random() < 0.3:
            frames.append(with_ecn(rng.choice((never_set_up, past_the_qps)), ECN_CE))
        if rng.random() < 0.3:
            frames.append(with_ecn(cnp_from_peer, rng.choice((ECN_CE, ECN_NOT_ECT))))
            cnps_delivered += 1
        # A peer's frames stay in PSN order; the strays go anywhere
        now_ns = tb.cycle * CLOCK_PERIOD_NS
        for frame in frames:
            cnp = model.on_frame(frame, now_ns)
            if cnp is not None:
                expected_cnps.append(parse_frame(cnp))
        short = rng.random() < 0.5 and short_gaps_in_a_row < 3
        short_gaps_in_a_row = short_gaps_in_a_row + 1 if short else 0
        sent_cnps += cnps_in(await tb.play(frames, SHORT_GAP if short else LONG_GAP))
    sent_cnps += cnps_in(await tb.play([], 200))

    assert len(sent_cnps) == len(expected_cnps), \
        f"the engine sent {len(sent_cnps)} CNPs, the model {len(expected_cnps)} ({dict(model.counters)})"
    for index, (sent, expected) in enumerate(zip(sent_cnps, expected_cnps)):
        assert sent == expected, f"CNP {index}: {sent} is not the model's {expected}"
    events = await tb.settle()
    dut._log.info("model %s, %d CNPs delivered; counters %s", dict(model.counters), cnps_delivered,
                  {name: events[name] for name in ("ce_marked_received", "cnps_sent", "cnps_received")})
    assert model.counters["cnps_sent"] >= 4 and model.counters["cnps_suppressed"] >= 2, \
        f"the waves did not exercise both sending and pacing: {dict(model.counters)}"
    assert (events["ce_marked_received"], events["cnps_sent"], events["cnps_received"]) == \
        (model.counters["ce_marked"], model.counters["cnps_sent"], cnps_delivered), events
    assert tb.memory.read(REGION_BASE, REGION_BYTES) == bytes(shadow), "a marked WRITE did not land as written"
    answers = [packet for packet in tb.sent if packet.bth.opcode != Opcode.CNP]
    assert answers and all(packet.addressing.tos == ECT0_TOS for packet in answers), \
        "an ACK went out without ECT(0)"
    assert (events["naks_sent"], events["drops_malformed"], events["sequence_drops"]) == (0, 0, 0), events


@cocotb.test(timeout_time=60, timeout_unit="us")
async def with_the_register_at_reset_marked_frames_are_only_counted(dut):
    """CONGESTION as reset leaves it: CE-marked WRITEs and CNPs arrive; the WRITEs land and are
    acknowledged Not-ECT, no CNP goes out, and the marks and CNPs are counted all the same."""
    rng = test_rng("cnp-off")
    tb = TB(dut, rng)
    await tb.reset()
    first, _ = await two_qps(tb)
    shadow = bytearray(tb.memory.read(REGION_BASE, REGION_BYTES))
    frames = [with_ecn(frame, ECN_CE) for frame in writes(rng, first, shadow, 6, 0)]
    cnp = build_frame(cnp_packet(Addressing.between(PEER, DUT), DUT_QPN))
    frames[2:2] = [cnp, with_ecn(cnp, ECN_CE)]
    sent = await tb.play(frames, 400)
    events = await tb.settle()
    assert not cnps_in(sent), "the engine sent a CNP with CONGESTION.notify clear"
    assert sent and all(packet.addressing.tos == 0 for packet in sent), "the engine marked a frame ECN-capable"
    assert (events["ce_marked_received"], events["cnps_sent"], events["cnps_received"]) == (6, 0, 2), events
    assert tb.memory.read(REGION_BASE, REGION_BYTES) == bytes(shadow)


@cocotb.test(timeout_time=200, timeout_unit="us")
async def as_requester_its_requests_are_ect_and_each_marked_response_is_notified(dut):
    """The engine as requester with ECT on and a CNP interval of 0: every request packet it sends
    is ECT(0); the wire marks every ACK and READ response CE on its way back, and each one sends a
    CNP to the peer's QP (the model responder takes them as CNPs and drops them), while every work
    request still completes exactly once with exact bytes."""
    rng = test_rng("cnp-requester")
    requester = Requester(dut, rng)
    await requester.set_up()
    tb = requester.tb
    await rdma.set_congestion(tb.registers, ect=True, notify=True, cnp_interval_cycles=0)
    deliver = tb.to_dut.deliver
    tb.to_dut.deliver = lambda now: [with_ecn(frame, ECN_CE) for frame in deliver(now)]
    await exchange_on(requester, rng, 16)
    events = tb.events
    requests = [packet for packet in tb.sent if packet.info.is_request]
    assert requests and all(packet.addressing.tos == ECT0_TOS for packet in requests), \
        "a request went out without ECT(0)"
    responses = sum(1 for frame in tb.delivered if not parse_frame(frame, PMTU).info.is_request)
    assert events["ce_marked_received"] == len(tb.delivered) and responses > 0, events
    assert events["cnps_sent"] == events["ce_marked_received"], events
    assert requester.peer.counters.dropped["cnp"] == events["cnps_sent"], \
        f"the peer took {requester.peer.counters.dropped['cnp']} CNPs of {events['cnps_sent']}"


# The reaction point test's DCQCN: a 16 Gb/s line (a 64-bit bus's rate at 250 MHz, so that the
# engine can fill it at either width), the rate raised every 2 us after a CNP, three fast-recovery
# steps, then additive steps of an eighth of the line, and no byte stage (the byte counter never
# fills in the test)
LINE_RATE_MBPS = 16_000
REACTION = DcqcnParameters(line_rate_mbps=LINE_RATE_MBPS, rate_increase_period_ns=2_000, fast_recovery_stages=3,
                           additive_increase_mbps=LINE_RATE_MBPS // 8, hyper_increase_mbps=LINE_RATE_MBPS // 4,
                           byte_counter_bytes=1 << 30)
# The engine's QPs with a reaction point start at this one (the bench's QP is DUT_QPN, the next)
FIRST_LIMITED_QPN = DUT_QPN - 1
# A Mb/s over one 4 ns cycle moves 1/2000 of a byte: the bytes a cycle at rate r are r / 2000
MBPS_CYCLES_PER_BYTE = 8_000_000 // (CLOCK_PERIOD_NS * 1000)
# The test's frames: 256-byte payloads behind 70 bytes of headers, the ICRC after them
FRAME_BYTES = 256 + 42 + 28 + 4


class RateWatch:
    """What a user of the engine sees of one QP's reaction point and its traffic: the CNPs the
    engine took (their cycles), DCQCN_* read through the registers over and over (each sample with
    the cycles its reads spanned), and the bytes the engine sent each cycle."""

    def __init__(self, tb: TB):
        self.tb = tb
        self.cnp_cycles: list[int] = []
        self.samples: list[tuple[int, int, rdma.DcqcnState]] = []
        self.sent_bytes: list[int] = [0]   # bytes sent up to each cycle, from the watch's start
        self.start = tb.cycle
        self._tasks = [cocotb.start_soon(self._watch_wires()), cocotb.start_soon(self._read_registers())]

    async def _watch_wires(self) -> None:
        dut = self.tb.dut
        while True:
            await RisingEdge(dut.clk)
            if int(dut.cnp_received.value):
                self.cnp_cycles.append(self.tb.cycle)
            moved = int(dut.m_axis_tx_tvalid.value) and int(dut.m_axis_tx_tready.value)
            self.sent_bytes.append(self.sent_bytes[-1] + (bin(int(dut.m_axis_tx_tkeep.value)).count("1") if moved else 0))

    async def _read_registers(self) -> None:
        while True:
            before = self.tb.cycle
            state = await rdma.read_dcqcn(self.tb.registers, DUT_QPN)
            self.samples.append((before, self.tb.cycle, state))
            await ClockCycles(self.tb.dut.clk, 40)

    def stop(self) -> None:
        for task in self._tasks:
            task.cancel()

    def bytes_between(self, first_cycle: int, last_cycle: int) -> int:
        return self.sent_bytes[last_cycle - self.start] - self.sent_bytes[first_cycle - self.start]


def model_curve(cnp_cycle: int, end_cycle: int) -> list[tuple[int, int, int, RateStage]]:
    """The model reaction point after a CNP at cnp_cycle: (cycle, RC, RT, stage) at the CNP and at
    each change after it, up to end_cycle. An edge of the RTL is the model's instant cycle x 4 ns."""
    model = ReactionPoint(REACTION)
    model.on_cnp(cnp_cycle * CLOCK_PERIOD_NS)
    curve = [(cnp_cycle, model.current_rate_mbps, model.target_rate_mbps, model.stage)]
    while (event := model.next_event_ns()) is not None and event // CLOCK_PERIOD_NS <= end_cycle:
        model.advance(event)
        point = (model.current_rate_mbps, model.target_rate_mbps, model.stage)
        if point != curve[-1][1:]:
            curve.append((-(-event // CLOCK_PERIOD_NS),) + point)
    return curve


def curve_at(curve, cycle: int) -> tuple[int, int, RateStage]:
    """The model's (RC, RT, stage) at a cycle at or after the CNP."""
    return [point[1:] for point in curve if point[0] <= cycle][-1]


@cocotb.test(timeout_time=250, timeout_unit="us")
async def a_cnp_halves_the_rate_and_the_egress_follows_the_recovery(dut):
    """The engine as requester writes 25 x 4 KiB at PMTU 256 to the model responder, its QP with
    a reaction point (16 Gb/s line, alpha 1, T = 2 us, F = 3). A CNP for a QP past the reaction
    points' range changes nothing; then one CNP for the engine's QP: DCQCN_RATE, read over and over
    through the registers, follows the model's curve (halved to 8 Gb/s at once, fast recovery,
    additive increase, back to the line rate and not throttled), and the bytes the engine sends in
    each step of the curve are at most what its rate allows (within two frames), and where the
    rate is well below the engine's own, at least 95 % of it; every WRITE completes once, exactly."""
    rng = test_rng("dcqcn")
    requester = Requester(dut, rng, pmtu=256)
    await requester.set_up()
    tb = requester.tb
    capacity = rdma_engine.BLOCK["CAPS2"].field("rate_limited_qps").extract(await tb.registers.read_register("CAPS2"))
    assert capacity >= 2, f"the engine has {capacity} reaction points; the test needs QPs {FIRST_LIMITED_QPN} and on"
    await rdma.set_dcqcn(tb.registers, REACTION, first_qpn=FIRST_LIMITED_QPN)
    sources = [rng.randbytes(4096) for _ in range(12)]
    for index, data in enumerate(sources):
        tb.memory.write(LOCAL_BASE + index * 4096, data)
    work = [(WorkRequest.write(0x100 + index, sources[index % 12], PEER_BASE + index * 4096, PEER_RKEY),
             LOCAL_BASE + (index % 12) * 4096) for index in range(25)]
    watch = RateWatch(tb)
    # Past the range by exactly its size: a reaction point picked by the QP's low bits alone would be DUT_QPN's
    stranger_cnp = build_frame(cnp_packet(Addressing.between(PEER, DUT), DUT_QPN + capacity))
    cnp = build_frame(cnp_packet(Addressing.between(PEER, DUT), DUT_QPN))

    async def congestion():
        # Early in the run at either width: the run must outlast the recovery
        for after_bytes, frame in ((2_000, stranger_cnp), (8_000, cnp)):
            while watch.sent_bytes[-1] < after_bytes:
                await RisingEdge(dut.clk)
            await tb.rx.send(AxiStreamFrame(frame))

    cocotb.start_soon(congestion())
    await requester.run(work)
    watch.stop()
    await check_exactly_once(requester, work)
    events = await tb.read_events()
    assert events["cnps_received"] == 2 and len(watch.cnp_cycles) == 2, (events, watch.cnp_cycles)
    cnp_cycle = watch.cnp_cycles[1]
    end = tb.cycle
    curve = model_curve(cnp_cycle, end)
    dut._log.info("model curve after the CNP at cycle %d: %s", cnp_cycle,
                  [(cycle - cnp_cycle, rate, stage.value) for cycle, rate, _, stage in curve])
    recovered = [cycle for cycle, _, _, stage in curve if stage is RateStage.UNTHROTTLED]
    assert recovered and recovered[0] < end, "the run ended before the model recovered: post more work"

    # The registers: each register of a sample (three reads, one after another) holds the model's
    # value at some cycle the sample's reads spanned
    line = (LINE_RATE_MBPS, LINE_RATE_MBPS, RateStage.UNTHROTTLED)
    for before, after, state in watch.samples:
        seen = (state.current_rate_mbps, state.target_rate_mbps, state.stage)
        model = [line if cycle < cnp_cycle else curve_at(curve, cycle) for cycle in range(before - 2, after + 3)]
        for field, (name, value) in enumerate(zip(("RC", "RT", "stage"), seen)):
            assert value in {point[field] for point in model}, \
                f"DCQCN {name} read {value} between cycles {before} and {after}; the model {sorted(set(model))}"
    assert {state.stage for _, _, state in watch.samples} >= {RateStage.FAST_RECOVERY, RateStage.ADDITIVE_INCREASE}

    # The egress: the bytes of each step of the curve against its rate. Never more than the rate
    # allows, within two frames (the one an empty bucket lets through, and one already past the
    # pacer when the CNP came);
    # where the rate is well below what the engine sends unthrottled (at 64 bits the bus carries
    # the line's 16 Gb/s less the gaps between requests), as much as it allows, within 5 %
    total_sent = total_allowed = paced_sent = paced_allowed = 0
    for (start, rate, _, stage), (stop, *_rest) in zip(curve, curve[1:]):
        if stage is RateStage.UNTHROTTLED:
            continue
        sent = watch.bytes_between(start, stop)
        allowed = rate * (stop - start) / MBPS_CYCLES_PER_BYTE
        total_sent, total_allowed = total_sent + sent, total_allowed + allowed
        assert sent <= allowed + 2 * FRAME_BYTES, \
            f"{sent} bytes sent in cycles {start}-{stop} at {rate} Mb/s, which allows {allowed:.0f}"
        if rate <= 0.8 * LINE_RATE_MBPS:
            paced_sent, paced_allowed = paced_sent + sent, paced_allowed + allowed
            assert sent >= 0.95 * allowed - 1.5 * FRAME_BYTES, \
                f"only {sent} bytes sent in cycles {start}-{stop} at {rate} Mb/s, which allows {allowed:.0f}"
    assert total_sent <= total_allowed + 3 * FRAME_BYTES, (total_sent, total_allowed)
    assert abs(paced_sent - paced_allowed) <= 2 * FRAME_BYTES, (paced_sent, paced_allowed)
    assert events["rate_paced_cycles"] > 0, events
    dut._log.info("throttled for %d cycles: %d bytes sent, %.0f allowed; %d cycles paced", recovered[0] - cnp_cycle,
                  total_sent, total_allowed, events["rate_paced_cycles"])
