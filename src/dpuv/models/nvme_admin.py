# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""What an NVMe controller answers to admin commands, from the NVMe base specification (facts in
docs/reference/nvme.md): the completion's DW0 and status for each submission entry, and the data
it writes to the host, so a testbench can predict every completion the engine posts. It keeps the
state those answers depend on: the I/O queues, the features, the error log, the SMART/Health
counters and the asynchronous events. Every opcode it does not carry is Invalid Opcode.

The model is told what it cannot see in an admin entry: completions posted with an error
(`record_error`), invalid doorbell writes (`record_doorbell_error`), successful Reads and Writes
(`record_io`) and the temperature (`set_temperature`). Controller reset (CC.EN 1 -> 0) is
`reset`."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from dpuv.models.nvme_error_log import ErrorLog
from dpuv.models.nvme_io_statistics import IoStatistics

OP_GET_LOG_PAGE = 0x02
OP_IDENTIFY, OP_ABORT, OP_SET_FEATURES, OP_GET_FEATURES, OP_ASYNC_EVENT_REQUEST = 0x06, 0x08, 0x09, 0x0A, 0x0C
OP_DELETE_SQ, OP_CREATE_SQ, OP_DELETE_CQ, OP_CREATE_CQ = 0x00, 0x01, 0x04, 0x05
CNS_NAMESPACE, CNS_CONTROLLER, CNS_ACTIVE_NAMESPACES, CNS_NAMESPACE_DESCRIPTORS = 0x00, 0x01, 0x02, 0x03
FEATURE_ARBITRATION, FEATURE_POWER_MANAGEMENT, FEATURE_TEMPERATURE_THRESHOLD = 0x01, 0x02, 0x04
FEATURE_ERROR_RECOVERY, FEATURE_VOLATILE_WRITE_CACHE = 0x05, 0x06
FEATURE_INTERRUPT_COALESCING, FEATURE_NUMBER_OF_QUEUES = 0x08, 0x07
FEATURE_INTERRUPT_VECTOR_CONFIGURATION, FEATURE_WRITE_ATOMICITY_NORMAL = 0x09, 0x0A
FEATURE_ASYNC_EVENT_CONFIGURATION = 0x0B
# Generic command status (SCT 0)
SC_SUCCESS, SC_INVALID_OPCODE, SC_INVALID_FIELD = 0x00, 0x01, 0x02
SC_INVALID_NAMESPACE, SC_COMMAND_SEQUENCE_ERROR, SC_PRP_OFFSET_INVALID = 0x0B, 0x0C, 0x13
# Command-specific status (SCT 1)
SCT_COMMAND_SPECIFIC = 1
SC_CQ_INVALID, SC_INVALID_QID, SC_INVALID_QUEUE_SIZE, SC_INVALID_VECTOR, SC_INVALID_QUEUE_DELETION = 0x00, 0x01, 0x02, 0x08, 0x0C
SC_EVENT_REQUEST_LIMIT_EXCEEDED, SC_INVALID_LOG_PAGE, SC_FEATURE_NOT_SAVEABLE = 0x05, 0x09, 0x0D
# Asynchronous event types (AET) and information (AEI)
AET_ERROR, AET_SMART_HEALTH = 0, 1
AEI_INVALID_DOORBELL_REGISTER, AEI_INVALID_DOORBELL_VALUE = 0x00, 0x01  # error status
AEI_TEMPERATURE_THRESHOLD = 0x01                                          # SMART/Health status
# Log pages
LOG_PAGE_ERROR_INFORMATION, LOG_PAGE_SMART_HEALTH, LOG_PAGE_FIRMWARE_SLOT = 0x01, 0x02, 0x03
ERROR_LOG_ENTRIES = 4
# Asynchronous Event Requests the controller holds at once (Identify AERL + 1)
EVENT_REQUEST_LIMIT = 4
ERROR_ENTRY_BYTES = 64
LOG_PAGE_BYTES = {LOG_PAGE_ERROR_INFORMATION: ERROR_LOG_ENTRIES * ERROR_ENTRY_BYTES,
                  LOG_PAGE_SMART_HEALTH: 512, LOG_PAGE_FIRMWARE_SLOT: 512}
