# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Suite-wide pytest set-up: a clean run record per session and the per-simulator summary."""

from __future__ import annotations

import os
import shutil

import pytest

from dpuv.harness import report, runner, shards, toolchain


def _required_simulators() -> set[str]:
    return {name.strip() for name in os.environ.get("DPUV_REQUIRE_SIMULATORS", "").split(",") if name.strip()}


@pytest.fixture
def require_simulator():
    """Call with a simulator name (and waves=True when the test records FST): a missing one skips
    the test with the command that installs it, or fails it where the environment demands that
    simulator (CI sets DPUV_REQUIRE_SIMULATORS=verilator,icarus)."""
    def require(name: str, waves: bool = False) -> None:
        try:
            simulator = toolchain.find(name)
            if waves:
                toolchain.check_wave_support(simulator)
        except toolchain.ToolchainError as error:
            if name in _required_simulators():
                pytest.fail(f"{name} is required here: {error}")
            pytest.skip(str(error))
    return require


def pytest_collection_modifyitems(items):
    """Longest first, by the committed durations file (synthesis runs first among tests it does
    not know yet): with xdist handing out one test at a time (`--maxschedchunk 1`, set by the
    suite command), no worker is left running a long test alone at the end of the run."""
    durations = shards.read_durations()
    items.sort(key=lambda item: (-durations.get(item.nodeid, 0.0), item.get_closest_marker("synth") is None))


def _is_controller(config) -> bool:
    return not hasattr(config, "workerinput")


def pytest_sessionstart(session):
    # A collection alone (a shard check, say) runs nothing: it must not wipe another run's records
    if _is_controller(session.config) and not session.config.option.collectonly:
        shutil.rmtree(runner.RESULTS_ROOT / "runs", ignore_errors=True)


def pytest_terminal_summary(terminalreporter, config):
    if not _is_controller(config) or config.option.collectonly:
        return
    results = report.recorded_runs(runner.RESULTS_ROOT)
    if not results:
        return
    terminalreporter.write_line(report.summary(results, with_closing_line=False))
    ran = {result.simulator for result in results}
    for simulator in toolchain.SIMULATORS:
        if simulator not in ran:
            terminalreporter.write_line(f"  {simulator}: no cocotb test ran on it (not installed?)")
