"""What an NVMe controller answers to admin commands, from the NVMe base specification (facts in
shared/reference/nvme.md): the completion's DW0 and status for each submission entry, so a
testbench can predict every completion the engine posts. Covers the admin commands the engine
carries so far; every other opcode is Invalid Opcode."""

from __future__ import annotations

import struct
from dataclasses import dataclass

OP_ABORT, OP_SET_FEATURES, OP_GET_FEATURES, OP_ASYNC_EVENT_REQUEST = 0x08, 0x09, 0x0A, 0x0C
FEATURE_INTERRUPT_COALESCING, FEATURE_NUMBER_OF_QUEUES = 0x08, 0x07
SC_SUCCESS, SC_INVALID_OPCODE, SC_INVALID_FIELD = 0x00, 0x01, 0x02
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


def async_event_result(information: int) -> int:
    """DW0 of an error-status asynchronous event."""
    return LOG_PAGE_ERROR_INFORMATION << 16 | information << 8


class AdminModel:
    def __init__(self, queues: int):
        self.io_queues = queues - 1
        self.interrupt_coalescing = 0

    def answer(self, entry: bytes) -> Answer:
        dw0, _ = struct.unpack_from("<II", entry)
        cdw10, cdw11 = struct.unpack_from("<II", entry, 40)
        opcode, feature = dw0 & 0xFF, cdw10 & 0xFF
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
