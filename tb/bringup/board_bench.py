# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The board top's bench: the host at the UART pins, as on a board, through the link backend."""

import io

from cocotb.triggers import ClockCycles

from dpuv.board import bringup
from dpuv.regs import chain
from dpuv.regs.board_link import LinkAccess
from dpuv.tb.testbench import start_clock_and_reset
from dpuv.tb.uart_transport import CocotbUartTransport
from link_coverage import MonitoredTransport


class TB:
    def __init__(self, dut, host_drift: float = 0.0):
        self.dut = dut
        self.uart = CocotbUartTransport.at_board_pins(dut, host_drift)
        self.clocks_per_bit = self.uart.clocks_per_bit
        # A response is at most 72 bytes of 10 bits; allow twice that before calling it lost.
        response_cycles = 2 * 72 * 10 * self.clocks_per_bit
        self.link = LinkAccess(MonitoredTransport(self.uart), response_timeout=response_cycles * 4e-9)

    async def reset(self):
        await start_clock_and_reset(self.dut.clk, self.dut.rst_n, active_low=True)
        # board_top holds its logic in reset for a few cycles after the button: bytes sent that
        # early are lost on a board too
        await ClockCycles(self.dut.clk, 8)

    async def bring_up_passes(self) -> bringup.Report:
        """`dpuv bringup` through the UART pins after a reset, as on a board: every check passed,
        the link clean (no retry, no framing error); the report for what a test looks at next."""
        await self.reset()
        log = io.StringIO()
        report = await bringup.bring_up(self.link, "cocotb uart", bringup.Progress(log))
        self.dut._log.info("bring-up report:\n%s", log.getvalue())
        assert report.passed, log.getvalue()
        assert self.link.retries == 0 and self.uart.framing_errors == 0
        return report

    async def read_every_register(self, start: int, end: int) -> None:
        """Reads every readable register of the chain's blocks at start..end-1 (one node's: the
        other is the same design). A read of an undefined register is what 4-state Icarus sees."""
        for block in await chain.walk(self.link):
            if not start <= block.address < end:
                continue
            for register in block.model.registers:
                if all(field.software_access == "w" for field in register.fields):
                    continue  # a doorbell: writing it is its only use, and a read is refused
                self.dut._log.info("reading %s.%s at %#x", block.type_name, register.name,
                                   block.address + register.offset)
                await self.link.read(block.address + register.offset, register.width // 8)
