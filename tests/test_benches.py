"""Every cocotb testbench, with every parameter set, on every simulator dpuv supports.

A simulator that is not installed skips its cases with the install command, unless the
environment demands it (CI sets DPUV_REQUIRE_SIMULATORS=verilator,icarus): then it fails.
Set DPUV_SEED to rerun with a fixed seed.
"""

from __future__ import annotations

import os

import pytest

from dpuv.harness import benches, runner, toolchain

CASES = [
    pytest.param(bench, parameters, simulator, id=f"{bench.name}-{runner.parameter_slug(parameters)}-{simulator}")
    for bench in sorted(benches.BENCHES, key=lambda bench: not bench.heavy)
    for parameters in bench.parameter_sets
    for simulator in toolchain.SIMULATORS
]


@pytest.mark.cocotb
@pytest.mark.parametrize("bench,parameters,simulator", CASES)
def test_bench(bench, parameters, simulator, record_property, require_simulator):
    require_simulator(simulator)
    seed = int(os.environ["DPUV_SEED"]) if os.environ.get("DPUV_SEED") else None
    result = runner.run(bench, parameters, simulator, seed=seed)
    record_property("seed", result.seed)
    print(f"seed {result.seed}; reproduce with: {result.reproduce_command()}")
    assert result.passed, result.failure_report()
