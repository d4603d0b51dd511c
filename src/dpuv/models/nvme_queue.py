# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""NVMe queue arithmetic, from the specification (docs/reference/nvme.md): a queue of N entries
is empty when head == tail and full when tail + 1 == head (mod N), so it holds at most N - 1.
And dpuv's rule for how many submission entries one read fetches, built on it; and the I/O queue
table (QueueTable) a controller keeps: the queues admin commands create, doorbells and the
controller move."""

from __future__ import annotations

from dataclasses import dataclass

SQ_ENTRY_BYTES = 64
CQ_ENTRY_BYTES = 16
PAGE_BYTES = 4096
ENTRIES_PER_PAGE = PAGE_BYTES // SQ_ENTRY_BYTES


def waiting(head: int, tail: int, entries: int) -> int:
    """Entries the host has placed and the controller not yet taken."""
    return (tail - head) % entries


def room(head: int, tail: int, entries: int) -> int:
    """Entries that can still be placed before the queue is full."""
    return (head - tail - 1) % entries


def fetch_count(sq_head: int, sq_tail: int, sq_entries: int, cq_head: int, cq_tail: int, cq_entries: int,
                batch: int) -> int:
    """How many of an SQ's entries one read takes: the waiting ones that are contiguous in memory
    (not past the ring's end), within the head's 4 KiB page (a physically contiguous SQ is page
    aligned; one read never crosses a page), no more than the CQ has room for (each entry's
    completion then has a slot) and at most `batch`."""
    return min(waiting(sq_head, sq_tail, sq_entries), sq_entries - sq_head,
               ENTRIES_PER_PAGE - sq_head % ENTRIES_PER_PAGE, room(cq_head, cq_tail, cq_entries), batch)


@dataclass
class CompletionQueue:
    """An I/O CQ as Create I/O CQ made it: the controller posts at the tail, the host frees slots by
    moving the head through its doorbell, and the phase tag written starts at 1 and inverts on each
    wrap to slot 0."""
    base: int
    entries: int
    vector: int
    interrupts: bool
    head: int = 0
    tail: int = 0
    phase: int = 1


@dataclass
class SubmissionQueue:
    """An I/O SQ as Create I/O SQ made it: the host places entries at the tail (its doorbell), the
    controller takes them at the head, and their completions go to `cq`."""
    base: int
    entries: int
    cq: int
    head: int = 0
    tail: int = 0


class QueueTable:
    """A controller's I/O queues (the admin pair, queue 0, is kept elsewhere and never appears here).

    Queues are created and deleted by admin commands; a CQ exists before any SQ names it and is
    deleted only after them. A doorbell moves an SQ's tail or a CQ's head when its queue exists and
    its value is a slot of the queue (at most entries - 1); any other doorbell changes nothing, and
    whether its queue exists and whether its value fits is what the controller reports. The
    controller takes an SQ's entries at its head and a CQ's slots at its tail, wrapping at the
    queue's end. An SQ is ready to be fetched from when entries wait in it and its CQ has room for
    one more completion. A controller reset (disable) forgets every queue.

    `queues` counts queue pairs with the admin one, so I/O queue IDs run from 1 to queues - 1."""

    def __init__(self, queues: int):
        self.queues = queues
        self.completion: dict[int, CompletionQueue] = {}
        self.submission: dict[int, SubmissionQueue] = {}

    def reset(self) -> None:
        self.completion.clear()
        self.submission.clear()

    def create_cq(self, queue: int, base: int, entries: int, vector: int, interrupts: bool) -> None:
        assert 0 < queue < self.queues and queue not in self.completion and entries >= 2
        self.completion[queue] = CompletionQueue(base, entries, vector, interrupts)

    def create_sq(self, queue: int, base: int, entries: int, cq: int) -> None:
        assert 0 < queue < self.queues and queue not in self.submission and cq in self.completion and entries >= 2
        self.submission[queue] = SubmissionQueue(base, entries, cq)

    def delete_sq(self, queue: int) -> None:
        del self.submission[queue]

    def delete_cq(self, queue: int) -> None:
        assert not self.cq_has_sq(queue), "a CQ is deleted only after the SQs that use it"
        del self.completion[queue]

    def cq_has_sq(self, cq: int) -> bool:
        return any(sq.cq == cq for sq in self.submission.values())

    def _doorbell_queue(self, queue: int, is_cq_head: bool) -> CompletionQueue | SubmissionQueue | None:
        if queue == 0:
            return None
        return (self.completion if is_cq_head else self.submission).get(queue)

    def doorbell_exists(self, queue: int, is_cq_head: bool) -> bool:
        """The doorbell names an existing I/O queue (an invalid doorbell register write if not)."""
        return self._doorbell_queue(queue, is_cq_head) is not None

    def doorbell_fits(self, queue: int, is_cq_head: bool, value: int) -> bool:
        """The doorbell's value is a slot of its (existing) queue."""
        return value < self._doorbell_queue(queue, is_cq_head).entries

    def doorbell(self, queue: int, is_cq_head: bool, value: int) -> bool:
        """A doorbell write; returns whether it moved anything."""
        target = self._doorbell_queue(queue, is_cq_head)
        if target is None or value >= target.entries:
            return False
        if is_cq_head:
            target.head = value
        else:
            target.tail = value
        return True

    def sq_waiting(self, queue: int) -> int:
        sq = self.submission[queue]
        return waiting(sq.head, sq.tail, sq.entries)

    def cq_room(self, cq: int) -> int:
        target = self.completion[cq]
        return room(target.head, target.tail, target.entries)

    def sq_ready(self, queue: int) -> bool:
        sq = self.submission.get(queue)
        return sq is not None and self.sq_waiting(queue) > 0 and self.cq_room(sq.cq) > 0

    def fetch_count(self, queue: int, batch: int) -> int:
        """Entries one read of the SQ takes (0 when it does not exist or is not ready)."""
        if not self.sq_ready(queue):
            return 0
        sq = self.submission[queue]
        cq = self.completion[sq.cq]
        return fetch_count(sq.head, sq.tail, sq.entries, cq.head, cq.tail, cq.entries, batch)

    def ready(self) -> set[int]:
        return {queue for queue in self.submission if self.sq_ready(queue)}

    def advance_sq_head(self, queue: int) -> None:
        """The controller took the entry at the SQ's head."""
        assert self.sq_waiting(queue) > 0, "only a waiting entry is taken"
        sq = self.submission[queue]
        sq.head = (sq.head + 1) % sq.entries

    def take_cq_slot(self, cq: int) -> None:
        """The controller posts a completion into the slot at the CQ's tail."""
        assert self.cq_room(cq) > 0, "a controller never posts into a full CQ"
        target = self.completion[cq]
        target.tail = (target.tail + 1) % target.entries
        if target.tail == 0:
            target.phase ^= 1

    def sq_head_address(self, queue: int) -> int:
        """Where the SQ's entry at the head is (the next one the controller takes)."""
        sq = self.submission[queue]
        return (sq.base + sq.head * SQ_ENTRY_BYTES) % (1 << 64)

    def cq_slot_address(self, cq: int) -> int:
        """Where the next completion of the CQ is written."""
        target = self.completion[cq]
        return (target.base + target.tail * CQ_ENTRY_BYTES) % (1 << 64)
