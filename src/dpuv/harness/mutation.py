# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""`make mutation AREA=<rtl folder> [COUNT=n] [SEED=s]`: the mutation score of an engine's RTL.

The hand-written mutants of tb/<area>/manifest.toml are a regression set: each names the test that
must catch it. This command measures instead: it finds every place in rtl/<area>/*.v where one
of these mutation operators applies,

- `compare`: == and != swapped, > and >= swapped, < made <=;
- `logic`: && and || swapped;
- `arith`: + and - swapped (outside bit ranges and part-selects);
- `constant`: 1'b0 and 1'b1 swapped;
- `held`: a nonblocking assignment `x <= e;` made `x <= x;` (the register holds);
- `dropped`: an if's condition made always true;
- `negated`: an if's condition negated;

draws COUNT of them with SEED, and runs each on a copy of rtl/ against the regression benches whose
design holds the mutated module, on Verilator (`SIM=icarus` for Icarus): the area's own benches
(the others only for a module no bench of the area holds), cheapest first by tests/durations.json,
at most three, stopping at the first bench that fails. A mutant is `killed` when a bench fails,
`survived` when every bench passes, `stillborn` when it does not build. Survivors print as diffs.
The triage (tb/<area>/mutation_triage.toml) judges them: under `[equivalent]`, id = "why it cannot
change behaviour", and the mutant leaves the score; under `[killed_on_icarus]`, id = "the test
that fails on Icarus, and why 2-state Verilator cannot see it", and the mutant counts as killed
(`make mutation ... MUTANT=<id> SIM=icarus` shows it). The score is killed / (killed + survived -
equivalent). Lines inside `initial` blocks (parameter checks) and `ifdef FORMAL` sections are not
mutated.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import random
import re
import shutil
import tempfile
import threading
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from dpuv.harness import benches, runner, shards

RTL = benches.PROJECT_ROOT / "rtl"
RESULTS = benches.PROJECT_ROOT / "results" / "mutation"

# (kind, pattern, replacement): a match's text becomes the replacement
_OPERATORS = (
    ("compare", re.compile(r"(?<![=!<>])==(?!=)"), "!="),
    ("compare", re.compile(r"!=(?!=)"), "=="),
    ("compare", re.compile(r"(?<![>=<-])>=(?!=)"), ">"),
    ("compare", re.compile(r"(?<![>=<-])>(?![>=])"), ">="),
    ("compare", re.compile(r"(?<![<])<(?![<=])"), "<="),
    ("logic", re.compile(r"&&"), "||"),
    ("logic", re.compile(r"\|\|"), "&&"),
    ("arith", re.compile(r"(?<![+])\+(?![+:=])"), "-"),
    ("arith", re.compile(r"(?<![-])-(?![-:>])"), "+"),
    ("constant", re.compile(r"1'b0"), "1'b1"),
    ("constant", re.compile(r"1'b1"), "1'b0"),
)
_HELD = re.compile(r"^(\s*)([A-Za-z_]\w*)(\s*<=\s*)(?!\2\s*;)(.+);(\s*)$")
_IF = re.compile(r"\bif\s*\(")
_SKIPPED_LINE = re.compile(r"^\s*(parameter|localparam|input|output|inout|module|endmodule|`|function|task|"
                           r"(reg|wire|integer|genvar)\b[^=]*;)")


class MutationError(RuntimeError):
    pass


@dataclass(frozen=True)
class Mutation:
    file: str       # relative to the project
    line: int       # 1-based
    kind: str
    original: str   # the line as it is
    mutated: str    # the line as the mutant has it

    @property
    def id(self) -> str:
        column = next((i for i, (a, b) in enumerate(zip(self.original, self.mutated)) if a != b), 0)
        return f"{Path(self.file).name}:{self.line}:{column}:{self.kind}"

    def apply(self, text: str) -> str:
        lines = text.split("\n")
        if lines[self.line - 1] != self.original:
            raise MutationError(f"{self.id}: line {self.line} of {self.file} is no longer what the mutant broke")
        lines[self.line - 1] = self.mutated
        return "\n".join(lines)

    def diff(self) -> str:
        return "".join(difflib.unified_diff([self.original + "\n"], [self.mutated + "\n"],
                                            f"a/{self.file}", f"b/{self.file}", lineterm="\n", n=0)).replace(
            "@@ -1 +1 @@", f"@@ -{self.line} +{self.line} @@")


def _code_part(line: str) -> str:
    return line.split("//", 1)[0]


def _outside_brackets(code: str, position: int) -> bool:
    return code[:position].count("[") == code[:position].count("]")


def _condition_span(code: str, start: int) -> tuple[int, int] | None:
    """The span of the condition inside the parentheses that open at code[start - 1]."""
    depth = 1
    for index in range(start, len(code)):
        depth += {"(": 1, ")": -1}.get(code[index], 0)
        if depth == 0:
            return start, index
    return None


def _line_mutations(file: str, number: int, line: str) -> list[Mutation]:
    code = _code_part(line)
    found = []
    for kind, pattern, replacement in _OPERATORS:
        for match in pattern.finditer(code):
            if kind == "arith" and not _outside_brackets(code, match.start()):
                continue
            mutated = line[:match.start()] + replacement + line[match.end():]
            found.append(Mutation(file, number, kind, line, mutated))
    held = _HELD.match(code)
    if held and "<=" in code and "?" not in held.group(2):
        indent, target, arrow = held.group(1), held.group(2), held.group(3)
        found.append(Mutation(file, number, "held", line, f"{indent}{target}{arrow}{target};{line[len(code):]}"))
    for match in _IF.finditer(code):
        span = _condition_span(code, match.end())
        if span:
            condition = code[span[0]:span[1]]
            found.append(Mutation(file, number, "dropped", line, line[:span[0]] + "1'b1" + line[span[1]:]))
            found.append(Mutation(file, number, "negated", line, line[:span[0]] + f"!({condition})" + line[span[1]:]))
    return found


def mutations_of(path: Path) -> list[Mutation]:
    """Every mutation the operators allow in one RTL file, outside initial blocks and formal code."""
    relative = str(path.relative_to(benches.PROJECT_ROOT))
    found: list[Mutation] = []
    in_initial = in_formal = False
    for number, line in enumerate(path.read_text().split("\n"), start=1):
        stripped = line.strip()
        if stripped.startswith("`ifdef FORMAL"):
            in_formal = True
        if in_formal:
            in_formal = not stripped.startswith("`endif")
            continue
        if stripped.startswith("initial begin"):
            in_initial = True
        if in_initial:
            in_initial = line.rstrip() != "end"
            continue
        if not stripped or stripped.startswith("//") or _SKIPPED_LINE.match(line) or "$" in _code_part(line):
            continue
        found += _line_mutations(relative, number, line)
    return found


def area_files(area: str) -> list[Path]:
    folder = RTL / area
    if not folder.is_dir() or area in ("boards",):
        choices = sorted(p.name for p in RTL.iterdir() if p.is_dir() and any(p.glob("*.v")))
        raise MutationError(f"no RTL area {area!r}: choose one of {', '.join(choices)}")
    return sorted(folder.glob("*.v"))


def draw(area: str, count: int, seed: int) -> list[Mutation]:
    candidates = [mutation for path in area_files(area) for mutation in mutations_of(path)]
    return sorted(random.Random(seed).sample(candidates, min(count, len(candidates))), key=lambda m: (m.file, m.line))


def chosen(area: str, ids: list[str]) -> list[Mutation]:
    """The mutants of an area with these ids (to run a survivor again after a change)."""
    candidates = {mutation.id: mutation for path in area_files(area) for mutation in mutations_of(path)}
    unknown = [mutant for mutant in ids if mutant not in candidates]
    if unknown:
        raise MutationError(f"rtl/{area} has no mutant {unknown} (ids are file:line:column:kind, as a report prints them)")
    return [candidates[mutant] for mutant in ids]


_MODULE = re.compile(r"^\s*module\s+(\w+)", re.M)
_INSTANCE = re.compile(r"\b(\w+)\s*(?:#\s*\(|\w+\s*\()")
# A survivor has run against this many benches at most (those of its own area first)
MAX_BENCHES = 3


def instantiated_modules(bench: benches.Bench) -> set[str]:
    """The modules a bench's design really holds: its top and what it instantiates, transitively
    (a file list compiles more files than a small bench uses)."""
    bodies: dict[str, str] = {}
    for source in bench.sources():
        if source.suffix in (".v", ".sv"):
            text = source.read_text(errors="replace")
            for match in _MODULE.finditer(text):
                bodies[match.group(1)] = text[match.end():text.find("endmodule", match.end())]
    held, waiting = set(), [bench.toplevel]
    while waiting:
        module = waiting.pop()
        if module in held or module not in bodies:
            continue
        held.add(module)
        waiting += [name for name in _INSTANCE.findall(bodies[module]) if name in bodies and name not in held]
    return held


def benches_for(file: str, area: str | None = None) -> list[benches.Bench]:
    """The regression benches whose design holds a file's module: the area's own when it has any
    (else the others), cheapest first by the committed durations, at most MAX_BENCHES."""
    durations = shards.read_durations()
    path = benches.PROJECT_ROOT / file
    modules = set(_MODULE.findall(path.read_text()))

    def cost(bench: benches.Bench) -> float:
        return min((seconds for node, seconds in durations.items()
                    if f"[{bench.name}-" in node and node.endswith("-verilator]")), default=1e9)

    found = [bench for bench in benches.BENCHES
             if path.resolve() in bench.sources() and modules & instantiated_modules(bench)]
    own = [bench for bench in found if bench.area == area]
    return sorted(own or found, key=lambda bench: (cost(bench), bench.name))[:MAX_BENCHES]


@dataclass
class MutantResult:
    mutation: Mutation
    outcome: str = "stillborn"   # killed, survived or stillborn
    killed_by: str = ""
    seconds: float = 0.0


def run_mutant(mutation: Mutation, scratch: Path, area: str | None = None, worker: int = 0,
               simulator: str = "verilator") -> MutantResult:
    """One mutant on its own copy of rtl/ in scratch; worker names its build folders, so mutants
    run side by side never build into one folder."""
    result = MutantResult(mutation)
    started = time.monotonic()
    mutant_rtl = scratch / "rtl"
    shutil.rmtree(mutant_rtl, ignore_errors=True)
    shutil.copytree(RTL, mutant_rtl)
    target = mutant_rtl / Path(mutation.file).relative_to("rtl")
    target.write_text(mutation.apply(target.read_text()))
    candidates = benches_for(mutation.file, area)
    if not candidates:
        raise MutationError(f"no regression bench builds {mutation.file}")
    built_any = False
    # Every parameter set make test runs on the simulator: a mutant that a 2-rank ring cannot
    # tell apart may still break the 3-rank one
    runs = [(bench, parameters) for bench in candidates
            for parameters in bench.suite_parameter_sets(regress=False, simulator=simulator)]
    for bench, parameters in runs:
        file_lists = tuple(str(mutant_rtl / Path(file_list).relative_to("rtl")) if Path(file_list).parts[0] == "rtl"
                           else file_list for file_list in bench.file_lists)
        built = dataclasses.replace(bench.built_from(file_lists, f"mutation{worker or ''}-{bench.name}"),
                                    quick_compile=True)
        run = runner.run(built, parameters, simulator, seed=1, quiet=True, record=False,
                         results_root=scratch / "results")
        if not run.outcomes and run.error.startswith("build failed"):
            continue
        built_any = True
        if not run.passed:
            result.outcome, result.killed_by = "killed", f"{bench.name} {runner.parameter_slug(parameters)}: " + next(
                (outcome.name for outcome in run.outcomes if not outcome.passed), run.error[:80])
            break
    else:
        result.outcome = "survived" if built_any else "stillborn"
    result.seconds = time.monotonic() - started
    return result


TRIAGE_VERDICTS = ("equivalent", "killed_on_icarus")


def triage(area: str) -> dict[str, dict[str, str]]:
    """The survivors judged, by verdict (TRIAGE_VERDICTS), then mutant id, with the reason
    (tb/<area>/mutation_triage.toml)."""
    path = benches.TB_ROOT / area / "mutation_triage.toml"
    table = tomllib.loads(path.read_text()) if path.exists() else {}
    unknown = sorted(set(table) - set(TRIAGE_VERDICTS))
    if unknown:
        raise MutationError(f"{path}: {unknown} are no verdict; the verdicts are {list(TRIAGE_VERDICTS)}")
    verdicts = {verdict: table.get(verdict, {}) for verdict in TRIAGE_VERDICTS}
    missing = [mutant for entries in verdicts.values() for mutant, why in entries.items() if not str(why).strip()]
    if missing:
        raise MutationError(f"{path}: mutants judged without a reason: {missing}")
    return verdicts


def score(results: list[MutantResult], equivalent: dict[str, str],
          killed_on_icarus: dict[str, str] | None = None) -> tuple[int, int, int, int, float | None]:
    """(killed, survived, stillborn, equivalent, score); a survivor Icarus kills counts as killed."""
    elsewhere = killed_on_icarus or {}
    killed = sum(result.outcome == "killed" or (result.outcome == "survived" and result.mutation.id in elsewhere)
                 for result in results)
    survived = sum(result.outcome == "survived" and result.mutation.id not in elsewhere for result in results)
    stillborn = sum(result.outcome == "stillborn" for result in results)
    judged = sum(result.outcome == "survived" and result.mutation.id in equivalent for result in results)
    live = killed + survived - judged
    return killed, survived, stillborn, judged, (killed / live if live else None)


def run_all(mutations: list[Mutation], area: str, jobs: int = 1, simulator: str = "verilator") -> list[MutantResult]:
    """Every mutant, jobs at a time (each worker with its own rtl/ copy and build folders), in draw
    order; each line printed as its mutant ends."""
    results: list[MutantResult | None] = [None] * len(mutations)
    free_workers = list(range(jobs))
    lock = threading.Lock()
    with tempfile.TemporaryDirectory(prefix="dpuv-mutation-") as scratch:
        def one(index: int) -> None:
            with lock:
                worker = free_workers.pop()
            try:
                result = run_mutant(mutations[index], Path(scratch) / f"worker{worker}", area, worker, simulator)
            finally:
                with lock:
                    free_workers.append(worker)
            results[index] = result
            print(f"  {index + 1:3}/{len(mutations)} {result.outcome:9} {result.mutation.id:42} {result.seconds:6.1f}s "
                  f"{result.killed_by}", flush=True)

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            for finished in [pool.submit(one, index) for index in range(len(mutations))]:
                finished.result()
    return [result for result in results if result is not None]


def main(area: str, count: int = 30, seed: int = 1, only: list[str] | None = None, jobs: int = 1,
         simulator: str = "verilator") -> int:
    mutations = chosen(area, only) if only else draw(area, count, seed)
    verdicts = triage(area)
    equivalent = verdicts["equivalent"]
    # A 4-state kill answers a survivor of the 2-state draw; on Icarus itself every mutant must die
    on_icarus = verdicts["killed_on_icarus"] if simulator == "verilator" else {}
    print(f"mutation: {len(mutations)} mutants of rtl/{area} " + ("(chosen)" if only else f"(seed {seed})")
          + f", on {simulator.capitalize()}, {jobs} at a time", flush=True)
    results = run_all(mutations, area, jobs, simulator)
    killed, survived, stillborn, judged, value = score(results, equivalent, on_icarus)
    for result in results:
        if result.outcome == "survived":
            mutant = result.mutation.id
            judged_as = (f" (equivalent: {equivalent[mutant]})" if mutant in equivalent
                         else f" (killed on Icarus: {on_icarus[mutant]})" if mutant in on_icarus else " (not triaged)")
            print(f"\nsurvived {mutant}" + judged_as)
            print(result.mutation.diff(), end="")
    shown = f"{100 * value:.1f} %" if value is not None else "-"
    print(f"\nrtl/{area}: {killed} killed, {survived} survived ({judged} equivalent), {stillborn} stillborn; "
          f"score {shown} of the non-equivalent mutants")
    if only:
        return 0  # a few chosen mutants are not the area's score: the report keeps the last draw's

    def outcome(result: MutantResult) -> str:
        return "killed_on_icarus" if result.outcome == "survived" and result.mutation.id in on_icarus else result.outcome

    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{area}.json").write_text(json.dumps({
        "area": area, "seed": seed, "count": count, "simulator": simulator, "killed": killed, "survived": survived,
        "stillborn": stillborn, "equivalent": judged, "score": value,
        "mutants": [{"id": r.mutation.id, "kind": r.mutation.kind, "outcome": outcome(r), "killed_by": r.killed_by,
                     "seconds": round(r.seconds, 1), "diff": r.mutation.diff()} for r in results]}, indent=1))
    return 0
