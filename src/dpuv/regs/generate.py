# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Generate every artefact of the register maps from their SystemRDL source.

One source (rtl/**/regs/*.rdl) gives four outputs: the Verilog CSR block (PeakRDL-etana, which
both Icarus and Verilator accept), the Python register model the tests use, a C header for
board software, and Markdown documentation. `check()` regenerates into a scratch folder and
reports every committed file that differs, so stale copies fail the test suite.
"""

from __future__ import annotations

import filecmp
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from systemrdl import RDLCompiler
from systemrdl.node import AddrmapNode, FieldNode, RegNode

from dpuv import PROJECT_ROOT

# A block decodes a 4 KiB window unless its addrmap sets dpuv_window_address_bits (block_header.rdl)
DEFAULT_WINDOW_ADDRESS_BITS = 12
REGS_GLOB = "rtl/*/regs/*.rdl"


@dataclass(frozen=True)
class RegisterMap:
    source: str
    block: str
    verilog_dir: str
    window_address_bits: int

    @property
    def outputs(self) -> dict[str, str]:
        return {
            "verilog": f"{self.verilog_dir}/{self.block}_csr.sv",
            "python": f"src/dpuv/regs/maps/{self.block}.py",
            "c_header": f"sw/include/dpuv/{self.block}.h",
            "markdown": f"docs/regs/{self.block}.md",
        }


def discover() -> tuple[RegisterMap, ...]:
    """Every register block of every engine: each SystemRDL file under rtl/<engine>/regs/ that
    defines a top-level addrmap (block_header.rdl only defines the registers they share). Its
    CSR Verilog goes to rtl/<engine>/generated/."""
    maps = []
    for source in sorted(PROJECT_ROOT.glob(REGS_GLOB)):
        if not re.search(r"^\s*addrmap\s+\w+", source.read_text(), flags=re.M):
            continue
        top = _compile(source)
        bits = top.get_property("dpuv_window_address_bits", default=None) or DEFAULT_WINDOW_ADDRESS_BITS
        relative = source.relative_to(PROJECT_ROOT)
        maps.append(RegisterMap(str(relative), top.inst_name, str(relative.parent.parent / "generated"), bits))
    return tuple(maps)


def _compile(source: Path) -> AddrmapNode:
    compiler = RDLCompiler()
    compiler.compile_file(str(source))
    return compiler.elaborate().top


def _field_line(field: FieldNode) -> str:
    access = field.get_property("sw").name
    reset = field.get_property("reset")
    reset_text = "None" if reset is None or not isinstance(reset, int) else hex(reset)
    return f"            Field({field.inst_name!r}, {field.lsb}, {field.width}, {access!r}, {reset_text}),"


def _register_lines(register: RegNode) -> list[str]:
    description = (register.get_property("desc") or "").replace("\n", " ")
    lines = [
        "    Register(",
        f"        {register.inst_name!r}, {register.address_offset:#06x}, {register.get_property('regwidth')},",
        "        (",
    ]
    lines += [_field_line(field) for field in register.fields()]
    lines += ["        ),", f"        {description!r},", "    ),"]
    return lines


def _python_model(top: AddrmapNode, source: str) -> str:
    type_id = top.get_child_by_name("BLOCK_TYPE").get_child_by_name("id").get_property("reset")
    version = top.get_child_by_name("BLOCK_VERSION").get_child_by_name("version").get_property("reset")
    lines = [
        f'"""Register map of {top.inst_name}, generated from {source}; do not edit."""',
        "",
        "from dpuv.regs.model import Block, Field, Register",
        "",
        "REGISTERS = (",
    ]
    for register in top.registers():
        lines += _register_lines(register)
    lines += [
        ")",
        "",
        f"BLOCK = Block({top.inst_name!r}, {type_id:#010x}, {version:#010x}, {top.size:#x}, REGISTERS)",
        "",
    ]
    return "\n".join(lines)


def _peakrdl(*arguments: str) -> None:
    peakrdl = Path(sys.executable).parent / "peakrdl"
    # Run from the project root with relative paths: generated text must not name the checkout.
    subprocess.run([str(peakrdl), *arguments], check=True, capture_output=True, text=True, cwd=PROJECT_ROOT)


def generate(output_root: Path = PROJECT_ROOT) -> list[Path]:
    written = []
    for register_map in discover():
        source = register_map.source
        outputs = {kind: output_root / path for kind, path in register_map.outputs.items()}
        for path in outputs.values():
            path.parent.mkdir(parents=True, exist_ok=True)

        with tempfile.TemporaryDirectory() as scratch:
            _peakrdl(
                "etana", source, "-o", scratch,
                "--cpuif", "axi4-lite-flat",
                "--module-name", f"{register_map.block}_csr",
                "--addr-width", str(register_map.window_address_bits),
                "--err-if-bad-addr", "--err-if-bad-rw",
            )
            shutil.copyfile(Path(scratch) / f"{register_map.block}_csr.sv", outputs["verilog"])
        _peakrdl("c-header", source, "-o", str(outputs["c_header"]))
        _peakrdl("markdown", source, "-o", str(outputs["markdown"]))
        outputs["python"].write_text(_python_model(_compile(PROJECT_ROOT / source), source))
        written += outputs.values()
    return written


def check() -> list[str]:
    """Return the committed generated files that differ from a fresh generation."""
    stale = []
    with tempfile.TemporaryDirectory() as scratch:
        for fresh in generate(Path(scratch)):
            relative = fresh.relative_to(scratch)
            committed = PROJECT_ROOT / relative
            if not committed.exists() or not filecmp.cmp(fresh, committed, shallow=False):
                stale.append(str(relative))
    return stale
