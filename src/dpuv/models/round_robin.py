# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Round-robin arbitration: the grant goes to the first requester after the last one granted."""

from __future__ import annotations


class RoundRobin:
    def __init__(self, ports: int):
        self.ports = ports
        self.last_granted = ports - 1  # so port 0 wins the first search

    def grant(self, requests: set[int]) -> int | None:
        for offset in range(1, self.ports + 1):
            candidate = (self.last_granted + offset) % self.ports
            if candidate in requests:
                self.last_granted = candidate
                return candidate
        return None


def frame_order(frames_per_port: list[int]) -> list[int]:
    """Source order of frames out of a mux whose inputs all hold queued frames from the start."""
    arbiter = RoundRobin(len(frames_per_port))
    remaining = list(frames_per_port)
    order = []
    while any(remaining):
        winner = arbiter.grant({port for port, count in enumerate(remaining) if count})
        remaining[winner] -= 1
        order.append(winner)
    return order


def longest_waits(order: list[int], ports: int) -> list[int]:
    """For each port, the most grants in a row that went to other ports while it waited, given the
    port of every grant in turn. A port counts as waiting from the start until its last grant (all
    of it when it is never granted), so this holds for ports that request throughout; round robin
    keeps every entry at most ports - 1."""
    longest = [0] * ports
    for port in range(ports):
        own_grants = [index for index, granted in enumerate(order) if granted == port]
        waited = 0
        for granted in order[:own_grants[-1] if own_grants else len(order)]:
            waited = 0 if granted == port else waited + 1
            longest[port] = max(longest[port], waited)
    return longest
