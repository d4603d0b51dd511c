# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""What an NVMe controller does with NVM commands on namespace 1, from the NVMe base specification
(facts in docs/reference/nvme.md): the status of each Read, Write, Flush and Write Zeroes, the
namespace's contents after it, and the host pages its PRPs name. Written from the specification
to predict the engine's completions and check its data byte for byte."""

from __future__ import annotations

import struct
from collections.abc import Callable

from dpuv.models.nvme_admin import fused_or_sgl

OP_FLUSH, OP_WRITE, OP_READ, OP_WRITE_ZEROES = 0x00, 0x01, 0x02, 0x08
SC_SUCCESS, SC_INVALID_OPCODE, SC_INVALID_FIELD, SC_DATA_TRANSFER_ERROR = 0x00, 0x01, 0x02, 0x04
SC_INVALID_NAMESPACE, SC_PRP_OFFSET_INVALID, SC_LBA_OUT_OF_RANGE = 0x0B, 0x13, 0x80
PAGE = 4096


class HostMemoryError(Exception):
    """The host could not serve a read of its memory (Unsupported Request or Completer Abort)."""


def io_command(opcode: int, cid: int, slba: int, blocks: int, prp1: int = 0, prp2: int = 0, nsid: int = 1) -> bytes:
    """A 64-byte NVM submission entry: SLBA in CDW10-11, the block count (0-based) in CDW12."""
    return struct.pack("<IIQQQQQIIII", opcode | cid << 16, nsid, 0, 0, prp1, prp2, slba, blocks - 1, 0, 0, 0)


def prp_pages(prp1: int, prp2: int, length: int, read_host: Callable[[int, int], bytes]) -> list[tuple[int, int]]:
    """The host pieces (address, bytes) a transfer of `length` bytes uses, walking PRP1, PRP2 and
    the PRP list (its last entry in a list page chains to the next). Raises ValueError for an
    entry that must be page aligned and is not."""
    return list(walk_prps(prp1, prp2, length, read_host))


def walk_prps(prp1: int, prp2: int, length: int, read_host: Callable[[int, int], bytes]):
    """prp_pages one piece at a time: a list entry is read only when the piece before it is
    done, as a controller reads the list while it moves the data, so a bad entry (ValueError)
    or an unreadable list page (HostMemoryError) is met after the pieces before it."""
    first = min(length, PAGE - prp1 % PAGE)
    yield prp1, first
    left = length - first
    if left == 0:
        return
    if left <= PAGE:
        if prp2 % PAGE:
            raise ValueError("PRP2 is not page aligned")
        yield prp2, left
        return
    pointer = prp2
    while left:
        if pointer % PAGE == PAGE - 8 and left > PAGE:
            pointer = struct.unpack("<Q", read_host(pointer, 8))[0]
            # The chain to the next list page is itself a PRP list entry: offset 0 like the rest
            if pointer % PAGE:
                raise ValueError("a PRP list's chain to its next page is not page aligned")
            continue
        entry = struct.unpack("<Q", read_host(pointer, 8))[0]
        if entry % PAGE:
            raise ValueError("a PRP list entry is not page aligned")
        size = min(left, PAGE)
        yield entry, size
        left -= size
        pointer += 8


class NvmModel:
    def __init__(self, blocks: int, lba_shift: int, mdts: int, contents: bytes | None = None):
        self.blocks, self.lba_shift = blocks, lba_shift
        self.max_transfer = PAGE << mdts
        self.namespace = bytearray(contents if contents is not None else bytes(blocks << lba_shift))
        # Bytes the last command moved between host pages and the namespace (a command that
        # fails in the middle of its PRP list has moved the pieces before the bad entry)
        self.moved = 0

    def execute(self, entry: bytes, read_host: Callable[[int, int], bytes],
                write_host: Callable[[int, bytes], None]) -> int:
        """Run one command against the namespace and host memory; its status code. What the
        command holds (PRP1, PRP2 as a page or a list pointer) is checked before any data moves;
        list entries are read, and checked, as the data reaches them."""
        self.moved = 0
        dw0, nsid = struct.unpack_from("<II", entry)
        prp1, prp2, slba = struct.unpack_from("<QQQ", entry, 24)
        blocks = (struct.unpack_from("<I", entry, 48)[0] & 0xFFFF) + 1
        opcode = dw0 & 0xFF
        if fused_or_sgl(entry):  # no fused operations, no SGLs: refused before anything else
            return SC_INVALID_FIELD
        if nsid != 1:
            return SC_INVALID_NAMESPACE
        if opcode not in (OP_FLUSH, OP_WRITE, OP_READ, OP_WRITE_ZEROES):
            return SC_INVALID_OPCODE
        if opcode == OP_FLUSH:
            return SC_SUCCESS
        if slba + blocks > self.blocks:  # Python integers: a 64-bit wrap is simply out of range
            return SC_LBA_OUT_OF_RANGE
        start, length = slba << self.lba_shift, blocks << self.lba_shift
        if opcode == OP_WRITE_ZEROES:
            self.namespace[start:start + length] = bytes(length)
            return SC_SUCCESS
        if length > self.max_transfer:
            return SC_INVALID_FIELD
        # Every PRP entry is dword aligned; PRP2 as the second data page is page aligned
        pages = -(-(prp1 % PAGE + length) // PAGE)
        if prp1 % 4 or (pages == 2 and prp2 % PAGE) or (pages > 2 and prp2 % 4):
            return SC_PRP_OFFSET_INVALID
        offset = start
        try:
            for address, size in walk_prps(prp1, prp2, length, read_host):
                if opcode == OP_WRITE:
                    self.namespace[offset:offset + size] = read_host(address, size)
                else:
                    write_host(address, bytes(self.namespace[offset:offset + size]))
                offset += size
                self.moved += size
        except ValueError:
            return SC_PRP_OFFSET_INVALID
        except HostMemoryError:
            return SC_DATA_TRANSFER_ERROR
        return SC_SUCCESS
