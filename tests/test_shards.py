# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The suite spread over machines: shards that together run exactly the suite, balanced by the
committed durations file, and a merge whose counts equal a whole run's."""

import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import pytest

from dpuv import PROJECT_ROOT
from dpuv.harness import shards, suite


def collected(*arguments, tier: str = "test") -> list[str]:
    return suite.collect(list(arguments), tier)


@pytest.mark.parametrize("text", ["0/2", "3/2", "1", "a/b", "1/0"])
def test_a_shard_is_k_of_n(text):
    with pytest.raises(shards.ShardError, match="k/N"):
        shards.Shard.parse(text)
    assert shards.Shard.parse(" 2/3 ") == shards.Shard(2, 3)


def test_two_shards_together_select_exactly_the_suite():
    whole = collected()
    parts = [collected(*shards.Shard(index, 2).pytest_arguments()) for index in (1, 2)]
    assert parts[0] and parts[1], "a shard selected nothing"
    assert not set(parts[0]) & set(parts[1]), "a test is in both shards"
    assert sorted(parts[0] + parts[1]) == sorted(whole)


@pytest.mark.parametrize("count", [2, 4])
def test_the_durations_file_balances_the_shards(count):
    """By the committed durations, the shards take within 20 % of each other, and the file knows
    nearly every test (a test it does not know counts as the average of the known ones)."""
    suite = collected()
    durations = shards.read_durations()
    unknown = [node for node in suite if node not in durations]
    assert len(unknown) <= len(suite) // 10, (f"{len(unknown)} of {len(suite)} tests are not in "
                                              f"tests/durations.json (run `make durations` after a whole run), "
                                              f"e.g. {unknown[:3]}")
    loads = shards.predicted_loads(suite, count, durations)
    assert min(loads) >= 0.8 * max(loads), f"{count} shards take {[round(load) for load in loads]} s"


def test_the_regress_tier_adds_the_long_sweeps_and_the_wide_variants_on_icarus():
    test_tier = set(collected("tests/test_benches.py"))
    regress_tier = set(collected("tests/test_benches.py", tier="regress"))
    added = regress_tier - test_tier
    assert test_tier < regress_tier
    long_sweeps = ("allreduce_ring_bandwidth-BUFFER_BEATS16384-DATA_WIDTH512-RANKS8",
                   "dpu_cluster_bandwidth-DATA_WIDTH512-MEMORY_BYTES2097152-NODES4",
                   "dpu_cluster_sizes-DATA_WIDTH64-NODES8",
                   "board_rdma_pair_soak-BAUD_RATE62500000-CLOCK_FREQ_KHZ250000-ENGINE_AREA1-SELF_TEST0-SIMULATION1",
                   "alveo_u55c-NEAR_END_LOOPBACK1")
    sweeps = {node for node in added if any(sweep in node for sweep in long_sweeps)}
    assert all(any(sweep in node for node in sweeps) for sweep in long_sweeps), sorted(added)
    # The rest are sets make test runs on Verilator alone, each on Icarus now
    wide_variants = added - sweeps
    assert wide_variants and all(node.endswith("-icarus]") and node.replace("-icarus]", "-verilator]") in test_tier
                                 for node in wide_variants), sorted(wide_variants)


def test_node_ids_from_junit_are_pytests():
    case = ElementTree.fromstring('<testcase classname="tests.test_benches" name="test_bench[crc32-DATA_WIDTH64-icarus]"/>')
    assert shards.node_id(case) == "tests/test_benches.py::test_bench[crc32-DATA_WIDTH64-icarus]"


