# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""nvme_sq_arbiter: the ready I/O SQs take turns, from the one after the last pick (round robin),
and the picked SQ's count of entries to read (nvme_queue_table's, tested on its bench) is the
one passed on. Inputs are set in each clock's low phase and the combinational answer checked
before the next rising edge."""

import copy

import cocotb
from cocotb.triggers import FallingEdge, Timer

from dpuv.models.round_robin import RoundRobin
from dpuv.tb.testbench import build_parameters, pulse_reset, start_clock_and_reset, test_rng


class TB:
    def __init__(self, dut):
        self.dut = dut
        parameters = build_parameters()
        self.queues = parameters.get("QUEUES", 17)
        self.slots = len(dut.sq_ready)
        # The arbiter's turn wraps at the table's power-of-two size; queue 0 (admin) and the slots
        # past QUEUES-1 are never ready, as nvme_queue_table reports them
        self.turns = RoundRobin(self.slots)
        dut.sq_ready.value = 0
        dut.sq_fetch_count.value = 0
        dut.pick_taken.value = 0
        self.counts_rng = test_rng("counts")

    async def reset(self):
        await start_clock_and_reset(self.dut.clk, self.dut.rst)

    async def offer(self, ready: set[int], take: bool) -> int | None:
        """One cycle: `ready` SQs; the pick checked against the model, and taken when `take`.
        Inputs change at the falling edge (after the rising edge that sampled the last take) and
        the answer is read a nanosecond later, still in the low phase."""
        await FallingEdge(self.dut.clk)
        self.dut.pick_taken.value = 0
        self.dut.sq_ready.value = sum(1 << queue for queue in ready)
        # Each ready SQ's count as the table gives it (1 to 4), the others' 0
        counts = [self.counts_rng.randint(1, 4) if queue in ready else 0 for queue in range(self.slots)]
        self.dut.sq_fetch_count.value = sum(count << 3 * queue for queue, count in enumerate(counts))
        await Timer(1, "ns")
        expected = copy.copy(self.turns).grant(ready)
        found, pick = int(self.dut.found.value), int(self.dut.pick.value)
        assert found == (expected is not None), f"ready {sorted(ready)}: found={found}, expected pick {expected}"
        if expected is not None:
            assert pick == expected, f"ready {sorted(ready)}: picked {pick}, the turn is {expected}'s"
            assert int(self.dut.pick_count.value) == counts[pick], \
                f"picked SQ {pick}: count {int(self.dut.pick_count.value)}, its own is {counts[pick]} (all: {counts})"
            if take:
                self.turns.grant(ready)
                self.dut.pick_taken.value = 1
        return expected


def random_ready(rng, queues: int) -> set[int]:
    density = rng.choice((0.0, 0.05, 0.3, 0.8, 1.0))
    return {queue for queue in range(1, queues) if rng.random() < density}


@cocotb.test(timeout_time=100, timeout_unit="us")
async def ready_sqs_take_turns_from_the_one_after_the_last_pick(dut):
    """Random ready sets, picks taken or not: every answer is the round-robin model's; with every SQ
    ready the picks visit each SQ once per round, in queue order."""
    tb = TB(dut)
    await tb.reset()
    rng = test_rng("turns")
    for _ in range(3000):
        await tb.offer(random_ready(rng, tb.queues), take=rng.random() < 0.7)
    everyone = set(range(1, tb.queues))
    picks = [await tb.offer(everyone, take=True) for _ in range(2 * len(everyone))]
    first = picks.index(1)
    round_order = picks[first:first + len(everyone)]
    assert round_order == sorted(everyone), f"one round with every SQ ready: {round_order}"


@cocotb.test(timeout_time=1, timeout_unit="us")
async def reset_starts_the_turn_at_the_lowest_ready_sq(dut):
    tb = TB(dut)
    await tb.reset()
    everyone = set(range(1, tb.queues))
    for _ in range(tb.queues // 2 + 1):
        await tb.offer(everyone, take=True)
    await FallingEdge(dut.clk)  # (the last take is sampled first)
    dut.pick_taken.value = 0
    await pulse_reset(dut.clk, dut.rst)
    tb.turns = RoundRobin(tb.slots)
    assert await tb.offer(everyone, take=False) == 1
