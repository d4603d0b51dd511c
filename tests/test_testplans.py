# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The testplans (tb/<area>/testplan.toml) and the check that holds a suite run to them: each
plan names only tests that exist and leaves none out, and the results check finds a testpoint
with no passing test, an open bin, a stale waiver and an unplanned covergroup."""

import json
from pathlib import Path

import pytest
import yaml

from dpuv.harness import testplan
from dpuv.harness.testplan import Covergroup, Plan, Waiver
from dpuv.tb.functional_coverage import Covergroup as SampledGroup

PLANS = testplan.load_all()


def test_every_area_with_benches_has_a_plan():
    areas = {plan.area for plan in PLANS}
    assert {"common", "rdma", "storage", "allreduce", "cluster", "bringup", "top"} <= areas


@pytest.mark.parametrize("plan", PLANS, ids=lambda plan: plan.area)
def test_plan_names_every_test_of_its_area_and_only_those(plan):
    assert testplan.check_plan(plan) == []


def _plan(tmp_path: Path, **changes) -> Plan:
    """A plan of the crc32 bench's area (common), one testpoint naming a real test."""
    fields = dict(area="common", description="", path=tmp_path / "testplan.toml",
                  testpoints=[testplan.Testpoint("crc", "V1", "", ("test_crc32.crc_matches_zlib",))],
                  covergroups=[Covergroup("common.demo", "", (Waiver("common.demo.kind", ("b",), "never made"),))])
    fields.update(changes)
    return Plan(**fields)


def _results(tmp_path: Path, outcomes: dict[str, bool], hits: dict[str, int]) -> Path:
    run = tmp_path / "results" / "runs" / "crc32" / "seed1"
    run.mkdir(parents=True)
    run.joinpath("run.json").write_text(json.dumps({
        "bench": "crc32", "simulator": "icarus", "parameters": {}, "seed": 1, "error": "", "perf_file": None,
        "tests": [{"name": name, "module": "test_crc32", "passed": passed, "message": ""}
                  for name, passed in outcomes.items()]}))
    run.joinpath("functional_coverage.yml").write_text(yaml.safe_dump({
        "common.demo.kind": {"type": "<class 'cocotb_coverage.coverage.CoverPoint'>", "bins:_hits": hits}}))
    return tmp_path / "results"


def test_a_plan_missing_a_test_or_naming_a_made_up_one_fails(tmp_path):
    plan = _plan(tmp_path, testpoints=[testplan.Testpoint("crc", "V1", "", ("test_crc32.no_such_test",))])
    problems = testplan.check_plan(plan)
    assert any("no_such_test, which is not a cocotb test" in problem for problem in problems)
    assert any("test_crc32.crc_matches_zlib belongs to no testpoint" in problem for problem in problems)
    assert any("test_axis_fifo." in problem for problem in problems), "the area's other benches count too"


def test_a_run_is_held_to_the_plan(tmp_path):
    plan = _plan(tmp_path, testpoints=[testplan.Testpoint("crc", "V1", "", ("test_crc32.crc_matches_zlib",))])
    results = _results(tmp_path, {"crc_matches_zlib/idle=None": True, "crc_matches_zlib/idle=0.3": False},
                       {"a": 3, "b": 0, "c": 0})
    [status] = testplan.check_results([plan], results)
    problems = [problem for problem in status.problems if "belongs to no testpoint" not in problem]
    # one failing option of a parametrized test fails its testpoint; c is open; b is waived
    assert any("testpoint crc has no passing test" in problem for problem in problems), problems
    assert any("common.demo.kind bin c is neither hit nor waived" in problem for problem in problems), problems
    assert not any("bin b" in problem for problem in problems), problems
    [item] = status.items
    assert (item.closed, list(item.waived)) == (2, [("b",)])


def test_a_waiver_on_a_bin_that_was_hit_is_stale(tmp_path):
    [status] = testplan.check_results([_plan(tmp_path)], _results(tmp_path, {"crc_matches_zlib": True},
                                                                      {"a": 1, "b": 2}))
    assert any("bin b was hit but is waived (never made)" in problem for problem in status.problems)