# The most Get Log Page returns: no page is larger than 4 KiB
MAX_LOG_DWORDS = 1024
# The log page whose read (RAE = 0) lets events of a type be reported again
EVENT_LOG_PAGES = {AET_ERROR: LOG_PAGE_ERROR_INFORMATION, AET_SMART_HEALTH: LOG_PAGE_SMART_HEALTH}
# Get Features SEL (CDW10 10:8); "saved" reads as the default because nothing is saveable
SEL_CURRENT, SEL_DEFAULT, SEL_SAVED, SEL_SUPPORTED_CAPABILITIES = 0, 1, 2, 3
# Supported capabilities DW0: bit 0 saveable, bit 1 namespace specific, bit 2 changeable
CAPABILITY_CHANGEABLE = 1 << 2
SAVE_BIT = 1 << 31  # Set Features CDW10 SV
SUPPORTED_FEATURES = (FEATURE_ARBITRATION, FEATURE_POWER_MANAGEMENT, FEATURE_TEMPERATURE_THRESHOLD,
                      FEATURE_ERROR_RECOVERY, FEATURE_NUMBER_OF_QUEUES, FEATURE_INTERRUPT_COALESCING,
                      FEATURE_INTERRUPT_VECTOR_CONFIGURATION, FEATURE_WRITE_ATOMICITY_NORMAL,
                      FEATURE_ASYNC_EVENT_CONFIGURATION)
# Temperature Threshold CDW11: TMPSEL 19:16 (composite or every sensor), THSEL 21:20
TMPSEL_COMPOSITE, TMPSEL_ALL_SENSORS = 0x0, 0xF
THSEL_OVER, THSEL_UNDER = 0, 1
# SMART/Health Critical Warning bit 1, and the AEC bit that makes it raise an event
CRITICAL_WARNING_TEMPERATURE = 1 << 1
# Namespace identifiers: every namespace, and the first one the active list cannot start after
NSID_ALL = 0xFFFFFFFF
NSID_ACTIVE_LIST_LIMIT = 0xFFFFFFFE
NIDT_NGUID, NGUID_BYTES = 0x02, 16
# An error log entry's Parameter Error Location when the model does not say which field was bad
# CDW0 byte 1: FUSE in bits 1:0, PSDT in bits 7:6
FUSE_BITS, PSDT_BITS = 0x03, 0xC0
WARNING_TEMPERATURE_KELVIN = 343  # WCTEMP (70 C), also the default over-temperature threshold
PAGE = 4096
IDENTIFY_BYTES = 4096
CONTROLLER_TYPE_IO = 0x01
ONCS_WRITE_ZEROES = 1 << 3
# FRMW: bit 0 slot 1 read-only, bits 3:1 one slot
FIRMWARE_UPDATES = 0x03
# LPA bit 2: extended data for Get Log Page (NUMDU, LPOL/LPOU)
LOG_PAGE_ATTRIBUTES = 0x04
# Firmware Slot log AFI: slot 1 active, no slot for the next reset
ACTIVE_FIRMWARE_SLOT_1 = 0x01
AVAILABLE_SPARE_PERCENT, AVAILABLE_SPARE_THRESHOLD_PERCENT = 100, 10


def submission(opcode: int, cid: int, nsid: int = 0, cdw10: int = 0, cdw11: int = 0, prp1: int = 0,
               prp2: int = 0, cdw12: int = 0, cdw13: int = 0, fuse: int = 0, psdt: int = 0) -> bytes:
    """A 64-byte submission queue entry."""
    cdw0 = opcode | fuse << 8 | psdt << 14 | cid << 16
    return struct.pack("<IIQQQQIIIIII", cdw0, nsid, 0, 0, prp1, prp2, cdw10, cdw11, cdw12, cdw13, 0, 0)


def fused_or_sgl(entry: bytes) -> bool:
    """FUSE (CDW0 9:8) or PSDT (CDW0 15:14) set: the controller has no fused operations (FUSES 0)
    and no SGLs (SGLS 0), so such a command, admin or I/O, is Invalid Field before its opcode
    is looked at."""
    return bool(entry[1] & (FUSE_BITS | PSDT_BITS))


def status_field(status_type: int, status_code: int, do_not_retry: bool = True) -> int:
    """A completion's status field as DW3 31:17 holds it: SC 7:0, SCT 10:8, CRD and M 0, DNR 14."""
    return status_code | status_type << 8 | int(do_not_retry) << 14


def get_log_page(cid: int, log_page: int, dwords: int, offset: int = 0, prp1: int = 0, prp2: int = 0,
                 nsid: int = 0, retain_event: bool = False) -> bytes:
    """A Get Log Page entry: `dwords` (1-based here) from byte `offset` of the page."""
    numd = dwords - 1
    cdw10 = log_page | int(retain_event) << 15 | (numd & 0xFFFF) << 16
    return submission(OP_GET_LOG_PAGE, cid, nsid, cdw10, numd >> 16, prp1, prp2, offset & 0xFFFFFFFF, offset >> 32)


