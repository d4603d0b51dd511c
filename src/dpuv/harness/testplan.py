# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Testplans as data (tb/<area>/testplan.toml) and the check that holds the suite to them.

A plan lists testpoints (a behaviour in words, its stage, the cocotb tests that verify it, and
optionally the coverage items and formal proofs that prove it) and the covergroups its benches
sample, with a reason for every bin it waives. docs/verification.md describes the format.

`check_plan` needs no simulation: every planned test exists, every cocotb test of the area's
benches belongs to a testpoint, every coverage item, proof and waiver a plan names is declared.
`check_results` holds a suite run to the plans: every testpoint has a passing test, every planned
bin is hit or waived, and no waiver covers a bin that was hit (its reason would be wrong).
"""

from __future__ import annotations

import ast
import fnmatch
import json
import tomllib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from dpuv import PROJECT_ROOT
from dpuv.harness import benches, functional_coverage, report, suite, testplan_html
from dpuv.harness.functional_coverage import Bin, Item

PLAN_FILE = "testplan.toml"
STAGES = ("V1", "V2", "V3")
PROOFS_FILE = PROJECT_ROOT / "tb" / "formal" / "proofs.toml"


class TestplanError(ValueError):
    """A plan that does not parse or names something that does not exist."""


@dataclass(frozen=True)
class Testpoint:
    name: str
    stage: str
    description: str
    tests: tuple[str, ...]
    coverage: tuple[str, ...] = ()
    proofs: tuple[str, ...] = ()


@dataclass(frozen=True)
class Waiver:
    item: str
    # One pattern per crossed point: fnmatch ("*" matches any label), "a|b" either of two
    bin: tuple[str, ...]
    reason: str
    # "unreachable" (the default): the bin must never be hit, and a hit makes the waiver stale.
    # "unplanned": no test aims at the bin (only random traffic may reach it); hit or not, it
    # does not count, so a seed that reaches it fails nothing.
    kind: str = "unreachable"

    def matches(self, item: str, bin_: Bin) -> bool:
        return item == self.item and len(bin_) == len(self.bin) and all(
            any(fnmatch.fnmatchcase(label, choice) for choice in pattern.split("|"))
            for label, pattern in zip(bin_, self.bin))


@dataclass(frozen=True)
class Covergroup:
    name: str
    description: str
    waivers: tuple[Waiver, ...] = ()


@dataclass
class Plan:
    area: str
    description: str
    testpoints: list[Testpoint]
    covergroups: list[Covergroup]
    path: Path

    def waiver_for(self, item: str, bin_: Bin) -> Waiver | None:
        for group in self.covergroups:
            for waiver in group.waivers:
                if waiver.matches(item, bin_):
                    return waiver
        return None


_TESTPOINT_KEYS = {"name", "stage", "description", "tests", "coverage", "proofs"}
_COVERGROUP_KEYS = {"name", "description", "waive"}
_WAIVER_KEYS = {"item", "bin", "reason", "kind"}
WAIVER_KINDS = ("unreachable", "unplanned")


def _keys(entry: dict, allowed: set[str], where: str) -> None:
    unknown = set(entry) - allowed
    if unknown:
        raise TestplanError(f"{where}: unknown keys {sorted(unknown)} (allowed: {sorted(allowed)})")


def load(path: Path) -> Plan:
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as error:
        raise TestplanError(f"{path}: {error}") from None
    testpoints = []
    for entry in data.get("testpoint", []):
        where = f"{path}: testpoint {entry.get('name', '?')}"
        _keys(entry, _TESTPOINT_KEYS, where)
        if entry.get("stage") not in STAGES:
            raise TestplanError(f"{where}: stage {entry.get('stage')!r} is not one of {STAGES}")
        if not entry.get("tests"):
            raise TestplanError(f"{where}: no tests")
        testpoints.append(Testpoint(entry["name"], entry["stage"], entry.get("description", "").strip(),
                                    tuple(entry["tests"]), tuple(entry.get("coverage", ())),
                                    tuple(entry.get("proofs", ()))))
    covergroups = []
    for entry in data.get("covergroup", []):
        where = f"{path}: covergroup {entry.get('name', '?')}"
        _keys(entry, _COVERGROUP_KEYS, where)
        waivers = []
        for waiver in entry.get("waive", []):
            _keys(waiver, _WAIVER_KEYS, f"{where} waiver")
            if not waiver.get("reason", "").strip():
                raise TestplanError(f"{where}: waiver of {waiver.get('item')} {waiver.get('bin')} gives no reason")
            if waiver.get("kind", "unreachable") not in WAIVER_KINDS:
                raise TestplanError(f"{where}: waiver kind {waiver['kind']!r} is not one of {WAIVER_KINDS}")
            bin_ = waiver["bin"] if isinstance(waiver["bin"], list) else [waiver["bin"]]
            waivers.append(Waiver(waiver["item"], tuple(bin_), waiver["reason"].strip(),
                                  waiver.get("kind", "unreachable")))
        covergroups.append(Covergroup(entry["name"], entry.get("description", "").strip(), tuple(waivers)))
    names = [testpoint.name for testpoint in testpoints]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise TestplanError(f"{path}: testpoints named twice: {repeated}")
    plan_data = data.get("plan", {})
    return Plan(plan_data.get("area", path.parent.name), plan_data.get("description", ""), testpoints,
                covergroups, path)


def load_all() -> list[Plan]:
    return [load(path) for path in sorted((PROJECT_ROOT / "tb").glob(f"*/{PLAN_FILE}"))]


def planned_modules(area: str) -> list[str]:
    """The cocotb modules of an area's regression benches (tool benches are not planned)."""
    modules = {module for bench in benches.BENCHES if bench.area == area and bench.in_default_regression
               for module in bench.test_module.split(",")}
    return sorted(modules)


