# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""axis_async_fifo: frames cross between two unrelated clocks whole and in order, in frame mode
without gaps, at the slower side's full rate, and a reset of both sides empties it."""

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, Timer
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource

from dpuv.tb.testbench import PAUSE_OPTIONS, pauses, test_rng

# The Alveo build's two clocks: the PCIe core clock (250 MHz) and the 100G MAC's (322.27 MHz)
CORE_PERIOD_NS = 4.0
MAC_PERIOD_NS = 3.104
# Write side faster, then read side faster
CLOCK_PAIRS = ((MAC_PERIOD_NS, CORE_PERIOD_NS), (CORE_PERIOD_NS, MAC_PERIOD_NS))


class TB:
    def __init__(self, dut, write_period, read_period, rng=None, idle=None, backpressure=None):
        self.dut = dut
        self.bytes_per_beat = len(dut.s_axis_tdata) // 8
        self.depth = int(dut.DEPTH.value)
        self.frame_mode = int(dut.FRAME_FIFO.value) == 1
        cocotb.start_soon(Clock(dut.s_clk, write_period, unit="ns").start())
        # Start the read clock a fraction of a period later: the two edges never line up
        cocotb.start_soon(self._late_clock(dut.m_clk, read_period))
        self.source = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.s_clk, dut.s_rst)
        self.sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), dut.m_clk, dut.m_rst)
        if rng is not None:
            self.source.set_pause_generator(pauses(rng, idle))
            self.sink.set_pause_generator(pauses(rng, backpressure))

    @staticmethod
    async def _late_clock(clock, period):
        await Timer(0.37, unit="ns")
        await Clock(clock, period, unit="ns").start()

    async def reset(self):
        """Both sides' resets together, as the design requires, long enough for both clocks."""
        self.dut.s_rst.value = 1
        self.dut.m_rst.value = 1
        await ClockCycles(self.dut.s_clk, 6)
        await ClockCycles(self.dut.m_clk, 6)
        self.dut.s_rst.value = 0
        self.dut.m_rst.value = 0
        await ClockCycles(self.dut.s_clk, 2)

    def random_payload(self, rng) -> bytes:
        # In frame mode a frame must fit; otherwise up to twice the depth, so the FIFO fills mid-frame
        beats = rng.randint(1, self.depth if self.frame_mode else 2 * self.depth)
        return rng.randbytes(rng.randint((beats - 1) * self.bytes_per_beat + 1, beats * self.bytes_per_beat))


async def output_beats(dut, count):
    """(cycle, tlast) of the next count beats taken at the read side."""
    beats, cycle = [], 0
    while len(beats) < count:
        await RisingEdge(dut.m_clk)
        cycle += 1
        if dut.m_axis_tvalid.value == 1 and dut.m_axis_tready.value == 1:
            beats.append((cycle, int(dut.m_axis_tlast.value)))
    return beats


@cocotb.test(timeout_time=60, timeout_unit="us")
@cocotb.parametrize(clocks=CLOCK_PAIRS, idle=PAUSE_OPTIONS, backpressure=PAUSE_OPTIONS)
async def frames_cross_intact(dut, clocks, idle, backpressure):
    rng = test_rng("frames_cross_intact", clocks, idle, backpressure)
    tb = TB(dut, *clocks, rng, idle, backpressure)
    await tb.reset()
    payloads = [tb.random_payload(rng) for _ in range(60)]
    for index, payload in enumerate(payloads):
        await tb.source.send(AxiStreamFrame(payload, tuser=index % 2))
    for index, payload in enumerate(payloads):
        received = await tb.sink.recv()
        assert received.tdata == payload, f"frame {index} of {len(payloads)} differs after crossing"
        # tuser rides with every beat; the last beat's is what a MAC's bad-frame flag means
        last_tuser = received.tuser[-1] if isinstance(received.tuser, list) else received.tuser
        assert last_tuser == index % 2, f"frame {index}: tuser {last_tuser}, sent {index % 2}"
    await tb.source.wait()
    await ClockCycles(dut.m_clk, 4 * tb.depth)
    assert tb.sink.empty(), "a beat came out that was never sent"