@dataclass(frozen=True)
class Command:
    """The fields of a submission entry the admin commands read."""
    opcode: int
    cid: int
    nsid: int
    prp1: int
    prp2: int
    cdw10: int
    cdw11: int
    cdw12: int
    cdw13: int

    @classmethod
    def decode(cls, entry: bytes) -> "Command":
        cdw0, nsid = struct.unpack_from("<II", entry)
        prp1, prp2 = struct.unpack_from("<QQ", entry, 24)
        cdw10, cdw11, cdw12, cdw13 = struct.unpack_from("<IIII", entry, 40)
        return cls(cdw0 & 0xFF, cdw0 >> 16, nsid, prp1, prp2, cdw10, cdw11, cdw12, cdw13)


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
    # Identify and Get Log Page: the bytes written to the host (PRP1, then PRP2), before the completion
    data: bytes = b""
    status_type: int = 0

    @property
    def succeeded(self) -> bool:
        return self.status_code == SC_SUCCESS and self.status_type == 0


def invalid_field() -> Answer:
    return Answer(0, SC_INVALID_FIELD)


def command_specific(code: int) -> Answer:
    return Answer(0, code, status_type=SCT_COMMAND_SPECIFIC)


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
    subsystem_nqn: str = "nqn.2026-12.io.github.dpuv:nvme:DPUV0001"
    nguid: bytes = bytes.fromhex("64707576000000000000000000000001")
    warning_temperature: int = WARNING_TEMPERATURE_KELVIN  # WCTEMP
    critical_temperature: int = 358  # CCTEMP, kelvin (85 C)
    temperature: int = 313           # the composite temperature the build reports (TEMPERATURE_KELVIN)
    max_power_centiwatts: int = 2500


def _text(value: str, length: int) -> bytes:
    return value.encode("ascii").ljust(length, b" ")


def identify_controller(identity: Identity) -> bytes:
    """Identify Controller data structure (CNS 01h), byte offsets from the NVMe base specification.
    Fields not written (OAES, OACS, FUSES, VWC, SGLS, KAS ...) are 0: nothing optional is there."""
    data = bytearray(IDENTIFY_BYTES)
    struct.pack_into("<HH", data, 0, identity.vendor_id, identity.vendor_id)   # VID, SSVID
    data[4:24] = _text(identity.serial, 20)
    data[24:64] = _text(identity.model, 40)
    data[64:72] = _text(identity.firmware, 8)
    data[77] = identity.mdts
    struct.pack_into("<H", data, 78, identity.controller_id)
    struct.pack_into("<I", data, 80, 0x00010400)                               # VER 1.4
    data[111] = CONTROLLER_TYPE_IO                                             # CNTRLTYPE
    data[258] = 3                                                              # ACL: 4 aborts
    data[259] = EVENT_REQUEST_LIMIT - 1                                        # AERL, 0-based
    data[260] = FIRMWARE_UPDATES                                               # FRMW
    data[261] = LOG_PAGE_ATTRIBUTES                                            # LPA
    data[262] = ERROR_LOG_ENTRIES - 1                                          # ELPE, 0-based
    data[263] = 0                                                              # NPSS: one power state
    struct.pack_into("<HH", data, 266, identity.warning_temperature, identity.critical_temperature)
    data[512], data[513] = 0x66, 0x44                                          # SQES, CQES
    struct.pack_into("<I", data, 516, 1)                                       # NN
    struct.pack_into("<H", data, 520, ONCS_WRITE_ZEROES)                       # ONCS
    data[768:1024] = identity.subsystem_nqn.encode("ascii").ljust(256, b"\0")  # SUBNQN
    struct.pack_into("<H", data, 2048, identity.max_power_centiwatts)          # PSD0.MP
    return bytes(data)


def identify_namespace(identity: Identity) -> bytes:
    """Identify Namespace data structure (CNS 00h) for namespace 1: one LBA format, the NGUID."""
    data = bytearray(IDENTIFY_BYTES)
    struct.pack_into("<QQQ", data, 0, *[identity.namespace_blocks] * 3)        # NSZE, NCAP, NUSE
    data[104:120] = identity.nguid                                             # NGUID (EUI64 stays 0)
    data[130] = identity.lba_shift                                             # LBAF0.LBADS
    return bytes(data)


def active_namespaces(start_nsid: int) -> bytes:
    """Active Namespace ID list (CNS 02h): namespace 1 if it is above the start."""
    return (struct.pack("<I", 1) if start_nsid < 1 else b"").ljust(IDENTIFY_BYTES, b"\0")


def namespace_descriptors(identity: Identity) -> bytes:
    """Namespace Identification Descriptor list (CNS 03h) for namespace 1: its NGUID, one descriptor
    (NIDT, NIDL, 2 reserved bytes, the identifier); the zeros after it end the list."""
    descriptor = struct.pack("<BBH", NIDT_NGUID, NGUID_BYTES, 0) + identity.nguid
    return descriptor.ljust(IDENTIFY_BYTES, b"\0")


