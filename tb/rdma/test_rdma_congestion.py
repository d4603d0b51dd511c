# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""rdma_engine's congestion notification (docs/rdma.md) against dpuv.models.dcqcn's notification
point: CE-marked frames for the engine's QPs are answered with CNPs byte for byte the model's, at
most one per QP per interval; CNPs, unknown QPs and unmarked frames are never answered; received
CNPs are counted and change no QP; with CONGESTION.ect every request and response the engine
sends is ECN-capable, and with the register at its reset values nothing changes at all."""

from __future__ import annotations

import random

import cocotb

from dpuv.drivers import rdma
from dpuv.models.dcqcn import DcqcnParameters, NotificationPoint
from dpuv.models.roce_packet import (ECN_CE, ECN_ECT0, ECN_NOT_ECT, Addressing, Endpoint, Opcode, build_frame,
                                     cnp_packet, parse_frame, with_ecn)
from dpuv.models.roce_qp import QpConfig, QueuePair, WorkRequest
from dpuv.regs.maps import rdma_engine
from dpuv.tb.testbench import CLOCK_PERIOD_NS, test_rng

from rdma_engine_bench import (ACK_TIMEOUT_CODE, DUT, DUT_QPN, PEER, PEER_QPN, PMTU, REGION_BASE, REGION_BYTES, RKEY,
                               RQ_BASE, RQ_LOG_SIZE, TB)
from test_rdma_requester import Requester, exchange_on

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
