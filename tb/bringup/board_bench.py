# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The board top's bench: the host at the UART pins, as on a board, through the link backend."""

from cocotb.triggers import ClockCycles

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
