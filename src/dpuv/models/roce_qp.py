# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""A reliable-connection queue pair, requester and responder, that speaks RoCEv2 frames (built
and checked by roce_packet), written from the protocol facts in docs/reference/roce.md and
the behaviour of Linux rxe. It is meant as the peer of the RTL transport engine over a wire, and
as the peer of itself over src/dpuv/models/roce_wire.py.

Requester: SEND, SEND with immediate, RDMA WRITE (with and without immediate), RDMA READ and the
atomics (compare-and-swap, fetch-and-add), in posting order. PSNs are 24 bits and wrap. ACKs are
cumulative; a READ is acknowledged only by its response packets and an atomic only by its
ATOMIC_ACKNOWLEDGE, so an ACK or response beyond a READ or atomic whose responses are missing
means they were lost. At most `max_rd_atomic` atomics are outstanding at once, so that the
responder's cache of atomic results (of the same size on the far side) still holds every one the
requester may retry. Recovery is go-back-N from the oldest unacknowledged PSN, started by a NAK
(PSN sequence error), by such an implicit NAK or by the local ACK timeout (4.096 us x 2^code); a
partly answered READ is reissued for its remainder, an unanswered atomic is sent again with its
PSN. `retry_count` retries without progress move the QP to the error state; an RNR NAK waits its
timer and retries under `rnr_retry` (7 = forever).

Responder: executes the packet with the expected PSN; re-ACKs a duplicate SEND or WRITE and
re-executes a duplicate READ from the duplicate's PSN; answers the first packet ahead of the
expected PSN with one NAK (PSN sequence error) carrying the expected PSN and then stays silent
until that PSN arrives. WRITE and READ are checked against registered memory regions (R_Key,
access, bounds) and refused with NAK remote access error. An atomic needs the QP's remote-atomic
permission and a responder resource (else NAK invalid request, as rxe's unsupported-opcode and
resource checks), a region with remote-atomic access holding the 8 bytes (else NAK remote access
error) and an 8-byte aligned address (else NAK invalid request, rxe's misaligned-atomic error);
it is then executed on the region's bytes, which hold the operand little endian (host order on
x86, as rxe reads it through a u64 pointer), and answered ATOMIC_ACKNOWLEDGE with the original
value. Its result is kept in a cache of the last `max_dest_rd_atomic` atomics by PSN: a
duplicate atomic is never executed again but answered from the cache, and one older than the
cache is dropped without an answer (rxe: resource not found, class D). SEND and WRITE with
immediate consume a posted receive; with none posted the answer is an RNR NAK. ACKs are sent
for packets with AckReq and coalesced: several ACKs waiting in a row leave as the newest one.
CNPs are counted and dropped: congestion control is dpuv.models.dcqcn's.

Every frame it sends carries the P_Key of its configuration. Of the frames it receives it checks
only the destination QP, not the IPv4 destination or the P_Key: as a test peer it must hear an
engine whatever partition the engine answers in.

Buffers are byte strings carried by work requests and completions rather than scatter/gather
lists; remote memory is the registered regions. Time is the caller's integer nanoseconds.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from enum import Enum, Flag, auto

from dpuv.models.roce_packet import (
    ACK_UNLIMITED_CREDIT, AETH, ATOMIC_OPERAND_BYTES, BTH, MAX_MESSAGE_BYTES, NAK_INVALID_REQUEST, NAK_PSN_SEQUENCE_ERROR,
    NAK_REMOTE_ACCESS_ERROR, NAK_REMOTE_OPERATIONAL_ERROR, OPCODE_INFO, PSN_HALF_WINDOW, PSN_MODULUS, RETH, AckType,
    Addressing, AtomicAckETH, AtomicETH, Endpoint, ImmDt, MalformedFrame, Opcode, Operation, RocePacket, Segment, build_frame, check_pmtu,
    packet_count, parse_frame, psn_add, psn_compare, rnr_nak_syndrome, segment_message,
)

INFINITE_RNR_RETRY = 7
# IBA RNR timer codes 0..31 in ns: code 0 is the longest, 655.36 ms
RNR_TIMER_NS = (
    655_360_000, 10_000, 20_000, 30_000, 40_000, 60_000, 80_000, 120_000,
    160_000, 240_000, 320_000, 480_000, 640_000, 960_000, 1_280_000, 1_920_000,
    2_560_000, 3_840_000, 5_120_000, 7_680_000, 10_240_000, 15_360_000, 20_480_000, 30_720_000,
    40_960_000, 61_440_000, 81_920_000, 122_880_000, 163_840_000, 245_760_000, 327_680_000, 491_520_000,
)


def local_ack_timeout_ns(code: int) -> int | None:
    """IBA local ACK timeout, 4.096 us x 2^code; code 0 means the timer never fires."""
    if not 0 <= code < 32:
        raise ValueError(f"local ACK timeout code {code} is not 5 bits")
    return None if code == 0 else 4096 << code


class WorkOpcode(Enum):
    SEND = "send"
    SEND_WITH_IMMEDIATE = "send_with_immediate"
    RDMA_WRITE = "rdma_write"
    RDMA_WRITE_WITH_IMMEDIATE = "rdma_write_with_immediate"
    RDMA_READ = "rdma_read"
    COMPARE_SWAP = "compare_swap"
    FETCH_ADD = "fetch_add"


ATOMIC_WORK_OPCODES = (WorkOpcode.COMPARE_SWAP, WorkOpcode.FETCH_ADD)