def async_event_dw0(event_type: int, information: int, log_page: int) -> int:
    """DW0 of an Asynchronous Event Request's completion: AET 2:0, AEI 15:8, LID 23:16."""
    return log_page << 16 | information << 8 | event_type


def async_event_result(information: int) -> int:
    """DW0 of an error-status asynchronous event."""
    return async_event_dw0(AET_ERROR, information, LOG_PAGE_ERROR_INFORMATION)


def create_queue(opcode: int, cid: int, qid: int, entries: int, base: int, contiguous: bool = True,
                 vector_or_cq: int = 0, interrupts: bool = True) -> bytes:
    """Create I/O CQ (vector, interrupts enabled) or SQ (its CQ) with `entries` entries at `base`."""
    cdw11 = int(contiguous) | (int(interrupts) << 1 if opcode == OP_CREATE_CQ else 0) | vector_or_cq << 16
    return submission(opcode, cid, cdw10=qid | (entries - 1) << 16, cdw11=cdw11, prp1=base)


def prp_offset_invalid(prp1: int, prp2: int, length: int) -> bool:
    """PRP1 must be dword aligned; if the transfer runs past PRP1's page, the rest goes to PRP2,
    which must then be page aligned (no transfer here is longer than a page, so no PRP list)."""
    crosses_page = prp1 % PAGE + length > PAGE
    return bool(prp1 & 3 or (crosses_page and prp2 % PAGE))


# --- Log pages --------------------------------------------------------------------------------


def smart_health_log(critical_warning: int, temperature: int, counters: IoStatistics, error_count: int) -> bytes:
    """SMART/Health Information log page (02h). Everything the controller does not keep (busy
    time, power cycles, power-on hours, unsafe shutdowns, media errors, temperature times) is 0."""
    data = bytearray(LOG_PAGE_BYTES[LOG_PAGE_SMART_HEALTH])
    data[0] = critical_warning
    struct.pack_into("<H", data, 1, temperature)
    data[3], data[4], data[5] = AVAILABLE_SPARE_PERCENT, AVAILABLE_SPARE_THRESHOLD_PERCENT, 0
    for offset, value in ((32, counters.data_units_read), (48, counters.data_units_written),
                          (64, counters.host_read_commands), (80, counters.host_write_commands), (176, error_count)):
        data[offset:offset + 16] = value.to_bytes(16, "little")
    return bytes(data)


def firmware_slot_log(identity: Identity) -> bytes:
    """Firmware Slot Information log page (03h): slot 1 active, holding the firmware revision."""
    data = bytearray(LOG_PAGE_BYTES[LOG_PAGE_FIRMWARE_SLOT])
    data[0] = ACTIVE_FIRMWARE_SLOT_1
    data[8:16] = _text(identity.firmware, 8)  # FRS1
    return bytes(data)


@dataclass(frozen=True)
class LogPageRequest:
    """Get Log Page's fields: CDW10 LID 7:0, RAE 15, NUMDL 31:16; CDW11 NUMDU 15:0; CDW12/13 the
    offset (LSP and LSI are not used by any page carried)."""
    log_page: int
    retain_event: bool
    dwords: int
    offset: int

    @classmethod
    def decode(cls, command: Command) -> "LogPageRequest":
        numd = (command.cdw11 & 0xFFFF) << 16 | command.cdw10 >> 16
        return cls(command.cdw10 & 0xFF, bool(command.cdw10 >> 15 & 1), numd + 1, command.cdw13 << 32 | command.cdw12)


# --- Asynchronous events ----------------------------------------------------------------------


@dataclass(frozen=True)
class Event:
    event_type: int
    information: int

    @property
    def result(self) -> int:
        return async_event_dw0(self.event_type, self.information, EVENT_LOG_PAGES[self.event_type])


