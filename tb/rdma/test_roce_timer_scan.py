# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""roce_timer_scan: the requester's timer sweep finds only QPs with a timer armed, every armed QP
in turn within a bound set by the armed count (not the QP count), and nothing after a reset."""

import cocotb
from cocotb.triggers import FallingEdge, RisingEdge

from dpuv.tb.testbench import build_parameters, pulse_reset, start_clock_and_reset, test_rng


class TB:
    """Drives marks and takes between edges and keeps the set of armed QPs in step: `armed` as of
    the last edge, `armed_before` as of the edge before, which is what a find made at the last edge saw."""

    def __init__(self, dut):
        self.dut = dut
        self.qp_count = 1 << len(dut.mark_index)
        self.word_bits = min(build_parameters().get("WORD_BITS", 32), self.qp_count)
        self.armed: set[int] = set()
        self.armed_before: set[int] = set()
        self.was_found = False
        self.cycle = 0
        self.quiet()

    def quiet(self):
        self.dut.mark_valid.value = 0
        self.dut.mark_index.value = 0
        self.dut.mark_armed.value = 0
        self.dut.take.value = 0

    async def reset(self):
        await start_clock_and_reset(self.dut.clk, self.dut.rst)
        await FallingEdge(self.dut.clk)
        self.armed, self.armed_before, self.was_found = set(), set(), False

    async def step(self, mark=None, take=False) -> int | None:
        """One edge; mark is (index, armed) or None. Returns the QP newly found at this edge, if any,
        having checked that it was armed when it was found."""
        dut = self.dut
        self.quiet()
        if mark is not None:
            dut.mark_valid.value, dut.mark_index.value, dut.mark_armed.value = 1, mark[0], int(mark[1])
        dut.take.value = int(take)
        await RisingEdge(dut.clk)
        await FallingEdge(dut.clk)
        self.cycle += 1
        self.armed_before = set(self.armed)
        if mark is not None:
            (self.armed.add if mark[1] else self.armed.discard)(mark[0])
        found = bool(dut.found_valid.value)
        newly = found and not self.was_found
        self.was_found = found
        if not newly:
            return None
        index = int(dut.found_index.value)
        # The find registered at this edge looked at the bits as the edge before left them
        assert index in self.armed_before, (
            f"cycle {self.cycle}: found QP {index}, which had no timer armed (armed: {sorted(self.armed_before)[:16]})")
        return index

    def revisit_bound(self, armed_count: int) -> int:
        """Cycles within which a QP armed throughout is found again when every find is taken at
        once: a cycle to find and one to take for each armed QP, and one for each word passed over."""
        return 2 * armed_count + self.qp_count // self.word_bits + 4


@cocotb.test(timeout_time=40, timeout_unit="us")
async def only_armed_qps_are_found_each_within_its_turn(dut):
    rng = test_rng("armed_in_turn")
    tb = TB(dut)
    await tb.reset()
    nothing = [await tb.step() for _ in range(tb.qp_count // tb.word_bits + 4)]
    assert not any(index is not None for index in nothing), "a QP was found with no timer armed"
    # QPs armed and disarmed at random, some left armed throughout (the ends of the words among
    # them); every find taken at once, so each steady QP comes round within the bound, counted over
    # every QP armed at some moment since it was last found
    edges = {0, tb.word_bits - 1, tb.qp_count - 1, min(tb.word_bits, tb.qp_count - 1)}
    steady = edges | set(rng.sample(range(tb.qp_count), min(tb.qp_count, 3)))
    for index in steady:
        await tb.step(mark=(index, True))
    last_found = {index: tb.cycle for index in steady}
    armed_since = {index: set(tb.armed) for index in steady}
    for _ in range(3000):
        mark = None
        if rng.random() < 0.3:
            index = rng.randrange(tb.qp_count)
            if index not in steady:
                mark = (index, rng.random() < 0.5)
        found = await tb.step(mark=mark, take=bool(int(dut.found_valid.value)))
        if found in last_found:
            last_found[found] = tb.cycle
            armed_since[found] = set()
        for index, cycle in last_found.items():
            armed_since[index] |= tb.armed | tb.armed_before
            bound = tb.revisit_bound(len(armed_since[index]))
            assert tb.cycle - cycle <= bound, (
                f"cycle {tb.cycle}: QP {index}, armed throughout, not found for {tb.cycle - cycle} cycles"
                f" with {len(armed_since[index])} QPs armed meanwhile (bound {bound})")


@cocotb.test(timeout_time=15, timeout_unit="us")
async def a_find_held_untaken_stays_put_and_disarmed_qps_drop_out(dut):
    rng = test_rng("held_and_disarmed")
    tb = TB(dut)
    await tb.reset()
    chosen = sorted(rng.sample(range(tb.qp_count), min(tb.qp_count, 4)))
    for index in chosen:
        await tb.step(mark=(index, True))
    while not int(dut.found_valid.value):
        await tb.step()
    found = int(dut.found_index.value)
    for _ in range(20):
        await tb.step()
        assert int(dut.found_valid.value) and int(dut.found_index.value) == found, "an untaken find moved"
    # Takes at random moments over a while visit every chosen QP
    seen: set[int] = {found}
    take = True
    for _ in range(400):
        index = await tb.step(take=take)
        take = bool(int(dut.found_valid.value)) and rng.random() < 0.4
        if index is not None:
            seen.add(index)
    assert seen == set(chosen), f"found {sorted(seen)}, armed {chosen}"
    # Disarmed, they stop being found (one already registered may still come, once)
    for index in chosen:
        await tb.step(mark=(index, False), take=bool(int(dut.found_valid.value)))
    await tb.step(take=bool(int(dut.found_valid.value)))
    for _ in range(tb.qp_count // tb.word_bits + 8):
        assert await tb.step(take=bool(int(dut.found_valid.value))) is None, "a disarmed QP was found"


@cocotb.test(timeout_time=2, timeout_unit="us")
async def reset_mid_scan_forgets_every_armed_qp(dut):
    rng = test_rng("reset_mid_scan")
    tb = TB(dut)
    await tb.reset()
    for index in rng.sample(range(tb.qp_count), min(tb.qp_count, 8)):
        await tb.step(mark=(index, True))
    for _ in range(5):
        await tb.step(take=bool(int(dut.found_valid.value)))
    await pulse_reset(dut.clk, dut.rst)
    await FallingEdge(dut.clk)
    tb.armed, tb.armed_before, tb.was_found = set(), set(), False
    assert not int(dut.found_valid.value), "a find survived reset"
    for _ in range(tb.qp_count // tb.word_bits + 4):
        assert await tb.step(take=True) is None, "a QP armed before reset was found after it"