def cocotb_tests(area: str) -> list[str]:
    """`module.function` for every @cocotb.test function of the area's planned modules."""
    tests = []
    for module in planned_modules(area):
        source = PROJECT_ROOT / "tb" / area / f"{module}.py"
        for node in ast.parse(source.read_text()).body:
            if isinstance(node, ast.AsyncFunctionDef) and any(
                    "cocotb.test" in ast.unparse(decorator) for decorator in node.decorator_list):
                tests.append(f"{module}.{node.name}")
    return tests


def regress_only_modules(area: str) -> set[str]:
    """The area's planned modules that `make test` never runs: every bench of theirs keeps all its
    parameter sets for `make regress` (the long sweeps)."""
    modules: dict[str, bool] = {}
    for bench in benches.BENCHES:
        if bench.area == area and bench.in_default_regression:
            for module in bench.test_module.split(","):
                modules[module] = modules.get(module, True) and not bench.suite_parameter_sets(False)
    return {module for module, regress_only in modules.items() if regress_only}


def run_tier(results: Path) -> str:
    """The tier a run of the suite was ("test" or "regress", from its selection file); "sim" for
    runs of `make sim`, which run every parameter set."""
    selections = [json.loads(path.read_text()).get("tier", "test")
                  for path in [results / suite.SELECTION_FILE, *results.glob(f"shard-*/{suite.SELECTION_FILE}")]
                  if path.exists()]
    return selections[0] if selections else "sim"


def _proof_names() -> set[str]:
    return set(tomllib.loads(PROOFS_FILE.read_text()))


