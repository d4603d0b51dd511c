# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""roce_dcqcn_rate refuses a build parameter out of range at elaboration, with a message that
names the parameter and the instance, on both simulators (its DCQCN parameters are ports, checked
by whoever writes the registers; these are the ones that size the hardware)."""

import pytest

from dpuv.harness import benches, runner, toolchain

BENCH = benches.find("roce_dcqcn_rate")
# One parameter out of range at a time, on the bench's default build
BAD_PARAMETERS = [
    ({"CLOCK_PERIOD_PS": 1000001}, "CLOCK_PERIOD_PS must be 1 to 1000000"),
    ({"RATE_WIDTH": 33}, "RATE_WIDTH must be 1 to 32"),
    ({"ALPHA_FRACTION_BITS": 17}, "ALPHA_FRACTION_BITS must be 1 to 16"),
    ({"BYTE_COUNT_WIDTH": 33}, "BYTE_COUNT_WIDTH must be 1 to 32"),
]


@pytest.mark.cocotb
@pytest.mark.parametrize("simulator", toolchain.SIMULATORS)
@pytest.mark.parametrize("bad,message", BAD_PARAMETERS, ids=[next(iter(bad)) for bad, _ in BAD_PARAMETERS])
def test_a_parameter_out_of_range_is_refused_with_its_message(bad, message, simulator, require_simulator):
    require_simulator(simulator)
    result = runner.run(BENCH, {**BENCH.parameter_sets[0], **bad}, simulator, seed=1,
                        testcase="repeated_cnps_drive_the_rate_to_its_minimum_and_hold_it_there", record=False)
    assert not result.passed
    assert any(f"Error: {message}" in line and "roce_dcqcn_rate" in line for line in result.hdl_errors), \
        result.failure_report()
