# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""crc32: every message, split into beats with byte enables (holes before and after it), gives zlib.crc32."""

import zlib

import cocotb
from cocotb.triggers import FallingEdge

from dpuv.models.crc32 import crc32 as crc32_model
from dpuv.tb.testbench import PAUSE_OPTIONS, start_clock_and_reset, test_rng


class TB:
    """Drives and samples on the falling edge, half a cycle away from the design's rising edge."""

    def __init__(self, dut):
        self.dut = dut
        self.bytes_per_beat = len(dut.data) // 8

    async def reset(self):
        self.dut.valid.value = 0
        self.dut.start.value = 0
        self.dut.data.value = 0
        self.dut.keep.value = 0
        await start_clock_and_reset(self.dut.clk, self.dut.rst)

    def beats(self, rng, message: bytes, holes: bool) -> tuple[list[tuple[int, int]], bytes]:
        """Split into (data, keep) beats, lanes past the message carrying junk with keep low; with
        holes, junk lanes (whole beats, sometimes) before and after the message as well: the one
        run of enabled bytes a message may have. Returns the beats and the bytes the CRC covers."""
        leading = rng.randint(0, 2 * self.bytes_per_beat) if holes else 0
        trailing_beats = rng.randint(0, 2) if holes else 0
        lanes_used = leading + len(message)
        beat_count = max(1, -(-lanes_used // self.bytes_per_beat)) + trailing_beats
        beats, covered = [], bytearray()
        for beat in range(beat_count):
            lanes = bytearray(rng.randbytes(self.bytes_per_beat))
            keep = 0
            for lane in range(self.bytes_per_beat):
                position = beat * self.bytes_per_beat + lane - leading
                if 0 <= position < len(message):
                    lanes[lane] = message[position]
                    keep |= 1 << lane
                    covered.append(message[position])
            beats.append((int.from_bytes(lanes, "little"), keep))
        return beats, bytes(covered)

    async def send(self, rng, beats, idle):
        for index, (data, keep) in enumerate(beats):
            while idle is not None and rng.random() < idle:
                self.dut.valid.value = 0
                await FallingEdge(self.dut.clk)
            self.dut.data.value = data
            self.dut.keep.value = keep
            self.dut.start.value = int(index == 0)
            self.dut.valid.value = 1
            await FallingEdge(self.dut.clk)
        self.dut.valid.value = 0
        self.dut.start.value = 0


@cocotb.test(timeout_time=10, timeout_unit="us")
@cocotb.parametrize(idle=PAUSE_OPTIONS, holes=(False, True))
async def crc_matches_zlib(dut, idle, holes):
    rng = test_rng("crc_matches_zlib", idle, holes)
    tb = TB(dut)
    await tb.reset()
    await FallingEdge(dut.clk)
    lengths = [0, 1, 3, tb.bytes_per_beat, tb.bytes_per_beat + 1] + [rng.randint(1, 6 * tb.bytes_per_beat) for _ in range(40)]
    for length in lengths:
        message = rng.randbytes(length)
        beats, covered = tb.beats(rng, message, holes)
        assert covered == message
        await tb.send(rng, beats, idle)
        expected = zlib.crc32(message)
        assert crc32_model(message) == expected, "the reference model disagrees with zlib"
        got = int(dut.crc.value)
        assert got == expected, f"{length}-byte message: CRC {got:#010x}, zlib says {expected:#010x}"


@cocotb.test(timeout_time=1, timeout_unit="us")
async def known_answer(dut):
    """The CRC-32 check value from the catalogue of CRC parameters: "123456789" -> 0xCBF43926."""
    tb = TB(dut)
    await tb.reset()
    await FallingEdge(dut.clk)
    beats, _ = tb.beats(test_rng("known_answer"), b"123456789", holes=False)
    await tb.send(None, beats, None)
    assert int(dut.crc.value) == 0xCBF43926
