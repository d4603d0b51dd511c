# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""rdma_engine's requester against the spec-built Python RC responder (src/dpuv/models/roce_qp.py) over the
Python wire: work requests posted in a send queue in host memory, doorbells, completions reaped
from the completion queue by their owner bit, everything set up through the registers.

Every test checks what a user of the engine relies on: each work request completes exactly once,
in order, with the right status; WRITE and SEND bytes land in the peer exactly, READ bytes land in
host memory exactly; errors fail the oldest request and flush the rest."""

from __future__ import annotations

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge

from dpuv.models.roce_packet import (AETH, BTH, NAK_PSN_SEQUENCE_ERROR, NAK_REMOTE_ACCESS_ERROR, Addressing, Endpoint,
                                     Opcode, RocePacket, build_frame)
from dpuv.models.roce_qp import (RNR_TIMER_NS, Access, CompletionStatus, QpConfig, QueuePair, WorkRequest,
                                 local_ack_timeout_ns)
from dpuv.models.roce_wire import Impairment, WireConfig
from dpuv.drivers import rdma
from dpuv.harness import perf
from dpuv.drivers.rdma import WcOpcode, WcStatus
from dpuv.tb.testbench import CLOCK_PERIOD_NS, CycleCounter, HandshakeMonitor, pulse_reset, test_rng
from rdma_engine_bench import DUT, DUT_QPN, LOOP_CYCLES, PEER, PEER_QPN, REGION_BASE, EnginePorts, RegisterHammer
from requester_bench import (CQ_BASE, LOCAL_BASE, LOCAL_BYTES, PEER_BASE, PEER_BYTES, PEER_RKEY, READ_SOURCE, SQ_BASE,
                             SQ_LOG_SIZE, TIMEOUT_CODE, LosesOneFrame, Requester, check_exactly_once, exchange,
                             exchange_on, random_requests)


# A second QP's send queue and buffers, in the responder's region, which no requester test uses
SECOND_SQ_BASE = REGION_BASE
SECOND_LOCAL_BASE = REGION_BASE + 0x1000


@cocotb.test(timeout_time=200, timeout_unit="us")
async def requests_complete_in_order_on_a_clean_wire(dut):
    """WRITE, READ, SEND and the immediate forms, every length around the PMTU, from a PSN about
    to wrap: exact bytes both ways, no retransmission, the counters agree."""
    requester, checked = await exchange(dut, 40)
    events = requester.tb.events
    assert events["completions"] == 40 and events["completion_errors"] == 0
    assert events["retransmits"] == 0 and events["timeouts"] == 0 and events["retries"] == 0
    packets = sum(1 for packet in requester.tb.sent if packet.info.is_request)
    assert events["requests_sent"] == packets
    assert events["acks_received"] > 0 and events["doorbells_rejected"] == 0
    dut._log.info("40 requests, %d payload bytes checked, %d request packets", checked, packets)


@cocotb.test(timeout_time=60, timeout_unit="us")
async def frames_handed_over_with_idle_cycles_inside_lose_nothing(dut):
    """A MAC may hand a frame over with idle cycles inside it (one clocked above the line rate, a
    clock-crossing FIFO running dry). With the receive stream idle a third of the cycles, inside
    frames too, every kind of request completes once with its bytes: READ response payloads, ACKs
    and NAKs reach the requester whole, and no idle cycle is taken for a beat."""
    rng = test_rng("rx idle")
    requester = Requester(dut, rng, rx_idle=0.3)
    await requester.set_up()
    checked = await exchange_on(requester, rng, 30)
    reads = sum(1 for packet in requester.tb.sent if packet.bth.opcode == Opcode.RDMA_READ_REQUEST)
    assert reads > 0, "no READ: no response payload crossed the idle cycles"
    dut._log.info("30 requests (%d READs), %d payload bytes checked through an idling receive stream", reads, checked)


@cocotb.test(timeout_time=35, timeout_unit="us")
async def nak_forged_for_another_address_or_partition_is_ignored(dut):
    """NAKs (remote access error) for the oldest request, from the peer's address and QP, arrive
    while the engine's WRITEs are in flight: one for another IPv4 address, one in a partition the
    engine is not in, one in the engine's partition but limited like its only table entry. Taken,
    any would fail the oldest request and flush the rest; each is dropped and counted instead, and
    every request completes once, successfully."""
    rng = test_rng("forged naks")
    requester = Requester(dut, rng)
    await requester.set_up()
    limited_partition = 0x0321
    await rdma.set_pkey_table(requester.tb.registers, (limited_partition,))
    work = random_requests(rng, bytearray(LOCAL_BYTES), 8, requester.pmtu, 3 * requester.pmtu, kinds=("write",))
    for request, local in work:
        requester.tb.memory.write(local, request.data)

    def forged_nak(destination: Endpoint, pkey: int) -> bytes:
        bth = BTH(Opcode.ACKNOWLEDGE, DUT_QPN, requester.first_psn, pkey=pkey)
        return build_frame(RocePacket(Addressing.between(PEER, destination), bth,
                                      aeth=AETH(NAK_REMOTE_ACCESS_ERROR, 0)))

    forged = {"wrong_address": forged_nak(Endpoint(DUT.mac, "10.0.0.9", DUT.udp_source_port), limited_partition | 0x8000),
              "other_partition": forged_nak(DUT, 0x8777),
              "limited_to_limited": forged_nak(DUT, limited_partition)}
    # The peer answers in the engine's partition as a full member, so its real ACKs are taken
    requester.new_peer(requester.first_psn, pkey=limited_partition | 0x8000)
    # Spaced out, so that some arrive while the oldest request is still unacknowledged
    junk = [frame for frame in forged.values() for _ in range(2) for frame in (None, None, frame)]
    await requester.run(work, junk=junk)
    await check_exactly_once(requester, work)
    events = requester.tb.events
    arrived = {kind: requester.tb.delivered.count(frame) for kind, frame in forged.items()}
    assert arrived == {kind: 2 for kind in forged}, arrived
    assert (events["drops_wrong_address"], events["drops_pkey"]) == (2, 4), events
    assert (events["naks_received"], events["responses_dropped"], events["completion_errors"]) == (0, 0, 0), events
    assert {packet.bth.pkey for packet in requester.tb.sent} == {limited_partition}


@cocotb.test(timeout_time=40, timeout_unit="us")
async def a_nak_repeated_while_its_retry_runs_costs_one_retry(dut):
    """A NAK PSN sequence error that arrives twice (as a duplicating wire delivers it) sends the
    engine back once: the second names the PSN it is already going back to and costs nothing. With
    one retry allowed, a 4-packet WRITE NAKed twice at its first PSN completes successfully after
    exactly one retry; a second go-back would have run out of retries (RETRY_EXC_ERR)."""
    rng = test_rng("nak twice")
    requester = Requester(dut, rng, pmtu=4096, retry_count=1)
    await requester.set_up()
    data = rng.randbytes(4 * requester.pmtu)
    request = WorkRequest.write(0x77, data, PEER_BASE, PEER_RKEY)
    requester.tb.memory.write(LOCAL_BASE, data)
    requester.host.place(DUT_QPN, request, LOCAL_BASE)
    await requester.ring()
    nak = build_frame(RocePacket(Addressing.between(PEER, DUT), BTH(Opcode.ACKNOWLEDGE, DUT_QPN, requester.first_psn),
                                 aeth=AETH(NAK_PSN_SEQUENCE_ERROR, 0)))
    # Both NAKs go out as the first packet leaves, so they arrive before the peer's first ACK
    while not requester.tb.sent:
        await requester.tb.step([requester.peer])
        await ClockCycles(dut.clk, 1)
    for _ in range(2):
        await requester.tb.step([requester.peer], nak)
        await ClockCycles(dut.clk, LOOP_CYCLES)
    completions = await requester.run([], expect=1, limit_cycles=6_000)
    assert [(c.wr_id, c.status) for c in completions] == [(0x77, WcStatus.SUCCESS)], completions
    assert requester.peer_memory.read(PEER_BASE, len(data)) == data
    events = requester.tb.events
    assert (events["naks_received"], events["retries"]) == (2, 1), events


@cocotb.test(timeout_time=100, timeout_unit="us")
@cocotb.parametrize(pmtu=[256, 512, 2048, 4096])
async def requests_at_every_pmtu(dut, pmtu):
    """Segmentation and READ responses at each PMTU the engine supports (1024 is the case above)."""
    requester, checked = await exchange(dut, 6, pmtu=pmtu, rng=test_rng("pmtu", pmtu), max_length=2 * pmtu + 5)
    packets = [packet for packet in requester.tb.sent if packet.info.is_request]
    assert all(len(packet.payload) <= pmtu for packet in packets)
    dut._log.info("PMTU %d: %d bytes checked in %d request packets", pmtu, checked, len(packets))


@cocotb.test(timeout_time=100, timeout_unit="us")
async def reset_in_mid_traffic_then_a_clean_exchange(dut):
    """A reset while requests are in flight and completions pending; after it, with the QP set up
    again, a fresh exchange completes exactly once."""
    rng = test_rng("reset")
    requester = Requester(dut, rng)
    await requester.set_up()
    work = random_requests(rng, bytearray(LOCAL_BYTES), 12, 1024, 3 * 1024)
    for request, address in work:
        if request.opcode.name != "RDMA_READ":
            requester.tb.memory.write(address, request.data)
        requester.host.place(DUT_QPN, request, address)
    await requester.host.ring(DUT_QPN)
    for _ in range(40):
        await requester.tb.step([requester.peer])
        await ClockCycles(dut.clk, LOOP_CYCLES)
    await pulse_reset(dut.clk, dut.rst)
    # The engine forgot everything: a new peer, the QP and queues set up again from other PSNs,
    # while frames from before the reset may still arrive
    requester.new_peer(0x400000)
    await requester.set_up(reset=False)
    await exchange_on(requester, rng, 12)


@cocotb.test(timeout_time=500, timeout_unit="us")
@cocotb.parametrize(loss=[0.001, 0.01, 0.1], burst=[1, 4])
async def every_request_completes_once_through_a_lossy_wire(dut, loss, burst):
    """Loss (single or in bursts), duplication and reordering both ways, corruption at a tenth:
    go-back-N on NAKs, implicit NAKs and timeouts; still exactly once and byte-exact."""
    wire = WireConfig(latency_ns=200, drop=Impairment(loss / burst, burst), duplicate=Impairment(loss / 2),
                      reorder=Impairment(loss / 2), corrupt=Impairment(loss / 10), reorder_delay_ns=2000)
    requester, checked = await exchange(dut, 30 if loss < 0.1 else 20, wire=wire, rng=test_rng("lossy", loss, burst),
                                        max_length=1024 if loss >= 0.1 else 3 * 1024)
    events = requester.tb.events
    dut._log.info("loss %s burst %d: %d bytes checked, %d retries, %d timeouts, %d retransmitted packets",
                  loss, burst, checked, events["retries"], events["timeouts"], events["retransmits"])
    assert events["completion_errors"] == 0
    # Every request the wire lost or spoiled was sent again (each landed once, above), so the
    # engine counted its retries and retransmissions (with 20 or 30 requests the seeded wire may
    # lose none: one_lost_request_is_nakked_and_sent_again_from_it loses one for certain)
    wire = requester.tb.from_dut.counters
    lost = wire["dropped"] + wire["corrupted"]
    assert not lost or (events["retransmits"] > 0 and events["retries"] > 0), (dict(wire), events)


@cocotb.test(timeout_time=50, timeout_unit="us")
async def one_lost_request_is_nakked_and_sent_again_from_it(dut):
    """Four 64-byte WRITEs, the second lost on the way: the peer ACKs the first, NAKs the third
    (PSN sequence error, carrying the second's PSN) and ignores the fourth; the engine goes back N
    to the second and sends the second, third and fourth again, at once, without waiting for a
    timeout. Each WRITE lands once and completes once, in order; one retry, one NAK, no timeout."""
    rng = test_rng("go back n")
    requester = Requester(dut, rng)
    await requester.set_up()
    requester.tb.from_dut = LosesOneFrame(1)
    work = [(WorkRequest.write(0x100 + index, rng.randbytes(64), PEER_BASE + 64 * index, PEER_RKEY),
             LOCAL_BASE + 64 * index) for index in range(4)]
    for request, local in work:
        requester.tb.memory.write(local, request.data)
    await requester.run(work)
    await check_exactly_once(requester, work)
    first = requester.first_psn
    sent = [packet.bth.psn for packet in requester.tb.sent if packet.info.is_request]
    assert sent == [(first + offset) % (1 << 24) for offset in (0, 1, 2, 3, 1, 2, 3)], [hex(psn) for psn in sent]
    assert dict(requester.peer.counters.naks_sent) == {0x60: 1}, requester.peer.counters.naks_sent
    events = requester.tb.events
    assert (events["naks_received"], events["retries"], events["timeouts"], events["retransmits"]) == (1, 1, 0, 3), \
        events


@cocotb.test(timeout_time=500, timeout_unit="us")
async def retries_run_out_and_every_request_fails_exactly_once(dut):
    """The peer never answers: after retry_count timeouts the oldest request fails with
    RETRY_EXC_ERR and every other one is flushed, each exactly once; later posts are flushed too."""
    rng = test_rng()
    requester = Requester(dut, rng, wire=WireConfig(latency_ns=200, drop=Impairment(1.0)), retry_count=2)
    await requester.set_up()
    work = random_requests(rng, bytearray(LOCAL_BYTES), 5, 1024, 2048, kinds=("write", "read"))
    await requester.run(work)
    statuses = [c.status for c in requester.completions]
    assert statuses == [WcStatus.RETRY_EXC_ERR] + [WcStatus.WR_FLUSH_ERR] * 4, statuses
    assert [c.wr_id for c in requester.completions] == [r.wr_id for r, _ in work]
    events = requester.tb.events
    assert events["timeouts"] == 3 and events["retries"] == 2, events
    # The oldest request goes out three times, each retry one local ACK timeout after the send
    # before (4.096 us x 2^code, IBA), give or take the rest of the window leaving behind it
    timeout_ns = local_ack_timeout_ns(TIMEOUT_CODE)
    oldest = [when for when, packet in requester.tb.sent_times if packet.info.is_request
              and packet.bth.psn == requester.first_psn]
    window_ns = max(when for when, packet in requester.tb.sent_times if packet.info.is_request) - oldest[0]
    gaps = [later - earlier for earlier, later in zip(oldest, oldest[1:])]
    assert len(oldest) == 3 and all(timeout_ns <= gap <= 1.25 * timeout_ns + window_ns for gap in gaps), \
        f"the oldest request left at {oldest} ns: gaps {gaps}, the timeout is {timeout_ns} ns"
    # A request posted to a QP in the error state is flushed, never sent
    sent_before = events["requests_sent"]
    late = random_requests(rng, bytearray(LOCAL_BYTES), 2, 1024, 64, kinds=("write",))
    requester.completions = []
    await requester.run(late)
    assert [c.status for c in requester.completions] == [WcStatus.WR_FLUSH_ERR] * 2
    assert requester.tb.events["requests_sent"] == sent_before


@cocotb.test(timeout_time=20, timeout_unit="us")
async def a_remote_access_error_fails_the_request_and_flushes_the_rest(dut):
    rng = test_rng()
    requester = Requester(dut, rng)
    await requester.set_up()
    good = WorkRequest.write(1, b"\x11" * 100, PEER_BASE, PEER_RKEY)
    bad = WorkRequest.write(2, b"\x22" * 100, PEER_BASE + PEER_BYTES - 10, PEER_RKEY)  # runs past the region
    after = WorkRequest.read(3, READ_SOURCE, PEER_RKEY, 64)
    for request, address in ((good, LOCAL_BASE), (bad, LOCAL_BASE + 0x100)):
        requester.tb.memory.write(address, request.data)
    await requester.run([(good, LOCAL_BASE), (bad, LOCAL_BASE + 0x100), (after, LOCAL_BASE + 0x200)])
    assert [c.status for c in requester.completions] == \
        [WcStatus.SUCCESS, WcStatus.REM_ACCESS_ERR, WcStatus.WR_FLUSH_ERR]
    assert requester.peer_memory.read(PEER_BASE, 100) == good.data
    assert requester.tb.events["naks_received"] >= 1


@cocotb.test(timeout_time=20, timeout_unit="us")
async def a_send_longer_than_the_peer_s_receive_fails_and_flushes_the_rest(dut):
    """The peer's receive holds 16 bytes and the engine SENDs 100: the peer completes the receive
    LOC_LEN_ERR and answers NAK invalid request (IBA 9.7.5.2.8, o9-57: a message longer than its
    receive buffer), the engine completes the SEND REM_INV_REQ_ERR and flushes the WRITE behind it,
    which never reaches the peer."""
    rng = test_rng()
    requester = Requester(dut, rng)
    await requester.set_up()
    requester.peer.post_recv(0x40, 16)
    long_send = WorkRequest.send(1, rng.randbytes(100))
    behind = WorkRequest.write(2, b"\x33" * 64, PEER_BASE, PEER_RKEY)
    for request, address in ((long_send, LOCAL_BASE), (behind, LOCAL_BASE + 0x100)):
        requester.tb.memory.write(address, request.data)
    before = requester.peer_memory.read(PEER_BASE, 64)
    await requester.run([(long_send, LOCAL_BASE), (behind, LOCAL_BASE + 0x100)])
    assert [c.status for c in requester.completions] == [WcStatus.REM_INV_REQ_ERR, WcStatus.WR_FLUSH_ERR], \
        requester.completions
    assert [(c.wr_id, c.status) for c in requester.received] == [(0x40, CompletionStatus.LOCAL_LENGTH_ERROR)]
    assert requester.peer_memory.read(PEER_BASE, 64) == before, "the flushed WRITE reached the peer"
    assert requester.tb.events["naks_received"] >= 1, requester.tb.events


@cocotb.test(timeout_time=50, timeout_unit="us")
async def doorbell_abuse_is_refused_and_loses_nothing(dut):
    """Doorbells for a missing QP and for more WQEs than the ring holds (twice, with two indexes)
    are refused and counted; an unknown WQE opcode fails with LOC_QP_OP_ERR once the requests before it completed."""
    rng = test_rng()
    requester = Requester(dut, rng)
    await requester.set_up()
    host, registers = requester.host, requester.tb.registers
    # A QP that does not exist (past the table, and one never set up)
    caps = rdma.BLOCK["CAPS"].field("qp_count").extract(await registers.read_register("CAPS"))
    for qpn in (caps, DUT_QPN + 1):
        host.send_queues[qpn], host.producer[qpn] = (SQ_BASE, SQ_LOG_SIZE), 1
        await host.ring(qpn)
    # More WQEs than the ring holds, then more still: each refusal of the same QP is counted
    await host.ring(DUT_QPN, (1 << SQ_LOG_SIZE) + 1)
    await ClockCycles(dut.clk, 100)
    await host.ring(DUT_QPN, (1 << SQ_LOG_SIZE) + 2)
    await ClockCycles(dut.clk, 200)
    events = await requester.tb.read_events()
    assert events["doorbells_rejected"] == 4 and events["requests_sent"] == 0, events
    # Then a good exchange works, and a bad opcode fails in its turn
    work = random_requests(rng, bytearray(LOCAL_BYTES), 3, 1024, 256, kinds=("write",))
    for request, address in work:
        requester.tb.memory.write(address, request.data)
    await requester.run(work)
    assert [c.status for c in requester.completions] == [WcStatus.SUCCESS] * 3
    slot = host.producer[DUT_QPN] % (1 << SQ_LOG_SIZE)
    requester.tb.memory.write(SQ_BASE + slot * rdma.WQE_BYTES, rdma.SEND_WQE.pack(opcode=9, wr_id=0xBAD))
    host.producer[DUT_QPN] += 1
    await host.ring(DUT_QPN)
    requester.completions = []
    await requester.run([], expect=1)
    assert [(c.wr_id, c.status) for c in requester.completions] == [(0xBAD, WcStatus.LOC_QP_OP_ERR)]


@cocotb.test(timeout_time=250, timeout_unit="us")
async def an_offloaded_qp_is_rung_at_the_port_and_completes_there(dut):
    """The node's own engines' path. With the QP in OFFLOAD_QPS, doorbell abuse at the port is
    refused and counted like the register's. Then every kind of request, and then 40 WRITEs one at
    a time, are rung at the doorbell port while the host hammers the register doorbell of a QP past
    the table (each refused on its own) and commits another QP: a port doorbell meeting either in
    the same cycle must wait, not vanish. Each request completes exactly once, in order, on the
    completion port (stalled at random); the completion queue in host memory never sees one. Taken
    out of OFFLOAD_QPS, the QP completes in the queue again."""
    rng = test_rng("offloaded")
    ports = EnginePorts(dut, rng)
    requester = Requester(dut, rng, ports=ports)
    await requester.set_up()
    registers = requester.tb.registers
    caps = rdma.BLOCK["CAPS"].field("qp_count").extract(await registers.read_register("CAPS"))
    for qpn, producer_index in ((caps, 1), (DUT_QPN + 1, 1), (DUT_QPN, (1 << SQ_LOG_SIZE) + 1)):
        await ports.ring("sq", qpn, producer_index)
    await ClockCycles(dut.clk, 200)
    events = await requester.tb.read_events()
    assert events["doorbells_rejected"] == 3 and events["requests_sent"] == 0, events

    # QP commits of another QP take the cycle too
    await rdma.stage_qp(registers, DUT_QPN + 1, PEER_QPN, PEER.mac, PEER.ip, DUT.udp_source_port, 0)
    doorbell, ctrl = rdma.BLOCK["SQ_DOORBELL"], rdma.BLOCK["QP_CTRL"]
    hammer = RegisterHammer(registers, [
        ("SQ_DOORBELL", doorbell.field("qpn").insert(doorbell.field("producer_index").insert(0, 1), caps)),
        ("QP_CTRL", ctrl.field("commit").insert(ctrl.field("valid").insert(0, 1), 1))])
    checked = await exchange_on(requester, rng, 30)
    # One request at a time: a port doorbell lost to a register doorbell would leave it undone
    for request, local in random_requests(rng, bytearray(LOCAL_BYTES), 40, requester.pmtu, 64, kinds=("write",)):
        requester.tb.memory.write(local, request.data)
        requester.completions = []
        await requester.run([(request, local)], limit_cycles=5_000)
        assert [(c.wr_id, c.status) for c in requester.completions] == [(request.wr_id, WcStatus.SUCCESS)]
    await hammer.stop()
    await ClockCycles(dut.clk, 20)
    events = await requester.tb.read_events()
    hammered = hammer.written["SQ_DOORBELL"]
    assert events["doorbells_rejected"] == 3 + hammered, f"{hammered} register doorbells hammered; {events}"
    assert ports.collisions > 0, "no port doorbell met a register doorbell: the test proves nothing about both"
    assert await requester.host.poll() == [], "an offloaded QP's completion reached the completion queue"
    assert await registers.read_register("CQ_PRODUCER") == 0
    dut._log.info("30 offloaded requests (%d bytes) complete on the port; %d doorbell collisions, %d hammered",
                  checked, ports.collisions, hammered)

    await rdma.offload_qps(registers, 0, 0)
    requester.ports = None
    requester.completions, requester.received = [], []
    await exchange_on(requester, rng, 5)
    assert ports.take() == []


@cocotb.test(timeout_time=150, timeout_unit="us")
async def an_offloaded_qp_sending_and_receiving_at_once_holds_each_completion_it_offers(dut):
    """A collective's QP sends and receives at once, so send and receive completions both wait at
    its completion port, here stalled nine cycles in ten. The engine takes them in turns, but one
    offered and not taken stays offered, unchanged, until the port takes it (EnginePorts.held): a
    completion of one kind arriving behind a waiting one of the other must not replace it. Eight
    rounds of 24 WRITEs and 24 SENDs from the peer: each completes once, in order within its kind,
    with its bytes."""
    rng = test_rng("offloaded both ways")
    ports = EnginePorts(dut, rng, stall=0.9)
    requester = Requester(dut, rng, ports=ports)
    peer_first_psn = rng.getrandbits(24)
    requester.new_peer(requester.first_psn, send_psn=peer_first_psn)
    await requester.set_up(peer_first_psn=peer_first_psn)
    messages = 24
    buffers = LOCAL_BASE + LOCAL_BYTES // 2
    for round_ in range(8):
        requester.completions, requester.received = [], []
        sent = []
        for index in range(messages):
            requester.host.place_receive(DUT_QPN, 0x500 + index, buffers + index * 256, 256)
            sent.append(rng.randbytes(rng.choice([0, 1, 8, 64, 200, 256])))
            requester.peer.post_send(WorkRequest.send(0x700 + index, sent[-1]))
        await ports.ring("rq", DUT_QPN, requester.host.receive_producer[DUT_QPN])
        work = random_requests(rng, bytearray(LOCAL_BYTES), messages, requester.pmtu, 128, kinds=("write",))
        for request, local in work:
            requester.tb.memory.write(local, request.data)
        completions = await requester.run(work, expect=2 * messages, limit_cycles=10_000)
        receives = [c for c in completions if c.opcode == WcOpcode.RECV]
        writes = [c for c in completions if c.opcode != WcOpcode.RECV]
        assert [(c.wr_id, c.status) for c in writes] == [(request.wr_id, WcStatus.SUCCESS) for request, _ in work], \
            f"round {round_}: WRITE completions"
        assert [(c.wr_id, c.status, c.byte_len) for c in receives] == \
            [(0x500 + index, WcStatus.SUCCESS, len(data)) for index, data in enumerate(sent)], \
            f"round {round_}: receive completions"
        for index, data in enumerate(sent):
            assert requester.tb.memory.read(buffers + index * 256, len(data)) == data, f"round {round_}: SEND {index}"
        for request, _ in work:
            assert requester.peer_memory.read(request.remote_address, request.length) == request.data, \
                f"round {round_}: WRITE {request.wr_id:#x}"
        assert [(r.wr_id, r.status) for r in requester.received] == \
            [(0x700 + index, CompletionStatus.SUCCESS) for index in range(messages)], f"round {round_}: the peer's SENDs"
    assert ports.held.waits > 0, "no completion waited at the port: the test proves nothing about held offers"
    dut._log.info("8 rounds of %d WRITEs and %d SENDs received, completing on the port; %d cycles an offer waited",
                  messages, messages, ports.held.waits)


@cocotb.test(timeout_time=200, timeout_unit="us")
async def a_full_completion_queue_is_never_overwritten(dut):
    """With the host not handing entries back, the engine stops at a full ring; once it does,
    every completion arrives, none lost or written twice."""
    rng = test_rng()
    requester = Requester(dut, rng)
    await requester.set_up()
    await requester.host.create_completion_queue(CQ_BASE, 2)  # four entries
    work = random_requests(rng, bytearray(LOCAL_BYTES), 10, 1024, 128, kinds=("write", "read"))
    for request, address in work:
        if request.opcode.name != "RDMA_READ":
            requester.tb.memory.write(address, request.data)
    for request, address in work:
        requester.host.place(DUT_QPN, request, address)
    await requester.host.ring(DUT_QPN)
    for _ in range(400):
        await requester.tb.step([requester.peer])
        await ClockCycles(dut.clk, LOOP_CYCLES)
    assert await requester.tb.registers.read_register("CQ_PRODUCER") == 4
    early = await requester.host.poll(hand_back=False)
    assert [c.wr_id for c in early] == [r.wr_id for r, _ in work[:4]]
    requester.completions = early
    await requester.tb.registers.write_register("CQ_CONSUMER", requester.host.consumer)
    await requester.run([], expect=10)
    await check_exactly_once(requester, work)


async def first_doorbell_write(dut, cycles: CycleCounter) -> int:
    """The cycle the first doorbell write lands (the register takes the value at that edge)."""
    while True:
        await RisingEdge(dut.clk)
        if dut.s_axil_awvalid.value == 1 and dut.s_axil_awready.value == 1 and int(dut.s_axil_awaddr.value) == 0xA0:
            return cycles.now


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def write_line_rate_and_doorbell_latency(dut):
    """Four 64 KiB WRITEs at PMTU 4096: TX beat utilisation over the burst from the engine's
    counters, and doorbell to first request beat with zero-wait memory."""
    rng = test_rng()
    requester = Requester(dut, rng, pmtu=4096)
    await requester.set_up()
    # One 64 KiB source buffer for all four (host memory is 128 KiB)
    data = rng.randbytes(65536)
    requester.tb.memory.write(0x10000, data)
    work = [(WorkRequest.write(index, data, PEER_BASE + index * 65536, PEER_RKEY), 0x10000) for index in range(4)]
    cycles = CycleCounter(dut.clk)
    monitor = HandshakeMonitor(dut, "m_axis_tx", cycles)
    doorbell = cocotb.start_soon(first_doorbell_write(dut, cycles))
    await requester.run(work)
    rung_at = doorbell.result()
    await check_exactly_once(requester, work)
    events = requester.tb.events
    latency = events["doorbell_latency_min"]
    dut._log.info("doorbell to first request beat: %d cycles (max %d over %d)", latency,
                  events["doorbell_latency_max"], events["doorbell_latency_count"])
    perf.check("rdma", "doorbell_latency", latency, monitor.first_beat_cycles[0] - rung_at, tolerance=2,
               context="zero-wait host memory, WQE fetch and payload read included")
    beats, span = events["tx_beats"], events["tx_span_cycles"]
    utilisation = beats / span
    monitored = len(monitor.beat_cycles) / monitor.active_cycles
    gaps = [first - last - 1 for first, last in zip(monitor.first_beat_cycles[1:], monitor.last_beat_cycles)]
    inside = monitor.active_cycles - len(monitor.beat_cycles) - sum(gaps)
    dut._log.info("idle cycles between frames %s, inside frames %d", [(i, g) for i, g in enumerate(gaps) if g > 1], inside)
    # Goodput at 250 MHz: payload bits over the span's time
    goodput = 4 * 65536 * 8 / (span * 4e-9) / 1e9
    dut._log.info("TX: %d beats over %d cycles = %.4f beats per clock (testbench %.4f); goodput %.1f Gb/s at "
                  "250 MHz", beats, span, utilisation, monitored, goodput)
    if int(dut.DATA_WIDTH.value) == 512:
        perf.check("rdma", "write_tx_utilisation", utilisation, monitored, tolerance=0.002,
                   context=f"goodput {goodput:.1f} Gb/s at 250 MHz")


@cocotb.test(timeout_time=1, timeout_unit="ms")
async def an_rnr_nak_is_waited_out_then_the_send_goes_through(dut):
    """The peer has no receive posted: it answers RNR NAK (timer code 1, 10 us); the engine waits
    that long, sends again, and once a receive is posted the SENDs complete. With rnr_retry 1 and
    no receive ever, the oldest request fails RNR_RETRY_EXC_ERR and the rest are flushed."""
    rng = test_rng()
    requester = Requester(dut, rng)
    await requester.set_up()
    work = random_requests(rng, bytearray(LOCAL_BYTES), 2, 1024, 200, kinds=("send",))
    for request, address in work:
        requester.tb.memory.write(address, request.data)
        requester.host.place(DUT_QPN, request, address)
    await requester.host.ring(DUT_QPN)
    # 0.01 ms is 2500 cycles: long enough for a few RNR rounds
    for _ in range(2000):
        await requester.tb.step([requester.peer])
        await ClockCycles(dut.clk, LOOP_CYCLES)
    events = await requester.tb.read_events()
    rnr_naks = requester.peer.counters.naks_sent[0x21]
    assert events["rnr_naks_received"] >= 2 and await requester.host.poll() == [], events
    # The engine waited each time, and no longer than it must: each resend of the first SEND leaves
    # the RNR timer's wait after the last, plus the NAK's round trip over the wire and the bench's
    # steps (a timer looked at late, as by a sweep over every QP, stretches the gap)
    assert rnr_naks <= 2000 * LOOP_CYCLES // 2500 + 1, rnr_naks
    wait_ns = RNR_TIMER_NS[requester.peer.config.min_rnr_timer]
    # two wire latencies, six bench steps (each hop waits for one) and 40 cycles of the engine's
    # own (taking the NAK in, the WQE and payload read out again): 944 ns
    round_trip_ns = (requester.tb.to_dut.config.latency_ns + requester.tb.from_dut.config.latency_ns
                     + 6 * LOOP_CYCLES * CLOCK_PERIOD_NS + 40 * CLOCK_PERIOD_NS)
    first = [when for when, packet in requester.tb.sent_times if packet.info.is_request
             and packet.bth.psn == requester.first_psn]
    gaps = [later - earlier for earlier, later in zip(first, first[1:])]
    assert len(gaps) >= 2 and all(wait_ns <= gap <= wait_ns + round_trip_ns for gap in gaps), \
        f"the first SEND left at {first} ns: gaps {gaps}, the RNR wait is {wait_ns} ns"
    for request, _ in work:
        requester.peer.post_recv(request.wr_id, 1024)
    await requester.run([], expect=2)
    await check_exactly_once(requester, work)

    requester.new_peer(0x2000)
    await requester.set_up(rnr_retry=1)
    work = random_requests(rng, bytearray(LOCAL_BYTES), 3, 1024, 100, kinds=("send",))
    for request, address in work:
        requester.tb.memory.write(address, request.data)
    await requester.run(work)
    assert [c.status for c in requester.completions] == \
        [WcStatus.RNR_RETRY_EXC_ERR, WcStatus.WR_FLUSH_ERR, WcStatus.WR_FLUSH_ERR], requester.completions


@cocotb.test(timeout_time=60, timeout_unit="us")
async def a_qp_set_up_again_completes_its_new_requests_with_their_own_fields(dut):
    """Eight WRITEs complete; the QP is set up again towards a fresh peer (its WQE indices start
    again at 0) and eight other WRITEs, with other wr_ids and lengths, are posted at the same ring
    entries. Each completes with its own wr_id and length: nothing the engine kept of the first
    WQEs at those indices (roce_sent_wqes) stands in for the new ones."""
    rng = test_rng("set up again")
    requester = Requester(dut, rng)
    await requester.set_up()
    for generation, (wr_base, length) in enumerate(((0x100, 64), (0x200, 24))):
        if generation:
            requester.new_peer(rng.getrandbits(24))
            await requester.set_up(reset=False)
        work = [(WorkRequest.write(wr_base + index, rng.randbytes(length + index), PEER_BASE + 0x100 * index, PEER_RKEY),
                 LOCAL_BASE + 0x100 * index) for index in range(8)]
        for request, local in work:
            requester.tb.memory.write(local, request.data)
        await requester.run(work)
        await check_exactly_once(requester, work)


@cocotb.test(timeout_time=60, timeout_unit="us")
async def two_qps_sending_at_once_each_complete_their_own_requests(dut):
    """Two of the engine's QPs, each to its own model peer, post 40 short WRITEs each at once. The
    requester interleaves them; every request completes once, in order on its own QP, with its
    own wr_id and length, and its bytes land at its own peer. The two QPs' WQEs share the
    requester's on-chip copy of the WQEs it sent (roce_sent_wqes), where they take each other's
    slots: each QP must find only its own."""
    rng = test_rng("two qps")
    requester = Requester(dut, rng)
    await requester.set_up()
    tb, host = requester.tb, requester.host
    second_qpn, second_peer_qpn = DUT_QPN + 1, PEER_QPN + 1
    second_endpoint = Endpoint("02:00:00:00:00:03", "10.0.0.3", 0xC022)
    second_psn = rng.getrandbits(24)
    await rdma.create_qp(tb.registers, second_qpn, second_peer_qpn, second_endpoint.mac, second_endpoint.ip, 0xC0DD, 0,
                         pmtu=requester.pmtu, send_psn=second_psn, sq_base=SECOND_SQ_BASE, sq_log_size=SQ_LOG_SIZE,
                         timeout=TIMEOUT_CODE)
    host.attach_send_queue(second_qpn, SECOND_SQ_BASE, SQ_LOG_SIZE)
    second_peer = QueuePair(QpConfig(second_peer_qpn, second_qpn, second_endpoint, DUT, pmtu=requester.pmtu,
                                     initial_expected_psn=second_psn))
    second_memory = second_peer.register_memory(PEER_RKEY, PEER_BASE, PEER_BYTES, Access.REMOTE_WRITE)
    work = {}
    for qpn, wr_base, local_base in ((DUT_QPN, 0x1000, LOCAL_BASE), (second_qpn, 0x2000, SECOND_LOCAL_BASE)):
        work[qpn] = [(WorkRequest.write(wr_base + index, rng.randbytes(rng.randint(1, 64)), PEER_BASE + 0x100 * index,
                                        PEER_RKEY), local_base + 0x100 * index) for index in range(40)]
        for request, local in work[qpn]:
            tb.memory.write(local, request.data)
            host.place(qpn, request, local)
        await host.ring(qpn)
    completions = []
    start = tb.cycle
    while len(completions) < 80:
        assert tb.cycle - start < 12_000, f"{len(completions)} of 80 completions"
        await tb.step([requester.peer, second_peer])
        completions += await host.poll()
        await ClockCycles(dut.clk, LOOP_CYCLES)
    for qpn, memory in ((DUT_QPN, requester.peer_memory), (second_qpn, second_memory)):
        own = [(c.wr_id, c.byte_len, c.status) for c in completions if c.qpn == qpn]
        assert own == [(request.wr_id, request.length, WcStatus.SUCCESS) for request, _ in work[qpn]], \
            f"QP {qpn:#x} completed {[hex(wr_id) for wr_id, _, _ in own]}"
        for request, _ in work[qpn]:
            assert memory.read(request.remote_address, request.length) == request.data, f"WRITE {request.wr_id:#x}"
