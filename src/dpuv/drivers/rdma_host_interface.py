# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The RDMA engine's structures in host memory (send and receive WQEs, completion entries) and the
codes they carry, from their one table, rtl/rdma/host_interface.toml.

The driver packs and unpacks entries with `STRUCTURES`; the RTL reads the same facts from the
Verilog include this module generates, and docs/rdma.md shows the table this module writes into
it. `check()` regenerates both and reports what is stale, so the three cannot drift apart.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from dpuv import PROJECT_ROOT

TABLE = "rtl/rdma/host_interface.toml"
VERILOG_INCLUDE = "rtl/rdma/generated/rdma_host_interface.vh"
DOCS = "docs/rdma.md"
# The generated part of DOCS lies between these two lines
DOCS_BEGIN = f"<!-- generated from {TABLE} by `make regs`; do not edit -->"
DOCS_END = "<!-- end of the generated host interface -->"


@dataclass(frozen=True)
class EntryField:
    """One field of an entry: `size` whole bytes at `offset`, or the one bit `bit` of byte `offset`."""
    name: str
    offset: int
    size: int = 0
    bit: int | None = None
    codes: str = ""

    @property
    def lsb(self) -> int:
        return self.offset * 8 + (self.bit or 0)

    @property
    def width(self) -> int:
        return 1 if self.bit is not None else self.size * 8

    def get(self, entry: bytes) -> int:
        return (int.from_bytes(entry, "little") >> self.lsb) & ((1 << self.width) - 1)

    def put(self, entry: int, value: int) -> int:
        if not 0 <= value < (1 << self.width):
            raise ValueError(f"{self.name} is {self.width} bits wide; {value:#x} does not fit")
        return entry | (value << self.lsb)


@dataclass(frozen=True)
class Structure:
    key: str
    title: str
    macro: str
    size: int
    ring: str
    fields: tuple[EntryField, ...]

    def __getitem__(self, name: str) -> EntryField:
        for field in self.fields:
            if field.name == name:
                return field
        raise KeyError(f"{self.title} has no field {name!r}; it has: {', '.join(f.name for f in self.fields)}")

    def pack(self, **values: int) -> bytes:
        """An entry with these fields set and every other byte zero."""
        entry = 0
        for name, value in values.items():
            entry = self[name].put(entry, value)
        return entry.to_bytes(self.size, "little")

    def unpack(self, entry: bytes) -> dict[str, int]:
        if len(entry) < self.size:
            raise ValueError(f"a {self.title} is {self.size} bytes; got {len(entry)}")
        return {field.name: field.get(entry[:self.size]) for field in self.fields}


@dataclass(frozen=True)
class Codes:
    key: str
    title: str
    macro: str
    values: dict[str, int]


def _load(path: Path = PROJECT_ROOT / TABLE) -> tuple[dict[str, Structure], dict[str, Codes]]:
    with path.open("rb") as file:
        table = tomllib.load(file)
    structures = {}
    for key, entry in table["structures"].items():
        fields = tuple(EntryField(field["name"], field["offset"], field.get("bytes", 0), field.get("bit"),
                                  field.get("codes", "")) for field in entry["fields"])
        structure = Structure(key, entry["title"], entry["macro"], entry["bytes"], entry["ring"], fields)
        _check_structure(structure)
        structures[key] = structure
    codes = {key: Codes(key, entry["title"], entry["macro"], dict(entry["values"])) for key, entry in table["codes"].items()}
    return structures, codes


def _check_structure(structure: Structure) -> None:
    """Fields inside the entry, never on top of each other, and each either bytes or one bit; the
    entry a power of two bytes (the RTL finds entry k of a ring k sizes past its base by a shift)."""
    if structure.size < 1 or structure.size & (structure.size - 1):
        raise ValueError(f"{TABLE}: a {structure.title} must be a power of two bytes, not {structure.size}")
    taken = 0
    for field in structure.fields:
        if (field.bit is None) == (field.size == 0) or (field.bit is not None and not 0 <= field.bit < 8):
            raise ValueError(f"{TABLE}: {structure.title} field {field.name} needs either bytes or a bit from 0 to 7")
        bits = ((1 << field.width) - 1) << field.lsb
        if field.lsb + field.width > structure.size * 8 or taken & bits:
            raise ValueError(f"{TABLE}: {structure.title} field {field.name} overlaps another or leaves the entry")
        taken |= bits


