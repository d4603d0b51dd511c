# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""allreduce_reducer: bit-exact against the numpy model for every dtype and op, edge values,
exhaustive fp8 pairs, flush mode, one beat per cycle, and malformed input answered, never hung on."""

import cocotb
import numpy as np
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSource

from dpuv.models.reduction import DTYPES, OPS, combine
from dpuv.tb.testbench import (CycleCounter, HandshakeMonitor, pauses, quiet, start_clock_and_reset,
                                stream_ends, test_rng)

from operands import edge_values, random_operands
import operand_coverage

FLOAT_TYPES = [name for name, dtype in DTYPES.items() if dtype.floating]


class EventCounter:
    """Sums an event output of the design over every cycle out of reset."""

    def __init__(self, dut, signal):
        self.total = 0
        self.dut, self.signal = dut, signal
        cocotb.start_soon(self._run())

    async def _run(self):
        while True:
            await RisingEdge(self.dut.clk)
            if self.dut.rst.value == 0:
                self.total += int(self.signal.value)


class TB:
    def __init__(self, dut, pause_probability=None, seed_labels=("none",)):
        self.dut = dut
        self.beat_bytes = len(dut.m_axis_tdata) // 8
        rng = test_rng(*seed_labels) if pause_probability else None
        self.local, self.sink = stream_ends(dut, rng, pause_probability, pause_probability,
                                            source="s_axis_local", sink="m_axis")
        self.incoming = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis_incoming"), dut.clk, dut.rst)
        quiet(self.incoming)
        if rng is not None:
            self.incoming.set_pause_generator(pauses(rng, pause_probability))
        self.cycles = CycleCounter(dut.clk)
        self.output = HandshakeMonitor(dut, "m_axis", self.cycles)
        self.events = {name: EventCounter(dut, getattr(dut, f"event_{name}"))
                       for name in ("starved", "nan_elements", "overflow_elements", "length_mismatch",
                                    "keep_error", "dropped_beat")}

    async def reset(self, dtype="fp32", op="sum", flush=False):
        self.configure(dtype, op, flush)
        await start_clock_and_reset(self.dut.clk, self.dut.rst)

    def configure(self, dtype, op, flush=False):
        self.dut.dtype.value = DTYPES[dtype].code if isinstance(dtype, str) else dtype
        self.dut.op.value = OPS[op] if isinstance(op, str) else op
        self.dut.flush_subnormals.value = int(flush)

    async def reduce(self, incoming: np.ndarray, local: np.ndarray, frame_beats: int = 16) -> np.ndarray:
        """Send both operands as frames of frame_beats beats; return the result's raw bytes."""
        frame_bytes = frame_beats * self.beat_bytes
        data_a, data_b = incoming.tobytes(), local.tobytes()
        frames = 0
        for offset in range(0, len(data_a), frame_bytes):
            await self.incoming.send(AxiStreamFrame(data_a[offset:offset + frame_bytes]))
            await self.local.send(AxiStreamFrame(data_b[offset:offset + frame_bytes]))
            frames += 1
        result = bytearray()
        for _ in range(frames):
            frame = await self.sink.recv()
            assert last_tuser(frame) == 0, "good input flagged bad"
            result += frame.tdata
        return np.frombuffer(bytes(result), dtype=incoming.dtype)


def last_tuser(frame) -> int:
    """tuser of a frame's last beat (cocotbext-axi compacts a uniform list to one value)."""
    return frame.tuser[-1] if isinstance(frame.tuser, list) else int(frame.tuser or 0)


def assert_bit_exact(got, expected, dtype_name, op, incoming, local):
    mismatches = np.flatnonzero(got != expected)
    if mismatches.size:
        index = mismatches[0]
        raise AssertionError(
            f"{dtype_name} {op}: {mismatches.size} of {expected.size} elements wrong; first at {index}: "
            f"{incoming[index]:#x} (op) {local[index]:#x} gave {got[index]:#x}, model {expected[index]:#x}")
    operand_coverage.sample(dtype_name, op, incoming, local)


