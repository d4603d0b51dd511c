# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Register access layer: one async interface for every way of reaching dpuv's register bus.

Backends implement three coroutines (raw read, raw write, wait for cycles); everything else is
derived here, with cocotbext-axi's method names, so scenario code runs unchanged over the
cocotb AXI4-Lite backend in simulation and over a board link under plain asyncio.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Callable

from dpuv.regs.model import Block, Register


class BusError(RuntimeError):
    """The bus answered an access with an error response (SLVERR or DECERR)."""

    def __init__(self, operation: str, address: int, response: str):
        super().__init__(f"{operation} at {address:#06x} answered {response}")
        self.operation = operation
        self.address = address
        self.response = response


class PollTimeout(TimeoutError):
    pass


class RegisterAccess(ABC):
    """Byte-addressed, little-endian register space."""

    @abstractmethod
    async def read(self, address: int, length: int) -> bytes:
        """Read `length` bytes from `address`; raise BusError on an error response."""

    @abstractmethod
    async def write(self, address: int, data: bytes) -> None:
        """Write `data` at `address`; raise BusError on an error response."""

    @abstractmethod
    async def cycles(self, count: int) -> None:
        """Let `count` cycles of the design's clock pass."""

    async def _read_int(self, address: int, length: int) -> int:
        return int.from_bytes(await self.read(address, length), "little")

    async def _write_int(self, address: int, value: int, length: int) -> None:
        await self.write(address, value.to_bytes(length, "little"))

    async def read_byte(self, address: int) -> int:
        return await self._read_int(address, 1)

    async def read_word(self, address: int) -> int:
        return await self._read_int(address, 2)

    async def read_dword(self, address: int) -> int:
        return await self._read_int(address, 4)

    async def read_qword(self, address: int) -> int:
        return await self._read_int(address, 8)

    async def write_byte(self, address: int, value: int) -> None:
        await self._write_int(address, value, 1)

    async def write_word(self, address: int, value: int) -> None:
        await self._write_int(address, value, 2)

    async def write_dword(self, address: int, value: int) -> None:
        await self._write_int(address, value, 4)

    async def write_qword(self, address: int, value: int) -> None:
        await self._write_int(address, value, 8)

    def window(self, base: int, block: Block) -> "BlockWindow":
        return BlockWindow(self, base, block)


class BlockWindow:
    """One register block at a base address, accessed by register and field name."""

    def __init__(self, bus: RegisterAccess, base: int, block: Block):
        self.bus = bus
        self.base = base
        self.block = block

    def _register(self, name: str) -> Register:
        return self.block[name]

    async def read_register(self, name: str) -> int:
        register = self._register(name)
        return await self.bus._read_int(self.base + register.offset, register.width // 8)

    async def write_register(self, name: str, value: int) -> None:
        register = self._register(name)
        await self.bus._write_int(self.base + register.offset, value, register.width // 8)

    async def read_field(self, register_name: str, field_name: str) -> int:
        field = self._register(register_name).field(field_name)
        return field.extract(await self.read_register(register_name))

    async def write_field(self, register_name: str, field_name: str, value: int) -> None:
        """Read-modify-write of one field; fields that only pulse on write are written as 0."""
        register = self._register(register_name)
        current = await self.read_register(register_name)
        for other in register.fields:
            if other.software_access == "w":
                current = other.insert(current, 0)
        await self.write_register(register_name, register.field(field_name).insert(current, value))

    async def poll(
        self,
        register_name: str,
        condition: Callable[[int], bool],
        timeout_cycles: int,
        interval_cycles: int = 16,
    ) -> int:
        """Read until `condition(value)` holds; raise PollTimeout after `timeout_cycles`."""
        waited = 0
        while True:
            value = await self.read_register(register_name)
            if condition(value):
                return value
            if waited >= timeout_cycles:
                raise PollTimeout(
                    f"{self.block.name}.{register_name} at {self.base + self._register(register_name).offset:#06x} "
                    f"still {value:#x} after {timeout_cycles} cycles"
                )
            await self.bus.cycles(interval_cycles)
            waited += interval_cycles


class OffsetAccess(RegisterAccess):
    """A window of another bus seen from its own address 0: one node's register bus inside a
    cluster's, where node i's window starts at i times the window size."""

    def __init__(self, bus: RegisterAccess, base: int):
        self.bus = bus
        self.base = base

    async def read(self, address: int, length: int) -> bytes:
        return await self.bus.read(self.base + address, length)

    async def write(self, address: int, data: bytes) -> None:
        await self.bus.write(self.base + address, data)

    async def cycles(self, count: int) -> None:
        await self.bus.cycles(count)
