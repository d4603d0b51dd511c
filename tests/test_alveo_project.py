# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The Alveo U55C build (rtl/boards/alveo_u55c) as far as it can be tested without Vivado:
build.tcl runs in tclsh against recording stand-ins of the Vivado commands and names only files
that exist, the part, the top and the two hard blocks whose simulation models the repository
has; the constraints pin every port of the top exactly once and clock its three clock inputs;
the top elaborates with the models in Verilator (lint, -Wall) and in Icarus."""

import json
import os
import re
import shutil
import subprocess

import pytest

from dpuv.harness import benches, toolchain

ROOT = benches.PROJECT_ROOT
BOARD = ROOT / "rtl" / "boards" / "alveo_u55c"
BUILD_SCRIPT = BOARD / "build.tcl"
CONSTRAINTS = BOARD / "alveo_u55c.xdc"
TOP_SOURCE = BOARD / "alveo_u55c_top.v"
MODEL_LIST = "rtl/boards/alveo_u55c/models/models.f"
STUBS = ROOT / "tests" / "alveo" / "vivado_stubs.tcl"
TOP = "alveo_u55c_top"
PART = "xcu55c-fsvh2892-2L-e"
# Clock inputs and their periods in ns: the slot's PCIe reference, the 100G transceivers' reference
# (161.1328125 MHz), the board's 100 MHz
CLOCKS = {"pcie_refclk_p": 10.0, "qsfp0_refclk_p": 1000 / 161.1328125, "clk_100mhz_p": 10.0}
# Ports that are transceiver pins or their reference clocks: no I/O standard (the transceiver sets it)
TRANSCEIVER_PORT = re.compile(r"(pcie|qsfp0)_(rx|tx|refclk)_[pn]$")


def tclsh() -> str:
    path = shutil.which("tclsh")
    if path is None:
        pytest.fail("tclsh not found: install Debian's tcl package (README, system packages)")
    return path


def run_under_stubs(script, record, *arguments) -> list[list[str]]:
    completed = subprocess.run([tclsh(), str(STUBS), str(script), *map(str, arguments)], capture_output=True,
                               text=True, env={**os.environ, "DPUV_VIVADO_RECORD": str(record)}, timeout=60)
    assert completed.returncode == 0, f"{script.name} under the Vivado stand-ins:\n{completed.stderr}"
    return [json.loads(line) for line in record.read_text().splitlines()]


@pytest.fixture(scope="module")
def calls(tmp_path_factory):
    folder = tmp_path_factory.mktemp("vivado")
    return run_under_stubs(BUILD_SCRIPT, folder / "calls.jsonl", folder / "build")


def named(calls, command):
    return [call[1:] for call in calls if call[0] == command]


def option(arguments, name):
    return arguments[arguments.index(name) + 1]


def ip_configuration(calls, module_name) -> dict[str, str]:
    for arguments in named(calls, "set_property"):
        if arguments[0] == "-dict" and arguments[-1] == module_name:
            pairs = arguments[1:-1]
            return {key.removeprefix("CONFIG."): value for key, value in zip(pairs[::2], pairs[1::2])}
    raise AssertionError(f"build.tcl never configures {module_name}")


def top_ports() -> list[str]:
    """Every bit of the top's ports, as the constraints name them (name[index] for a bus)."""
    text = TOP_SOURCE.read_text()
    header = text[text.index(f"module {TOP}"):text.index("\n);\n")].split("\n) (\n", 1)[1]
    ports = []
    for match in re.finditer(r"(?:input|output)\s+wire\s*(?:\[(\d+):0\])?\s*(\w+)", header):
        msb, name = match.groups()
        ports += [name] if msb is None else [f"{name}[{bit}]" for bit in range(int(msb) + 1)]
    return ports


def file_lists() -> list[str]:
    """The file lists build.tcl reads (its `file_lists` variable), the one place they are named."""
    return re.search(r"set file_lists \{([^}]*)\}", BUILD_SCRIPT.read_text()).group(1).split()


def test_the_script_builds_the_u55c_part_with_its_top(calls):
    assert option(named(calls, "create_project")[0], "-part") == PART
    synthesis = named(calls, "synth_design")
    assert len(synthesis) == 1
    assert option(synthesis[0], "-top") == TOP and option(synthesis[0], "-part") == PART


