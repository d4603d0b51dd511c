# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The one page a person looks at after a run: results/report/index.html.

`make test`, `make merge`, `make coverage` and `make testplan` write it from what the run left in
its results folder (nothing here runs a simulation): cocotb tests per simulator and the pytest
cases, every failure with the line that reproduces it, the performance figures against their
targets with a plot, code coverage per engine (linking the line-level pages), the testplans'
status (linking testplan.html), the last mutation score of each area, and the formal proofs with
each broken block's counterexample (linked, and drawn as a table of its steps). Sections whose data the
run did not produce say so instead of showing zeros. Every figure on the page carries a
data-figure attribute, so a test can read back what a browser rendered and hold it to the run."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from dpuv.harness import coverage, formal, report, runner, shards, testplan

PAGE = Path("report") / "index.html"


@dataclass
class Failure:
    title: str
    message: str
    reproduce: str


@dataclass
class RunFacts:
    # simulator -> (cocotb tests run, passed)
    cocotb: dict[str, tuple[int, int]] = field(default_factory=dict)
    # passed, failed, skipped pytest cases (None: no JUnit file)
    pytest: tuple[int, int, int] | None = None
    failures: list[Failure] = field(default_factory=list)
    figures: list[dict] = field(default_factory=list)
    # engine -> kind -> (hit, points), from coverage.json
    coverage: dict[str, dict[str, tuple[int, int]]] = field(default_factory=dict)
    testplans: list[testplan.PlanStatus] = field(default_factory=list)
    mutation: list[dict] = field(default_factory=list)
    # results/formal.json: one entry per proof and variant (broken or not) that `make formal` ran
    formal: list[dict] = field(default_factory=list)


def _pytest_counts(junit: Path) -> tuple[int, int, int] | None:
    """Passed, failed (or in error) and skipped pytest cases of a run's JUnit file."""
    if not junit.exists():
        return None
    statuses = [outcome.status for outcome in shards.outcomes([junit])]
    return (statuses.count("passed"), statuses.count("failed") + statuses.count("error"), statuses.count("skipped"))


def gather(results: Path) -> RunFacts:
    facts = RunFacts()
    runs = [run for root in testplan.run_roots(results) for run in report.recorded_runs(root)]
    facts.cocotb = report.tests_per_simulator(runs)
    for run in runs:
        title = f"{run.bench} on {run.simulator}, {runner.parameter_slug(run.parameters)}, seed {run.seed}"
        if not run.outcomes and run.error:
            facts.failures.append(Failure(title, run.error, run.reproduce_command()))
        facts.failures += [Failure(f"{title}: {outcome.name}", outcome.message, run.reproduce_command(outcome.name))
                           for outcome in run.outcomes if not outcome.passed]
    facts.pytest = _pytest_counts(results / "junit.xml")
    facts.figures = report.recorded_figures(runs)
    coverage_file = results / "coverage.json"
    if coverage_file.exists():
        facts.coverage = {engine: {kind: (value["hit"], value["points"]) for kind, value in kinds.items()
                                   if kind in coverage.KINDS}
                          for engine, kinds in json.loads(coverage_file.read_text()).items()}
    if runs:
        facts.testplans = testplan.check_results(testplan.load_all(), results)
    facts.mutation = [json.loads(path.read_text()) for path in sorted((results / "mutation").glob("*.json"))]
    formal_file = results / formal.RESULTS_FILE
    if formal_file.exists():
        facts.formal = json.loads(formal_file.read_text())
    return facts


def _figure(name: str, value) -> str:
    return f'<td data-figure="{escape(name)}">{escape(str(value))}</td>'


def _tests_section(facts: RunFacts) -> str:
    rows = "".join(f"<tr><th>{escape(simulator)}</th>{_figure(f'cocotb.{simulator}.run', ran)}"
                   f"{_figure(f'cocotb.{simulator}.passed', passed)}{_figure(f'cocotb.{simulator}.failed', ran - passed)}</tr>"
                   for simulator, (ran, passed) in facts.cocotb.items())
    pytest = ("<p>No JUnit file: the run went through <code>make sim</code>, not pytest.</p>" if facts.pytest is None else
              "<table><tr><th>pytest cases</th><th>passed</th><th>failed</th><th>skipped</th></tr><tr><th>all</th>"
              + "".join(_figure(f"pytest.{name}", count) for name, count in zip(("passed", "failed", "skipped"), facts.pytest))
              + "</tr></table>")
    return ("<h2>Tests</h2><table><tr><th>simulator</th><th>cocotb tests run</th><th>passed</th><th>failed</th></tr>"
            f"{rows}</table>{pytest}")