def check_plan(plan: Plan, declared_items: set[str] | None = None) -> list[str]:
    """What is wrong with a plan on its own; `declared_items`, when given, are the coverage item
    names the benches declared (from a run), which the plan's references must be among."""
    problems = []
    existing = set(cocotb_tests(plan.area))
    planned = {test for testpoint in plan.testpoints for test in testpoint.tests}
    problems += [f"{plan.area}: testpoint names {test}, which is not a cocotb test of the area's benches"
                 for test in sorted(planned - existing)]
    problems += [f"{plan.area}: {test} belongs to no testpoint" for test in sorted(existing - planned)]
    proofs = _proof_names()
    group_names = {group.name for group in plan.covergroups}
    for testpoint in plan.testpoints:
        problems += [f"{plan.area}: testpoint {testpoint.name} names proof {proof}, not in {PROOFS_FILE.name}"
                     for proof in testpoint.proofs if proof not in proofs]
        problems += [f"{plan.area}: testpoint {testpoint.name} names {item}, of no covergroup in the plan"
                     for item in testpoint.coverage if ".".join(item.split(".")[:2]) not in group_names]
    if declared_items is not None:
        references = [(f"testpoint {testpoint.name}", item) for testpoint in plan.testpoints for item in testpoint.coverage]
        references += [(f"a waiver of {group.name}", waiver.item) for group in plan.covergroups for waiver in group.waivers]
        problems += list(dict.fromkeys(f"{plan.area}: {where} names {item}, which no bench declared"
                                       for where, item in references if item not in declared_items))
    return problems


@dataclass
class TestpointStatus:
    testpoint: Testpoint
    passed: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    not_run: list[str] = field(default_factory=list)
    # Tests this tier does not run (`make test` leaves the long sweeps to `make regress`)
    other_tier: list[str] = field(default_factory=list)

    @property
    def held(self) -> bool:
        """Passed, or nothing of it belongs to this tier."""
        return bool(self.passed) or (not self.failed and not self.not_run and bool(self.other_tier))


@dataclass
class ItemStatus:
    item: Item
    waived: dict[Bin, Waiver] = field(default_factory=dict)
    # Waivers whose bin the suite hit: their reason no longer holds
    stale: dict[Bin, Waiver] = field(default_factory=dict)

    @property
    def holes(self) -> list[Bin]:
        return [bin_ for bin_ in self.item.missed() if bin_ not in self.waived]

    @property
    def closed(self) -> int:
        return len(self.item.hits) - len(self.holes) - len(self.stale)


@dataclass
class PlanStatus:
    plan: Plan
    testpoints: list[TestpointStatus]
    items: list[ItemStatus]
    problems: list[str]


def run_roots(results: Path) -> list[Path]:
    """The folders holding a run's records: the results folder itself, or the shards of a split
    run inside it (results/shard-k-of-N, each with its runs/)."""
    if (results / "runs").is_dir():
        return [results]
    return sorted(shard for shard in results.glob("shard-*") if (shard / "runs").is_dir())


def _outcomes_by_test(results: Path) -> dict[str, list[bool]]:
    """`module.function` -> pass/fail of every run of it (each parametrized option and set)."""
    outcomes: dict[str, list[bool]] = defaultdict(list)
    for result in (result for root in run_roots(results) for result in report.recorded_runs(root)):
        for outcome in result.outcomes:
            outcomes[f"{outcome.module}.{outcome.name.split('/', 1)[0]}"].append(outcome.passed)
    return outcomes


