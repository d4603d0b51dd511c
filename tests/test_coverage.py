# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Code coverage: Verilator's coverage.dat points merged per engine (module level: a point hit by
any instance in any run), the design only, an HTML page per source; and a real bench built with
coverage writes data that the report reads."""

import pytest

from dpuv.harness import benches, coverage, runner

ROOT = benches.PROJECT_ROOT

def _point(file: str, line: int, page: str, what: str, hierarchy: str, count: int) -> str:
    fields = {"f": str(ROOT / file), "l": str(line), "n": "5", "page": page, "o": what, "h": hierarchy}
    return "C '" + "".join(f"\x01{key}\x02{value}" for key, value in fields.items()) + f"' {count}"

def _line_of(file: str, text: str) -> int:
    return next(number for number, line in enumerate((ROOT / file).read_text().splitlines(), 1) if text in line)

def test_points_merge_across_instances_and_runs_per_engine(tmp_path):
    # The port `data` is found where it is declared: whether a toggle point counts among the ports'
    # and registers' is read from the source line it names
    data_line = _line_of("rtl/common/crc32.v", "input  wire [DATA_WIDTH-1:0] data,")
    run_a = tmp_path / "runs" / "a" / "coverage.dat"
    run_b = tmp_path / "runs" / "b" / "coverage.dat"
    run_a.parent.mkdir(parents=True)
    run_b.parent.mkdir(parents=True)
    run_a.write_text("# SystemC::Coverage-3\n" + "\n".join([
        _point("rtl/common/crc32.v", data_line, "v_toggle/crc32", "data[0]:0->1", "top.crc_a", 0),
        _point("rtl/common/crc32.v", data_line, "v_toggle/crc32", "data[0]:0->1", "top.crc_b", 3),
        _point("rtl/common/crc32.v", 30, "v_line/crc32", "block", "top.crc_a", 0),
        _point("rtl/rdma/roce_responder.v", 40, "v_branch/roce_responder", "if", "top.rsp", 1),
        _point("tb/common/crc32_wrapper.v", 5, "v_line/wrapper", "block", "top", 0),
    ]) + "\n")
    run_b.write_text(_point("rtl/common/crc32.v", 30, "v_line/crc32", "block", "top.crc_a", 2) + "\n")
    merged = coverage.collect(tmp_path)
    assert merged.files_read == 2
    # That line declares the input `data`: its toggle counts among the ports' and registers' too
    assert merged.by_engine() == {"common": {"toggle": (1, 1), "port_reg_toggle": (1, 1), "line": (1, 1)},
                                  "rdma": {"branch": (1, 1)}}
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
    assert coverage.below_goal("port_reg_toggle", 84, 100) and not coverage.below_goal("port_reg_toggle", 85, 100)
    assert not coverage.below_goal("toggle", 1, 100), "every signal's toggles have no goal"
    assert coverage.below_goal("line", 94, 100) and not coverage.below_goal("branch", 9, 10)
    assert not coverage.below_goal("line", 0, 0)


def _data(tmp_path, *points: str) -> None:
    data = tmp_path / "runs" / "a" / "coverage.dat"
    data.parent.mkdir(parents=True, exist_ok=True)
    data.write_text("\n".join(points) + "\n")


def test_port_and_register_toggles_are_counted_apart_from_wires(tmp_path):
    # rtl/common/crc32.v: line 20 declares the input `data`; a line that is no declaration counts
    # only as a toggle
    source = (ROOT / "rtl/common/crc32.v").read_text().splitlines()
    port_line = next(number for number, text in enumerate(source, 1) if text.strip().startswith("input"))
    other_line = next(number for number, text in enumerate(source, 1) if "assign" in text or "always" in text)
    _data(tmp_path, _point("rtl/common/crc32.v", port_line, "v_toggle/crc32", "data[0]:0->1", "top", 1),
          _point("rtl/common/crc32.v", other_line, "v_toggle/crc32", "next[0]:0->1", "top", 0))
    figures = coverage.collect(tmp_path, waivers=[]).by_engine()["common"]
    assert figures["toggle"] == (1, 2) and figures["port_reg_toggle"] == (1, 1)


def test_waived_points_leave_the_figures_and_stale_waivers_are_named(tmp_path):
    _data(tmp_path, _point("rtl/common/crc32.v", 30, "v_line/crc32", "else", "top", 0),
          _point("rtl/common/crc32.v", 31, "v_line/crc32", "block", "top", 4),
          _point("rtl/common/crc32.v", 32, "v_branch/crc32", "if", "top", 2))
    waivers = [coverage.Waiver("rtl/common/crc32.v", "line", "else @*", "the default arm cannot be reached", (30, 30)),
               coverage.Waiver("rtl/common/*.v", "branch", "if*", "wrongly thought unreachable"),
               coverage.Waiver("rtl/common/crc32.v", "toggle", "nothing*", "matches nothing"),
               coverage.Waiver("rtl/rdma/*.v", "line", "*", "a file this run did not measure")]
    merged = coverage.collect(tmp_path, waivers=waivers)
    assert merged.by_engine() == {"common": {"line": (1, 1)}} and merged.waived() == {"common": 2}
    stale = merged.stale_waivers()
    assert len(stale) == 2 and "were hit" in stale[0] and "matches no point" in stale[1], stale
    assert "stale waiver" in coverage.table(merged)


def test_every_waiver_file_has_a_reason_for_each_waiver(tmp_path):
    assert all(waiver.reason.strip() for waiver in coverage.load_waivers())
    (tmp_path / "area").mkdir()
    (tmp_path / "area" / coverage.WAIVER_FILE).write_text('[[waive]]\nfile = "rtl/x.v"\nkind = "toggle"\npoint = "a*"\n')
    with pytest.raises(coverage.WaiverError, match="reason"):
        coverage.load_waivers(tmp_path)
