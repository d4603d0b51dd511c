# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Counters against spec targets: read over the register interface, compare, record, report.

A figure passes when the RTL counter meets its target in targets.toml and agrees with what the
testbench measured on its own; either failing is reported, so a broken counter cannot hide a
slow design and a fast design cannot hide a broken counter.
"""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import asdict, dataclass
from pathlib import Path

from dpuv.regs.access import BlockWindow

TARGETS_FILE = Path(__file__).with_name("targets.toml")

COUNTER_REGISTERS = (
    "CYCLES", "BEATS", "BYTES", "PACKETS", "STALL_CYCLES", "IDLE_CYCLES", "ACTIVE_CYCLES", "EVENTS",
    "LATENCY_MIN", "LATENCY_MAX", "LATENCY_SUM", "LATENCY_COUNT", "LATENCY_ERRORS",
)


def load_targets() -> dict[str, dict[str, dict]]:
    with TARGETS_FILE.open("rb") as targets:
        return tomllib.load(targets)


async def clear_counters(window: BlockWindow) -> None:
    await window.write_register("CTRL", window.block["CTRL"].field("clear").insert(1, 1))


async def read_counters(window: BlockWindow) -> dict[str, int]:
    """Snapshot every counter of a perf block, then read the snapshot."""
    ctrl = window.block["CTRL"]
    await window.write_register("CTRL", ctrl.field("snapshot").insert(ctrl.field("enable").insert(0, 1), 1))
    return {name.lower(): await window.read_register(name) for name in COUNTER_REGISTERS}


@dataclass
class Figure:
    engine: str
    metric: str
    unit: str
    counter_value: float
    testbench_value: float
    target: float
    bound: str
    agrees: bool
    meets_target: bool
    context: str = ""

    @property
    def passed(self) -> bool:
        return self.agrees and self.meets_target

    def explain(self) -> str:
        problems = []
        if not self.agrees:
            problems.append(f"counter {self.counter_value:g} disagrees with testbench {self.testbench_value:g}")
        if not self.meets_target:
            relation = "below" if self.bound == "min" else "above"
            problems.append(f"{self.counter_value:g} {self.unit} is {relation} the {self.bound} target {self.target:g}")
        return f"{self.engine}.{self.metric}: " + ("; ".join(problems) or "ok")


def compare(engine: str, metric: str, counter_value: float, testbench_value: float,
            tolerance: float = 0.0, context: str = "") -> Figure:
    target = load_targets()[engine][metric]
    meets = counter_value >= target["value"] if target["bound"] == "min" else counter_value <= target["value"]
    agrees = abs(counter_value - testbench_value) <= tolerance
    return Figure(engine, metric, target["unit"], counter_value, testbench_value, target["value"],
                  target["bound"], agrees, meets, context)


def check(engine: str, metric: str, counter_value: float, testbench_value: float,
          tolerance: float = 0.0, context: str = "") -> Figure:
    """compare() and record(), then fail the test with the explanation if the figure fails."""
    figure = compare(engine, metric, counter_value, testbench_value, tolerance, context)
    record(figure)
    assert figure.passed, figure.explain()
    return figure


def record(figure: Figure) -> None:
    """Append the figure to the run's perf file (set by the runner), for the summary table."""
    path = os.environ.get("DPUV_PERF_FILE")
    if not path:
        return
    perf_file = Path(path)
    figures = json.loads(perf_file.read_text()) if perf_file.exists() else []
    figures.append(asdict(figure))
    perf_file.parent.mkdir(parents=True, exist_ok=True)
    perf_file.write_text(json.dumps(figures, indent=2))


def format_table(figures: list[dict]) -> str:
    header = ("figure", "context", "counter", "testbench", "target", "result")
    rows = []
    for figure in figures:
        comparison = ">=" if figure["bound"] == "min" else "<="
        result = "PASS" if figure["agrees"] and figure["meets_target"] else (
            "FAIL" if figure["agrees"] else "MISMATCH")
        rows.append((
            f"{figure['engine']}.{figure['metric']}",
            figure.get("context", ""),
            f"{figure['counter_value']:.4g} {figure['unit']}",
            f"{figure['testbench_value']:.4g}",
            f"{comparison} {figure['target']:g}",
            result,
        ))
    widths = [max(len(str(row[column])) for row in (header, *rows)) for column in range(len(header))]
    lines = ["  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)) for row in (header, *rows)]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines)
