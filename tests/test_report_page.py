# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""results/report/index.html: its numbers are the run's (counted here from the records it was
written from), and a real browser renders them (headless Chromium from Debian: the DOM it
rendered holds the same numbers, and its screenshot is a page, not a blank)."""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import zlib
from dataclasses import asdict
from html import escape
from html.parser import HTMLParser
from pathlib import Path

import pytest

from dpuv.harness import perf, report_page

BROWSERS = ("chromium", "chromium-browser")


class _Figures(HTMLParser):
    """Every data-figure element's name and text."""

    def __init__(self):
        super().__init__()
        self.figures: dict[str, str] = {}
        self._open: list[str | None] = []

    def handle_starttag(self, tag, attributes):
        name = dict(attributes).get("data-figure")
        self._open.append(name)
        if name:
            self.figures[name] = ""

    def handle_endtag(self, tag):
        if self._open:
            self._open.pop()

    def handle_data(self, data):
        for name in self._open:
            if name:
                self.figures[name] += data


def figures_of(html: str) -> dict[str, str]:
    parser = _Figures()
    parser.feed(html)
    return {name: text.strip() for name, text in parser.figures.items()}


def _run(results: Path, simulator: str, tests: list[tuple[str, bool, str]], figures: list[perf.Figure] = ()) -> None:
    folder = results / "runs" / "crc32" / simulator / "DATA_WIDTH64" / "seed7"
    folder.mkdir(parents=True)
    perf_file = None
    if figures:
        perf_file = folder / "perf.json"
        perf_file.write_text(json.dumps([asdict(figure) for figure in figures]))
    (folder / "run.json").write_text(json.dumps({
        "bench": "crc32", "simulator": simulator, "parameters": {"DATA_WIDTH": 64}, "seed": 7,
        "tests": [{"name": name, "module": "test_crc32", "passed": passed, "message": message, "seconds": 1.0,
                   "sim_time_ns": 10.0} for name, passed, message in tests],
        "error": "", "perf_file": str(perf_file) if perf_file else None}))


@pytest.fixture
def results(tmp_path) -> Path:
    """A run's results folder: two simulators (one failure), two figures (one met), a pytest JUnit
    file, code coverage, a mutation score, and formal results (a proof that holds, and a broken
    block caught with a counterexample)."""
    results = tmp_path / "results"
    _run(results, "verilator", [("known_answer", True, ""), ("matches_zlib", False, "crc 0x1234 != 0x5678")],
         [perf.Figure("crc32", "throughput", "B/cycle", 8.0, 8.0, 8.0, "min", True, True, "64 bits"),
          perf.Figure("crc32", "latency", "cycles", 5.0, 5.0, 3.0, "max", True, False, "64 bits")])
    _run(results, "icarus", [("known_answer", True, ""), ("matches_zlib", True, "")])
    (results / "junit.xml").write_text(
        '<testsuites><testsuite name="pytest"><testcase classname="tests.x" name="a"/>'
        '<testcase classname="tests.x" name="b"><failure message="no"/></testcase>'
        '<testcase classname="tests.x" name="c"><skipped/></testcase></testsuite>'
        '<testsuite name="cocotb"><testcase classname="cocotb" name="ignored"/></testsuite></testsuites>')
    (results / "coverage.json").write_text(json.dumps({"common": {"line": {"hit": 9, "points": 10},
                                                                  "branch": {"hit": 19, "points": 20}}}))
    (results / "mutation").mkdir()
    (results / "mutation" / "common.json").write_text(json.dumps({
        "area": "common", "seed": 1, "count": 4, "killed": 3, "survived": 1, "stillborn": 0, "equivalent": 0,
        "score": 0.75, "mutants": []}))
    _formal(results)
    return results


# A counterexample as yosys-smtbmc writes one: the solver's step count, then the harness's signals
TRACE = """$timescale 1ns $end
$var integer 32 t smt_step $end
$scope module skid_formal $end
$var wire 1 a rst $end
$var wire 8 b delivered $end
$upscope $end
$enddefinitions $end
#0
b0 t
1a
b0 b
#10
b1 t
0a
#20
b10 t
b101010 b
"""