def test_the_steps_come_in_a_buildable_order(calls):
    order = ["create_project", "read_verilog", "read_xdc", "create_ip", "generate_target", "synth_ip", "synth_design",
             "opt_design", "place_design", "route_design", "report_timing_summary", "get_timing_paths", "write_bitstream"]
    commands = [call[0] for call in calls]
    firsts = [commands.index(command) for command in order]
    assert firsts == sorted(firsts), f"out of order: {[order[i] for i in range(len(order))]} at {firsts}"
    # The bitstream is the last thing written, after the timing check that may refuse it
    assert commands[-1] == "write_bitstream"


def test_vivado_reads_the_design_not_the_simulation_models(calls):
    read = [path for arguments in named(calls, "read_verilog") for path in arguments if not path.startswith("-")]
    assert str(TOP_SOURCE) in read
    assert str(ROOT / "rtl" / "bringup" / "board_node.v") in read
    models = {str(path) for path in benches.Bench(
        name="models", toplevel=TOP, test_dir="", file_lists=(MODEL_LIST,), parameter_sets=(), description="").sources()}
    assert models, "no simulation models found"
    assert not models & set(read), "Vivado must get the real hard blocks, not their models"
    assert [str(CONSTRAINTS)] in named(calls, "read_xdc")


def test_every_hard_block_has_a_simulation_model(calls):
    created = {option(arguments, "-module_name"): option(arguments, "-name") for arguments in named(calls, "create_ip")}
    assert created == {"dpuv_pcie": "pcie4c_uscale_plus", "dpuv_cmac": "cmac_usplus"}
    models = ""
    for line in (ROOT / MODEL_LIST).read_text().splitlines():
        entry = line.split("#", 1)[0].strip()
        if entry:
            models += (ROOT / MODEL_LIST).parent.joinpath(entry).read_text()
    for module_name in created:
        assert re.search(rf"^module {module_name}\b", models, re.MULTILINE), f"no simulation model of {module_name}"
        assert re.search(rf"^{module_name} \w+ \(", TOP_SOURCE.read_text(), re.MULTILINE), f"the top never uses {module_name}"


def test_the_hard_blocks_match_what_the_top_expects(calls):
    pcie = ip_configuration(calls, "dpuv_pcie")
    assert pcie["PL_LINK_CAP_MAX_LINK_WIDTH"] == "X16" and pcie["PL_LINK_CAP_MAX_LINK_SPEED"] == "8.0_GT/s"
    # The node runs on the block's user clock at the width and rate every engine figure assumes
    assert pcie["axisten_if_width"] == "512_bit" and pcie["axisten_freq"] == "250"
    # BAR0 spans exactly the BAR decoder's address bits
    address_bits = int(re.search(r"pcie_us_cq_axil #\(\s*\.DATA_WIDTH\(DATA_WIDTH\), \.ADDR_WIDTH\((\d+)\)",
                                 TOP_SOURCE.read_text()).group(1))
    scale = {"Kilobytes": 1 << 10, "Megabytes": 1 << 20}[pcie["pf0_bar0_scale"]]
    assert int(pcie["pf0_bar0_size"]) * scale == 1 << address_bits
    mac = ip_configuration(calls, "dpuv_cmac")
    assert mac["USER_INTERFACE"] == "AXIS" and mac["CMAC_CAUI4_MODE"] == "1"
    assert float(mac["GT_REF_CLK_FREQ"]) == pytest.approx(1000 / CLOCKS["qsfp0_refclk_p"])
    # The MAC takes frames as large as the RDMA engine sends at a 4096-byte MTU
    assert int(mac["RX_MAX_PACKET_LEN"]) >= 4096 + 14 + 20 + 8 + 12 + 4 + 4


@pytest.fixture(scope="module")
def constraints(tmp_path_factory):
    folder = tmp_path_factory.mktemp("xdc")
    return run_under_stubs(CONSTRAINTS, folder / "constraints.jsonl")


