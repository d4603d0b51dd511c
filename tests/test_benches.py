# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Every cocotb testbench, with every parameter set, on every simulator dpuv supports.

A simulator that is not installed skips its cases with the install command, unless the
environment demands it (CI sets DPUV_REQUIRE_SIMULATORS=verilator,icarus): then it fails.
Set DPUV_SEED to rerun with a fixed seed; DPUV_SEEDS=n (make regress SEEDS=n) runs each case with n seeds, and
DPUV_TIER=regress (make regress) adds the parameter sets a bench keeps for that tier, and runs on
Icarus too the wide variants and the long scenarios (`icarus_regress_only_tests`) `make test` runs
on Verilator alone.
"""

from __future__ import annotations

import os

import pytest

from dpuv.harness import benches, runner, suite, toolchain

# Seeds per case: 1 in `make test`, SEEDS in `make regress` (each a case of its own)
SEEDS = int(os.environ.get("DPUV_SEEDS") or 1)
# `make regress` also runs the parameter sets a bench keeps for that tier (the long sweeps)
REGRESS = suite.regress_tier()
CASES = [
    pytest.param(bench, parameters, simulator, seed_index,
                 id=f"{bench.name}-{runner.parameter_slug(parameters)}-{simulator}"
                    + (f"-seed{seed_index + 1}" if SEEDS > 1 else ""))
    for bench in sorted(benches.BENCHES, key=lambda bench: not bench.heavy)
    for parameters in bench.suite_parameter_sets(REGRESS)
    for simulator in toolchain.SIMULATORS if parameters in bench.suite_parameter_sets(REGRESS, simulator)
    for seed_index in range(SEEDS)
]


@pytest.mark.cocotb
@pytest.mark.parametrize("bench,parameters,simulator,seed_index", CASES)
def test_bench(bench, parameters, simulator, seed_index, record_property, require_simulator):
    require_simulator(simulator)
    # DPUV_SEED fixes the seeds (the n-th seed of a case is DPUV_SEED + n - 1); otherwise each is drawn
    seed = int(os.environ["DPUV_SEED"]) + seed_index if os.environ.get("DPUV_SEED") else None
    result = runner.run(bench, parameters, simulator, seed=seed, testcase=bench.test_filter(REGRESS, simulator))
    record_property("seed", result.seed)
    print(f"seed {result.seed}; reproduce with: {result.reproduce_command()}")
    assert result.passed, result.failure_report()
