# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""PCIe BAR backend of the register access layer, in simulation: a BAR of a device enumerated by
cocotbext-pcie's root complex, read and written with memory TLPs.

Reads are non-posted and time out, so a device that never answers fails the access in bounded
simulated time; an unsuccessful completion (Unsupported Request, Completer Abort) or no
completion at all raises BusError, as an AXI error response does on the AXI4-Lite backend.
Writes are posted: PCIe gives the requester no answer to check.

With dword_accesses, every access is cut at dword boundaries into TLPs of one dword each (their
byte enables say which bytes), as a host's 32-bit loads and stores on a mapped BAR are
(dpuv.regs.bar_mmap, `--link pci://`): what a register bus of 32-bit AXI4-Lite behind the BAR
expects. Without it an access is one TLP, as a driver's 64-bit access or a DMA is.
"""

from __future__ import annotations

from cocotb.triggers import ClockCycles

from dpuv.regs.access import BusError, RegisterAccess

# What cocotbext-pcie's memory window raises for a read that did not complete successfully
_FAILED_READS = {"Unsuccessful completion": "an unsuccessful completion", "Timeout": "no completion in time"}


class PcieBarAccess(RegisterAccess):
    def __init__(self, bar_window, clock, read_timeout_ns: int = 2000, dword_accesses: bool = False):
        """bar_window: the device's `bar_window[n]` after enumeration; clock: the design clock
        that `cycles` counts."""
        self.bar_window = bar_window
        self.clock = clock
        self.read_timeout_ns = read_timeout_ns
        self.dword_accesses = dword_accesses

    def _pieces(self, address: int, length: int) -> list[tuple[int, int]]:
        """(address, length) of each TLP an access becomes."""
        if not self.dword_accesses:
            return [(address, length)]
        pieces, end = [], address + length
        while address < end:
            piece_end = min(end, (address | 3) + 1)
            pieces.append((address, piece_end - address))
            address = piece_end
        return pieces

    async def read(self, address: int, length: int) -> bytes:
        data = b""
        for piece_address, piece_length in self._pieces(address, length):
            try:
                data += bytes(await self.bar_window.read(piece_address, piece_length, timeout=self.read_timeout_ns,
                                                         timeout_unit="ns"))
            except Exception as error:  # cocotbext-pcie raises plain Exceptions for failed reads
                if str(error) not in _FAILED_READS:
                    raise
                raise BusError("read", piece_address, _FAILED_READS[str(error)]) from None
        return data

    async def write(self, address: int, data: bytes) -> None:
        offset = 0
        for piece_address, piece_length in self._pieces(address, len(data)):
            await self.bar_window.write(piece_address, data[offset:offset + piece_length])
            offset += piece_length

    async def cycles(self, count: int) -> None:
        await ClockCycles(self.clock, count)