def test_every_port_is_pinned_exactly_once(constraints):
    pins = {}
    for arguments in named(constraints, "set_property"):
        if arguments[0] == "PACKAGE_PIN":
            pin, port = arguments[1], arguments[2]
            assert port not in pins, f"{port} pinned twice ({pins[port]}, {pin})"
            pins[port] = pin
    ports = top_ports()
    assert set(pins) == set(ports), (f"pinned but not ports of the top: {sorted(set(pins) - set(ports))}; "
                                     f"ports left unpinned: {sorted(set(ports) - set(pins))}")
    used = list(pins.values())
    assert len(used) == len(set(used)), "two ports on one pin"


def test_every_general_purpose_port_has_an_io_standard(constraints):
    standards = {}
    for arguments in named(constraints, "set_property"):
        if arguments[0] == "IOSTANDARD":
            for port in arguments[2].split():
                standards[port] = arguments[1]
    missing = [port for port in top_ports() if not TRANSCEIVER_PORT.match(port.split("[")[0]) and port not in standards]
    assert not missing, f"no IOSTANDARD: {missing}"
    assert standards["clk_100mhz_p"] == standards["clk_100mhz_n"] == "LVDS"


def test_every_clock_input_is_clocked_at_its_rate(constraints):
    clocks = {}
    for arguments in named(constraints, "create_clock"):
        clocks[arguments[-1]] = float(option(arguments, "-period"))
    for port, period in CLOCKS.items():
        assert clocks.get(port) == pytest.approx(period, abs=0.001), f"{port}: {clocks.get(port)} ns, expected {period:.3f}"


def card_bench() -> benches.Bench:
    return next(bench for bench in benches.ALL_BENCHES if bench.toplevel == TOP)


def test_the_card_bench_builds_what_vivado_builds():
    """The simulation (tb/bringup, bench alveo_u55c) builds from build.tcl's file lists, in their
    order, and adds only the hard blocks' models."""
    assert list(card_bench().file_lists) == [*file_lists(), MODEL_LIST]


def design_sources():
    bench = card_bench()
    sources = [str(source) for source in bench.sources() if source.suffix != benches.HEADER_SUFFIX]
    return sources, [f"-I{folder}" for folder in bench.include_dirs()]


@pytest.mark.parametrize("loopback", [0, 1])
def test_the_top_elaborates_with_the_models_in_verilator(loopback):
    verilator = toolchain.find("verilator")
    toolchain.activate(verilator)
    sources, includes = design_sources()
    completed = subprocess.run([str(verilator.executable), "--lint-only", "-Wall", "--top-module", TOP,
                                f"-GNEAR_END_LOOPBACK={loopback}", *includes, *sources],
                               capture_output=True, text=True, timeout=600)
    assert completed.returncode == 0, completed.stderr[-6000:]


def test_the_top_elaborates_with_the_models_in_icarus(tmp_path):
    icarus = toolchain.find("icarus")
    sources, includes = design_sources()
    verilog = [source for source in sources if not source.endswith(".vlt")]
    compiler = icarus.executable.parent / "iverilog"
    completed = subprocess.run([str(compiler), "-g2012", "-s", TOP, "-o", str(tmp_path / "top.vvp"), *includes, *verilog],
                               capture_output=True, text=True, timeout=600)
    assert completed.returncode == 0, completed.stderr[-6000:]


def test_the_stand_ins_refuse_what_vivado_would(tmp_path):
    """The stand-ins are what makes the script's test worth anything: each refusal they promise."""
    cases = {
        "missing_file": "read_verilog /no/such/file.v\n",
        "unknown_ip": "get_ips dpuv_nothing\n",
        "unknown_command": "synth_desing -top x -part y\n",
        "ip_without_module_name": "create_ip -name cmac_usplus\n",
    }
    for label, script in cases.items():
        path = tmp_path / f"{label}.tcl"
        path.write_text(script)
        completed = subprocess.run([tclsh(), str(STUBS), str(path)], capture_output=True, text=True, timeout=60,
                                   env={**os.environ, "DPUV_VIVADO_RECORD": str(tmp_path / f"{label}.jsonl")})
        assert completed.returncode != 0 and "vivado stand-in" in completed.stderr, f"{label} was accepted"
