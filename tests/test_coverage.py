# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Code coverage: Verilator's coverage.dat points merged per engine (module level: a point hit by
any instance in any run), the design only, an HTML page per source; and a real bench built with
coverage writes data that the report reads."""

from dpuv.harness import benches, coverage, runner

ROOT = benches.PROJECT_ROOT

def _point(file: str, line: int, page: str, what: str, hierarchy: str, count: int) -> str:
    fields = {"f": str(ROOT / file), "l": str(line), "n": "5", "page": page, "o": what, "h": hierarchy}
    return "C '" + "".join(f"\x01{key}\x02{value}" for key, value in fields.items()) + f"' {count}"

def test_points_merge_across_instances_and_runs_per_engine(tmp_path):
    run_a = tmp_path / "runs" / "a" / "coverage.dat"
    run_b = tmp_path / "runs" / "b" / "coverage.dat"
    run_a.parent.mkdir(parents=True)
    run_b.parent.mkdir(parents=True)
    run_a.write_text("# SystemC::Coverage-3\n" + "\n".join([
        _point("rtl/common/crc32.v", 20, "v_toggle/crc32", "data[0]:0->1", "top.crc_a", 0),
        _point("rtl/common/crc32.v", 20, "v_toggle/crc32", "data[0]:0->1", "top.crc_b", 3),
        _point("rtl/common/crc32.v", 30, "v_line/crc32", "block", "top.crc_a", 0),
        _point("rtl/rdma/roce_responder.v", 40, "v_branch/roce_responder", "if", "top.rsp", 1),
        _point("tb/common/crc32_wrapper.v", 5, "v_line/wrapper", "block", "top", 0),
    ]) + "\n")
    run_b.write_text(_point("rtl/common/crc32.v", 30, "v_line/crc32", "block", "top.crc_a", 2) + "\n")
    merged = coverage.collect(tmp_path)
    assert merged.files_read == 2
    assert merged.by_engine() == {"common": {"toggle": (1, 1), "line": (1, 1)}, "rdma": {"branch": (1, 1)}}
    index = coverage.write_html(merged, tmp_path / "report")
    page = (tmp_path / "report" / "rtl__common__crc32.v.html").read_text()
    assert "crc32.v" in index.read_text() and "<pre>" in page
    assert "common" in coverage.table(merged) and "100.0 % (1/1)" in coverage.table(merged)

def test_a_point_never_hit_is_reported_missed(tmp_path):
    data = tmp_path / "runs" / "a" / "coverage.dat"
    data.parent.mkdir(parents=True)
    data.write_text(_point("rtl/common/crc32.v", 23, "v_line/crc32", "else", "top", 0) + "\n")
    merged = coverage.collect(tmp_path)
    assert merged.by_engine() == {"common": {"line": (0, 1)}}
    coverage.write_html(merged, tmp_path / "report")
    page = (tmp_path / "report" / "rtl__common__crc32.v.html").read_text()
    assert 'class="missed"' in page and "line else" in page

def test_a_bench_built_with_coverage_writes_points_the_report_reads(tmp_path, require_simulator, monkeypatch):
    require_simulator("verilator")
    monkeypatch.setenv(runner.COVERAGE_VARIABLE, "1")
    monkeypatch.setattr(runner, "RESULTS_ROOT", tmp_path)
    bench = benches.find("crc32")
    result = runner.run(bench, {"DATA_WIDTH": 64}, "verilator", seed=5, testcase="known_answer", quiet=True, record=False)
    assert result.passed, result.failure_report()
    assert "verilator-coverage" in str(runner.build_dir(bench, {"DATA_WIDTH": 64}, "verilator", False))
    figures = coverage.collect(tmp_path).by_engine()["common"]
    hit, total = figures["line"]
    assert total > 0 and 0 < hit <= total and figures["toggle"][1] > 0, figures


def test_figures_below_their_goal_are_marked():
    assert coverage.below_goal("toggle", 84, 100) and not coverage.below_goal("toggle", 85, 100)
    assert coverage.below_goal("line", 94, 100) and not coverage.below_goal("branch", 9, 10)
    assert not coverage.below_goal("line", 0, 0)