@pytest.mark.cocotb
def test_the_merge_of_two_shards_counts_what_a_whole_run_counts(tmp_path, require_simulator):
    """A small slice of the suite (the 64-bit CRC bench on both simulators and the model tests),
    whole and in two shards run one after the other, in private build and result folders."""
    for simulator in ("verilator", "icarus"):
        require_simulator(simulator)
    selection = ["--", "tests/test_benches.py", "tests/test_models.py", "-k", "(crc32 and DATA_WIDTH64) or test_models",
                 "-p", "no:cacheprovider"]
    def run_suite(*arguments):
        return subprocess.run([sys.executable, "-m", "dpuv.harness.cli", "suite", "--jobs", "1",
                               "--builds", str(tmp_path / "builds"), *arguments, *selection],
                              cwd=PROJECT_ROOT, capture_output=True, text=True, env=suite.outside_environment())
    def merge_shards():
        return subprocess.run([sys.executable, "-m", "dpuv.harness.cli", "merge", "--output", str(tmp_path / "merged"),
                               *(str(tmp_path / "sharded" / f"shard-{index}-of-2") for index in (1, 2))],
                              cwd=PROJECT_ROOT, capture_output=True, text=True, env=suite.outside_environment())
    whole = run_suite("--results", str(tmp_path / "whole"))
    assert whole.returncode == 0, whole.stdout[-3000:]
    for index in (1, 2):
        part = run_suite("--results", str(tmp_path / "sharded"), "--shard", f"{index}/2")
        assert part.returncode == 0, part.stdout[-3000:]
    merged = merge_shards()
    assert merged.returncode == 0, merged.stdout[-3000:] + merged.stderr[-2000:]
    whole_outcomes = sorted(shards.outcomes([tmp_path / "whole" / "junit.xml"]), key=lambda outcome: outcome.node)
    merged_outcomes = sorted(shards.outcomes([tmp_path / "merged" / "junit.xml"]), key=lambda outcome: outcome.node)
    assert whole_outcomes == merged_outcomes and sum("test_bench[" in outcome.node for outcome in whole_outcomes) == 2
    # The merged report counts the cocotb tests of every bench run, as a whole run's summary does
    cocotb_lines = [line.strip() for line in merged.stdout.splitlines() if "cocotb tests run" in line]
    whole_lines = [line.strip() for line in whole.stdout.splitlines() if "cocotb tests run" in line]
    assert cocotb_lines == whole_lines and cocotb_lines, (cocotb_lines, whole_lines)
    # and both JUnit files hold one case per cocotb test, the same ones
    def cocotb_cases(junit):
        suite_element = next(s for s in ElementTree.parse(junit).getroot() if s.get("name") == "cocotb")
        return sorted((case.get("classname"), case.get("name").rpartition("-seed")[0]) for case in suite_element)
    whole_cases = cocotb_cases(tmp_path / "whole" / "junit.xml")
    assert whole_cases == cocotb_cases(tmp_path / "merged" / "junit.xml") and len(whole_cases) == 10, whole_cases
    assert f"{len(whole_outcomes)} pytest cases" in merged.stdout
    assert f"the shards ran exactly the suite (test tier, 1 seed(s) per bench case): all {len(whole_outcomes)}" \
        in merged.stdout, merged.stdout[-2000:]
    # A shard that lost a test is found out by the merge
    junit = tmp_path / "sharded" / "shard-2-of-2" / "junit.xml"
    tree = ElementTree.parse(junit)
    suite_element = next(tree.getroot().iter("testsuite"))
    suite_element.remove(next(suite_element.iter("testcase")))
    tree.write(junit)
    merged = merge_shards()
    assert merged.returncode == 1 and "did not run exactly the suite: 1 of its tests missing" in merged.stderr, \
        merged.stderr[-2000:]


def test_a_merge_refuses_an_incomplete_split(tmp_path):
    (tmp_path / "shard-1-of-3").mkdir()
    completed = subprocess.run([sys.executable, "-m", "dpuv.harness.cli", "merge", "--output", str(tmp_path),
                                str(tmp_path / "shard-1-of-3")], cwd=PROJECT_ROOT, capture_output=True, text=True)
    assert completed.returncode == 1 and "missing [2, 3]" in completed.stderr