@cocotb.test(timeout_time=10, timeout_unit="us")
@cocotb.parametrize(dtype=list(DTYPES), op=list(OPS))
async def matches_model(dut, dtype, op):
    tb = TB(dut, pause_probability=0.2, seed_labels=("matches_model", dtype, op))
    await tb.reset(dtype, op)
    rng = np.random.default_rng(cocotb.RANDOM_SEED)
    incoming, local = random_operands(rng, dtype, 40 * DTYPES[dtype].lanes(8 * tb.beat_bytes) + 3)
    if DTYPES[dtype].floating:
        edge_incoming, edge_local = edge_values(dtype)
        incoming, local = np.concatenate([edge_incoming, incoming]), np.concatenate([edge_local, local])
    got = await tb.reduce(incoming, local)
    expected = combine(incoming, local, dtype, op)
    assert_bit_exact(got, expected, dtype, op, incoming, local)
    if DTYPES[dtype].floating:
        await ClockCycles(dut.clk, 4)  # the element counts trail their beat by two cycles
        nan_results, overflows = flagged_elements(incoming, local, expected, dtype, op)
        assert (tb.events["nan_elements"].total, tb.events["overflow_elements"].total) == (nan_results, overflows), (
            f"{dtype} {op}: NaN and overflow counts {tb.events['nan_elements'].total} and "
            f"{tb.events['overflow_elements'].total}, the model's results have {nan_results} and {overflows}")


def flagged_elements(incoming, local, expected, dtype, op) -> tuple[int, int]:
    """NaN results, and finite operands whose sum is not finite (inf, or NaN where the format has
    no infinity), as the reducer's counters must see them."""
    a, b, result = (values.view(DTYPES[dtype].numpy_type).astype(np.float32) for values in (incoming, local, expected))
    overflows = np.isfinite(a) & np.isfinite(b) & ~np.isfinite(result) if op == "sum" else np.zeros(0)
    return int(np.sum(np.isnan(result))), int(np.sum(overflows))


@cocotb.test(timeout_time=200, timeout_unit="us")
@cocotb.parametrize(dtype=["fp8_e4m3", "fp8_e5m2"], op=list(OPS))
async def fp8_every_pair(dut, dtype, op):
    tb = TB(dut)
    await tb.reset(dtype, op)
    codes = np.arange(256, dtype=np.uint8)
    incoming, local = np.repeat(codes, 256), np.tile(codes, 256)
    got = await tb.reduce(incoming, local, frame_beats=64)
    assert_bit_exact(got, combine(incoming, local, dtype, op), dtype, op, incoming, local)


@cocotb.test(timeout_time=1, timeout_unit="us")
@cocotb.parametrize(dtype=FLOAT_TYPES, op=list(OPS))
async def flush_mode_matches_its_model_path(dut, dtype, op):
    tb = TB(dut)
    await tb.reset(dtype, op, flush=True)
    rng = np.random.default_rng(cocotb.RANDOM_SEED)
    info = DTYPES[dtype]
    count = 32 * info.lanes(8 * tb.beat_bytes)
    # Small exponents only: most operands and results are subnormal or just above.
    exponents = rng.integers(0, 3, size=(2, count)).astype(np.uint64) << info.mantissa_bits
    mantissas = rng.integers(0, 1 << info.mantissa_bits, size=(2, count), dtype=np.uint64)
    signs = rng.integers(0, 2, size=(2, count)).astype(np.uint64) << (info.bits - 1)
    incoming, local = (signs | exponents | mantissas).astype(info.unsigned)
    got = await tb.reduce(incoming, local)
    assert_bit_exact(got, combine(incoming, local, dtype, op, flush=True), dtype, op, incoming, local)
    assert not np.array_equal(got, combine(incoming, local, dtype, op)), "flush mode changed nothing"


@cocotb.test(timeout_time=10, timeout_unit="us")
@cocotb.parametrize(dtype=list(DTYPES))
async def one_beat_per_cycle(dut, dtype):
    tb = TB(dut)
    await tb.reset(dtype, "sum")
    beats = 256
    lanes = DTYPES[dtype].lanes(8 * tb.beat_bytes)
    operand = np.arange(beats * lanes).astype(DTYPES[dtype].numpy_type).view(DTYPES[dtype].unsigned)
    await tb.reduce(operand, operand, frame_beats=beats)
    assert len(tb.output.beat_cycles) == beats
    assert tb.output.active_cycles == beats, f"{dtype}: {beats} beats took {tb.output.active_cycles} cycles"
    assert tb.events["starved"].total == 0


