# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The summary printed after a regression: tests per simulator, seeds, counters against targets."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

from dpuv.harness.perf import format_table
from dpuv.harness import runner
from dpuv.harness.runner import RunResult


def recorded_runs(results_root: Path) -> list[RunResult]:
    """Every bench run a suite recorded under results_root/runs (one run.json per bench, parameter
    set, simulator and seed)."""
    results = []
    for record in sorted((results_root / "runs").glob("**/run.json")):
        data = json.loads(record.read_text())
        result = RunResult(data["bench"], data["simulator"], data["parameters"], data["seed"])
        result.outcomes = [runner.TestOutcome(t["name"], t["passed"], t["message"], t.get("seconds", 0.0),
                                              t.get("sim_time_ns", 0.0), t.get("module", "")) for t in data["tests"]]
        result.error = data["error"]
        result.perf_file = data["perf_file"]
        results.append(result)
    return results


def recorded_figures(results: list[RunResult]) -> list[dict]:
    """Every performance figure the runs recorded, each with its simulator in its context."""
    figures = []
    for result in results:
        if result.perf_file and Path(result.perf_file).exists():
            for figure in json.loads(Path(result.perf_file).read_text()):
                figure["context"] = f"{result.simulator} {figure.get('context', '')}".strip()
                figures.append(figure)
    return figures


def tests_per_simulator(results: list[RunResult]) -> dict[str, tuple[int, int]]:
    """simulator -> (cocotb tests run, passed), simulators in name order."""
    per_simulator: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for result in results:
        counts = per_simulator[result.simulator]
        counts[0] += len(result.outcomes)
        counts[1] += sum(outcome.passed for outcome in result.outcomes)
    return {simulator: (ran, passed) for simulator, (ran, passed) in sorted(per_simulator.items())}


def summary(results: list[RunResult], elapsed: float | None = None, with_closing_line: bool = True) -> str:
    """with_closing_line adds the plain 'N passed, N failed' line that ends a `make sim` run."""
    lines = ["", "=" * 72, "dpuv simulation summary"]
    for simulator, (ran, passed) in tests_per_simulator(results).items():
        lines.append(f"  {simulator}: {ran} cocotb tests run, {passed} passed")
    lines.append("  seeds:")
    for result in sorted(results, key=lambda r: (r.simulator, r.bench, runner.parameter_slug(r.parameters))):
        lines.append(f"    {result.simulator:9} {result.bench:18} {runner.parameter_slug(result.parameters):42} {result.seed}")
    if elapsed is not None:
        lines.append(f"  time: {elapsed:.0f} s")
    figures = recorded_figures(results)
    if figures:
        lines += ["", "performance counters against spec targets (src/dpuv/harness/targets.toml):", format_table(figures)]
    failures = [result.failure_report() for result in results if not result.passed]
    if failures:
        lines += ["", "FAILURES:", *failures]
    if with_closing_line:
        lines.append(closing_line(results))
    return "\n".join(lines)


def closing_line(results: list[RunResult]) -> str:
    ran = sum(len(result.outcomes) for result in results)
    passed = sum(sum(outcome.passed for outcome in result.outcomes) for result in results)
    return f"{passed} passed, {ran - passed} failed"
