# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Find register blocks by walking the chain: on a dpuv register bus from the ID block at address 0,
in another register space (an NVMe controller's BAR0, whose address 0 the NVMe specification
owns) from the one address where that space's dpuv blocks begin."""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass

from dpuv.regs import maps
from dpuv.regs.access import BlockWindow, RegisterAccess
from dpuv.regs.maps import id_block
from dpuv.regs.model import Block

ID_BLOCK_ADDRESS = 0
MAGIC = id_block.BLOCK["MAGIC"].field("value").reset
# Every block whose register map is generated (one module per SystemRDL addrmap in dpuv.regs.maps)
KNOWN_BLOCKS = {module.BLOCK.type_id: module.BLOCK for module in
                (importlib.import_module(f"{maps.__name__}.{info.name}") for info in pkgutil.iter_modules(maps.__path__))}
MAX_BLOCKS = 256


class ChainError(RuntimeError):
    pass


@dataclass(frozen=True)
class FoundBlock:
    address: int
    type_id: int
    version: int
    model: Block | None

    @property
    def type_name(self) -> str:
        return self.type_id.to_bytes(4, "big").decode("ascii", errors="replace")

    def window(self, bus: RegisterAccess) -> BlockWindow:
        if self.model is None:
            raise ChainError(f"no register model for block type {self.type_name!r} at {self.address:#x}")
        return bus.window(self.address, self.model)


async def walk(bus: RegisterAccess) -> list[FoundBlock]:
    """Every block in chain order; refuses a bus without the dpuv ID block at address 0."""
    magic = await bus.read_dword(ID_BLOCK_ADDRESS + id_block.BLOCK["MAGIC"].offset)
    if magic != MAGIC:
        raise ChainError(f"no dpuv ID block at address 0: MAGIC reads {magic:#010x}, expected {MAGIC:#010x}")
    return await walk_from(bus, ID_BLOCK_ADDRESS)


async def walk_from(bus: RegisterAccess, address: int) -> list[FoundBlock]:
    """Every block of the chain that starts at `address`; the first must be a block this software knows."""
    found: list[FoundBlock] = []
    while True:
        type_id = await bus.read_dword(address + 0x0)
        model = KNOWN_BLOCKS.get(type_id)
        if model is None and not found:
            raise ChainError(f"no dpuv register block at {address:#x}: its type reads {type_id:#010x}")
        version = await bus.read_dword(address + 0x4)
        next_address = await bus.read_dword(address + 0x8)
        if model is not None and version >> 16 != model.version >> 16:
            raise ChainError(
                f"block {model.name} at {address:#x} has register-map version {version:#x}; "
                f"this software knows major version {model.version >> 16}"
            )
        found.append(FoundBlock(address, type_id, version, model))
        if next_address == 0:
            return found
        if next_address in (block.address for block in found) or len(found) >= MAX_BLOCKS:
            raise ChainError(f"register-block chain loops back to {next_address:#x}")
        address = next_address


def blocks_of_type(found: list[FoundBlock], block: Block) -> list[FoundBlock]:
    return [candidate for candidate in found if candidate.type_id == block.type_id]