def test_an_unplanned_bin_counts_whether_hit_or_not(tmp_path):
    unplanned = (Waiver("common.demo.kind", ("b|c",), "random traffic only", "unplanned"),)
    plan = _plan(tmp_path, covergroups=[Covergroup("common.demo", "", unplanned)])
    [status] = testplan.check_results([plan], _results(tmp_path, {"crc_matches_zlib": True}, {"a": 1, "b": 2, "c": 0}))
    assert not [problem for problem in status.problems if "common.demo" in problem], status.problems
    assert status.items[0].closed == 3


def test_a_covergroup_the_plan_does_not_list_fails(tmp_path):
    [status] = testplan.check_results([_plan(tmp_path, covergroups=[])],
                                      _results(tmp_path, {"crc_matches_zlib": True}, {"a": 1}))
    assert any("the benches sample common.demo, which the plan does not list" in p for p in status.problems)


def test_after_make_test_a_testpoint_of_regress_only_benches_is_not_a_hole(tmp_path):
    assert "test_dpu_cluster_bandwidth" in testplan.regress_only_modules("cluster")
    assert "test_dpu_cluster_sizes" not in testplan.regress_only_modules("cluster"), "its smaller rings run in make test"
    sweep = testplan.Testpoint("busbw", "V3", "", ("test_dpu_cluster_bandwidth.busbw_at_every_message_size",))
    plan = _plan(tmp_path, area="cluster", testpoints=[sweep], covergroups=[])
    results = tmp_path / "results"
    (results / "runs").mkdir(parents=True)
    (results / "selection.json").write_text(json.dumps({"tier": "test"}))
    [status] = testplan.check_results([plan], results)
    assert status.testpoints[0].held and status.testpoints[0].other_tier
    (results / "selection.json").write_text(json.dumps({"tier": "regress"}))
    [status] = testplan.check_results([plan], results)
    assert any("testpoint busbw has no passing test" in problem for problem in status.problems)


def test_waivers_match_cross_bins_with_wildcards():
    waiver = Waiver("rdma.messages.operation_x_length", ("*", "compare_swap", "zero"), "atomics are 8 bytes")
    assert waiver.matches("rdma.messages.operation_x_length", ("to_engine", "compare_swap", "zero"))
    assert not waiver.matches("rdma.messages.operation_x_length", ("to_engine", "fetch_add", "zero"))
    assert not waiver.matches("rdma.messages.operation_x_length", ("compare_swap", "zero"))


def test_a_waiver_without_a_reason_or_a_bad_stage_does_not_load(tmp_path):
    plan_file = tmp_path / "testplan.toml"
    plan_file.write_text('[[covergroup]]\nname = "a.b"\n[[covergroup.waive]]\nitem = "a.b.c"\nbin = ["x"]\nreason = ""\n')
    with pytest.raises(testplan.TestplanError, match="gives no reason"):
        testplan.load(plan_file)
    plan_file.write_text('[[testpoint]]\nname = "a"\nstage = "V4"\ntests = ["m.t"]\n')
    with pytest.raises(testplan.TestplanError, match="stage 'V4'"):
        testplan.load(plan_file)


def test_a_sample_outside_the_bins_is_a_bench_bug():
    group = SampledGroup("demo.checked", {"kind": ("a", "b"), "size": ("small", "large")},
                         crosses={"kind_x_size": ("kind", "size")})
    group.sample(kind="a", size="small")
    with pytest.raises(ValueError, match="'c' is not a bin of kind"):
        group.sample(kind="c", size="small")
    with pytest.raises(ValueError, match="sample every point"):
        group.sample(kind="a")
    with pytest.raises(ValueError, match="needs two or more of its points"):
        SampledGroup("demo.crossed", {"kind": ("a",)}, crosses={"bad": ("kind", "missing")})
