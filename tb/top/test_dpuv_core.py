# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""dpuv_core: the ID block and chain as software sees them, bus errors, and the measured loopback."""

import cocotb
from cocotb.triggers import ClockCycles
from cocotbext.axi import AxiStreamFrame

from dpuv.models.packet_fifo import Frame, delivered
from dpuv.harness import perf
from dpuv.regs import chain
from dpuv.regs.cocotb_axil import AxiLiteAccess
from dpuv.regs.access import BusError
from dpuv.regs.maps import id_block, perf_block
from dpuv.harness.runner import stamp_parameters
from dpuv.tb.testbench import (PAUSE_OPTIONS, CycleCounter, HandshakeMonitor, pulse_reset, quiet, 
                                start_clock_and_reset, stream_ends, test_rng)

LOOPBACK_FIFO_DEPTH = 64
CLOCK_FREQ_KHZ = 250000


class TB:
    def __init__(self, dut, idle=None, backpressure=None, rng=None):
        self.dut = dut
        self.bytes_per_beat = len(dut.s_axis_tdata) // 8
        self.bus = AxiLiteAccess(dut, dut.clk, dut.rst)
        self.source, self.sink = stream_ends(dut, rng, idle, backpressure)
        quiet(self.bus.master.write_if, self.bus.master.read_if)
        self.cycles = CycleCounter(dut.clk)
        self.input = HandshakeMonitor(dut, "s_axis", self.cycles)
        self.output = HandshakeMonitor(dut, "m_axis", self.cycles)

    async def reset(self):
        await start_clock_and_reset(self.dut.clk, self.dut.rst)

    async def loopback_counters(self):
        """Find the loopback's counter block through the chain, as board software would."""
        blocks = chain.blocks_of_type(await chain.walk(self.bus), perf_block.BLOCK)
        assert len(blocks) == 1, f"expected one perf block, found {len(blocks)}"
        return blocks[0].window(self.bus)

    async def pass_frames(self, frames: list[Frame]) -> list[bytes]:
        for frame in frames:
            await self.source.send(AxiStreamFrame(frame.data, tuser=int(frame.bad)))
        expected = delivered(frames, LOOPBACK_FIFO_DEPTH, self.bytes_per_beat, drop_bad=True)
        for index, payload in enumerate(expected):
            received = await self.sink.recv()
            assert received.tdata == payload, f"loopback frame {index} differs"
        await self.source.wait()
        await ClockCycles(self.dut.clk, 4)
        return expected


@cocotb.test(timeout_time=2, timeout_unit="us")
async def id_block_identifies_the_build(dut):
    tb = TB(dut)
    await tb.reset()
    ident = tb.bus.window(chain.ID_BLOCK_ADDRESS, id_block.BLOCK)
    assert await ident.read_register("MAGIC") == 0x44505556
    assert (await ident.read_register("BLOCK_TYPE")).to_bytes(4, "big") == b"DPID"
    stamp = stamp_parameters()
    git_hash = await ident.read_register("GIT_HASH")
    assert git_hash == stamp["GIT_HASH"], f"ID block says commit {git_hash:08x}, checkout is {stamp['GIT_HASH']:08x}"
    assert await ident.read_field("BUILD_OPTIONS", "git_dirty") == stamp["GIT_DIRTY"]
    assert await ident.read_field("BUILD_OPTIONS", "simulation") == 1
    assert await ident.read_field("BUILD_OPTIONS", "stream_bytes") == tb.bytes_per_beat
    assert await ident.read_register("CLOCK_FREQ_KHZ") == CLOCK_FREQ_KHZ
    version = id_block.BLOCK["DESIGN_VERSION"]
    assert await ident.read_register("DESIGN_VERSION") == version.reset


@cocotb.test(timeout_time=2, timeout_unit="us")
async def chain_walk_finds_every_block(dut):
    tb = TB(dut)
    await tb.reset()
    found = await chain.walk(tb.bus)
    assert [(block.address, block.type_name) for block in found] == [(0x0000, "DPID"), (0x1000, "PERF")]
    assert all(block.model is not None for block in found)
    counters = found[1].window(tb.bus)
    assert await counters.read_register("SOURCE_ID") == 1


@cocotb.test(timeout_time=2, timeout_unit="us")
async def scratch_register_takes_words_and_bytes(dut):
    tb = TB(dut)
    await tb.reset()
    ident = tb.bus.window(chain.ID_BLOCK_ADDRESS, id_block.BLOCK)
    scratch = id_block.BLOCK["SCRATCH"].offset
    assert await ident.read_register("SCRATCH") == 0
    for pattern in (0xFFFFFFFF, 0xA5A55A5A, 0x00000001, 0x80000000):
        await ident.write_register("SCRATCH", pattern)
        assert await ident.read_register("SCRATCH") == pattern
    await tb.bus.write_byte(scratch + 2, 0x3C)
    assert await tb.bus.read_dword(scratch) == 0x803C0000, "a byte write must touch only its byte lane"


