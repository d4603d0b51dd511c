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
