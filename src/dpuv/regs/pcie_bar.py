# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""PCIe BAR backend of the register access layer, in simulation: a BAR of a device enumerated by
cocotbext-pcie's root complex, read and written with memory TLPs.

Reads are non-posted and time out, so a device that never answers fails the access in bounded
simulated time; an unsuccessful completion (Unsupported Request, Completer Abort) or no
completion at all raises BusError, as an AXI error response does on the AXI4-Lite backend.
Writes are posted: PCIe gives the requester no answer to check.
"""

from __future__ import annotations

from cocotb.triggers import ClockCycles

from dpuv.regs.access import BusError, RegisterAccess

# What cocotbext-pcie's memory window raises for a read that did not complete successfully
_FAILED_READS = {"Unsuccessful completion": "an unsuccessful completion", "Timeout": "no completion in time"}


class PcieBarAccess(RegisterAccess):
    def __init__(self, bar_window, clock, read_timeout_ns: int = 2000):
        """bar_window: the device's `bar_window[n]` after enumeration; clock: the design clock
        that `cycles` counts."""
        self.bar_window = bar_window
        self.clock = clock
        self.read_timeout_ns = read_timeout_ns

    async def read(self, address: int, length: int) -> bytes:
        try:
            return bytes(await self.bar_window.read(address, length, timeout=self.read_timeout_ns, timeout_unit="ns"))
        except Exception as error:  # cocotbext-pcie raises plain Exceptions for failed reads
            if str(error) not in _FAILED_READS:
                raise
            raise BusError("read", address, _FAILED_READS[str(error)]) from None

    async def write(self, address: int, data: bytes) -> None:
        await self.bar_window.write(address, data)

    async def cycles(self, count: int) -> None:
        await ClockCycles(self.clock, count)