@cocotb.test(timeout_time=1, timeout_unit="us")
async def bad_accesses_answer_errors_and_change_nothing(dut):
    tb = TB(dut)
    await tb.reset()
    attempts = [
        ("read", 0x2000, "DECERR"),    # no block decodes this window
        ("read", 0xF004, "DECERR"),
        ("read", 0x0100, "SLVERR"),    # inside the ID block's window, past its registers
        ("write", 0x000C, "SLVERR"),   # MAGIC is read-only
        ("write", 0x1018, "SLVERR"),   # counters are read-only
    ]
    for operation, address, response in attempts:
        try:
            if operation == "read":
                await tb.bus.read_dword(address)
            else:
                await tb.bus.write_dword(address, 0x12345678)
        except BusError as error:
            assert error.response == response, f"{operation} {address:#x}: {error.response}, expected {response}"
        else:
            raise AssertionError(f"{operation} at {address:#x} succeeded; expected {response}")
    assert await tb.bus.read_dword(0x000C) == 0x44505556, "a refused write changed MAGIC"


@cocotb.test(timeout_time=20, timeout_unit="us")
async def loopback_sustains_one_beat_per_cycle(dut):
    tb = TB(dut)
    await tb.reset()
    counters = await tb.loopback_counters()
    await perf.clear_counters(counters)
    tb.output.clear()
    beats_per_frame = 8
    frames = [Frame(bytes([index]) * (beats_per_frame * tb.bytes_per_beat)) for index in range(48)]
    await tb.pass_frames(frames)
    measured = await perf.read_counters(counters)
    total_beats = len(frames) * beats_per_frame
    assert measured["beats"] == total_beats == len(tb.output.beat_cycles)
    assert measured["bytes"] == total_beats * tb.bytes_per_beat
    assert measured["packets"] == len(frames)
    assert measured["stall_cycles"] == 0, "the sink never stalls in this test"
    context = f"DATA_WIDTH={8 * tb.bytes_per_beat}"
    perf.check("loopback", "utilisation", measured["beats"] / measured["active_cycles"],
               len(tb.output.beat_cycles) / tb.output.active_cycles, context=context)


@cocotb.test(timeout_time=10, timeout_unit="us")
async def loopback_latency_unloaded(dut):
    tb = TB(dut)
    await tb.reset()
    counters = await tb.loopback_counters()
    await perf.clear_counters(counters)
    tb.input.clear()
    tb.output.clear()
    rng = test_rng("latency")
    for _ in range(12):
        await tb.pass_frames([Frame(rng.randbytes(rng.randint(1, 4 * tb.bytes_per_beat)))])
    measured = await perf.read_counters(counters)
    # The counter starts one cycle after the last beat is accepted, when the frame is committed.
    latencies = [out - (last_in + 1) for out, last_in in zip(tb.output.first_beat_cycles, tb.input.last_beat_cycles)]
    assert measured["latency_count"] == len(latencies) == 12
    assert measured["latency_sum"] == sum(latencies)
    assert measured["latency_min"] == min(latencies)
    assert measured["latency_errors"] == 0
    perf.check("loopback", "latency_max", measured["latency_max"], max(latencies),
               context=f"DATA_WIDTH={8 * tb.bytes_per_beat}")


@cocotb.test(timeout_time=50, timeout_unit="us")
@cocotb.parametrize(idle=PAUSE_OPTIONS, backpressure=PAUSE_OPTIONS)
async def loopback_drops_bad_and_oversize_frames(dut, idle, backpressure):
    rng = test_rng("drops", idle, backpressure)
    tb = TB(dut, idle, backpressure, rng)
    await tb.reset()
    counters = await tb.loopback_counters()
    await perf.clear_counters(counters)
    frames = []
    for _ in range(40):
        roll = rng.random()
        beats = rng.randint(LOOPBACK_FIFO_DEPTH + 1, LOOPBACK_FIFO_DEPTH + 3) if roll < 0.08 else rng.randint(1, 6)
        frames.append(Frame(rng.randbytes(beats * tb.bytes_per_beat - rng.randrange(tb.bytes_per_beat)),
                            bad=0.08 <= roll < 0.25))
    expected = await tb.pass_frames(frames)
    await ClockCycles(dut.clk, 16)
    assert tb.sink.empty(), "a dropped frame came out of the loopback"
    measured = await perf.read_counters(counters)
    assert measured["events"] == len(frames) - len(expected), "every dropped frame must count one event"
    assert measured["packets"] == measured["latency_count"] == len(expected)
    assert measured["bytes"] == sum(len(payload) for payload in expected)
    assert measured["latency_errors"] == 0


@cocotb.test(timeout_time=1, timeout_unit="us")
async def reset_mid_traffic_recovers(dut):
    rng = test_rng("reset_mid_traffic")
    tb = TB(dut, idle=None, backpressure=0.8, rng=rng)
    await tb.reset()
    for _ in range(4):
        await tb.source.send(AxiStreamFrame(rng.randbytes(4 * tb.bytes_per_beat)))
    await ClockCycles(dut.clk, 12)
    await pulse_reset(dut.clk, dut.rst)
    assert dut.m_axis_tvalid.value == 0, "beats survived reset"
    tb.sink.clear()
    assert await tb.bus.read_dword(0x000C) == 0x44505556
    payload = rng.randbytes(2 * tb.bytes_per_beat)
    await tb.source.send(AxiStreamFrame(payload))
    assert (await tb.sink.recv()).tdata == payload
