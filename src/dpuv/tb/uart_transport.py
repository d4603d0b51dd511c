# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""cocotb transport of the board link over a UART: bytes as 8N1 bit frames on a design's pins.

It plays the host's serial adapter: it drives the design's receive pin and samples its transmit
pin at the middle of every bit, from the start bit's falling edge, as a UART receiver does. A
transmit bit frame whose stop bit is low is reported as a framing error, never passed on as data.
"""

from __future__ import annotations

import cocotb
from cocotb.triggers import ClockCycles, Event, FallingEdge

from dpuv.regs.board_link import ByteTransport
from dpuv.tb.testbench import CLOCK_PERIOD_NS, build_parameters


class UartFramingError(AssertionError):
    pass


class CocotbUartTransport(ByteTransport):
    def __init__(self, clock, rx_pin, tx_pin, clocks_per_bit: int, host_clocks_per_bit: float | None = None):
        """`host_clocks_per_bit` lets the host side run off the design's bit rate (clock drift)."""
        self.clock, self.rx_pin, self.tx_pin = clock, rx_pin, tx_pin
        self.clocks_per_bit = clocks_per_bit
        self.host_clocks_per_bit = host_clocks_per_bit or clocks_per_bit
        self.received = bytearray()
        self.framing_errors = 0
        self._outbound = bytearray()
        self._outbound_ready = Event()
        self.rx_pin.value = 1
        self._tasks = [cocotb.start_soon(self._drive()), cocotb.start_soon(self._sample())]

    @classmethod
    def at_board_pins(cls, dut, host_drift: float = 0.0) -> "CocotbUartTransport":
        """On board_top's UART pins, at the bit rate its build parameters give."""
        parameters = build_parameters()
        clocks_per_bit = round(parameters["CLOCK_FREQ_KHZ"] * 1000 / parameters["BAUD_RATE"])
        return cls(dut.clk, dut.uart_rx, dut.uart_tx, clocks_per_bit, clocks_per_bit * (1 + host_drift))

    def stop(self) -> None:
        for task in self._tasks:
            task.cancel()

    async def _hold(self, bit: int, start_time: float, index: int) -> None:
        """Hold the line at `bit` until the end of bit `index` of a frame, in host bit times."""
        self.rx_pin.value = bit
        end = round(start_time + (index + 1) * self.host_clocks_per_bit)
        await ClockCycles(self.clock, max(1, end - round(start_time + index * self.host_clocks_per_bit)))

    async def send_bits(self, bits: list[int]) -> None:
        """Put raw bit frames on the line (tests use it for framing errors and glitches)."""
        for index, bit in enumerate(bits):
            await self._hold(bit, 0.0, index)
        self.rx_pin.value = 1

    async def _drive(self) -> None:
        while True:
            while not self._outbound:
                self._outbound_ready.clear()
                await self._outbound_ready.wait()
            byte = self._outbound.pop(0)
            await self.send_bits([0] + [(byte >> bit) & 1 for bit in range(8)] + [1])

    def _tx_bit(self, which: str) -> int:
        """The TX pin's level now; an X or Z there means the design sends an undefined value."""
        level = self.tx_pin.value
        if not level.is_resolvable:
            raise AssertionError(f"the board's TX pin is {level} in the {which} of a byte it sends: the design "
                                 f"sends an undefined value (a register or memory word read before anything set it, say)")
        return int(level)

    async def _sample(self) -> None:
        while True:
            await FallingEdge(self.tx_pin)
            await ClockCycles(self.clock, self.clocks_per_bit // 2)
            if self._tx_bit("start bit") != 0:
                continue  # not a start bit
            value = 0
            for bit in range(8):
                await ClockCycles(self.clock, self.clocks_per_bit)
                value |= self._tx_bit(f"data bit {bit}") << bit
            await ClockCycles(self.clock, self.clocks_per_bit)
            if self._tx_bit("stop bit") != 1:
                self.framing_errors += 1
            else:
                self.received.append(value)

    async def send(self, data: bytes) -> None:
        self._outbound += data
        self._outbound_ready.set()

    async def receive(self, timeout: float) -> bytes:
        waited, limit = 0, int(timeout * 1e9 / CLOCK_PERIOD_NS)
        while not self.received and waited < limit:
            await ClockCycles(self.clock, self.clocks_per_bit)
            waited += self.clocks_per_bit
        data = bytes(self.received)
        self.received.clear()
        return data

    async def cycles(self, count: int) -> None:
        await ClockCycles(self.clock, count)
