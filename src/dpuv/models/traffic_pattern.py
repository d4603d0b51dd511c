# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The self-test stream of rtl/common/traffic_block: what every generated frame must contain.

A frame is a run of 32-bit words packed lane 0 first into beats. Word 0 is the frame's number;
every later word is the next xorshift32 (shifts 13, 17, 5; Marsaglia 2003) state, starting from
(seed ^ (frame << 1)) | 1 so the state is never 0.
"""

from __future__ import annotations

MASK32 = 0xFFFFFFFF


def xorshift32(value: int) -> int:
    value ^= (value << 13) & MASK32
    value ^= value >> 17
    value ^= (value << 5) & MASK32
    return value


def frame_words(seed: int, frame: int, words: int) -> list[int]:
    state = ((seed ^ (frame << 1)) | 1) & MASK32
    out = [frame & MASK32]
    while len(out) < words:
        state = xorshift32(state)
        out.append(state)
    return out[:words]


def frame_beats(seed: int, frame: int, beats: int, data_width: int) -> list[int]:
    """The frame as beat integers (lane 0 in the low bits), as they appear on tdata."""
    lanes = data_width // 32
    words = frame_words(seed, frame, beats * lanes)
    return [sum(word << (32 * lane) for lane, word in enumerate(words[beat * lanes:(beat + 1) * lanes]))
            for beat in range(beats)]
