# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The RDMA engine's testbench, shared by the responder and requester tests and the pair bench's
frame check: the engine's addressing and QP numbers, the host memory behind it, the Python peer
QPs over the lossy wire, and the scapy cross-check of every frame."""

import random

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiBus, AxiRam, AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource

from dpuv.models.roce_packet import (ICRC_BYTES, Endpoint, MalformedCause, MalformedFrame, Opcode, RocePacket, parse_frame,
                                     reseal_icrc)
from dpuv.models.roce_qp import QpConfig, QueuePair
from dpuv.models.roce_wire import LossyWire, WireConfig
from dpuv.drivers import rdma
from dpuv.tb import roce_scapy
from dpuv.regs.cocotb_axil import AxiLiteAccess
from dpuv.tb.pcap_capture import WireCapture
from dpuv.drivers.rdma import EngineCompletion, HostQueues
from dpuv.regs.maps import rdma_engine
from dpuv.tb.testbench import CLOCK_PERIOD_NS, HeldOffers, pauses, quiet, start_clock_and_reset
from rdma_coverage import WireCoverage, completions as cover_completions

DUT_QPN = 0x11
PEER_QPN = 0x2345
DUT = Endpoint("02:00:00:00:00:01", "10.0.0.1", 0xC011)
PEER = Endpoint("02:00:00:00:00:02", "10.0.0.2", 0xC345)
PMTU = 1024
RKEY = 0x00ABCD01          # the low bits pick region entry 1
REGION_BASE = 0x10000
REGION_BYTES = 0x10000
# 4.096 us x 2^3: long enough for a 4 KiB message in flight, short enough for many retries
ACK_TIMEOUT_CODE = 3
# Host memory below the region: the receive queue, the completion queue, receive buffers
RQ_BASE, RQ_LOG_SIZE = 0x1000, 5
RESPONDER_CQ_BASE, RESPONDER_CQ_LOG_SIZE = 0x3000, 7
RECEIVE_BUFFERS = 0x4000
LOOP_CYCLES = 16


def check_with_scapy(frame: bytes, packet) -> None:
    """scapy, an independent decoder, reads the same packet from the frame and agrees with its
    ICRC (parse_frame has already checked it with zlib.crc32)."""
    decoded = roce_scapy.decode(frame)
    assert decoded["icrc_sent"] == decoded["icrc_computed"], "scapy disagrees with the ICRC"
    assert (decoded["opcode"], decoded["psn"], decoded["dest_qp"], decoded["payload"]) == \
        (packet.bth.opcode, packet.bth.psn, packet.bth.dest_qp, packet.payload), decoded


class TB:
    def __init__(self, dut, rng: random.Random, wire: WireConfig = WireConfig(latency_ns=200), backpressure=None,
                 rx_idle: float | None = None):
        """`backpressure`: the chance per cycle that the MAC holds the engine's frames back;
        `rx_idle`: that it idles while handing a frame over, inside frames too."""
        self.dut = dut
        self.rng = rng
        self.memory = AxiRam(AxiBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=2 * REGION_BASE)
        self.rx = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis_rx"), dut.clk, dut.rst)
        self.tx = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis_tx"), dut.clk, dut.rst)
        quiet(self.memory.write_if, self.memory.read_if, self.rx, self.tx)
        self.tx.set_pause_generator(pauses(rng, backpressure))
        self.rx.set_pause_generator(pauses(rng, rx_idle))
        self.to_dut = LossyWire(wire, rng.getrandbits(32))
        self.from_dut = LossyWire(wire, rng.getrandbits(32))
        self.coverage_in = WireCoverage("to_engine", wire)
        self.coverage_out = WireCoverage("from_engine", wire)
        self.bus = AxiLiteAccess(dut, dut.clk, dut.rst)
        quiet(self.bus.master.write_if, self.bus.master.read_if)
        self.registers = self.bus.window(0, rdma_engine.BLOCK)
        self.host = HostQueues(self.registers, self.memory.write, self.memory.read)
        self.events = {}
        self.cycle = 0
        # ePSNs carried by the NAKs (PSN sequence error) the responder sent, in order
        self.sequence_naks = []
        # Every packet the engine sent, parsed at the QPs' PMTU
        self.sent = []
        # ... and, for those it sent onto the wire of step(), the time it left (ns)
        self.sent_times: list[tuple[int, RocePacket]] = []
        # Every frame the wire handed to the engine, in order (the wire may drop or delay any)
        self.delivered: list[bytes] = []
        self.pmtu = PMTU
        # Peer QPs whose PMTU is not `pmtu`: the engine's frames to them are parsed at theirs
        self.peer_pmtus: dict[int, int] = {}
        # ... and the engine's QPs whose PMTU is not `pmtu`: frames to them are classed at theirs
        self.engine_pmtus: dict[int, int] = {}
        # Frames the engine sent poisoned (ICRC inverted) on purpose, as they went out
        self.poisoned: list[bytes] = []
        self.capture = WireCapture()
        dut.s_axis_rx_tuser.value = 0
        # Until a test takes the node engines' ports (EnginePorts): no doorbell there, and no QP
        # offloaded, so nothing comes out of the completion port
        for queue in ("sq", "rq"):
            getattr(dut, f"s_{queue}_doorbell_valid").value = 0
        dut.m_completion_ready.value = 1
        cocotb.start_soon(self._count())

    async def _count(self):
        while True:
            await RisingEdge(self.dut.clk)
            self.cycle += 1

    async def reset(self):
        await start_clock_and_reset(self.dut.clk, self.dut.rst)

    async def set_up(self, expected_psn: int, region_access=(True, True)):
        """What host software does: addresses, one QP, one region; all through the registers."""
        await rdma.set_up(self.registers, DUT.mac, DUT.ip, PMTU)
        await rdma.create_qp(self.registers, DUT_QPN, PEER_QPN, PEER.mac, PEER.ip, DUT.udp_source_port,
                                    expected_psn, pmtu=PMTU, rq_base=RQ_BASE, rq_log_size=RQ_LOG_SIZE)
        await rdma.register_region(self.registers, RKEY, REGION_BASE, REGION_BYTES, *region_access)
        self.host.attach_receive_queue(DUT_QPN, RQ_BASE, RQ_LOG_SIZE)
        await self.host.create_completion_queue(RESPONDER_CQ_BASE, RESPONDER_CQ_LOG_SIZE)

    async def read_events(self) -> dict[str, int]:
        self.events = await rdma.read_counters(self.registers)
        return self.events

    def requester(self, first_psn: int, pkey: int = rdma.DEFAULT_PKEY) -> QueuePair:
        return QueuePair(QpConfig(PEER_QPN, DUT_QPN, PEER, DUT, pmtu=PMTU, initial_send_psn=first_psn,
                                  local_ack_timeout=ACK_TIMEOUT_CODE, pkey=pkey))

    async def run(self, peer: QueuePair, expected_completions: int, limit_cycles: int = 2_000_000):
        """Move frames both ways until the peer has that many completions."""
        return (await self.run_peers([peer], [expected_completions], limit_cycles))[0]

    async def run_peers(self, peers: list[QueuePair], expected: list[int], limit_cycles: int = 2_000_000,
                        junk: list[bytes] = ()) -> list[list]:
        """Several peers on one wire, each frame from the engine routed by its destination QP;
        `junk` frames are slipped onto the wire between theirs, one per loop."""
        completions = [[] for _ in peers]
        junk = list(junk)
        start = self.cycle
        while any(len(done) < wanted for done, wanted in zip(completions, expected)):
            assert self.cycle - start < limit_cycles, \
                f"{[len(done) for done in completions]} of {expected} completions after {limit_cycles} cycles"
            await self.step(peers, junk.pop(0) if junk else None)
            for index, peer in enumerate(peers):
                completions[index] += self.take_completions(peer)
            await ClockCycles(self.dut.clk, LOOP_CYCLES)
        self.capture.save()
        await self.read_events()
        return completions

    async def settle(self, cycles: int = 200) -> dict[str, int]:
        """Let the frames already handed over pass through the engine, then read its counters."""
        await self.rx.wait()
        await ClockCycles(self.dut.clk, cycles)
        return await self.read_events()

    def delivered_malformed(self) -> int:
        """How many of the frames handed to the engine a RoCE receiver must drop as malformed
        (the model parser's verdict, independent of the engine's counters)."""
        rejected = 0
        for frame in self.delivered:
            try:
                parse_frame(frame, self.engine_pmtus.get(int.from_bytes(frame[47:50], "big"), self.pmtu))
            except MalformedFrame:
                rejected += 1
        return rejected

    @staticmethod
    def take_completions(peer: QueuePair) -> list:
        """The peer's completions so far, each sampled for the functional coverage."""
        taken = peer.take_completions()
        cover_completions(taken)
        return taken

    def poison_reads(self, addresses: range) -> None:
        """From now on the memory answers SLVERR to every read burst that touches `addresses`."""
        read = self.memory.read_if._read

        async def failing_read(address, length):
            if address < addresses.stop and addresses.start < address + length:
                raise ValueError(f"read of poisoned memory at {address:#x}")
            return await read(address, length)

        self.memory.read_if._read = failing_read

    def pmtu_of(self, qpn: int) -> int:
        """The PMTU of the peer QP `qpn` (the engine's frames to it are parsed at that size)."""
        return self.peer_pmtus.get(qpn, self.pmtu)

    def _deliver_to_engine(self, frame: bytes) -> None:
        self.delivered.append(frame)
        self.coverage_in.frame(frame, self.engine_pmtus.get(int.from_bytes(frame[47:50], "big"), self.pmtu))

    def parse_sent(self, frame: bytes):
        """A frame the engine sent: it must parse cleanly (and scapy must agree), unless the engine
        poisoned it on purpose, in which case its ICRC is exactly the inverse of the right one.
        The packet, or None for a poisoned frame."""
        try:
            packet = parse_frame(frame, self.pmtu_of(int.from_bytes(frame[47:50], "big")))
        except MalformedFrame as error:
            difference = bytes(sent ^ right for sent, right in zip(frame, reseal_icrc(frame)))
            if error.cause is not MalformedCause.BAD_ICRC or difference.count(0xFF) != ICRC_BYTES \
                    or difference.count(0) != len(frame) - ICRC_BYTES:
                raise
            self.poisoned.append(frame)
            return None
        check_with_scapy(frame, packet)
        return packet

    async def play(self, frames: list[bytes], settle_cycles: int) -> list:
        """Hand frames to the engine back to back, wait `settle_cycles`, and return the packets
        it sent meanwhile (each parsed and checked with scapy)."""
        for frame in frames:
            self._deliver_to_engine(frame)
            await self.rx.send(AxiStreamFrame(frame))
        await ClockCycles(self.dut.clk, settle_cycles)
        packets = []
        while not self.tx.empty():
            packet = self.parse_sent(bytes(self.tx.recv_nowait().tdata))
            if packet is not None:
                packets.append(packet)
                self.coverage_out.packet(packet, self.pmtu_of(packet.bth.dest_qp))
        self.sent += packets
        return packets

    async def step(self, peers: list[QueuePair], junk: bytes | None = None) -> None:
        """Move every frame that is due one hop: peers to the wire, the wire to the engine, the
        engine to the wire, the wire to the peers."""
        by_qpn = {peer.config.qpn: index for index, peer in enumerate(peers)}
        now = self.cycle * CLOCK_PERIOD_NS
        for peer in peers:
            for frame in peer.poll(now):
                self.to_dut.send(frame, now)
        if junk is not None:
            self.to_dut.send(junk, now)
        for frame in self.to_dut.deliver(now):
            self._deliver_to_engine(frame)
            self.capture.record(frame, now)
            await self.rx.send(AxiStreamFrame(frame))
        while not self.tx.empty():
            frame = bytes(self.tx.recv_nowait().tdata)
            packet = self.parse_sent(frame)
            if packet is not None and packet.bth.opcode == Opcode.ACKNOWLEDGE and packet.aeth.syndrome == 0x60:
                self.sequence_naks.append(packet.bth.psn)
            if packet is not None:
                self.sent.append(packet)
                self.sent_times.append((now, packet))
                self.coverage_out.packet(packet, self.pmtu_of(packet.bth.dest_qp))
            self.capture.record(frame, now)
            self.from_dut.send(frame, now)
        for frame in self.from_dut.deliver(now):
            # routed like a switch would: by the BTH's destination QP (bytes 47-49), even if the
            # wire corrupted the frame; the peer's ICRC check then drops it
            destination = int.from_bytes(frame[47:50], "big")
            peers[by_qpn.get(destination, 0)].receive(frame, now)


