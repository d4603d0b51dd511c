# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Each cocotb test's timeout from its measured simulated time: `make timeouts` after a whole run.

A stuck design must fail in bounded time, so a test's timeout is MARGIN times the longest
simulated time it took in the run records (over its parameter sets, parametrized variants and
both simulators), rounded up to 1, 2 or 5 of a power of ten: 5 to 10 times what it needs. Runs of
mutated RTL are not measurements of the test and are left out. Tests with no record keep what
they have; the tool benches, which serve a user for as long as the user wants, are never touched.
"""

from __future__ import annotations

import collections
import math
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from dpuv import PROJECT_ROOT

MARGIN = 5
# Run records of builds that are not the bench's own RTL (tests/test_mutations.py, waves mutants)
_NOT_MEASUREMENTS = ("mutant-", "wave-mutant-")
# Modules of the tool benches (the virtual board, `make reduce`): no simulated-time budget
UNBOUNDED_MODULES = {"test_virtual_board", "test_allreduce_npy", "test_cluster_npy"}
_DECORATOR = re.compile(r"@cocotb\.test\(([^)]*)\)(\s*\n(?:[ \t]*@[^\n]*\n)*[ \t]*async def (\w+))")


def longest_simulated_ns(results: Path) -> dict[str, float]:
    """module.test -> the longest simulated time (ns) of any of its runs under `results`."""
    longest: dict[str, float] = collections.defaultdict(float)
    for results_xml in results.glob("**/runs/**/results.xml"):
        build = results_xml.as_posix().split("/runs/", 1)[1]
        if build.startswith(_NOT_MEASUREMENTS):
            continue
        for case in ElementTree.parse(results_xml).getroot().iter("testcase"):
            properties = {item.get("name"): item.get("value") for item in case.iter("property")}
            # A parametrized variant (name/option=value) counts for its test
            test = f"{case.get('classname')}.{case.get('name').split('/')[0]}"
            longest[test] = max(longest[test], float(properties.get("sim_time_duration", 0)))
    return dict(longest)


def budget(simulated_ns: float) -> str:
    """The decorator arguments for a test that took `simulated_ns`: MARGIN times that, rounded up
    to 1, 2 or 5 of a power of ten, at least 1 us."""
    wanted_us = max(1.0, MARGIN * simulated_ns / 1000)
    exponent = math.floor(math.log10(wanted_us))
    rounded_us = next(mantissa * 10 ** exponent for mantissa in (1, 2, 5, 10)
                      if mantissa * 10 ** exponent >= wanted_us - 1e-9)
    if rounded_us >= 1000:
        return f'timeout_time={round(rounded_us / 1000)}, timeout_unit="ms"'
    return f'timeout_time={round(rounded_us)}, timeout_unit="us"'


def retime(test_file: Path, longest: dict[str, float]) -> tuple[str, list[str]]:
    """The test file's text with each measured test's timeout set from `longest`, and the
    tests that have no measurement."""
    module = test_file.stem
    unmeasured: list[str] = []

    def replace(match: re.Match) -> str:
        arguments, rest, name = match.groups()
        simulated = longest.get(f"{module}.{name}", 0.0)
        if not simulated:
            unmeasured.append(f"{module}.{name}")
            return match.group(0)
        others = [argument.strip() for argument in arguments.split(",")
                  if argument.strip() and not argument.strip().startswith(("timeout_time", "timeout_unit"))]
        return f"@cocotb.test({', '.join([budget(simulated), *others])}){rest}"

    return _DECORATOR.sub(replace, test_file.read_text()), unmeasured


def main(results: Path, tb_root: Path = PROJECT_ROOT / "tb") -> int:
    longest = longest_simulated_ns(results)
    if not longest:
        print(f"timeouts: no run records under {results} (run `make test` first)")
        return 1
    changed, unmeasured = [], []
    for test_file in sorted(tb_root.glob("*/test_*.py")):
        if test_file.stem in UNBOUNDED_MODULES:
            continue
        text, missing = retime(test_file, longest)
        unmeasured += missing
        if text != test_file.read_text():
            test_file.write_text(text)
            changed.append(test_file)
    print(f"timeouts: {len(changed)} test files changed from {len(longest)} measured tests"
          + (f"; not measured, left as they are: {', '.join(unmeasured)}" if unmeasured else ""))
    return 0
