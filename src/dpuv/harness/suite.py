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

import os
import re
import subprocess
import sys
from pathlib import Path

from dpuv import PROJECT_ROOT
from dpuv.harness import report, shards

RESULTS = Path("results")


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
    print(" ".join(command[1:]) + (f"  (DPUV_TIER=regress, DPUV_SEEDS={seeds})" if regress else ""), flush=True)
    return subprocess.run(command, cwd=PROJECT_ROOT, env=environment).returncode


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
    except shards.ShardError as error:
        print(f"merge: {error}", file=sys.stderr)
        return 1
    runs = [run_result for folder in shard_dirs for run_result in report.recorded_runs(folder)]
    print(report.summary(runs, with_closing_line=False))
    statuses = {status: sum(outcome.status == status for outcome in outcomes)
                for status in ("passed", "failed", "error", "skipped")}
    print(f"merged {len(shard_dirs)} of {max(counts)} shards into {output / 'junit.xml'}: {len(outcomes)} pytest "
          f"cases, " + ", ".join(f"{count} {status}" for status, count in statuses.items()))
    return 0 if statuses["failed"] == statuses["error"] == 0 else 1


def durations(junit_files: list[Path]) -> int:
    written = shards.write_durations([Path(junit) for junit in junit_files])
    print(f"wrote {shards.DURATIONS_FILE.relative_to(PROJECT_ROOT)}: {len(written)} tests, "
          f"{sum(written.values()) / 60:.1f} minutes in all")
    return 0
