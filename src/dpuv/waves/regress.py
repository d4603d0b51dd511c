# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Waveform regression: directed tests at fixed seeds, their interface signals tabulated and
compared cycle by cycle with reviewed goldens.

`check` reports the first differing cycle and signal with context, draws the diverging window
(golden above current) and keeps the failing run's FST; `update` rewrites the goldens on purpose.
Each area keeps its scenarios in tb/<area>/manifest.toml (`[wave.<name>]` tables) and their
goldens in tb/<area>/waves/<name>.txt.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from dpuv.harness import benches, runner, toolchain
from dpuv.waves import diff as wavediff, plot as waveplot
from dpuv.waves.table import SignalSpec, WaveTable, format_table, parse_table, sample

FAILURES_DIR = runner.RESULTS_ROOT / "waves"
# Goldens are recorded on this simulator and must hold on every other one.
RECORDING_SIMULATOR = "verilator"


@dataclass(frozen=True)
class Scenario:
    name: str
    bench: str
    parameters: dict[str, int]
    testcase: str
    seed: int
    cycles: int
    signals: tuple[str, ...]
    description: str
    golden_path: Path
    # Optional: the bench's clock and reset, and where cycle 0 is (lead cycles before the first
    # cycle start_at reads 1, for a window deep into a run)
    clock: str = "clk"
    reset: str = "rst"
    start_at: str | None = None
    lead: int = 0


@dataclass
class Outcome:
    scenario: Scenario
    simulator: str
    difference: wavediff.Difference | None = None
    report: str = ""
    picture: Path | None = None
    kept_waves: Path | None = None
    error: str = ""

    @property
    def passed(self) -> bool:
        return self.difference is None and not self.error


_SCENARIO_KEYS = {"bench", "parameters", "testcase", "seed", "cycles", "signals", "description"}
_OPTIONAL_KEYS = {"clock", "reset", "start_at", "lead"}


def load_scenarios(areas: tuple[benches.Area, ...] = benches.AREAS) -> list[Scenario]:
    scenarios = []
    for area in areas:
        for name, entry in area.manifest.get("wave", {}).items():
            if not _SCENARIO_KEYS <= set(entry) <= _SCENARIO_KEYS | _OPTIONAL_KEYS:
                raise benches.ManifestError(f"{area.folder / benches.MANIFEST_NAME}: wave scenario {name} needs "
                                            f"{sorted(_SCENARIO_KEYS)} and may have {sorted(_OPTIONAL_KEYS)}; "
                                            f"got {sorted(entry)}")
            optional = {key: entry[key] for key in _OPTIONAL_KEYS if key in entry}
            scenarios.append(Scenario(name, entry["bench"], entry["parameters"], entry["testcase"], entry["seed"],
                                      entry["cycles"], tuple(entry["signals"]), entry["description"],
                                      area.folder / "waves" / f"{name}.txt", **optional))
    return scenarios


def record(scenario: Scenario, simulator: str, bench: benches.Bench | None = None) -> tuple[WaveTable, Path]:
    """Run the scenario with waves and tabulate it. `bench` may replace the registered one
    (a mutated RTL copy, say)."""
    bench = bench or benches.find(scenario.bench)
    # Every scenario of a bench writes the same waveform file of the same wave build: one at a time
    with runner.build_in_use(runner.build_dir(bench, scenario.parameters, simulator, waves=True)):
        result = runner.run(bench, scenario.parameters, simulator, seed=scenario.seed, waves=True,
                            testcase=scenario.testcase, record=False)
        if not result.outcomes:
            raise RuntimeError(f"scenario {scenario.name} did not run: {result.failure_report()}")
        table = sample(result.waves, bench.toplevel, [SignalSpec.parse(text) for text in scenario.signals],
                       scenario.cycles, scenario.clock, scenario.reset, scenario.start_at, scenario.lead)
        # the scenario's own copy, which the next scenario of the bench does not overwrite
        waves = Path(shutil.copyfile(result.waves, result.waves.with_name(f"{scenario.name}.fst")))
    table.comments = [
        f"{scenario.name}: {scenario.description}",
        f"bench {scenario.bench} {runner.parameter_slug(scenario.parameters)}, test {scenario.testcase}, "
        f"seed {scenario.seed}, {scenario.cycles} cycles from "
        + (f"{scenario.lead} before {scenario.start_at} first reads 1" if scenario.start_at
           else "the first edge after reset"),
        "regenerate with `make waves-update` and review the diff like code",
    ]
    return table, waves


def check(scenario: Scenario, simulator: str, bench: benches.Bench | None = None) -> Outcome:
    outcome = Outcome(scenario, simulator)
    if not scenario.golden_path.exists():
        outcome.error = f"no golden {scenario.golden_path.name}; record it with `make waves-update`"
        return outcome
    golden = parse_table(scenario.golden_path.read_text())
    current, waves = record(scenario, simulator, bench)
    outcome.difference = wavediff.first_difference(golden, current)
    if outcome.difference is not None:
        stem = f"{scenario.name}-{simulator}" + (f"-{bench.name}" if bench else "")
        outcome.report = wavediff.context(golden, current, outcome.difference)
        outcome.picture = waveplot.draw(golden, current, outcome.difference, FAILURES_DIR / f"{stem}.png")
        FAILURES_DIR.mkdir(parents=True, exist_ok=True)
        outcome.kept_waves = Path(shutil.copyfile(waves, FAILURES_DIR / f"{stem}.fst"))
    return outcome


def update(scenario: Scenario) -> Path:
    table, _ = record(scenario, RECORDING_SIMULATOR)
    scenario.golden_path.parent.mkdir(parents=True, exist_ok=True)
    scenario.golden_path.write_text(format_table(table))
    return scenario.golden_path


def describe(outcome: Outcome) -> str:
    head = f"{outcome.scenario.name} on {outcome.simulator}: "
    if outcome.error:
        return head + "ERROR " + outcome.error
    if outcome.passed:
        return head + "matches its golden"
    return "\n".join([
        head + f"DIFFERS: {outcome.difference}",
        outcome.report,
        f"picture: {outcome.picture}",
        f"waves:   {outcome.kept_waves}",
    ])


def simulators_to_check() -> list[str]:
    return [simulator.name for simulator in toolchain.available()]
