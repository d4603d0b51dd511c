# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""nvme_sq_arbiter: the ready I/O SQs take turns, from the one after the last pick (round robin),
and one read takes as many of the picked SQ's entries as wait, up to the ring's end, the page's
end, its CQ's room and FETCH_BATCH. Inputs are set in each clock's low phase and the
combinational answer checked before the next rising edge."""

import copy

import cocotb
from cocotb.triggers import FallingEdge, Timer

from dpuv.models.nvme_queue import ENTRIES_PER_PAGE, fetch_count
from dpuv.models.round_robin import RoundRobin
from dpuv.tb.testbench import build_parameters, pulse_reset, start_clock_and_reset, test_rng


class TB:
    def __init__(self, dut):
        self.dut = dut
        parameters = build_parameters()
        self.queues = parameters.get("QUEUES", 17)
        self.batch = parameters.get("FETCH_BATCH", 4)
        self.slots = len(dut.sq_ready)
        # The arbiter's turn wraps at the table's power-of-two size; queue 0 (admin) and the slots
        # past QUEUES-1 are never ready, as nvme_queue_table reports them
        self.turns = RoundRobin(self.slots)
        dut.sq_ready.value = 0
        dut.pick_taken.value = 0
        self.set_queues(0, 0, 1, 0, 0, 1)

    async def reset(self):
        await start_clock_and_reset(self.dut.clk, self.dut.rst)

    def set_queues(self, sq_head, sq_tail, sq_entries, cq_head, cq_tail, cq_entries):
        """The picked SQ and its CQ as nvme_queue_table gives them (sizes as entries - 1)."""
        dut = self.dut
        dut.pick_sq_head.value, dut.pick_sq_tail.value, dut.pick_sq_size.value = sq_head, sq_tail, sq_entries - 1
        dut.pick_cq_head.value, dut.pick_cq_tail.value, dut.pick_cq_size.value = cq_head, cq_tail, cq_entries - 1

    async def offer(self, ready: set[int], take: bool) -> int | None:
        """One cycle: `ready` SQs; the pick checked against the model, and taken when `take`.
        Inputs change at the falling edge (after the rising edge that sampled the last take) and
        the answer is read a nanosecond later, still in the low phase."""
        await FallingEdge(self.dut.clk)
        self.dut.pick_taken.value = 0
        self.dut.sq_ready.value = sum(1 << queue for queue in ready)
        await Timer(1, "ns")
        expected = copy.copy(self.turns).grant(ready)
        found, pick = int(self.dut.found.value), int(self.dut.pick.value)
        assert found == (expected is not None), f"ready {sorted(ready)}: found={found}, expected pick {expected}"
        if expected is not None:
            assert pick == expected, f"ready {sorted(ready)}: picked {pick}, the turn is {expected}'s"
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


def edge_cases(batch: int):
    """(SQ head, tail, entries, CQ head, tail, entries) at each limit and just past it."""
    page = ENTRIES_PER_PAGE
    return [
        (0, 0, 2, 0, 0, 2),                      # nothing waits
        (0, 1, 2, 0, 0, 2),                      # the smallest queues
        (5, 5 + batch + 3, 64, 0, 0, 1024),      # more wait than one read takes
        (62, 3, 64, 0, 0, 1024),                 # the ring's end, two entries before it
        (63, 10, 64, 0, 0, 1024),                # the last entry of the ring
        (page - 2, page + 30, 1024, 0, 0, 1024), # the page's end, not the ring's
        (page - 1, page + 3, 65536, 0, 0, 4),    # the page's end in the largest queue
        (0, 30, 1024, 7, 5, 16),                 # the CQ has room for one
        (0, 30, 1024, 5, 5, 16),                 # an empty CQ of 16 holds 15
        (0, 30, 1024, 6, 5, 16),                 # the CQ is full
        (65534, 1, 65536, 0, 0, 65536),          # waiting entries wrap; the ring's end comes first
        (0, 45545, 65536, 2, 2, 16),             # the largest SQ from its first entry: 65 536 to the ring's end
    ]


@cocotb.test(timeout_time=100, timeout_unit="us")
async def a_read_takes_what_waits_up_to_every_limit(dut):
    tb = TB(dut)
    await tb.reset()
    rng = test_rng("counts")
    cases = edge_cases(tb.batch)
    for _ in range(3000):
        sq_entries = rng.choice((2, 3, 16, 64, 100, 1024, 65536))
        cq_entries = rng.choice((2, 3, 16, 64, 1024, 65536))
        sq_head = rng.choice((rng.randrange(sq_entries), sq_entries - 1, (sq_entries - 1) & ~63,
                              min(sq_entries - 1, rng.randrange(ENTRIES_PER_PAGE - 5, ENTRIES_PER_PAGE))))
        cases.append((sq_head, rng.randrange(sq_entries), sq_entries,
                      rng.randrange(cq_entries), rng.randrange(cq_entries), cq_entries))
    limits_met = set()
    for case in cases:
        await FallingEdge(dut.clk)
        tb.set_queues(*case)
        await Timer(1, "ns")
        expected = fetch_count(*case, tb.batch)
        got = int(dut.pick_count.value)
        assert got == expected, (f"SQ head {case[0]} tail {case[1]} of {case[2]}, CQ head {case[3]} tail {case[4]} "
                                 f"of {case[5]}: a read takes {got} entries, the rule says {expected}")
        limits_met.add(expected)
    assert limits_met >= set(range(tb.batch + 1)), f"counts seen {sorted(limits_met)}"