class AsyncEvents:
    """Which events are waiting to be reported and which types are masked. Reporting an event (an
    Asynchronous Event Request completing with it) masks its type until the host reads the type's
    log page with RAE = 0. An event of a masked type is dropped, and so is one of a type that
    already waits: once the waiting one is reported the type is masked, so a second would never be
    reported either. An error event is reported before a SMART one."""

    def __init__(self):
        self.waiting: list[Event] = []
        self.masked: set[int] = set()
        self.requests: list[int] = []  # outstanding Asynchronous Event Requests' CIDs, oldest first

    def reset(self):
        """Controller reset: a waiting event is dropped, every type unmasked and the outstanding
        requests are gone with the admin queue."""
        self.waiting.clear()
        self.masked.clear()
        self.requests.clear()

    def request(self, cid: int) -> bool:
        """An Asynchronous Event Request arrives; False if AERL + 1 are already outstanding (it
        then completes at once with Asynchronous Event Request Limit Exceeded)."""
        if len(self.requests) == EVENT_REQUEST_LIMIT:
            return False
        self.requests.append(cid)
        return True

    def request_completed(self) -> int:
        """The oldest outstanding request completes (with an event); its CID."""
        return self.requests.pop(0)

    def raise_event(self, event_type: int, information: int) -> bool:
        """An event happens; True if it waits to be reported."""
        if event_type in self.masked or any(event.event_type == event_type for event in self.waiting):
            return False
        self.waiting.append(Event(event_type, information))
        return True

    def raise_error(self, information: int) -> bool:
        return self.raise_event(AET_ERROR, information)

    def take_report(self) -> int | None:
        """With an Asynchronous Event Request outstanding: the DW0 it completes with (the waiting
        error event, else the SMART one; its type is masked from now on), or None if nothing waits."""
        if not self.waiting:
            return None
        # An error event is reported before a SMART one, whichever came first (the controller
        # holds one of each; the specification leaves the order open)
        event = min(self.waiting, key=lambda waiting: waiting.event_type != AET_ERROR)
        self.waiting.remove(event)
        self.masked.add(event.event_type)
        return event.result

    def log_page_read(self, log_page: int, retain_event: bool):
        """A successful Get Log Page: RAE = 0 on a type's page unmasks that type."""
        if retain_event:
            return
        self.masked -= {event_type for event_type, page in EVENT_LOG_PAGES.items() if page == log_page}


# --- Features ---------------------------------------------------------------------------------


@dataclass
class Features:
    """The features' values (all reset to these defaults by a controller reset). Number of Queues
    is not here: what it allocates does not change."""
    arbitration: int = 0
    over_temperature: int = WARNING_TEMPERATURE_KELVIN
    under_temperature: int = 0
    error_recovery: int = 0
    interrupt_coalescing: int = 0
    coalescing_disabled: frozenset[int] = field(default_factory=frozenset)  # vectors besides 0 with CD = 1
    write_atomicity_normal: int = 0
    async_event_configuration: int = 0

    def vector_coalescing_disabled(self, vector: int) -> bool:
        # Every vector's CD is the host's (0 by default), vector 0's too: I/O CQs may share it.
        # Admin completions are never coalesced, whatever vector 0's CD says.
        return vector in self.coalescing_disabled


def _temperature_selection(cdw11: int) -> int | None:
    """THSEL of a Temperature Threshold CDW11, or None if TMPSEL or THSEL is not supported."""
    sensor, threshold = cdw11 >> 16 & 0xF, cdw11 >> 20 & 0x3
    if sensor not in (TMPSEL_COMPOSITE, TMPSEL_ALL_SENSORS) or threshold not in (THSEL_OVER, THSEL_UNDER):
        return None
    return threshold


