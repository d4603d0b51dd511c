# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Board-link backend of the register access layer: reads and writes as framed requests over any
byte transport (the simulated link in cocotb, a serial port or TCP socket on a board).

Every request carries a sequence number and a CRC; a response that is late, corrupted or
answers another request is discarded and the request is sent again, up to `attempts` times.
A value is accepted only from a response whose CRC and sequence number check out, so a noisy
link costs retries, never a wrong value. Errors the register bus itself answers (SLVERR,
DECERR) are not retried: they raise BusError as on every other backend.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from dpuv.models import link_protocol as protocol
from dpuv.regs.access import BusError, RegisterAccess


class LinkError(RuntimeError):
    """The link gave no usable answer."""


class ByteTransport(ABC):
    @abstractmethod
    async def send(self, data: bytes) -> None:
        """Queue bytes towards the device."""

    @abstractmethod
    async def receive(self, timeout: float) -> bytes:
        """Whatever bytes arrive within `timeout` seconds of device time (possibly none)."""

    @abstractmethod
    async def cycles(self, count: int) -> None:
        """Let `count` device clock cycles pass."""


class LinkAccess(RegisterAccess):
    def __init__(self, transport: ByteTransport, response_timeout: float = 1e-3, attempts: int = 4):
        self.transport = transport
        self.response_timeout = response_timeout
        self.attempts = attempts
        self.seq = 0
        self.retries = 0
        self._pending = bytearray()

    async def _response(self, seq: int) -> protocol.Response | None:
        """The response to `seq`, or None when none usable arrives in time."""
        while True:
            start = self._pending.find(protocol.RESPONSE_SYNC)
            if start < 0:
                self._pending.clear()
            else:
                del self._pending[:start]
                length = protocol.response_length(self._pending)
                if length is not None and length > protocol.MAX_RESPONSE_BYTES:
                    del self._pending[:1]  # a count no response can have: a false sync
                    continue
                if length is not None and len(self._pending) >= length:
                    frame = bytes(self._pending[:length])
                    try:
                        response = protocol.decode_response(frame)
                    except protocol.FrameError:
                        del self._pending[:1]  # a false sync or a damaged frame: hunt on
                        continue
                    del self._pending[:length]
                    if response.seq == seq:
                        return response
                    continue  # a late answer to an earlier attempt
            arrived = await self.transport.receive(self.response_timeout)
            if not arrived:
                self._pending.clear()  # a fragment that never completed must not block the retry
                return None
            self._pending += arrived

    async def _transact(self, make_request) -> protocol.Response:
        for _ in range(self.attempts):
            self.seq = (self.seq + 1) & 0xFF
            request = make_request(self.seq)
            await self.transport.send(request.encode())
            response = await self._response(self.seq)
            if response is not None and response.status != protocol.Status.BAD_CRC:
                return response
            self.retries += 1
        raise LinkError(f"no valid answer from the link after {self.attempts} attempts "
                        f"({self.response_timeout * 1e3:g} ms each): is the board connected and running?")

    async def _read_words(self, address: int, count: int) -> list[int]:
        words = []
        for offset in range(0, count, protocol.MAX_WORDS):
            chunk = min(protocol.MAX_WORDS, count - offset)
            first = address + 4 * offset
            response = await self._transact(lambda seq: protocol.read_request(seq, first, chunk))
            self._raise_for(response, "read", first)
            words += response.words
        return words

    async def _write_words(self, address: int, words: list[int]) -> None:
        for offset in range(0, len(words), protocol.MAX_WORDS):
            first = address + 4 * offset
            chunk = words[offset:offset + protocol.MAX_WORDS]
            response = await self._transact(lambda seq: protocol.write_request(seq, first, chunk))
            self._raise_for(response, "write", first)

    @staticmethod
    def _raise_for(response: protocol.Response, operation: str, address: int) -> None:
        if response.status == protocol.Status.OK:
            return
        failed = address + 4 * len(response.words)
        raise BusError(operation, failed, response.status.name)

    async def read(self, address: int, length: int) -> bytes:
        first = address & ~3
        count = (address + length - first + 3) // 4
        words = await self._read_words(first, count)
        data = b"".join(word.to_bytes(4, "little") for word in words)
        return data[address - first:address - first + length]

    async def write(self, address: int, data: bytes) -> None:
        # The link moves whole words: a partial word is read, merged and written back.
        first = address & ~3
        end = (address + len(data) + 3) & ~3
        if first != address or end != address + len(data):
            current = bytearray(await self.read(first, end - first))
            current[address - first:address - first + len(data)] = data
            data = bytes(current)
        words = [int.from_bytes(data[offset:offset + 4], "little") for offset in range(0, len(data), 4)]
        await self._write_words(first, words)

    async def cycles(self, count: int) -> None:
        await self.transport.cycles(count)
