# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""nvme_controller's BAR0 registers as the NVMe base specification defines them, the host driver
model's reset, enable and shutdown, unsupported settings, and requests the completer refuses."""

from __future__ import annotations

import cocotb
from cocotb.triggers import ClockCycles

from dpuv.drivers import nvme
from dpuv.drivers.nvme import (ACQ, AQA, ASQ, CAP, CC, CC_EN, CC_IOCQES_16, CC_IOSQES_64, CSTS, CSTS_CFS, CSTS_RDY,
                               VS, Capabilities, ControllerError)
from dpuv.regs.access import BusError
from dpuv.tb.testbench import CycleCounter, HandshakeMonitor, build_parameters

from nvme_bench import TB


# Completer request types (PG213, CQ descriptor bits 78:75)
REQUEST_MEMORY_READ, REQUEST_MEMORY_WRITE = 0b0000, 0b0001


def completer_descriptor(address: int, request_type: int, dwords: int = 1, tag: int = 0) -> bytes:
    """A 16-byte completer request descriptor (PG213, DWORD-aligned mode) as the core would hand it over."""
    value = (address & ~3) | dwords << 64 | request_type << 75 | 0x0100 << 80 | tag << 96
    return value.to_bytes(16, "little")


@cocotb.test(timeout_time=20, timeout_unit="us")
async def registers_read_as_the_specification_defines(dut):
    tb = TB(dut)
    await tb.bring_up()
    cap = await tb.bar.read_qword(CAP)  # one 2-dword read
    assert cap == await tb.host.read_qword(CAP), "a 64-bit read and two 32-bit reads of CAP differ"
    capabilities = Capabilities.decode(cap)
    parameters = build_parameters()
    assert capabilities.max_queue_entries == parameters.get("MAX_QUEUE_ENTRIES", 1024)
    assert capabilities.contiguous_queues and capabilities.nvm_command_set and capabilities.timeout_ms >= 500
    assert capabilities.doorbell_stride == 4 and capabilities.page_size_min == capabilities.page_size_max == 4096
    assert await tb.bar.read_dword(VS) == 0x00010400
    assert await tb.bar.read_dword(CSTS) == 0 and await tb.bar.read_dword(CC) == 0
    # Read-only registers ignore writes
    await tb.bar.write_dword(CAP, 0xFFFFFFFF)
    await tb.bar.write_dword(VS, 0)
    await tb.bar.write_dword(CSTS, 0xFFFFFFFF)
    assert await tb.bar.read_qword(CAP) == cap and await tb.bar.read_dword(VS) == 0x00010400
    assert await tb.bar.read_dword(CSTS) == 0
    # INTMS sets and INTMC clears the one mask
    await tb.bar.write_dword(nvme.INTMS, 0x0000_0005)
    await tb.bar.write_dword(nvme.INTMC, 0x0000_0001)
    assert await tb.bar.read_dword(nvme.INTMS) == 4 == await tb.bar.read_dword(nvme.INTMC)
    # Byte enables: one byte written leaves the others
    await tb.bar.write_dword(AQA, 0x001F_003F)
    await tb.bar.write(AQA + 1, b"\x01")
    assert await tb.bar.read_dword(AQA) == 0x001F_013F
    # The admin queue bases are 4 KiB aligned: their low 12 bits read as 0
    await tb.host.write_qword(ASQ, 0x1_2345_6789)
    await tb.host.write_qword(ACQ, 0x2_3456_7ABC)
    assert await tb.host.read_qword(ASQ) == 0x1_2345_6000 and await tb.host.read_qword(ACQ) == 0x2_3456_7000


