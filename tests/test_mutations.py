# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Break the RTL on purpose: every mutant an area lists in tb/<area>/manifest.toml must make its
test fail.

`make regress` runs every mutant on both simulators. `make test` runs each on one: the one the
durations file records as faster for it (a cluster mutant takes 108 s on Verilator and 328 s on
Icarus), else the two take turns down the manifests. The benches themselves run on both in every
tier, and running every mutant twice was a third of the suite's time. Mutants that take over a
minute even on the faster simulator (each builds a four-node cluster or a board of its own) run in
`make regress` only: four of them were a tenth of `make test`.

Each mutant runs on a copy of rtl/ in a scratch folder, so the real sources are never touched,
and builds in a folder of its own (two mutants of one file and test may run at once on two workers).
"""

import dataclasses
import shutil
from pathlib import Path

import pytest

from dpuv.harness import benches, mutants, runner, shards, suite, toolchain

RTL = benches.PROJECT_ROOT / "rtl"
MUTANTS = mutants.load()
DURATIONS = shards.read_durations()
# Seconds on the faster simulator past which a mutant waits for `make regress`
TEST_TIER_SECONDS = 60


def _case_id(mutant: mutants.Mutant, simulator: str) -> str:
    return f"{mutant.id}-{simulator}"


def _simulators_for(position: int, mutant: mutants.Mutant) -> tuple[str, ...]:
    """Both simulators in `make regress`; in `make test`, the faster one by the durations file
    (none when even that takes over TEST_TIER_SECONDS), or, for a mutant it does not know, the one
    whose turn it is."""
    if suite.regress_tier():
        return toolchain.SIMULATORS
    recorded = {simulator: DURATIONS[node] for simulator in toolchain.SIMULATORS
                if (node := f"tests/test_mutations.py::test_mutant_is_caught[{_case_id(mutant, simulator)}]")
                in DURATIONS}
    if recorded:
        faster = min(recorded, key=recorded.get)
        return (faster,) if recorded[faster] <= TEST_TIER_SECONDS else ()
    return (toolchain.SIMULATORS[position % len(toolchain.SIMULATORS)],)


MUTANT_CASES = [pytest.param(mutant, simulator, id=_case_id(mutant, simulator))
                for position, mutant in enumerate(MUTANTS) for simulator in _simulators_for(position, mutant)]


def test_every_mutation_site_occurs_once():
    for mutant in MUTANTS:
        mutant.apply((benches.PROJECT_ROOT / mutant.file).read_text())


def test_a_site_survives_reformatting_but_not_removal():
    mutant = mutants.Mutant("example", "crc32", "rtl/common/crc32.v", "a <= b + 1;", "a <= b;", "known_answer")
    assert mutant.apply("x;\n  a   <=  b\n    + 1 ;\n") == "x;\n  a <= b;\n"
    with pytest.raises(mutants.MutationSiteError, match="occurs 0 times"):
        mutant.apply("a <= b + 2;")
    with pytest.raises(mutants.MutationSiteError, match="occurs 2 times"):
        mutant.apply("a <= b + 1; a <= b + 1;")
    anchored = mutants.Mutant("example", "crc32", "rtl/common/crc32.v", "a <= b + 1;", "a <= b;", "known_answer",
                              after="second:")
    assert anchored.apply("a <= b + 1; second: a <= b + 1;") == "a <= b + 1; second: a <= b;"


@pytest.mark.cocotb
@pytest.mark.parametrize("mutant,simulator", MUTANT_CASES)
def test_mutant_is_caught(mutant, simulator, tmp_path, require_simulator):
    require_simulator(simulator)
    mutant_rtl = tmp_path / "rtl"
    shutil.copytree(RTL, mutant_rtl)
    target = mutant_rtl / Path(mutant.file).relative_to("rtl")
    target.write_text(mutant.apply(target.read_text()))

    bench = benches.find(mutant.bench)
    # Testbench-only lists (the wrappers in tb/) are not mutated and stay where they are
    file_lists = tuple(str(mutant_rtl / Path(file_list).relative_to("rtl")) if Path(file_list).parts[0] == "rtl"
                       else file_list for file_list in bench.file_lists)
    built = bench.built_from(file_lists, f"mutant-{Path(mutant.file).stem}-{mutant.test.split('/')[0]}-{mutant.site}")
    # One test per build: Verilator's C++ at -O0 builds in under half the time, and the test runs
    # barely slower (the NVMe controller: 13 s instead of 32 s, its random traffic 11 s instead of 8)
    built = dataclasses.replace(built, quick_compile=True)
    result = runner.run(built, bench.parameter_sets[0], simulator, seed=1, testcase=mutant.test, record=False)
    assert result.outcomes, f"the mutant did not run: {result.failure_report()}"
    assert not result.passed, f"{mutant.test} passed against a broken {mutant.file} on {simulator} ({mutant.id})"
