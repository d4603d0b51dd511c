# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Cycle model of the performance-counter block, from its register descriptions.

Each call to `step` is one clock edge: it takes the inputs held during the cycle before the edge
and returns the snapshot registers as they read after the edge.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

COUNTER_MASK = (1 << 64) - 1
LATENCY_MASK = (1 << 32) - 1


@dataclass
class CycleInputs:
    enable: bool = True
    clear: bool = False
    snapshot: bool = False
    valid: bool = False
    ready: bool = False
    last: bool = False
    keep: int = 0
    event: bool = False
    latency_start: bool = False
    latency_stop: bool = False


def _zeroed() -> dict[str, int]:
    counters = {name: 0 for name in (
        "cycles", "beats", "bytes", "packets", "stall_cycles", "idle_cycles", "events",
        "latency_max", "latency_sum", "latency_count", "latency_errors")}
    counters["latency_min"] = LATENCY_MASK
    return counters


@dataclass
class PerfCountersModel:
    latency_depth: int
    live: dict[str, int] = field(default_factory=_zeroed)
    first_beat_cycle: int | None = None
    last_beat_cycle: int = 0
    snapshot: dict[str, int] = field(default_factory=lambda: {**_zeroed(), "active_cycles": 0})
    timestamp: int = 0
    start_times: deque = field(default_factory=deque)

    def _latency(self, inputs: CycleInputs) -> tuple[int | None, bool]:
        """Returns (latency measured this cycle or None, error this cycle); updates the queue."""
        if inputs.latency_stop and not self.start_times:
            if inputs.latency_start:
                return 0, False  # start and stop in one cycle: zero latency
            return None, True
        latency = None
        if inputs.latency_stop:
            latency = (self.timestamp - self.start_times.popleft()) & LATENCY_MASK
        error = False
        if inputs.latency_start:
            if len(self.start_times) < self.latency_depth:
                self.start_times.append(self.timestamp)
            else:
                error = True
        return latency, error

    def step(self, inputs: CycleInputs) -> dict[str, int]:
        live = self.live
        if inputs.snapshot:
            active = 0 if live["beats"] == 0 else self.last_beat_cycle - self.first_beat_cycle + 1
            self.snapshot = {**live, "active_cycles": active}

        latency, latency_error = self._latency(inputs)
        self.timestamp = (self.timestamp + 1) & LATENCY_MASK

        if inputs.clear:
            self.live = _zeroed()
            self.first_beat_cycle = None
            self.last_beat_cycle = 0
            return self.snapshot

        if inputs.enable:
            beat = inputs.valid and inputs.ready
            if beat:
                if live["beats"] == 0:
                    self.first_beat_cycle = live["cycles"]
                self.last_beat_cycle = live["cycles"]
            increments = {
                "cycles": 1,
                "beats": beat,
                "bytes": bin(inputs.keep).count("1") if beat else 0,
                "packets": beat and inputs.last,
                "stall_cycles": inputs.valid and not inputs.ready,
                "idle_cycles": not inputs.valid,
                "events": inputs.event,
                "latency_count": latency is not None,
                "latency_sum": latency or 0,
                "latency_errors": latency_error,
            }
            for name, amount in increments.items():
                live[name] = (live[name] + int(amount)) & COUNTER_MASK
            if latency is not None:
                live["latency_min"] = min(live["latency_min"], latency)
                live["latency_max"] = max(live["latency_max"], latency)
        return self.snapshot
