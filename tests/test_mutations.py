"""Break one line of a common block on purpose: its testbench must fail on both simulators.

Each mutation runs on a copy of rtl/common in a scratch folder, so the real sources are never
touched and the mutant builds in its own folder.
"""

import shutil

import pytest

from dpuv.sim import benches, runner, toolchain

COMMON = benches.PROJECT_ROOT / "rtl" / "common"

MUTATIONS = [
    pytest.param("axis_skid_buffer", "axis_skid_buffer.v", "skid_valid <= 1'b1;", "",
                 "frames_arrive_intact", id="skid-buffer-loses-the-beat-it-should-catch"),
    pytest.param("crc32", "crc32.v", "32'hEDB88320", "32'hEDB88321",
                 "known_answer", id="crc-polynomial-off-by-one-bit"),
    pytest.param("axis_arb_mux", "rr_arbiter.v", "last_granted <= grant_index;", "",
                 "saturated_inputs_take_round_robin_turns", id="arbiter-forgets-who-went-last"),
]


@pytest.mark.cocotb
@pytest.mark.parametrize("simulator", toolchain.SIMULATORS)
@pytest.mark.parametrize("bench_name,file_name,original,replacement,testcase", MUTATIONS)
def test_mutant_is_caught(bench_name, file_name, original, replacement, testcase, simulator, tmp_path):
    try:
        toolchain.find(simulator)
    except toolchain.ToolchainError as error:
        pytest.skip(str(error))
    mutant_dir = tmp_path / "common"
    shutil.copytree(COMMON, mutant_dir)
    target = mutant_dir / file_name
    text = target.read_text()
    assert text.count(original) == 1, f"the mutation site {original!r} must occur once in {file_name}"
    target.write_text(text.replace(original, replacement))

    bench = benches.find(bench_name)
    mutant = bench.built_from((str(mutant_dir / "common.f"),), f"mutant-{file_name.removesuffix('.v')}-{testcase}")
    result = runner.run(mutant, bench.parameter_sets[0], simulator, seed=1, testcase=testcase, record=False)
    assert result.outcomes, f"the mutant did not run: {result.failure_report()}"
    assert not result.passed, f"{testcase} passed against a broken {file_name} on {simulator}"
