# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""`dpuv bringup` end to end: the virtual board runs in a simulator with its link on a TCP port,
and the bring-up command, a separate process, identifies and checks it over a socket:// link."""

import json
import socket
import subprocess
import sys
import time

import pytest

from dpuv.harness import runner, suite, toolchain

PROJECT_ROOT = runner.PROJECT_ROOT


# What each virtual board build's chain holds, and the check that shows its engines at work (the
# RDMA pair is built as for the ECP5-85F, without the self-test: the board's ID block, then the nodes)
BUILDS = {
    "none": (["DPID", "PERF", "TRAF"], "traffic through", "8192 bytes checked"),
    "rdma-pair": (["DPID", "DPID", "RDMA", "DPID", "RDMA"], "RDMA pair smoke", "every byte checked"),
    "ring": (["DPID", "PERF", "TRAF", "DPID", "ARED", "DPID", "ARED"], "all-reduce ring of known vectors",
             "every element equal to the ring-order model's"),
}


def _virtual_board_cases() -> list[tuple[str, str]]:
    """Every build on both simulators in `make regress`. In `make test`, Icarus serves only the
    build without engines over TCP (7 and 2.5 minutes for the engine builds there, a sixth of the
    suite): its engine scenarios run on Icarus through the UART pins in benches board_rdma_pair
    and board_rank_ring, and over TCP on Verilator."""
    return [(simulator, engines) for simulator in toolchain.SIMULATORS for engines in sorted(BUILDS)
            if suite.regress_tier() or simulator != "icarus" or engines == "none"]


@pytest.mark.cocotb
@pytest.mark.parametrize(("simulator", "engines"), _virtual_board_cases())
def test_bringup_against_the_virtual_board(simulator, engines, tmp_path, require_simulator):
    require_simulator(simulator)
    port_file = tmp_path / "port"
    board = subprocess.Popen(
        [sys.executable, "-m", "dpuv.harness.cli", "board", "--sim", simulator, "--port", "0",
         "--port-file", str(port_file), "--idle-seconds", "60", "--quiet", "--engines", engines],
        cwd=PROJECT_ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 600  # the first call builds the simulation
        while not (port_file.exists() and port_file.read_text()):
            assert board.poll() is None, f"the virtual board stopped early:\n{board.stdout.read()}"
            assert time.monotonic() < deadline, "the virtual board never started listening"
            time.sleep(0.5)
        report_file = tmp_path / "bringup.json"
        bringup = subprocess.run(
            [sys.executable, "-m", "dpuv.board.bringup", "bringup", "--link", f"socket://127.0.0.1:{port_file.read_text()}",
             "--json", str(report_file), "--timeout", "5"], cwd=PROJECT_ROOT, capture_output=True, text=True,
            timeout=1200)  # a guard against a hang only: the slowest simulator takes about 6 minutes
        print(bringup.stdout)
        assert bringup.returncode == 0, bringup.stdout + bringup.stderr
        report = json.loads(report_file.read_text())
        assert report["passed"] and report["identity"]["simulation"] == 1
        assert report["identity"]["git_hash"] == f"{runner.stamp_parameters()['GIT_HASH']:08x}"
        blocks, check_name, detail = BUILDS[engines]
        assert [block["type"] for block in report["blocks"]] == blocks
        shown = [check for check in report["checks"] if check["name"].startswith(check_name)]
        assert shown and shown[0]["passed"] and detail in shown[0]["detail"], report["checks"]
        assert board.wait(timeout=120) == 0, "the virtual board did not stop after its client left"
    finally:
        if board.poll() is None:
            board.kill()


def test_a_silent_link_is_reported_not_hung():
    completed = subprocess.run(
        [sys.executable, "-m", "dpuv.board.bringup", "bringup", "--link", "loop://", "--timeout", "0.05",
         "--attempts", "2"], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=60)
    assert completed.returncode == 2
    assert "no valid answer from the link after 2 attempts" in completed.stdout


def test_an_unreachable_link_is_reported_not_a_traceback():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free_port = probe.getsockname()[1]
    completed = subprocess.run([sys.executable, "-m", "dpuv.board.bringup", "bringup", "--link",
                                f"socket://127.0.0.1:{free_port}"], cwd=PROJECT_ROOT, capture_output=True, text=True,
                               timeout=60)
    assert completed.returncode == 2, completed.stdout + completed.stderr
    assert "FAILED: cannot open the link" in completed.stdout and "Traceback" not in completed.stderr
