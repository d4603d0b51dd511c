# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The cluster switch's timing and buffering, frame by frame, from the rules of docs/cluster.md.

The wire: a frame of L bytes (no FCS in the stream) holds the wire for max(L + 4, 64) + 8 + 12
bytes (FCS, minimum frame, preamble and SFD, inter-frame gap). A link carries
LINE_RATE_MBPS * CLOCK_PERIOD_PS / 8e6 bytes a cycle (50 at 100 Gb/s and 250 MHz), kept here as an
exact fraction. A frame may start once the previous frame's wire time has ended; its first beat
moves at the first cycle f at which that holds and the frame is offered, and its wire time starts
at max(end of the previous frame's wire time, f - 1) (a beat moving at edge f was on its way during
the cycle before). Its beats then move one per cycle.

The switch (store-and-forward), for a frame whose last beat leaves the sending node at cycle t:
- it is written into its egress buffer at t + 1 (one register after the egress arbiter);
- it is kept if the buffer's depth at t + 1 plus its length is at most BUFFER_BYTES and fewer than
  BUFFER_FRAMES frames are queued; otherwise it is dropped whole (tail drop);
- a kept frame counts in the depth from t + 2 until the cycle its first beat is read (inclusive),
  which is one cycle before it is offered to the egress link;
- it is offered to the egress link at max(t + 3, the cycle after the previous frame's last beat
  left the buffer) and paced there like any link;
- every beat reaches the node LATENCY_CYCLES after it left the egress pacer.
Between ingresses that want one egress, frames take round-robin turns, port 0 first.

RED/ECN: with the depth D at the cycle a frame's first beat is written, D < Kmin never marks,
D >= Kmax always marks (only IPv4 frames whose ECN field is ECT(0) or ECT(1)), and between the
two the chance is Pmax * (D - Kmin) / (Kmax - Kmin).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

FCS_BYTES = 4
MIN_FRAME_BYTES = 64
PREAMBLE_SFD_BYTES = 8
GAP_BYTES = 12
# Cycles the switch adds around its buffer (see the module docstring)
ARBITER_CYCLES = 1
READ_CYCLES = 2


def wire_bytes(length: int) -> int:
    """Bytes a frame of `length` bytes (without FCS) holds the wire for."""
    return max(length + FCS_BYTES, MIN_FRAME_BYTES) + PREAMBLE_SFD_BYTES + GAP_BYTES


def bytes_per_cycle(line_rate_mbps: int = 100_000, clock_period_ps: int = 4_000) -> Fraction:
    return Fraction(line_rate_mbps * clock_period_ps, 8_000_000)