def _failures_section(facts: RunFacts) -> str:
    if not facts.failures:
        return '<h2>Failures</h2><p class="good" data-figure="failures">0</p>'
    items = "".join(f"<li><b>{escape(failure.title)}</b><pre>{escape(failure.message[:2000])}</pre>"
                    f"<code>{escape(failure.reproduce)}</code></li>" for failure in facts.failures)
    return f'<h2>Failures (<span data-figure="failures">{len(facts.failures)}</span>)</h2><ol>{items}</ol>'


def _ratio(figure: dict) -> float:
    """How far a figure is on the good side of its target: 1 is the target, above is better."""
    value, target = figure["counter_value"], figure["target"]
    if figure["bound"] == "min":
        return value / target if target else 1.0
    return target / value if value else 2.0


def _figures_plot(figures: list[dict]) -> str:
    """One bar per figure, its length the measured value over the target (a minimum) or the target
    over the value (a maximum), so right of the line is met; bars stop at twice the target."""
    bar_height, label_width, scale = 18, 420, 240
    rows = []
    for index, figure in enumerate(figures):
        y = index * bar_height
        ratio = _ratio(figure)
        met = figure["agrees"] and figure["meets_target"]
        rows.append(f'<text x="{label_width - 6}" y="{y + 13}" text-anchor="end">'
                    f"{escape(figure['engine'])}.{escape(figure['metric'])} {escape(figure.get('context', ''))[:40]}</text>"
                    f'<rect x="{label_width}" y="{y + 3}" width="{min(ratio, 2.0) * scale / 2:.1f}" height="{bar_height - 6}"'
                    f' class="{"met" if met else "missed"}"/>')
    height = bar_height * len(figures)
    line = label_width + scale / 2
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{label_width + scale + 20}" height="{height + 20}"'
            f' role="img" aria-label="figures against their targets">{"".join(rows)}'
            f'<line x1="{line}" y1="0" x2="{line}" y2="{height}" class="target"/>'
            f'<text x="{line}" y="{height + 14}" text-anchor="middle">target</text></svg>')


def _figures_section(facts: RunFacts) -> str:
    if not facts.figures:
        return "<h2>Figures against targets</h2><p>No bench of this run recorded performance counters.</p>"
    rows = []
    for figure in facts.figures:
        met = figure["agrees"] and figure["meets_target"]
        result = "PASS" if met else ("FAIL" if figure["agrees"] else "MISMATCH")
        comparison = ">=" if figure["bound"] == "min" else "<="
        rows.append(f'<tr class="{"pass" if met else "fail"}"><td>{escape(figure["engine"])}.{escape(figure["metric"])}</td>'
                    f"<td>{escape(figure.get('context', ''))}</td><td>{figure['counter_value']:.4g} {escape(figure['unit'])}</td>"
                    f"<td>{figure['testbench_value']:.4g}</td><td>{comparison} {figure['target']:g}</td><td>{result}</td></tr>")
    met = sum(1 for figure in facts.figures if figure["agrees"] and figure["meets_target"])
    return (f'<h2>Figures against targets (<span data-figure="figures.met">{met}</span> of '
            f'<span data-figure="figures.total">{len(facts.figures)}</span> met)</h2>'
            "<p>From the RTL counters, each cross-checked by its testbench; targets in "
            "<code>src/dpuv/harness/targets.toml</code>.</p>" + _figures_plot(facts.figures)
            + "<table><tr><th>figure</th><th>context</th><th>counter</th><th>testbench</th><th>target</th><th>result</th></tr>"
            + "".join(rows) + "</table>")


