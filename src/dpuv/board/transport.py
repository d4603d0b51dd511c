# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Byte transports to a real or virtual board, for the link backend under plain asyncio:
pyserial's serial_for_url (/dev/ttyUSB0, socket://host:port, loop://) and raw TCP."""

from __future__ import annotations

import asyncio
import time

from dpuv.regs.board_link import ByteTransport

POLL_SECONDS = 0.0005


class SerialTransport(ByteTransport):
    """Any URL pyserial opens. Device time is wall time here: `cycles` sleeps at clock_hz."""

    def __init__(self, url: str, baudrate: int = 115200, clock_hz: float = 250e6):
        import serial

        self.port = serial.serial_for_url(url, baudrate=baudrate, timeout=0)
        self.clock_hz = clock_hz

    async def send(self, data: bytes) -> None:
        self.port.write(data)

    async def receive(self, timeout: float) -> bytes:
        deadline = time.monotonic() + timeout
        while True:
            data = self.port.read(4096)
            if data or time.monotonic() >= deadline:
                return data
            await asyncio.sleep(POLL_SECONDS)

    async def cycles(self, count: int) -> None:
        await asyncio.sleep(count / self.clock_hz)

    def close(self) -> None:
        self.port.close()


class TcpTransport(ByteTransport):
    """A raw TCP stream (what a virtual board listens with)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, clock_hz: float = 250e6):
        self.reader, self.writer, self.clock_hz = reader, writer, clock_hz

    @classmethod
    async def connect(cls, host: str, port: int, clock_hz: float = 250e6) -> "TcpTransport":
        reader, writer = await asyncio.open_connection(host, port)
        return cls(reader, writer, clock_hz)

    async def send(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def receive(self, timeout: float) -> bytes:
        try:
            return await asyncio.wait_for(self.reader.read(4096), timeout)
        except asyncio.TimeoutError:
            return b""

    async def cycles(self, count: int) -> None:
        await asyncio.sleep(count / self.clock_hz)

    def close(self) -> None:
        self.writer.close()


async def open_link(url: str, baudrate: int = 115200) -> ByteTransport:
    """tcp://host:port for raw TCP; anything else goes to pyserial (serial devices, socket://, loop://)."""
    if url.startswith("tcp://"):
        host, _, port = url.removeprefix("tcp://").rpartition(":")
        return await TcpTransport.connect(host, int(port))
    return SerialTransport(url, baudrate)
