# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The PCIe BAR backend (dpuv.regs.bar_mmap) against file-backed mappings: exact bytes at every
width and alignment in 32-bit accesses only, clear refusals, and `dpuv bringup --link pci://...`
walking the chain and passing its checks against a register space laid out in a file."""

import asyncio
import json
from pathlib import Path

import pytest

from dpuv.board import bringup
from dpuv.regs import bar_mmap
from dpuv.regs.maps import id_block

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


def test_bringup_over_a_mapped_bar_walks_the_chain_and_passes(tmp_path, capsys):
    """A register space laid out in a file from the ID block's register map, as a card's BAR0
    shows it: the chain walk, identification and the SCRATCH self-test over the mapping."""
    bar = tmp_path / "resource0"
    bar.write_bytes(bytes(0x1000))
    lay_out_id_block(bar)
    report_path = tmp_path / "bringup.json"
    assert bringup.main(["bringup", "--link", f"pci://{bar}", "--json", str(report_path)]) == 0, capsys.readouterr().out
    report = json.loads(report_path.read_text())
    assert [block["type"] for block in report["blocks"]] == ["DPID"]
    assert report["identity"] | {"design_version": None} == {"design_version": None, "git_hash": f"{GIT_HASH:08x}",
                                                              "git_dirty": 0, "simulation": 0, "stream_bytes": 8,
                                                              "clock_khz": 250000}
    assert [(check["name"], check["passed"]) for check in report["checks"]] == [("register self-test", True)]


def test_bringup_over_a_mapped_bar_refuses_what_is_not_dpuv(tmp_path, capsys):
    bar = tmp_path / "resource0"
    bar.write_bytes(b"\xff" * 0x1000)  # what a BAR reads when the card has gone from the bus
    assert bringup.main(["bringup", "--link", f"pci://{bar}"]) == 2
    assert "no dpuv ID block at address 0: MAGIC reads 0xffffffff" in capsys.readouterr().out


GIT_HASH = 0x1234ABCD


def lay_out_id_block(path: Path) -> None:
    """The ID block's registers at their reset values, the chain ending with it, a board build's options."""
    image = bytearray(path.read_bytes())
    for register in id_block.BLOCK.registers:
        image[register.offset:register.offset + register.width // 8] = (register.reset or 0).to_bytes(register.width // 8, "little")
    options = id_block.BLOCK["BUILD_OPTIONS"]
    for name, value in (("BLOCK_NEXT", 0), ("GIT_HASH", GIT_HASH), ("CLOCK_FREQ_KHZ", 250000),
                        ("BUILD_OPTIONS", options.field("stream_bytes").insert(0, 8))):
        offset = id_block.BLOCK[name].offset
        image[offset:offset + 4] = value.to_bytes(4, "little")
    path.write_bytes(bytes(image))