class CompletionOpcode(Enum):
    """Completion kinds; verbs numbers them (ibv_wc_opcode) SEND 0, RDMA_WRITE 1, RDMA_READ 2,
    COMP_SWAP 3, FETCH_ADD 4, RECV 128, RECV_RDMA_WITH_IMM 129."""
    SEND = "send"
    RDMA_WRITE = "rdma_write"
    RDMA_READ = "rdma_read"
    COMP_SWAP = "comp_swap"
    FETCH_ADD = "fetch_add"
    RECV = "recv"
    RECV_RDMA_WITH_IMMEDIATE = "recv_rdma_with_immediate"


class CompletionStatus(Enum):
    SUCCESS = "success"
    LOCAL_LENGTH_ERROR = "local_length_error"
    REMOTE_INVALID_REQUEST = "remote_invalid_request"
    REMOTE_ACCESS_ERROR = "remote_access_error"
    REMOTE_OPERATIONAL_ERROR = "remote_operational_error"
    RETRY_EXCEEDED = "retry_exceeded"
    RNR_RETRY_EXCEEDED = "rnr_retry_exceeded"
    FLUSHED = "flushed"


class QpState(Enum):
    READY = "ready"  # verbs RTS: sends and responds
    ERROR = "error"


class Access(Flag):
    NONE = 0
    REMOTE_READ = auto()
    REMOTE_WRITE = auto()
    REMOTE_ATOMIC = auto()


_COMPLETION_OPCODE = {
    WorkOpcode.SEND: CompletionOpcode.SEND,
    WorkOpcode.SEND_WITH_IMMEDIATE: CompletionOpcode.SEND,
    WorkOpcode.RDMA_WRITE: CompletionOpcode.RDMA_WRITE,
    WorkOpcode.RDMA_WRITE_WITH_IMMEDIATE: CompletionOpcode.RDMA_WRITE,
    WorkOpcode.RDMA_READ: CompletionOpcode.RDMA_READ,
    WorkOpcode.COMPARE_SWAP: CompletionOpcode.COMP_SWAP,
    WorkOpcode.FETCH_ADD: CompletionOpcode.FETCH_ADD,
}

_ATOMIC_REQUEST_OPCODE = {WorkOpcode.COMPARE_SWAP: Opcode.COMPARE_SWAP, WorkOpcode.FETCH_ADD: Opcode.FETCH_ADD}
ATOMIC_MODULUS = 1 << (8 * ATOMIC_OPERAND_BYTES)

# The requester's completion status for each NAK that ends a work request
_NAK_STATUS = {
    NAK_INVALID_REQUEST: CompletionStatus.REMOTE_INVALID_REQUEST,
    NAK_REMOTE_ACCESS_ERROR: CompletionStatus.REMOTE_ACCESS_ERROR,
    NAK_REMOTE_OPERATIONAL_ERROR: CompletionStatus.REMOTE_OPERATIONAL_ERROR,
}


@dataclass(frozen=True)
class WorkRequest:
    wr_id: int
    opcode: WorkOpcode
    data: bytes = b""           # SEND and WRITE payload
    remote_address: int = 0     # WRITE and READ
    rkey: int = 0
    read_length: int = 0
    imm: int | None = None
    compare: int = 0            # COMPARE_SWAP: the value the operand must hold to be swapped
    swap_add: int = 0           # COMPARE_SWAP: the value swapped in; FETCH_ADD: the addend

    @classmethod
    def compare_swap(cls, wr_id: int, remote_address: int, rkey: int, compare: int, swap: int) -> WorkRequest:
        return cls(wr_id, WorkOpcode.COMPARE_SWAP, remote_address=remote_address, rkey=rkey, compare=compare,
                   swap_add=swap)

    @classmethod
    def fetch_add(cls, wr_id: int, remote_address: int, rkey: int, add: int) -> WorkRequest:
        return cls(wr_id, WorkOpcode.FETCH_ADD, remote_address=remote_address, rkey=rkey, swap_add=add)

    @classmethod
    def send(cls, wr_id: int, data: bytes, imm: int | None = None) -> WorkRequest:
        opcode = WorkOpcode.SEND if imm is None else WorkOpcode.SEND_WITH_IMMEDIATE
        return cls(wr_id, opcode, data=data, imm=imm)

    @classmethod
    def write(cls, wr_id: int, data: bytes, remote_address: int, rkey: int, imm: int | None = None) -> WorkRequest:
        opcode = WorkOpcode.RDMA_WRITE if imm is None else WorkOpcode.RDMA_WRITE_WITH_IMMEDIATE
        return cls(wr_id, opcode, data=data, remote_address=remote_address, rkey=rkey, imm=imm)

    @classmethod
    def read(cls, wr_id: int, remote_address: int, rkey: int, length: int) -> WorkRequest:
        return cls(wr_id, WorkOpcode.RDMA_READ, remote_address=remote_address, rkey=rkey, read_length=length)

    @property
    def is_atomic(self) -> bool:
        return self.opcode in ATOMIC_WORK_OPCODES

    @property
    def length(self) -> int:
        """Bytes the request moves: an atomic fetches its 8-byte original value."""
        if self.is_atomic:
            return ATOMIC_OPERAND_BYTES
        return self.read_length if self.opcode is WorkOpcode.RDMA_READ else len(self.data)


@dataclass(frozen=True)
class Completion:
    wr_id: int
    status: CompletionStatus
    opcode: CompletionOpcode
    byte_count: int = 0
    imm: int | None = None
    # What a READ fetched, what a SEND delivered to a receive, or an atomic's original value as
    # the 8 bytes verbs writes to the local buffer (host order, little endian on x86, as rxe does)
    data: bytes = b""

    @property
    def original_value(self) -> int | None:
        """An atomic's remote operand before the operation, as a number."""
        if self.opcode not in (CompletionOpcode.COMP_SWAP, CompletionOpcode.FETCH_ADD) or not self.data:
            return None
        return int.from_bytes(self.data, "little")


