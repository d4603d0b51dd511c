# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""axis_skid_buffer: every beat arrives once and in order, at one beat per cycle when unstalled."""

import cocotb
from cocotb.triggers import ClockCycles
from cocotbext.axi import AxiStreamFrame

from dpuv.tb.testbench import (PAUSE_OPTIONS, CycleCounter, HandshakeMonitor, pulse_reset, 
                                start_clock_and_reset, stream_ends, test_rng)


class TB:
    def __init__(self, dut, idle=None, backpressure=None, rng=None):
        self.dut = dut
        self.bytes_per_beat = len(dut.s_axis_tdata) // 8
        self.source, self.sink = stream_ends(dut, rng, idle, backpressure)
        self.cycles = CycleCounter(dut.clk)
        self.output = HandshakeMonitor(dut, "m_axis", self.cycles)

    async def reset(self):
        await start_clock_and_reset(self.dut.clk, self.dut.rst)


@cocotb.test(timeout_time=10, timeout_unit="us")
@cocotb.parametrize(idle=PAUSE_OPTIONS, backpressure=PAUSE_OPTIONS)
async def frames_arrive_intact(dut, idle, backpressure):
    rng = test_rng("frames_arrive_intact", idle, backpressure)
    tb = TB(dut, idle, backpressure, rng)
    await tb.reset()
    sent = []
    for _ in range(60):
        payload = rng.randbytes(rng.randint(1, 4 * tb.bytes_per_beat))
        frame = AxiStreamFrame(payload, tuser=rng.randint(0, 1), tid=0)
        sent.append(frame)
        await tb.source.send(frame)
    for expected in sent:
        received = await tb.sink.recv()
        assert received.tdata == expected.tdata, "payload changed in the skid buffer"
        assert received.tuser == expected.tuser
    await ClockCycles(dut.clk, 8)
    assert tb.sink.empty(), "the skid buffer produced beats nobody sent"


@cocotb.test(timeout_time=2, timeout_unit="us")
async def one_beat_per_cycle_when_unstalled(dut):
    tb = TB(dut)
    await tb.reset()
    beats = 64
    payload = bytes(index % 256 for index in range(beats * tb.bytes_per_beat))
    await tb.source.send(AxiStreamFrame(payload))
    await tb.sink.recv()
    assert len(tb.output.beat_cycles) == beats
    assert tb.output.active_cycles == beats, f"{beats} beats took {tb.output.active_cycles} cycles"


@cocotb.test(timeout_time=1, timeout_unit="us")
async def reset_mid_traffic_leaves_it_empty(dut):
    rng = test_rng("reset_mid_traffic")
    tb = TB(dut, idle=None, backpressure=0.5, rng=rng)
    await tb.reset()
    await tb.source.send(AxiStreamFrame(rng.randbytes(16 * tb.bytes_per_beat)))
    await ClockCycles(dut.clk, 6)
    await pulse_reset(dut.clk, dut.rst)
    assert dut.m_axis_tvalid.value == 0, "beats survived reset"
    tb.sink.clear()
    payload = rng.randbytes(3 * tb.bytes_per_beat)
    await tb.source.send(AxiStreamFrame(payload))
    assert (await tb.sink.recv()).tdata == payload