class EnginePorts:
    """What the node's own engines (the collective engine) see of the RDMA engine: doorbells rung
    at its doorbell ports and the completions of offloaded QPs taken at its completion port, with
    random stalls there. `collisions` counts doorbells that had to wait for a register doorbell;
    `held` checks that a completion offered and not taken stays offered, unchanged."""

    def __init__(self, dut, rng: random.Random, stall: float = 0.3):
        self.dut = dut
        self.rng = rng
        self.stall = stall
        self.completions: list[EngineCompletion] = []
        self.collisions = 0
        payload = {name: getattr(dut, f"m_completion_{name}")
                   for name in ("wr_id", "byte_len", "immediate", "immediate_valid", "qpn", "opcode", "status")}
        self.held = HeldOffers(dut.clk, dut.rst, dut.m_completion_valid, dut.m_completion_ready, payload,
                               "completion port")
        cocotb.start_soon(self._take())

    async def ring(self, queue: str, qpn: int, producer_index: int) -> None:
        """Queue `queue` ("sq" or "rq") of QP `qpn` now ends before `producer_index`; returns once
        the engine took the doorbell."""
        prefix = f"s_{queue}_doorbell"
        # At any cycle, so that some doorbells meet a register doorbell
        await ClockCycles(self.dut.clk, self.rng.randrange(8))
        getattr(self.dut, f"{prefix}_qpn").value = qpn
        getattr(self.dut, f"{prefix}_producer_index").value = producer_index % 0x10000
        getattr(self.dut, f"{prefix}_valid").value = 1
        while True:
            await RisingEdge(self.dut.clk)
            if int(getattr(self.dut, f"{prefix}_ready").value):
                break
            self.collisions += 1
        getattr(self.dut, f"{prefix}_valid").value = 0

    def take(self) -> list[EngineCompletion]:
        taken, self.completions = self.completions, []
        return taken

    async def _take(self):
        dut = self.dut
        # The engine's outputs mean something only once a reset is over (before it, Icarus shows X)
        reset_seen = False
        while True:
            dut.m_completion_ready.value = int(self.rng.random() >= self.stall)
            await RisingEdge(dut.clk)
            in_reset = not dut.rst.value.is_resolvable or int(dut.rst.value)
            reset_seen = reset_seen or in_reset
            if not reset_seen or in_reset:
                continue
            if int(dut.m_completion_valid.value) and int(dut.m_completion_ready.value):
                immediate = int(dut.m_completion_immediate.value) if int(dut.m_completion_immediate_valid.value) else None
                self.completions.append(EngineCompletion(
                    int(dut.m_completion_wr_id.value), int(dut.m_completion_status.value),
                    int(dut.m_completion_opcode.value), int(dut.m_completion_byte_len.value),
                    int(dut.m_completion_qpn.value), immediate))


class RegisterHammer:
    """Register writes over and over, in turn, while a test runs (to meet port doorbells in the
    same cycle); `written` counts each register's writes."""

    def __init__(self, registers, writes: list[tuple[str, int]]):
        self.registers = registers
        self.writes = writes
        self.written = {name: 0 for name, _ in writes}
        self.running = True
        self.task = cocotb.start_soon(self._hammer())

    async def _hammer(self):
        while self.running:
            for name, value in self.writes:
                await self.registers.write_register(name, value)
                self.written[name] += 1

    async def stop(self) -> None:
        self.running = False
        await self.task