def _coverage_section(facts: RunFacts, results: Path) -> str:
    if not facts.coverage:
        return ("<h2>Code coverage</h2><p>Not measured in this run: <code>make coverage</code> builds the Verilator "
                "benches with coverage and fills this table.</p>")
    link = ('<p><a href="coverage/index.html">Line-level pages</a> for every source.</p>'
            if (results / "report" / "coverage" / "index.html").exists() else "")
    kinds = [kind for kind in coverage.KINDS if any(kind in engine for engine in facts.coverage.values())]
    rows = []
    for engine, figures in sorted(facts.coverage.items()):
        cells = []
        for kind in kinds:
            hit, total = figures.get(kind, (0, 0))
            below = coverage.below_goal(kind, hit, total)
            cells.append(f'<td class="{"fail" if below else "pass"}" data-figure="coverage.{escape(engine)}.{kind}">'
                         f"{coverage.percent(hit, total)} ({hit}/{total})</td>")
        rows.append(f"<tr><th>{escape(engine)}</th>{''.join(cells)}</tr>")
    goals = ", ".join(f"{kind} {goal:.0f} %" for kind, goal in coverage.GOALS.items())
    return (f"<h2>Code coverage</h2><p>Goals: {goals} (red: below).</p>{link}<table><tr><th>engine</th>"
            + "".join(f"<th>{kind}</th>" for kind in kinds) + "</tr>" + "".join(rows) + "</table>")


def _testplan_section(facts: RunFacts, results: Path) -> str:
    if not facts.testplans:
        return "<h2>Testplans</h2><p>No recorded runs to hold the testplans to.</p>"
    rows = []
    for status in facts.testplans:
        area = status.plan.area
        held = sum(point.held for point in status.testpoints)
        bins = sum(len(item.item.hits) for item in status.items)
        closed = sum(item.closed for item in status.items)
        rows.append(f'<tr class="{"fail" if status.problems else "pass"}"><th>{escape(area)}</th>'
                    f"{_figure(f'testplan.{area}.testpoints', f'{held}/{len(status.testpoints)}')}"
                    f"{_figure(f'testplan.{area}.bins', f'{closed}/{bins}' if bins else '-')}"
                    f"{_figure(f'testplan.{area}.problems', len(status.problems))}</tr>")
    link = ('<p><a href="testplan.html">Every testpoint and bin</a>, with the waivers and their reasons.</p>'
            if (results / "report" / "testplan.html").exists() else "")
    return ("<h2>Testplans</h2>" + link + "<table><tr><th>area</th><th>testpoints held</th><th>bins closed</th>"
            "<th>problems</th></tr>" + "".join(rows) + "</table>")


def _mutation_section(facts: RunFacts) -> str:
    if not facts.mutation:
        return ("<h2>Mutation score</h2><p>No <code>make mutation AREA=...</code> results in this results folder.</p>")
    rows = "".join(
        f"<tr><th>{escape(score['area'])}</th><td>{score['count']} (seed {score['seed']})</td>"
        f"<td>{score['killed']}</td><td>{score['survived']} ({score['equivalent']} equivalent)</td><td>{score['stillborn']}</td>"
        + _figure(f"mutation.{score['area']}.score",
                  f"{100 * score['score']:.1f} %" if score["score"] is not None else "-") + "</tr>"
        for score in facts.mutation)
    return ("<h2>Mutation score</h2><table><tr><th>area</th><th>mutants</th><th>killed</th><th>survived</th>"
            "<th>stillborn</th><th>score</th></tr>" + rows + "</table>")


def _counterexample(results: Path, trace: str) -> str:
    """A trace's steps as a table (a browser cannot open a VCD); the last step is the failing one."""
    signals, values = formal.trace_steps(results / trace)
    steps = len(values[0]) if values else 0
    header = "".join(f"<th>{step}</th>" for step in range(steps))
    rows = "".join(f"<tr><th>{escape(name)}</th>" + "".join(
        f'<td class="{"changed" if step and row[step] != row[step - 1] else ""}">{escape(value)}</td>'
        for step, value in enumerate(row)) + "</tr>" for name, row in zip(signals, values))
    return f'<table class="trace"><tr><th>step</th>{header}</tr>{rows}</table>'


