# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The board link's functional coverage: every request the device was handed, by what it was
(a read, a write, a frame with fields the protocol forbids, a frame whose CRC is wrong, a frame
cut short or garbled), against what came back (each status, or no answer at all).

The monitor sits directly on the bench's transport to the device, under any noise a test adds,
so it classes the bytes the device really got, from the protocol's own rules
(dpuv.models.link_protocol): op 1 or 2, 1 to 16 words, a 4-byte aligned address, CRC-32 of the
body."""

from __future__ import annotations

import struct
import zlib

from dpuv.models import link_protocol as protocol
from dpuv.regs.board_link import ByteTransport
from dpuv.tb.functional_coverage import Covergroup

REQUESTS = ("read", "write", "bad_fields", "bad_crc", "cut_or_garbled")
ANSWERS = ("ok", "slverr", "decerr", "bad_crc", "bad_request", "no_answer")
HEADER_BYTES = 1 + 7  # sync, seq, op, count, address

LINK = Covergroup("bringup.link", {"request": REQUESTS, "answer": ANSWERS},
                  crosses={"request_x_answer": ("request", "answer")})


def request_kind(frame: bytes) -> str:
    if len(frame) < HEADER_BYTES + 4 or frame[0] != protocol.REQUEST_SYNC:
        return "cut_or_garbled"
    _, op, count, address = struct.unpack("<BBBI", frame[1:HEADER_BYTES])
    length = HEADER_BYTES + (4 * count if op == protocol.Op.WRITE else 0) + 4
    if len(frame) != length:
        return "cut_or_garbled"
    if zlib.crc32(frame[1:-4]) != struct.unpack("<I", frame[-4:])[0]:
        return "bad_crc"
    if op not in (protocol.Op.READ, protocol.Op.WRITE) or not 1 <= count <= protocol.MAX_WORDS or address % 4:
        return "bad_fields"
    return "read" if op == protocol.Op.READ else "write"


class MonitoredTransport(ByteTransport):
    """Passes bytes through unchanged; samples each request with the answer it got. Bytes sent
    before the answer to the last ones came are a new request, and the last one got none."""

    def __init__(self, inner: ByteTransport):
        self.inner = inner
        self._request: bytes | None = None
        self._received = bytearray()

    async def send(self, data: bytes) -> None:
        if self._request is not None:
            LINK.sample(request=request_kind(self._request), answer="no_answer")
        self._request, self._received = bytes(data), bytearray()
        await self.inner.send(data)

    async def receive(self, timeout: float) -> bytes:
        arrived = await self.inner.receive(timeout)
        self._received += arrived
        length = protocol.response_length(self._received)
        if self._request is not None and length is not None and len(self._received) >= length:
            try:
                status = protocol.decode_response(bytes(self._received[:length])).status
            except protocol.FrameError:
                status = None  # a damaged answer: the request is classed when it is sent again
            if status is not None:
                LINK.sample(request=request_kind(self._request), answer=status.name.lower())
                self._request = None
        return arrived

    async def cycles(self, count: int) -> None:
        await self.inner.cycles(count)