def check_results(plans: list[Plan], results: Path) -> list[PlanStatus]:
    outcomes = _outcomes_by_test(results)
    items = functional_coverage.merge(functional_coverage.files(results))
    declared = set(items)
    tier = run_tier(results)
    statuses = []
    for plan in plans:
        problems = check_plan(plan, declared)
        elsewhere = regress_only_modules(plan.area) if tier == "test" else set()
        testpoints = []
        for testpoint in plan.testpoints:
            status = TestpointStatus(testpoint)
            for test in testpoint.tests:
                runs = outcomes.get(test, [])
                if not runs and test.split(".", 1)[0] in elsewhere:
                    status.other_tier.append(test)
                else:
                    (status.not_run if not runs else status.failed if not all(runs) else status.passed).append(test)
            if not status.held:
                problems.append(f"{plan.area}: testpoint {testpoint.name} has no passing test "
                                f"(failed: {status.failed or 'none'}, not run: {status.not_run or 'none'})")
            testpoints.append(status)
        group_names = {group.name for group in plan.covergroups}
        item_statuses = []
        for item in items.values():
            if item.area != plan.area:
                continue
            if item.group not in group_names:
                unlisted = f"{plan.area}: the benches sample {item.group}, which the plan does not list"
                if unlisted not in problems:
                    problems.append(unlisted)
                continue
            status = ItemStatus(item)
            for bin_, count in item.hits.items():
                waiver = plan.waiver_for(item.name, bin_)
                if waiver is not None and (waiver.kind == "unplanned" or not count):
                    status.waived[bin_] = waiver
                elif waiver is not None:
                    status.stale[bin_] = waiver
            problems += [f"{plan.area}: {item.name} bin {'/'.join(bin_)} was hit but is waived ({waiver.reason})"
                         for bin_, waiver in status.stale.items()]
            problems += [f"{plan.area}: {item.name} bin {'/'.join(bin_)} is neither hit nor waived"
                         for bin_ in status.holes]
            item_statuses.append(status)
        statuses.append(PlanStatus(plan, testpoints, item_statuses, problems))
    return statuses


def summary(statuses: list[PlanStatus]) -> str:
    lines = [f"{'area':10} {'testpoints passed (V1 V2 V3)':34} {'bins closed':>12} {'waived':>7}"]
    for status in statuses:
        by_stage = {stage: [point for point in status.testpoints if point.testpoint.stage == stage] for stage in STAGES}
        stages = " ".join(f"{sum(1 for point in points if point.held)}/{len(points)}" for points in by_stage.values())
        bins = sum(len(item.item.hits) for item in status.items)
        closed = sum(item.closed for item in status.items)
        waived = sum(len(item.waived) for item in status.items)
        lines.append(f"{status.plan.area:10} {stages:34} {f'{closed}/{bins}' if bins else '-':>12} {waived:>7}")
    for status in statuses:
        lines += [f"  {problem}" for problem in status.problems]
    return "\n".join(lines)


def to_json(statuses: list[PlanStatus]) -> dict:
    def bins(item: ItemStatus) -> list[dict]:
        return [{"bin": list(bin_), "hits": count,
                 **({"waived": item.waived[bin_].reason} if bin_ in item.waived else {})}
                for bin_, count in item.item.hits.items()]
    return {status.plan.area: {
        "testpoints": [{"name": point.testpoint.name, "stage": point.testpoint.stage,
                        "description": point.testpoint.description, "passed": point.passed, "failed": point.failed,
                        "other_tier": point.other_tier,
                        "not_run": point.not_run, "coverage": list(point.testpoint.coverage),
                        "proofs": list(point.testpoint.proofs)} for point in status.testpoints],
        "coverage": {item.item.name: {"kind": item.item.kind, "bins": bins(item)} for item in status.items},
        "problems": status.problems,
    } for status in statuses}


def main(results: Path, output: Path) -> int:
    plans = load_all()
    if not plans:
        print("testplan: no tb/*/testplan.toml")
        return 1
    if not run_roots(results):
        print(f"testplan: no runs under {results}; run `make test` (or `make sim`, or the shards and `make merge`) first")
        return 1
    statuses = check_results(plans, results)
    page = write_report(statuses, output)
    print(summary(statuses))
    print(f"testplan: {page}")
    return 1 if any(status.problems for status in statuses) else 0


def write_report(statuses: list[PlanStatus], output: Path) -> Path:
    """testplan.json and testplan.html in `output` (beside the code coverage report's folder)."""
    output.mkdir(parents=True, exist_ok=True)
    (output / "testplan.json").write_text(json.dumps(to_json(statuses), indent=1) + "\n")
    page = output / "testplan.html"
    page.write_text(testplan_html.page(statuses))
    return page
