# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The DCQCN model and the CNP frame against hand-computed values from the algorithm in
docs/reference/roce.md (Congestion control): the cut on a CNP, the recovery stage by stage,
alpha's decay, the notification point's pacing, and the CNP byte by byte and against scapy's
cnp()."""

import pytest
from scapy.contrib.roce import cnp as scapy_cnp
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

from dpuv.models.dcqcn import DcqcnParameters, NotificationPoint, RateStage, ReactionPoint
from dpuv.models.roce_packet import (
    BTH, ECN_CE, ECN_ECT0, Addressing, Endpoint, MalformedCause, MalformedFrame, Opcode, RocePacket, build_frame,
    cnp_packet, icrc, parse_frame, with_transport,
)
from dpuv.models.roce_qp import QpConfig, QueuePair

ENDPOINT_A = Endpoint("02:00:00:00:00:0a", "10.0.0.1", 0xC00A)
ENDPOINT_B = Endpoint("02:00:00:00:00:0b", "10.0.0.2", 0xC00B)
B_TO_A = Addressing.between(ENDPOINT_B, ENDPOINT_A)
US = 1000
NEVER = 10**15  # a period no test reaches


# ---- the CNP frame --------------------------------------------------------------------------

def test_cnp_frame_byte_by_byte():
    frame = build_frame(cnp_packet(B_TO_A, 0x00ABCD, pkey=0x8001))
    # Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + 16 reserved bytes + ICRC 4
    assert len(frame) == 74
    assert frame[42] == 0x81 and frame[43] == 0x00
    assert frame[44:46] == bytes.fromhex("8001"), "P_Key"
    assert frame[46] == 0x40, "BECN set, FECN clear"
    assert frame[47:50] == bytes.fromhex("00abcd") and frame[50] == 0x00 and frame[51:54] == bytes(3)
    assert frame[54:70] == bytes(16)
    assert frame[70:74] == icrc(frame[14:70]).to_bytes(4, "little")
    packet = parse_frame(frame)
    assert packet.bth == BTH(Opcode.CNP, 0x00ABCD, 0, pkey=0x8001, becn=True) and packet.payload == b""


def test_cnp_frame_equals_scapy_cnp():
    scapy_frame = bytes(Ether(dst=ENDPOINT_A.mac, src=ENDPOINT_B.mac)
                        / IP(src=ENDPOINT_B.ip, dst=ENDPOINT_A.ip, id=0, flags="DF", ttl=64)
                        / UDP(sport=ENDPOINT_B.udp_source_port, dport=4791, chksum=0) / scapy_cnp(0x000011))
    assert build_frame(cnp_packet(B_TO_A, 0x000011)) == scapy_frame


def _cnp_with_padding(padding: int) -> bytes:
    frame = build_frame(cnp_packet(B_TO_A, 0x11))
    return with_transport(frame, frame[42:54] + bytes(padding))


@pytest.mark.parametrize("padding,cause", [(12, MalformedCause.TRUNCATED), (20, MalformedCause.BAD_LENGTH)])
def test_cnp_with_the_wrong_padding_is_malformed(padding, cause):
    with pytest.raises(MalformedFrame) as caught:
        parse_frame(_cnp_with_padding(padding))
    assert caught.value.cause is cause


def test_queue_pair_leaves_cnps_to_congestion_control():
    qp = QueuePair(QpConfig(0x11, 0x22, ENDPOINT_A, ENDPOINT_B))
    qp.receive(build_frame(cnp_packet(B_TO_A, 0x11)), 0)
    assert qp.counters.dropped["cnp"] == 1 and qp.poll(0) == []


# ---- reaction point -------------------------------------------------------------------------

def test_one_cnp_at_alpha_one_halves_the_rate():
    rp = ReactionPoint(DcqcnParameters(line_rate_mbps=100_000))
    assert (rp.current_rate_mbps, rp.alpha_fraction, rp.stage) == (100_000, 1.0, RateStage.UNTHROTTLED)
    rp.on_cnp(0)
    assert (rp.current_rate_mbps, rp.target_rate_mbps) == (50_000, 100_000)
    # (1 - g) x 1 + g = 1: alpha stays at one, exactly
    assert rp.alpha == 1024 and rp.stage is RateStage.FAST_RECOVERY


def test_the_cut_uses_alpha_before_its_update():
    rp = ReactionPoint(DcqcnParameters(line_rate_mbps=100_000, initial_alpha=512))
    rp.on_cnp(0)
    # RC x (1 - 0.5 / 2); then alpha = (1020 x 512) >> 10 + 4 = 510 + 4
    assert rp.current_rate_mbps == 75_000 and rp.alpha == 514


def test_recovery_stage_by_stage():
    rp = ReactionPoint(DcqcnParameters(line_rate_mbps=100_000, fast_recovery_stages=3,
                                       rate_increase_period_ns=10 * US, byte_counter_bytes=1_000_000,
                                       additive_increase_mbps=100, hyper_increase_mbps=1000,
                                       alpha_update_period_ns=NEVER))
    rp.on_cnp(0)          # RT 100000, RC 50000
    rp.on_cnp(1)          # RT 50000, RC 25000 (alpha is still 1)
    assert (rp.target_rate_mbps, rp.current_rate_mbps) == (50_000, 25_000)
    # The increase timer restarted at the second CNP: its stages fall at 1 + k x 10 us
    steps = []
    for stage in range(1, 6):
        rp.advance(1 + stage * 10 * US - 1)
        assert rp.time_stage == stage - 1, "not before its time"
        rp.advance(1 + stage * 10 * US)
        steps.append((rp.stage, rp.target_rate_mbps, rp.current_rate_mbps))
    assert steps == [
        (RateStage.FAST_RECOVERY, 50_000, 37_500),       # (50000 + 25000) / 2
        (RateStage.FAST_RECOVERY, 50_000, 43_750),       # (50000 + 37500) / 2
        (RateStage.FAST_RECOVERY, 50_000, 46_875),       # (50000 + 43750) / 2
        (RateStage.ADDITIVE_INCREASE, 50_100, 48_488),   # RT + 100; (50100 + 46875 + 1) // 2
        (RateStage.ADDITIVE_INCREASE, 50_200, 49_344),   # (50200 + 48488 + 1) // 2
    ]
    # Four byte stages at once: byte stages 1 to 3 are additive (the time stage is past F, the
    # byte stage is not), the fourth is hyper (both past F)
    rp.on_bytes_sent(4_000_000, 1 + 50 * US)
    assert rp.byte_stage == 4
    assert (rp.stage, rp.target_rate_mbps, rp.current_rate_mbps) == (RateStage.HYPER_INCREASE, 51_500, 50_903)
    # by hand: AI 50300/49822, AI 50400/50111, AI 50500/50306, HAI 51500/(51500 + 50306 + 1) // 2


def test_byte_counter_alone_drives_stages():
    rp = ReactionPoint(DcqcnParameters(line_rate_mbps=1000, byte_counter_bytes=1000,
                                       rate_increase_period_ns=NEVER, alpha_update_period_ns=NEVER))
    rp.on_bytes_sent(5000, 0)
    assert rp.byte_stage == 0, "bytes sent at the line rate do not count"
    rp.on_cnp(10)
    rp.on_bytes_sent(999, 20)
    assert (rp.byte_stage, rp.current_rate_mbps) == (0, 500)
    rp.on_bytes_sent(1, 30)
    assert (rp.byte_stage, rp.current_rate_mbps) == (1, 750)


def test_recovery_ends_at_the_line_rate_and_stops_the_timer():
    rp = ReactionPoint(DcqcnParameters(line_rate_mbps=1000, rate_increase_period_ns=1 * US,
                                       alpha_update_period_ns=NEVER))
    rp.on_cnp(0)
    # 500, then (1000 + RC + 1) // 2: 750, 875, 938, 969, 985, 993, 997, 999, 1000
    rates = []
    for stage in range(1, 11):
        rp.advance(stage * US)
        rates.append(rp.current_rate_mbps)
    assert rates == [750, 875, 938, 969, 985, 993, 997, 999, 1000, 1000]
    assert rp.stage is RateStage.UNTHROTTLED and rp.time_stage == 0
    assert rp.next_event_ns() == NEVER, "only the alpha timer is left"


def test_rate_never_falls_below_the_minimum():
    rp = ReactionPoint(DcqcnParameters(line_rate_mbps=100, min_rate_mbps=10, rate_increase_period_ns=NEVER,
                                       alpha_update_period_ns=NEVER))
    rates = []
    for time in range(6):
        rp.on_cnp(time)
        rates.append((rp.target_rate_mbps, rp.current_rate_mbps))
    # RC - floor(RC / 2) each time: 50, 25, 13, then 7 and 6, held at 10
    assert rates == [(100, 50), (50, 25), (25, 13), (13, 10), (10, 10), (10, 10)]


def test_alpha_decays_every_period_without_a_cnp():
    rp = ReactionPoint(DcqcnParameters(alpha_update_period_ns=55 * US, rate_increase_period_ns=NEVER))
    rp.on_cnp(0)
    alphas = []
    for period in range(4):
        rp.advance(period * 55 * US)
        alphas.append(rp.alpha)
    # (1020 x alpha) >> 10 each period: 1024, 1020, 1016, 1012
    assert alphas == [1024, 1020, 1016, 1012]
    rate_before = rp.current_rate_mbps
    rp.on_cnp(200 * US)
    # cut with alpha 1012 / 1024, then alpha = (1020 x 1012) >> 10 + 4 = 1008 + 4
    assert rp.current_rate_mbps == rate_before - ((rate_before * 1012) >> 11)
    assert rp.alpha == 1012
    rp.advance(220 * US)
    assert rp.alpha == 1012, "a CNP restarts the alpha timer: no update at the old 220 us"
    rp.advance(255 * US)
    assert rp.alpha == (1020 * 1012) >> 10


def test_alpha_decays_to_zero_and_the_timer_stops():
    rp = ReactionPoint(DcqcnParameters(alpha_gain=512, alpha_update_period_ns=1 * US, rate_increase_period_ns=NEVER))
    rp.on_cnp(0)
    rp.advance(20 * US)
    assert rp.alpha == 0 and rp.next_event_ns() == NEVER


def test_time_may_not_go_back():
    rp = ReactionPoint()
    rp.advance(100)
    with pytest.raises(ValueError):
        rp.on_cnp(99)


def test_parameters_are_checked():
    with pytest.raises(ValueError):
        DcqcnParameters(alpha_gain=0)
    with pytest.raises(ValueError):
        DcqcnParameters(min_rate_mbps=0)
    with pytest.raises(ValueError):
        DcqcnParameters(initial_alpha=2000)


# ---- notification point ---------------------------------------------------------------------

def _data_frame(dest_qp: int, ecn: int) -> bytes:
    addressing = Addressing.between(ENDPOINT_A, ENDPOINT_B, tos=(26 << 2) | ecn)
    return build_frame(RocePacket(addressing, BTH(Opcode.RDMA_WRITE_MIDDLE, dest_qp, 5), payload=bytes(256)))


def test_notification_point_paces_cnps_per_qp():
    np_ = NotificationPoint(DcqcnParameters(min_time_between_cnps_ns=50 * US))
    np_.add_qp(0x22, 0x11, B_TO_A)
    np_.add_qp(0x23, 0x12, B_TO_A)
    sent = {}
    for time_us, qpn, ecn in [(0, 0x22, ECN_CE), (10, 0x22, ECN_CE), (10, 0x23, ECN_CE), (20, 0x22, ECN_ECT0),
                              (49.999, 0x22, ECN_CE), (50, 0x22, ECN_CE), (60, 0x22, ECN_CE), (200, 0x22, ECN_CE)]:
        cnp = np_.on_frame(_data_frame(qpn, ecn), int(time_us * US))
        sent[(time_us, qpn)] = None if cnp is None else parse_frame(cnp).bth.dest_qp
    assert sent == {(0, 0x22): 0x11, (10, 0x22): None, (10, 0x23): 0x12, (20, 0x22): None,
                    (49.999, 0x22): None, (50, 0x22): 0x11, (60, 0x22): None, (200, 0x22): 0x11}
    assert np_.counters == {"ce_marked": 7, "cnps_sent": 4, "cnps_suppressed": 3}


def test_notification_point_ignores_cnps_unknown_qps_and_bad_frames():
    np_ = NotificationPoint()
    np_.add_qp(0x22, 0x11, B_TO_A)
    marked_cnp = build_frame(cnp_packet(Addressing.between(ENDPOINT_A, ENDPOINT_B, tos=ECN_CE), 0x22))
    assert np_.on_frame(marked_cnp, 0) is None
    assert np_.on_frame(_data_frame(0x99, ECN_CE), 0) is None
    assert np_.on_frame(_data_frame(0x22, ECN_CE)[:-1], 0) is None
    assert np_.counters == {"ce_marked": 1, "unknown_qp": 1, "malformed": 1}


def test_cnp_from_the_notification_point_drives_the_reaction_point():
    np_, rp = NotificationPoint(), ReactionPoint(DcqcnParameters(line_rate_mbps=25_000))
    np_.add_qp(0x22, 0x11, B_TO_A)
    cnp = parse_frame(np_.on_frame(_data_frame(0x22, ECN_CE), 0))
    assert (cnp.bth.opcode, cnp.bth.becn, cnp.bth.dest_qp) == (Opcode.CNP, True, 0x11)
    rp.on_cnp(1 * US)
    assert rp.current_rate_mbps == 12_500