@cocotb.test(timeout_time=20, timeout_unit="us")
@cocotb.parametrize(clocks=CLOCK_PAIRS)
async def frame_mode_never_runs_dry_inside_a_frame(dut, clocks):
    """With a slow, bursty writer, frame mode releases a frame only whole, so its beats leave on
    consecutive read cycles; plain mode cuts through and leaves gaps (what a 100G MAC rejects)."""
    rng = test_rng("never_runs_dry", clocks)
    tb = TB(dut, *clocks, rng, idle=0.6, backpressure=None)
    await tb.reset()
    frames = 8
    beats_per_frame = max(2, tb.depth // 2)
    for _ in range(frames):
        await tb.source.send(AxiStreamFrame(rng.randbytes(beats_per_frame * tb.bytes_per_beat)))
    beats = await output_beats(dut, frames * beats_per_frame)
    # A gap inside a frame: a beat that is not a frame's last, not followed on the next cycle
    gaps = sum(1 for (cycle, last), (next_cycle, _) in zip(beats, beats[1:]) if not last and next_cycle != cycle + 1)
    if tb.frame_mode:
        assert gaps == 0, f"{gaps} gaps inside frames at the read side in frame mode"
    else:
        assert gaps > 0, "plain mode should cut through, leaving the writer's gaps inside frames"


class WriteCounter:
    """Beats taken and cycles the writer was held back, at the write side."""

    def __init__(self, dut):
        self.accepted = 0
        self.stalled = 0
        cocotb.start_soon(self._run(dut))

    async def _run(self, dut):
        while True:
            await RisingEdge(dut.s_clk)
            if dut.s_axis_tvalid.value == 1:
                if dut.s_axis_tready.value == 1:
                    self.accepted += 1
                else:
                    self.stalled += 1


def half_depth_frames(tb, count):
    """count frames of half the depth each (they fit in frame mode too), every byte distinct per frame."""
    beats = max(1, tb.depth // 2)
    return [bytes((index + offset) % 256 for offset in range(beats * tb.bytes_per_beat)) for index in range(count)]


@cocotb.test(timeout_time=10, timeout_unit="us")
async def full_rate_from_the_slower_side(dut):
    """Writer at 250 MHz, reader at 322 MHz and always ready: every write cycle takes a beat, a
    long stream is never held back by the crossing."""
    tb = TB(dut, CORE_PERIOD_NS, MAC_PERIOD_NS)
    await tb.reset()
    writes = WriteCounter(dut)
    payloads = half_depth_frames(tb, 16)
    for payload in payloads:
        await tb.source.send(AxiStreamFrame(payload))
    for payload in payloads:
        assert (await tb.sink.recv()).tdata == payload
    assert writes.stalled == 0, f"the writer was held back {writes.stalled} cycles with a faster reader always ready"


@cocotb.test(timeout_time=10, timeout_unit="us")
async def fills_to_its_depth_and_stops(dut):
    """With the reader stalled, the FIFO takes DEPTH beats (one more in its output register) and
    then holds tready low, losing nothing."""
    tb = TB(dut, CORE_PERIOD_NS, MAC_PERIOD_NS)
    tb.sink.pause = True
    await tb.reset()
    writes = WriteCounter(dut)
    payloads = half_depth_frames(tb, 6)
    for payload in payloads:
        await tb.source.send(AxiStreamFrame(payload))
    await ClockCycles(dut.s_clk, 4 * tb.depth)
    assert dut.s_axis_tready.value == 0, "still accepting beats with the reader stalled"
    assert tb.depth <= writes.accepted <= tb.depth + 1, (
        f"took {writes.accepted} beats with room for {tb.depth} (+1 in the output register)")
    tb.sink.pause = False
    for index, payload in enumerate(payloads):
        assert (await tb.sink.recv()).tdata == payload, f"frame {index} changed while the FIFO stood full"


@cocotb.test(timeout_time=10, timeout_unit="us")
async def reset_mid_traffic_leaves_it_empty(dut):
    rng = test_rng("async_reset_mid_traffic")
    tb = TB(dut, MAC_PERIOD_NS, CORE_PERIOD_NS, rng, idle=None, backpressure=0.7)
    await tb.reset()
    for _ in range(4):
        await tb.source.send(AxiStreamFrame(rng.randbytes(3 * tb.bytes_per_beat)))
    await ClockCycles(dut.s_clk, 12)
    tb.source.clear()
    await tb.reset()
    assert dut.m_axis_tvalid.value == 0, "beats survived the reset"
    tb.sink.clear()
    await ClockCycles(dut.m_clk, 20)
    assert tb.sink.empty(), "beats stored before the reset came out after it"
    payload = rng.randbytes(2 * tb.bytes_per_beat)
    await tb.source.send(AxiStreamFrame(payload))
    assert (await tb.sink.recv()).tdata == payload
    await ClockCycles(dut.m_clk, 20)
    assert tb.sink.empty()
