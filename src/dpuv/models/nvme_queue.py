# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""NVMe queue arithmetic, from the specification (docs/reference/nvme.md): a queue of N entries
is empty when head == tail and full when tail + 1 == head (mod N), so it holds at most N - 1.
And dpuv's rule for how many submission entries one read fetches, built on it."""

from __future__ import annotations

SQ_ENTRY_BYTES = 64
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
