# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""allreduce_ring: n ranks linked in a ring end with identical bits, equal to the numpy model that
follows the ring's order, for every dtype and op, sizes that are not multiples of n, edge values;
bad configurations are refused with a flag and a count, never a hang."""

import cocotb
import numpy as np
from cocotb.triggers import ClockCycles, RisingEdge

from dpuv.models.reduction import DTYPES, OPS, ring_allreduce
from dpuv.drivers import allreduce
from dpuv.tb.testbench import pulse_reset
from operands import edge_values, random_operands
from ring_bench import RingTB, assert_every_rank_matches


def rank_vectors(rng, dtype, ranks, elements):
    vectors = []
    for _ in range(ranks):
        first, _ = random_operands(rng, dtype, elements)
        vectors.append(first[:elements])
    return vectors


@cocotb.test(timeout_time=50, timeout_unit="us")
@cocotb.parametrize(dtype=list(DTYPES), op=list(OPS))
async def every_rank_ends_with_the_model_result(dut, dtype, op):
    tb = RingTB(dut)
    await tb.reset()
    rng = np.random.default_rng(cocotb.RANDOM_SEED)
    # Not a multiple of the ring size nor of the lanes per beat: uneven chunks, a partial last beat.
    elements = tb.lanes(dtype) * (3 * tb.ranks + 1) + tb.ranks + 1
    vectors = rank_vectors(rng, dtype, tb.ranks, elements)
    results, reports = await tb.allreduce(vectors, dtype, op)
    expected = ring_allreduce(vectors, dtype, op, beat_bits=8 * tb.beat_bytes)
    assert_every_rank_matches(results, expected, f"{dtype} {op} n={tb.ranks}")
    for report in reports:
        assert report.status["data_error"] == 0 and report.errors == 0, f"rank {report.rank}: {report}"


@cocotb.test(timeout_time=100, timeout_unit="us")
@cocotb.parametrize(dtype=[name for name, info in DTYPES.items() if info.floating])
async def edge_values_survive_the_ring(dut, dtype):
    tb = RingTB(dut)
    await tb.reset()
    incoming, local = edge_values(dtype)
    vectors = [incoming if rank % 2 == 0 else local for rank in range(tb.ranks)]
    for op in OPS:
        results, reports = await tb.allreduce(vectors, dtype, op)
        assert_every_rank_matches(results, ring_allreduce(vectors, dtype, op, 8 * tb.beat_bytes), f"{dtype} {op}")
        nan_count = int(np.sum(np.isnan(results[0].view(DTYPES[dtype].numpy_type).astype(np.float32))))
        assert nan_count > 0, "the edge vectors contain NaN; some result must be NaN"
        assert sum(report.counters["nan_elements"] for report in reports) >= nan_count


@cocotb.test(timeout_time=50, timeout_unit="us")
async def exact_vectors_agree_with_plain_integer_sums(dut):
    """Rank-distinct integer-valued fp32 vectors sum exactly in any order: an answer that owes
    nothing to the model's ordering."""
    tb = RingTB(dut)
    await tb.reset()
    elements = tb.lanes("fp32") * 5 * tb.ranks + 3
    integers = [np.arange(elements, dtype=np.int64) * (rank + 1) - 1000 * rank for rank in range(tb.ranks)]
    results, _ = await tb.allreduce([values.astype(np.float32) for values in integers], "fp32", "sum")
    expected = np.sum(integers, axis=0).astype(np.float32).view(np.uint32)
    assert_every_rank_matches(results, expected, "integer-valued fp32")


@cocotb.test(timeout_time=100, timeout_unit="us")
async def vectors_smaller_than_the_ring_leave_chunks_empty(dut):
    tb = RingTB(dut)
    await tb.reset()
    for elements in (1, tb.lanes("int32") + 1):
        vectors = [np.full(elements, rank + 1, dtype=np.int32).view(np.uint32) for rank in range(tb.ranks)]
        results, _ = await tb.allreduce(vectors, "int32", "sum")
        expected = np.full(elements, sum(range(1, tb.ranks + 1)), dtype=np.int32).view(np.uint32)
        assert_every_rank_matches(results, expected, f"{elements} elements")


@cocotb.test(timeout_time=50, timeout_unit="us")
async def flush_mode_follows_its_model_path(dut):
    tb = RingTB(dut)
    await tb.reset()
    rng = np.random.default_rng(cocotb.RANDOM_SEED)
    elements = tb.lanes("bf16") * 2 * tb.ranks + 5
    tiny = [(rng.standard_normal(elements) * 1e-38).astype(np.float32).astype(DTYPES["bf16"].numpy_type)
            .view(np.uint16) for _ in range(tb.ranks)]
    results, _ = await tb.allreduce(tiny, "bf16", "sum", flush=True)
    assert_every_rank_matches(results, ring_allreduce(tiny, "bf16", "sum", 8 * tb.beat_bytes, flush=True), "bf16 flush")


