# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The board link's frames: register reads and writes carried over a byte stream (a UART on a
board, a TCP socket to a virtual board), as the bridge RTL (rtl/bringup/link_bridge.v) speaks them.

Request:  0xA5 | seq | op | count | address (4, little endian) | data (count words, writes only) | CRC
Response: 0x5A | seq | status | count | data (count words, reads only) | CRC

op 1 reads and op 2 writes `count` (1 to 16) consecutive 32-bit words from a 4-byte aligned
address. The CRC is CRC-32 (zlib) of every byte after the sync byte, little endian. A response
echoes the request's sequence number so that a late answer to an abandoned request is never
taken for the answer to a new one. Status: 0 ok, 1 SLVERR and 2 DECERR from the register bus
(count then says how many words were done), 3 bad CRC, 4 malformed request.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from enum import IntEnum

REQUEST_SYNC = 0xA5
RESPONSE_SYNC = 0x5A
MAX_WORDS = 16
MAX_RESPONSE_BYTES = 4 + 4 * MAX_WORDS + 4


class Op(IntEnum):
    READ = 1
    WRITE = 2


class Status(IntEnum):
    OK = 0
    SLVERR = 1
    DECERR = 2
    BAD_CRC = 3
    BAD_REQUEST = 4


class FrameError(ValueError):
    """Bytes that are not a well-formed frame (wrong sync, length or CRC)."""


@dataclass(frozen=True)
class Request:
    seq: int
    op: Op
    address: int
    count: int
    words: tuple[int, ...] = ()

    def encode(self) -> bytes:
        body = struct.pack("<BBBI", self.seq, self.op, self.count, self.address)
        body += b"".join(struct.pack("<I", word) for word in self.words)
        return bytes([REQUEST_SYNC]) + body + struct.pack("<I", zlib.crc32(body))


@dataclass(frozen=True)
class Response:
    seq: int
    status: Status
    words: tuple[int, ...] = ()

    def encode(self) -> bytes:
        body = struct.pack("<BBB", self.seq, self.status, len(self.words))
        body += b"".join(struct.pack("<I", word) for word in self.words)
        return bytes([RESPONSE_SYNC]) + body + struct.pack("<I", zlib.crc32(body))


def read_request(seq: int, address: int, count: int = 1) -> Request:
    return Request(seq & 0xFF, Op.READ, address, count)


def write_request(seq: int, address: int, words: list[int]) -> Request:
    return Request(seq & 0xFF, Op.WRITE, address, len(words), tuple(words))


def response_length(data: bytes) -> int | None:
    """Bytes the response starting at data[0] occupies, once its header has arrived."""
    if len(data) < 4:
        return None
    return 4 + 4 * data[3] + 4


def decode_response(frame: bytes) -> Response:
    if not frame or frame[0] != RESPONSE_SYNC:
        raise FrameError("response does not start with the sync byte")
    length = response_length(frame)
    if length is None or len(frame) != length:
        raise FrameError(f"response of {len(frame)} bytes, header says {length}")
    body, crc = frame[1:-4], struct.unpack("<I", frame[-4:])[0]
    if zlib.crc32(body) != crc:
        raise FrameError("response CRC mismatch")
    seq, status, count = body[0], body[1], body[2]
    words = struct.unpack(f"<{count}I", body[3:])
    try:
        return Response(seq, Status(status), tuple(words))
    except ValueError:
        raise FrameError(f"unknown status {status}") from None


def decode_request(frame: bytes) -> Request:
    """For models of the bridge: the request in a complete frame."""
    if len(frame) < 12 or frame[0] != REQUEST_SYNC:
        raise FrameError("not a request frame")
    body, crc = frame[1:-4], struct.unpack("<I", frame[-4:])[0]
    if zlib.crc32(body) != crc:
        raise FrameError("request CRC mismatch")
    seq, op, count, address = struct.unpack("<BBBI", body[:7])
    words = struct.unpack(f"<{(len(body) - 7) // 4}I", body[7:])
    return Request(seq, Op(op), address, count, tuple(words))
