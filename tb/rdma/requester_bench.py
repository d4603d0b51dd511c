# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The RDMA engine as requester, the spec-built Python RC queue pair as its responder: the host
memory layout, set-up through the registers, the loop that posts work and moves frames, and the
exactly-once check; shared by the requester tests and the congestion tests."""

from __future__ import annotations

import random

from cocotb.triggers import ClockCycles

from dpuv.models.roce_qp import Access, CompletionOpcode, CompletionStatus, QpConfig, QueuePair, WorkRequest
from dpuv.models.roce_wire import LossyWire, WireConfig
from dpuv.drivers import rdma
from dpuv.drivers.rdma import EngineCompletion, HostQueues, WcOpcode, WcStatus
from dpuv.tb.testbench import test_rng
from rdma_engine_bench import DUT, DUT_QPN, LOOP_CYCLES, PEER, PEER_QPN, RQ_BASE, RQ_LOG_SIZE, TB, EnginePorts

SQ_BASE = 0x2000
SQ_LOG_SIZE = 6            # 64 WQEs of 64 bytes
CQ_BASE = 0x3000
CQ_LOG_SIZE = 7            # 128 entries of 32 bytes
LOCAL_BASE = 0x4000        # the engine's buffers: WRITE and SEND sources, READ destinations
LOCAL_BYTES = 0xC000
PEER_RKEY = 0x5A5A0003
PEER_BASE = 0x80000000
PEER_BYTES = 0x40000
READ_SOURCE = PEER_BASE + PEER_BYTES // 2   # READs fetch from here; WRITEs land below it
# 4.096 us x 2^2 at 250 MHz: a few round trips of the Python wire
TIMEOUT_CODE = 2


class Requester:
    """The engine as requester on QP DUT_QPN, the model as its responder."""

    def __init__(self, dut, rng: random.Random, pmtu: int = 1024, wire: WireConfig = WireConfig(latency_ns=200),
                 retry_count: int = 7, ports: EnginePorts | None = None, rx_idle: float | None = None):
        self.tb = TB(dut, rng, wire, rx_idle=rx_idle)
        # With ports, the QP is offloaded: rung at the doorbell port, completing on the completion port
        self.ports = ports
        self.tb.pmtu = pmtu
        self.rng = rng
        self.pmtu = pmtu
        self.retry_count = retry_count
        self.host = HostQueues(self.tb.registers, self.tb.memory.write, self.tb.memory.read)
        self.new_peer(0xFFFFF0)

    def new_peer(self, first_psn: int, pkey: int = rdma.DEFAULT_PKEY, send_psn: int = 0,
                 max_dest_rd_atomic: int = 16) -> None:
        """A fresh model responder expecting `first_psn` (and sending from `send_psn` when it is
        asked to send), keeping `max_dest_rd_atomic` atomic results, with its memory full of
        random bytes."""
        self.first_psn = first_psn
        self.peer = QueuePair(QpConfig(PEER_QPN, DUT_QPN, PEER, DUT, pmtu=self.pmtu, initial_expected_psn=first_psn,
                                       initial_send_psn=send_psn, pkey=pkey, max_dest_rd_atomic=max_dest_rd_atomic))
        self.peer_memory = self.peer.register_memory(PEER_RKEY, PEER_BASE, PEER_BYTES,
                                                     Access.REMOTE_READ | Access.REMOTE_WRITE | Access.REMOTE_ATOMIC)
        self.peer_memory.data[:] = self.rng.randbytes(PEER_BYTES)
        self.completions: list[EngineCompletion] = []
        self.received = []  # the peer's receive completions (SEND and WRITE with immediate)

    async def set_up(self, reset: bool = True, rnr_retry: int = 7, peer_first_psn: int = 0):
        """The QP with its send queue, and a receive queue for what the peer sends it, expecting
        `peer_first_psn` first."""
        if reset:
            await self.tb.reset()
        # The receive parser checks FIRST and MIDDLE packets against the engine's PMTU register
        await rdma.set_up(self.tb.registers, DUT.mac, DUT.ip, self.pmtu)
        await rdma.create_qp(self.tb.registers, DUT_QPN, PEER_QPN, PEER.mac, PEER.ip, DUT.udp_source_port,
                                    peer_first_psn, pmtu=self.pmtu, send_psn=self.first_psn, sq_base=SQ_BASE,
                                    sq_log_size=SQ_LOG_SIZE, rq_base=RQ_BASE, rq_log_size=RQ_LOG_SIZE,
                                    timeout=TIMEOUT_CODE, retry_count=self.retry_count, rnr_retry=rnr_retry)
        self.host.attach_send_queue(DUT_QPN, SQ_BASE, SQ_LOG_SIZE)
        self.host.attach_receive_queue(DUT_QPN, RQ_BASE, RQ_LOG_SIZE)
        await self.host.create_completion_queue(CQ_BASE, CQ_LOG_SIZE)
        if self.ports:
            await rdma.offload_qps(self.tb.registers, DUT_QPN, 1)

    async def ring(self) -> None:
        if self.ports:
            await self.ports.ring("sq", DUT_QPN, self.host.producer[DUT_QPN])
        else:
            await self.host.ring(DUT_QPN)

    async def reap(self, hand_back: bool = True) -> list[EngineCompletion]:
        if self.ports:
            return self.ports.take()
        return await self.host.poll(hand_back)

    async def run(self, work: list[tuple[WorkRequest, int]], limit_cycles: int = 3_000_000,
                  hand_back: bool = True, expect: int | None = None,
                  junk: list[bytes | None] = ()) -> list[EngineCompletion]:
        """Post `work` (request, local address) as the send queue has room, move frames, and reap
        completions until every request (or `expect` completions in all) has completed. `junk`
        frames are slipped onto the wire, one per loop (None: a loop without one)."""
        pending = list(work)
        junk = list(junk)
        ring_entries = 1 << SQ_LOG_SIZE
        posted = 0
        start = self.tb.cycle
        wanted = len(work) if expect is None else expect
        while len(self.completions) < wanted:
            assert self.tb.cycle - start < limit_cycles, \
                f"{len(self.completions)} of {wanted} completions after {limit_cycles} cycles"
            placed = False
            while pending and posted - len(self.completions) < ring_entries:
                request, address = pending.pop(0)
                self.host.place(DUT_QPN, request, address)
                posted += 1
                placed = True
            if placed:
                await self.ring()
            await self.tb.step([self.peer], junk.pop(0) if junk else None)
            self.received += self.tb.take_completions(self.peer)
            if hand_back:
                self.completions += await self.reap()
            await ClockCycles(self.tb.dut.clk, LOOP_CYCLES)
        # Let the last ACKs and any stray retransmission settle, then nothing more may complete
        for _ in range(8):
            await self.tb.step([self.peer])
            await ClockCycles(self.tb.dut.clk, LOOP_CYCLES)
        self.received += self.tb.take_completions(self.peer)
        self.completions += await self.reap()
        self.tb.capture.save()
        await self.tb.read_events()
        return self.completions


class LosesOneFrame(LossyWire):
    """A clean wire that loses exactly one frame: the one sent `index`-th (from 0)."""

    def __init__(self, index: int, config: WireConfig = WireConfig(latency_ns=200)):
        super().__init__(config)
        self.lost_index = index

    def send(self, frame: bytes, now_ns: int) -> None:
        if self.counters["sent"] == self.lost_index:
            self.counters["sent"] += 1
            self.counters["dropped"] += 1
            return
        super().send(frame, now_ns)


def random_requests(rng: random.Random, memory: bytearray, count: int, pmtu: int, max_length: int,
                    kinds=("write", "read", "send", "write_imm", "send_imm")) -> list[tuple[WorkRequest, int]]:
    """Requests with their own local buffer each, WRITE targets below READ_SOURCE and READ sources
    above it, so that retransmissions and re-executed READs cannot change what a request sees."""
    work = []
    local, remote_write, remote_read = LOCAL_BASE, PEER_BASE, READ_SOURCE
    lengths = [0, 1, 3, 4, 63, 64, 65, pmtu - 1, pmtu, pmtu + 1, 2 * pmtu + 5]
    # Every length class first (empty, one PMTU exactly, several packets), so that even a short
    # run at some PMTU meets each; then lengths drawn around the boundaries
    classes = [0, pmtu, 2 * pmtu + 5]
    for wr_id in range(count):
        kind = rng.choice(kinds)
        drawn = classes[wr_id] if wr_id < len(classes) else rng.choice(lengths + [rng.randint(1, max_length)])
        length = min(max_length, drawn)
        if kind == "read":
            request = WorkRequest.read(0x1000 + wr_id, remote_read, PEER_RKEY, length)
            remote_read += length + rng.randint(0, 7)
        else:
            data = rng.randbytes(length)
            memory[local - LOCAL_BASE:local - LOCAL_BASE + length] = data
            imm = rng.getrandbits(32) if kind.endswith("imm") else None
            if kind.startswith("send"):
                request = WorkRequest.send(0x1000 + wr_id, data, imm)
            else:
                request = WorkRequest.write(0x1000 + wr_id, data, remote_write, PEER_RKEY, imm)
                remote_write += length + rng.randint(0, 7)
        work.append((request, local))
        local += length + rng.randint(0, 9)
    assert local < LOCAL_BASE + LOCAL_BYTES and remote_write < READ_SOURCE and remote_read < PEER_BASE + PEER_BYTES
    return work


async def check_exactly_once(requester: Requester, work: list[tuple[WorkRequest, int]]) -> int:
    """Every request completed once, in order, successfully, with its bytes where they belong.
    Returns the payload bytes checked."""
    completions = requester.completions
    assert [c.wr_id for c in completions] == [request.wr_id for request, _ in work], "completions out of order or lost"
    checked = 0
    sends = []
    for completion, (request, local) in zip(completions, work):
        assert completion.status == WcStatus.SUCCESS, \
            f"wr {request.wr_id:#x} ({request.opcode.name}, {request.length} bytes): status " \
            f"{WcStatus(completion.status).name}; peer {requester.peer.counters}; engine {requester.tb.events}"
        assert completion.opcode == rdma.WC_OPCODE[request.opcode]
        assert completion.byte_len == request.length and completion.qpn == DUT_QPN
        if completion.opcode == WcOpcode.RDMA_READ:
            expected = requester.peer_memory.read(request.remote_address, request.length)
            assert requester.tb.memory.read(local, request.length) == expected, f"READ {request.wr_id:#x} data"
        elif completion.opcode == WcOpcode.RDMA_WRITE:
            assert requester.peer_memory.read(request.remote_address, request.length) == request.data, \
                f"WRITE {request.wr_id:#x} data"
        checked += request.length
        if request.imm is not None or completion.opcode == WcOpcode.SEND:
            sends.append(request)
    # The peer's receives, in order: each SEND's bytes, each immediate
    received = requester.received
    assert [r.status for r in received] == [CompletionStatus.SUCCESS] * len(sends)
    for receive, request in zip(received, sends):
        assert receive.imm == request.imm
        if receive.opcode is CompletionOpcode.RECV:
            assert receive.data == request.data, f"SEND {request.wr_id:#x} data"
    return checked


async def exchange(dut, count: int, pmtu: int = 1024, wire: WireConfig = WireConfig(latency_ns=200),
                   max_length: int | None = None, rng: random.Random | None = None) -> tuple[Requester, int]:
    rng = rng or test_rng()
    requester = Requester(dut, rng, pmtu, wire)
    await requester.set_up()
    return requester, await exchange_on(requester, rng, count, max_length)


async def exchange_on(requester: Requester, rng: random.Random, count: int, max_length: int | None = None) -> int:
    """Random work of every kind through a set-up requester; the payload bytes checked."""
    pmtu = requester.pmtu
    work = random_requests(rng, bytearray(LOCAL_BYTES), count, pmtu, max_length or 3 * pmtu)
    for request, local in work:
        if request.opcode.name != "RDMA_READ":
            requester.tb.memory.write(local, request.data)
        if request.imm is not None or request.opcode.name == "SEND":
            requester.peer.post_recv(request.wr_id, 4 * pmtu)
    await requester.run(work)
    return await check_exactly_once(requester, work)