def _formal_section(facts: RunFacts, results: Path) -> str:
    if not facts.formal:
        return ("<h2>Formal proofs</h2><p>No <code>make formal</code> results in this results folder "
                "(<code>make formal</code>, then <code>make formal BROKEN=1</code> for the counterexamples).</p>")
    proofs = [entry for entry in facts.formal if not entry["broken"]]
    broken = [entry for entry in facts.formal if entry["broken"]]
    holding = {entry["proof"]: all(task["status"] == "PASS" for task in entry["tasks"].values()) for entry in proofs}
    caught = sum(any(task["status"] == "FAIL" for task in entry["tasks"].values()) for entry in broken)
    held = sum(holding.values())
    rows = []
    for entry in proofs:
        holds = holding[entry["proof"]]
        statuses = "".join(f"<td>{escape(entry['tasks'].get(task, {}).get('status', '-'))}</td>" for task in formal.TASKS)
        properties = "".join(f"<li>{escape(text)}</li>" for text in entry["properties"])
        verdict = _figure(f"formal.{entry['proof']}", "holds" if holds else "fails")
        rows.append(f'<tr class="{"pass" if holds else "fail"}"><th>{escape(entry["proof"])}</th>{statuses}'
                    f"{verdict}<td><ul>{properties}</ul></td></tr>")
    counterexamples = []
    for entry in broken:
        failing = [(task, value) for task, value in entry["tasks"].items() if value["status"] == "FAIL"]
        verdict = "caught" if failing else "missed"
        detail = "".join(f"<li>{escape(task)}: {escape('; '.join(value['failed']))} "
                         + " ".join(f'<a href="{escape(str(Path(trace).relative_to("report")))}">{escape(Path(trace).name)}</a>'
                                    for trace in value["traces"]) + "</li>" for task, value in failing)
        traces = [trace for _, value in failing for trace in value["traces"] if (results / trace).exists()]
        counterexamples.append(
            f'<h3>{escape(entry["proof"])}, broken: {escape(entry.get("why", ""))} '
            f'(<span data-figure="formal.{escape(entry["proof"])}.broken">{verdict}</span>)</h3><ul>{detail}</ul>'
            + (_counterexample(results, traces[0]) if traces else ""))
    return (f'<h2>Formal proofs (<span data-figure="formal.held">{held}</span> of {len(proofs)} hold; '
            f'<span data-figure="formal.caught">{caught}</span> of {len(broken)} broken blocks caught)</h2>'
            "<p>prove: k-induction; bmc: every assertion, bounded from reset; cover: every cover statement reached "
            "(<code>make formal</code>, docs/verification.md).</p>"
            "<table><tr><th>proof</th>" + "".join(f"<th>{task}</th>" for task in formal.TASKS)
            + "<th>verdict</th><th>properties</th></tr>" + "".join(rows) + "</table>"
            + ("<h2>Counterexamples of the broken blocks</h2>" + "".join(counterexamples) if counterexamples else ""))


_STYLE = """body{font-family:sans-serif;margin:1.5em;max-width:1200px}table{border-collapse:collapse;margin:.5em 0 1.5em}
td,th{border:1px solid #bbb;padding:.2em .5em;text-align:left;vertical-align:top}.pass{background:#d9f2d9}
.fail{background:#f7d4d4}.good{color:#060;font-weight:bold}pre{white-space:pre-wrap;margin:.2em 0}
svg text{font-size:11px;font-family:sans-serif}svg rect.met{fill:#5a5}svg rect.missed{fill:#c55}
svg line.target{stroke:#000;stroke-dasharray:4 2}table.trace td{font-family:monospace;font-size:11px}
table.trace td.changed{background:#fff3c4}"""


def page(facts: RunFacts, results: Path) -> str:
    ran = sum(counts[0] for counts in facts.cocotb.values())
    passed = sum(counts[1] for counts in facts.cocotb.values())
    verdict = "all passed" if ran and passed == ran and not facts.failures else f"{ran - passed} failed"
    return (f"<!doctype html><meta charset=utf-8><title>dpuv report</title><style>{_STYLE}</style>"
            f"<h1>dpuv report</h1><p>{ran} cocotb tests, {verdict}.</p>"
            + _tests_section(facts) + _failures_section(facts) + _figures_section(facts)
            + _coverage_section(facts, results) + _testplan_section(facts, results) + _mutation_section(facts)
            + _formal_section(facts, results))


def write(results: Path) -> Path:
    """results/report/index.html from what the run in `results` left there."""
    index = results / PAGE
    index.parent.mkdir(parents=True, exist_ok=True)
    index.write_text(page(gather(results), results))
    return index
