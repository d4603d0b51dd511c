# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""One JUnit case per cocotb test: the run records become a cocotb suite beside pytest's cases,
named by bench, simulator, parameters and seed, with failures that say how to reproduce them;
the readers of the pytest cases (durations, shard merging) do not see it."""

from xml.etree import ElementTree

from dpuv.harness import cocotb_junit, runner, shards
from dpuv.harness.runner import RunResult

PYTEST_JUNIT = """<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="2">
<testcase classname="tests.test_benches" name="test_bench[crc32-verilator]" time="3.5"/>
<testcase classname="tests.test_benches" name="test_bench[crc32-icarus]" time="9.0"><failure message="x"/></testcase>
</testsuite></testsuites>"""


def _runs() -> list[RunResult]:
    passing = RunResult("crc32", "verilator", {"DATA_WIDTH": 64}, 7)
    passing.outcomes = [runner.TestOutcome("known_answer", True, "", 0.25, 1200.0), runner.TestOutcome("burst", True, "", 0.5, 900.0)]
    failing = RunResult("crc32", "icarus", {"DATA_WIDTH": 64}, 7)
    failing.outcomes = [runner.TestOutcome("known_answer", False, "crc 0x1 != 0x2", 1.0, 1200.0)]
    broken = RunResult("roce_pair", "icarus", {"DATA_WIDTH": 512}, 3)
    broken.error = "the build failed: see build.log"
    return [passing, failing, broken]


def test_every_cocotb_test_becomes_a_case_with_its_bench_simulator_parameters_and_seed(tmp_path):
    junit = tmp_path / "junit.xml"
    junit.write_text(PYTEST_JUNIT)
    assert cocotb_junit.append(junit, _runs()) == 4
    suites = {suite.get("name"): suite for suite in ElementTree.parse(junit).getroot()}
    cocotb = suites["cocotb"]
    assert (cocotb.get("tests"), cocotb.get("failures"), cocotb.get("errors")) == ("4", "1", "1")
    cases = {(case.get("classname"), case.get("name")): case for case in cocotb.iter("testcase")}
    assert {("cocotb.crc32.verilator", "known_answer[DATA_WIDTH64-seed7]"),
            ("cocotb.crc32.verilator", "burst[DATA_WIDTH64-seed7]")} < set(cases)
    failure = next(case for (classname, _), case in cases.items() if classname == "cocotb.crc32.icarus").find("failure")
    assert "crc 0x1 != 0x2" in failure.get("message")
    assert "reproduce: make sim TB=crc32 SIM=icarus SEED=7" in failure.text
    errored = next(case for (classname, _), case in cases.items() if classname == "cocotb.roce_pair.icarus")
    assert errored.find("error").get("message") == "the build failed: see build.log"


def test_the_pytest_cases_are_read_as_before_and_the_suite_is_replaced_not_repeated(tmp_path):
    junit = tmp_path / "junit.xml"
    junit.write_text(PYTEST_JUNIT)
    before = shards.outcomes([junit])
    cocotb_junit.append(junit, _runs())
    cocotb_junit.append(junit, _runs()[:1])
    assert shards.outcomes([junit]) == before
    assert shards.durations_from_junit([junit]) == {"tests/test_benches.py::test_bench[crc32-verilator]": 3.5,
                                                    "tests/test_benches.py::test_bench[crc32-icarus]": 9.0}
    names = [suite.get("name") for suite in ElementTree.parse(junit).getroot()]
    assert names.count("cocotb") == 1
    assert cocotb_junit.append(junit, []) == 0
