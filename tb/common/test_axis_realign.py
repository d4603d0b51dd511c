# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""axis_realign: every frame's bytes come out moved up by the frame's shift, across beat
boundaries (a last beat that no longer fits spills into one more), at one beat per cycle."""

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiStreamFrame

from dpuv.tb.testbench import (PAUSE_OPTIONS, CycleCounter, HandshakeMonitor, pulse_reset,
                                start_clock_and_reset, stream_ends, test_rng)


def expected_lanes(payload: bytes, shift: int, lanes: int) -> tuple[list[int], list[int]]:
    """The output frame, lane by lane: `shift` empty lanes, the payload, empty lanes to the end
    of its last beat (what a realigned frame is, by the block's definition)."""
    beats = -(-(shift + len(payload)) // lanes)
    keep = [int(shift <= lane < shift + len(payload)) for lane in range(beats * lanes)]
    data = [payload[lane - shift] if keep[lane] else None for lane in range(beats * lanes)]
    return data, keep


class TB:
    def __init__(self, dut, idle=None, backpressure=None, rng=None):
        self.dut = dut
        self.lanes = len(dut.s_axis_tkeep)
        self.source, self.sink = stream_ends(dut, rng, idle, backpressure)
        self.cycles = CycleCounter(dut.clk)
        self.input = HandshakeMonitor(dut, "s_axis", self.cycles)
        self.output = HandshakeMonitor(dut, "m_axis", self.cycles)
        self.shifts: list[int] = []
        dut.s_shift.value = 0
        cocotb.start_soon(self._drive_shift())

    async def _drive_shift(self):
        """s_shift is sampled with a frame's first beat: present each frame's shift from the
        cycle after the previous frame's last beat is taken, so frames may follow back to back."""
        while True:
            if self.shifts:
                self.dut.s_shift.value = self.shifts[0]
            await RisingEdge(self.dut.clk)
            if (self.dut.s_axis_tvalid.value == 1 and self.dut.s_axis_tready.value == 1
                    and self.dut.s_axis_tlast.value == 1 and self.shifts):
                self.shifts.pop(0)

    async def reset(self):
        await start_clock_and_reset(self.dut.clk, self.dut.rst)

    async def send(self, payload: bytes, shift: int) -> None:
        self.shifts.append(shift)
        await self.source.send(AxiStreamFrame(payload))

    async def check_next(self, payload: bytes, shift: int) -> None:
        received = await self.sink.recv(compact=False)
        data, keep = expected_lanes(payload, shift, self.lanes)
        assert list(received.tkeep) == keep, f"shift {shift}, {len(payload)} bytes: tkeep {received.tkeep} " \
                                             f"instead of {keep}"
        moved = [byte for byte, lane_kept in zip(received.tdata, keep) if lane_kept]
        assert bytes(moved) == payload, f"shift {shift}, {len(payload)} bytes: the bytes changed"
        assert len(received.tdata) == len(data)


@cocotb.test(timeout_time=10, timeout_unit="us")
@cocotb.parametrize(idle=PAUSE_OPTIONS, backpressure=PAUSE_OPTIONS)
async def frames_move_up_by_their_shift(dut, idle, backpressure):
    """Random lengths around every beat boundary and random shifts, frames back to back."""
    rng = test_rng("frames_move_up_by_their_shift", idle, backpressure)
    tb = TB(dut, idle, backpressure, rng)
    await tb.reset()
    sent = []
    for _ in range(80):
        beats = rng.randint(1, 4)
        payload = rng.randbytes(max(1, beats * tb.lanes + rng.randint(-tb.lanes + 1, 0)))
        shift = rng.randrange(tb.lanes)
        sent.append((payload, shift))
        await tb.send(payload, shift)
    for payload, shift in sent:
        await tb.check_next(payload, shift)
    await ClockCycles(dut.clk, 8)
    assert tb.sink.empty(), "beats came out that no frame explains"


@cocotb.test(timeout_time=2, timeout_unit="us")
async def one_beat_per_cycle_when_unstalled(dut):
    """A 64-beat frame shifted by 3 lanes: 64 input beats in 64 cycles, 65 output beats in 65."""
    tb = TB(dut)
    await tb.reset()
    beats, shift = 64, 3 % tb.lanes
    payload = bytes(index % 251 for index in range(beats * tb.lanes))
    await tb.send(payload, shift)
    await tb.check_next(payload, shift)
    expected_out = beats + (1 if shift else 0)
    assert len(tb.input.beat_cycles) == beats and tb.input.active_cycles == beats, \
        f"{beats} input beats took {tb.input.active_cycles} cycles"
    assert len(tb.output.beat_cycles) == expected_out and tb.output.active_cycles == expected_out, \
        f"{expected_out} output beats took {tb.output.active_cycles} cycles"


@cocotb.test(timeout_time=1, timeout_unit="us")
async def reset_mid_traffic_leaves_nothing_behind(dut):
    """Reset in the middle of a shifted frame under backpressure: nothing of it comes out after,
    and the next frame is realigned by its own shift."""
    rng = test_rng("reset_mid_traffic")
    tb = TB(dut, idle=None, backpressure=0.7, rng=rng)
    await tb.reset()
    await tb.send(rng.randbytes(6 * tb.lanes), tb.lanes - 1)
    await ClockCycles(dut.clk, 5)
    await pulse_reset(dut.clk, dut.rst)
    assert dut.m_axis_tvalid.value == 0, "beats survived reset"
    tb.sink.clear()
    tb.shifts.clear()
    payload = rng.randbytes(2 * tb.lanes + 1)
    await tb.send(payload, 1)
    await tb.check_next(payload, 1)
