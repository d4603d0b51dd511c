# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Pieces every cocotb testbench in tb/ shares: clock and reset, seeded randomness, and the
idle/backpressure generators that cocotbext-axi sources and sinks take as pause generators."""

from __future__ import annotations

import itertools
import json
import logging
import os
import random
from typing import Iterator

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge

CLOCK_PERIOD_NS = 4  # 250 MHz, the clock the spec targets assume

# Crossed over every stream test: None means never pause; a number is the chance per cycle.
PAUSE_OPTIONS = (None, 0.3)


def build_parameters() -> dict[str, int]:
    """The HDL parameters the running design was built with (the runner passes them along)."""
    return json.loads(os.environ.get("DPUV_PARAMETERS", "{}"))


def test_rng(*labels: object) -> random.Random:
    """A random source fixed by the run's seed and the test's own labels."""
    return random.Random(f"{cocotb.RANDOM_SEED}:" + ":".join(str(label) for label in labels))


def pauses(rng: random.Random, probability: float | None) -> Iterator[bool] | None:
    """Pause generator: True on a cycle means stay idle (source) or deassert tready (sink)."""
    if probability is None:
        return None
    return (rng.random() < probability for _ in itertools.count())


async def start_clock_and_reset(clock, reset, cycles: int = 4, active_low: bool = False) -> None:
    cocotb.start_soon(Clock(clock, CLOCK_PERIOD_NS, unit="ns").start())
    reset.value = 0 if active_low else 1
    await ClockCycles(clock, cycles)
    await RisingEdge(clock)
    reset.value = 1 if active_low else 0
    await RisingEdge(clock)


async def pulse_reset(clock, reset, cycles: int = 2) -> None:
    """Reset in the middle of whatever is going on, then release it."""
    reset.value = 1
    await ClockCycles(clock, cycles)
    reset.value = 0
    await ClockCycles(clock, 1)


def stream_ends(dut, rng: random.Random | None = None, idle: float | None = None,
                backpressure: float | None = None, source: str = "s_axis", sink: str = "m_axis"):
    """cocotbext-axi source and sink on a design's input and output streams, with random idle
    cycles on the source and random backpressure on the sink when rng is given."""
    from cocotbext.axi import AxiStreamBus, AxiStreamSink, AxiStreamSource

    stream_source = AxiStreamSource(AxiStreamBus.from_prefix(dut, source), dut.clk, dut.rst)
    stream_sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, sink), dut.clk, dut.rst)
    quiet(stream_source, stream_sink)
    if rng is not None:
        stream_source.set_pause_generator(pauses(rng, idle))
        stream_sink.set_pause_generator(pauses(rng, backpressure))
    return stream_source, stream_sink


class CycleCounter:
    """Counts rising edges, so a testbench can stamp what it sees with a cycle number."""

    def __init__(self, clock):
        self.clock = clock
        self.now = 0
        cocotb.start_soon(self._run())

    async def _run(self) -> None:
        while True:
            await RisingEdge(self.clock)
            self.now += 1


def _shown(value) -> str:
    """A signal's value as a reader wants it in a message: hex, or its bits when some are X or Z."""
    return hex(int(value)) if value.is_resolvable else str(value)


class HeldOffers:
    """The valid/ready rule a consumer of any of our ports relies on: an offer not taken (valid
    high, ready low at a rising edge) is offered again at the next edge with every payload signal
    unchanged. Checked at every edge outside reset; the first breach fails the test, naming the
    port and the signals that changed. `waits` counts the edges an offer waited at, so a test can
    show that the rule was put to the proof."""

    def __init__(self, clock, reset, valid, ready, payload: dict, port: str):
        self.clock, self.reset, self.valid, self.ready = clock, reset, valid, ready
        self.payload = payload
        self.port = port
        self.waits = 0
        cocotb.start_soon(self._watch())

    async def _watch(self) -> None:
        waiting = None
        while True:
            await RisingEdge(self.clock)
            if not self.reset.value.is_resolvable or int(self.reset.value):
                waiting = None
                continue
            offered = self.valid.value.is_resolvable and int(self.valid.value) == 1
            waits = offered and int(self.ready.value) == 0
            # The payload is read only at the edges that have a rule to keep
            now = {name: handle.value for name, handle in self.payload.items()} if waits or waiting else None
            if waiting is not None:
                assert offered, f"{self.port}: an offer not taken was withdrawn (valid fell before ready)"
                changed = {name: (_shown(waiting[name]), _shown(now[name])) for name in now if now[name] != waiting[name]}
                assert not changed, f"{self.port}: an offer not taken changed while it waited: {changed}"
            waiting = now if waits else None
            self.waits += waits


