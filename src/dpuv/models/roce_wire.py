# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""A seeded, lossy Ethernet wire between two RoCEv2 peers, and the loop that runs two peers over
a pair of wires until nothing is left to do.

Time is an integer count of nanoseconds that the caller advances; nothing here reads a clock, so
a run is a pure function of its seeds and can be replayed exactly.
"""

from __future__ import annotations

import heapq
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Protocol

from dpuv.models.roce_packet import BTH_OFFSET, ETHERNET_HEADER_BYTES


@dataclass(frozen=True)
class Impairment:
    """An event starts at a frame with probability `rate` and then affects up to `burst`
    consecutive frames, that one included, sent within `burst_span_ns` of it; on a busy wire the
    share of frames affected is about rate x burst.

    A burst is an outage in time, as on a real link, not a count of frames however far apart:
    a quiet QP's retransmissions come one per ACK timeout, and a frame-count burst would take
    out several timeouts in a row, failing a correct RC requester with RETRY_EXC_ERR on a link
    with a few per cent loss."""
    rate: float = 0.0
    burst: int = 1
    burst_span_ns: int = 1000

    def __post_init__(self) -> None:
        if not 0.0 <= self.rate <= 1.0 or self.burst < 1 or self.burst_span_ns < 0:
            raise ValueError(f"impairment rate {self.rate}, burst {self.burst} or span {self.burst_span_ns} ns "
                             "out of range")


@dataclass(frozen=True)
class WireConfig:
    latency_ns: int = 1000
    drop: Impairment = Impairment()
    duplicate: Impairment = Impairment()
    reorder: Impairment = Impairment()
    corrupt: Impairment = Impairment()
    # A reordered frame is held this much longer than the others, so later frames overtake it
    reorder_delay_ns: int = 5000


@dataclass(order=True)
class _InFlight:
    arrival_ns: int
    sequence: int
    frame: bytes = field(compare=False)


class LossyWire:
    """One direction of a link. Corruption flips one bit inside the part of the frame that the
    ICRC covers and does not mask (BTH onwards, without BTH byte 4), so a receiver must drop
    the frame through its ICRC check rather than through an IP or UDP check."""

    def __init__(self, config: WireConfig = WireConfig(), seed: int = 0):
        self.config = config
        self.counters: Counter[str] = Counter()
        self._random = random.Random(seed)
        self._in_flight: list[_InFlight] = []
        self._sequence = 0
        # per impairment kind: frames the current burst may still affect, and when it ends
        self._burst_left: Counter[str] = Counter()
        self._burst_end_ns: dict[str, int] = {}

    def _hits(self, kind: str, impairment: Impairment, now_ns: int) -> bool:
        if self._burst_left[kind] and now_ns <= self._burst_end_ns[kind]:
            self._burst_left[kind] -= 1
            return True
        self._burst_left[kind] = 0
        # Draw only for impairments in use, so enabling one does not reshuffle the others' runs
        if impairment.rate and self._random.random() < impairment.rate:
            self._burst_left[kind] = impairment.burst - 1
            self._burst_end_ns[kind] = now_ns + impairment.burst_span_ns
            return True
        return False

    def _schedule(self, frame: bytes, arrival_ns: int) -> None:
        heapq.heappush(self._in_flight, _InFlight(arrival_ns, self._sequence, frame))
        self._sequence += 1

    def _flip_covered_bit(self, frame: bytes) -> bytes:
        ip_end = ETHERNET_HEADER_BYTES + int.from_bytes(frame[16:18], "big")
        masked_byte = BTH_OFFSET + 4
        index = BTH_OFFSET + self._random.randrange(ip_end - BTH_OFFSET - 1)
        index += index >= masked_byte
        corrupted = bytearray(frame)
        corrupted[index] ^= 1 << self._random.randrange(8)
        return bytes(corrupted)

    def send(self, frame: bytes, now_ns: int) -> None:
        config = self.config
        self.counters["sent"] += 1
        if self._hits("drop", config.drop, now_ns):
            self.counters["dropped"] += 1
            return
        if self._hits("corrupt", config.corrupt, now_ns):
            self.counters["corrupted"] += 1
            frame = self._flip_covered_bit(frame)
        arrival = now_ns + config.latency_ns
        if self._hits("reorder", config.reorder, now_ns):
            self.counters["reordered"] += 1
            arrival += config.reorder_delay_ns
        self._schedule(frame, arrival)
        if self._hits("duplicate", config.duplicate, now_ns):
            self.counters["duplicated"] += 1
            self._schedule(frame, arrival)

    def deliver(self, now_ns: int) -> list[bytes]:
        """Frames that have arrived by now, in arrival order."""
        arrived = []
        while self._in_flight and self._in_flight[0].arrival_ns <= now_ns:
            arrived.append(heapq.heappop(self._in_flight).frame)
        self.counters["delivered"] += len(arrived)
        return arrived

    def next_arrival_ns(self) -> int | None:
        return self._in_flight[0].arrival_ns if self._in_flight else None


class Peer(Protocol):
    """What run_until_idle needs of an endpoint: the model QP, or a bench's wrapper of the RTL."""

    def poll(self, now_ns: int) -> list[bytes]:
        """Frames to transmit now (after running any timers due)."""

    def receive(self, frame: bytes, now_ns: int) -> None: ...

    def next_event_ns(self, now_ns: int) -> int | None:
        """When the peer next has something to do unprompted: now if it has frames waiting,
        a timer's deadline, or None."""


def run_until_idle(a: Peer, b: Peer, a_to_b: LossyWire, b_to_a: LossyWire,
                   time_limit_ns: int, start_ns: int = 0) -> int:
    """Exchange frames, jumping time to the next event, until neither peer nor wire has anything
    left to do or the time limit passes. Returns the time reached."""
    now = start_ns
    while now <= time_limit_ns:
        for frame in a.poll(now):
            a_to_b.send(frame, now)
        for frame in b.poll(now):
            b_to_a.send(frame, now)
        for frame in a_to_b.deliver(now):
            b.receive(frame, now)
        for frame in b_to_a.deliver(now):
            a.receive(frame, now)
        events = [time for time in (a.next_event_ns(now), b.next_event_ns(now),
                                    a_to_b.next_arrival_ns(), b_to_a.next_arrival_ns()) if time is not None]
        if not events:
            return now
        now = max(now, min(events))
    return now
