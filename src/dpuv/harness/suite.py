# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The suite's tiers, shards and merge: what `make test`, `make regress`, `make merge` and
`make durations` run.

- `make test` runs every test once (one seed per bench case); `make regress` runs every bench
  case with SEEDS seeds (8 unless given), each failing seed reported with its reproduce line, and
  adds the parameter sets benches keep for it (`regress_only_parameter_sets`: the long sweeps).
- SHARD=k/N runs the k-th of N duration-balanced parts of either (dpuv.harness.shards), with its
  JUnit file and run records in results/shard-k-of-N/; `make merge` puts the shards' results
  back into one JUnit file (results/junit.xml) and one report, and says whether every shard of
  the split is there.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from dpuv import PROJECT_ROOT
from dpuv.harness import cocotb_junit, report, shards

RESULTS = Path("results")


def regress_tier() -> bool:
    """Whether this process runs inside `make regress` (DPUV_TIER=regress) rather than `make test`."""
    return os.environ.get("DPUV_TIER") == "regress"
# Beside each run's JUnit file: the tier, seeds and pytest arguments that chose its tests
SELECTION_FILE = "selection.json"


def outside_environment() -> dict[str, str]:
    """This process's environment without the settings of the run it may be part of (its results
    and build folders, tier, seeds, xdist worker): for a run or collection nested in a test."""
    return {name: value for name, value in os.environ.items()
            if not name.startswith(("DPUV_RESULTS_DIR", "DPUV_SEEDS", "DPUV_TIER", "DPUV_BUILD_DIR", "PYTEST_XDIST"))}


def collect(pytest_arguments: list[str], tier: str = "test", seeds: int = 1) -> list[str]:
    """The node ids a run of the suite with these arguments, tier and seeds holds (pytest
    --collect-only, with results of its own so that it cannot touch another run's records)."""
    environment = outside_environment()
    environment.update(DPUV_RESULTS_DIR=tempfile.mkdtemp(prefix="dpuv-collect-"), DPUV_TIER=tier,
                       DPUV_SEEDS=str(seeds))
    completed = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                                *pytest_arguments], cwd=PROJECT_ROOT, capture_output=True, text=True, env=environment)
    if completed.returncode != 0:
        raise shards.ShardError(f"collecting the suite failed:\n{completed.stdout[-2000:]}{completed.stderr[-2000:]}")
    return [line for line in completed.stdout.splitlines() if "::" in line]


def _check_complete(shard_dirs: list[Path], ran: list[str]) -> str:
    """Whether the shards ran exactly the suite they were cut from: collected again with the
    selection they recorded. Raises ShardError when they did not."""
    selections = set()
    for folder in shard_dirs:
        if not (folder / SELECTION_FILE).exists():
            raise shards.ShardError(f"{folder} has no {SELECTION_FILE}: not a shard of `make test` or `make regress`")
        selections.add((folder / SELECTION_FILE).read_text())
    if len(selections) != 1:
        raise shards.ShardError("the shards were cut from different suites (their selection files differ)")
    selection = json.loads(selections.pop())
    suite = collect(selection["pytest_arguments"], selection["tier"], selection["seeds"])
    missing, extra = sorted(set(suite) - set(ran)), sorted(set(ran) - set(suite))
    if missing or extra:
        raise shards.ShardError(f"the shards did not run exactly the suite: {len(missing)} of its tests missing "
                                f"{missing[:3]}, {len(extra)} not in it {extra[:3]}")
    return (f"the shards ran exactly the suite ({selection['tier']} tier, {selection['seeds']} seed(s) per bench "
            f"case): all {len(suite)} of its tests, each once")


