# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""A simulated register space behind a file, standing in for a card's BAR resource file.

`python tests/bar_register_space.py FILE` fills FILE with a dpuv register space (the ID block at
0 and a perf block at 0x1000, laid out from their generated register maps) and serves it until
killed: a cycle counter runs at the served clock, and a perf-block snapshot written to CTRL is
taken and its pulse field cleared, as the RTL does. A file has no way to trap a load, so this
space is served by watching it from its own process (on the other core) rather than by answering
each access; what it checks is the BAR backend's side: offsets, 32-bit accesses, and the chain
walk and scenarios over a mapping.
"""

from __future__ import annotations

import mmap
import sys
import time
from pathlib import Path

from dpuv.regs.maps import id_block, perf_block

SIZE = 0x2000
PERF_ADDRESS = 0x1000
CLOCK_KHZ = 250000
GIT_HASH = 0x1234ABCD


def _put(image: mmap.mmap, address: int, value: int) -> None:
    image[address:address + 4] = value.to_bytes(4, "little")


def _get(image: mmap.mmap, address: int) -> int:
    return int.from_bytes(image[address:address + 4], "little")


def lay_out(image: mmap.mmap) -> None:
    for block, base, following in ((id_block.BLOCK, 0, PERF_ADDRESS), (perf_block.BLOCK, PERF_ADDRESS, 0)):
        for register in block.registers:
            start = base + register.offset
            image[start:start + register.width // 8] = (register.reset or 0).to_bytes(register.width // 8, "little")
        _put(image, base + block["BLOCK_NEXT"].offset, following)
    options = id_block.BLOCK["BUILD_OPTIONS"]
    _put(image, id_block.BLOCK["BUILD_OPTIONS"].offset, options.field("stream_bytes").insert(0, 8))
    _put(image, id_block.BLOCK["GIT_HASH"].offset, GIT_HASH)
    _put(image, id_block.BLOCK["CLOCK_FREQ_KHZ"].offset, CLOCK_KHZ)


def serve(path: Path) -> None:
    path.write_bytes(bytes(SIZE))
    with path.open("r+b") as file, mmap.mmap(file.fileno(), SIZE) as image:
        lay_out(image)
        ctrl = PERF_ADDRESS + perf_block.BLOCK["CTRL"].offset
        snapshot = perf_block.BLOCK["CTRL"].field("snapshot")
        cycles = PERF_ADDRESS + perf_block.BLOCK["CYCLES"].offset
        started = time.monotonic()
        (path.parent / (path.name + ".ready")).touch()
        while True:
            value = _get(image, ctrl)
            if snapshot.extract(value):
                now = int((time.monotonic() - started) * CLOCK_KHZ * 1000)
                _put(image, cycles, now & 0xFFFFFFFF)
                _put(image, cycles + 4, now >> 32)
                _put(image, ctrl, snapshot.insert(value, 0))
            time.sleep(20e-6)


if __name__ == "__main__":
    serve(Path(sys.argv[1]))