def beats(length: int, bytes_per_beat: int) -> int:
    return max(1, -(-length // bytes_per_beat))


class Link:
    """One paced link: when each frame starts on it."""

    def __init__(self, rate: Fraction):
        self.rate = rate
        self.wire_end: Fraction | None = None

    def free_from(self) -> int:
        """The first cycle a frame may start."""
        return -(10**18) if self.wire_end is None else math.ceil(self.wire_end)

    def start(self, first_cycle: int, length: int) -> None:
        """A frame's first beat moved at first_cycle."""
        begin = Fraction(first_cycle - 1)
        if self.wire_end is not None:
            begin = max(begin, self.wire_end)
        self.wire_end = begin + Fraction(wire_bytes(length)) / self.rate


def red_decision(depth: int, kmin: int, kmax: int) -> str:
    """'never', 'always' or 'random' for a frame arriving at this queue depth."""
    if depth < kmin:
        return "never"
    return "always" if depth >= kmax else "random"


@dataclass
class SentFrame:
    ingress: int
    egress: int
    length: int
    index: int                    # the frame's place in its ingress's sequence
    ingress_first: int = 0        # cycle its first beat left the node
    ingress_last: int = 0
    kept: bool = False
    depth_at_first_write: int = 0
    egress_first: int | None = None   # cycle its first beat reached the destination node
    egress_last: int | None = None


@dataclass
class SwitchConfig:
    bytes_per_beat: int
    latency_cycles: int = 75
    buffer_bytes: int = 16384
    buffer_frames: int = 32
    rate: Fraction = field(default_factory=bytes_per_cycle)


class EgressQueue:
    """One egress: buffer depth over time, drops, and when each kept frame leaves."""

    def __init__(self, config: SwitchConfig):
        self.config = config
        self.link = Link(config.rate)
        # (counted from, counted until inclusive, length) of each kept frame
        self.occupancy: list[tuple[int, int, int]] = []
        self.last_read = -(10**18)

    def depth(self, cycle: int) -> tuple[int, int]:
        """Bytes and frames queued at a cycle."""
        held = [length for start, end, length in self.occupancy if start <= cycle <= end]
        return sum(held), len(held)

    def arrive(self, frame: SentFrame) -> None:
        config = self.config
        written_last = frame.ingress_last + ARBITER_CYCLES
        written_first = frame.ingress_first + ARBITER_CYCLES
        frame.depth_at_first_write = self.depth(written_first)[0]
        depth_bytes, depth_frames = self.depth(written_last)
        frame.kept = depth_bytes + frame.length <= config.buffer_bytes and depth_frames < config.buffer_frames
        if not frame.kept:
            return
        offered = max(written_last + READ_CYCLES, self.last_read + 1)
        first = max(offered, self.link.free_from())
        self.link.start(first, frame.length)
        self.occupancy.append((written_last + 1, offered - 1, frame.length))
        self.last_read = first + beats(frame.length, config.bytes_per_beat) - 1
        frame.egress_first = first + config.latency_cycles
        frame.egress_last = self.last_read + config.latency_cycles


def switch_schedule(config: SwitchConfig, offered_from: list[int],
                    frames: list[list[tuple[int, int]]]) -> list[SentFrame]:
    """Every frame's fate when ingress i offers its frames (egress, length) back to back from
    cycle offered_from[i] (each next one the cycle after the previous frame's last beat)."""
    ports = len(frames)
    pending = [[SentFrame(i, egress, length, index) for index, (egress, length) in enumerate(port)]
               for i, port in enumerate(frames)]
    links = [Link(config.rate) for _ in range(ports)]
    offered = list(offered_from)
    egress_queues = [EgressQueue(config) for _ in range(ports)]
    arbiter_free = [-(10**18)] * ports
    last_granted = [ports - 1] * ports
    done: list[SentFrame] = []
    while any(pending):
        # Each ingress's head frame could start at its ready cycle; take the earliest start
        # over all egress arbiters, round robin among the ingresses ready then.
        best = None
        for egress in range(ports):
            wanting = [i for i in range(ports) if pending[i] and pending[i][0].egress == egress]
            if not wanting:
                continue
            ready = {i: max(offered[i], links[i].free_from()) for i in wanting}
            start = max(arbiter_free[egress], min(ready.values()))
            candidates = [i for i in wanting if ready[i] <= start]
            order = [(last_granted[egress] + step) % ports for step in range(1, ports + 1)]
            chosen = next(i for i in order if i in candidates)
            if best is None or start < best[0]:
                best = (start, egress, chosen)
        start, egress, ingress = best
        frame = pending[ingress].pop(0)
        links[ingress].start(start, frame.length)
        frame.ingress_first = start
        frame.ingress_last = start + beats(frame.length, config.bytes_per_beat) - 1
        offered[ingress] = frame.ingress_last + 1
        arbiter_free[egress] = frame.ingress_last + 1
        last_granted[egress] = ingress
        done.append(frame)
    # Frames reach their buffers in the order their last beats do
    for frame in sorted(done, key=lambda sent: sent.ingress_last):
        egress_queues[frame.egress].arrive(frame)
    return done
