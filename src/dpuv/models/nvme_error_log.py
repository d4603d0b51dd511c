# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The NVMe Error Information log (Get Log Page 01h) and the SMART/Health count of its entries,
from the NVMe 1.4 base specification (docs/reference/nvme.md) and what this controller logs:

- Every completion posted with a non-zero status is an error, and so is every invalid doorbell
  write, recorded with SQID FFFFh, CID FFFFh and Status Field 0.
- Each error gets the next lifetime Error Count (1 for the first since reset); 0 marks an unused
  entry, so the count stops at FFFFFFFFh rather than wrap to 0. SMART's Number of Error
  Information Log Entries is that count.
- The log holds the newest entries, newest first. The Status Field is the completion's status
  bits 15:1 over the phase tag it was posted with.
- A command error and a doorbell error at once: the doorbell's is recorded first."""

from __future__ import annotations

from dataclasses import dataclass

COUNT_LIMIT = 0xFFFF_FFFF
DOORBELL_QUEUE = 0xFFFF
DOORBELL_CID = 0xFFFF


@dataclass(frozen=True)
class ErrorEntry:
    count: int = 0          # 0: unused
    sqid: int = 0
    cid: int = 0
    status_field: int = 0   # the 16-bit field: bit 0 the phase tag, 15:1 the completion's status

    def packed(self) -> int:
        """The 80 bits the RTL keeps: {status field, CID, SQID, count}."""
        return self.status_field << 64 | self.cid << 48 | self.sqid << 32 | self.count

    def log_bytes(self) -> bytes:
        """The entry's 64 bytes in the log page (Parameter Error Location FFFFh, LBA and namespace 0);
        an unused entry is all zero."""
        if self.count == 0:
            return bytes(64)
        return (self.count.to_bytes(8, "little") + self.sqid.to_bytes(2, "little") + self.cid.to_bytes(2, "little")
                + self.status_field.to_bytes(2, "little") + (0xFFFF).to_bytes(2, "little") + bytes(48))


class ErrorLog:
    def __init__(self, entries: int = 4):
        self.size = entries
        self.count = 0
        self.entries: list[ErrorEntry] = []   # newest first, at most `size`

    def reset(self) -> None:
        self.count = 0
        self.entries.clear()

    def _record(self, sqid: int, cid: int, status_field: int) -> None:
        self.count = min(self.count + 1, COUNT_LIMIT)
        self.entries.insert(0, ErrorEntry(self.count, sqid, cid, status_field))
        del self.entries[self.size:]

    def command_error(self, sqid: int, cid: int, status: int, phase: int = 0) -> None:
        """A completion with non-zero status; `status` is its status field's bits 15:1
        (SC 7:0, SCT 10:8, CRD 12:11, M 13, DNR 14) and `phase` the phase tag it was posted with."""
        assert 0 < status < 1 << 15, "an error completion's status is non-zero and 15 bits"
        self._record(sqid, cid, status << 1 | phase)

    def doorbell_error(self) -> None:
        self._record(DOORBELL_QUEUE, DOORBELL_CID, 0)

    def cycle(self, command: tuple[int, int, int] | None, doorbell: bool) -> None:
        """What one clock edge records: the doorbell error first, then the command's."""
        if doorbell:
            self.doorbell_error()
        if command is not None:
            self.command_error(*command)

    def slots(self) -> list[ErrorEntry]:
        """Every entry the log page shows, unused ones as all zero."""
        return self.entries + [ErrorEntry()] * (self.size - len(self.entries))

    def packed(self) -> int:
        """The RTL's flat `entries` vector: entry i at bits 80*i +: 80."""
        return sum(entry.packed() << (80 * index) for index, entry in enumerate(self.slots()))

    def page(self) -> bytes:
        """The Error Information log page: newest first, unused entries all zero."""
        return b"".join(entry.log_bytes() for entry in self.slots())