@dataclass
class MemoryRegion:
    rkey: int
    address: int
    data: bytearray
    access: Access

    def allows(self, address: int, length: int, access: Access) -> bool:
        return access in self.access and self.address <= address and address + length <= self.address + len(self.data)

    def read(self, address: int, length: int) -> bytes:
        start = address - self.address
        return bytes(self.data[start:start + length])

    def write(self, address: int, data: bytes) -> None:
        start = address - self.address
        self.data[start:start + len(data)] = data


@dataclass(frozen=True)
class QpConfig:
    qpn: int
    remote_qpn: int
    local: Endpoint
    remote: Endpoint
    pmtu: int = 1024
    initial_send_psn: int = 0       # first PSN the requester sends (verbs sq_psn)
    initial_expected_psn: int = 0   # first PSN the responder expects (verbs rq_psn)
    local_ack_timeout: int = 14     # IBA code: 4.096 us x 2^code, 0 = never
    retry_count: int = 7            # 3 bits
    rnr_retry: int = 7              # 3 bits, 7 = forever
    min_rnr_timer: int = 1          # RNR timer code this QP's responder asks for in its RNR NAKs
    max_unacked_psns: int = 128     # the requester sends no further than this past the oldest unacked PSN
    ack_request_interval: int = 32  # AckReq on PSNs one below a multiple of this, besides message ends
    pkey: int = 0xFFFF              # the P_Key every frame it sends carries (the default partition)
    remote_atomic: bool = True      # verbs IBV_ACCESS_REMOTE_ATOMIC on the QP: without it atomics are refused
    max_dest_rd_atomic: int = 16    # responder: atomic results kept for duplicates (0: no atomics accepted)
    max_rd_atomic: int = 16         # requester: atomics outstanding at once; at most the peer's max_dest_rd_atomic

    def __post_init__(self) -> None:
        check_pmtu(self.pmtu)
        for name in ("qpn", "remote_qpn", "initial_send_psn", "initial_expected_psn"):
            if not 0 <= getattr(self, name) < PSN_MODULUS:
                raise ValueError(f"{name} {getattr(self, name)} is not 24 bits")
        if not 0 <= self.pkey <= 0xFFFF:
            raise ValueError(f"P_Key {self.pkey:#x} is not 16 bits")
        if not (0 <= self.retry_count <= 7 and 0 <= self.rnr_retry <= 7 and 0 <= self.min_rnr_timer < 32):
            raise ValueError("retry_count and rnr_retry are 3 bits, min_rnr_timer 5 bits")
        local_ack_timeout_ns(self.local_ack_timeout)
        if self.max_dest_rd_atomic < 0 or self.max_rd_atomic < 1:
            raise ValueError("need max_dest_rd_atomic >= 0 and max_rd_atomic >= 1")
        # Without an AckReq inside the window the requester would stall until its timeout; a power
        # of two divides 2^24, so the spacing holds across the PSN wrap too
        interval = self.ack_request_interval
        if not (interval & (interval - 1) == 0 and 1 <= interval <= self.max_unacked_psns < PSN_HALF_WINDOW):
            raise ValueError("need ack_request_interval a power of two, at most max_unacked_psns < 2^23")


@dataclass
class QpCounters:
    frames_sent: int = 0
    frames_received: int = 0
    dropped: Counter[str] = field(default_factory=Counter)       # by reason or MalformedCause value
    naks_sent: Counter[int] = field(default_factory=Counter)     # by AETH syndrome, RNR NAKs included
    naks_received: Counter[int] = field(default_factory=Counter)
    retries: Counter[str] = field(default_factory=Counter)       # "timeout", "nak", "implicit_nak"
    duplicate_requests: int = 0
    atomic_replays: int = 0                                      # duplicate atomics answered from the cache


@dataclass
class _SendWork:
    request: WorkRequest
    first_psn: int
    psn_count: int
    segments: list[Segment]                                 # request packets of a SEND or WRITE
    read_data: bytearray = field(default_factory=bytearray)  # response bytes a READ has so far

    @property
    def end_psn(self) -> int:
        return psn_add(self.first_psn, self.psn_count)

    @property
    def is_read(self) -> bool:
        return self.request.opcode is WorkOpcode.RDMA_READ

    @property
    def is_atomic(self) -> bool:
        return self.request.is_atomic

    @property
    def needs_response(self) -> bool:
        """Acknowledged only by its own response packets, never by an ACK."""
        return self.is_read or self.is_atomic


@dataclass(frozen=True)
class _ReceiveWork:
    wr_id: int
    capacity: int


@dataclass
class _InboundMessage:
    """The SEND or WRITE whose FIRST packet the responder has executed and whose LAST it awaits."""
    operation: Operation
    receive: _ReceiveWork | None = None
    data: bytearray = field(default_factory=bytearray)
    region: MemoryRegion | None = None
    address: int = 0
    dma_length: int = 0
    written: int = 0


@dataclass(frozen=True)
class _AtomicResult:
    """An executed atomic as the responder remembers it for a duplicate."""
    psn: int
    original: int


@dataclass
class _PendingAck:
    """An ACK or NAK waiting to leave, in order with read responses; ACKs coalesce."""
    syndrome: int
    psn: int
    msn: int


