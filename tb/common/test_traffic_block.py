# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""traffic_block: the generator's frames match the pattern model under backpressure, and the
checker counts exactly the faults a path can commit (corrupt, lost, repeated, cut short, wrong
tkeep), so a clean self-test run means a clean path."""

import cocotb
from cocotb.triggers import ClockCycles
from cocotbext.axi import AxiStreamFrame

from dpuv.models.traffic_pattern import frame_beats
from dpuv.drivers import traffic
from dpuv.regs.cocotb_axil import AxiLiteAccess
from dpuv.regs.maps import traffic_block
from dpuv.tb.testbench import PAUSE_OPTIONS, pulse_reset, quiet, start_clock_and_reset, stream_ends, test_rng

BLOCK = traffic_block.BLOCK


class TB:
    def __init__(self, dut, rng, idle=None, backpressure=None):
        self.dut = dut
        self.data_width = len(dut.m_axis_tdata)
        self.bytes_per_beat = self.data_width // 8
        self.bus = AxiLiteAccess(dut, dut.clk, dut.rst)
        quiet(self.bus.master.write_if, self.bus.master.read_if)
        self.window = self.bus.window(0, BLOCK)
        # the generator's output is m_axis; the checker's input is s_axis
        self.checker_feed, self.generated = stream_ends(dut, rng, idle, backpressure)

    async def reset(self):
        await start_clock_and_reset(self.dut.clk, self.dut.rst)

    def expected_frame(self, seed: int, frame: int, beats: int) -> bytes:
        return b"".join(beat.to_bytes(self.bytes_per_beat, "little")
                        for beat in frame_beats(seed, frame, beats, self.data_width))

    async def start(self, frames: int, beats: int, seed: int, gap: int = 0):
        for name, value in (("FRAMES", frames), ("FRAME_BEATS", beats), ("SEED", seed), ("GAP", gap)):
            await self.window.write_register(name, value)
        await self.window.write_register("CTRL", BLOCK["CTRL"].field("start").insert(0, 1))

    async def feed_checker(self, frames: list[bytes | AxiStreamFrame]):
        for frame in frames:
            await self.checker_feed.send(frame if isinstance(frame, AxiStreamFrame) else AxiStreamFrame(frame))
        await self.checker_feed.wait()
        await ClockCycles(self.dut.clk, 4)

    async def counters(self) -> dict[str, int]:
        return {name: await self.window.read_register(name) for name in traffic.COUNTERS}


@cocotb.test(timeout_time=20, timeout_unit="us")
@cocotb.parametrize(idle=PAUSE_OPTIONS, backpressure=PAUSE_OPTIONS)
async def generated_frames_follow_the_pattern(dut, idle, backpressure):
    rng = test_rng("generate", idle, backpressure)
    tb = TB(dut, rng, idle, backpressure)
    await tb.reset()
    for _ in range(3):
        frames, beats, seed, gap = rng.randint(1, 6), rng.randint(1, 20), rng.getrandbits(32), rng.choice((0, 3))
        await tb.start(frames, beats, seed, gap)
        received = [await tb.generated.recv() for _ in range(frames)]
        for frame, got in enumerate(received):
            assert got.tdata == tb.expected_frame(seed, frame, beats), f"frame {frame} of seed {seed:#x} differs"
            assert all(keep == 1 for keep in (got.tkeep or [1])), "tkeep not all ones"
        # the returned frames through the checker: nothing wrong, everything counted
        await tb.feed_checker([frame.tdata for frame in received])
        counters = await tb.counters()
        assert counters["FRAMES_SENT"] == frames and counters["FRAMES_RECEIVED"] == frames, counters
        assert counters["BEATS_RECEIVED"] == frames * beats, counters
        assert counters["FRAMES_BAD"] == counters["SEQUENCE_ERRORS"] == counters["BAD_BEATS"] == 0, counters
        status = await tb.window.read_register("STATUS")
        assert BLOCK["STATUS"].field("done").extract(status) == 1
        await ClockCycles(dut.clk, 20)
        assert tb.generated.empty(), "more frames than FRAMES"


@cocotb.test(timeout_time=2, timeout_unit="us")
async def checker_counts_each_fault_once(dut):
    rng = test_rng("faults")
    tb = TB(dut, rng)
    await tb.reset()
    seed, beats = rng.getrandbits(32), 5
    await tb.start(0, beats, seed)  # FRAMES 0: latch the settings, send nothing
    good = [tb.expected_frame(seed, frame, beats) for frame in range(12)]
    corrupted = bytearray(good[1])
    corrupted[rng.randrange(len(corrupted) // 2, len(corrupted))] ^= 0x10
    cut_short = good[5][: 2 * tb.bytes_per_beat]
    # frame 0 good, 1 corrupted, 2 good, 3 lost, 4 good (out of sequence), 4 again (repeated),
    # 5 cut short, 6 good, 7 with the right data but its last byte's tkeep low
    partial = AxiStreamFrame(good[7], tkeep=[1] * (len(good[7]) - 1) + [0])
    await tb.feed_checker([good[0], bytes(corrupted), good[2], good[4], good[4], cut_short, good[6], partial])
    counters = await tb.counters()
    assert counters["FRAMES_RECEIVED"] == 8, counters
    assert counters["FRAMES_BAD"] == 3, counters  # corrupted, cut short, tkeep low
    assert counters["BAD_BEATS"] == 3, counters   # one corrupted beat, the early tlast, the tkeep beat
    assert counters["SEQUENCE_ERRORS"] == 2, counters  # 4 where 3 was due, 4 again where 5 was due
    assert counters["BEATS_RECEIVED"] == 7 * beats + 2, counters


@cocotb.test(timeout_time=5, timeout_unit="us")
async def an_injected_error_costs_exactly_one_beat(dut):
    rng = test_rng("inject")
    tb = TB(dut, rng)
    await tb.reset()
    seed, frames, beats = rng.getrandbits(32), 4, 8
    await tb.window.write_register("CTRL", BLOCK["CTRL"].field("inject_error").insert(0, 1))
    await tb.start(frames, beats, seed)
    received = [bytes((await tb.generated.recv()).tdata) for _ in range(frames)]
    expected = [tb.expected_frame(seed, frame, beats) for frame in range(frames)]
    flipped = [index for index, (a, b) in enumerate(zip(b"".join(received), b"".join(expected))) if a != b]
    assert flipped == [tb.bytes_per_beat - 1], f"differences at bytes {flipped}"
    assert received[0][tb.bytes_per_beat - 1] ^ expected[0][tb.bytes_per_beat - 1] == 0x80
    await tb.feed_checker(received)
    counters = await tb.counters()
    assert (counters["FRAMES_BAD"], counters["BAD_BEATS"], counters["SEQUENCE_ERRORS"]) == (1, 1, 0), counters


@cocotb.test(timeout_time=10, timeout_unit="us")
async def stop_and_reset_end_a_run_cleanly(dut):
    rng = test_rng("stop")
    tb = TB(dut, rng, backpressure=0.5)
    await tb.reset()
    seed, beats = rng.getrandbits(32), 6
    await tb.start(1000, beats, seed)
    await ClockCycles(dut.clk, 40)
    await tb.window.write_register("CTRL", BLOCK["CTRL"].field("stop").insert(0, 1))
    await ClockCycles(dut.clk, 200)
    sent = await tb.window.read_register("FRAMES_SENT")
    assert 0 < sent < 1000, f"{sent} frames sent"
    received = [await tb.generated.recv() for _ in range(sent)]
    assert tb.generated.empty(), "a frame was cut or continued after stop"
    for frame, got in enumerate(received):
        assert got.tdata == tb.expected_frame(seed, frame, beats)
    # reset in the middle of a run, then a clean run from scratch
    await tb.start(1000, beats, seed)
    await ClockCycles(dut.clk, 30)
    await pulse_reset(dut.clk, dut.rst)
    tb.generated.clear()
    assert await tb.window.read_register("STATUS") == 0, "still sending after reset"
    await tb.start(3, beats, seed ^ 1)
    for frame in range(3):
        assert (await tb.generated.recv()).tdata == tb.expected_frame(seed ^ 1, frame, beats)

