# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""nvme_cq_post: completions posted (only while post_free is up, as nvme_queue_engine does), held
for a released Write and drained, against dpuv.models.nvme_completion, with a PCIe requester
stand-in that takes writes under random backpressure and answers write_done some cycles later.
Inputs are set in each clock's low phase and every output is checked a nanosecond later; the
coming rising edge then applies them, and the model with it.

Every cycle checks: cq_full against the admin CQ model; post_free, drain_pending and posting
against what waits; a write offered only when the oldest entry is complete and the previous one's
write is done, held steady until taken; each write taken is the oldest entry (address, 16 bytes,
status and drained flag on the counters' outputs); and an interrupt exactly with the write_done of
an entry whose CQ interrupts, on its vector."""

from __future__ import annotations

from dataclasses import dataclass

import cocotb
from cocotb.triggers import FallingEdge, Timer

from dpuv.models.nvme_admin import Completion as DecodedCompletion
from dpuv.models.nvme_completion import AdminCompletionQueue, Completion, PostingOrder, completion_entry
from dpuv.tb.testbench import pauses, start_clock_and_reset, test_rng

ENTRY_MASK = (1 << 128) - 1
# Error statuses (SCT, SC) the engine posts; SCT 1 / SC 00h (Completion Queue Invalid) is an
# error with SC 0, and goes out with DNR like the others
ERROR_STATUSES = ((0, 0x01), (0, 0x02), (0, 0x04), (0, 0x0B), (0, 0x13), (0, 0x80), (0, 0x81),
                  (1, 0x00), (1, 0x01), (1, 0x02), (1, 0x05), (1, 0x08), (2, 0x81), (2, 0x86))
# Sizes of the admin CQ (AQA.ACQS + 1): the smallest, odd ones that wrap at awkward slots, and a
# longer one
ADMIN_CQ_SIZES = (2, 3, 5, 17, 64)


@dataclass
class Post:
    """What the engine hands nvme_cq_post with post or hold_drain_slot."""
    admin: bool
    cid: int
    sq_id: int
    sq_head: int
    status_code: int = 0
    status_type: int = 0
    result: int = 0
    # An I/O CQ's slot (the queue table's) and the CQ's interrupt settings
    address: int = 0
    phase: int = 0
    vector: int = 0
    interrupts: bool = False


@dataclass
class Cycle:
    """What the engine and the host do in one cycle (None or False: nothing)."""
    post: Post | None = None
    hold: Post | None = None
    drain_status: int | None = None
    admin_cq_head: int | None = None
    reset: bool = False
    disabled: bool = False


class Requester:
    """The PCIe requester stand-in: takes one write at a time when its ready is up (random pauses)
    and reports it done `delay` cycles after the one that took it. A write taken before a reset
    is still answered after it (the requester is not the CQ poster's to reset)."""

    def __init__(self, rng, backpressure: float | None, longest_delay: int):
        self.rng = rng
        self.pauses = pauses(rng, backpressure)
        self.longest_delay = longest_delay
        self.outstanding = False
        self.countdown = 0

    def ready(self) -> bool:
        return not self.outstanding and not (self.pauses and next(self.pauses))

    def done(self) -> bool:
        return self.outstanding and self.countdown == 0

    def take(self) -> None:
        self.outstanding = True
        self.countdown = self.rng.randint(0, self.longest_delay)

    def tick(self, done: bool) -> None:
        if done:
            self.outstanding = False
        elif self.outstanding:
            self.countdown -= 1


class TB:
    def __init__(self, dut, rng, backpressure: float | None = None, longest_delay: int = 3):
        self.dut = dut
        self.rng = rng
        self.requester = Requester(rng, backpressure, longest_delay)
        self.order = PostingOrder()
        self.admin_cq = AdminCompletionQueue(base=0, entries=2)
        # The entry whose write the requester took and has not reported done (None after a reset:
        # a late write_done then belongs to nobody)
        self.in_flight: Completion | None = None
        self.offered: tuple[int, int] | None = None
        self.completions: list[Completion] = []
        self.interrupts = 0
        self.entries_known: int | None = 0    # posted, plus held ones whose status came
        self.post_events = 0
        self.dropped = 0          # entries a reset took away after their event_post
        dut.enabled.value = 1
        dut.rst.value = 1
        self.drive(Cycle(), ready=False, done=False)
        self.configure_admin_cq(2, 0)

    def configure_admin_cq(self, entries: int, base: int) -> None:
        """AQA and ACQ as the host sets them while the controller is disabled."""
        self.dut.cq_size.value = entries - 1
        self.dut.cq_base.value = base
        self.admin_cq = AdminCompletionQueue(base=base, entries=entries)

    async def reset(self):
        await start_clock_and_reset(self.dut.clk, self.dut.rst)

    def drive(self, cycle: Cycle, ready: bool, done: bool) -> None:
        dut = self.dut
        dut.write_ready.value = int(ready)
        dut.write_done.value = int(done)
        dut.rst.value = int(cycle.reset)
        dut.enabled.value = int(not cycle.disabled)
        post = cycle.post or cycle.hold or Post(admin=False, cid=0, sq_id=0, sq_head=0)
        dut.post.value = int(cycle.post is not None)
        dut.hold_drain_slot.value = int(cycle.hold is not None)
        dut.post_admin.value = int(post.admin)
        dut.post_cid.value = post.cid
        dut.post_sqid.value = post.sq_id
        dut.post_sq_head.value = post.sq_head
        dut.post_status_code.value = post.status_code
        dut.post_status_type.value = post.status_type
        dut.post_result.value = post.result
        dut.io_slot_address.value = post.address
        dut.io_slot_phase.value = post.phase
        dut.io_vector.value = post.vector
        dut.io_interrupts.value = int(post.interrupts)
        dut.drain_done.value = int(cycle.drain_status is not None)
        dut.drain_status.value = cycle.drain_status or 0
        dut.cq_head_valid.value = int(cycle.admin_cq_head is not None)
        dut.cq_head_value.value = cycle.admin_cq_head or 0

    @property
    def idle(self) -> bool:
        return not self.order.waiting and self.in_flight is None

    async def step(self, choose) -> None:
        """One cycle: the requester's ready and done set at the falling edge, every output checked
        a nanosecond later, then `choose(tb)` (which may read post_free and cq_full, already
        checked) gives what the engine and the host do this cycle."""
        dut = self.dut
        await FallingEdge(dut.clk)
        ready, done = self.requester.ready(), self.requester.done()
        dut.write_ready.value = int(ready)
        dut.write_done.value = int(done)
        await Timer(1, "ns")
        taken = self.check(ready, done)
        cycle = choose(self)
        self.drive(cycle, ready, done)
        self.apply(cycle, taken, done)

    def check(self, ready: bool, done: bool) -> bool:
        dut, order = self.dut, self.order
        assert int(dut.cq_full.value) == self.admin_cq.full, \
            f"cq_full={int(dut.cq_full.value)}, admin CQ head {self.admin_cq.head} tail {self.admin_cq.tail} " \
            f"of {self.admin_cq.entries}"
        assert int(dut.post_free.value) == self.idle, \
            f"post_free={int(dut.post_free.value)} with {len(order.waiting)} entries waiting, one in flight: " \
            f"{self.in_flight is not None}"
        assert int(dut.posting.value) == (not self.idle), "posting"
        self.post_events += int(dut.event_post.value)
        if self.entries_known is None:
            # The cycle after a reset: a released Write's entry may have been sent at the reset's
            # edge and dropped by it; its event_post shows now
            self.entries_known = self.post_events
            self.dropped = self.post_events - len(self.completions)
        assert self.post_events <= self.entries_known, "event_post for an entry that is not complete"

        write_valid = int(dut.write_valid.value)
        # A released Write's entry waits (drain_pending) from its hold until it is offered
        drained_waiting = sum(completion.drained for completion in order.waiting)
        if write_valid and order.waiting and order.waiting[0].drained:
            drained_waiting -= 1
        assert int(dut.drain_pending.value) == (drained_waiting > 0), \
            f"drain_pending={int(dut.drain_pending.value)} with {drained_waiting} released Writes' entries waiting"
        offer = (int(dut.write_address.value), int(dut.write_data.value)) if write_valid else None
        if self.offered is not None:
            assert offer == self.offered, "a write offered and not taken changed or went away"
        taken = bool(write_valid and ready)
        assert int(dut.event_completion.value) == taken, "event_completion is the write's handshake"
        if write_valid:
            assert self.in_flight is None, "the next entry went out before the previous one's write was done"
            assert order.next_out() is not None, "an entry went out while the oldest slot is held for its status"
        self.offered = offer if write_valid and not taken else None

        expect_interrupt = done and self.in_flight is not None and self.in_flight.vector is not None
        assert int(dut.interrupt_request.value) == expect_interrupt, \
            f"interrupt_request={int(dut.interrupt_request.value)}, write_done={int(done)}, " \
            f"entry in flight: {self.in_flight}"
        if expect_interrupt:
            assert int(dut.interrupt_vector.value) == self.in_flight.vector, "interrupt vector"
            assert int(dut.interrupt_admin.value) == self.in_flight.admin, "interrupt_admin"
            self.interrupts += 1
        if done:
            self.in_flight = None
        # (never both: the requester takes a write only with nothing outstanding)
        if taken:
            self.in_flight = order.leave()
            self.check_write(self.in_flight, *offer)
        return taken

    def check_write(self, expected: Completion, address: int, data: int) -> None:
        dut = self.dut
        entry = (data & ENTRY_MASK).to_bytes(16, "little")
        assert address == expected.address, f"entry written at {address:#x}, its slot is {expected.address:#x}"
        assert entry == expected.entry, \
            f"entry {DecodedCompletion.decode(entry)}, expected {DecodedCompletion.decode(expected.entry)}"
        assert data >> 128 == 0, "write_data past the 16-byte entry is not zero"
        got = (int(dut.completion_status_code.value), int(dut.completion_status_type.value),
               bool(int(dut.completion_drained.value)))
        assert got == (expected.status_code, expected.status_type, expected.drained), \
            f"counters' status (SC, SCT, drained) {got}, expected {expected}"
        self.completions.append(expected)

    def apply(self, cycle: Cycle, taken: bool, done: bool) -> None:
        """What the rising edge does, in the model and the requester."""
        if taken:
            self.requester.take()
        else:
            self.requester.tick(done)
        if cycle.reset:
            self.order.clear()
            self.in_flight = None
            self.offered = None
            self.admin_cq = AdminCompletionQueue(base=self.admin_cq.base, entries=self.admin_cq.entries)
            self.entries_known = None
            return
        if cycle.admin_cq_head is not None:
            self.admin_cq.doorbell(cycle.admin_cq_head)
        if cycle.drain_status is not None:
            self.order.drain(cycle.drain_status)
            self.entries_known += 1
        if cycle.post is not None:
            self.post(cycle.post)
        if cycle.hold is not None:
            hold = cycle.hold
            self.order.hold(hold.address, hold.phase, hold.cid, hold.sq_id, hold.sq_head,
                            hold.vector if hold.interrupts else None)

    def post(self, post: Post) -> None:
        if post.admin:
            address, phase = self.admin_cq.take_slot()
            vector = 0   # the admin CQ always interrupts, on vector 0
        else:
            address, phase = post.address, post.phase
            vector = post.vector if post.interrupts else None
        entry = completion_entry(post.result, post.sq_head, post.sq_id, post.cid, phase, post.status_code,
                                 post.status_type)
        self.order.post(Completion(address, entry, vector, post.admin, post.status_code, post.status_type))
        self.entries_known += 1

    async def finish(self, limit: int = 200) -> None:
        """Nothing more posted: everything waiting goes out (a held slot must have its status)."""
        for _ in range(limit):
            if self.idle and not self.requester.outstanding:
                break
            await self.step(lambda tb: Cycle())
        assert self.idle, f"{len(self.order.waiting)} entries still waiting after {limit} cycles"
        await self.step(lambda tb: Cycle())   # the last entry's event_post is seen
        assert self.post_events == self.entries_known and len(self.completions) == self.entries_known - self.dropped, \
            f"event_post {self.post_events} times for {self.entries_known} entries, {len(self.completions)} sent, " \
            f"{self.dropped} dropped by resets"

    async def post_when_free(self, post: Post) -> None:
        """Steps until post_free is up, posting in that cycle."""
        waiting = True

        def post_if_free(tb: TB) -> Cycle:
            nonlocal waiting
            if not tb.post_free:
                return Cycle()
            waiting = False
            return Cycle(post=post)

        while waiting:
            await self.step(post_if_free)

    async def hold_when_allowed(self, hold: Post) -> None:
        """Steps until drain_pending is down, holding the slot in that cycle."""
        waiting = True

        def hold_if_allowed(tb: TB) -> Cycle:
            nonlocal waiting
            if tb.drain_pending:
                return Cycle()
            waiting = False
            return Cycle(hold=hold)

        while waiting:
            await self.step(hold_if_allowed)

    # Readings for `choose`, in the cycle's low phase (check() has compared them with the model;
    # read between steps they would be the previous cycle's) (check() has compared them with the model this cycle)
    @property
    def post_free(self) -> bool:
        return bool(int(self.dut.post_free.value))

    @property
    def cq_full(self) -> bool:
        return bool(int(self.dut.cq_full.value))

    @property
    def drain_pending(self) -> bool:
        """The engine releases a Write only while this is down (nvme_io_command's release_allowed)."""
        return bool(int(self.dut.drain_pending.value))

    def retune(self, backpressure: float | None, longest_delay: int) -> None:
        """The requester's pauses and delays from now on (it has nothing outstanding after finish)."""
        self.requester.pauses = pauses(self.rng, backpressure)
        self.requester.longest_delay = longest_delay


def random_status(rng) -> tuple[int, int]:
    """(SCT, SC): mostly success."""
    return (0, 0) if rng.random() < 0.6 else rng.choice(ERROR_STATUSES)


def admin_post(rng) -> Post:
    status_type, status_code = random_status(rng)
    return Post(admin=True, cid=rng.getrandbits(16), sq_id=0, sq_head=rng.getrandbits(12), status_code=status_code,
                status_type=status_type, result=rng.getrandbits(32))


def io_post(rng) -> Post:
    status_type, status_code = random_status(rng)
    return Post(admin=False, cid=rng.getrandbits(16), sq_id=rng.randint(1, 64), sq_head=rng.getrandbits(16),
                status_code=status_code, status_type=status_type, result=rng.getrandbits(32),
                address=rng.getrandbits(60) << 4, phase=rng.getrandbits(1), vector=rng.randrange(32),
                interrupts=rng.random() < 0.7)


def host_consumes(rng, tb: TB) -> int:
    """An admin CQ head the host may write: past some of the entries whose writes are done."""
    cq = tb.admin_cq
    written = (cq.tail - cq.head) % cq.entries - sum(completion.admin for completion in tb.order.waiting)
    if tb.in_flight is not None and tb.in_flight.admin:
        written -= 1
    return (cq.head + rng.randint(0, written)) % cq.entries


class Traffic:
    """The engine and the host at random: posts when post_free (admin ones only when the admin CQ
    has room), a released Write's slot held now and then (only while drain_pending is down, as
    nvme_io_command releases), its status some cycles later, and admin CQ head doorbells."""

    def __init__(self, rng, post_chance: float = 0.5, hold_chance: float = 0.1, drain_chance: float = 0.2,
                 doorbell_chance: float = 0.1):
        self.rng = rng
        self.post_chance, self.hold_chance = post_chance, hold_chance
        self.drain_chance, self.doorbell_chance = drain_chance, doorbell_chance

    def __call__(self, tb: TB) -> Cycle:
        rng, cycle = self.rng, Cycle()
        # (a slot held in the cycle before is in the model already: its status never comes with the hold)
        if tb.order.awaiting_status is not None and rng.random() < self.drain_chance:
            cycle.drain_status = rng.choice((0x00, 0x00, 0x04, 0x80, 0x81))
        if tb.post_free and rng.random() < self.post_chance:
            cycle.post = admin_post(rng) if rng.random() < 0.5 and not tb.cq_full else io_post(rng)
        elif not tb.drain_pending and tb.order.awaiting_status is None and rng.random() < self.hold_chance:
            cycle.hold = io_post(rng)
        if rng.random() < self.doorbell_chance:
            cycle.admin_cq_head = host_consumes(rng, tb)
        return cycle


@cocotb.test(timeout_time=100, timeout_unit="us")
async def admin_completions_fill_the_cq_and_flip_the_phase_on_each_wrap(dut):
    """For each admin CQ size: entries posted until cq_full rises (after entries - 1 of them), the
    host frees a random number of slots, again, for at least three wraps and three times full; every
    entry at
    base + 16 * tail with the phase of its pass. The head doorbell sometimes moves in the cycle of a
    post."""
    rng = test_rng("admin fill")
    tb = TB(dut, rng, backpressure=0.3)
    await tb.reset()
    for entries in ADMIN_CQ_SIZES:
        # A disable, then the host sets AQA and ACQ
        await tb.step(lambda tb: Cycle(reset=True))
        tb.configure_admin_cq(entries, rng.getrandbits(52) << 12)
        times_full = 0
        posted = 0

        def fill(tb: TB) -> Cycle:
            nonlocal posted
            cycle = Cycle()
            if tb.post_free and not tb.cq_full and rng.random() < 0.8:
                cycle.post = admin_post(rng)
                posted += 1
            if tb.cq_full and tb.idle:
                cycle.admin_cq_head = host_consumes(rng, tb)
            elif rng.random() < 0.5 / entries:
                cycle.admin_cq_head = host_consumes(rng, tb)
            return cycle

        was_full = False
        # Three wraps at least, and full three times
        while posted < 3 * entries + 1 or times_full < 3:
            await tb.step(fill)
            if tb.cq_full and not was_full:
                times_full += 1
            was_full = tb.cq_full
        await tb.finish()
    assert tb.interrupts == len(tb.completions), "every admin entry interrupts"


@cocotb.test(timeout_time=100, timeout_unit="us")
async def io_completions_go_to_their_slot_and_interrupt_their_vector_after_the_write(dut):
    """I/O entries with random slots, phases, vectors and interrupt settings (and some admin ones):
    each written where the queue table says, an interrupt on its vector only if its CQ interrupts
    and only with its write_done, interrupt_admin only for the admin CQ's."""
    rng = test_rng("io")
    tb = TB(dut, rng, backpressure=0.2, longest_delay=6)
    await tb.reset()

    def io_traffic(tb: TB) -> Cycle:
        if not tb.post_free or rng.random() < 0.3:
            return Cycle()
        admin = rng.random() < 0.2 and not tb.cq_full
        return Cycle(post=admin_post(rng) if admin else io_post(rng),
                     admin_cq_head=host_consumes(rng, tb) if rng.random() < 0.3 else None)

    for _ in range(3000):
        await tb.step(io_traffic)
    await tb.finish()
    silent = [completion for completion in tb.completions if completion.vector is None]
    vectors = {completion.vector for completion in tb.completions if not completion.admin} - {None}
    assert silent and len(vectors) == 32 and tb.interrupts == len(tb.completions) - len(silent), \
        f"{len(silent)} entries without interrupt, vectors used {sorted(vectors)}, {tb.interrupts} interrupts"


@cocotb.test(timeout_time=100, timeout_unit="us")
async def a_held_drain_slot_keeps_its_place_until_its_status_comes(dut):
    """A released Write's slot held while an entry before it is in flight or with nothing before
    it; its status comes at once or many cycles later: no entry is posted in between (post_free
    stays down), the drained entry goes out with its status (SCT 0, result 0, DNR on an error,
    completion_drained up) and only then may the next be posted."""
    rng = test_rng("drain")
    tb = TB(dut, rng, backpressure=0.3, longest_delay=5)
    await tb.reset()
    drained_statuses = set()
    for _ in range(300):
        if rng.random() < 0.5:   # an entry before the held slot, still going out
            await tb.post_when_free(io_post(rng))
        await tb.hold_when_allowed(io_post(rng))
        for _ in range(rng.choice((0, 0, 1, 3, 12))):
            await tb.step(lambda tb: Cycle())
        status = rng.choice((0x00, 0x04, 0x80, 0x81))
        await tb.step(lambda tb: Cycle(drain_status=status))
        drained_statuses.add(status)
        # The next entry is posted the first cycle it may be
        await tb.post_when_free(io_post(rng))
    await tb.finish()
    drained = [completion for completion in tb.completions if completion.drained]
    assert len(drained) == 300 and drained_statuses == {0x00, 0x04, 0x80, 0x81}


@cocotb.test(timeout_time=500, timeout_unit="us")
async def random_backpressure_never_loses_or_reorders_an_entry(dut):
    """Admin and I/O posts, held slots and their statuses, doorbells, with the requester's ready
    down none, half or nine tenths of the time and write_done after 0 to 8 cycles: every entry
    leaves once, in slot order."""
    rng = test_rng("backpressure")
    tb = TB(dut, rng)
    await tb.reset()
    for backpressure in (None, 0.5, 0.9):
        await tb.step(lambda tb: Cycle(reset=True))
        tb.configure_admin_cq(rng.choice(ADMIN_CQ_SIZES), rng.getrandbits(52) << 12)
        tb.retune(backpressure, longest_delay=8)
        drained_before = sum(completion.drained for completion in tb.completions)
        traffic = Traffic(rng)
        for _ in range(4000):
            await tb.step(traffic)
        while tb.order.awaiting_status is not None:
            await tb.step(lambda tb: Cycle(drain_status=0))
        await tb.finish()
        drained = sum(completion.drained for completion in tb.completions) - drained_before
        assert drained >= 10, f"only {drained} released Writes with the requester's ready down {backpressure}"


@cocotb.test(timeout_time=50, timeout_unit="us")
async def reset_or_disable_mid_traffic_leaves_nothing_pending(dut):
    """Resets and disables at random moments of random traffic (an entry offered, in flight or held
    for its status): afterwards nothing waits, no write is offered, a write_done of a write taken
    before brings no interrupt, and the admin CQ starts again at slot 0 with phase 1."""
    rng = test_rng("reset")
    tb = TB(dut, rng, backpressure=0.4, longest_delay=6)
    tb.configure_admin_cq(3, rng.getrandbits(52) << 12)
    await tb.reset()
    traffic = Traffic(rng, hold_chance=0.2, drain_chance=0.05)
    offered, in_flight, held = 0, 0, 0
    for round_number in range(60):
        for _ in range(rng.randint(1, 60)):
            await tb.step(traffic)
        offered += int(dut.write_valid.value)
        in_flight += tb.in_flight is not None
        held += tb.drain_pending
        disabled = round_number % 2 == 1
        for _ in range(rng.randint(1, 3)):
            await tb.step(lambda tb: Cycle(reset=True, disabled=disabled))
        # (the next cycle's checks find nothing waiting, offered or in flight)
        first = admin_post(rng)
        await tb.step(lambda tb: Cycle(post=first))
        assert tb.order.waiting[0].address == tb.admin_cq.base and tb.admin_cq.tail == 1
    await tb.finish()
    assert offered and in_flight and held, \
        f"resets with a write offered {offered}, in flight {in_flight}, a slot held {held} times"
