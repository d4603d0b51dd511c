# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""axis_arb_mux: frames from every input arrive whole and in order, tagged with their source, in
round-robin turn, one beat per cycle."""

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiStreamBus, AxiStreamSink

from dpuv.models.round_robin import frame_order
from dpuv.tb.testbench import (PAUSE_OPTIONS, CycleCounter, HandshakeMonitor, pauses, quiet,
                                start_clock_and_reset, test_rng)


class PackedSources:
    """Drives S_COUNT frame sources on the mux's packed input buses, one beat per port per cycle."""

    def __init__(self, dut, ports: int, bytes_per_beat: int, idle_generators):
        self.dut = dut
        self.ports = ports
        self.bytes_per_beat = bytes_per_beat
        self.queues = [[] for _ in range(ports)]  # per port: list of (data, keep, last) beats
        self.offered = [None] * ports
        self.idle_generators = idle_generators
        cocotb.start_soon(self._run())

    def send(self, port: int, payload: bytes) -> None:
        width = self.bytes_per_beat
        chunks = [payload[offset:offset + width] for offset in range(0, len(payload), width)]
        for index, chunk in enumerate(chunks):
            data = int.from_bytes(chunk.ljust(width, b"\0"), "little")
            self.queues[port].append((data, (1 << len(chunk)) - 1, index == len(chunks) - 1))

    def idle(self) -> bool:
        return not any(self.queues) and not any(self.offered)

    def _drive(self) -> None:
        data = keep = valid = last = 0
        for port, beat in enumerate(self.offered):
            if beat is not None:
                data |= beat[0] << (port * self.bytes_per_beat * 8)
                keep |= beat[1] << (port * self.bytes_per_beat)
                valid |= 1 << port
                last |= int(beat[2]) << port
        self.dut.s_axis_tdata.value = data
        self.dut.s_axis_tkeep.value = keep
        self.dut.s_axis_tvalid.value = valid
        self.dut.s_axis_tlast.value = last
        self.dut.s_axis_tuser.value = 0

    async def _run(self) -> None:
        self._drive()
        while True:
            await RisingEdge(self.dut.clk)
            ready = int(self.dut.s_axis_tready.value) if self.dut.rst.value == 0 else 0
            for port in range(self.ports):
                if self.offered[port] is not None and ready >> port & 1:
                    self.offered[port] = None
                generator = self.idle_generators[port]
                pausing = generator is not None and next(generator)
                if self.offered[port] is None and self.queues[port] and not pausing:
                    self.offered[port] = self.queues[port].pop(0)
            self._drive()


class TB:
    def __init__(self, dut, idle=None, backpressure=None, rng=None):
        self.dut = dut
        self.ports = int(dut.S_COUNT.value)
        self.bytes_per_beat = len(dut.m_axis_tdata) // 8
        idle_generators = [pauses(rng, idle) if rng else None for _ in range(self.ports)]
        self.sources = PackedSources(dut, self.ports, self.bytes_per_beat, idle_generators)
        self.sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), dut.clk, dut.rst)
        quiet(self.sink)
        if rng is not None:
            self.sink.set_pause_generator(pauses(rng, backpressure))
        self.cycles = CycleCounter(dut.clk)
        self.output = HandshakeMonitor(dut, "m_axis", self.cycles)

    async def reset(self):
        await start_clock_and_reset(self.dut.clk, self.dut.rst)

    async def receive(self, count: int) -> list[tuple[int, bytes]]:
        received = []
        for _ in range(count):
            frame = await self.sink.recv()
            sources = set(frame.tid) if isinstance(frame.tid, list) else {frame.tid}
            assert len(sources) == 1, f"one output frame mixes beats of inputs {sorted(sources)}"
            received.append((sources.pop(), bytes(frame.tdata)))
        return received


@cocotb.test(timeout_time=20, timeout_unit="us")
@cocotb.parametrize(idle=PAUSE_OPTIONS, backpressure=PAUSE_OPTIONS)
async def frames_arrive_whole_and_in_order(dut, idle, backpressure):
    rng = test_rng("whole_and_in_order", idle, backpressure)
    tb = TB(dut, idle, backpressure, rng)
    await tb.reset()
    sent = [[] for _ in range(tb.ports)]
    for _ in range(30 * tb.ports):
        port = rng.randrange(tb.ports)
        payload = rng.randbytes(rng.randint(1, 4 * tb.bytes_per_beat))
        sent[port].append(payload)
        tb.sources.send(port, payload)
    received = await tb.receive(sum(len(frames) for frames in sent))
    for port in range(tb.ports):
        arrived = [payload for source, payload in received if source == port]
        assert arrived == sent[port], f"input {port}: frames lost, altered or reordered"
    await ClockCycles(dut.clk, 8)
    assert tb.sink.empty()


@cocotb.test(timeout_time=5, timeout_unit="us")
@cocotb.parametrize(backpressure=PAUSE_OPTIONS)
async def saturated_inputs_take_round_robin_turns(dut, backpressure):
    rng = test_rng("round_robin", backpressure)
    tb = TB(dut, None, backpressure, rng)
    counts = [rng.randint(3, 12) for _ in range(tb.ports)]
    for port, count in enumerate(counts):
        for _ in range(count):
            tb.sources.send(port, rng.randbytes(rng.randint(1, 3 * tb.bytes_per_beat)))
    await tb.reset()
    received = await tb.receive(sum(counts))
    order = [source for source, _ in received]
    assert order == frame_order(counts), f"arbitration order {order} is not round-robin"


@cocotb.test(timeout_time=2, timeout_unit="us")
async def one_beat_per_cycle_across_inputs(dut):
    tb = TB(dut)
    frames_per_port = 16
    for index in range(frames_per_port):
        for port in range(tb.ports):
            tb.sources.send(port, bytes([port, index]) * (tb.bytes_per_beat // 2))
    await tb.reset()
    await tb.receive(frames_per_port * tb.ports)
    beats = frames_per_port * tb.ports
    assert tb.output.active_cycles == beats, f"{beats} single-beat frames took {tb.output.active_cycles} cycles"