@cocotb.test(timeout_time=20, timeout_unit="us")
async def the_driver_enables_and_disables_the_controller(dut):
    tb = TB(dut)
    await tb.bring_up()
    host = tb.host
    await host.reset()
    await host.set_admin_queues(0x10000, 32, 0x20000, 16)
    await host.enable()
    csts = await tb.bar.read_dword(CSTS)
    assert csts & (CSTS_RDY | CSTS_CFS) == CSTS_RDY, hex(csts)
    # While enabled, the admin queue registers do not change, and only SHN of CC does
    await tb.bar.write_dword(AQA, 0)
    await host.write_qword(ASQ, 0x99000)
    await host.write_qword(ACQ, 0x98000)
    assert await tb.bar.read_dword(AQA) == (15 << 16 | 31) and await host.read_qword(ASQ) == 0x10000
    assert await host.read_qword(ACQ) == 0x20000
    await tb.bar.write_dword(CC, CC_EN | 7 << 16 | CC_IOCQES_16)
    assert await tb.bar.read_dword(CC) == CC_EN | CC_IOSQES_64 | CC_IOCQES_16
    # A normal shutdown completes, then disabling clears RDY and the shutdown status
    csts = await host.shutdown()
    assert csts & CSTS_RDY
    await host.reset()
    assert await tb.bar.read_dword(CSTS) == 0
    # And the controller comes up again; an abrupt shutdown completes too, and disabling clears it
    await host.set_admin_queues(0x30000, 2, 0x40000, 2)
    await host.enable()
    csts = await host.shutdown(abrupt=True)
    assert csts & CSTS_RDY
    await host.reset()
    assert await tb.bar.read_dword(CSTS) == 0


@cocotb.test(timeout_time=20, timeout_unit="us")
async def unsupported_settings_give_a_fatal_status_until_disabled(dut):
    """CC asking for I/O SQ entries of 128 B, or 8 KiB pages: CSTS.CFS instead of RDY; clearing
    EN clears it, and a good CC then brings the controller up."""
    tb = TB(dut)
    await tb.bring_up()
    host = tb.host
    await host.reset()
    await host.set_admin_queues(0x10000, 32, 0x20000, 32)
    for bad_cc in (7 << 16 | CC_IOCQES_16, CC_IOSQES_64 | CC_IOCQES_16 | 1 << 7):
        try:
            await host.enable(bad_cc)
        except ControllerError as error:
            assert "fatal" in str(error)
        else:
            raise AssertionError(f"CC {bad_cc:#x} brought the controller up")
        assert await tb.bar.read_dword(CSTS) & CSTS_CFS
        await host.reset()
        assert await tb.bar.read_dword(CSTS) == 0
    await host.enable()


@cocotb.test(timeout_time=10, timeout_unit="us")
async def requests_the_completer_does_not_carry_are_refused(dut):
    """A read longer than a 64-bit register is answered Unsupported Request (the root complex
    reports the unsuccessful completion); a write longer than one is dropped, also when it takes
    more than one beat (its later beats are taken, never read as requests); the controller keeps
    answering."""
    tb = TB(dut)
    await tb.bring_up()
    try:
        await tb.bar.read(0, 16)
    except BusError as error:
        assert "unsuccessful completion" in str(error), error
    else:
        raise AssertionError("a 4-dword read of BAR0 was answered successfully")
    # A write longer than 2 dwords is dropped (posted: nothing to answer)
    await tb.bar.write(AQA, bytes(range(1, 17)))
    assert await tb.bar.read_dword(AQA) == 0
    assert await tb.bar.read_dword(VS) == 0x00010400
    # 64 bytes take more than one beat behind the descriptor at every width. Its data is laid out
    # so that the later beats, were they read as requests, would be a write and then a read of
    # 1 dword (PG213 descriptors): the read would be answered on the completion port
    completions = HandshakeMonitor(dut, "s_axis_cc", CycleCounter(dut.user_clk))
    data = bytes(16) + completer_descriptor(AQA, REQUEST_MEMORY_WRITE) + bytes(16) + \
        completer_descriptor(VS, REQUEST_MEMORY_READ, tag=0x5A)
    await tb.bar.write(AQA, data)
    await ClockCycles(dut.user_clk, 100)
    assert not completions.last_beat_cycles, "a beat of a dropped write was taken as a request and answered"
    assert await tb.bar.read_dword(AQA) == 0
    assert await tb.bar.read_dword(VS) == 0x00010400
