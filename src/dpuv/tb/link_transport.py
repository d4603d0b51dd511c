# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""cocotb transport of the board link: bytes over a design's 8-bit link streams."""

from __future__ import annotations

from cocotb.triggers import ClockCycles
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource

from dpuv.regs.board_link import ByteTransport
from dpuv.tb.testbench import CLOCK_PERIOD_NS, quiet


class CocotbLinkTransport(ByteTransport):
    def __init__(self, dut, clock, reset, to_device: str = "s_link", from_device: str = "m_link"):
        self.clock = clock
        self.source = AxiStreamSource(AxiStreamBus.from_prefix(dut, to_device), clock, reset)
        self.sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, from_device), clock, reset)
        quiet(self.source, self.sink)

    async def send(self, data: bytes) -> None:
        await self.source.send(AxiStreamFrame(data))

    async def receive(self, timeout: float) -> bytes:
        waited, limit = 0, int(timeout * 1e9 / CLOCK_PERIOD_NS)
        while self.sink.empty() and waited < limit:
            await ClockCycles(self.clock, 4)
            waited += 4
        received = bytearray()
        while not self.sink.empty():
            received += self.sink.recv_nowait().tdata
        return bytes(received)

    async def cycles(self, count: int) -> None:
        await ClockCycles(self.clock, count)