class HandshakeMonitor:
    """Records the cycle of every beat (tvalid and tready high at a rising edge) on a stream."""

    def __init__(self, dut, prefix: str, cycle_counter: CycleCounter):
        self.valid = getattr(dut, f"{prefix}_tvalid")
        self.ready = getattr(dut, f"{prefix}_tready")
        self.last = getattr(dut, f"{prefix}_tlast")
        self.counter = cycle_counter
        self.beat_cycles: list[int] = []
        self.last_beat_cycles: list[int] = []
        self.first_beat_cycles: list[int] = []
        self._mid_frame = False
        cocotb.start_soon(self._run())

    def clear(self) -> None:
        self.beat_cycles.clear()
        self.last_beat_cycles.clear()
        self.first_beat_cycles.clear()

    async def _run(self) -> None:
        while True:
            await RisingEdge(self.counter.clock)
            if self.valid.value == 1 and self.ready.value == 1:
                now = self.counter.now
                self.beat_cycles.append(now)
                if not self._mid_frame:
                    self.first_beat_cycles.append(now)
                last = self.last.value == 1
                if last:
                    self.last_beat_cycles.append(now)
                self._mid_frame = not last

    @property
    def active_cycles(self) -> int:
        if not self.beat_cycles:
            return 0
        return self.beat_cycles[-1] - self.beat_cycles[0] + 1


def quiet(*bus_models) -> None:
    """cocotbext-axi logs every frame at INFO; keep test logs readable by showing warnings only."""
    for model in bus_models:
        model.log.setLevel(logging.WARNING)


async def handshake(clock, valid, ready) -> None:
    """Hold valid high until the design takes it (ready high at a rising edge), then lower it.
    ready is sampled mid-cycle, once it has settled for the coming edge."""
    valid.value = 1
    while True:
        await FallingEdge(clock)
        if ready.value == 1:
            await RisingEdge(clock)
            break
    valid.value = 0


class BurstMonitor:
    """Records every address-channel burst (`<prefix>addr`, `<prefix>len`) an AXI4 master issues and
    checks it: beat-aligned, within the burst limit, not crossing a 4 KiB boundary."""

    def __init__(self, dut, prefix: str, bytes_per_beat: int, max_burst_beats: int):
        self.dut, self.prefix = dut, prefix
        self.bytes_per_beat, self.max_burst_beats = bytes_per_beat, max_burst_beats
        self.bursts: list[tuple[int, int]] = []
        cocotb.start_soon(self._run())

    async def _run(self) -> None:
        valid, ready = getattr(self.dut, f"{self.prefix}valid"), getattr(self.dut, f"{self.prefix}ready")
        address, length = getattr(self.dut, f"{self.prefix}addr"), getattr(self.dut, f"{self.prefix}len")
        while True:
            await RisingEdge(self.dut.clk)
            if valid.value == 1 and ready.value == 1:
                self.bursts.append((int(address.value), int(length.value) + 1))

    def check(self) -> None:
        for address, beats in self.bursts:
            end = address + beats * self.bytes_per_beat - 1
            assert beats <= self.max_burst_beats, f"burst of {beats} beats at {address:#x}"
            assert address % self.bytes_per_beat == 0, f"unaligned burst address {address:#x}"
            assert address // 4096 == end // 4096, f"burst {address:#x}..{end:#x} crosses 4 KiB"


class AddressMonitor:
    """Records every address handshake (`<prefix>valid` and `<prefix>ready` high at a rising edge)
    on some AXI4 address channels, with the fields an interconnect must pass along unchanged. One
    coroutine watches every prefix given (`m_axi_ar`, `s00_axi_aw`, ...)."""

    FIELDS = ("id", "addr", "len", "size", "burst", "lock", "cache", "prot")

    def __init__(self, dut, prefixes: list[str]):
        self.clock = dut.clk
        self.channels = {prefix: (getattr(dut, f"{prefix}valid"), getattr(dut, f"{prefix}ready"),
                                  {field: getattr(dut, f"{prefix}{field}") for field in self.FIELDS})
                         for prefix in prefixes}
        self.addresses: dict[str, list[dict[str, int]]] = {prefix: [] for prefix in prefixes}
        cocotb.start_soon(self._run())

    def clear(self) -> None:
        for addresses in self.addresses.values():
            addresses.clear()

    async def _run(self) -> None:
        while True:
            await RisingEdge(self.clock)
            for prefix, (valid, ready, fields) in self.channels.items():
                if valid.value == 1 and ready.value == 1:
                    self.addresses[prefix].append({name: int(handle.value) for name, handle in fields.items()})


class LinkActivity:
    """First and last cycle any of a top's links (its packed tx_tvalid and tx_tready: ring ranks,
    cluster nodes) carried a beat: the testbench's own view of how long a collective took, to hold
    against the engines' cycle counters."""

    def __init__(self, dut):
        self.dut = dut
        self.cycle = 0
        self.first = self.last = None
        cocotb.start_soon(self._run())

    def clear(self):
        self.first = self.last = None

    async def _run(self):
        while True:
            await RisingEdge(self.dut.clk)
            self.cycle += 1
            if self.dut.rst.value != 0:
                continue
            if int(self.dut.tx_tvalid.value) & int(self.dut.tx_tready.value):
                self.first = self.cycle if self.first is None else self.first
                self.last = self.cycle