@cocotb.test(timeout_time=50, timeout_unit="us")
async def bad_configurations_are_refused_with_a_reason(dut):
    tb = RingTB(dut)
    await tb.reset()
    window = tb.windows[0]
    too_long = tb.buffer_beats * tb.lanes("fp32") + 1
    cases = [
        (dict(ranks=1), "ring_error"), (dict(ranks=17), "ring_error"), (dict(rank=tb.ranks), "ring_error"),
        (dict(dtype=7), "config_error"), (dict(op=3), "config_error"),
        (dict(elements=0), "length_error"), (dict(elements=too_long), "length_error"),
    ]
    for count, (change, flag) in enumerate(cases, start=1):
        settings = dict(rank=0, ranks=tb.ranks, elements=16, dtype="fp32", op="sum") | change
        await allreduce.configure(window, **settings)
        await allreduce.start(window)
        report = await allreduce.report(window, 0)
        assert report.status[flag] == 1, f"{change} was not refused with {flag}: {report.status}"
        assert report.status["busy"] == 0 and report.status["done"] == 1, f"{change} left the rank busy"
        assert report.errors == count
    # A refusal's flags and the error count stay until cleared; CTRL.clear_counters clears them all
    await allreduce.configure(window, rank=0, ranks=1, elements=0, dtype=7, op="sum")
    await allreduce.start(window)
    report = await allreduce.report(window, 0)
    refused = {name for name in ("config_error", "ring_error", "length_error") if report.status[name]}
    assert len(refused) == 3, f"one start refused for three reasons raised only {refused}"
    await allreduce.clear(window)
    report = await allreduce.report(window, 0)
    flags = {name: value for name, value in report.status.items() if name.endswith("_error")}
    assert set(flags.values()) == {0} and report.errors == 0, f"clear left {flags}, {report.errors} errors"
    vectors = [np.full(5, rank, dtype=np.int8).view(np.uint8) for rank in range(tb.ranks)]
    results, reports = await tb.allreduce(vectors, "int8", "max")
    assert_every_rank_matches(results, np.full(5, tb.ranks - 1, dtype=np.uint8), "after refusals")
    assert reports[0].status["ring_error"] == 0, "a good start must clear the old refusal flags"


@cocotb.test(timeout_time=100, timeout_unit="us")
async def reset_in_the_middle_of_a_collective_recovers(dut):
    tb = RingTB(dut)
    await tb.reset()
    elements = tb.lanes("fp32") * 4 * tb.ranks
    vectors = [np.ones(elements, dtype=np.float32).view(np.uint32) for _ in range(tb.ranks)]
    await tb.load(vectors)
    for index, window in enumerate(tb.windows):
        await allreduce.configure(window, index, tb.ranks, elements, "fp32", "sum")
    for window in tb.windows:
        await allreduce.start(window)
    # Reset only once every link has carried data (the ranks start a few cycles apart).
    every_link, carried = (1 << tb.ranks) - 1, 0
    for _ in range(10_000):
        await RisingEdge(dut.clk)
        carried |= int(dut.tx_tvalid.value) & int(dut.tx_tready.value)
        if carried == every_link:
            break
    else:
        raise AssertionError("the collective never put data on every link")
    assert any(int(dut.ranks[index].rank_inst.busy.value) for index in range(tb.ranks)), \
        "the collective finished before the reset: the test would reset nothing mid-flight"
    await pulse_reset(dut.clk, dut.rst)
    for index, window in enumerate(tb.windows):
        report = await allreduce.report(window, index)
        assert report.status["busy"] == 0, f"reset left rank {index} busy"
    results, _ = await tb.allreduce(vectors, "fp32", "sum")
    assert_every_rank_matches(results, np.full(elements, tb.ranks, dtype=np.float32).view(np.uint32), "after reset")


async def beats_taken(dut, rank: int, cycles: int) -> int:
    """Beats rank `rank` takes from its incoming link over the next `cycles` cycles."""
    taken = 0
    for _ in range(cycles):
        await RisingEdge(dut.clk)
        taken += (int(dut.rx_tvalid.value) & int(dut.rx_tready.value)) >> rank & 1
    return taken


@cocotb.test(timeout_time=40, timeout_unit="us")
async def a_rank_reset_alone_takes_nothing_more_from_its_link(dut):
    """A rank reset alone (its node rebooting) in the middle of an all-gather step, while the
    rank before it keeps sending: the reset rank ends idle and takes nothing more from its link,
    so its buffer stays as the reset left it, whatever the link still brings. After the whole
    ring is reset, the next collective is exact."""
    tb = RingTB(dut)
    await tb.reset()
    victim = tb.ranks - 1
    receiver = dut.ranks[victim].rank_inst.receiver_inst
    elements = tb.lanes("fp32") * 8 * tb.ranks
    vectors = [np.full(elements, index + 1, dtype=np.float32).view(np.uint32) for index in range(tb.ranks)]
    await tb.load(vectors)
    for index, window in enumerate(tb.windows):
        await allreduce.configure(window, index, tb.ranks, elements, "fp32", "sum")
    for window in tb.windows:
        await allreduce.start(window)
    # Reset the victim once it stores an all-gather chunk, with beats of it still to come
    for _ in range(20_000):
        await RisingEdge(dut.clk)
        if int(receiver.storing.value) and int(receiver.beats_accepted.value) >= 2:
            break
    else:
        raise AssertionError(f"rank {victim} never stored an all-gather chunk")
    dut.rank_rst.value = 1 << victim
    await ClockCycles(dut.clk, 2)
    dut.rank_rst.value = 0
    left = (await tb.unload(elements, "fp32", backdoor=True))[victim]
    taken = cocotb.start_soon(beats_taken(dut, victim, 2_000))
    report = await allreduce.report(tb.windows[victim], victim)
    assert report.status["busy"] == 0, f"the reset left rank {victim} busy"
    assert await taken == 0, f"rank {victim} took {taken.result()} beats from its link after its reset"
    now = (await tb.unload(elements, "fp32", backdoor=True))[victim]
    changed = np.flatnonzero(now != left)
    assert changed.size == 0, (f"rank {victim} wrote {changed.size} elements into its buffer after its reset "
                               f"(first at element {changed[0]})")
    await pulse_reset(dut.clk, dut.rst)
    results, _ = await tb.allreduce(vectors, "fp32", "sum")
    total = np.float32(sum(range(1, tb.ranks + 1)))
    assert_every_rank_matches(results, np.full(elements, total, dtype=np.float32).view(np.uint32), "after the ring's reset")
