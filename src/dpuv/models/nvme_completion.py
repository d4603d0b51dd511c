# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""NVMe completion posting, from the specification (docs/reference/nvme.md) and the contract
rtl/storage/nvme_cq_post.v documents:

- A completion queue entry is 16 bytes: DW0 the command's result, DW1 reserved, DW2 SQHD (bits
  15:0) and SQID (31:16), DW3 the CID (15:0), the phase tag (16) and the status field: SC (24:17),
  SCT (27:25), CRD (29:28), M (30), DNR (31). The engine sets DNR on every error completion (any
  status other than SCT 0 / SC 0) and never sets CRD or M.
- The admin CQ starts empty with head = tail = 0; the controller writes each entry at
  base + 16 * tail, the phase tag is 1 on the first pass and inverts each time the tail wraps to
  slot 0, and the CQ is full when tail + 1 == head (mod N), so it holds at most N - 1 entries. The
  host frees slots by writing the head doorbell.
- Entries leave in the order their slots were taken. A released Write's slot is taken at its
  release, before its status is known; it holds its place, so every entry after it waits until
  its status comes, and its entry then says that status (SCT 0, result 0)."""

from __future__ import annotations

import struct
from collections import deque
from dataclasses import dataclass

from dpuv.models.nvme_queue import CQ_ENTRY_BYTES, room

SCT_GENERIC = 0


def completion_entry(result: int, sq_head: int, sq_id: int, cid: int, phase: int, status_code: int,
                     status_type: int) -> bytes:
    """The 16 bytes of a completion queue entry, DW0 first (little endian, as the host reads it)."""
    do_not_retry = (status_type, status_code) != (SCT_GENERIC, 0)
    dw3 = cid | phase << 16 | status_code << 17 | status_type << 25 | int(do_not_retry) << 31
    return struct.pack("<IIII", result, 0, sq_head | sq_id << 16, dw3)


@dataclass
class AdminCompletionQueue:
    """The admin CQ the controller posts into (its base and size from ACQ and AQA)."""
    base: int
    entries: int
    head: int = 0
    tail: int = 0
    phase: int = 1

    @property
    def full(self) -> bool:
        return room(self.head, self.tail, self.entries) == 0

    def take_slot(self) -> tuple[int, int]:
        """The slot the next entry is written to: (address, phase tag); moves the tail past it."""
        assert not self.full, "a controller never posts into a full CQ"
        slot = ((self.base + self.tail * CQ_ENTRY_BYTES) % (1 << 64), self.phase)
        self.tail = (self.tail + 1) % self.entries
        if self.tail == 0:
            self.phase ^= 1
        return slot

    def doorbell(self, head: int) -> None:
        assert head < self.entries, "the controller takes only a head within the queue"
        self.head = head


@dataclass
class Completion:
    """An entry bound for the host: where it goes, its bytes, the interrupt vector its write
    raises (None: its CQ has interrupts off), whether it is the admin CQ's, and for a released
    Write (drained) the status still to come when `entry` is None."""
    address: int
    entry: bytes | None
    vector: int | None
    admin: bool
    status_code: int
    status_type: int
    drained: bool = False
    # A released Write's fields, kept until its status makes the entry
    fields: tuple[int, int, int, int] = (0, 0, 0, 0)   # (sq_head, sq_id, cid, phase)


class PostingOrder:
    """Completions in slot order. `post` appends a complete entry; `hold` appends a released
    Write's slot, which `drain` completes with its status. Only the oldest entry may leave, and only
    once it is complete: a held slot blocks everything after it."""

    def __init__(self):
        self.waiting: deque[Completion] = deque()

    def post(self, completion: Completion) -> None:
        self.waiting.append(completion)

    def hold(self, address: int, phase: int, cid: int, sq_id: int, sq_head: int, vector: int | None) -> None:
        self.waiting.append(Completion(address, None, vector, sq_id == 0, 0, SCT_GENERIC, drained=True,
                                       fields=(sq_head, sq_id, cid, phase)))

    @property
    def awaiting_status(self) -> Completion | None:
        """The held slot whose status has not come (at most one: a Write is released only once the
        previous released Write's entry has gone out)."""
        return next((completion for completion in self.waiting if completion.entry is None), None)

    def drain(self, status_code: int) -> None:
        held = self.awaiting_status
        assert held is not None, "a drain status comes only for a held slot"
        sq_head, sq_id, cid, phase = held.fields
        held.status_code = status_code
        held.entry = completion_entry(0, sq_head, sq_id, cid, phase, status_code, SCT_GENERIC)

    def next_out(self) -> Completion | None:
        """The entry allowed to leave now, if any."""
        if self.waiting and self.waiting[0].entry is not None:
            return self.waiting[0]
        return None

    def leave(self) -> Completion:
        assert self.next_out() is not None, "only the oldest complete entry leaves"
        return self.waiting.popleft()

    def clear(self) -> None:
        self.waiting.clear()
