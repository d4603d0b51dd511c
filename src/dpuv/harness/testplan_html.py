# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The testplan report as one self-contained HTML page (results/report/testplan.html): per area,
its testpoints with their tests' outcomes, and every covergroup item with its bins hit, waived
(with the reason) or open."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dpuv.harness.testplan import ItemStatus, PlanStatus

_STYLE = """body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;margin:.5em 0 1.5em}
table.plan{width:100%;table-layout:fixed}table.plan td:nth-child(1),table.plan th:nth-child(1){width:3em}
table.plan td:nth-child(3){width:40%}table.plan td{overflow-wrap:anywhere}
td,th{border:1px solid #bbb;padding:.2em .5em;vertical-align:top;text-align:left}
.pass{background:#d9f2d9}.fail{background:#f7d4d4}.waived{background:#eee;color:#555}.open{background:#f7d4d4}
.problems li{color:#a00}code{font-size:.9em}"""


def _testpoint_rows(status: "PlanStatus") -> str:
    rows = []
    for point in status.testpoints:
        outcome = "pass" if point.held else "fail"
        tests = "<br>".join(
            f'<code class="{"pass" if test in point.passed else "fail"}">{escape(test)}</code>'
            + ("" if test in point.passed else " (failed)" if test in point.failed
               else " (make regress only)" if test in point.other_tier else " (not run)")
            for test in point.testpoint.tests)
        extra = "<br>".join(f"<code>{escape(name)}</code>" for name in (*point.testpoint.coverage,
                                                                          *(f"proof {p}" for p in point.testpoint.proofs)))
        rows.append(f'<tr class="{outcome}"><td>{point.testpoint.stage}</td><td>{escape(point.testpoint.name)}</td>'
                    f"<td>{escape(point.testpoint.description)}</td><td>{tests}</td><td>{extra}</td></tr>")
    return "".join(rows)


def _bins(item: "ItemStatus") -> str:
    cells = []
    for bin_, count in item.item.hits.items():
        label = escape(" / ".join(bin_))
        if count and bin_ not in item.stale:
            cells.append(f'<span class="pass">{label}: {count}</span>')
        elif bin_ in item.stale:
            cells.append(f'<span class="open" title="{escape(item.stale[bin_].reason)}">{label}: {count}, waived as '
                         "unreachable</span>")
        elif bin_ in item.waived:
            cells.append(f'<span class="waived" title="{escape(item.waived[bin_].reason)}">{label}: waived</span>')
        else:
            cells.append(f'<span class="open">{label}: 0</span>')
    return ", ".join(cells)


def page(statuses: list["PlanStatus"]) -> str:
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>dpuv testplans</title><style>{_STYLE}</style>"
             "</head><body><h1>dpuv testplans</h1><p>Testpoints with their tests' outcomes, and the functional "
             "coverage the benches sampled. Code coverage, when `make coverage` ran: "
             "<a href='coverage/index.html'>coverage/index.html</a>.</p>"
             "<table><tr><th>area</th><th>testpoints passed</th>"
             "<th>coverage bins closed (hit + waived)</th><th>problems</th></tr>"]
    for status in statuses:
        passed = sum(1 for point in status.testpoints if point.held)
        bins = sum(len(item.item.hits) for item in status.items)
        closed = sum(item.closed for item in status.items)
        parts.append(f'<tr class="{"fail" if status.problems else "pass"}"><td><a href="#{status.plan.area}">'
                     f"{status.plan.area}</a></td><td>{passed}/{len(status.testpoints)}</td>"
                     f"<td>{f'{closed}/{bins}' if bins else '-'}</td><td>{len(status.problems)}</td></tr>")
    parts.append("</table>")
    for status in statuses:
        parts.append(f'<h2 id="{status.plan.area}">{status.plan.area}</h2><p>{escape(status.plan.description)}</p>')
        if status.problems:
            # A long list (every open bin of a new covergroup, say) starts folded
            parts.append(f"<details{' open' if len(status.problems) <= 20 else ''}><summary>{len(status.problems)} "
                         'problems</summary><ul class="problems">'
                         + "".join(f"<li>{escape(p)}</li>" for p in status.problems) + "</ul></details>")
        parts.append("<table class='plan'><tr><th>stage</th><th>testpoint</th><th>what it verifies</th><th>tests</th>"
                     f"<th>coverage, proofs</th></tr>{_testpoint_rows(status)}</table>")
        if status.items:
            parts.append("<table><tr><th>coverage item</th><th>closed</th><th>bins</th></tr>")
            for item in status.items:
                parts.append(f"<tr><td><code>{escape(item.item.name)}</code></td>"
                             f"<td>{item.closed}/{len(item.item.hits)}</td><td>{_bins(item)}</td></tr>")
            parts.append("</table>")
    parts.append("</body></html>\n")
    return "".join(parts)
