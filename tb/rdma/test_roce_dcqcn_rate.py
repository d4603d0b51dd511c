# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""roce_dcqcn_rate against dpuv.models.dcqcn.ReactionPoint, cycle by cycle: the model takes the
same CNPs and byte counts at the same instants (each rising edge), and after every edge RC, RT,
alpha and the stage must equal the model's. Random event streams under the default and random
parameters, one CNP recovered from, additive and hyper increase, the rate driven to its minimum,
alpha decaying to zero, reset mid-way and the parameters at their edges."""

from __future__ import annotations

import dataclasses
from enum import Enum

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge

from dpuv.models.dcqcn import DcqcnParameters, RateStage, ReactionPoint
from dpuv.tb.testbench import build_parameters, test_rng

# The stage output's codes number the model's stages in their declaration order (roce_dcqcn_stages.vh)
STAGES = list(RateStage)
# The HDL's own parameter defaults, for a build that does not name them
BUILD_DEFAULTS = {"CLOCK_PERIOD_PS": 4000, "RATE_WIDTH": 20, "ALPHA_FRACTION_BITS": 10, "BYTE_COUNT_WIDTH": 7}
PERIOD_PORT_MAX_NS = 2**32 - 1


class TB:
    """Owns the clock, reset and the parameter ports, and keeps a ReactionPoint in step with the RTL."""

    def __init__(self, dut):
        self.dut = dut
        build = {**BUILD_DEFAULTS, **build_parameters()}
        self.clock_period_ps = build["CLOCK_PERIOD_PS"]
        self.alpha_fraction_bits = build["ALPHA_FRACTION_BITS"]
        self.max_bytes_per_cycle = (1 << build["BYTE_COUNT_WIDTH"]) - 1
        self.max_rate_mbps = (1 << build["RATE_WIDTH"]) - 1
        # The shortest period the ports allow: whole ns, at least one clock period
        self.shortest_period_ns = -(-self.clock_period_ps // 1000)
        self.model: ReactionPoint | None = None
        self.cycles = 0
        self.stages_seen: list[RateStage] = []
        # (high for half of it, rounded down: any whole ps period is a clock)
        cocotb.start_soon(Clock(dut.clk, self.clock_period_ps, period_high=self.clock_period_ps // 2, unit="ps").start())

    def parameters(self, **overrides) -> DcqcnParameters:
        """The model's defaults with alpha in this build's units (g = 1/256 where the build has the
        bits for it), and the overrides."""
        bits = self.alpha_fraction_bits
        alpha_units = dict(alpha_fraction_bits=bits, initial_alpha=1 << bits, alpha_gain=max(1, (1 << bits) // 256))
        return DcqcnParameters(**{**alpha_units, **overrides})

    async def reset(self, parameters: DcqcnParameters) -> None:
        """Reset the RTL with these parameters on its ports, and start a new model at the release."""
        dut = self.dut
        for name in ("line_rate_mbps", "min_rate_mbps", "initial_alpha", "alpha_gain", "alpha_update_period_ns",
                     "rate_increase_period_ns", "byte_counter_bytes", "fast_recovery_stages",
                     "additive_increase_mbps", "hyper_increase_mbps"):
            getattr(dut, name).value = getattr(parameters, name)
        dut.cnp.value, dut.bytes_sent.value = 0, 0
        dut.rst.value = 1
        await ClockCycles(dut.clk, 3)
        await FallingEdge(dut.clk)
        dut.rst.value = 0
        # The RTL counts ps, CLOCK_PERIOD_PS a cycle: the model counts the same (every time x 1000),
        # so a clock of no whole ns is compared exactly too
        self.model = ReactionPoint(dataclasses.replace(
            parameters, alpha_update_period_ns=parameters.alpha_update_period_ns * 1000,
            rate_increase_period_ns=parameters.rate_increase_period_ns * 1000))
        self.cycles = 0
        self.stages_seen = [RateStage.UNTHROTTLED]
        self.check()

    async def cycle(self, cnp: bool = False, bytes_sent: int = 0) -> None:
        """One rising edge with these inputs; the model takes them at the same instant, in the
        RTL's order (timers, then the bytes, then the CNP), and the outputs are compared after it."""
        dut = self.dut
        dut.cnp.value, dut.bytes_sent.value = int(cnp), bytes_sent
        await FallingEdge(dut.clk)
        self.cycles += 1
        now_ps = self.cycles * self.clock_period_ps
        self.model.on_bytes_sent(bytes_sent, now_ps)
        if cnp:
            self.model.on_cnp(now_ps)
        self.check(f" after a CNP and {bytes_sent} bytes" if cnp else f" after {bytes_sent} bytes")
        if self.model.stage is not self.stages_seen[-1]:
            self.stages_seen.append(self.model.stage)

    async def idle(self, cycles: int) -> None:
        for _ in range(cycles):
            await self.cycle()

    async def random_events(self, rng, cycles: int, cnp_chance: float = 0.0, sending_chance: float = 0.5,
                            cnp_cycles: frozenset[int] = frozenset()) -> None:
        """CNPs at random cycles (each with cnp_chance, and always at the cycles numbered in
        cnp_cycles); each cycle sends a random byte count (0 to the most a cycle takes, never past
        the byte counter) with sending_chance."""
        most_bytes = min(self.max_bytes_per_cycle, self.model.parameters.byte_counter_bytes)
        for index in range(cycles):
            sent = rng.randint(0, most_bytes) if rng.random() < sending_chance else 0
            cnp = index in cnp_cycles or rng.random() < cnp_chance
            await self.cycle(cnp=cnp, bytes_sent=sent)

    def check(self, what: str = "") -> None:
        dut, model = self.dut, self.model
        expected = (model.current_rate_mbps, model.target_rate_mbps, model.alpha, model.stage)
        got = (int(dut.current_rate_mbps.value), int(dut.target_rate_mbps.value), int(dut.alpha.value),
               STAGES[int(dut.stage.value)])
        assert got == expected, (f"cycle {self.cycles}{what}: (RC, RT, alpha, stage) = {got[:3]} {got[3].name}, "
                                 f"the model has {expected[:3]} {expected[3].name} (time stage {model.time_stage}, "
                                 f"byte stage {model.byte_stage})")

    def random_parameters(self, rng) -> DcqcnParameters:
        """Any parameters the ports allow, with periods of a few to a few hundred clock periods so
        that every timer fires often in a short run."""
        one = 1 << self.alpha_fraction_bits
        line = rng.randint(1, self.max_rate_mbps)
        return self.parameters(
            line_rate_mbps=line, min_rate_mbps=rng.randint(1, line), initial_alpha=rng.randint(0, one),
            alpha_gain=rng.randint(1, one),
            alpha_update_period_ns=rng.randint(self.shortest_period_ns, 200 * self.shortest_period_ns),
            rate_increase_period_ns=rng.randint(self.shortest_period_ns, 200 * self.shortest_period_ns),
            byte_counter_bytes=rng.randint(self.max_bytes_per_cycle, 64 * self.max_bytes_per_cycle),
            fast_recovery_stages=rng.randint(0, 8), additive_increase_mbps=rng.randint(0, line // 8 + 1),
            hyper_increase_mbps=rng.randint(0, line // 2 + 1))


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def random_cnps_and_traffic_match_the_model_at_the_default_parameters(dut):
    rng = test_rng("random_default")
    tb = TB(dut)
    await tb.reset(tb.parameters())
    # Eight CNPs at random cycles over 200 us (one per 25 us on average): cuts, fast recovery and
    # alpha updates (K = T = 55 us). A fixed count, not a per-cycle chance, so that no seed draws
    # too few CNPs to reach every stage.
    cycles = 200_000_000 // tb.clock_period_ps
    await tb.random_events(rng, cycles, cnp_cycles=frozenset(rng.sample(range(cycles), 8)))
    assert tb.model.cnps_received == 8


@cocotb.test(timeout_time=500, timeout_unit="us")
async def random_cnps_and_traffic_match_the_model_at_random_parameters(dut):
    rng = test_rng("random_parameters")
    tb = TB(dut)
    for _ in range(12):
        await tb.reset(tb.random_parameters(rng))
        await tb.random_events(rng, 2000, cnp_chance=rng.choice((0.002, 0.01, 0.05)),
                               sending_chance=rng.choice((0.0, 0.5, 1.0)))


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def one_cnp_is_recovered_from_back_to_the_line_rate(dut):
    tb = TB(dut)
    await tb.reset(tb.parameters())
    await tb.idle(10)
    await tb.cycle(cnp=True)
    assert tb.model.current_rate_mbps == tb.model.parameters.line_rate_mbps // 2 + tb.model.parameters.line_rate_mbps % 2
    # RT stays at the line rate: F fast-recovery steps, then additive steps that cannot raise RT,
    # every 55 us until RC reaches it (17 steps from 50 Gb/s)
    while tb.model.stage is not RateStage.UNTHROTTLED:
        await tb.cycle()
    assert tb.stages_seen == [RateStage.UNTHROTTLED, RateStage.FAST_RECOVERY, RateStage.ADDITIVE_INCREASE,
                              RateStage.UNTHROTTLED]
    # Stopped: nothing changes but alpha's decay
    await tb.idle(100)


@cocotb.test(timeout_time=100, timeout_unit="us")
@cocotb.parametrize(leading=("bytes", "time"))
async def additive_and_hyper_increase_follow_the_model_curve(dut, leading):
    tb = TB(dut)
    # Either count may pass F first: sending every cycle, a byte stage every 16 cycles against a
    # time stage every microsecond; sending every fourth cycle, one every 64 against one every 100 ns
    sending_every = 1 if leading == "bytes" else 4
    await tb.reset(tb.parameters(rate_increase_period_ns=1000 if leading == "bytes" else 100,
                                 byte_counter_bytes=16 * tb.max_bytes_per_cycle,
                                 additive_increase_mbps=50, hyper_increase_mbps=500))
    await tb.cycle(cnp=True)
    await tb.cycle(cnp=True)
    assert tb.model.target_rate_mbps < tb.model.parameters.line_rate_mbps, "RT below the line rate, to rise"
    # RT rises by R_AI once the leading count is past F, by R_HAI once the other is too
    while tb.model.stage is not RateStage.UNTHROTTLED:
        await tb.cycle(bytes_sent=tb.max_bytes_per_cycle if tb.cycles % sending_every == 0 else 0)
        if tb.model.stage is RateStage.ADDITIVE_INCREASE:
            leading_count = tb.model.byte_stage if leading == "bytes" else tb.model.time_stage
            assert leading_count > tb.model.parameters.fast_recovery_stages, "the other count led"
    assert tb.stages_seen == [RateStage.UNTHROTTLED, RateStage.FAST_RECOVERY, RateStage.ADDITIVE_INCREASE,
                              RateStage.HYPER_INCREASE, RateStage.UNTHROTTLED]
    assert tb.model.current_rate_mbps == tb.model.parameters.line_rate_mbps
    # Bytes sent at the line rate start no stage
    for _ in range(40):
        await tb.cycle(bytes_sent=tb.max_bytes_per_cycle)


@cocotb.test(timeout_time=10, timeout_unit="us")
async def repeated_cnps_drive_the_rate_to_its_minimum_and_hold_it_there(dut):
    tb = TB(dut)
    await tb.reset(tb.parameters(min_rate_mbps=7))
    for _ in range(40):
        await tb.cycle(cnp=True)
        await tb.idle(9)
    assert tb.model.current_rate_mbps == 7 and tb.model.target_rate_mbps == 7


@cocotb.test(timeout_time=5, timeout_unit="us")
async def alpha_decays_to_zero_and_its_timer_stops(dut):
    tb = TB(dut)
    one = 1 << tb.alpha_fraction_bits
    await tb.reset(tb.parameters(alpha_gain=one // 4 or 1, alpha_update_period_ns=2 * tb.shortest_period_ns,
                                 rate_increase_period_ns=PERIOD_PORT_MAX_NS))
    await tb.cycle(cnp=True)
    increase_due_ps = tb.cycles * tb.clock_period_ps + PERIOD_PORT_MAX_NS * 1000
    while tb.model.alpha:
        await tb.cycle()
    assert tb.model.next_event_ns() == increase_due_ps, "the alpha timer stopped: only the increase timer runs"
    await tb.idle(50)
    await tb.cycle(cnp=True)
    assert tb.model.alpha == tb.model.parameters.alpha_gain, "a CNP at alpha 0 sets it to g and restarts its timer"
    await tb.idle(50)


@cocotb.test(timeout_time=200, timeout_unit="us")
async def reset_mid_recovery_starts_over(dut):
    rng = test_rng("reset_mid_recovery")
    tb = TB(dut)
    parameters = tb.parameters(rate_increase_period_ns=200, alpha_update_period_ns=300,
                               byte_counter_bytes=8 * tb.max_bytes_per_cycle)
    await tb.reset(parameters)
    await tb.random_events(rng, 3000, cnp_chance=0.003)
    await tb.cycle(cnp=True)
    # Up to 50 cycles of recovery. A small cut (alpha near zero) can be back at the line rate within
    # them, which is no longer mid-recovery: then a second CNP throttles again before the reset
    for _ in range(50):
        await tb.random_events(rng, 1, cnp_chance=0)
        if tb.model.stage is RateStage.UNTHROTTLED:
            await tb.cycle(cnp=True)
            break
    assert tb.model.stage is not RateStage.UNTHROTTLED, "reset while throttled"
    # Mid-cycle, with a CNP and bytes on the inputs: reset wins
    dut.cnp.value, dut.bytes_sent.value = 1, tb.max_bytes_per_cycle
    await tb.reset(tb.random_parameters(rng))
    await tb.random_events(rng, 3000, cnp_chance=0.003)


def edge_parameters(tb: TB, edge: str) -> DcqcnParameters:
    one = 1 << tb.alpha_fraction_bits
    short = tb.shortest_period_ns
    fast = dict(rate_increase_period_ns=10 * short, alpha_update_period_ns=10 * short,
                byte_counter_bytes=4 * tb.max_bytes_per_cycle)
    return {
        # A timer due at every edge (at 3.2 ns, at four edges in five)
        "periods_of_one_clock": tb.parameters(rate_increase_period_ns=short, alpha_update_period_ns=short),
        # The longest periods the ports take: the timers never fire, and their ps count never wraps
        "longest_periods": tb.parameters(rate_increase_period_ns=PERIOD_PORT_MAX_NS,
                                         alpha_update_period_ns=PERIOD_PORT_MAX_NS),
        # A byte stage on every cycle that sends the most
        "byte_stage_every_cycle": tb.parameters(**{**fast, "byte_counter_bytes": tb.max_bytes_per_cycle}),
        "no_fast_recovery": tb.parameters(**fast, fast_recovery_stages=0),
        "longest_fast_recovery": tb.parameters(**fast, fast_recovery_stages=255),
        "g_of_one": tb.parameters(**fast, alpha_gain=one),
        "smallest_g": tb.parameters(**fast, alpha_gain=1),
        "alpha_starting_at_zero": tb.parameters(**fast, initial_alpha=0),
        "min_rate_at_the_line_rate": tb.parameters(**fast, min_rate_mbps=100_000),
        "widest_rates_and_increases": tb.parameters(**fast, line_rate_mbps=tb.max_rate_mbps,
                                                    additive_increase_mbps=tb.max_rate_mbps,
                                                    hyper_increase_mbps=tb.max_rate_mbps),
        "line_rate_of_one": tb.parameters(**fast, line_rate_mbps=1, min_rate_mbps=1),
        "no_increase_steps": tb.parameters(**fast, additive_increase_mbps=0, hyper_increase_mbps=0),
    }[edge]


# An Enum so that each parametrized test is named after its edge
Edge = Enum("Edge", ["periods_of_one_clock", "longest_periods", "byte_stage_every_cycle", "no_fast_recovery",
                     "longest_fast_recovery", "g_of_one", "smallest_g", "alpha_starting_at_zero",
                     "min_rate_at_the_line_rate", "widest_rates_and_increases", "line_rate_of_one",
                     "no_increase_steps"])


@cocotb.test(timeout_time=50, timeout_unit="us")
@cocotb.parametrize(edge=list(Edge))
async def parameters_at_their_edges_match_the_model(dut, edge):
    rng = test_rng("edges", edge.name)
    tb = TB(dut)
    await tb.reset(edge_parameters(tb, edge.name))
    await tb.random_events(rng, 1500, cnp_chance=0.01, sending_chance=0.8)
    await tb.random_events(rng, 500, cnp_chance=0, sending_chance=1.0)