class QueuePair:
    def __init__(self, config: QpConfig):
        self.config = config
        self.state = QpState.READY
        self.counters = QpCounters()
        self.memory: dict[int, MemoryRegion] = {}
        self._completions: list[Completion] = []
        self._addressing = Addressing.between(config.local, config.remote)

        # Requester
        self._works: deque[_SendWork] = deque()  # posted and not yet completed, in PSN order
        self._next_psn = config.initial_send_psn   # PSN the next posted request will take
        self._send_psn = config.initial_send_psn   # PSN to transmit next; moves back on a retry
        self._sent_end_psn = config.initial_send_psn  # one past the highest PSN transmitted
        self._unacked_psn = config.initial_send_psn   # oldest PSN not yet acknowledged
        self._timeout_ns = local_ack_timeout_ns(config.local_ack_timeout)
        self._timer_deadline: int | None = None
        self._rnr_resume_at: int | None = None
        self._retries_left = config.retry_count
        self._rnr_retries_left = config.rnr_retry
        # Unacked PSN that a NAK or implicit NAK already went back to, so that duplicates of the
        # same news (a duplicated NAK, a burst of out-of-order responses) retry once
        self._retried_psn: int | None = None

        # Responder
        self._receives: deque[_ReceiveWork] = deque()
        self._expected_psn = config.initial_expected_psn
        self._msn = 0
        self._nak_sent = False  # silent until the expected PSN arrives
        self._inbound: _InboundMessage | None = None
        self._responses: deque[bytes | _PendingAck] = deque()
        # The newest atomics executed, oldest first; appending past the size forgets the oldest
        self._atomic_results: deque[_AtomicResult] = deque(maxlen=config.max_dest_rd_atomic)

    # ---- verbs --------------------------------------------------------------------------

    def register_memory(self, rkey: int, address: int, size: int,
                        access: Access = Access.REMOTE_READ | Access.REMOTE_WRITE) -> MemoryRegion:
        region = MemoryRegion(rkey, address, bytearray(size), access)
        self.memory[rkey] = region
        return region

    def post_send(self, request: WorkRequest) -> None:
        if (request.imm is not None) != (request.opcode in (WorkOpcode.SEND_WITH_IMMEDIATE,
                                                            WorkOpcode.RDMA_WRITE_WITH_IMMEDIATE)):
            raise ValueError(f"{request.opcode.name} and imm={request.imm} do not go together")
        if request.length > MAX_MESSAGE_BYTES:
            raise ValueError(f"message of {request.length} bytes is over 2^31")
        if request.is_atomic and not (0 <= request.compare < ATOMIC_MODULUS and 0 <= request.swap_add < ATOMIC_MODULUS):
            raise ValueError("atomic operands are 64 bits")
        if self.state is QpState.ERROR:
            self._complete_send(request, CompletionStatus.FLUSHED)
            return
        pmtu = self.config.pmtu
        if request.opcode is WorkOpcode.RDMA_READ or request.is_atomic:
            segments = []
        else:
            operation = Operation.SEND if request.opcode in (WorkOpcode.SEND, WorkOpcode.SEND_WITH_IMMEDIATE) \
                else Operation.RDMA_WRITE
            segments = segment_message(operation, request.length, pmtu, with_immediate=request.imm is not None)
        # A READ request takes one PSN for each response packet it will get back, an atomic one
        psn_count = 1 if request.is_atomic else packet_count(request.length, pmtu)
        # Beyond half the PSN space, old and new PSNs could no longer be told apart
        if (self._next_psn - self._unacked_psn) % PSN_MODULUS + psn_count >= PSN_HALF_WINDOW:
            raise ValueError("the posted requests would span 2^23 PSNs or more")
        work = _SendWork(request, self._next_psn, psn_count, segments)
        self._works.append(work)
        self._next_psn = work.end_psn

    def post_recv(self, wr_id: int, capacity: int) -> None:
        if self.state is QpState.ERROR:
            self._completions.append(Completion(wr_id, CompletionStatus.FLUSHED, CompletionOpcode.RECV))
            return
        self._receives.append(_ReceiveWork(wr_id, capacity))

    def take_completions(self) -> list[Completion]:
        completions, self._completions = self._completions, []
        return completions

    # ---- frames in and out --------------------------------------------------------------

    def receive(self, frame: bytes, now_ns: int) -> None:
        self.counters.frames_received += 1
        try:
            packet = parse_frame(frame, self.config.pmtu)
        except MalformedFrame as error:
            self.counters.dropped[error.cause.value] += 1
            return
        if packet.bth.dest_qp != self.config.qpn:
            self.counters.dropped["wrong_qp"] += 1
        elif self.state is QpState.ERROR:
            self.counters.dropped["qp_in_error"] += 1
        elif packet.info.operation is Operation.CNP:
            # Congestion control is dpuv.models.dcqcn's, outside the transport
            self.counters.dropped["cnp"] += 1
        elif packet.info.is_request:
            self._respond(packet)
        else:
            self._on_response(packet, now_ns)

    def poll(self, now_ns: int) -> list[bytes]:
        """Frames to send now: responses first (they were produced earlier), then requests."""
        if self.state is QpState.READY:
            self._run_timers(now_ns)
        frames = [self._build_response(item) if isinstance(item, _PendingAck) else item for item in self._responses]
        self._responses.clear()
        while self._can_send(now_ns):
            frames.append(self._next_request_frame())
            if self._timer_deadline is None and self._timeout_ns is not None:
                self._timer_deadline = now_ns + self._timeout_ns
        self.counters.frames_sent += len(frames)
        return frames

    def next_event_ns(self, now_ns: int) -> int | None:
        """Now if frames are waiting, else the next timer (ACK timeout, end of an RNR wait)."""
        if self._responses or self._can_send(now_ns):
            return now_ns
        if self.state is QpState.ERROR:
            return None
        deadlines = [self._timer_deadline]
        if psn_compare(self._send_psn, self._next_psn) < 0:
            deadlines.append(self._rnr_resume_at)
        return min((deadline for deadline in deadlines if deadline is not None), default=None)

    # ---- requester ----------------------------------------------------------------------

    def _can_send(self, now_ns: int) -> bool:
        if self.state is not QpState.READY or psn_compare(self._send_psn, self._next_psn) >= 0:
            return False
        if self._rnr_resume_at is not None and now_ns < self._rnr_resume_at:
            return False
        if psn_compare(self._send_psn, psn_add(self._unacked_psn, self.config.max_unacked_psns)) >= 0:
            return False
        return not self._atomic_limit_reached()

    def _atomic_limit_reached(self) -> bool:
        """The next request is a new atomic and max_rd_atomic are already outstanding. Sending an
        atomic again is never held back: it is already counted."""
        work = self._work_at(self._send_psn)
        if not work.is_atomic or psn_compare(work.first_psn, self._sent_end_psn) < 0:
            return False
        outstanding = sum(1 for other in self._works
                          if other.is_atomic and psn_compare(other.first_psn, self._sent_end_psn) < 0)
        return outstanding >= self.config.max_rd_atomic

    def _work_at(self, psn: int) -> _SendWork:
        for work in self._works:
            if 0 <= psn_compare(psn, work.first_psn) < work.psn_count:
                return work
        raise AssertionError(f"no work request holds PSN {psn}")

    def _next_request_frame(self) -> bytes:
        self._rnr_resume_at = None  # sending again is the end of any RNR wait
        psn = self._send_psn
        work = self._work_at(psn)
        index = psn_compare(psn, work.first_psn)
        if work.is_read:
            packet = self._read_request(work, index)
            psn_count = work.psn_count - index
        elif work.is_atomic:
            packet = self._atomic_request(work)
            psn_count = 1
        else:
            packet = self._message_packet(work, index)
            psn_count = 1
        self._send_psn = psn_add(psn, psn_count)
        if psn_compare(self._send_psn, self._sent_end_psn) > 0:
            self._sent_end_psn = self._send_psn
        return build_frame(packet)

    def _read_request(self, work: _SendWork, index: int) -> RocePacket:
        # Reissued from a PSN inside the READ, the request asks only for the part not yet answered
        request, skipped = work.request, index * self.config.pmtu
        reth = RETH(request.remote_address + skipped, request.rkey, request.length - skipped)
        psn = psn_add(work.first_psn, index)
        bth = BTH(Opcode.RDMA_READ_REQUEST, self.config.remote_qpn, psn, ack_req=True, pkey=self.config.pkey)
        return RocePacket(self._addressing, bth, reth=reth)

    def _atomic_request(self, work: _SendWork) -> RocePacket:
        request = work.request
        bth = BTH(_ATOMIC_REQUEST_OPCODE[request.opcode], self.config.remote_qpn, work.first_psn, ack_req=True,
                  pkey=self.config.pkey)
        compare = request.compare if request.opcode is WorkOpcode.COMPARE_SWAP else 0
        return RocePacket(self._addressing, bth,
                          atomic_eth=AtomicETH(request.remote_address, request.rkey, request.swap_add, compare))

    def _message_packet(self, work: _SendWork, index: int) -> RocePacket:
        request, segment = work.request, work.segments[index]
        info = OPCODE_INFO[segment.opcode]
        psn = psn_add(work.first_psn, index)
        # AckReq on every message end, and often enough inside long messages that the window
        # never fills without one
        ack_req = info.ends_message or (psn + 1) % self.config.ack_request_interval == 0
        reth = RETH(request.remote_address, request.rkey, request.length) if info.has_reth else None
        immdt = ImmDt(request.imm) if info.has_immdt else None
        payload = request.data[segment.offset:segment.offset + segment.length]
        bth = BTH(segment.opcode, self.config.remote_qpn, psn, ack_req=ack_req, pkey=self.config.pkey)
        return RocePacket(self._addressing, bth, reth=reth, immdt=immdt, payload=payload)

    def _outstanding(self) -> bool:
        return psn_compare(self._sent_end_psn, self._unacked_psn) > 0

    def _run_timers(self, now_ns: int) -> None:
        if self._timer_deadline is not None and now_ns >= self._timer_deadline:
            self._timer_deadline = None
            if self._outstanding():
                self._retry(now_ns, "timeout")

    def _on_progress(self, now_ns: int) -> None:
        self._retries_left = self.config.retry_count
        self._rnr_retries_left = self.config.rnr_retry
        self._retried_psn = None
        # A retry may have gone back further than this acknowledgement now reaches
        if psn_compare(self._send_psn, self._unacked_psn) < 0:
            self._send_psn = self._unacked_psn
        self._timer_deadline = None
        if self._outstanding() and self._timeout_ns is not None:
            self._timer_deadline = now_ns + self._timeout_ns

    def _retry(self, now_ns: int, reason: str) -> None:
        """Go back to the oldest unacknowledged PSN."""
        if reason != "timeout" and self._retried_psn == self._unacked_psn:
            return
        if self._retries_left == 0:
            self._enter_error(CompletionStatus.RETRY_EXCEEDED)
            return
        self._retries_left -= 1
        self._retried_psn = self._unacked_psn
        self.counters.retries[reason] += 1
        self._send_psn = self._unacked_psn
        self._timer_deadline = None

    def _retire_through(self, end_psn: int) -> bool:
        """Acknowledge every PSN before end_psn, completing the requests they finish. False when
        an RDMA READ or atomic before end_psn still lacks responses: they can only have been lost."""
        while psn_compare(end_psn, self._unacked_psn) > 0:
            work = self._works[0]
            if work.needs_response:
                return False
            if psn_compare(end_psn, work.end_psn) >= 0:
                self._unacked_psn = work.end_psn
                self._works.popleft()
                self._complete_send(work.request, CompletionStatus.SUCCESS)
            else:
                self._unacked_psn = end_psn
        return True

    def _acknowledge_before(self, end_psn: int, now_ns: int) -> bool:
        before = self._unacked_psn
        complete = self._retire_through(end_psn)
        if self._unacked_psn != before:
            self._on_progress(now_ns)
        return complete

    def _on_response(self, packet: RocePacket, now_ns: int) -> None:
        psn = packet.bth.psn
        # Only PSNs from the oldest unacknowledged to the last transmitted can be answered
        if not 0 <= psn_compare(psn, self._unacked_psn) < psn_compare(self._sent_end_psn, self._unacked_psn):
            self.counters.dropped["stale_response"] += 1
            return
        if packet.info.operation is Operation.RDMA_READ_RESPONSE:
            self._on_read_response(packet, now_ns)
            return
        if packet.info.operation is Operation.ATOMIC_ACKNOWLEDGE:
            self._on_atomic_acknowledge(packet, now_ns)
            return
        aeth = packet.aeth
        if aeth.ack_type is AckType.ACK:
            if not self._acknowledge_before(psn_add(psn, 1), now_ns):
                self._retry(now_ns, "implicit_nak")
            return
        known_nak = aeth.ack_type is AckType.RNR_NAK or aeth.syndrome == NAK_PSN_SEQUENCE_ERROR or \
            aeth.syndrome in _NAK_STATUS
        if not known_nak:
            self.counters.dropped["unknown_syndrome"] += 1
            return
        self.counters.naks_received[aeth.syndrome] += 1
        # Every NAK acknowledges the PSNs before its own
        if not self._acknowledge_before(psn, now_ns):
            self._retry(now_ns, "implicit_nak")
        elif aeth.ack_type is AckType.RNR_NAK:
            self._rnr_wait(now_ns, RNR_TIMER_NS[aeth.value])
        elif aeth.syndrome == NAK_PSN_SEQUENCE_ERROR:
            self._retry(now_ns, "nak")
        else:
            self._enter_error(_NAK_STATUS[aeth.syndrome])

    def _rnr_wait(self, now_ns: int, wait_ns: int) -> None:
        if self.config.rnr_retry != INFINITE_RNR_RETRY:
            if self._rnr_retries_left == 0:
                self._enter_error(CompletionStatus.RNR_RETRY_EXCEEDED)
                return
            self._rnr_retries_left -= 1
        self._send_psn = self._unacked_psn
        self._timer_deadline = None
        self._rnr_resume_at = now_ns + wait_ns

    def _on_read_response(self, packet: RocePacket, now_ns: int) -> None:
        psn = packet.bth.psn
        if not self._acknowledge_before(psn, now_ns):
            # Responses before this one are missing
            self._retry(now_ns, "implicit_nak")
            return
        work = self._works[0]
        if not work.is_read:
            self.counters.dropped["unexpected_response"] += 1
            return
        received, info = len(work.read_data), packet.info
        expected_length = min(self.config.pmtu, work.request.length - received)
        ends = received + len(packet.payload) == work.request.length
        # A response to a reissued READ may continue (MIDDLE, LAST) or start afresh (FIRST, ONLY)
        if len(packet.payload) != expected_length or info.ends_message != ends or \
                (received == 0 and not info.starts_message):
            self.counters.dropped["unexpected_response"] += 1
            return
        work.read_data += packet.payload
        self._unacked_psn = psn_add(psn, 1)
        if ends:
            self._works.popleft()
            self._complete_send(work.request, CompletionStatus.SUCCESS, bytes(work.read_data))
        self._on_progress(now_ns)

    def _on_atomic_acknowledge(self, packet: RocePacket, now_ns: int) -> None:
        psn = packet.bth.psn
        if packet.aeth.ack_type is not AckType.ACK:
            self.counters.dropped["unexpected_response"] += 1
            return
        # Like a READ response, it acknowledges every PSN before its own
        if not self._acknowledge_before(psn, now_ns):
            self._retry(now_ns, "implicit_nak")
            return
        work = self._works[0]
        if not work.is_atomic or work.first_psn != psn:
            self.counters.dropped["unexpected_response"] += 1
            return
        self._works.popleft()
        self._unacked_psn = psn_add(psn, 1)
        self._complete_send(work.request, CompletionStatus.SUCCESS,
                            packet.atomic_ack_eth.original.to_bytes(ATOMIC_OPERAND_BYTES, "little"))
        self._on_progress(now_ns)

    def _complete_send(self, request: WorkRequest, status: CompletionStatus, data: bytes = b"") -> None:
        self._completions.append(Completion(request.wr_id, status, _COMPLETION_OPCODE[request.opcode],
                                            request.length if status is CompletionStatus.SUCCESS else 0,
                                            data=data))

    def _enter_error(self, status: CompletionStatus) -> None:
        """The oldest send work request fails with `status`; everything else still posted is
        flushed, as verbs does when a QP enters the error state."""
        self.state = QpState.ERROR
        self._timer_deadline = self._rnr_resume_at = None
        for position, work in enumerate(self._works):
            self._complete_send(work.request, status if position == 0 else CompletionStatus.FLUSHED)
        self._works.clear()
        if self._inbound is not None and self._inbound.receive is not None:
            self._complete_receive(self._inbound.receive, CompletionStatus.FLUSHED)
        self._inbound = None
        for receive in self._receives:
            self._complete_receive(receive, CompletionStatus.FLUSHED)
        self._receives.clear()

    # ---- responder ----------------------------------------------------------------------

    def _respond(self, packet: RocePacket) -> None:
        distance = psn_compare(packet.bth.psn, self._expected_psn)
        if distance > 0:
            if not self._nak_sent:
                self._send_nak(NAK_PSN_SEQUENCE_ERROR, self._expected_psn)
            self.counters.dropped["psn_ahead"] += 1
        elif distance < 0:
            self.counters.duplicate_requests += 1
            self._respond_to_duplicate(packet)
        else:
            self._nak_sent = False
            self._execute(packet)

    def _send_nak(self, syndrome: int, psn: int) -> None:
        self._nak_sent = True
        self.counters.naks_sent[syndrome] += 1
        self._responses.append(_PendingAck(syndrome, psn, self._msn))

    def _queue_ack(self, psn: int) -> None:
        tail = self._responses[-1] if self._responses else None
        if isinstance(tail, _PendingAck) and tail.syndrome == ACK_UNLIMITED_CREDIT:
            tail.psn, tail.msn = psn, self._msn
        else:
            self._responses.append(_PendingAck(ACK_UNLIMITED_CREDIT, psn, self._msn))

    def _build_response(self, ack: _PendingAck) -> bytes:
        bth = BTH(Opcode.ACKNOWLEDGE, self.config.remote_qpn, ack.psn, pkey=self.config.pkey)
        return build_frame(RocePacket(self._addressing, bth, aeth=AETH(ack.syndrome, ack.msn)))

    def _fail_request(self, syndrome: int, psn: int,
                      receive_status: CompletionStatus = CompletionStatus.FLUSHED) -> None:
        """A class C error: NAK the request, fail the receive it was filling, and go to error."""
        self._send_nak(syndrome, psn)
        if self._inbound is not None and self._inbound.receive is not None:
            self._complete_receive(self._inbound.receive, receive_status)
            self._inbound.receive = None
        self._enter_error(CompletionStatus.FLUSHED)

    def _region_for(self, reth: RETH, access: Access) -> MemoryRegion | None:
        region = self.memory.get(reth.rkey)
        if region is None or not region.allows(reth.virtual_address, reth.dma_length, access):
            return None
        return region

    def _execute(self, packet: RocePacket) -> None:
        info, psn = packet.info, packet.bth.psn
        if self._inbound is None:
            in_sequence = info.starts_message
        else:
            in_sequence = info.operation is self._inbound.operation and not info.starts_message
        if not in_sequence:
            # A MIDDLE or LAST without its FIRST, or a new message inside an unfinished one
            self._fail_request(NAK_INVALID_REQUEST, psn, CompletionStatus.REMOTE_INVALID_REQUEST)
            return
        if info.operation is Operation.RDMA_READ_REQUEST:
            self._execute_read(packet)
            return
        if info.is_atomic:
            self._execute_atomic(packet)
            return
        consumes_receive = (info.operation is Operation.SEND and info.starts_message) or \
            (info.operation is Operation.RDMA_WRITE and info.has_immdt)
        if consumes_receive and not self._receives:
            # Nothing executed, so the requester retries this PSN after the timer
            self._send_nak(rnr_nak_syndrome(self.config.min_rnr_timer), psn)
            return
        if info.operation is Operation.SEND:
            done = self._execute_send(packet)
        else:
            done = self._execute_write(packet)
        if not done:
            return
        self._expected_psn = psn_add(psn, 1)
        if info.ends_message:
            self._msn = (self._msn + 1) % PSN_MODULUS
            self._inbound = None
        if packet.bth.ack_req:
            self._queue_ack(psn)

    def _execute_send(self, packet: RocePacket) -> bool:
        if packet.info.starts_message:
            self._inbound = _InboundMessage(Operation.SEND, receive=self._receives.popleft())
        inbound = self._inbound
        inbound.data += packet.payload
        if len(inbound.data) > inbound.receive.capacity:
            self._fail_request(NAK_INVALID_REQUEST, packet.bth.psn, CompletionStatus.LOCAL_LENGTH_ERROR)
            return False
        if packet.info.ends_message:
            imm = packet.immdt.value if packet.immdt else None
            self._completions.append(Completion(inbound.receive.wr_id, CompletionStatus.SUCCESS, CompletionOpcode.RECV,
                                                len(inbound.data), imm, bytes(inbound.data)))
        return True

    def _execute_write(self, packet: RocePacket) -> bool:
        info, psn = packet.info, packet.bth.psn
        if info.starts_message:
            reth = packet.reth
            if reth.dma_length > MAX_MESSAGE_BYTES:
                self._fail_request(NAK_INVALID_REQUEST, psn)
                return False
            # A zero-length WRITE touches no memory, so it needs no valid R_Key (as in rxe)
            region = self._region_for(reth, Access.REMOTE_WRITE) if reth.dma_length else None
            if reth.dma_length and region is None:
                self._fail_request(NAK_REMOTE_ACCESS_ERROR, psn)
                return False
            self._inbound = _InboundMessage(Operation.RDMA_WRITE, region=region, address=reth.virtual_address,
                                            dma_length=reth.dma_length)
        inbound = self._inbound
        written = inbound.written + len(packet.payload)
        if written > inbound.dma_length or (info.ends_message and written != inbound.dma_length):
            self._fail_request(NAK_INVALID_REQUEST, psn)
            return False
        if packet.payload:
            inbound.region.write(inbound.address + inbound.written, packet.payload)
        inbound.written = written
        if info.has_immdt:
            receive = self._receives.popleft()
            self._completions.append(Completion(receive.wr_id, CompletionStatus.SUCCESS,
                                                CompletionOpcode.RECV_RDMA_WITH_IMMEDIATE, inbound.dma_length,
                                                packet.immdt.value))
        return True

    def _execute_read(self, packet: RocePacket) -> None:
        reth, psn = packet.reth, packet.bth.psn
        if reth.dma_length > MAX_MESSAGE_BYTES:
            self._fail_request(NAK_INVALID_REQUEST, psn)
            return
        # A zero-length READ touches no memory, so it needs no valid R_Key (as in rxe)
        region = self._region_for(reth, Access.REMOTE_READ) if reth.dma_length else None
        if reth.dma_length and region is None:
            self._fail_request(NAK_REMOTE_ACCESS_ERROR, psn)
            return
        self._expected_psn = psn_add(psn, packet_count(reth.dma_length, self.config.pmtu))
        self._msn = (self._msn + 1) % PSN_MODULUS
        self._queue_read_responses(reth, psn, region)

    def _execute_atomic(self, packet: RocePacket) -> None:
        """In rxe's order of checks: operation allowed on the QP, a responder resource, the
        R_Key and range, then the alignment; each failure is a class C error."""
        atomic, psn = packet.atomic_eth, packet.bth.psn
        if not self.config.remote_atomic or self.config.max_dest_rd_atomic == 0:
            self._fail_request(NAK_INVALID_REQUEST, psn)
            return
        region = self.memory.get(atomic.rkey)
        if region is None or not region.allows(atomic.virtual_address, ATOMIC_OPERAND_BYTES, Access.REMOTE_ATOMIC):
            self._fail_request(NAK_REMOTE_ACCESS_ERROR, psn)
            return
        if atomic.virtual_address % ATOMIC_OPERAND_BYTES:
            self._fail_request(NAK_INVALID_REQUEST, psn)
            return
        original = int.from_bytes(region.read(atomic.virtual_address, ATOMIC_OPERAND_BYTES), "little")
        if packet.info.operation is Operation.FETCH_ADD:
            result = (original + atomic.swap_add) % ATOMIC_MODULUS
        else:
            result = atomic.swap_add if original == atomic.compare else original
        region.write(atomic.virtual_address, result.to_bytes(ATOMIC_OPERAND_BYTES, "little"))
        self._expected_psn = psn_add(psn, 1)
        self._msn = (self._msn + 1) % PSN_MODULUS
        self._atomic_results.append(_AtomicResult(psn, original))
        self._queue_atomic_acknowledge(psn, original)

    def _queue_atomic_acknowledge(self, psn: int, original: int) -> None:
        # Sent whatever the AckReq bit says: the result is the response
        bth = BTH(Opcode.ATOMIC_ACKNOWLEDGE, self.config.remote_qpn, psn, pkey=self.config.pkey)
        self._responses.append(build_frame(RocePacket(self._addressing, bth, aeth=AETH(ACK_UNLIMITED_CREDIT, self._msn),
                                                      atomic_ack_eth=AtomicAckETH(original))))

    def _queue_read_responses(self, reth: RETH, first_psn: int, region: MemoryRegion | None) -> None:
        data = region.read(reth.virtual_address, reth.dma_length) if region else b""
        for index, segment in enumerate(segment_message(Operation.RDMA_READ_RESPONSE, reth.dma_length,
                                                        self.config.pmtu)):
            bth = BTH(segment.opcode, self.config.remote_qpn, psn_add(first_psn, index), pkey=self.config.pkey)
            aeth = AETH(ACK_UNLIMITED_CREDIT, self._msn) if OPCODE_INFO[segment.opcode].has_aeth else None
            payload = data[segment.offset:segment.offset + segment.length]
            self._responses.append(build_frame(RocePacket(self._addressing, bth, aeth=aeth, payload=payload)))

    def _respond_to_duplicate(self, packet: RocePacket) -> None:
        if packet.info.is_atomic:
            self._replay_atomic(packet.bth.psn)
            return
        if packet.info.operation is not Operation.RDMA_READ_REQUEST:
            # Its ACK was lost or is late: acknowledge everything executed so far again
            self._queue_ack(psn_add(self._expected_psn, -1))
            return
        # Executed again from the duplicate's own PSN, as a READ of what its RETH asks for (the
        # rest of the original when the requester reissues a partly answered READ)
        reth = packet.reth
        end = psn_add(packet.bth.psn, packet_count(reth.dma_length, self.config.pmtu))
        region = self._region_for(reth, Access.REMOTE_READ) if reth.dma_length else None
        # A duplicate can only repeat PSNs already executed, on memory the original could read
        if reth.dma_length > MAX_MESSAGE_BYTES or psn_compare(end, self._expected_psn) > 0 or \
                (reth.dma_length and region is None):
            self.counters.dropped["bad_duplicate_read"] += 1
            return
        self._queue_read_responses(reth, packet.bth.psn, region)

    def _complete_receive(self, receive: _ReceiveWork, status: CompletionStatus) -> None:
        self._completions.append(Completion(receive.wr_id, status, CompletionOpcode.RECV))

    def _replay_atomic(self, psn: int) -> None:
        """A duplicate atomic is answered with the result it had, never executed again; one the
        cache no longer holds is dropped unanswered (rxe: resource not found, class D)."""
        for result in self._atomic_results:
            if result.psn == psn:
                self.counters.atomic_replays += 1
                self._queue_atomic_acknowledge(psn, result.original)
                return
        self.counters.dropped["atomic_not_in_cache"] += 1
