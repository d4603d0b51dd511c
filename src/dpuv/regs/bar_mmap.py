# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""PCIe BAR backend of the register access layer, on a Linux host: a card's BAR mapped from its
sysfs resource file (`/sys/bus/pci/devices/<domain:bus:dev.fn>/resource<N>`), so `dpuv bringup
--link pci://0000:03:00.0` walks the same chain and runs the same scenarios as over a UART.

Every access is a whole aligned 32-bit load or store (the register bus is AXI4-Lite of 32 bits;
a PCIe memory TLP of one dword with all byte enables): a wider access is split into dwords in
address order, a narrower one is a read of its dword (and, for a write, a read-modify-write of
it, which is how a CPU store narrower than the register reaches a 32-bit bus anyway). Loads and
stores go through a memoryview cast to 32-bit items, which CPython performs as one aligned
4-byte copy, so the root complex sees one dword per access, never bytes.

PCIe answers a read that fails (Unsupported Request, the card gone from the bus) with all ones
and gives posted writes no answer: there is no error to raise here. The chain walk stops at a
bad ID block, and `cycles` is wall time at the card's clock, as on the serial backend.
"""

from __future__ import annotations

import asyncio
import mmap
import os
import re
from pathlib import Path

from dpuv.regs.access import RegisterAccess

DWORD = 4
SYSFS_DEVICES = Path("/sys/bus/pci/devices")
# pci://0000:03:00.0 (BAR 0) or pci://0000:03:00.0/resource2; pci:///any/file maps that file
_ADDRESS = re.compile(r"^(?P<device>[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])(?:/(?P<resource>resource[0-5]))?$")


class BarError(OSError):
    """The BAR cannot be mapped, or an access falls outside it."""


def resource_path(url: str) -> Path:
    """The file a pci:// link maps: a device's BAR resource file in sysfs, or any file named by path."""
    rest = url.removeprefix("pci://")
    if rest.startswith("/"):
        return Path(rest)
    match = _ADDRESS.match(rest)
    if not match:
        raise BarError(f"{url}: expected pci://<domain:bus:device.function>[/resource<0-5>] "
                       f"(for example pci://0000:03:00.0) or pci:///path/to/file")
    return SYSFS_DEVICES / match["device"] / (match["resource"] or "resource0")


class MmapBarAccess(RegisterAccess):
    def __init__(self, path: Path, clock_hz: float = 250e6):
        try:
            descriptor = os.open(path, os.O_RDWR | os.O_SYNC)
        except OSError as error:
            raise BarError(f"cannot open the BAR {path}: {error.strerror}"
                           f"{' (root, or a udev rule granting the device, is needed)' if error.errno == 13 else ''}") from None
        try:
            size = os.fstat(descriptor).st_size
            if size < DWORD or size % DWORD:
                raise BarError(f"{path} is {size} bytes: not a BAR of whole 32-bit registers")
            self._map = mmap.mmap(descriptor, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
        finally:
            os.close(descriptor)
        self._dwords = memoryview(self._map).cast("I")
        self.path = path
        self.size = size
        self.clock_hz = clock_hz

    def _dword_indices(self, address: int, length: int) -> range:
        if address < 0 or length <= 0 or address + length > self.size:
            raise BarError(f"access of {length} bytes at {address:#x} is outside the {self.size:#x}-byte BAR {self.path}")
        return range(address // DWORD, (address + length + DWORD - 1) // DWORD)

    async def read(self, address: int, length: int) -> bytes:
        indices = self._dword_indices(address, length)
        data = b"".join(self._dwords[index].to_bytes(DWORD, "little") for index in indices)
        skip = address % DWORD
        return data[skip:skip + length]

    async def write(self, address: int, data: bytes) -> None:
        indices = self._dword_indices(address, len(data))
        skip = address % DWORD
        covered = bytearray(len(indices) * DWORD)
        # Only a partial first or last dword is read first; whole dwords are stored without a load
        if skip or (address + len(data)) % DWORD:
            for position, index in enumerate(indices):
                if position in (0, len(indices) - 1):
                    covered[position * DWORD:(position + 1) * DWORD] = self._dwords[index].to_bytes(DWORD, "little")
        covered[skip:skip + len(data)] = data
        for position, index in enumerate(indices):
            self._dwords[index] = int.from_bytes(covered[position * DWORD:(position + 1) * DWORD], "little")

    async def cycles(self, count: int) -> None:
        await asyncio.sleep(count / self.clock_hz)

    def close(self) -> None:
        self._dwords.release()
        self._map.close()