def run(jobs: int, shard: shards.Shard | None, seeds: int, extra: list[str], results: Path = RESULTS,
        builds: Path | None = None, regress: bool = False) -> int:
    """pytest over tests/; results (JUnit, run records) in `results`, or its shard-k-of-N folder;
    builds in sim_build/ unless `builds` names another folder."""
    results = results / shard.name if shard else results
    environment = {**os.environ, "DPUV_RESULTS_DIR": str(results), "DPUV_SEEDS": str(seeds),
                   "DPUV_TIER": "regress" if regress else "test"}
    if builds is not None:
        environment["DPUV_BUILD_DIR"] = str(builds)
    # One test at a time to each worker: the tests come longest first (tests/conftest.py)
    command = [sys.executable, "-m", "pytest", "-n", str(jobs), "--maxschedchunk", "1",
               f"--junitxml={results / 'junit.xml'}",
               *(shard.pytest_arguments() if shard else []), *extra]
    (PROJECT_ROOT / results).mkdir(parents=True, exist_ok=True)
    # What the merge needs to collect the same suite and check the shards ran all of it
    (PROJECT_ROOT / results / SELECTION_FILE).write_text(json.dumps(
        {"tier": environment["DPUV_TIER"], "seeds": seeds, "pytest_arguments": extra}, indent=1) + "\n")
    print(" ".join(command[1:]) + (f"  (DPUV_TIER=regress, DPUV_SEEDS={seeds})" if regress else ""), flush=True)
    returncode = subprocess.run(command, cwd=PROJECT_ROOT, env=environment).returncode
    junit = PROJECT_ROOT / results / "junit.xml"
    if junit.exists():
        cases = cocotb_junit.append(junit, report.recorded_runs(PROJECT_ROOT / results))
        print(f"{junit}: the pytest cases and {cases} cocotb test cases", flush=True)
    return returncode


def merge(shard_dirs: list[Path], output: Path = RESULTS) -> int:
    """One JUnit file and one report from the shards' folders; fails when a shard of the split is
    missing, when two shards ran the same test, or when any test failed."""
    shard_dirs = sorted(Path(folder) for folder in shard_dirs)
    if not shard_dirs:
        print("merge: no shard results given (expected results/shard-k-of-N folders)", file=sys.stderr)
        return 2
    splits = {re.fullmatch(r"shard-(\d+)-of-(\d+)", folder.name) for folder in shard_dirs}
    if None in splits:
        print(f"merge: not shard folders: {[str(f) for f in shard_dirs]}", file=sys.stderr)
        return 2
    counts = {int(match.group(2)) for match in splits}
    present = {int(match.group(1)) for match in splits}
    missing = sorted(set(range(1, max(counts) + 1)) - present) if len(counts) == 1 else []
    if len(counts) != 1 or missing:
        print(f"merge: the shards do not make one whole split (of {sorted(counts)}; missing {missing})",
              file=sys.stderr)
        return 1
    junit_files = [folder / "junit.xml" for folder in shard_dirs]
    absent = [str(junit) for junit in junit_files if not junit.exists()]
    if absent:
        print(f"merge: no JUnit file in {absent}", file=sys.stderr)
        return 1
    try:
        outcomes = shards.merge_junit(junit_files, output / "junit.xml")
        completeness = _check_complete(shard_dirs, [outcome.node for outcome in outcomes])
    except shards.ShardError as error:
        print(f"merge: {error}", file=sys.stderr)
        return 1
    runs = [run_result for folder in shard_dirs for run_result in report.recorded_runs(folder)]
    cocotb_cases = cocotb_junit.append(output / "junit.xml", runs)
    print(report.summary(runs, with_closing_line=False))
    statuses = {status: sum(outcome.status == status for outcome in outcomes)
                for status in ("passed", "failed", "error", "skipped")}
    print(f"merged {len(shard_dirs)} of {max(counts)} shards into {output / 'junit.xml'}: {len(outcomes)} pytest "
          f"cases, " + ", ".join(f"{count} {status}" for status, count in statuses.items())
          + f"; and {cocotb_cases} cocotb test cases")
    print(completeness)
    return 0 if statuses["failed"] == statuses["error"] == 0 else 1


def durations(junit_files: list[Path]) -> int:
    written = shards.write_durations([Path(junit) for junit in junit_files])
    print(f"wrote {shards.DURATIONS_FILE.relative_to(PROJECT_ROOT)}: {len(written)} tests, "
          f"{sum(written.values()) / 60:.1f} minutes in all")
    return 0
