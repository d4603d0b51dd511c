# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The RDMA engine's host interface written once: the driver takes its counters from the register
map, and the WQE and completion layouts and codes come from rtl/rdma/host_interface.toml, which
generates the RTL's include and the docs' table."""

import asyncio
import shutil

import pytest

from dpuv import PROJECT_ROOT
from dpuv.drivers import rdma
from dpuv.drivers import rdma_host_interface as host_interface
from dpuv.models.roce_qp import WorkOpcode, WorkRequest


def test_the_driver_reads_every_counter_the_register_map_has_in_address_order():
    window = [register for register in rdma.BLOCK.registers if register.offset >= rdma.COUNTER_WINDOW]
    assert rdma.COUNTERS == tuple(register.name for register in window)
    assert [register.offset for register in window] == sorted(register.offset for register in window)
    for register in window:
        (field,) = register.fields
        assert (field.name, field.lsb, field.width, field.software_access) == ("value", 0, 32, "r"), register.name


def test_the_pkey_table_is_filled_from_entry_0_and_the_rest_emptied():
    class RecordingWindow:
        def __init__(self):
            self.written = {}

        async def write_register(self, name, value):
            self.written[name] = value

    window = RecordingWindow()
    asyncio.run(rdma.set_pkey_table(window, (0x8123, 0x0456)))
    assert window.written == {"PKEY_0": 0x8123, "PKEY_1": 0x0456, "PKEY_2": 0, "PKEY_3": 0}
    assert rdma.DEFAULT_PKEY == 0xFFFF, "entry 0 holds the default partition after reset"
    for refused in ((), (0x10000,), (0xFFFF,) * (len(rdma.PKEY_TABLE) + 1)):
        with pytest.raises(ValueError, match="P_Keys"):
            asyncio.run(rdma.set_pkey_table(window, refused))


def test_the_rtl_include_and_the_docs_table_are_generated_from_the_table():
    assert host_interface.check() == [], \
        "stale host-interface files: run `make regs` and commit"


@pytest.mark.parametrize("stale", [host_interface.VERILOG_INCLUDE, host_interface.DOCS])
def test_a_hand_edit_of_a_generated_file_is_reported(tmp_path, stale):
    for path in (host_interface.VERILOG_INCLUDE, host_interface.DOCS):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(PROJECT_ROOT / path, tmp_path / path)
    edited = tmp_path / stale
    edited.write_text(edited.read_text().replace("wr_id", "wr_ID", 1).replace("_WR_ID_LSB 0", "_WR_ID_LSB 8", 1))
    assert host_interface.check(tmp_path) == [stale]


def test_the_driver_places_every_field_where_the_table_says():
    request = WorkRequest(wr_id=0x1122334455667788, opcode=WorkOpcode.SEND_WITH_IMMEDIATE, data=bytes(300),
                          rkey=0xA5A5A5A5, remote_address=0x0102030405060708, imm=0xCAFEF00D)
    wqe = rdma.encode_wqe(request, 0x8877665544332211)
    assert len(wqe) == host_interface.SEND_WQE.size == rdma.WQE_BYTES
    expected = {"opcode": host_interface.CODES["wqe_opcode"].values["SEND_IMM"], "immediate": 0xCAFEF00D,
                "wr_id": 0x1122334455667788, "local_address": 0x8877665544332211, "length": 300,
                "rkey": 0xA5A5A5A5, "remote_address": 0x0102030405060708}
    for name, value in expected.items():
        field = host_interface.SEND_WQE[name]
        assert int.from_bytes(wqe[field.offset:field.offset + field.size], "little") == value, name
    covered = sum(field.size for field in host_interface.SEND_WQE.fields)
    assert wqe.count(0) >= host_interface.SEND_WQE.size - covered  # every other byte zero

    layout = host_interface.COMPLETION
    entry = bytearray(layout.size)
    for name, value in (("wr_id", 7), ("byte_len", 300), ("immediate", 0xBEEF), ("qpn", 0x123456),
                        ("opcode", rdma.WcOpcode.RECV), ("status", rdma.WcStatus.LOC_LEN_ERR)):
        field = layout[name]
        entry[field.offset:field.offset + field.size] = int(value).to_bytes(field.size, "little")
    entry[layout["immediate_valid"].offset] |= 1 << layout["immediate_valid"].bit
    assert rdma.EngineCompletion.decode(bytes(entry)) == rdma.EngineCompletion(
        7, rdma.WcStatus.LOC_LEN_ERR, rdma.WcOpcode.RECV, 300, 0x123456, 0xBEEF)


def test_the_driver_codes_are_the_tables():
    assert {status.name: status.value for status in rdma.WcStatus} == host_interface.CODES["wc_status"].values
    assert {opcode.name: opcode.value for opcode in rdma.WcOpcode} == host_interface.CODES["wc_opcode"].values
    assert sorted(rdma.WQE_OPCODE.values()) == sorted(host_interface.CODES["wqe_opcode"].values.values())


def test_a_field_past_its_entry_or_on_another_is_refused():
    fields = (host_interface.EntryField("a", 0, 4), host_interface.EntryField("b", 2, 4))
    with pytest.raises(ValueError, match="overlaps"):
        host_interface._check_structure(host_interface.Structure("x", "x", "X", 8, "", fields))
    with pytest.raises(ValueError, match="leaves the entry"):
        host_interface._check_structure(host_interface.Structure(
            "x", "x", "X", 8, "", (host_interface.EntryField("a", 6, 4),)))
