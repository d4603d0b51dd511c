# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""nvme_queue_table: I/O queues created and deleted as nvme_admin_command does it, moved by
doorbells and by the engine's SQ head advances and CQ slot takes, against
dpuv.models.nvme_queue.QueueTable; each SQ's readiness and the entries one read of it takes
against the model's rule (at every limit: the ring's end, the page's end, the CQ's room and the
batch). Inputs are set in each clock's low phase and every output is checked against the model
before the next rising edge, which then applies them."""

import cocotb
from cocotb.triggers import FallingEdge, Timer

from dpuv.models.nvme_queue import ENTRIES_PER_PAGE, QueueTable, room, waiting
from dpuv.tb.testbench import build_parameters, start_clock_and_reset, test_rng

# Queue sizes a test picks from: small ones wrap often, 65536 is the largest the size field holds
ENTRY_CHOICES = (2, 2, 3, 3, 5, 8, 17, 64, 1024, 65536)
DOORBELL_QUEUE_LIMIT = 128  # doorbell_queue is 7 bits: the host can ring any of 128 doorbell pairs


class Cycle:
    """What the admin command, the host and the engine do in one cycle (None: nothing)."""

    def __init__(self):
        self.admin = None         # ("create_cq", queue, base, entries, vector, interrupts), ("create_sq", queue,
                                  # base, entries, cq), ("delete_sq", queue) or ("delete_cq", queue)
        self.doorbell = None      # (queue, is_cq_head, value)
        self.advance_sq = None
        self.take_cq = None
        self.admin_queue_index = 0
        self.admin_sq_cq_index = 0
        self.pick_queue = 0
        self.current_queue = 0


class TB:
    def __init__(self, dut):
        self.dut = dut
        parameters = build_parameters()
        self.queues = parameters.get("QUEUES", 17)
        self.batch = parameters.get("FETCH_BATCH", 4)
        self.slots = len(dut.sq_ready)
        self.model = QueueTable(self.queues)
        self.drive(Cycle())
        dut.rst.value = 1

    async def reset(self):
        await start_clock_and_reset(self.dut.clk, self.dut.rst)
        self.model.reset()

    def drive(self, cycle: Cycle):
        dut = self.dut
        kind = cycle.admin[0] if cycle.admin else None
        for name in ("create_cq", "create_sq", "delete_cq", "delete_sq"):
            getattr(dut, name).value = int(kind == name)
        dut.admin_queue_index.value = cycle.admin[1] if cycle.admin else cycle.admin_queue_index
        dut.admin_sq_cq_index.value = cycle.admin[4] if kind == "create_sq" else cycle.admin_sq_cq_index
        base, entries, vector_or_cq, interrupts = 0, 1, 0, False
        if kind == "create_cq":
            _, _, base, entries, vector_or_cq, interrupts = cycle.admin
        elif kind == "create_sq":
            _, _, base, entries, vector_or_cq = cycle.admin
        dut.queue_base.value = base
        dut.queue_size.value = entries - 1
        dut.queue_vector_or_cq.value = vector_or_cq
        dut.queue_interrupts.value = int(interrupts)
        queue, is_cq_head, value = cycle.doorbell or (0, False, 0)
        dut.doorbell_valid.value = int(cycle.doorbell is not None)
        dut.doorbell_queue.value = queue
        dut.doorbell_is_cq_head.value = int(is_cq_head)
        dut.doorbell_value.value = value
        dut.sq_head_advance.value = int(cycle.advance_sq is not None)
        dut.sq_head_advance_queue.value = cycle.advance_sq or 0
        dut.cq_slot_take.value = int(cycle.take_cq is not None)
        dut.cq_slot_take_cq.value = cycle.take_cq or 0
        dut.pick_queue.value = cycle.pick_queue
        dut.current_queue.value = cycle.current_queue

    async def run(self, cycle: Cycle):
        """One cycle: inputs set at the falling edge, every output checked a nanosecond later, and
        the model moved as the coming rising edge moves the table."""
        await FallingEdge(self.dut.clk)
        self.drive(cycle)
        await Timer(1, "ns")
        self.check(cycle)
        self.apply(cycle)

    def check(self, cycle: Cycle):
        dut, model = self.dut, self.model
        index = int(dut.admin_queue_index.value)
        assert int(dut.admin_queue_cq_valid.value) == (index in model.completion), f"CQ {index} valid"
        assert int(dut.admin_queue_sq_valid.value) == (index in model.submission), f"SQ {index} valid"
        assert int(dut.admin_queue_cq_has_sq.value) == model.cq_has_sq(index), f"CQ {index}: an SQ posts to it"
        sq_cq_index = int(dut.admin_sq_cq_index.value)
        assert int(dut.admin_sq_cq_valid.value) == (sq_cq_index in model.completion), f"SQ's CQ {sq_cq_index} valid"

        queue, is_cq_head, value = cycle.doorbell or (0, False, 0)
        side = "CQ head" if is_cq_head else "SQ tail"
        exists = model.doorbell_exists(queue, is_cq_head)
        assert int(dut.doorbell_io_exists.value) == exists, f"{side} doorbell of queue {queue}: exists"
        if exists:  # (the size compared is that of whatever the index names otherwise)
            assert int(dut.doorbell_io_value_fits.value) == model.doorbell_fits(queue, is_cq_head, value), \
                f"{side} doorbell of queue {queue}: {value} fits"

        ready = str(dut.sq_ready.value)[::-1]  # (bit by bit: an X shows as itself)
        counts = str(dut.sq_fetch_count.value)[::-1]
        for slot in range(self.slots):
            assert ready[slot] == str(int(model.sq_ready(slot))), f"SQ {slot} ready: {self.describe(slot)}"
            count = counts[3 * slot:3 * slot + 3][::-1]
            expected_count = model.fetch_count(slot, self.batch)
            shown = int(count, 2) if set(count) <= {"0", "1"} else count
            assert count == f"{expected_count:03b}", \
                f"SQ {slot}: a read takes {shown} entries, the rule {expected_count}: {self.describe(slot)}"

        pick = cycle.pick_queue
        if pick in model.submission:
            sq = model.submission[pick]
            got = (int(dut.pick_cq.value), int(dut.pick_sq_head_address.value))
            expected = (sq.cq, model.sq_head_address(pick))
            assert got == expected, (f"picked SQ {pick} (CQ, head entry's address): ({got[0]}, {got[1]:#x}) != "
                                     f"({expected[0]}, {expected[1]:#x})")

        current = cycle.current_queue
        if current in model.submission:
            sq = model.submission[current]
            cq = model.completion[sq.cq]
            got = (int(dut.current_cq.value), int(dut.current_sq_head.value), int(dut.current_cq_slot_address.value),
                   int(dut.current_cq_phase.value), int(dut.current_cq_vector.value),
                   bool(int(dut.current_cq_interrupts.value)))
            expected = (sq.cq, sq.head, model.cq_slot_address(sq.cq), cq.phase, cq.vector, cq.interrupts)
            assert got == expected, (f"current SQ {current} (CQ, SQ head, slot address, phase, vector, interrupts): "
                                     f"{got} != {expected}")

    def describe(self, queue: int) -> str:
        sq = self.model.submission.get(queue)
        if sq is None:
            return "no such SQ"
        cq = self.model.completion[sq.cq]
        return (f"head {sq.head} tail {sq.tail} of {sq.entries}, CQ {sq.cq} head {cq.head} tail {cq.tail} "
                f"of {cq.entries}")

    def apply(self, cycle: Cycle):
        # The moves name existing queues, so the order between them and the admin command's create
        # or delete does not matter
        model = self.model
        if cycle.doorbell is not None:
            model.doorbell(*cycle.doorbell)
        if cycle.advance_sq is not None:
            model.advance_sq_head(cycle.advance_sq)
        if cycle.take_cq is not None:
            model.take_cq_slot(cycle.take_cq)
        if cycle.admin:
            kind, queue = cycle.admin[:2]
            getattr(model, kind)(queue, *cycle.admin[2:])


class Traffic:
    """Random legal traffic, as nvme_admin_command, the host and the engine would make it."""

    def __init__(self, tb: TB, rng, admin_rate: float = 0.1):
        self.tb, self.rng, self.admin_rate = tb, rng, admin_rate
        self.ids = range(1, tb.queues)

    def admin(self):
        rng, model = self.rng, self.tb.model
        choices = []
        free_cqs = [queue for queue in self.ids if queue not in model.completion]
        free_sqs = [queue for queue in self.ids if queue not in model.submission]
        if free_cqs:
            entries = rng.choice(ENTRY_CHOICES)
            choices += [("create_cq", rng.choice(free_cqs), rng.getrandbits(52) << 12, entries, rng.randrange(32),
                         rng.random() < 0.7)] * 3
        if free_sqs and model.completion:
            entries = rng.choice(ENTRY_CHOICES)
            choices += [("create_sq", rng.choice(free_sqs), rng.getrandbits(52) << 12, entries,
                         rng.choice(sorted(model.completion)))] * 3
        if model.submission:
            choices.append(("delete_sq", rng.choice(sorted(model.submission))))
        unused_cqs = [queue for queue in model.completion if not model.cq_has_sq(queue)]
        if unused_cqs:
            choices.append(("delete_cq", rng.choice(sorted(unused_cqs))))
        return rng.choice(choices) if choices else None

    def doorbell(self):
        """The host places entries in an SQ (no more than it has room for) or frees completions of a
        CQ (no more than were posted)."""
        rng, model = self.rng, self.tb.model
        queues = [(queue, False) for queue in model.submission] + [(queue, True) for queue in model.completion]
        if not queues:
            return None
        queue, is_cq_head = rng.choice(sorted(queues))
        if is_cq_head:
            cq = model.completion[queue]
            step = rng.randint(0, waiting(cq.head, cq.tail, cq.entries))
            return queue, True, (cq.head + step) % cq.entries
        sq = model.submission[queue]
        step = rng.choice((rng.randint(0, room(sq.head, sq.tail, sq.entries)), room(sq.head, sq.tail, sq.entries)))
        return queue, False, (sq.tail + step) % sq.entries

    def lookup_index(self, existing) -> int:
        return rng_choice_biased(self.rng, sorted(existing), self.tb.slots)

    def next(self) -> Cycle:
        rng, model = self.rng, self.tb.model
        cycle = Cycle()
        if rng.random() < self.admin_rate:
            cycle.admin = self.admin()
        if rng.random() < 0.6:
            cycle.doorbell = self.doorbell()
        waiting_sqs = [queue for queue in model.submission if model.sq_waiting(queue)]
        if waiting_sqs and rng.random() < 0.5:
            cycle.advance_sq = rng.choice(sorted(waiting_sqs))
        cqs_with_room = [queue for queue in model.completion if model.cq_room(queue)]
        if cqs_with_room and rng.random() < 0.5:
            cycle.take_cq = rng.choice(sorted(cqs_with_room))
        cycle.admin_queue_index = self.lookup_index(set(model.completion) | set(model.submission))
        cycle.admin_sq_cq_index = self.lookup_index(model.completion)
        cycle.pick_queue = self.lookup_index(model.submission)
        cycle.current_queue = self.lookup_index(model.submission)
        return cycle


def rng_choice_biased(rng, existing: list[int], slots: int) -> int:
    """Mostly a queue that exists (its lookups are checked), sometimes any slot of the table."""
    if existing and rng.random() < 0.8:
        return rng.choice(existing)
    return rng.randrange(slots)


@cocotb.test(timeout_time=200, timeout_unit="us")
async def random_traffic_over_every_queue_matches_the_model(dut):
    """Creates, deletes, doorbells, SQ head advances and CQ slot takes at random over every queue,
    every output checked each cycle; the table fills with every queue at least once."""
    tb = TB(dut)
    await tb.reset()
    traffic = Traffic(tb, test_rng("traffic"))
    created = set()
    for _ in range(6000):
        cycle = traffic.next()
        if cycle.admin and cycle.admin[0] == "create_sq":
            created.add(cycle.admin[1])
        await tb.run(cycle)
    assert created == set(traffic.ids), f"SQs never created: {sorted(set(traffic.ids) - created)}"


def edge_cases(batch: int):
    """(SQ head, tail, entries, CQ head, tail, entries) at each limit and just past it, with heads
    and CQ tails a few dozen steps from 0 (each step is a cycle of the engine's)."""
    page = ENTRIES_PER_PAGE
    return [
        (0, 0, 2, 0, 0, 2),                      # nothing waits
        (0, 1, 2, 0, 0, 2),                      # the smallest queues
        (5, 5 + batch + 3, 64, 0, 0, 1024),      # more wait than one read takes
        (62, 3, 64, 0, 0, 1024),                 # the ring's end, two entries before it
        (63, 10, 64, 0, 0, 1024),                # the last entry of the ring
        (page - 2, page + 30, 1024, 0, 0, 1024), # the page's end, not the ring's
        (page - 3, page + 30, 1024, 0, 0, 1024), # three before the page's end
        (0, 3, 16, 0, 0, 16),                    # three waiting
        (page - 1, page + 3, 65536, 0, 0, 4),    # the page's end in the largest queue
        (0, 30, 1024, 7, 5, 16),                 # the CQ has room for one
        (0, 30, 1024, 5, 5, 16),                 # an empty CQ of 16 holds 15
        (0, 30, 1024, 6, 5, 16),                 # the CQ is full
        (1, 0, 2, 0, 1, 2),                      # waiting entries wrap in the smallest SQ; its CQ is full
        (62, 1, 64, 3, 1, 4),                    # waiting entries wrap; the ring's end comes first
        (0, 45545, 65536, 2, 2, 16),             # the largest SQ from its first entry: 65 536 to the ring's end
        (3, 2, 65536, 9, 3, 65536),              # the largest queues, nearly full
    ]


async def set_up_pair(tb: TB, case) -> None:
    """SQ 1 on CQ 1 with these pointers, reached as a host and the engine would: the SQ's tail rung
    to its head and the entries taken, the CQ's slots taken with its head rung along, then the
    doorbells that leave the pointers where the case wants them."""
    sq_head, sq_tail, sq_entries, cq_head, cq_tail, cq_entries = case
    for kind, arguments in (("delete_sq", ()), ("delete_cq", ()), ("create_cq", (0x1000, cq_entries, 1, True)),
                            ("create_sq", (0x200000, sq_entries, 1))):
        if kind.startswith("delete") and 1 not in (tb.model.submission if kind == "delete_sq" else tb.model.completion):
            continue
        cycle = Cycle()
        cycle.admin = (kind, 1, *arguments)
        await tb.run(cycle)
    steps = [Cycle() for _ in range(max(sq_head, cq_tail))]
    for index, cycle in enumerate(steps):
        cycle.pick_queue = cycle.current_queue = 1
        if index < sq_head:
            cycle.advance_sq = 1
        if index < cq_tail:
            cycle.take_cq = 1
            cycle.doorbell = (1, True, index)  # (the host frees each slot before the next is taken)
    if steps:
        first = Cycle()
        first.doorbell = (1, False, sq_head)
        await tb.run(first)
    for cycle in steps:
        await tb.run(cycle)
    for doorbell in ((1, False, sq_tail), (1, True, cq_head)):
        cycle = Cycle()
        cycle.doorbell = doorbell
        cycle.pick_queue = cycle.current_queue = 1
        await tb.run(cycle)


@cocotb.test(timeout_time=50, timeout_unit="us")
async def a_read_takes_what_waits_up_to_every_limit(dut):
    """Directed cases at each limit of a read (the ring's end, the page's end, the CQ's room, the
    batch) and just past it, then random pointers near them: every SQ's readiness and count is
    checked against the model's rule each cycle (TB.check), and every count from 0 to the batch
    is seen on the case's SQ."""
    tb = TB(dut)
    await tb.reset()
    rng = test_rng("counts")
    cases = edge_cases(tb.batch)
    for _ in range(40):
        sq_entries = rng.choice((2, 3, 16, 64, 100, 1024, 65536))
        cq_entries = rng.choice((2, 3, 16, 64, 1024, 65536))
        sq_head = min(sq_entries - 1, rng.choice((rng.randrange(70), ENTRIES_PER_PAGE - rng.randint(1, 5))))
        cq_tail = min(cq_entries - 1, rng.randrange(40))
        cases.append((sq_head, rng.randrange(sq_entries), sq_entries, rng.randrange(cq_entries), cq_tail, cq_entries))
    counts_seen = set()
    for case in cases:
        await set_up_pair(tb, case)
        sq, cq = tb.model.submission[1], tb.model.completion[1]
        assert (sq.head, sq.tail, sq.entries, cq.head, cq.tail, cq.entries) == case, f"set-up of {case}"
        await tb.run(Cycle())
        counts_seen.add(tb.model.fetch_count(1, tb.batch))
    assert counts_seen >= set(range(tb.batch + 1)), f"counts seen {sorted(counts_seen)}"


def bad_doorbell(rng, tb: TB):
    """A doorbell the table must ignore: of a queue that does not exist (an I/O ID with no queue, an
    ID past the table, the admin queue's), or with a value past its queue's size."""
    model = tb.model
    is_cq_head = rng.random() < 0.5
    queues = model.completion if is_cq_head else model.submission
    kind = rng.choice(("absent", "past the table", "admin", "past the size", "past the size"))
    if kind == "past the size" and queues:
        queue = rng.choice(sorted(queues))
        entries = queues[queue].entries
        value = rng.choice((entries, 0xFFFF, rng.randint(entries, 0xFFFF))) if entries <= 0xFFFF else None
        if value is not None:
            return queue, is_cq_head, value
    absent = [queue for queue in range(1, tb.queues) if queue not in queues]
    if kind == "absent" and absent:
        return rng.choice(absent), is_cq_head, rng.randrange(2)
    if kind == "admin":
        return 0, is_cq_head, rng.randrange(2)
    return rng.randrange(tb.queues, DOORBELL_QUEUE_LIMIT), is_cq_head, rng.randrange(2)


@cocotb.test(timeout_time=100, timeout_unit="us")
async def bad_doorbells_are_reported_and_change_nothing(dut):
    """Doorbells of queues that do not exist (absent, the admin queue's, IDs up to 127) and values
    past the size: doorbell_io_exists and doorbell_io_value_fits say so and no queue moves, which
    the lookups of every queue, swept in turn, confirm."""
    tb = TB(dut)
    await tb.reset()
    rng = test_rng("bad doorbells")
    traffic = Traffic(tb, rng, admin_rate=0.3)
    for _ in range(300):
        await tb.run(traffic.next())
    reported = {"absent": 0, "past the size": 0}
    for turn in range(3000):
        cycle = traffic.next() if turn % 4 == 0 else Cycle()
        cycle.admin = None
        cycle.doorbell = bad_doorbell(rng, tb)
        queue, is_cq_head, value = cycle.doorbell
        if tb.model.doorbell_exists(queue, is_cq_head):
            reported["past the size"] += 1
        else:
            reported["absent"] += 1
        existing = sorted(tb.model.submission) or [0]
        cycle.pick_queue = cycle.current_queue = existing[turn % len(existing)]
        cycle.admin_queue_index = turn % tb.slots
        await tb.run(cycle)
        assert not tb.model.doorbell(*cycle.doorbell), "the stimulus is meant to be bad"
    assert all(reported.values()), f"bad doorbells by kind: {reported}"


@cocotb.test(timeout_time=100, timeout_unit="us")
async def cq_phase_flips_on_each_wrap(dut):
    """CQs of 2, 3 and 5 entries (one SQ each, to look them up as the current queue): each slot
    taken moves the tail by one and the phase starts at 1 and inverts exactly when the tail wraps
    to slot 0, counted here independently of the model."""
    tb = TB(dut)
    await tb.reset()
    rng = test_rng("phase")
    queues = list(range(1, min(4, tb.queues)))
    sizes = [2, 3, 5][:len(queues)]
    for queue, entries in zip(queues, sizes):
        create = Cycle()
        create.admin = ("create_cq", queue, 0x1000 * queue, entries, queue, True)
        await tb.run(create)
    for queue in queues:
        create = Cycle()
        create.admin = ("create_sq", queue, 0x100000 * queue, 64, queue)
        await tb.run(create)
    taken = dict.fromkeys(queues, 0)
    for _ in range(2000):
        queue = rng.choice(queues)
        cq = tb.model.completion[queue]
        cycle = Cycle()
        cycle.current_queue = cycle.pick_queue = queue
        if tb.model.cq_room(queue):
            cycle.take_cq = queue
        else:
            cycle.doorbell = (queue, True, cq.tail)  # the host consumes everything posted
        await tb.run(cycle)
        if cycle.take_cq:
            taken[queue] += 1
        assert cq.tail == taken[queue] % cq.entries
        assert cq.phase == 1 - (taken[queue] // cq.entries) % 2, f"CQ {queue}: phase after {taken[queue]} slots"
        look = Cycle()
        look.current_queue = queue
        await tb.run(look)  # (checks current_cq_phase and the slot address after the take)
    assert all(count >= 10 * entries for count, entries in zip(taken.values(), sizes)), f"slots taken: {taken}"


@cocotb.test(timeout_time=50, timeout_unit="us")
async def reset_mid_traffic_deletes_every_queue(dut):
    """Reset (a disable) in the middle of traffic: afterwards no queue exists, no doorbell finds
    one, no SQ is ready; queues created again start afresh."""
    tb = TB(dut)
    await tb.reset()
    rng = test_rng("reset")
    traffic = Traffic(tb, rng, admin_rate=0.3)
    for _ in range(4):
        busy_cycles = rng.randint(200, 600)
        while busy_cycles > 0 or not tb.model.submission:  # (the reset should meet live queues)
            await tb.run(traffic.next())
            busy_cycles -= 1
        await FallingEdge(dut.clk)
        tb.drive(Cycle())
        dut.rst.value = 1
        for _ in range(2):
            await FallingEdge(dut.clk)
        dut.rst.value = 0
        tb.model.reset()
        for slot in range(tb.slots):
            cycle = Cycle()
            cycle.admin_queue_index = cycle.admin_sq_cq_index = slot
            cycle.doorbell = (slot % DOORBELL_QUEUE_LIMIT, slot % 2 == 1, 0)
            await tb.run(cycle)
            assert int(dut.sq_ready.value) == 0
