# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Spreading the suite over machines: duration-balanced shards, seeds per test, one merged result.

A shard `k/N` is the k-th of N groups that pytest-split cuts from the collected suite with the
committed durations file (tests/durations.json) and its least-duration algorithm, so N machines
(CI jobs, Slurm array tasks) together run every test of `make test` once, each about 1/N of the
time. Each shard keeps its JUnit file and run records under results/shard-k-of-N/, so shards run
one after another on one machine, or copied back from many, merge into one JUnit file and one
report (`dpuv-sim merge`). `dpuv-sim durations` refreshes the durations file from a run's JUnit.
"""

from __future__ import annotations

import json
import re
from collections import Counter
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path

from dpuv import PROJECT_ROOT
from dpuv.harness import cocotb_junit

DURATIONS_FILE = PROJECT_ROOT / "tests" / "durations.json"
SPLITTING_ALGORITHM = "least_duration"


class ShardError(ValueError):
    pass


@dataclass(frozen=True)
class Shard:
    index: int
    count: int

    @classmethod
    def parse(cls, text: str) -> "Shard":
        match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
        if not match or not 1 <= int(match.group(1)) <= int(match.group(2)):
            raise ShardError(f"SHARD must be k/N with 1 <= k <= N (the k-th of N shards), not {text!r}")
        return cls(int(match.group(1)), int(match.group(2)))

    @property
    def name(self) -> str:
        return f"shard-{self.index}-of-{self.count}"

    def pytest_arguments(self, durations: Path = DURATIONS_FILE) -> list[str]:
        return ["--splits", str(self.count), "--group", str(self.index), "--durations-path", str(durations),
                "--splitting-algorithm", SPLITTING_ALGORITHM]


def node_id(testcase: ElementTree.Element) -> str:
    """A JUnit testcase's pytest node id (tests/test_x.py::test_name[params])."""
    module, _, klass = testcase.get("classname", "").partition(".Test")
    path = module.replace(".", "/") + ".py"
    return "::".join([path, *([f"Test{klass}"] if klass else []), testcase.get("name", "")])


def _testcases(junit_files: list[Path]):
    """The pytest cases of JUnit files (not the cocotb suite added beside them)."""
    for junit in junit_files:
        for suite in cocotb_junit.pytest_suites(ElementTree.parse(junit).getroot()):
            yield from suite.iter("testcase")


def durations_from_junit(junit_files: list[Path]) -> dict[str, float]:
    return {node_id(case): round(float(case.get("time", 0)), 3) for case in _testcases(junit_files)}


def read_durations(path: Path = DURATIONS_FILE) -> dict[str, float]:
    """The committed durations by pytest node id; empty when the file is absent."""
    return json.loads(path.read_text()) if path.exists() else {}


def write_durations(junit_files: list[Path], path: Path = DURATIONS_FILE) -> dict[str, float]:
    """The run's durations over the file's: tests the run did not hold (another tier's, or a
    mutant's other simulator) keep the figure they had."""
    durations = dict(sorted((read_durations(path) | durations_from_junit(junit_files)).items()))
    path.write_text(json.dumps(durations, indent=1) + "\n")
    return durations


def predicted_loads(node_ids: list[str], count: int, durations: dict[str, float]) -> list[float]:
    """Seconds each of `count` shards takes by the durations file, as pytest-split will cut them."""
    from pytest_split.algorithms import Algorithms

    @dataclass(frozen=True)
    class Item:
        nodeid: str

    groups = Algorithms[SPLITTING_ALGORITHM].value(count, [Item(node) for node in node_ids], durations)
    return [group.duration for group in groups]


@dataclass(frozen=True)
class Outcome:
    """One JUnit testcase, by node id."""
    node: str
    status: str  # passed, failed, error or skipped


def outcomes(junit_files: list[Path]) -> list[Outcome]:
    found = []
    for case in _testcases(junit_files):
        status = next((child.tag for child in case if child.tag in ("failure", "error", "skipped")), "passed")
        found.append(Outcome(node_id(case), {"failure": "failed"}.get(status, status)))
    return found


def merge_junit(junit_files: list[Path], output: Path) -> list[Outcome]:
    """Every shard's pytest cases in one JUnit file (one suite each, as the shards reported them);
    the cocotb suite is rebuilt from the shards' run records by the caller."""
    merged = ElementTree.Element("testsuites")
    for junit in junit_files:
        merged.extend(cocotb_junit.pytest_suites(ElementTree.parse(junit).getroot()))
    output.parent.mkdir(parents=True, exist_ok=True)
    ElementTree.ElementTree(merged).write(output, encoding="utf-8", xml_declaration=True)
    merged_outcomes = outcomes([output])
    repeated = [node for node, times in Counter(outcome.node for outcome in merged_outcomes).items() if times > 1]
    if repeated:
        raise ShardError(f"{len(repeated)} tests ran in more than one shard, e.g. {sorted(repeated)[0]}")
    return merged_outcomes
