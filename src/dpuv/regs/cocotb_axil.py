# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""cocotb backend of the register access layer: a cocotbext-axi AXI4-Lite master."""

from __future__ import annotations

from cocotb.triggers import ClockCycles
from cocotbext.axi import AxiLiteBus, AxiLiteMaster, AxiResp

from dpuv.regs.access import BusError, RegisterAccess


class AxiLiteAccess(RegisterAccess):
    def __init__(self, dut, clock, reset, prefix: str = "s_axil"):
        self.clock = clock
        self.master = AxiLiteMaster(AxiLiteBus.from_prefix(dut, prefix), clock, reset)

    async def read(self, address: int, length: int) -> bytes:
        response = await self.master.read(address, length)
        if response.resp != AxiResp.OKAY:
            raise BusError("read", address, AxiResp(response.resp).name)
        return bytes(response.data)

    async def write(self, address: int, data: bytes) -> None:
        response = await self.master.write(address, data)
        if response.resp != AxiResp.OKAY:
            raise BusError("write", address, AxiResp(response.resp).name)

    async def cycles(self, count: int) -> None:
        await ClockCycles(self.clock, count)