@cocotb.test(timeout_time=1, timeout_unit="us")
async def mismatched_lengths_are_flagged_and_drained(dut):
    tb = TB(dut)
    await tb.reset("int32", "sum")
    beat = tb.beat_bytes
    await tb.incoming.send(AxiStreamFrame(bytes(5 * beat)))
    await tb.local.send(AxiStreamFrame(bytes(3 * beat)))
    short = await tb.sink.recv()
    assert len(short.tdata) == 3 * beat and last_tuser(short) == 1, "the result must end with the shorter operand, flagged"
    good = np.arange(2 * beat // 4, dtype=np.int32)
    got = await tb.reduce(good.view(np.uint32), good.view(np.uint32))
    assert np.array_equal(got.view(np.int32), 2 * good), "the unit did not recover after draining"
    assert tb.events["length_mismatch"].total == 1
    assert tb.events["dropped_beat"].total == 2


@cocotb.test(timeout_time=1, timeout_unit="us")
async def a_reset_in_the_middle_of_a_drain_leaves_nothing_to_drain(dut):
    """The longer operand's rest is being drained when reset comes (its source stalled, so the
    drain is still open): after the reset the unit takes the next operands whole, not as the rest
    of the frame it was draining."""
    tb = TB(dut)
    await tb.reset("int32", "sum")
    beat = tb.beat_bytes
    await tb.incoming.send(AxiStreamFrame(bytes(5 * beat)))
    await tb.local.send(AxiStreamFrame(bytes(3 * beat)))
    taken = 0
    while taken < 4:
        await RisingEdge(dut.clk)
        taken += int(dut.s_axis_incoming_tvalid.value) & int(dut.s_axis_incoming_tready.value)
    tb.incoming.pause = True
    await tb.sink.recv()
    await ClockCycles(dut.clk, 2)
    assert dut.draining_incoming.value == 1, "the drain should still be open: the test no longer reaches its case"
    dut.rst.value = 1
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    tb.incoming.pause = False
    good = np.arange(2 * beat // 4, dtype=np.int32)
    got = await tb.reduce(good.view(np.uint32), good.view(np.uint32))
    assert np.array_equal(got.view(np.int32), 2 * good), "the unit took the next operands as part of the drained frame"


@cocotb.test(timeout_time=1, timeout_unit="us")
async def a_reset_with_a_result_held_back_sends_nothing_stale(dut):
    """Reset while the output is held back with a result beat offered and the next one joined:
    after the reset neither comes out; the next reduction's frame is exactly its own beats."""
    tb = TB(dut)
    await tb.reset("int32", "sum")
    tb.sink.pause = True
    await tb.incoming.send(AxiStreamFrame(bytes(range(4 * tb.beat_bytes))))
    await tb.local.send(AxiStreamFrame(bytes(4 * tb.beat_bytes)))
    for _ in range(20):
        await RisingEdge(dut.clk)
        if dut.m_axis_tvalid.value == 1 and dut.joined_valid.value == 1:
            break
    else:
        raise AssertionError("no result beat offered with the next one joined behind it")
    dut.rst.value = 1
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    tb.sink.pause = False
    good = np.arange(2 * tb.beat_bytes // 4, dtype=np.int32) + 1
    got = await tb.reduce(good.view(np.uint32), good.view(np.uint32))
    assert np.array_equal(got.view(np.int32), 2 * good), f"after the reset the output held {got.view(np.int32)}"


@cocotb.test(timeout_time=1, timeout_unit="us")
async def keep_holes_are_flagged(dut):
    tb = TB(dut)
    await tb.reset("fp16", "sum")
    beat = tb.beat_bytes
    keep = [1] * (2 * beat)
    keep[3] = 0  # a hole inside the first beat
    frame = AxiStreamFrame(bytes(2 * beat), tkeep=keep)
    await tb.incoming.send(frame)
    await tb.local.send(AxiStreamFrame(bytes(2 * beat), tkeep=list(keep)))
    flagged = await tb.sink.recv()
    assert last_tuser(flagged) == 1, "a frame with a tkeep hole must be marked bad"
    assert tb.events["keep_error"].total == 1


@cocotb.test(timeout_time=1, timeout_unit="us")
@cocotb.parametrize(config=[(7, 0), (0, 3)])
async def unsupported_config_drops_input_and_says_so(dut, config):
    tb = TB(dut)
    await tb.reset(*config)
    await ClockCycles(dut.clk, 2)
    assert dut.config_error.value == 1
    await tb.incoming.send(AxiStreamFrame(bytes(3 * tb.beat_bytes)))
    await tb.local.send(AxiStreamFrame(bytes(3 * tb.beat_bytes)))
    await tb.incoming.wait()
    await tb.local.wait()
    await ClockCycles(dut.clk, 8)
    assert tb.sink.empty(), "an unsupported configuration produced output"
    assert tb.events["dropped_beat"].total == 3
    tb.configure("int8", "max")
    operand = np.arange(tb.beat_bytes, dtype=np.int8)
    got = await tb.reduce(operand.view(np.uint8), (-operand).view(np.uint8))
    assert np.array_equal(got.view(np.int8), np.maximum(operand, -operand))
