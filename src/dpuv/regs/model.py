# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Register model types: what a generated register map (dpuv.regs.maps.*) is made of.

Plain data, no simulator: the same model serves cocotb tests, board bring-up and reports.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Field:
    name: str
    lsb: int
    width: int
    software_access: str
    reset: int | None

    @property
    def mask(self) -> int:
        return ((1 << self.width) - 1) << self.lsb

    def extract(self, register_value: int) -> int:
        return (register_value & self.mask) >> self.lsb

    def insert(self, register_value: int, field_value: int) -> int:
        if not 0 <= field_value < (1 << self.width):
            raise ValueError(f"field {self.name} is {self.width} bits wide; {field_value:#x} does not fit")
        return (register_value & ~self.mask) | (field_value << self.lsb)


@dataclass(frozen=True)
class Register:
    name: str
    offset: int
    width: int
    fields: tuple[Field, ...]
    description: str = ""

    def field(self, name: str) -> Field:
        for candidate in self.fields:
            if candidate.name == name:
                return candidate
        known = ", ".join(f.name for f in self.fields)
        raise KeyError(f"register {self.name} has no field {name!r}; it has: {known}")

    @property
    def reset(self) -> int | None:
        if any(f.reset is None for f in self.fields):
            return None
        value = 0
        for f in self.fields:
            value = f.insert(value, f.reset)
        return value


@dataclass(frozen=True)
class Block:
    """One register block: a chain member with a type id, a version and registers."""

    name: str
    type_id: int
    version: int
    size: int
    registers: tuple[Register, ...]

    def __getitem__(self, name: str) -> Register:
        for register in self.registers:
            if register.name == name:
                return register
        known = ", ".join(r.name for r in self.registers)
        raise KeyError(f"block {self.name} has no register {name!r}; it has: {known}")

    @property
    def type_name(self) -> str:
        return self.type_id.to_bytes(4, "big").decode("ascii")
