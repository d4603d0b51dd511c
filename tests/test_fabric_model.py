# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The cluster switch's frame-level model (dpuv.models.fabric) against values worked out by hand
from the wire-byte rule, the line rate, the buffer rules and the RED edges of docs/cluster.md."""

from fractions import Fraction

from dpuv.models import fabric


def test_wire_bytes_add_fcs_padding_preamble_and_gap():
    # 60 bytes + FCS = the 64-byte minimum frame, + 8 preamble/SFD + 12 gap
    assert fabric.wire_bytes(60) == 84
    assert fabric.wire_bytes(14) == 84, "short frames are padded to the minimum"
    assert fabric.wire_bytes(61) == 85
    assert fabric.wire_bytes(1500) == 1524
    assert fabric.wire_bytes(4096) == 4120


def test_line_rates_in_bytes_per_cycle():
    assert fabric.bytes_per_cycle() == 50, "100 Gb/s at 4 ns"
    assert fabric.bytes_per_cycle(12_500) == Fraction(25, 4)
    assert fabric.bytes_per_cycle(25_000, 3_333) == Fraction(25_000 * 3_333, 8_000_000)


def test_a_paced_link_carries_fractions_without_drift():
    link = fabric.Link(Fraction(50))
    starts = []
    offered = 10
    for _ in range(1000):
        first = max(offered, link.free_from())
        link.start(first, 60)
        starts.append(first)
        offered = first + 1
    # The first frame's wire time begins a cycle before its first beat; each next one 84/50 later
    assert starts[:6] == [10, 11, 13, 15, 16, 18]
    assert starts[-1] == 9 + -(-(999 * 84) // 50)


def test_a_lone_frame_through_the_switch():
    config = fabric.SwitchConfig(bytes_per_beat=64, latency_cycles=75)
    [frame] = fabric.switch_schedule(config, [100, 0], [[(1, 1000)], []])
    beats = 16
    assert (frame.ingress_first, frame.ingress_last) == (100, 100 + beats - 1)
    # written at +1, read two cycles after its last beat is written, then 75 cycles of latency
    assert frame.egress_first == 100 + beats + 2 + 75 and frame.kept


def test_back_to_back_4k_frames_leave_at_line_rate():
    config = fabric.SwitchConfig(bytes_per_beat=64, buffer_bytes=10**9, buffer_frames=10**9)
    frames = fabric.switch_schedule(config, [0, 0], [[(1, 4096)] * 20, []])
    departures = [frame.egress_first for frame in frames]
    # 4120 wire bytes at 50 a cycle: 82.4 cycles a frame, the first frame's wire time from -1
    assert departures[-1] - departures[0] == -(-(19 * 4120 - 50) // 50)
    gaps = {later - earlier for earlier, later in zip(departures, departures[1:])}
    assert gaps == {82, 83}


def test_a_bus_slower_than_the_link_sets_the_pace():
    config = fabric.SwitchConfig(bytes_per_beat=8, buffer_bytes=10**9, buffer_frames=10**9)
    frames = fabric.switch_schedule(config, [0, 0], [[(1, 800)] * 5, []])
    assert [frame.ingress_first for frame in frames] == [0, 100, 200, 300, 400]


def incast(buffer_bytes: int, buffer_frames: int) -> list[fabric.SentFrame]:
    """Five ports send one 1000-byte frame each to a sixth, on links so slow (0.1 byte a cycle)
    that nothing leaves the egress while they arrive, 16 beats apart (round robin from port 0)."""
    config = fabric.SwitchConfig(bytes_per_beat=64, latency_cycles=10, buffer_bytes=buffer_bytes,
                                 buffer_frames=buffer_frames, rate=Fraction(1, 10))
    return fabric.switch_schedule(config, [0] * 6, [[(5, 1000)]] * 5 + [[]])


def test_incast_drops_whole_frames_that_do_not_fit():
    frames = incast(2000, 8)
    assert [frame.ingress_first for frame in frames] == [0, 16, 32, 48, 64]
    # A frame counts from the cycle after its last beat is written until its first beat is read:
    # the first (last beat written at 16) counts at 17 only, when the second begins; the second is
    # read at 33 into the egress pacer, where it waits for the link, as the third begins; the third
    # and fourth then stay, filling the 2000 bytes, and the fifth (last beat written at 80) is dropped
    assert [frame.kept for frame in frames] == [True, True, True, True, False]
    assert [frame.depth_at_first_write for frame in frames] == [0, 1000, 1000, 1000, 2000]


def test_the_frame_limit_drops_too():
    frames = incast(10**6, 2)
    assert [frame.kept for frame in frames] == [True, True, True, True, False]


def test_red_edges():
    assert fabric.red_decision(999, 1000, 5000) == "never"
    assert fabric.red_decision(1000, 1000, 5000) == "random"
    assert fabric.red_decision(4999, 1000, 5000) == "random"
    assert fabric.red_decision(5000, 1000, 5000) == "always"
    assert fabric.red_decision(0, 0, 0) == "always"
