# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""What a packet-mode FIFO delivers: every good frame that fits, in order, nothing else.

A frame is dropped when its last beat is marked bad, or when it has more beats than the FIFO
holds (it could never be complete inside it).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Frame:
    data: bytes
    bad: bool = False

    def beats(self, bytes_per_beat: int) -> int:
        return max(1, -(-len(self.data) // bytes_per_beat))


def delivered(frames: list[Frame], depth: int, bytes_per_beat: int, drop_bad: bool) -> list[bytes]:
    return [
        frame.data
        for frame in frames
        if not (drop_bad and frame.bad) and frame.beats(bytes_per_beat) <= depth
    ]


def dropped_bad(frames: list[Frame], depth: int, bytes_per_beat: int) -> int:
    return sum(1 for frame in frames if frame.bad and frame.beats(bytes_per_beat) <= depth)


def dropped_oversize(frames: list[Frame], depth: int, bytes_per_beat: int) -> int:
    return sum(1 for frame in frames if frame.beats(bytes_per_beat) > depth)
