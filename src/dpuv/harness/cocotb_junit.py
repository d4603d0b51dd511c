# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""One JUnit test case per cocotb test, beside the pytest cases, so CI shows every test.

A pytest case runs a whole bench (every cocotb test of one parameter set on one simulator), so
pytest's JUnit alone shows a fraction of what ran. After the suite, the run records it wrote
(results/runs/**/run.json) become one more <testsuite name="cocotb"> in results/junit.xml:
a case per cocotb test, named by bench, simulator, parameters and seed, with the failure message
and the line that reproduces it. Readers of the pytest cases (durations, shard merging) skip it.
"""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

from dpuv.harness import runner
from dpuv.harness.runner import RunResult

SUITE_NAME = "cocotb"


def case_name(result: RunResult, test: str) -> str:
    return f"{test}[{runner.parameter_slug(result.parameters)}-seed{result.seed}]"


def testsuite(results: list[RunResult]) -> ElementTree.Element:
    suite = ElementTree.Element("testsuite", name=SUITE_NAME)
    counts = {"tests": 0, "failures": 0, "errors": 0}
    seconds = 0.0
    for result in sorted(results, key=lambda r: (r.bench, r.simulator, runner.parameter_slug(r.parameters), r.seed)):
        classname = f"{SUITE_NAME}.{result.bench}.{result.simulator}"
        if not result.outcomes:
            # The bench never reached its tests (a build or elaboration error): one case says so
            case = ElementTree.SubElement(suite, "testcase", classname=classname, name=case_name(result, "(bench)"),
                                          time="0")
            error = ElementTree.SubElement(case, "error", message=result.error or "no cocotb test ran")
            error.text = result.failure_report()
            counts["tests"] += 1
            counts["errors"] += 1
            continue
        for outcome in result.outcomes:
            case = ElementTree.SubElement(suite, "testcase", classname=classname, name=case_name(result, outcome.name),
                                          time=f"{outcome.seconds:.3f}")
            ElementTree.SubElement(ElementTree.SubElement(case, "properties"), "property",
                                   name="sim_time_ns", value=f"{outcome.sim_time_ns:.0f}")
            counts["tests"] += 1
            seconds += outcome.seconds
            if not outcome.passed:
                failure = ElementTree.SubElement(case, "failure", message=outcome.message or "failed")
                failure.text = f"{outcome.message}\nreproduce: {result.reproduce_command(outcome.name)}"
                counts["failures"] += 1
    suite.set("time", f"{seconds:.3f}")
    for name, count in counts.items():
        suite.set(name, str(count))
    return suite


def append(junit: Path, results: list[RunResult]) -> int:
    """Add (or replace) the cocotb suite in a JUnit file; returns how many cases it holds."""
    root = ElementTree.parse(junit).getroot() if junit.exists() else ElementTree.Element("testsuites")
    if root.tag == "testsuite":
        wrapper = ElementTree.Element("testsuites")
        wrapper.append(root)
        root = wrapper
    for old in [suite for suite in root if suite.get("name") == SUITE_NAME]:
        root.remove(old)
    suite = testsuite(results)
    root.append(suite)
    junit.parent.mkdir(parents=True, exist_ok=True)
    ElementTree.ElementTree(root).write(junit, encoding="utf-8", xml_declaration=True)
    return int(suite.get("tests"))


def pytest_suites(root: ElementTree.Element) -> list[ElementTree.Element]:
    """The suites of a JUnit file that pytest wrote (every one but the cocotb suite)."""
    suites = [root] if root.tag == "testsuite" else list(root)
    return [suite for suite in suites if suite.get("name") != SUITE_NAME]