STRUCTURES, CODES = _load()
SEND_WQE = STRUCTURES["send_wqe"]
RECEIVE_WQE = STRUCTURES["receive_wqe"]
COMPLETION = STRUCTURES["completion"]


def code_width(codes_key: str) -> int:
    """Codes are as wide as the field that carries them."""
    widths = {field.width for structure in STRUCTURES.values() for field in structure.fields if field.codes == codes_key}
    if len(widths) != 1:
        raise ValueError(f"{TABLE}: codes {codes_key} must be carried by fields of one width; found {sorted(widths)}")
    return widths.pop()


def verilog_include() -> str:
    lines = [
        f"// The RDMA engine's host-memory structures and codes, generated from {TABLE}; do not edit",
        "//",
        "// Bit offsets (_LSB) and widths (_WIDTH) of each field within its entry, entry sizes in bytes",
        "// (_BYTES), and the codes the fields carry. Text macros only: guarded, like roce_defs.vh.",
        "`ifndef RDMA_HOST_INTERFACE_VH",
        "`define RDMA_HOST_INTERFACE_VH",
    ]
    for structure in STRUCTURES.values():
        lines += ["", f"// {structure.title}, {structure.ring}", f"`define {structure.macro}_BYTES {structure.size}"]
        for field in structure.fields:
            name = f"{structure.macro}_{field.name.upper()}"
            lines += [f"`define {name}_LSB {field.lsb}", f"`define {name}_WIDTH {field.width}"]
    for codes in CODES.values():
        width = code_width(codes.key)
        # Two code sets may share a prefix (ibverbs' IBV_WC_ does), never a name
        clashes = [name for other in CODES.values() if other.key < codes.key and other.macro == codes.macro
                   for name in codes.values if name in other.values]
        if clashes:
            raise ValueError(f"{TABLE}: codes {codes.key} reuse the macro names {clashes}")
        lines += ["", f"// {codes.title}"]
        lines += [f"`define {codes.macro}_{name} {width}'d{value}" for name, value in codes.values.items()]
    lines += ["", "`endif", ""]
    return "\n".join(lines)


def _field_text(field: EntryField) -> str:
    where = f"{field.offset} bit {field.bit}" if field.bit is not None else (
        f"{field.offset}" if field.size == 1 else f"{field.offset}-{field.offset + field.size - 1}")
    text = f"{where} {field.name}"
    if field.codes:
        codes = CODES[field.codes]
        text += f" ({codes.title}: " + ", ".join(f"{value} {name}" for name, value in codes.values.items()) + ")"
    return text


def docs_table() -> str:
    lines = [DOCS_BEGIN, "| structure | layout (little endian, byte offsets) |", "| --- | --- |"]
    for structure in STRUCTURES.values():
        lines.append(f"| {structure.title}, {structure.size} B, {structure.ring} | "
                     + ", ".join(_field_text(field) for field in structure.fields) + " |")
    lines.append(DOCS_END)
    return "\n".join(lines)


def _docs_with_table(docs: str) -> str:
    if docs.count(DOCS_BEGIN) != 1 or docs.count(DOCS_END) != 1:
        raise ValueError(f"{DOCS} must hold the generated host-interface table once, between its two marker lines")
    before, rest = docs.split(DOCS_BEGIN)
    _, after = rest.split(DOCS_END)
    return before + docs_table() + after


def _outputs(root: Path) -> dict[Path, str]:
    return {root / VERILOG_INCLUDE: verilog_include(),
            root / DOCS: _docs_with_table((root / DOCS).read_text())}


def generate(root: Path = PROJECT_ROOT) -> list[Path]:
    written = []
    for path, text in _outputs(root).items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        written.append(path)
    return written


def check(root: Path = PROJECT_ROOT) -> list[str]:
    """The generated files that differ from a fresh generation."""
    return [str(path.relative_to(root)) for path, text in _outputs(root).items()
            if not path.exists() or path.read_text() != text]
