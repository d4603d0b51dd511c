# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""axis_fifo: order and content kept; in packet mode bad and oversize frames vanish and are counted."""

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiStreamFrame

from dpuv.models.packet_fifo import Frame, delivered, dropped_bad, dropped_oversize
from dpuv.tb.testbench import (PAUSE_OPTIONS, CycleCounter, HandshakeMonitor, pulse_reset, 
                                start_clock_and_reset, stream_ends, test_rng)


class PulseCounter:
    def __init__(self, clock, signal):
        self.count = 0
        self.clock = clock
        self.signal = signal
        cocotb.start_soon(self._run())

    async def _run(self):
        while True:
            await RisingEdge(self.clock)
            self.count += int(self.signal.value == 1)


class TB:
    def __init__(self, dut, idle=None, backpressure=None, rng=None):
        self.dut = dut
        self.bytes_per_beat = len(dut.s_axis_tdata) // 8
        self.depth = int(dut.DEPTH.value)
        self.frame_mode = int(dut.FRAME_FIFO.value) == 1
        self.drop_bad = int(dut.DROP_BAD_FRAME.value) == 1
        self.source, self.sink = stream_ends(dut, rng, idle, backpressure)
        self.cycles = CycleCounter(dut.clk)
        self.input = HandshakeMonitor(dut, "s_axis", self.cycles)
        self.output = HandshakeMonitor(dut, "m_axis", self.cycles)
        self.bad_frames = PulseCounter(dut.clk, dut.status_bad_frame)
        self.oversize_frames = PulseCounter(dut.clk, dut.status_oversize_frame)

    async def reset(self):
        await start_clock_and_reset(self.dut.clk, self.dut.rst)

    def random_frame(self, rng) -> Frame:
        roll = rng.random()
        if self.frame_mode and roll < 0.1:
            beats = rng.randint(self.depth + 1, self.depth + 4)  # can never fit: must be dropped
        else:
            beats = rng.randint(1, self.depth if self.frame_mode else 2 * self.depth)
        length = rng.randint((beats - 1) * self.bytes_per_beat + 1, beats * self.bytes_per_beat)
        return Frame(rng.randbytes(length), bad=self.drop_bad and 0.1 <= roll < 0.25)


@cocotb.test(timeout_time=50, timeout_unit="us")
@cocotb.parametrize(idle=PAUSE_OPTIONS, backpressure=PAUSE_OPTIONS)
async def frames_arrive_intact(dut, idle, backpressure):
    rng = test_rng("frames_arrive_intact", idle, backpressure)
    tb = TB(dut, idle, backpressure, rng)
    await tb.reset()
    frames = [tb.random_frame(rng) for _ in range(80)]
    for frame in frames:
        await tb.source.send(AxiStreamFrame(frame.data, tuser=int(frame.bad)))
    expected = delivered(frames, tb.depth, tb.bytes_per_beat, tb.drop_bad) if tb.frame_mode else [
        frame.data for frame in frames]
    for index, payload in enumerate(expected):
        received = await tb.sink.recv()
        assert received.tdata == payload, f"frame {index} of {len(expected)} differs"
    await tb.source.wait()
    await ClockCycles(dut.clk, 2 * tb.depth)
    assert tb.sink.empty(), "the FIFO delivered a frame it should have dropped"
    expected_bad = dropped_bad(frames, tb.depth, tb.bytes_per_beat) if tb.drop_bad else 0
    expected_oversize = dropped_oversize(frames, tb.depth, tb.bytes_per_beat) if tb.frame_mode else 0
    assert tb.bad_frames.count == expected_bad, f"{tb.bad_frames.count} bad-frame pulses, expected {expected_bad}"
    assert tb.oversize_frames.count == expected_oversize, (
        f"{tb.oversize_frames.count} oversize pulses, expected {expected_oversize}")


@cocotb.test(timeout_time=5, timeout_unit="us")
async def one_beat_per_cycle_when_unstalled(dut):
    tb = TB(dut)
    await tb.reset()
    beats_per_frame = tb.depth // 2
    frames = 16
    for index in range(frames):
        await tb.source.send(AxiStreamFrame(bytes([index]) * (beats_per_frame * tb.bytes_per_beat)))
    for _ in range(frames):
        await tb.sink.recv()
    total = frames * beats_per_frame
    assert len(tb.output.beat_cycles) == total
    assert tb.output.active_cycles == total, f"{total} beats took {tb.output.active_cycles} cycles"


@cocotb.test(timeout_time=1, timeout_unit="us")
async def packet_mode_holds_frame_until_last_beat(dut):
    rng = test_rng("holds_frame")
    tb = TB(dut, idle=0.6, backpressure=None, rng=rng)
    await tb.reset()
    await tb.source.send(AxiStreamFrame(rng.randbytes(tb.depth // 2 * tb.bytes_per_beat)))
    await tb.sink.recv()
    first_out, last_in = tb.output.first_beat_cycles[0], tb.input.last_beat_cycles[0]
    if tb.frame_mode:
        assert first_out > last_in, f"packet mode let beat out at cycle {first_out}, before last in at {last_in}"
    else:
        assert first_out < last_in, "plain mode should cut through, not wait for the last beat"


@cocotb.test(timeout_time=1, timeout_unit="us")
async def reset_mid_traffic_leaves_it_empty(dut):
    rng = test_rng("reset_mid_traffic")
    tb = TB(dut, idle=None, backpressure=0.7, rng=rng)
    await tb.reset()
    for _ in range(4):
        await tb.source.send(AxiStreamFrame(rng.randbytes(3 * tb.bytes_per_beat)))
    await ClockCycles(dut.clk, 10)
    await pulse_reset(dut.clk, dut.rst)
    assert dut.m_axis_tvalid.value == 0, "beats survived reset"
    tb.sink.clear()
    payload = rng.randbytes(2 * tb.bytes_per_beat)
    await tb.source.send(AxiStreamFrame(payload))
    assert (await tb.sink.recv()).tdata == payload
    await ClockCycles(dut.clk, 8)
    assert tb.sink.empty()
