# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""nvme_admin_command: admin commands executed one at a time as nvme_queue_engine does it (execute
pulsed for one cycle with the entry's fields, an Identify's data_done awaited before the next),
every outcome against dpuv.models.nvme_admin.AdminModel. Stand-ins play the neighbours: a small
queue table kept from the create/delete outputs answers the validity inputs, and a PCIe requester
stand-in takes bulk writes under random backpressure, reads the source a few dwords at a time and
keeps the bytes in a sparse host memory. Inputs are set in each clock's low phase and the
combinational answer is read a nanosecond later (half a nanosecond more where the table stand-in
answers the queue the command names), before the rising edge that applies it.

The model does not count outstanding Asynchronous Event Requests (it answers every one "completes
later"); the bench keeps that count and expects the fifth to be refused with Asynchronous Event
Request Limit Exceeded (SCT 1, SC 05h), as the specification's AERL says and the controller bench
checks end to end.

The bench also plays the error log and the I/O statistics (nvme_error_log, nvme_io_statistics):
it tells the model of random errors and Reads and Writes between commands and drives the state
those modules would hold, so that the log pages read back are the model's byte for byte."""

from __future__ import annotations

import struct
from dataclasses import dataclass, replace

import cocotb
from cocotb.triggers import FallingEdge, Timer

from dpuv.models import nvme_admin
from dpuv.models.nvme_admin import AdminModel, Answer, Identity, submission
from dpuv.tb.testbench import build_parameters, pauses, start_clock_and_reset, test_rng
import nvme_coverage

PAGE = 4096
# The low phase of the 4 ns clock is 2 ns: inputs set at the falling edge are read 1 ns later, and
# what answers them (the table stand-in, bulk_done) is read this much after that
SETTLE_PS = 500
ADMIN_OPCODES = (nvme_admin.OP_DELETE_SQ, nvme_admin.OP_CREATE_SQ, nvme_admin.OP_DELETE_CQ, nvme_admin.OP_CREATE_CQ,
                 nvme_admin.OP_IDENTIFY, nvme_admin.OP_ABORT, nvme_admin.OP_SET_FEATURES,
                 nvme_admin.OP_GET_FEATURES, nvme_admin.OP_ASYNC_EVENT_REQUEST, nvme_admin.OP_GET_LOG_PAGE)
QUEUE_OPCODES = ADMIN_OPCODES[:4]
# Opcodes the controller does not carry: Namespace Management, Format NVM, Keep Alive (KAS is 0),
# a vendor specific one, and the largest
UNSUPPORTED_OPCODES = (0x0D, 0x80, 0x18, 0xC1, 0xFF)
# Every feature identifier the controller carries, Volatile Write Cache (VWC is 0) and a reserved one
FEATURES = (0x01, 0x02, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x55)
LOG_PAGES = (nvme_admin.LOG_PAGE_ERROR_INFORMATION, nvme_admin.LOG_PAGE_SMART_HEALTH,
             nvme_admin.LOG_PAGE_FIRMWARE_SLOT, 0x00, 0x04, 0x80)


@dataclass(frozen=True)
class Entry:
    """The fields of one admin submission entry that nvme_admin_command reads."""
    opcode: int
    cid: int
    nsid: int = 0
    cdw10: int = 0
    cdw11: int = 0
    prp1: int = 0
    prp2: int = 0
    cdw12: int = 0
    cdw13: int = 0
    fuse: int = 0
    psdt: int = 0

    def encoded(self) -> bytes:
        return submission(self.opcode, self.cid, self.nsid, self.cdw10, self.cdw11, self.prp1, self.prp2,
                          self.cdw12, self.cdw13, self.fuse, self.psdt)

    @classmethod
    def decoded(cls, entry: bytes) -> "Entry":
        dw0, nsid = struct.unpack_from("<II", entry)
        prp1, prp2 = struct.unpack_from("<QQ", entry, 24)
        cdw10, cdw11, cdw12, cdw13 = struct.unpack_from("<IIII", entry, 40)
        return cls(dw0 & 0xFF, dw0 >> 16, nsid, cdw10, cdw11, prp1, prp2, cdw12, cdw13, dw0 >> 8 & 3, dw0 >> 14 & 3)

    @classmethod
    def log_page(cls, cid: int, log_page: int, dwords: int, offset: int = 0, prp1: int = 0, prp2: int = 0,
                 nsid: int = 0, retain_event: bool = False) -> "Entry":
        return cls.decoded(nvme_admin.get_log_page(cid, log_page, dwords, offset, prp1, prp2, nsid, retain_event))


class Requester:
    """The PCIe requester stand-in on the bulk write port: takes a write when its ready is up
    (random pauses), then reads the source 1 to a beat's dwords per cycle (as TLP cuts and the
    descriptor's room make the real one do), with random stalls, writes them to host memory and
    pulses bulk_done after the last. Counts data_done pulses. While held (the controller in reset,
    which resets the requester too) it does nothing."""

    def __init__(self, dut, rng, backpressure: float | None):
        self.dut = dut
        self.rng = rng
        self.backpressure = backpressure
        self.pauses = pauses(rng, backpressure)
        self.lanes = len(dut.bulk_source_data) // 32
        self.memory: dict[int, int] = {}
        self.transfers: list[tuple[int, int]] = []  # (address, dwords) of each write taken
        self.data_done_pulses = 0
        self.active = False
        self.held = False
        self.offered_before = None  # a write offered and not yet taken: it must stay as it is
        dut.bulk_ready.value = 0
        dut.bulk_done.value = 0
        dut.bulk_source_index.value = 0

    def paused(self) -> bool:
        return bool(self.pauses and next(self.pauses))

    def hold(self):
        """The requester is reset with the controller: whatever it had in hand is gone."""
        self.held = True
        self.active = False
        self.offered_before = None
        self.dut.bulk_ready.value = 0
        self.dut.bulk_done.value = 0

    async def run(self):
        dut = self.dut
        address = dwords = index = 0
        while True:
            await FallingEdge(dut.clk)
            dut.bulk_ready.value = 0
            dut.bulk_done.value = 0
            reading = self.active and not self.held and not self.paused()
            if reading:
                dut.bulk_source_index.value = index
            await Timer(1, "ns")
            if self.held:
                continue
            if not self.active:
                if int(dut.bulk_valid.value):
                    offer = (int(dut.bulk_address.value), int(dut.bulk_dwords.value))
                    assert self.offered_before in (None, offer), \
                        f"bulk write changed while waiting: {self.offered_before} -> {offer}"
                    self.offered_before = offer
                    if not self.paused():
                        # Taken at the coming rising edge
                        dut.bulk_ready.value = 1
                        address, dwords = offer
                        assert 1 <= dwords <= 1024 and address % 4 == 0, f"bulk write {offer}"
                        self.transfers.append(offer)
                        index, self.active, self.offered_before = 0, True, None
                continue
            if not reading:
                continue
            beat = int(dut.bulk_source_data.value)
            count = min(dwords - index, self.rng.randint(1, self.lanes))
            for lane in range(count):
                dword = beat >> (32 * lane) & 0xFFFFFFFF
                for byte in range(4):
                    self.memory[address + 4 * (index + lane) + byte] = dword >> (8 * byte) & 0xFF
            index += count
            if index == dwords:
                dut.bulk_done.value = 1
                self.active = False
                await Timer(SETTLE_PS, "ps")
                self.data_done_pulses += int(dut.data_done.value)

    def read(self, address: int, length: int) -> bytes:
        missing = [hex(address + offset) for offset in range(length) if address + offset not in self.memory]
        assert not missing, f"{len(missing)} bytes never written, from {missing[0] if missing else ''}"
        return bytes(self.memory[address + offset] for offset in range(length))


class TB:
    def __init__(self, dut, label: str, backpressure: float | None = 0.3):
        self.dut = dut
        parameters = build_parameters()
        self.queues = parameters.get("QUEUES", 17)
        self.max_queue_entries = parameters.get("MAX_QUEUE_ENTRIES", 1024)
        self.vectors = parameters.get("VECTORS", 32)
        self.index_width = len(dut.queue_index)
        self.rng = test_rng(label)
        self.model = self.new_model()
        # The queue table stand-in, indexed as the table is (the queue ID's low bits): CQ entries,
        # and each SQ's CQ
        self.completion_queues: dict[int, int] = {}
        self.submission_queues: dict[int, int] = {}
        self.requester = Requester(dut, self.rng, backpressure)
        self.drive(Entry(0, 0), execute=False)
        self.drive_log_state()
        dut.event_request_taken.value = 0
        for name in ("queue_cq_valid", "queue_sq_valid", "queue_cq_has_sq", "sq_cq_valid"):
            getattr(dut, name).value = 0

    def new_model(self) -> AdminModel:
        return AdminModel(self.queues, Identity(), self.max_queue_entries, self.vectors)

    async def reset(self):
        await start_clock_and_reset(self.dut.clk, self.dut.rst)
        cocotb.start_soon(self.requester.run())

    def drive(self, entry: Entry, execute: bool):
        dut = self.dut
        dut.execute.value = int(execute)
        dut.opcode.value, dut.cid.value, dut.nsid.value = entry.opcode, entry.cid, entry.nsid
        dut.fused_or_sgl.value = int(entry.fuse != 0 or entry.psdt != 0)
        dut.cdw10.value, dut.cdw11.value = entry.cdw10, entry.cdw11
        dut.cdw12.value, dut.cdw13.value = entry.cdw12, entry.cdw13
        dut.prp1.value, dut.prp2.value = entry.prp1, entry.prp2

    def drive_log_state(self):
        """What nvme_error_log and nvme_io_statistics would hold after what the model was told:
        the entries newest first, packed as the RTL keeps them, and the counters."""
        dut, model = self.dut, self.model
        dut.error_entries.value = model.errors.packed()
        dut.error_count.value = model.errors.count
        health = model.health
        dut.data_units_read.value = health.data_units_read
        dut.data_units_written.value = health.data_units_written
        dut.host_read_commands.value = health.host_read_commands
        dut.host_write_commands.value = health.host_write_commands

    def tell_of_traffic(self):
        """Between commands: now and then an error completion or a doorbell error, and Reads and
        Writes of random sizes (some large enough to carry the data units over a thousand)."""
        rng, model = self.rng, self.model
        if rng.random() < 0.3:
            if rng.random() < 0.3:
                model.errors.doorbell_error()
            else:
                model.record_error(rng.randrange(self.queues), rng.getrandbits(16),
                                   nvme_admin.status_field(rng.randrange(2), rng.getrandbits(8) | 1))
        if rng.random() < 0.5:
            model.record_io(rng.random() < 0.5, rng.choice((1, 8, rng.randrange(1, 65537))))
        self.drive_log_state()

    def drive_table(self):
        """What the queue table says of the queues the command names (combinational, as the table)."""
        dut = self.dut
        queue, cq = int(dut.queue_index.value), int(dut.sq_cq_index.value)
        dut.queue_cq_valid.value = int(queue in self.completion_queues)
        dut.queue_sq_valid.value = int(queue in self.submission_queues)
        dut.queue_cq_has_sq.value = int(queue in self.submission_queues.values())
        dut.sq_cq_valid.value = int(cq in self.completion_queues)

    async def idle(self, cycles: int = 1):
        """Cycles with no command, in which the engine may complete the oldest waiting event request
        (it never does so in a cycle that executes a command)."""
        dut = self.dut
        for _ in range(cycles):
            await FallingEdge(dut.clk)
            dut.execute.value = 0
            dut.event_request_taken.value = 0
            await Timer(1, "ns")
            waiting = int(dut.event_request_waiting.value)
            assert waiting == bool(self.model.events.requests), f"event requests waiting: {waiting}, {self.model.events.requests}"
            if waiting:
                assert int(dut.event_request_cid.value) == self.model.events.requests[0], \
                    f"oldest event request CID {int(dut.event_request_cid.value):#x}, expected {self.model.events.requests[0]:#x}"
                if self.rng.random() < 0.2:
                    dut.event_request_taken.value = 1
                    self.model.events.request_completed()

    async def execute(self, entry: Entry) -> Answer:
        """One command: its outcome read in the execute cycle and compared with the model's answer;
        an accepted Identify's data awaited and compared byte by byte at the PRPs."""
        dut = self.dut
        await FallingEdge(dut.clk)
        dut.event_request_taken.value = 0
        self.drive(entry, execute=True)
        await Timer(1, "ns")
        self.drive_table()
        await Timer(SETTLE_PS, "ps")
        expected = self.model.answer(entry.encoded())
        got = (int(dut.result.value), int(dut.status_code.value), int(dut.status_type.value),
               not int(dut.waits_for_event.value), bool(int(dut.moves_data.value)))
        succeeded = expected.status_code == 0 and expected.status_type == 0
        wanted = (expected.result, expected.status_code, expected.status_type, expected.completes_now,
                  bool(expected.data) and succeeded)
        assert got == wanted, (f"{entry}: (DW0, SC, SCT, completes now, moves data) {got}, the model says {wanted}")
        nvme_coverage.admin_command(entry.opcode, expected.status_code, expected.status_type)
        clears = entry.opcode == nvme_admin.OP_GET_LOG_PAGE and succeeded and not entry.cdw10 >> 15 & 1
        log_reads = (int(dut.error_log_read.value), int(dut.smart_log_read.value))
        assert log_reads == (int(clears and entry.cdw10 & 0xFF == nvme_admin.LOG_PAGE_ERROR_INFORMATION),
                             int(clears and entry.cdw10 & 0xFF == nvme_admin.LOG_PAGE_SMART_HEALTH)), \
            f"{entry}: (error, SMART) log read with RAE cleared {log_reads}"
        self.check_queue_outputs(entry, succeeded)
        if wanted[4]:
            self.requester.memory.clear()  # so that a byte never written is not found from before
        transfers_before = len(self.requester.transfers)
        done_before = self.requester.data_done_pulses
        await FallingEdge(dut.clk)
        dut.execute.value = 0
        self.check_features()
        if wanted[4]:
            await self.check_data(entry, expected.data, transfers_before, done_before)
        return expected

    def check_features(self):
        """The features other blocks act on, as the model says they stand after the command."""
        dut, model = self.dut, self.model
        assert int(dut.interrupt_coalescing_setting.value) == model.interrupt_coalescing, "Feature 08h"
        disabled = int(dut.vector_coalescing_disabled.value)
        expected = sum(1 << vector for vector in range(self.vectors) if model.coalescing_disabled(vector))
        assert disabled == expected, f"Feature 09h CD per vector {disabled:#x}, the model says {expected:#x}"
        assert int(dut.event_config_warnings.value) == model.features.async_event_configuration, "Feature 0Bh"
        assert int(dut.critical_warning.value) == model.critical_warning(), "SMART critical warning"

    def check_queue_outputs(self, entry: Entry, succeeded: bool):
        dut = self.dut
        mask = (1 << self.index_width) - 1
        queue_id, size, vector_or_cq = entry.cdw10 & 0xFFFF, entry.cdw10 >> 16, entry.cdw11 >> 16
        assert int(dut.queue_index.value) == queue_id & mask, "queue_index"
        assert int(dut.sq_cq_index.value) == vector_or_cq & mask, "sq_cq_index"
        changes = {name: int(getattr(dut, name).value) for name in ("create_cq", "create_sq", "delete_cq", "delete_sq")}
        names = {nvme_admin.OP_CREATE_CQ: "create_cq", nvme_admin.OP_CREATE_SQ: "create_sq",
                 nvme_admin.OP_DELETE_CQ: "delete_cq", nvme_admin.OP_DELETE_SQ: "delete_sq"}
        expected_change = names.get(entry.opcode) if succeeded else None
        assert changes == {name: int(name == expected_change) for name in changes}, f"{entry}: queue table change {changes}"
        if expected_change in ("create_cq", "create_sq"):
            got = (int(dut.queue_size.value), int(dut.queue_vector_or_cq.value), int(dut.queue_interrupts.value))
            assert got == (size, vector_or_cq, entry.cdw11 >> 1 & 1), f"{entry}: created (size, vector or CQ, IEN) {got}"
        # The stand-in table takes the change at the coming rising edge, as the real one does
        if expected_change == "create_cq":
            self.completion_queues[queue_id] = size + 1
        elif expected_change == "create_sq":
            self.submission_queues[queue_id] = vector_or_cq
        elif expected_change == "delete_cq":
            del self.completion_queues[queue_id]
        elif expected_change == "delete_sq":
            del self.submission_queues[queue_id]
        assert self.completion_queues == self.model.completion_queues, "the stand-in table and the model's CQs"
        assert self.submission_queues == self.model.submission_queues, "the stand-in table and the model's SQs"

    async def check_data(self, entry: Entry, data: bytes, transfers_before: int, done_before: int):
        """An Identify structure or a log page: the part from PRP1's offset to its page's end at
        PRP1, the rest at PRP2, in one bulk write per part and one data_done after the last."""
        offset = entry.prp1 % PAGE
        first = min(len(data), PAGE - offset)
        parts = [(entry.prp1, first // 4)] + ([(entry.prp2, (len(data) - first) // 4)] if first < len(data) else [])
        for _ in range(20000):
            if self.requester.data_done_pulses > done_before:
                break
            await self.idle()
        else:
            raise AssertionError(f"{entry}: data_done never came")
        await self.idle(3)
        assert self.requester.data_done_pulses == done_before + 1, f"{entry}: data_done pulses"
        assert self.requester.transfers[transfers_before:] == parts, \
            f"{entry}: bulk writes {self.requester.transfers[transfers_before:]}, expected {parts}"
        written = self.requester.read(entry.prp1, first) + \
            (self.requester.read(entry.prp2, len(data) - first) if first < len(data) else b"")
        if written != data:
            where = next(index for index in range(len(data)) if written[index] != data[index])
            raise AssertionError(f"{entry}: data byte {where}: {written[where]:#04x}, expected {data[where]:#04x}")
        assert int(self.dut.bulk_valid.value) == 0, f"{entry}: a bulk write after the data"


def random_queue_entry(tb: TB, cid: int) -> Entry:
    """A create or delete naming queues near the table's edges, with fields valid more often than not."""
    rng = tb.rng
    opcode = rng.choice(QUEUE_OPCODES)
    queue_id = rng.choice((0, tb.queues - 1, tb.queues, 0xFFFF, rng.randrange(1, tb.queues), rng.randrange(1, tb.queues),
                           rng.randrange(1, min(tb.queues, 4))))
    size = rng.choice((0, 1, tb.max_queue_entries - 1, tb.max_queue_entries, 0xFFFF, rng.randrange(1, tb.max_queue_entries),
                       rng.randrange(1, tb.max_queue_entries)))
    contiguous = rng.random() < 0.85
    interrupts = rng.random() < 0.7
    if opcode == nvme_admin.OP_CREATE_SQ:
        other = rng.choice((0, tb.queues, 0xFFFF, rng.randrange(1, tb.queues), rng.randrange(1, tb.queues),
                            rng.choice(list(tb.completion_queues) or [1])))
    else:
        other = rng.choice((0, tb.vectors - 1, tb.vectors, 0xFFFF, rng.randrange(tb.vectors), rng.randrange(tb.vectors)))
    base = rng.randrange(1 << 52) << 12 | (rng.choice((0x8, 0x800, 0xFFC)) if rng.random() < 0.1 else 0)
    cdw11 = int(contiguous) | int(interrupts) << 1 | other << 16 | rng.choice((0, 0, 0xFFFC & rng.getrandbits(16)))
    return Entry(opcode, cid, nsid=rng.getrandbits(32), cdw10=queue_id | size << 16, cdw11=cdw11, prp1=base,
                 prp2=rng.getrandbits(64))


def random_entry(tb: TB, cid: int) -> Entry:
    """Any admin command: the ones the model knows with fields valid and not, unsupported ones."""
    rng = tb.rng
    kind = rng.random()
    if kind < 0.3:
        return random_queue_entry(tb, cid)
    opcode = rng.choice(ADMIN_OPCODES[4:] + UNSUPPORTED_OPCODES)
    if opcode == nvme_admin.OP_IDENTIFY:
        cns = rng.choice((0, 1, 2, 0, 1, 2, 3, 0x10, 0xFF))
        nsid = rng.choice((0, 1, 2, 0xFFFFFFFF, rng.getrandbits(32)))
        prp1 = rng.randrange(1 << 40) << 12 | rng.choice((0, 0, 0, 4, 0x800, 0xFFC, 2, 0x801))
        prp2 = rng.randrange(1 << 40) << 12 | rng.choice((0, 0, 0, 0x10, 3))
        return Entry(opcode, cid, nsid, cdw10=cns | rng.choice((0, rng.getrandbits(16))) << 16, prp1=prp1, prp2=prp2)
    if opcode in (nvme_admin.OP_SET_FEATURES, nvme_admin.OP_GET_FEATURES):
        return random_features_entry(tb, opcode, cid)
    if opcode == nvme_admin.OP_GET_LOG_PAGE:
        return random_log_page_entry(tb, cid)
    return Entry(opcode, cid, rng.getrandbits(32), cdw10=rng.getrandbits(32), cdw11=rng.getrandbits(32),
                 prp1=rng.getrandbits(64), prp2=rng.getrandbits(64))


def random_features_entry(tb: TB, opcode: int, cid: int) -> Entry:
    """Set or Get Features of any feature, SEL and SV mostly 0, CDW11 at the fields' edges: vectors
    0, the last and past it; temperatures around the composite one (313 K) so the warning comes and
    goes; TMPSEL and THSEL valid and not."""
    rng = tb.rng
    feature = rng.choice(FEATURES)
    select = rng.choice((0, 0, 0, 1, 2, 3, rng.randrange(8)))
    save = rng.random() < 0.1
    cdw11 = rng.choice((rng.getrandbits(32), 0xFFFF, 0xFFFF0000, 0xFFFFFFFF, 0x00030003, rng.getrandbits(16), 0))
    if feature == nvme_admin.FEATURE_TEMPERATURE_THRESHOLD:
        cdw11 = rng.choice((250, 312, 313, 314, 343, 400, 0, 0xFFFF)) | rng.choice((0, 0, 0xF, 1, 8)) << 16 \
            | rng.choice((0, 0, 1, 1, 2, 3)) << 20
    elif feature == nvme_admin.FEATURE_INTERRUPT_VECTOR_CONFIGURATION:
        cdw11 = rng.choice((0, 1, tb.vectors - 1, tb.vectors, 0xFFFF, rng.randrange(tb.vectors))) | rng.getrandbits(1) << 16
    elif feature == nvme_admin.FEATURE_ASYNC_EVENT_CONFIGURATION:
        cdw11 = rng.choice((0x2, 0x0, 0xFF, rng.getrandbits(32)))
    cdw10 = feature | (select << 8 if opcode == nvme_admin.OP_GET_FEATURES else 0) | int(save) << 31
    return Entry(opcode, cid, rng.getrandbits(32), cdw10=cdw10, cdw11=cdw11)


def random_log_page_entry(tb: TB, cid: int) -> Entry:
    """Get Log Page of a kept page or not, lengths from a dword to past the page and past 4 KiB,
    offsets inside, at the end and unaligned, PRP1 anywhere dword aligned (or not) so the data
    reaches PRP2, RAE either way, and for SMART NSIDs 0, all, and 1."""
    rng = tb.rng
    log_page = rng.choice(LOG_PAGES)
    size = nvme_admin.LOG_PAGE_BYTES.get(log_page, 512)
    dwords = rng.choice((1, 2, 16, size // 4, size // 4 + 1, 1024, 1025, rng.randrange(1, 1024), 0x10000,
                         rng.randrange(1, size // 4 + 1)))
    offset = rng.choice((0, 0, 0, 4, size - 4, size, 2, rng.randrange(size // 4) * 4, 1 << 32))
    prp1 = rng.randrange(1 << 40) << 12 | rng.choice((0, 0, 0xF00, 0xFFC, 2, rng.randrange(1024) * 4))
    prp2 = rng.randrange(1 << 40) << 12 | rng.choice((0, 0, 0, 0x10))
    nsid = rng.choice((0, 0xFFFFFFFF, 1, rng.getrandbits(32)))
    return Entry.log_page(cid, log_page, dwords, offset, prp1, prp2, nsid, retain_event=rng.random() < 0.3)


def with_random_flags(tb: TB, entry: Entry) -> Entry:
    """Now and then FUSE or PSDT set: Invalid Field before anything else, nothing done."""
    if tb.rng.random() < 0.9:
        return entry
    return replace(entry, fuse=tb.rng.randrange(4), psdt=tb.rng.choice((0, 1, 2, 3)))


@cocotb.test(timeout_time=200, timeout_unit="us")
async def admin_commands_answer_as_the_model_predicts(dut):
    """Every admin opcode the model knows and unsupported ones, fields valid and not, directed then
    random (Identify data included, with requester backpressure): each outcome is the model's."""
    tb = TB(dut, "every-command")
    await tb.reset()
    directed = [Entry(opcode, 0x100 + opcode, cdw10=0x12345678, cdw11=0x9ABCDEF0) for opcode in UNSUPPORTED_OPCODES]
    directed += [
        Entry(nvme_admin.OP_ABORT, 0x200, cdw10=0x00010002),
        Entry(nvme_admin.OP_GET_FEATURES, 0x201, cdw10=nvme_admin.FEATURE_NUMBER_OF_QUEUES),
        Entry(nvme_admin.OP_SET_FEATURES, 0x202, cdw10=nvme_admin.FEATURE_NUMBER_OF_QUEUES, cdw11=0x00030003),
        Entry(nvme_admin.OP_SET_FEATURES, 0x203, cdw10=nvme_admin.FEATURE_NUMBER_OF_QUEUES, cdw11=0x0000FFFF),
        Entry(nvme_admin.OP_SET_FEATURES, 0x204, cdw10=nvme_admin.FEATURE_NUMBER_OF_QUEUES, cdw11=0xFFFF0000),
        Entry(nvme_admin.OP_GET_FEATURES, 0x205, cdw10=nvme_admin.FEATURE_NUMBER_OF_QUEUES, cdw11=0xFFFFFFFF),
        Entry(nvme_admin.OP_GET_FEATURES, 0x206, cdw10=nvme_admin.FEATURE_INTERRUPT_COALESCING),
        Entry(nvme_admin.OP_SET_FEATURES, 0x207, cdw10=nvme_admin.FEATURE_INTERRUPT_COALESCING, cdw11=0xABCD0A05),
        Entry(nvme_admin.OP_GET_FEATURES, 0x208, cdw10=nvme_admin.FEATURE_INTERRUPT_COALESCING),
        Entry(nvme_admin.OP_SET_FEATURES, 0x209, cdw10=0x02, cdw11=1),  # Power Management: power state 1
        Entry(nvme_admin.OP_IDENTIFY, 0x20A, cdw10=3, prp1=0x10000, nsid=1),  # CNS 03h: the descriptors
        Entry(nvme_admin.OP_IDENTIFY, 0x20B, nsid=2, cdw10=0, prp1=0x10000),
        Entry(nvme_admin.OP_IDENTIFY, 0x20C, cdw10=1, prp1=0x10002),      # not dword aligned
        Entry(nvme_admin.OP_IDENTIFY, 0x20D, cdw10=1, prp1=0x10800, prp2=0x20010),  # PRP2 not page aligned
        Entry(nvme_admin.OP_IDENTIFY, 0x20E, cdw10=1, prp1=0x10000, prp2=0x20010),  # PRP2 unused: fine
        Entry(nvme_admin.OP_IDENTIFY, 0x20F, cdw10=3, prp1=0x10000, nsid=0xFFFFFFFF),
        Entry(nvme_admin.OP_IDENTIFY, 0x210, cdw10=2, prp1=0x10000, nsid=0xFFFFFFFE),
        Entry(nvme_admin.OP_IDENTIFY, 0x211, cdw10=1, prp1=0x10000, fuse=1),
        Entry(nvme_admin.OP_ABORT, 0x212, psdt=1),
        Entry(nvme_admin.OP_SET_FEATURES, 0x213, cdw10=nvme_admin.FEATURE_ARBITRATION | 1 << 31, cdw11=3),  # SV
        Entry(nvme_admin.OP_GET_FEATURES, 0x214, cdw10=nvme_admin.FEATURE_ARBITRATION | 4 << 8),    # SEL reserved
        Entry(nvme_admin.OP_GET_FEATURES, 0x215, cdw10=0x06),                                          # VWC is 0
        # the over-temperature threshold under the composite temperature: the warning comes on
        Entry(nvme_admin.OP_SET_FEATURES, 0x216, cdw10=nvme_admin.FEATURE_ASYNC_EVENT_CONFIGURATION, cdw11=0x2),
        Entry(nvme_admin.OP_SET_FEATURES, 0x217, cdw10=nvme_admin.FEATURE_TEMPERATURE_THRESHOLD, cdw11=300),
        Entry(nvme_admin.OP_GET_FEATURES, 0x218, cdw10=nvme_admin.FEATURE_TEMPERATURE_THRESHOLD | 1 << 8),
        Entry.log_page(0x219, nvme_admin.LOG_PAGE_SMART_HEALTH, 128, prp1=0x30000),
        Entry(nvme_admin.OP_SET_FEATURES, 0x21A, cdw10=nvme_admin.FEATURE_TEMPERATURE_THRESHOLD, cdw11=343),
        Entry(nvme_admin.OP_SET_FEATURES, 0x21B, cdw10=nvme_admin.FEATURE_INTERRUPT_VECTOR_CONFIGURATION,
              cdw11=1 << 16 | 3),
        Entry(nvme_admin.OP_GET_FEATURES, 0x21C, cdw10=nvme_admin.FEATURE_INTERRUPT_VECTOR_CONFIGURATION, cdw11=3),
        Entry(nvme_admin.OP_SET_FEATURES, 0x21D, cdw10=nvme_admin.FEATURE_INTERRUPT_VECTOR_CONFIGURATION, cdw11=0),
        Entry.log_page(0x21E, nvme_admin.LOG_PAGE_FIRMWARE_SLOT, 128, prp1=0x30F00, prp2=0x50000),  # across PRP2
        Entry.log_page(0x21F, nvme_admin.LOG_PAGE_SMART_HEALTH, 128, prp1=0x30000, nsid=1),        # not per namespace
        Entry.log_page(0x220, 0x04, 128, prp1=0x30000),                                             # not kept
        Entry.log_page(0x221, nvme_admin.LOG_PAGE_ERROR_INFORMATION, 64, prp1=0x30002),            # PRP1 not dword aligned
    ]
    for entry in directed:
        tb.tell_of_traffic()
        await tb.execute(entry)
        await tb.idle(tb.rng.randrange(3))
    for cid in range(600):
        tb.tell_of_traffic()
        await tb.execute(with_random_flags(tb, random_entry(tb, cid)))
        await tb.idle(tb.rng.randrange(3))


@cocotb.test(timeout_time=100, timeout_unit="us")
async def queue_commands_make_every_check_as_the_model_predicts(dut):
    """Create and delete I/O CQs and SQs: queue ID 0 and past the table, an existing queue, sizes 0
    and past MQES, a non-contiguous queue, a vector past the last, an SQ on a missing CQ, a CQ an SQ
    still posts to, an unaligned base; then random traffic that fills and empties the table."""
    tb = TB(dut, "queues")
    await tb.reset()
    last = tb.queues - 1
    mqes = tb.max_queue_entries - 1
    cq, sq = nvme_admin.OP_CREATE_CQ, nvme_admin.OP_CREATE_SQ

    def create(opcode, qid, entries, base=0x100000, contiguous=True, other=0, interrupts=True):
        return Entry.decoded(nvme_admin.create_queue(opcode, 0x300 + qid % 0x100, qid, entries, base, contiguous,
                                                     other, interrupts))

    directed = [
        create(cq, 0, 16), create(cq, tb.queues, 16), create(cq, 0xFFFF, 16),
        create(cq, 1, 1), create(cq, 1, mqes + 2), create(cq, 1, 0x10000),
        create(cq, 1, 16, contiguous=False),
        create(cq, 1, 16, other=tb.vectors), create(cq, 1, 16, other=0xFFFF),
        create(cq, 1, 16, base=0x100800),
        create(cq, 1, 16, other=tb.vectors, interrupts=False),  # no interrupts: the vector is not checked
        create(cq, 1, 16),                                       # exists now
        # Number of Queues once an I/O queue exists: Command Sequence Error
        Entry(nvme_admin.OP_SET_FEATURES, 0x3FF, cdw10=nvme_admin.FEATURE_NUMBER_OF_QUEUES, cdw11=0x00010001),
        create(cq, last, mqes + 1, other=tb.vectors - 1),
        create(sq, 0, 16, other=1), create(sq, tb.queues, 16, other=1),
        create(sq, 2, 16, other=0), create(sq, 2, 16, other=2), create(sq, 2, 16, other=tb.queues),
        create(sq, 2, 0x10000, other=1), create(sq, 2, 16, other=1, contiguous=False),
        create(sq, 2, 16, other=1, base=0x100004),
        create(sq, 2, mqes + 1, other=1), create(sq, 2, 16, other=1),   # exists now
        create(sq, 3, 2, other=1),
        Entry(nvme_admin.OP_DELETE_CQ, 0, cdw10=1),                      # SQs 2 and 3 still use it
        Entry(nvme_admin.OP_DELETE_CQ, 0, cdw10=2), Entry(nvme_admin.OP_DELETE_CQ, 0, cdw10=0),
        Entry(nvme_admin.OP_DELETE_CQ, 0, cdw10=tb.queues),
        Entry(nvme_admin.OP_DELETE_SQ, 0, cdw10=0), Entry(nvme_admin.OP_DELETE_SQ, 0, cdw10=tb.queues),
        Entry(nvme_admin.OP_DELETE_SQ, 0, cdw10=1),                      # a CQ, not an SQ
        Entry(nvme_admin.OP_DELETE_SQ, 0, cdw10=2), Entry(nvme_admin.OP_DELETE_SQ, 0, cdw10=2),
        Entry(nvme_admin.OP_DELETE_CQ, 0, cdw10=1),                      # SQ 3 still uses it
        Entry(nvme_admin.OP_DELETE_SQ, 0, cdw10=3), Entry(nvme_admin.OP_DELETE_CQ, 0, cdw10=1),
        Entry(nvme_admin.OP_DELETE_CQ, 0, cdw10=last),
    ]
    statuses = set()
    for entry in directed:
        answer = await tb.execute(entry)
        statuses.add((answer.status_type, answer.status_code))
    assert not tb.completion_queues and not tb.submission_queues, "the directed cases leave the table empty"
    for cid in range(1500):
        answer = await tb.execute(random_queue_entry(tb, cid))
        statuses.add((answer.status_type, answer.status_code))
    every_check = {(0, nvme_admin.SC_SUCCESS), (0, nvme_admin.SC_INVALID_FIELD), (0, nvme_admin.SC_PRP_OFFSET_INVALID),
                   (0, nvme_admin.SC_COMMAND_SEQUENCE_ERROR)}
    every_check |= {(nvme_admin.SCT_COMMAND_SPECIFIC, code) for code in (
        nvme_admin.SC_CQ_INVALID, nvme_admin.SC_INVALID_QID, nvme_admin.SC_INVALID_QUEUE_SIZE,
        nvme_admin.SC_INVALID_VECTOR, nvme_admin.SC_INVALID_QUEUE_DELETION)}
    assert statuses >= every_check, f"statuses never seen: {sorted(every_check - statuses)}"


@cocotb.test(timeout_time=500, timeout_unit="us")
async def identify_structures_reach_the_prps_whole_under_backpressure(dut):
    """Identify Controller, Namespace, its identification descriptors and the active namespace list
    (from NSID 0 and from 1), with PRP1 at a page start, a dword inside its page and the page's
    last dword (the rest at PRP2), under no backpressure and heavy: every byte where the PRPs point."""
    structures = ((nvme_admin.CNS_CONTROLLER, 0), (nvme_admin.CNS_NAMESPACE, 1),
                  (nvme_admin.CNS_NAMESPACE_DESCRIPTORS, 1),
                  (nvme_admin.CNS_ACTIVE_NAMESPACES, 0), (nvme_admin.CNS_ACTIVE_NAMESPACES, 1))
    tb = TB(dut, "identify")
    await tb.reset()
    for backpressure in (None, 0.7):
        tb.requester.pauses = pauses(tb.rng, backpressure)
        for cid, (cns, nsid) in enumerate(structures):
            for offset in (0, 4, 0x7F0, 0xFFC):
                page = (cid * 16 + offset // 4 % 16 + 1) * 2 * PAGE
                await tb.execute(Entry(nvme_admin.OP_IDENTIFY, cid, nsid, cdw10=cns, prp1=page + offset,
                                       prp2=page + PAGE * 0x10000))


@cocotb.test(timeout_time=200, timeout_unit="us")
async def log_pages_reach_the_prps_from_their_offset_under_backpressure(dut):
    """The error log (fewer errors than entries, then more, so old ones fall out), SMART with data
    units either side of a thousand and the firmware slot page: whole, from an offset, past the
    page's end (zeros), one dword, and across PRP1's page end into PRP2, under no backpressure and
    heavy: every byte the model's."""
    tb = TB(dut, "log-pages")
    await tb.reset()
    model = tb.model
    cid = 0
    for backpressure in (None, 0.7):
        tb.requester.pauses = pauses(tb.rng, backpressure)
        for errors in (2, 7):
            for index in range(errors):
                model.record_error(index % tb.queues, 0x1000 + index, nvme_admin.status_field(index % 2, 0x80 + index))
            model.record_io(True, 1000)     # 1000 units: one thousand exactly
            model.record_io(True, 8)        # (more Reads than Writes: no field can stand in for another)
            model.record_io(False, 1001)    # 1001: two, rounded up
            tb.drive_log_state()
            for log_page in (nvme_admin.LOG_PAGE_ERROR_INFORMATION, nvme_admin.LOG_PAGE_SMART_HEALTH,
                             nvme_admin.LOG_PAGE_FIRMWARE_SLOT):
                size = nvme_admin.LOG_PAGE_BYTES[log_page]
                for dwords, offset, prp_offset in ((size // 4, 0, 0), (size // 4, 0, 0xF80), (1, size - 4, 0xFFC),
                                                   (size // 4 - 3, 12, 0x400), (size // 4 + 20, 0, 0xF00),
                                                   (1024, 8, 0)):
                    page = (cid % 32 + 1) * 2 * PAGE
                    cid += 1
                    await tb.execute(Entry.log_page(cid, log_page, dwords, offset, page + prp_offset,
                                                    page + PAGE * 0x10000, nsid=0xFFFFFFFF, retain_event=True))


@cocotb.test(timeout_time=50, timeout_unit="us")
async def event_requests_wait_oldest_first_up_to_the_limit(dut):
    """Four Asynchronous Event Requests wait, a fifth is refused; the engine takes them oldest first
    and freed places are taken again."""
    tb = TB(dut, "events")
    await tb.reset()
    aer = nvme_admin.OP_ASYNC_EVENT_REQUEST
    for cid in range(0x40, 0x45):
        await tb.execute(Entry(aer, cid))
    assert tb.model.events.requests == [0x40, 0x41, 0x42, 0x43]
    for cid in range(200):
        await tb.execute(Entry(aer, 0x1000 + cid) if tb.rng.random() < 0.5 else random_entry(tb, cid))
        await tb.idle(tb.rng.randrange(4))


@cocotb.test(timeout_time=50, timeout_unit="us")
async def reset_mid_identify_leaves_nothing_half_done(dut):
    """A reset while Identify data goes out (waiting for the requester, or part way through), with
    event requests waiting and Feature 08h set: afterwards no bulk write, no data_done, no event
    request and the features back at their defaults (the model's controller reset); the next
    Identify goes out whole."""
    tb = TB(dut, "reset", backpressure=0.5)
    await tb.reset()
    for when in (0, 3, 40, 150):
        await tb.execute(Entry(nvme_admin.OP_SET_FEATURES, 1, cdw10=nvme_admin.FEATURE_INTERRUPT_COALESCING,
                               cdw11=0x0203))
        await tb.execute(Entry(nvme_admin.OP_ASYNC_EVENT_REQUEST, 2))
        await FallingEdge(dut.clk)
        tb.drive(Entry(nvme_admin.OP_IDENTIFY, 3, cdw10=nvme_admin.CNS_CONTROLLER, prp1=0x50800, prp2=0x90000),
                 execute=True)
        await FallingEdge(dut.clk)
        dut.execute.value = 0
        for _ in range(when):
            await FallingEdge(dut.clk)
        done_before = tb.requester.data_done_pulses
        dut.rst.value = 1
        tb.requester.hold()
        await FallingEdge(dut.clk)
        await FallingEdge(dut.clk)
        dut.rst.value = 0
        tb.requester.held = False
        tb.model.reset()
        tb.completion_queues.clear()
        tb.submission_queues.clear()
        for _ in range(30):
            await tb.idle()
            assert int(dut.bulk_valid.value) == 0, f"reset {when} cycles in: a bulk write after it"
        assert tb.requester.data_done_pulses == done_before, f"reset {when} cycles in: data_done after it"
        assert int(dut.interrupt_coalescing_setting.value) == 0
        await tb.execute(Entry(nvme_admin.OP_GET_FEATURES, 4, cdw10=nvme_admin.FEATURE_INTERRUPT_COALESCING))
        await tb.execute(Entry(nvme_admin.OP_IDENTIFY, 5, cdw10=nvme_admin.CNS_CONTROLLER, prp1=0x60FFC,
                               prp2=0xA0000))
