# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The SMART/Health log's I/O counters (Get Log Page 02h), from the NVMe 1.4 base specification
(docs/reference/nvme.md):

- Data Units Read / Written: the 512-byte units moved by successful Read / Write commands, in
  thousands, rounded up (1 means 1 to 1000 units; 0 none). Write Zeroes, Flush, other opcodes and
  failed commands are not counted.
- Host Read / Write Commands: successful Reads / Writes.
- A command moves NLB + 1 logical blocks of 2^LBA_SHIFT bytes, (NLB + 1) << (LBA_SHIFT - 9) units.
- Kept across controller resets, not across a hardware reset (a new model); the controller's
  counters are 48 bits and wrap there (never reached)."""

from __future__ import annotations

from dataclasses import dataclass

COUNTER_MASK = (1 << 48) - 1
UNITS_PER_DATA_UNIT = 1000


def units(blocks: int, lba_shift: int) -> int:
    """512-byte units a command of `blocks` logical blocks moves."""
    assert 1 <= blocks <= 65536 and 9 <= lba_shift <= 12
    return blocks << (lba_shift - 9)


def data_units(total_units: int) -> int:
    """The SMART field: thousands of units, rounded up."""
    return -(-total_units // UNITS_PER_DATA_UNIT)


@dataclass
class IoStatistics:
    lba_shift: int = 9
    units_read: int = 0
    units_written: int = 0
    read_commands: int = 0
    write_commands: int = 0

    def reset(self) -> None:
        self.units_read = self.units_written = self.read_commands = self.write_commands = 0

    def complete(self, read: bool, write: bool, success: bool, blocks: int, lba_shift: int | None = None) -> None:
        """One I/O command's completion (read / write: its opcode was Read / Write), of blocks of
        2^lba_shift bytes (the namespace's unless given)."""
        if not success:
            return
        moved = units(blocks, self.lba_shift if lba_shift is None else lba_shift)
        if read:
            self.units_read += moved
            self.read_commands += 1
        if write:
            self.units_written += moved
            self.write_commands += 1

    @property
    def data_units_read(self) -> int:
        return data_units(self.units_read) & COUNTER_MASK

    @property
    def data_units_written(self) -> int:
        return data_units(self.units_written) & COUNTER_MASK

    @property
    def host_read_commands(self) -> int:
        return self.read_commands & COUNTER_MASK

    @property
    def host_write_commands(self) -> int:
        return self.write_commands & COUNTER_MASK
