# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""What an NVMe controller answers to admin commands, from the NVMe base specification (facts in
docs/reference/nvme.md): the completion's DW0 and status for each submission entry, so a
testbench can predict every completion the engine posts. Covers the admin commands the engine
carries so far; every other opcode is Invalid Opcode."""

from __future__ import annotations

import struct
from dataclasses import dataclass

OP_IDENTIFY, OP_ABORT, OP_SET_FEATURES, OP_GET_FEATURES, OP_ASYNC_EVENT_REQUEST = 0x06, 0x08, 0x09, 0x0A, 0x0C
OP_DELETE_SQ, OP_CREATE_SQ, OP_DELETE_CQ, OP_CREATE_CQ = 0x00, 0x01, 0x04, 0x05
CNS_NAMESPACE, CNS_CONTROLLER, CNS_ACTIVE_NAMESPACES = 0x00, 0x01, 0x02
FEATURE_INTERRUPT_COALESCING, FEATURE_NUMBER_OF_QUEUES = 0x08, 0x07
SC_SUCCESS, SC_INVALID_OPCODE, SC_INVALID_FIELD = 0x00, 0x01, 0x02
SC_INVALID_NAMESPACE, SC_PRP_OFFSET_INVALID = 0x0B, 0x13
# Command-specific status (SCT 1)
SCT_COMMAND_SPECIFIC = 1
SC_CQ_INVALID, SC_INVALID_QID, SC_INVALID_QUEUE_SIZE, SC_INVALID_VECTOR, SC_INVALID_QUEUE_DELETION = 0x00, 0x01, 0x02, 0x08, 0x0C
# Asynchronous event information for error status events
AEI_INVALID_DOORBELL_REGISTER, AEI_INVALID_DOORBELL_VALUE = 0x00, 0x01
LOG_PAGE_ERROR_INFORMATION = 0x01


def submission(opcode: int, cid: int, nsid: int = 0, cdw10: int = 0, cdw11: int = 0, prp1: int = 0,
               prp2: int = 0) -> bytes:
    """A 64-byte submission queue entry."""
    return struct.pack("<IIQQQQIIIIII", opcode | cid << 16, nsid, 0, 0, prp1, prp2, cdw10, cdw11, 0, 0, 0, 0)


@dataclass(frozen=True)
class Completion:
    result: int       # DW0
    sq_head: int
    sq_id: int
    cid: int
    phase: int
    status_code: int
    status_type: int
    do_not_retry: bool

    @classmethod
    def decode(cls, entry: bytes) -> "Completion":
        dw0, _, dw2, dw3 = struct.unpack("<IIII", entry)
        return cls(dw0, dw2 & 0xFFFF, dw2 >> 16, dw3 & 0xFFFF, dw3 >> 16 & 1, dw3 >> 17 & 0xFF, dw3 >> 25 & 7,
                   bool(dw3 >> 31))


@dataclass(frozen=True)
class Answer:
    result: int
    status_code: int
    # False for an Asynchronous Event Request: it completes when an event happens
    completes_now: bool = True
    # Identify: the 4 KiB structure written to the host, before the completion
    data: bytes = b""
    status_type: int = 0


@dataclass(frozen=True)
class Identity:
    """What the controller says of itself and its one namespace (the engine's build settings)."""
    vendor_id: int = 0x1234
    serial: str = "DPUV0001"
    model: str = "dpuv NVMe controller"
    firmware: str = "0.1"
    mdts: int = 5
    controller_id: int = 1
    namespace_blocks: int = 2048
    lba_shift: int = 9


def _text(value: str, length: int) -> bytes:
    return value.encode("ascii").ljust(length, b" ")


def identify_controller(identity: Identity) -> bytes:
    """Identify Controller data structure (CNS 01h), byte offsets from the NVMe base specification."""
    data = bytearray(4096)
    struct.pack_into("<HH", data, 0, identity.vendor_id, identity.vendor_id)   # VID, SSVID
    data[4:24] = _text(identity.serial, 20)
    data[24:64] = _text(identity.model, 40)
    data[64:72] = _text(identity.firmware, 8)
    data[77] = identity.mdts
    struct.pack_into("<H", data, 78, identity.controller_id)
    struct.pack_into("<I", data, 80, 0x00010400)                               # VER 1.4
    data[258] = 3                                                              # ACL: 4 aborts
    data[259] = 3                                                              # AERL: 4 event requests
    data[512], data[513] = 0x66, 0x44                                          # SQES, CQES
    struct.pack_into("<I", data, 516, 1)                                       # NN
    return bytes(data)


def identify_namespace(identity: Identity) -> bytes:
    """Identify Namespace data structure (CNS 00h) for namespace 1: one LBA format."""
    data = bytearray(4096)
    struct.pack_into("<QQQ", data, 0, *[identity.namespace_blocks] * 3)        # NSZE, NCAP, NUSE
    data[130] = identity.lba_shift                                             # LBAF0.LBADS
    return bytes(data)


def active_namespaces(start_nsid: int) -> bytes:
    """Active Namespace ID list (CNS 02h): namespace 1 if it is above the start."""
    return (struct.pack("<I", 1) if start_nsid < 1 else b"").ljust(4096, b"\0")


def async_event_result(information: int) -> int:
    """DW0 of an error-status asynchronous event."""
    return LOG_PAGE_ERROR_INFORMATION << 16 | information << 8


def create_queue(opcode: int, cid: int, qid: int, entries: int, base: int, contiguous: bool = True,
                 vector_or_cq: int = 0, interrupts: bool = True) -> bytes:
    """Create I/O CQ (vector, interrupts enabled) or SQ (its CQ) with `entries` entries at `base`."""
    cdw11 = int(contiguous) | (int(interrupts) << 1 if opcode == OP_CREATE_CQ else 0) | vector_or_cq << 16
    return submission(opcode, cid, cdw10=qid | (entries - 1) << 16, cdw11=cdw11, prp1=base)


class AdminModel:
    def __init__(self, queues: int, identity: Identity = Identity(), max_queue_entries: int = 1024,
                 vectors: int = 32):
        self.io_queues = queues - 1
        self.identity = identity
        self.max_queue_entries = max_queue_entries
        self.vectors = vectors
        self.interrupt_coalescing = 0
        self.completion_queues: dict[int, int] = {}   # qid -> entries
        self.submission_queues: dict[int, int] = {}   # qid -> its CQ

    def answer(self, entry: bytes) -> Answer:
        dw0, nsid = struct.unpack_from("<II", entry)
        prp1, prp2 = struct.unpack_from("<QQ", entry, 24)
        cdw10, cdw11 = struct.unpack_from("<II", entry, 40)
        opcode, feature = dw0 & 0xFF, cdw10 & 0xFF
        if opcode == OP_IDENTIFY:
            return self._identify(cdw10 & 0xFF, nsid, prp1, prp2)
        if opcode in (OP_CREATE_CQ, OP_CREATE_SQ, OP_DELETE_CQ, OP_DELETE_SQ):
            return self._queue_command(opcode, cdw10, cdw11, prp1)
        if opcode in (OP_SET_FEATURES, OP_GET_FEATURES):
            if feature == FEATURE_NUMBER_OF_QUEUES:
                if opcode == OP_SET_FEATURES and 0xFFFF in (cdw11 & 0xFFFF, cdw11 >> 16):
                    return Answer(0, SC_INVALID_FIELD)
                allocated = self.io_queues - 1
                return Answer(allocated << 16 | allocated, SC_SUCCESS)
            if feature == FEATURE_INTERRUPT_COALESCING:
                if opcode == OP_SET_FEATURES:
                    self.interrupt_coalescing = cdw11 & 0xFFFF
                    return Answer(0, SC_SUCCESS)
                return Answer(self.interrupt_coalescing, SC_SUCCESS)
            return Answer(0, SC_INVALID_FIELD)
        if opcode == OP_ABORT:
            return Answer(1, SC_SUCCESS)  # not aborted
        if opcode == OP_ASYNC_EVENT_REQUEST:
            return Answer(0, SC_SUCCESS, completes_now=False)
        return Answer(0, SC_INVALID_OPCODE)

    def _identify(self, cns: int, nsid: int, prp1: int, prp2: int) -> Answer:
        if cns not in (CNS_NAMESPACE, CNS_CONTROLLER, CNS_ACTIVE_NAMESPACES):
            return Answer(0, SC_INVALID_FIELD)
        if cns == CNS_NAMESPACE and nsid != 1:
            return Answer(0, SC_INVALID_NAMESPACE)
        # PRP1 dword aligned; if it starts inside its page the rest goes to a page-aligned PRP2
        if prp1 & 3 or (prp1 & 0xFFF and prp2 & 0xFFF):
            return Answer(0, SC_PRP_OFFSET_INVALID)
        data = {CNS_CONTROLLER: identify_controller(self.identity), CNS_NAMESPACE: identify_namespace(self.identity),
                CNS_ACTIVE_NAMESPACES: active_namespaces(nsid)}[cns]
        return Answer(0, SC_SUCCESS, data=data)

    def _queue_command(self, opcode: int, cdw10: int, cdw11: int, prp1: int) -> Answer:
        """Create/Delete I/O queues, the checks in the specification's order."""
        qid, size = cdw10 & 0xFFFF, cdw10 >> 16
        known = 1 <= qid <= self.io_queues
        specific = lambda code: Answer(0, code, status_type=SCT_COMMAND_SPECIFIC)  # noqa: E731
        table = self.completion_queues if opcode in (OP_CREATE_CQ, OP_DELETE_CQ) else self.submission_queues
        if opcode in (OP_DELETE_CQ, OP_DELETE_SQ):
            if not known or qid not in table:
                return specific(SC_INVALID_QID)
            if opcode == OP_DELETE_CQ and qid in self.submission_queues.values():
                return specific(SC_INVALID_QUEUE_DELETION)
            del table[qid]
            return Answer(0, SC_SUCCESS)
        if not known or qid in table:
            return specific(SC_INVALID_QID)
        if size == 0 or size >= self.max_queue_entries:
            return specific(SC_INVALID_QUEUE_SIZE)
        if not cdw11 & 1:
            return Answer(0, SC_INVALID_FIELD)  # CAP.CQR: contiguous queues only
        other = cdw11 >> 16
        if opcode == OP_CREATE_CQ and cdw11 & 2 and other >= self.vectors:
            return specific(SC_INVALID_VECTOR)
        if opcode == OP_CREATE_SQ and other not in self.completion_queues:
            return specific(SC_CQ_INVALID)
        if prp1 & 0xFFF:
            return Answer(0, SC_PRP_OFFSET_INVALID)
        table[qid] = size + 1 if opcode == OP_CREATE_CQ else other
        return Answer(0, SC_SUCCESS)