def _formal(results: Path) -> None:
    trace = Path("report/formal/skid-broken/bmc-0.vcd")
    (results / trace).parent.mkdir(parents=True)
    (results / trace).write_text(TRACE)
    tasks = {task: {"status": "PASS", "failed": [], "traces": []} for task in ("prove", "bmc", "cover")}
    caught = {**tasks, "bmc": {"status": "FAIL", "failed": ["failed assertion at scoreboard.v:55 step 2"],
                               "traces": [str(trace)]}}
    (results / "formal.json").write_text(json.dumps([
        {"proof": "skid", "broken": False, "seconds": 3.0, "description": "", "properties": ["no beat lost"],
         "tasks": tasks},
        {"proof": "skid", "broken": True, "seconds": 2.0, "description": "", "properties": ["no beat lost"],
         "tasks": caught, "why": "the skid register catches the wrong beat"}]))


EXPECTED = {"cocotb.verilator.run": "2", "cocotb.verilator.passed": "1", "cocotb.verilator.failed": "1",
            "cocotb.icarus.run": "2", "cocotb.icarus.passed": "2", "cocotb.icarus.failed": "0",
            "pytest.passed": "1", "pytest.failed": "1", "pytest.skipped": "1", "failures": "1",
            "figures.met": "1", "figures.total": "2", "coverage.common.line": "90.0 % (9/10)",
            "coverage.common.branch": "95.0 % (19/20)", "mutation.common.score": "75.0 %",
            "formal.held": "1", "formal.caught": "1", "formal.skid": "holds", "formal.skid.broken": "caught"}


def test_the_page_holds_the_run_s_numbers_and_each_failure_s_reproduce_line(results):
    html = report_page.write(results).read_text()
    figures = figures_of(html)
    assert {name: figures.get(name) for name in EXPECTED} == EXPECTED
    assert escape("make sim TB=crc32 SIM=verilator SEED=7 PARAMS=\"DATA_WIDTH=64\" TESTCASE='matches_zlib'") in html
    assert "crc 0x1234 != 0x5678" in html and "<svg" in html
    # The testplans were held to these runs too (few of their tests ran: problems, shown as such)
    assert int(figures["testplan.common.problems"]) > 0
    # The counterexample is linked (relative to the page) and drawn step by step: delivered is 0x2a at step 2
    assert '<a href="formal/skid-broken/bmc-0.vcd">' in html and (results / "report/formal/skid-broken/bmc-0.vcd").exists()
    assert "<th>delivered</th><td>00</td><td>00</td><td" in html.replace(' class=""', "") and ">2a</td>" in html


def test_a_run_without_coverage_or_mutation_says_so_instead_of_zeros(tmp_path):
    results = tmp_path / "results"
    _run(results, "icarus", [("known_answer", True, "")])
    html = report_page.write(results).read_text()
    assert "Not measured in this run" in html and "No <code>make mutation" in html and "No <code>make formal" in html
    assert figures_of(html)["failures"] == "0" and "coverage.common.line" not in figures_of(html)


def _browser() -> str | None:
    found = next((shutil.which(name) for name in BROWSERS if shutil.which(name)), None)
    if not found and os.environ.get("DPUV_REQUIRE_BROWSER"):
        pytest.fail("DPUV_REQUIRE_BROWSER is set but no chromium is installed (apt-get install chromium)")
    if not found:
        pytest.skip("no headless browser: apt-get install chromium")
    return found


def _png_rows_vary(png: bytes) -> bool:
    """A PNG whose pixels are not all one colour (the decoded image data holds many byte values)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    chunks, offset = [], 8
    while offset < len(png):
        length, kind = struct.unpack(">I4s", png[offset:offset + 8])
        if kind == b"IDAT":
            chunks.append(png[offset + 8:offset + 8 + length])
        offset += 12 + length
    return len(set(zlib.decompress(b"".join(chunks)))) > 16


def test_a_browser_renders_the_page_with_the_same_numbers(results, tmp_path):
    browser = _browser()
    index = report_page.write(results)
    common = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1280,2400"]
    dom = subprocess.run([*common, "--dump-dom", index.as_uri()], capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    rendered = figures_of(dom.stdout)
    assert {name: rendered.get(name) for name in EXPECTED} == EXPECTED
    screenshot = tmp_path / "report.png"
    shot = subprocess.run([*common, f"--screenshot={screenshot}", index.as_uri()], capture_output=True, text=True,
                          timeout=120)
    assert shot.returncode == 0 and screenshot.exists(), shot.stderr[-2000:]
    png = screenshot.read_bytes()
    assert struct.unpack(">II", png[16:24]) == (1280, 2400), "the screenshot is not the window's size"
    assert _png_rows_vary(png), "the screenshot is blank"
