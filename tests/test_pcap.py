# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""`make sim ... PCAP=file`: the capture of a WRITE, READ and SEND exchange with loss-driven
retransmission decodes in tshark (an independent dissector: InfiniBand over UDP 4791) with the
opcodes and PSNs the engine and its peer put on the wire."""

import os
import shutil
import subprocess

import pytest

from dpuv.models.roce_packet import Opcode
from dpuv.harness import benches, runner

pytestmark = pytest.mark.cocotb

EXCHANGE = "every_request_completes_once_through_a_lossy_wire/loss=0.1"


def _tshark() -> str:
    found = shutil.which("tshark")
    if not found:
        message = "tshark is not installed (sudo apt-get install tshark)"
        if os.environ.get("DPUV_REQUIRE_TSHARK"):
            pytest.fail(message)
        pytest.skip(message)
    return found


def test_tshark_decodes_the_capture_of_a_lossy_exchange(tmp_path, require_simulator):
    tshark = _tshark()
    require_simulator("verilator")
    capture = tmp_path / "rdma.pcap"
    bench = benches.find("rdma_engine")
    # A build folder of its own, so this run never shares one with the bench's regression run
    pcap_bench = bench.built_from(bench.file_lists, "rdma_engine-pcap")
    result = runner.run(pcap_bench, {"DATA_WIDTH": 64}, "verilator", seed=7, testcase=EXCHANGE, record=False,
                        environment={"DPUV_PCAP": str(capture)})
    assert result.passed and result.outcomes, result.failure_report()
    decoded = subprocess.run([tshark, "-r", str(capture), "-T", "fields", "-E", "separator=,",
                              "-e", "udp.dstport", "-e", "ip.src", "-e", "infiniband.bth.opcode",
                              "-e", "infiniband.bth.psn", "-e", "infiniband.bth.destqp"],
                             capture_output=True, text=True, timeout=120)
    assert decoded.returncode == 0, decoded.stderr
    rows = [line.split(",") for line in decoded.stdout.splitlines() if line]
    assert rows and all(row[0] == "4791" and row[2] for row in rows), "a frame tshark did not decode as RoCE"
    opcodes = {int(row[2]) for row in rows}
    for wanted in (Opcode.RDMA_WRITE_ONLY, Opcode.RDMA_READ_REQUEST, Opcode.RDMA_READ_RESPONSE_ONLY,
                   Opcode.ACKNOWLEDGE, Opcode.SEND_ONLY):
        assert wanted in opcodes, f"no {wanted.name} in the capture: {sorted(opcodes)}"
    requester_psns = [(int(row[4], 0), int(row[3], 0)) for row in rows if row[1] == "10.0.0.2"]
    assert len(requester_psns) > len(set(requester_psns)), "no request was retransmitted"