class AdminModel:
    def __init__(self, queues: int, identity: Identity = Identity(), max_queue_entries: int = 1024,
                 vectors: int = 32):
        self.io_queues = queues - 1
        self.identity = identity
        self.max_queue_entries = max_queue_entries
        self.vectors = vectors
        self.temperature = identity.temperature
        self.errors = ErrorLog(ERROR_LOG_ENTRIES)
        self.health = IoStatistics(identity.lba_shift)
        self.events = AsyncEvents()
        self.reset()

    def reset(self):
        """Controller reset (CC.EN 1 -> 0): the I/O queues are deleted, the features go back to
        their defaults, Number of Queues may be set again, events are unmasked and a waiting one
        dropped. The error log and the SMART/Health counters are the controller's life since it
        was built (power-on) and stay."""
        self.features = self._default_features()
        self.completion_queues: dict[int, int] = {}   # qid -> entries
        self.submission_queues: dict[int, int] = {}   # qid -> its CQ
        self.io_queue_created = False
        self.events.reset()
        self.temperature_warning = self._temperature_out_of_range()

    def _default_features(self) -> Features:
        # The over-temperature threshold starts at the warning temperature the controller reports
        return Features(over_temperature=self.identity.warning_temperature)

    # Feature 08h as the benches read and clear it
    @property
    def interrupt_coalescing(self) -> int:
        return self.features.interrupt_coalescing

    @interrupt_coalescing.setter
    def interrupt_coalescing(self, value: int):
        self.features.interrupt_coalescing = value

    def coalescing_disabled(self, vector: int) -> bool:
        """Feature 09h CD: the vector's interrupts are never held for coalescing."""
        return self.features.vector_coalescing_disabled(vector)

    # --- What the model is told --------------------------------------------------------------

    def record_error(self, sqid: int, cid: int, status: int, phase: int = 0):
        """A completion was posted with a non-zero status field (`status_field`) and phase tag,
        admin or I/O. `answer` does not record its own errors: the bench says what it posted, in
        posting order."""
        self.errors.command_error(sqid, cid, status, phase)

    def record_doorbell_error(self, information: int = AEI_INVALID_DOORBELL_REGISTER) -> bool:
        """An invalid doorbell write: an error log entry (SQID and CID FFFFh, status 0) and an
        error event; True if the event waits to be reported (its type not masked)."""
        self.errors.doorbell_error()
        return self.events.raise_error(information)

    def record_io(self, read: bool, blocks: int, lba_shift: int | None = None):
        """A successful Read (read=True) or Write of `blocks` blocks."""
        self.health.complete(read, not read, True, blocks, lba_shift)

    def set_temperature(self, kelvin: int):
        """The composite temperature changes (a sensor the bench plays)."""
        self.temperature = kelvin
        self._check_temperature()

    def critical_warning(self) -> int:
        return CRITICAL_WARNING_TEMPERATURE if self.temperature_warning else 0

    def _temperature_out_of_range(self) -> bool:
        # At or past a threshold: the over threshold reached or the under threshold reached
        return self.temperature >= self.features.over_temperature or self.temperature <= self.features.under_temperature

    def _check_temperature(self):
        """Critical Warning bit 1 follows the temperature and the thresholds; its rising edge is a
        SMART/Health event if AEC bit 1 asks for one."""
        was, now = self.temperature_warning, self._temperature_out_of_range()
        self.temperature_warning = now
        if now and not was and self.features.async_event_configuration & CRITICAL_WARNING_TEMPERATURE:
            self.events.raise_event(AET_SMART_HEALTH, AEI_TEMPERATURE_THRESHOLD)

    # --- Commands ------------------------------------------------------------------------------

    def answer(self, entry: bytes) -> Answer:
        if fused_or_sgl(entry):
            return invalid_field()
        command = Command.decode(entry)
        opcode = command.opcode
        if opcode == OP_IDENTIFY:
            return self._identify(command.cdw10 & 0xFF, command.nsid, command.prp1, command.prp2)
        if opcode in (OP_CREATE_CQ, OP_CREATE_SQ, OP_DELETE_CQ, OP_DELETE_SQ):
            return self._queue_command(opcode, command.cdw10, command.cdw11, command.prp1)
        if opcode == OP_SET_FEATURES:
            return self._set_features(command)
        if opcode == OP_GET_FEATURES:
            return self._get_features(command)
        if opcode == OP_GET_LOG_PAGE:
            return self._get_log_page(command)
        if opcode == OP_ABORT:
            return Answer(1, SC_SUCCESS)  # not aborted
        if opcode == OP_ASYNC_EVENT_REQUEST:
            if not self.events.request(command.cid):
                return Answer(0, SC_EVENT_REQUEST_LIMIT_EXCEEDED, status_type=SCT_COMMAND_SPECIFIC)
            return Answer(0, SC_SUCCESS, completes_now=False)
        return Answer(0, SC_INVALID_OPCODE)

    def _identify(self, cns: int, nsid: int, prp1: int, prp2: int) -> Answer:
        if cns not in (CNS_NAMESPACE, CNS_CONTROLLER, CNS_ACTIVE_NAMESPACES, CNS_NAMESPACE_DESCRIPTORS):
            return invalid_field()
        if cns in (CNS_NAMESPACE, CNS_NAMESPACE_DESCRIPTORS) and nsid != 1:
            return Answer(0, SC_INVALID_NAMESPACE)
        if cns == CNS_ACTIVE_NAMESPACES and nsid >= NSID_ACTIVE_LIST_LIMIT:
            return Answer(0, SC_INVALID_NAMESPACE)  # no namespace can follow these
        if prp_offset_invalid(prp1, prp2, IDENTIFY_BYTES):
            return Answer(0, SC_PRP_OFFSET_INVALID)
        builders = {CNS_CONTROLLER: lambda: identify_controller(self.identity),
                    CNS_NAMESPACE: lambda: identify_namespace(self.identity),
                    CNS_ACTIVE_NAMESPACES: lambda: active_namespaces(nsid),
                    CNS_NAMESPACE_DESCRIPTORS: lambda: namespace_descriptors(self.identity)}
        return Answer(0, SC_SUCCESS, data=builders[cns]())

    def _queue_command(self, opcode: int, cdw10: int, cdw11: int, prp1: int) -> Answer:
        """Create/Delete I/O queues, the checks in the specification's order."""
        qid, size = cdw10 & 0xFFFF, cdw10 >> 16
        known = 1 <= qid <= self.io_queues
        table = self.completion_queues if opcode in (OP_CREATE_CQ, OP_DELETE_CQ) else self.submission_queues
        if opcode in (OP_DELETE_CQ, OP_DELETE_SQ):
            if not known or qid not in table:
                return command_specific(SC_INVALID_QID)
            if opcode == OP_DELETE_CQ and qid in self.submission_queues.values():
                return command_specific(SC_INVALID_QUEUE_DELETION)
            del table[qid]
            return Answer(0, SC_SUCCESS)
        if not known or qid in table:
            return command_specific(SC_INVALID_QID)
        if size == 0 or size >= self.max_queue_entries:
            return command_specific(SC_INVALID_QUEUE_SIZE)
        if not cdw11 & 1:
            return invalid_field()  # CAP.CQR: contiguous queues only
        other = cdw11 >> 16
        if opcode == OP_CREATE_CQ and cdw11 & 2 and other >= self.vectors:
            return command_specific(SC_INVALID_VECTOR)
        if opcode == OP_CREATE_SQ and other not in self.completion_queues:
            return command_specific(SC_CQ_INVALID)
        if prp1 & 0xFFF:
            return Answer(0, SC_PRP_OFFSET_INVALID)
        table[qid] = size + 1 if opcode == OP_CREATE_CQ else other
        self.io_queue_created = True  # Number of Queues is fixed from here until reset
        return Answer(0, SC_SUCCESS)

    # --- Get Log Page --------------------------------------------------------------------------

    def _get_log_page(self, command: Command) -> Answer:
        """The checks in order: LID, offset, length, the namespace (SMART), PRPs."""
        request = LogPageRequest.decode(command)
        if request.log_page not in LOG_PAGE_BYTES:
            return command_specific(SC_INVALID_LOG_PAGE)
        if request.offset % 4 or request.offset >= LOG_PAGE_BYTES[request.log_page]:
            return invalid_field()
        if request.dwords > MAX_LOG_DWORDS:
            return invalid_field()
        # LPA bit 0 = 0: the SMART page is the controller's, never one namespace's
        if request.log_page == LOG_PAGE_SMART_HEALTH and command.nsid not in (0, NSID_ALL):
            return invalid_field()
        length = 4 * request.dwords
        if prp_offset_invalid(command.prp1, command.prp2, length):
            return Answer(0, SC_PRP_OFFSET_INVALID)
        page = self.log_page(request.log_page)
        data = page[request.offset:request.offset + length].ljust(length, b"\0")  # zeros past the end
        self.events.log_page_read(request.log_page, request.retain_event)
        return Answer(0, SC_SUCCESS, data=data)

    def log_page(self, log_page: int) -> bytes:
        """A supported log page, whole, as it reads now (KeyError for any other LID)."""
        builders = {LOG_PAGE_ERROR_INFORMATION: self.errors.page,
                    LOG_PAGE_SMART_HEALTH: lambda: smart_health_log(self.critical_warning(), self.temperature,
                                                                    self.health, self.errors.count),
                    LOG_PAGE_FIRMWARE_SLOT: lambda: firmware_slot_log(self.identity)}
        return builders[log_page]()

    # --- Set Features and Get Features ---------------------------------------------------------

    def _set_features(self, command: Command) -> Answer:
        """Unsupported FID first, then SV (nothing is saveable: ONCS bit 4 is 0), then the feature."""
        feature, cdw11 = command.cdw10 & 0xFF, command.cdw11
        if feature not in SUPPORTED_FEATURES:
            return invalid_field()
        if command.cdw10 & SAVE_BIT:
            return command_specific(SC_FEATURE_NOT_SAVEABLE)
        setters = {FEATURE_ARBITRATION: self._set_arbitration, FEATURE_POWER_MANAGEMENT: self._set_power_management,
                   FEATURE_TEMPERATURE_THRESHOLD: self._set_temperature_threshold,
                   FEATURE_ERROR_RECOVERY: self._set_error_recovery,
                   FEATURE_NUMBER_OF_QUEUES: self._set_number_of_queues,
                   FEATURE_INTERRUPT_COALESCING: self._set_interrupt_coalescing,
                   FEATURE_INTERRUPT_VECTOR_CONFIGURATION: self._set_interrupt_vector_configuration,
                   FEATURE_WRITE_ATOMICITY_NORMAL: self._set_write_atomicity_normal,
                   FEATURE_ASYNC_EVENT_CONFIGURATION: self._set_async_event_configuration}
        return setters[feature](cdw11)

    def _get_features(self, command: Command) -> Answer:
        """SEL picks the current values, the defaults (also what "saved" reads: nothing is saved) or
        the capabilities; SEL 100b..111b is reserved."""
        feature, select = command.cdw10 & 0xFF, command.cdw10 >> 8 & 7
        if select > SEL_SUPPORTED_CAPABILITIES or feature not in SUPPORTED_FEATURES:
            return invalid_field()
        if select == SEL_SUPPORTED_CAPABILITIES:
            return Answer(CAPABILITY_CHANGEABLE, SC_SUCCESS)
        values = self.features if select == SEL_CURRENT else self._default_features()
        return self._feature_value(feature, values, command.cdw11)

    def _feature_value(self, feature: int, values: Features, cdw11: int) -> Answer:
        """Get Features DW0 for a supported feature from a set of values."""
        if feature == FEATURE_TEMPERATURE_THRESHOLD:
            selection = _temperature_selection(cdw11)
            if selection is None:
                return invalid_field()
            threshold = values.over_temperature if selection == THSEL_OVER else values.under_temperature
            return Answer(threshold | cdw11 & 0x3F0000, SC_SUCCESS)  # TMPSEL and THSEL echoed
        if feature == FEATURE_INTERRUPT_VECTOR_CONFIGURATION:
            vector = cdw11 & 0xFFFF
            if vector >= self.vectors:
                return invalid_field()
            return Answer(vector | int(values.vector_coalescing_disabled(vector)) << 16, SC_SUCCESS)
        if feature == FEATURE_NUMBER_OF_QUEUES:
            return Answer(self._queues_allocated(), SC_SUCCESS)
        stored = {FEATURE_ARBITRATION: values.arbitration, FEATURE_POWER_MANAGEMENT: 0,
                  FEATURE_ERROR_RECOVERY: values.error_recovery,
                  FEATURE_INTERRUPT_COALESCING: values.interrupt_coalescing,
                  FEATURE_WRITE_ATOMICITY_NORMAL: values.write_atomicity_normal,
                  FEATURE_ASYNC_EVENT_CONFIGURATION: values.async_event_configuration}
        return Answer(stored[feature], SC_SUCCESS)

    def _queues_allocated(self) -> int:
        """Number of Queues DW0: NSQA 15:0, NCQA 31:16, 0-based: every I/O queue pair the build has."""
        allocated = self.io_queues - 1
        return allocated << 16 | allocated

    def _set_arbitration(self, cdw11: int) -> Answer:
        self.features.arbitration = cdw11 & 0xFFFFFF07  # AB 2:0, LPW, MPW, HPW; 7:3 reserved
        return Answer(0, SC_SUCCESS)

    @staticmethod
    def _set_power_management(cdw11: int) -> Answer:
        # One power state (NPSS 0) and no workload hints: PS and WH must be 0
        return Answer(0, SC_SUCCESS) if cdw11 & 0xFF == 0 else invalid_field()

    def _set_temperature_threshold(self, cdw11: int) -> Answer:
        selection = _temperature_selection(cdw11)
        if selection is None:
            return invalid_field()
        # One sensor: TMPSEL Fh (every sensor) sets the composite threshold too
        if selection == THSEL_OVER:
            self.features.over_temperature = cdw11 & 0xFFFF
        else:
            self.features.under_temperature = cdw11 & 0xFFFF
        self._check_temperature()
        return Answer(0, SC_SUCCESS)

    def _set_error_recovery(self, cdw11: int) -> Answer:
        if cdw11 >> 16 & 1:
            return invalid_field()  # DULBE: deallocated blocks are never reported
        self.features.error_recovery = cdw11 & 0xFFFF  # TLER
        return Answer(0, SC_SUCCESS)

    def _set_number_of_queues(self, cdw11: int) -> Answer:
        if self.io_queue_created:
            return Answer(0, SC_COMMAND_SEQUENCE_ERROR)
        if 0xFFFF in (cdw11 & 0xFFFF, cdw11 >> 16):
            return invalid_field()
        return Answer(self._queues_allocated(), SC_SUCCESS)

    def _set_interrupt_coalescing(self, cdw11: int) -> Answer:
        self.features.interrupt_coalescing = cdw11 & 0xFFFF  # THR 7:0, TIME 15:8
        return Answer(0, SC_SUCCESS)

    def _set_interrupt_vector_configuration(self, cdw11: int) -> Answer:
        vector, disable = cdw11 & 0xFFFF, bool(cdw11 >> 16 & 1)
        if vector >= self.vectors:
            return invalid_field()
        others = self.features.coalescing_disabled - {vector}
        self.features.coalescing_disabled = others | {vector} if disable else others
        return Answer(0, SC_SUCCESS)

    def _set_write_atomicity_normal(self, cdw11: int) -> Answer:
        self.features.write_atomicity_normal = cdw11 & 1  # DN
        return Answer(0, SC_SUCCESS)

    def _set_async_event_configuration(self, cdw11: int) -> Answer:
        # Bits 7:0: the critical warnings that raise events; no notices (OAES 0), so 31:8 stay 0
        self.features.async_event_configuration = cdw11 & 0xFF
        return Answer(0, SC_SUCCESS)
