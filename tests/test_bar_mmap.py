# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The PCIe BAR backend (dpuv.regs.bar_mmap) against file-backed mappings: exact bytes at every
width and alignment in 32-bit accesses only, clear refusals, and `dpuv bringup --link pci://...`
walking the chain and passing its checks against a simulated register space served in a file."""

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dpuv.board import bringup
from dpuv.regs import bar_mmap

SERVER = Path(__file__).with_name("bar_register_space.py")


def run(coroutine):
    return asyncio.run(coroutine)


@pytest.fixture
def bar(tmp_path):
    path = tmp_path / "resource0"
    path.write_bytes(bytes(range(256)) * 4)
    access = bar_mmap.MmapBarAccess(path)
    yield access, path
    access.close()


def test_reads_and_writes_land_on_the_right_bytes_at_every_width_and_alignment(bar):
    access, path = bar
    expected = bytearray(path.read_bytes())
    for address, length in [(0, 4), (4, 8), (1, 1), (2, 2), (3, 2), (5, 7), (1020, 4), (13, 1)]:
        assert run(access.read(address, length)) == bytes(expected[address:address + length])
        data = bytes((address * 7 + index * 13) & 0xFF for index in range(length))
        run(access.write(address, data))
        expected[address:address + length] = data
        assert path.read_bytes() == bytes(expected), f"write of {length} bytes at {address:#x} touched other bytes"
    assert run(access.read_qword(8)) == int.from_bytes(expected[8:16], "little")


def test_every_access_is_a_whole_aligned_dword(bar, monkeypatch):
    access, _ = bar
    touched = []

    class Recording:
        def __init__(self, dwords):
            self.dwords = dwords

        def __getitem__(self, index):
            touched.append(("load", index))
            return self.dwords[index]

        def __setitem__(self, index, value):
            touched.append(("store", index))
            self.dwords[index] = value

    monkeypatch.setattr(access, "_dwords", Recording(access._dwords))
    run(access.write_qword(8, 0x1122334455667788))
    assert touched == [("store", 2), ("store", 3)], "a whole-dword write must not read first"
    touched.clear()
    run(access.write_byte(6, 0xAB))
    assert touched == [("load", 1), ("store", 1)], "a byte write is a read-modify-write of its dword"
    assert run(access.read_byte(6)) == 0xAB


def test_accesses_outside_the_bar_are_refused(bar):
    access, _ = bar
    for address, length in [(1024, 4), (1022, 4), (-4, 4), (0, 0)]:
        with pytest.raises(bar_mmap.BarError, match="outside"):
            run(access.read(address, length))
    with pytest.raises(bar_mmap.BarError, match="outside"):
        run(access.write(1021, b"\x00" * 4))


def test_links_name_a_sysfs_resource_file_or_a_path():
    assert bar_mmap.resource_path("pci://0000:03:00.0") == Path("/sys/bus/pci/devices/0000:03:00.0/resource0")
    assert bar_mmap.resource_path("pci://0000:af:00.1/resource2") == Path("/sys/bus/pci/devices/0000:af:00.1/resource2")
    assert bar_mmap.resource_path("pci:///tmp/bar0") == Path("/tmp/bar0")
    for wrong in ["pci://03:00.0", "pci://0000:03:00.8", "pci://0000:03:00.0/resource6", "pci://0000:03:00.0/bar0"]:
        with pytest.raises(bar_mmap.BarError, match="expected pci://"):
            bar_mmap.resource_path(wrong)


def test_a_bar_that_cannot_be_mapped_is_refused_clearly(tmp_path):
    with pytest.raises(bar_mmap.BarError, match="cannot open the BAR"):
        bar_mmap.MmapBarAccess(tmp_path / "absent")
    odd = tmp_path / "odd"
    odd.write_bytes(b"\x00" * 6)
    with pytest.raises(bar_mmap.BarError, match="not a BAR of whole 32-bit registers"):
        bar_mmap.MmapBarAccess(odd)


def test_bringup_refuses_a_device_that_is_absent(capsys):
    assert bringup.main(["bringup", "--link", "pci://0000:ff:1f.7"]) == 2
    assert "cannot open the link pci://0000:ff:1f.7" in capsys.readouterr().out


@pytest.fixture
def served_bar(tmp_path):
    path = tmp_path / "resource0"
    server = subprocess.Popen([sys.executable, str(SERVER), str(path)])
    ready = tmp_path / "resource0.ready"
    deadline = time.monotonic() + 30
    while not ready.exists():
        assert server.poll() is None, "the simulated register space exited"
        assert time.monotonic() < deadline, "the simulated register space never became ready"
        time.sleep(0.01)
    yield path
    server.kill()
    server.wait()


def test_bringup_over_a_mapped_bar_walks_the_chain_and_passes(served_bar, tmp_path, capsys):
    report_path = tmp_path / "bringup.json"
    assert bringup.main(["bringup", "--link", f"pci://{served_bar}", "--json", str(report_path)]) == 0, capsys.readouterr().out
    report = json.loads(report_path.read_text())
    assert [block["type"] for block in report["blocks"]] == ["DPID", "PERF"]
    assert report["identity"]["git_hash"] == "1234abcd"
    assert report["identity"]["clock_khz"] == 250000
    assert [check["passed"] for check in report["checks"]] == [True, True]
