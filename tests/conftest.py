"""Suite-wide pytest set-up: a clean run record per session and the per-simulator summary."""

from __future__ import annotations

import json
import shutil

from dpuv.sim import report, runner, toolchain


def _is_controller(config) -> bool:
    return not hasattr(config, "workerinput")


def pytest_sessionstart(session):
    if _is_controller(session.config):
        shutil.rmtree(runner.RESULTS_ROOT / "runs", ignore_errors=True)


def _recorded_runs() -> list[runner.RunResult]:
    results = []
    for record in sorted((runner.RESULTS_ROOT / "runs").glob("**/run.json")):
        data = json.loads(record.read_text())
        result = runner.RunResult(data["bench"], data["simulator"], data["parameters"], data["seed"])
        result.outcomes = [runner.TestOutcome(t["name"], t["passed"], t["message"]) for t in data["tests"]]
        result.error = data["error"]
        result.perf_file = data["perf_file"]
        results.append(result)
    return results


def pytest_terminal_summary(terminalreporter, config):
    if not _is_controller(config):
        return
    results = _recorded_runs()
    if not results:
        return
    terminalreporter.write_line(report.summary(results, with_closing_line=False))
    ran = {result.simulator for result in results}
    for simulator in toolchain.SIMULATORS:
        if simulator not in ran:
            terminalreporter.write_line(f"  {simulator}: no cocotb test ran on it (not installed?)")
