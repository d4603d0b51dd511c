# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Two rdma_engine instances back to back over the Python wire: each is requester and responder
at once, both set up only through their registers, work posted in host memory on both sides.
Each request completes exactly once, in order, and every byte lands where it belongs, on a clean
and on a lossy wire."""

from __future__ import annotations

import random

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiBus, AxiRam, AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource

from dpuv.models.roce_packet import Endpoint, parse_frame
from dpuv.models.roce_qp import WorkRequest
from dpuv.models.roce_wire import Impairment, LossyWire, WireConfig
from dpuv.drivers import rdma
from dpuv.regs.cocotb_axil import AxiLiteAccess
from dpuv.tb.pcap_capture import WireCapture
from dpuv.drivers.rdma import HostQueues, WcOpcode, WcStatus
from dpuv.regs.maps import rdma_engine
from dpuv.tb.testbench import CLOCK_PERIOD_NS, pauses, quiet, start_clock_and_reset, test_rng
from rdma_engine_bench import check_with_scapy

PMTU = 1024
# Each area holds its worst case, whatever the seed draws: MAX_REQUESTS requests of MAX_LENGTH
# bytes each, with the gaps random_work leaves (a seed once drew 22 SENDs and WRITEs with
# immediate of 30 requests, more receive buffers than the area held)
MAX_REQUESTS, MAX_LENGTH = 30, 3 * PMTU
MEMORY_BYTES = 0x80000
SQ_BASE, SQ_LOG_SIZE = 0x1000, 6
CQ_BASE, CQ_LOG_SIZE = 0x2000, 7
RQ_BASE, RQ_LOG_SIZE = 0x3000, 6
LOCAL_BASE, LOCAL_BYTES = 0x4000, 0x18000      # sources of WRITEs and SENDs, destinations of READs
RECEIVE_BASE, RECEIVE_BYTES = 0x1C000, 0x18000  # buffers of the receives posted for the peer's SENDs
REGION_BASE, REGION_BYTES = 0x40000, 0x40000   # what the other side may WRITE (low half) and READ (high half)
assert LOCAL_BYTES >= MAX_REQUESTS * (MAX_LENGTH + 9) and RECEIVE_BYTES >= MAX_REQUESTS * MAX_LENGTH
assert REGION_BYTES // 2 >= MAX_REQUESTS * (MAX_LENGTH + 7) and REGION_BASE + REGION_BYTES <= MEMORY_BYTES
RKEY = 0x00C0DE05
TIMEOUT_CODE = 2
LOOP_CYCLES = 16


class Side:
    """One engine with its host: registers, memory, MAC port, queues."""

    def __init__(self, dut, name: str, endpoint: Endpoint, qpn: int, rng: random.Random):
        self.name, self.endpoint, self.qpn = name, endpoint, qpn
        self.memory = AxiRam(AxiBus.from_prefix(dut, f"{name}_m_axi"), dut.clk, dut.rst, size=MEMORY_BYTES)
        self.rx = AxiStreamSource(AxiStreamBus.from_prefix(dut, f"{name}_s_axis_rx"), dut.clk, dut.rst)
        self.tx = AxiStreamSink(AxiStreamBus.from_prefix(dut, f"{name}_m_axis_tx"), dut.clk, dut.rst)
        self.tx.set_pause_generator(pauses(rng, 0.1))
        self.bus = AxiLiteAccess(dut, dut.clk, dut.rst, prefix=f"{name}_s_axil")
        quiet(self.memory.write_if, self.memory.read_if, self.rx, self.tx, self.bus.master.write_if,
              self.bus.master.read_if)
        self.registers = self.bus.window(0, rdma_engine.BLOCK)
        self.host = HostQueues(self.registers, self.memory.write, self.memory.read)
        self.completions = []
        getattr(dut, f"{name}_s_axis_rx_tuser").value = 0
        self.memory.write(REGION_BASE, rng.randbytes(REGION_BYTES))

    async def set_up(self, peer: "Side", first_psn: int, peer_first_psn: int) -> None:
        await rdma.set_up(self.registers, self.endpoint.mac, self.endpoint.ip, PMTU)
        await rdma.create_qp(self.registers, self.qpn, peer.qpn, peer.endpoint.mac, peer.endpoint.ip,
                                    self.endpoint.udp_source_port, peer_first_psn, pmtu=PMTU, send_psn=first_psn,
                                    sq_base=SQ_BASE, sq_log_size=SQ_LOG_SIZE, rq_base=RQ_BASE, rq_log_size=RQ_LOG_SIZE,
                                    timeout=TIMEOUT_CODE)
        await rdma.register_region(self.registers, RKEY, REGION_BASE, REGION_BYTES)
        self.host.attach_send_queue(self.qpn, SQ_BASE, SQ_LOG_SIZE)
        self.host.attach_receive_queue(self.qpn, RQ_BASE, RQ_LOG_SIZE)
        await self.host.create_completion_queue(CQ_BASE, CQ_LOG_SIZE)


def random_work(rng: random.Random, side: Side, count: int, max_length: int) -> list[tuple[WorkRequest, int]]:
    """WRITEs (some with immediate) into the peer's low half, READs from its high half (never
    written), SENDs (some with immediate) into the peer's receives; each request with a local
    buffer of its own."""
    work, local, remote_write, remote_read = [], LOCAL_BASE, REGION_BASE, REGION_BASE + REGION_BYTES // 2
    for wr_id in range(count):
        length = rng.choice([0, 1, 64, PMTU - 1, PMTU, PMTU + 1, rng.randint(1, max_length)])
        length = min(length, max_length)
        kind = rng.choice(("write", "read", "send"))
        imm = rng.getrandbits(32) if rng.random() < 0.3 else None
        if kind == "send":
            data = rng.randbytes(length)
            side.memory.write(local, data)
            request = WorkRequest.send(wr_id, data, imm)
        elif kind == "write":
            data = rng.randbytes(length)
            side.memory.write(local, data)
            request = WorkRequest.write(wr_id, data, remote_write, RKEY, imm)
            remote_write += length + rng.randint(0, 7)
        else:
            length = max(length, 1)
            request = WorkRequest.read(wr_id, remote_read, RKEY, length)
            remote_read += length + rng.randint(0, 7)
        work.append((request, local))
        local += length + rng.randint(0, 9)
    assert local < LOCAL_BASE + LOCAL_BYTES and remote_write < REGION_BASE + REGION_BYTES // 2
    assert remote_read < REGION_BASE + REGION_BYTES
    return work


def describe_stall(dut) -> None:
    """Where each engine stands when the pair stops making progress: the handshakes that decide
    who waits on whom (FSM states, the MAC multiplexer's inputs, the shared AXI channels)."""
    for name in ("engine_a_inst", "engine_b_inst"):
        engine = getattr(dut, name)
        signals = ("frame_tvalid", "frame_tready", "dma_read_tvalid", "dma_read_tready", "arb_rvalid", "arb_rready",
                   "arb_arvalid", "arb_arready", "arb_awvalid", "arb_awready", "arb_wvalid", "arb_wready",
                   "rx_hdr_valid", "rx_payload_tvalid")
        values = {signal: str(getattr(engine, signal).value) for signal in signals}
        values["requester"] = str(engine.requester_inst.state.value)
        values["responder"] = str(engine.responder_inst.state.value)
        dut._log.error("%s stalled: %s", name, values)


async def run_pair(dut, wire: WireConfig, count: int, max_length: int, rng: random.Random,
                   limit_cycles: int = 4_000_000) -> tuple[Side, Side]:
    assert count <= MAX_REQUESTS and max_length <= MAX_LENGTH, "the memory map is sized for MAX_REQUESTS of MAX_LENGTH"
    # The stream sources drive their valid low before the reset ends (Icarus would otherwise count
    # the undriven inputs into the receive counters as X)
    a = Side(dut, "a", Endpoint("02:00:00:00:00:0a", "10.0.1.1", 0xC00A), 0x11, rng)
    b = Side(dut, "b", Endpoint("02:00:00:00:00:0b", "10.0.1.2", 0xC00B), 0x22, rng)
    await start_clock_and_reset(dut.clk, dut.rst)
    psn_a, psn_b = rng.getrandbits(24), rng.getrandbits(24)
    await a.set_up(b, psn_a, psn_b)
    await b.set_up(a, psn_b, psn_a)
    remote_before = {side.name: side.memory.read(REGION_BASE, REGION_BYTES) for side in (a, b)}
    work = {"a": random_work(rng, a, count, max_length), "b": random_work(rng, b, count, max_length)}
    wires = {"a": LossyWire(wire, rng.getrandbits(32)), "b": LossyWire(wire, rng.getrandbits(32))}
    capture = WireCapture()
    # Each side posts a receive for every SEND and WRITE with immediate the other will send
    expected_receives = {}
    for side, peer in ((a, b), (b, a)):
        consuming = [request for request, _ in work[peer.name] if request.imm is not None or request.opcode.name == "SEND"]
        buffers = []
        for index, request in enumerate(consuming):
            address = RECEIVE_BASE + index * max_length
            assert address + max_length <= RECEIVE_BASE + RECEIVE_BYTES
            await side.host.post_receive(side.qpn, 0x8000 + index, address, max_length)
            buffers.append(address)
        expected_receives[side.name] = list(zip(consuming, buffers))
    for side in (a, b):
        for request, local in work[side.name]:
            side.host.place(side.qpn, request, local)
        await side.host.ring(side.qpn)
    cycle = 0
    wanted = {side.name: count + len(expected_receives[side.name]) for side in (a, b)}
    while any(len(side.completions) < wanted[side.name] for side in (a, b)):
        if cycle >= limit_cycles:
            describe_stall(dut)
        assert cycle < limit_cycles, f"completions a {len(a.completions)}, b {len(b.completions)} of {wanted}"
        now = cycle * CLOCK_PERIOD_NS
        for source, destination in ((a, b), (b, a)):
            while not source.tx.empty():
                frame = bytes(source.tx.recv_nowait().tdata)
                # every frame either engine sends parses cleanly, and scapy reads it the same way
                check_with_scapy(frame, parse_frame(frame, PMTU))
                capture.record(frame, now)
                wires[source.name].send(frame, now)
            for frame in wires[source.name].deliver(now):
                await destination.rx.send(AxiStreamFrame(frame))
        for side in (a, b):
            side.completions += await side.host.poll()
        await ClockCycles(dut.clk, LOOP_CYCLES)
        cycle += LOOP_CYCLES
    capture.save()
    for side, peer in ((a, b), (b, a)):
        sends = [c for c in side.completions if c.opcode < WcOpcode.RECV]
        receives = [c for c in side.completions if c.opcode >= WcOpcode.RECV]
        assert [c.wr_id for c in sends] == [r.wr_id for r, _ in work[side.name]]
        assert all(c.status == WcStatus.SUCCESS for c in side.completions), side.completions
        assert [c.wr_id for c in receives] == [0x8000 + index for index in range(len(expected_receives[side.name]))]
        for completion, (request, address) in zip(receives, expected_receives[side.name]):
            assert completion.immediate == request.imm
            if request.opcode.name.startswith("SEND"):
                assert completion.opcode == WcOpcode.RECV and completion.byte_len == request.length
                assert side.memory.read(address, request.length) == request.data, f"SEND into {side.name}"
            else:
                assert completion.opcode == WcOpcode.RECV_RDMA_WITH_IMM
        expected_peer = bytearray(remote_before[peer.name])
        for request, local in work[side.name]:
            offset = request.remote_address - REGION_BASE
            if request.opcode.name.startswith("SEND"):
                continue
            if request.opcode.name == "RDMA_READ":
                assert side.memory.read(local, request.length) == \
                    remote_before[peer.name][offset:offset + request.length], f"{side.name} READ {request.wr_id}"
            else:
                expected_peer[offset:offset + request.length] = request.data
        assert peer.memory.read(REGION_BASE, REGION_BYTES) == bytes(expected_peer), f"{side.name}'s WRITEs on {peer.name}"
    return a, b


@cocotb.test(timeout_time=200, timeout_unit="us")
async def two_engines_exchange_writes_reads_and_sends_both_ways(dut):
    rng = test_rng("clean")
    a, b = await run_pair(dut, WireConfig(latency_ns=200), MAX_REQUESTS, MAX_LENGTH, rng)
    for side in (a, b):
        events = await rdma.read_counters(side.registers)
        assert events["retransmits"] == 0 and events["completion_errors"] == 0, events
        dut._log.info("%s: %d requests sent, %d ACKs sent, %d received", side.name, events["requests_sent"],
                      events["acks_sent"], events["acks_received"])


@cocotb.test(timeout_time=500, timeout_unit="us")
@cocotb.parametrize(loss=[0.01, 0.05])
async def two_engines_through_a_lossy_wire(dut, loss):
    rng = test_rng("lossy", loss)
    wire = WireConfig(latency_ns=200, drop=Impairment(loss), duplicate=Impairment(loss / 2),
                      reorder=Impairment(loss / 2), corrupt=Impairment(loss / 10), reorder_delay_ns=2000)
    a, b = await run_pair(dut, wire, 24, PMTU, rng)
    retries = 0
    for side in (a, b):
        events = await rdma.read_counters(side.registers)
        retries += events["retries"]
    dut._log.info("loss %s: %d go-back-N retries in all", loss, retries)
