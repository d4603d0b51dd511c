# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""An RTL memory array (axi_ram's `memory`) read and written word by word through the simulator,
so that bulk data is loaded and checked without a bus transaction per beat."""

from __future__ import annotations


class RamBackdoor:
    def __init__(self, words, beat_bytes: int):
        self.words = words
        self.beat_bytes = beat_bytes

    def _word(self, index: int) -> bytes:
        return int(self.words[index].value).to_bytes(self.beat_bytes, "little")

    def _word_to_merge(self, index: int) -> bytes:
        # Icarus starts a memory unknown: bytes a partial write keeps, never written, read as zeros
        value = self.words[index].value
        return (int(value) if value.is_resolvable else 0).to_bytes(self.beat_bytes, "little")

    def write(self, address: int, data: bytes) -> None:
        beat = self.beat_bytes
        first, end = address // beat, -(-(address + len(data)) // beat)
        head = address - first * beat
        if head or len(data) % beat:
            merged = bytearray(self._word_to_merge(first))
            if end - 1 != first:
                merged += bytes((end - first - 2) * beat) + self._word_to_merge(end - 1)
            merged[head:head + len(data)] = data
            data = bytes(merged)
        for index in range(end - first):
            self.words[first + index].value = int.from_bytes(data[index * beat:(index + 1) * beat], "little")

    def read(self, address: int, length: int) -> bytes:
        beat = self.beat_bytes
        first, end = address // beat, -(-(address + length) // beat)
        data = b"".join(self._word(index) for index in range(first, end))
        head = address - first * beat
        return data[head:head + length]
