# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""rdma_responder against the spec-built Python RC requester (src/dpuv/models/roce_qp.py) over the Python
wire (src/dpuv/models/roce_wire.py): RDMA WRITE and READ land byte-exact in AXI memory, every work
request completes exactly once through loss, duplication, reordering and corruption, the
PSN rules hold (one NAK per gap), and bad keys, unknown QPs and unsupported requests are
answered as a real responder answers them."""

import random

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge

from dpuv.models.roce_packet import (BTH, NAK_INVALID_REQUEST, NAK_REMOTE_ACCESS_ERROR, RETH, Addressing, AtomicETH,
                                     Endpoint, MalformedFrame, Opcode, RocePacket, build_frame, ipv4_checksum,
                                     parse_frame, parse_frame_or_none, reseal_icrc)
from dpuv.models.roce_qp import CompletionStatus, QpConfig, QueuePair, WorkRequest
from dpuv.models.roce_wire import Impairment, LossyWire, WireConfig
from dpuv.drivers import rdma
from dpuv.harness import perf
from dpuv.drivers.rdma import WC_STATUS, WcOpcode, WcStatus
from dpuv.tb.testbench import pulse_reset, test_rng

from rdma_engine_bench import (ACK_TIMEOUT_CODE, DUT, DUT_QPN, LOOP_CYCLES, PEER, PEER_QPN, PMTU, RECEIVE_BUFFERS,
                               REGION_BASE, REGION_BYTES, RKEY, RQ_BASE, RQ_LOG_SIZE, TB, EnginePorts, RegisterHammer)

MAX_SENDS = (REGION_BASE - RECEIVE_BUFFERS) // (3 * PMTU)


def random_work(rng: random.Random, shadow: bytearray, count: int, disjoint: bool,
                max_length: int = 3 * PMTU) -> tuple[list[WorkRequest], dict[int, bytes], list[WorkRequest]]:
    """WRITEs and READs inside the region, and SENDs; what each READ must return, given the order.

    A READ that is retried is executed again, after any WRITE behind it that already landed
    (IBA: no fence, no guarantee), so on a lossy wire READs and WRITEs use separate halves."""
    requests, reads, sends = [], {}, []
    half = REGION_BYTES // 2
    for wr_id in range(count):
        length = min(max_length, rng.choice([0, 1, 3, 4, 63, 64, 65, PMTU - 1, PMTU, PMTU + 1, rng.randint(1, 3 * PMTU)]))
        if rng.random() < 0.2 and len(sends) < MAX_SENDS:
            sends.append(WorkRequest.send(wr_id, rng.randbytes(length), rng.choice([None, rng.getrandbits(32)])))
            requests.append(sends[-1])
            continue
        is_write = rng.random() < 0.6
        if disjoint:
            offset = rng.randrange(0, half - length + 1) + (0 if is_write else half)
        else:
            offset = rng.randrange(0, REGION_BYTES - length + 1)
        if is_write:
            data = rng.randbytes(length)
            requests.append(WorkRequest.write(wr_id, data, REGION_BASE + offset, RKEY))
            shadow[offset:offset + length] = data
        else:
            requests.append(WorkRequest.read(wr_id, REGION_BASE + offset, RKEY, length))
            reads[wr_id] = bytes(shadow[offset:offset + length])
    return requests, reads, sends


async def exchange(dut, tb: TB, rng: random.Random, count: int, first_psn: int, disjoint: bool = False,
                   max_length: int = 3 * PMTU):
    shadow = bytearray(tb.memory.read(REGION_BASE, REGION_BYTES))
    await tb.set_up(first_psn)
    peer = tb.requester(first_psn)
    requests, reads, sends = random_work(rng, shadow, count, disjoint, max_length)
    for index in range(len(sends)):
        await tb.host.post_receive(DUT_QPN, 0x100 + index, RECEIVE_BUFFERS + index * 3 * PMTU, 3 * PMTU)
    for request in requests:
        peer.post_send(request)
    completions = await tb.run(peer, len(requests))
    assert sorted(c.wr_id for c in completions) == list(range(count)), "a work request completed twice or never"
    for completion in completions:
        assert completion.status is CompletionStatus.SUCCESS, completion
        if completion.wr_id in reads:
            assert completion.data == reads[completion.wr_id], f"READ {completion.wr_id} returned other bytes"
    assert tb.memory.read(REGION_BASE, REGION_BYTES) == bytes(shadow), "memory differs from the WRITEs"
    # Every SEND landed once, in order, in the receive posted for it
    received = await tb.host.poll()
    assert [c.wr_id for c in received] == [0x100 + index for index in range(len(sends))], received
    for index, (completion, send) in enumerate(zip(received, sends)):
        assert (completion.status, completion.opcode) == (WcStatus.SUCCESS, WcOpcode.RECV), completion
        assert (completion.byte_len, completion.immediate) == (len(send.data), send.imm), completion
        assert tb.memory.read(RECEIVE_BUFFERS + index * 3 * PMTU, len(send.data)) == send.data, f"SEND {send.wr_id}"
    moved = sum(request.length for request in requests)
    dut._log.info("%d work requests (%d bytes) complete in %d cycles; events %s", count, moved, tb.cycle, tb.events)
    return peer


@cocotb.test(timeout_time=100, timeout_unit="us")
async def writes_and_reads_on_a_clean_wire(dut):
    rng = test_rng("clean")
    tb = TB(dut, rng, backpressure=0.2)
    await tb.reset()
    await exchange(dut, tb, rng, 40, first_psn=rng.getrandbits(24))
    assert tb.events["naks_sent"] == 0 and (tb.events["drops_icrc"] + tb.events["drops_malformed"]) == 0, tb.events


@cocotb.test(timeout_time=50, timeout_unit="us")
async def the_psn_wraps_across_2_to_the_24(dut):
    rng = test_rng("wrap")
    tb = TB(dut, rng)
    await tb.reset()
    await exchange(dut, tb, rng, 12, first_psn=(1 << 24) - 5)


@cocotb.test(timeout_time=1, timeout_unit="ms")
@cocotb.parametrize(loss=(0.001, 0.01, 0.1), burst=(1, 4))
async def every_request_completes_once_through_a_lossy_wire(dut, loss, burst):
    """Each case draws its own seed from the run's seed. Losses come single or in bursts of four at
    the same average rate; a tenth as many frames are corrupted. At 10 % (11 % of frames lost or
    spoiled) a one-packet message and its answer get through one try with probability 0.79, and
    the requester gives up after 8 tries (IBA's 3-bit retry count): messages stay within one PMTU
    there, so a legitimate RETRY_EXCEEDED has odds of about 4e-6 per message (that outcome has
    its own test: the unknown-QP one)."""
    rng = test_rng("lossy", loss, burst)
    wire = WireConfig(latency_ns=200, drop=Impairment(loss / burst, burst), duplicate=Impairment(loss / 2),
                      reorder=Impairment(loss / 2), corrupt=Impairment(loss / 10), reorder_delay_ns=2000)
    tb = TB(dut, rng, wire)
    await tb.reset()
    await exchange(dut, tb, rng, 30, first_psn=rng.getrandbits(24), disjoint=True,
                   max_length=PMTU if loss >= 0.1 else 3 * PMTU)
    # Every spoiled frame the wire handed over is dropped and counted as bad, each copy once. (The
    # wire's own count of frames it spoiled is no measure: a copy still in flight when the last
    # completion arrives, reordered or duplicated, never reaches the engine.)
    await tb.settle()
    impaired = tb.to_dut.counters
    bad = tb.events["drops_icrc"] + tb.events["drops_malformed"]
    assert bad == tb.delivered_malformed(), (tb.events, impaired)
    # A frame the wire delivered twice arrives a second time either after its first copy (a
    # duplicate) or ahead of a gap (a sequence drop): seen either way. (A dropped frame need not
    # show: resent as the last in flight, it arrives in order. Whether the wire doubled one at all
    # is chance, 1 - 0.94^30 at 10 %, so the check follows the wire rather than the rate.)
    if impaired["duplicated"]:
        assert tb.events["sequence_drops"] + tb.events["duplicates"] > 0, (tb.events, impaired)
    # one NAK per gap, then silence until the expected PSN arrives: no ePSN is NAKed twice
    assert len(set(tb.sequence_naks)) == len(tb.sequence_naks), f"repeated sequence NAKs: {tb.sequence_naks}"


@cocotb.test(timeout_time=20, timeout_unit="us")
async def a_bad_key_is_nakked_and_the_qp_stops(dut):
    rng = test_rng("key")
    tb = TB(dut, rng)
    await tb.reset()
    await tb.set_up(100)
    peer = tb.requester(100)
    peer.post_send(WorkRequest.write(1, b"fine", REGION_BASE, RKEY))
    peer.post_send(WorkRequest.write(2, b"wrong key", REGION_BASE + 64, RKEY ^ 0x100))
    peer.post_send(WorkRequest.read(3, REGION_BASE + REGION_BYTES - 4, RKEY, 8))  # past the region's end
    completions = await tb.run(peer, 3)
    statuses = {c.wr_id: c.status for c in completions}
    assert statuses[1] is CompletionStatus.SUCCESS
    assert statuses[2] is CompletionStatus.REMOTE_ACCESS_ERROR, statuses
    assert statuses[3] is not CompletionStatus.SUCCESS, statuses
    assert tb.events["access_errors"] == 1, tb.events
    assert tb.memory.read(REGION_BASE + 64, 9) != b"wrong key"


@cocotb.test(timeout_time=40, timeout_unit="us")
async def a_region_s_access_rights_are_enforced(dut):
    """A region registered without remote write refuses a WRITE, and one without remote read a
    READ, each with NAK remote access error (IBA 9.7.5.2.8): the model requester completes it
    REMOTE_ACCESS_ERROR, the bytes stay as they were, and the access each region does allow
    works. One QP per violation, since a remote access error ends its QP at the requester."""
    rng = test_rng("access-rights")
    tb = TB(dut, rng)
    await tb.reset()
    await tb.set_up(0)
    await rdma.create_qp(tb.registers, DUT_QPN + 1, PEER_QPN + 1, PEER.mac, PEER.ip, DUT.udp_source_port, 0,
                         pmtu=PMTU)
    read_only, write_only = (RKEY & ~0xF) | 2, (RKEY & ~0xF) | 3
    read_only_base, write_only_base = REGION_BASE + 0x8000, REGION_BASE + 0x9000
    await rdma.register_region(tb.registers, read_only, read_only_base, 0x1000, remote_write=False)
    await rdma.register_region(tb.registers, write_only, write_only_base, 0x1000, remote_read=False)
    kept = tb.memory.read(read_only_base, 64)
    data = rng.randbytes(64)
    peers = [QueuePair(QpConfig(PEER_QPN + index, DUT_QPN + index, PEER, DUT, pmtu=PMTU,
                                local_ack_timeout=ACK_TIMEOUT_CODE)) for index in range(2)]
    peers[0].post_send(WorkRequest.read(1, read_only_base, read_only, 64))
    peers[0].post_send(WorkRequest.write(2, rng.randbytes(64), read_only_base, read_only))
    peers[1].post_send(WorkRequest.write(3, data, write_only_base, write_only))
    peers[1].post_send(WorkRequest.read(4, write_only_base, write_only, 64))
    completions = await tb.run_peers(peers, [2, 2])
    statuses = {c.wr_id: c.status for done in completions for c in done}
    assert statuses == {1: CompletionStatus.SUCCESS, 2: CompletionStatus.REMOTE_ACCESS_ERROR,
                        3: CompletionStatus.SUCCESS, 4: CompletionStatus.REMOTE_ACCESS_ERROR}, statuses
    [read] = [c for c in completions[0] if c.wr_id == 1]
    assert read.data == kept, "the READ of the read-only region returned other bytes"
    assert tb.memory.read(read_only_base, 64) == kept, "a WRITE landed in a region without remote write"
    assert tb.memory.read(write_only_base, 64) == data
    assert tb.events["access_errors"] == 2, tb.events


@cocotb.test(timeout_time=500, timeout_unit="us")
async def unknown_qps_are_dropped_and_counted(dut):
    rng = test_rng("refused")
    tb = TB(dut, rng)
    await tb.reset()
    await tb.set_up(0)
    stranger = QueuePair(QpConfig(PEER_QPN, 0x77, PEER, DUT, pmtu=PMTU, local_ack_timeout=ACK_TIMEOUT_CODE,
                                  retry_count=1))
    stranger.post_send(WorkRequest.write(1, b"hello", REGION_BASE, RKEY))
    completions = await tb.run(stranger, 1, limit_cycles=400_000)
    assert completions[0].status is CompletionStatus.RETRY_EXCEEDED, completions
    assert tb.events["unknown_qp_drops"] >= 1 and tb.events["acks_sent"] == 0, tb.events


@cocotb.test(timeout_time=60, timeout_unit="us")
async def a_qp_commit_past_the_qps_or_with_no_path_mtu_is_refused(dut):
    """QP_TRANSPORT.pmtu_code 5, 6 and 7 name no path MTU, and QP_INDEX past CAPS.qp_count no QP:
    each commit is refused (STATUS.qp_refused, the driver raises QpRefused) and changes nothing, so
    a WRITE to that QP is dropped as for an unknown QP; the next legal commit clears the flag and
    the QP works."""
    rng = test_rng("refused commits")
    tb = TB(dut, rng)
    await tb.reset()
    await rdma.set_up(tb.registers, DUT.mac, DUT.ip, PMTU)
    await rdma.register_region(tb.registers, RKEY, REGION_BASE, REGION_BYTES)
    transport = rdma.BLOCK["QP_TRANSPORT"]
    qp_count = rdma.BLOCK["CAPS"].field("qp_count").extract(await tb.registers.read_register("CAPS"))
    for code in (5, 6, 7):
        await rdma.stage_qp(tb.registers, DUT_QPN, PEER_QPN, PEER.mac, PEER.ip, DUT.udp_source_port, 0, pmtu=PMTU)
        value = await tb.registers.read_register("QP_TRANSPORT")
        await tb.registers.write_register("QP_TRANSPORT", transport.field("pmtu_code").insert(value, code))
        try:
            await rdma.commit_qp(tb.registers)
        except rdma.QpRefused as refusal:
            dut._log.info("PMTU code %d: %s", code, refusal)
        else:
            raise AssertionError(f"a commit with PMTU code {code} was taken")
    await rdma.stage_qp(tb.registers, qp_count, PEER_QPN, PEER.mac, PEER.ip, DUT.udp_source_port, 0, pmtu=PMTU)
    try:
        await rdma.commit_qp(tb.registers)
    except rdma.QpRefused:
        pass
    else:
        raise AssertionError(f"a commit to QP {qp_count}, past the engine's {qp_count}, was taken")
    # None of them set DUT_QPN up: a WRITE to it is an unknown QP's, dropped and never answered
    stranger = tb.requester(0)
    stranger.post_send(WorkRequest.write(0, rng.randbytes(64), REGION_BASE, RKEY))
    sent = await tb.play(stranger.poll(0), settle_cycles=200)
    events = await tb.read_events()
    assert sent == [] and events["unknown_qp_drops"] == 1, events
    # A legal commit is taken and clears the flag
    await rdma.create_qp(tb.registers, DUT_QPN, PEER_QPN, PEER.mac, PEER.ip, DUT.udp_source_port, 0, pmtu=PMTU)
    assert not rdma.BLOCK["STATUS"].field("qp_refused").extract(await tb.registers.read_register("STATUS"))
    peer = tb.requester(0)
    data = rng.randbytes(100)
    peer.post_send(WorkRequest.write(7, data, REGION_BASE, RKEY))
    completions = await tb.run(peer, 1)
    assert [(c.wr_id, c.status) for c in completions] == [(7, CompletionStatus.SUCCESS)], completions
    assert tb.memory.read(REGION_BASE, len(data)) == data


@cocotb.test(timeout_time=200, timeout_unit="us")
async def sends_land_in_posted_receives(dut):
    """SEND (one and several packets, empty, with immediate) and WRITE with immediate from the
    model requester: with no receive posted the engine answers RNR NAK and executes nothing; once
    receives are posted every message lands in its buffer, and its receive completes with the
    length and immediate. A SEND longer than its buffer fails its receive with LOC_LEN_ERR and
    the requester with invalid request."""
    rng = test_rng("sends")
    tb = TB(dut, rng)
    await tb.reset()
    await tb.set_up(0)
    peer = tb.requester(0)
    messages = [rng.randbytes(length) for length in (17, 0, PMTU, 3 * PMTU - 5, 64)]
    immediates = [None, 0x0BADF00D, None, 0x12345678, None]
    for wr_id, (data, imm) in enumerate(zip(messages, immediates)):
        peer.post_send(WorkRequest.send(wr_id, data, imm))
    peer.post_send(WorkRequest.write(len(messages), b"w" * 100, REGION_BASE, RKEY, imm=0xCAFE))
    # No receive yet: RNR NAKs only, and the peer waits and tries again
    for _ in range(200):
        await tb.step([peer])
        await ClockCycles(dut.clk, LOOP_CYCLES)
    assert peer.take_completions() == []
    events = await tb.read_events()
    assert events["rnr_naks_sent"] >= 1 and events["acks_sent"] == 0, events
    buffers = [RECEIVE_BUFFERS + index * 4 * PMTU for index in range(len(messages) + 1)]
    for wr_id, address in enumerate(buffers):
        await tb.host.post_receive(DUT_QPN, 0x100 + wr_id, address, 3 * PMTU)
    completions = await tb.run(peer, len(messages) + 1)
    assert all(c.status is CompletionStatus.SUCCESS for c in completions), completions
    received = await tb.host.poll()
    assert [c.wr_id for c in received] == [0x100 + index for index in range(len(messages) + 1)]
    for completion, data, imm, address in zip(received, messages, immediates, buffers):
        assert (completion.status, completion.opcode) == (WcStatus.SUCCESS, WcOpcode.RECV)
        assert completion.byte_len == len(data) and completion.immediate == imm and completion.qpn == DUT_QPN
        assert tb.memory.read(address, len(data)) == data, f"SEND {completion.wr_id:#x} bytes"
    write_imm = received[-1]
    assert (write_imm.opcode, write_imm.byte_len, write_imm.immediate) == (WcOpcode.RECV_RDMA_WITH_IMM, 100, 0xCAFE)
    assert tb.memory.read(REGION_BASE, 100) == b"w" * 100
    # Longer than the buffer posted for it
    await tb.host.post_receive(DUT_QPN, 0x200, RECEIVE_BUFFERS, 10)
    peer.post_send(WorkRequest.send(99, rng.randbytes(11)))
    completions = await tb.run(peer, 1)
    assert completions[0].status is CompletionStatus.REMOTE_INVALID_REQUEST, completions
    failed = await tb.host.poll()
    assert [(c.wr_id, c.status) for c in failed] == [(0x200, WcStatus.LOC_LEN_ERR)]


@cocotb.test(timeout_time=75, timeout_unit="us")
async def a_requester_out_of_rnr_retries_gives_up_and_nothing_ran(dut):
    """A peer with RNR retry 1 SENDs with no receive posted: the engine answers each try with an
    RNR NAK, and the peer completes RNR_RETRY_EXC_ERR after its second (IBA 9.7.5.2.8: the RNR
    retry count bounds the tries). The engine executed nothing: no ACK, no receive consumed. A
    requester reconnected at the same PSN (what verbs does after the QP's error) then delivers
    the SEND into the receive posted since."""
    rng = test_rng("rnr-retries")
    tb = TB(dut, rng)
    await tb.reset()
    await tb.set_up(0)
    impatient = QueuePair(QpConfig(PEER_QPN, DUT_QPN, PEER, DUT, pmtu=PMTU, local_ack_timeout=ACK_TIMEOUT_CODE,
                                   rnr_retry=1))
    impatient.post_send(WorkRequest.send(1, rng.randbytes(40)))
    [given_up] = await tb.run(impatient, 1, limit_cycles=100_000)
    assert given_up.status is CompletionStatus.RNR_RETRY_EXCEEDED, given_up
    assert tb.events["rnr_naks_sent"] == 2 and tb.events["acks_sent"] == 0, tb.events
    assert await tb.host.poll() == []
    await tb.host.post_receive(DUT_QPN, 0x300, RECEIVE_BUFFERS, 64)
    data = rng.randbytes(40)
    again = tb.requester(0)
    again.post_send(WorkRequest.send(2, data))
    [delivered] = await tb.run(again, 1)
    assert delivered.status is CompletionStatus.SUCCESS, delivered
    [received] = await tb.host.poll()
    assert (received.wr_id, received.status, received.byte_len) == (0x300, WcStatus.SUCCESS, len(data))
    assert tb.memory.read(RECEIVE_BUFFERS, len(data)) == data


@cocotb.test(timeout_time=100, timeout_unit="us")
async def ack_latency_from_the_request_s_last_beat(dut):
    """Cycles from a WRITE ONLY's last beat into the engine to its ACK's first beat out: the
    frame's ICRC check, the payload's DMA write and the write response of a zero-wait memory
    (cocotbext-axi's RAM answers the burst in the cycles after its last beat) all count."""
    rng = test_rng("latency")
    tb = TB(dut, rng)
    await tb.reset()
    await tb.set_up(0)
    peer = tb.requester(0)
    request_ends, ack_starts = [], []

    async def watch():
        mid_ack = False
        while True:
            await RisingEdge(dut.clk)
            if dut.s_axis_rx_tvalid.value == 1 and dut.s_axis_rx_tlast.value == 1:
                request_ends.append(tb.cycle)
            if dut.m_axis_tx_tvalid.value == 1 and dut.m_axis_tx_tready.value == 1:
                if not mid_ack:
                    ack_starts.append(tb.cycle)
                mid_ack = dut.m_axis_tx_tlast.value != 1

    watcher = cocotb.start_soon(watch())
    latencies, engine_latencies = {}, {}
    for length in (0, 8, 64, 256):
        request_ends.clear()
        ack_starts.clear()
        before = (await tb.read_events())["ack_latency_sum"]
        peer.post_send(WorkRequest.write(length, rng.randbytes(length), REGION_BASE, RKEY))
        completions = await tb.run(peer, 1)
        assert completions[0].status is CompletionStatus.SUCCESS
        assert len(request_ends) == 1 and len(ack_starts) == 1, (request_ends, ack_starts)
        latencies[length] = ack_starts[0] - request_ends[0]
        engine_latencies[length] = tb.events["ack_latency_sum"] - before
    watcher.cancel()
    perf.check("rdma", "ack_latency", engine_latencies[64], latencies[64], tolerance=2,
               context=f"DATA_WIDTH={len(dut.s_axis_rx_tdata)}, 64-byte WRITE")
    counters = await tb.read_events()
    dut._log.info("RX last beat to ACK first beat, cycles by WRITE payload bytes: %s; the engine's counters: "
                  "min %d max %d sum %d count %d", latencies, counters["ack_latency_min"], counters["ack_latency_max"],
                  counters["ack_latency_sum"], counters["ack_latency_count"])
    # the engine starts its clock at the parser's verdict on the last beat, a fixed step after it
    assert counters["ack_latency_count"] == len(latencies)
    offset = min(latencies.values()) - counters["ack_latency_min"]
    assert 0 <= offset <= 2, f"engine min {counters['ack_latency_min']} vs testbench {min(latencies.values())}"
    assert max(latencies.values()) - counters["ack_latency_max"] == offset
    assert sum(latencies.values()) - counters["ack_latency_sum"] == offset * len(latencies)
    write_beats = {length: -(-length // (len(dut.s_axis_rx_tdata) // 8)) for length in latencies}
    for length, cycles in latencies.items():
        # the responder's own share: what is left once the payload's beats into memory are paid
        assert cycles - write_beats[length] <= 32, f"{cycles} cycles for {length} bytes: over 32 beyond the data"



@cocotb.test(timeout_time=200, timeout_unit="us")
async def three_qps_interleaved_with_malformed_frames(dut):
    """Each QP keeps its own PSNs, key and memory; frames the parser must drop (bad ICRC,
    truncated, wrong port, a BTH transport version other than 0, a reserved opcode, an IP length
    that is not the frame's, a pad count over the payload, unknown QP) slipped between theirs change nothing, and each is
    counted by the cause the model's parser gives it."""
    rng = test_rng("three")
    tb = TB(dut, rng, WireConfig(latency_ns=200, drop=Impairment(0.02), reorder=Impairment(0.02)))
    await tb.reset()
    await rdma.set_up(tb.registers, DUT.mac, DUT.ip, PMTU)
    peers, shadows, expected, slice_bytes = [], [], [], REGION_BYTES // 4
    for index in range(3):
        dut_qpn, peer_qpn, rkey = DUT_QPN + index, PEER_QPN + index, (RKEY & ~0xF) | (index + 1)
        base = REGION_BASE + index * slice_bytes
        first_psn = rng.getrandbits(24)
        await rdma.create_qp(tb.registers, dut_qpn, peer_qpn, PEER.mac, PEER.ip, DUT.udp_source_port, first_psn,
                                    pmtu=PMTU)
        await rdma.register_region(tb.registers, rkey, base, slice_bytes)
        peer = QueuePair(QpConfig(peer_qpn, dut_qpn, PEER, DUT, pmtu=PMTU, initial_send_psn=first_psn,
                                  local_ack_timeout=ACK_TIMEOUT_CODE))
        shadow = bytearray(tb.memory.read(base, slice_bytes))
        count = 10
        for wr_id in range(count):
            length = rng.randint(0, 2 * PMTU)
            offset = rng.randrange(0, slice_bytes - length + 1)
            data = rng.randbytes(length)
            peer.post_send(WorkRequest.write(wr_id, data, base + offset, rkey))
            shadow[offset:offset + length] = data
        peers.append(peer)
        shadows.append((base, shadow))
        expected.append(count)
    stranger_qpn = 0x55  # no QP of that number exists in the engine
    good = QueuePair(QpConfig(0x999, stranger_qpn, PEER, DUT, pmtu=PMTU))
    good.post_send(WorkRequest.write(0, b"x" * 100, REGION_BASE, RKEY))
    template = good.poll(0)[0]
    bad_icrc = template[:-5] + bytes([template[-5] ^ 1]) + template[-4:]  # payload bit flipped
    truncated = template[:40]
    other_port = template[:36] + b"\x12\xb8" + template[38:]              # UDP port 4792
    bad_version = reseal_icrc(template[:43] + bytes([template[43] & 0xF0 | 1]) + template[44:])  # BTH TVer 1
    reserved_opcode = reseal_icrc(template[:42] + bytes([0x1F]) + template[43:])   # not an RC opcode
    long_ip_length = reseal_icrc(with_ip_total_length(template, int.from_bytes(template[16:18], "big") + 4))
    empty = build_frame(RocePacket(Addressing.between(PEER, DUT), BTH(Opcode.RDMA_WRITE_ONLY, stranger_qpn, 0),
                                   reth=RETH(REGION_BASE, RKEY, 0)))
    pad_over_payload = reseal_icrc(empty[:43] + bytes([empty[43] & 0xCF | 1 << 4]) + empty[44:])  # pad 1 of 0 bytes
    malformed = {"icrc": bad_icrc, "truncated": truncated, "port": other_port, "version": bad_version,
                 "opcode": reserved_opcode, "ip_length": long_ip_length, "pad": pad_over_payload}
    junk = [*malformed.values(), template] * 4                              # template: for a QP that does not exist
    results = await tb.run_peers(peers, expected, junk=junk)
    for peer_completions, (base, shadow) in zip(results, shadows):
        assert sorted(c.wr_id for c in peer_completions) == list(range(10))
        assert all(c.status is CompletionStatus.SUCCESS for c in peer_completions), peer_completions
        assert tb.memory.read(base, len(shadow)) == bytes(shadow), f"region at {base:#x} differs"
    # The last frames handed over may still be on their way through the receive path
    await ClockCycles(dut.clk, 200)
    events = await tb.read_events()
    dut._log.info("three QPs done; counters %s", events)
    # The wire drops 2 % of every kind too: each junk frame it delivered is dropped and counted by its cause
    arrived = {kind: tb.delivered.count(frame) for kind, frame in malformed.items()}
    causes = {kind: model_drop_cause(frame) for kind, frame in malformed.items()}
    assert causes["icrc"] == "bad_icrc" and "bad_icrc" not in [cause for kind, cause in causes.items() if kind != "icrc"]
    assert (events["drops_icrc"], events["drops_malformed"], events["unknown_qp_drops"]) == \
        (arrived["icrc"], sum(arrived.values()) - arrived["icrc"], tb.delivered.count(template)), \
        (events, arrived, causes)
    assert sum(arrived.values()) >= 21, f"the wire delivered too few junk frames to test anything: {arrived}"


def with_ip_total_length(frame: bytes, total_length: int) -> bytes:
    """The frame with another IPv4 total length and the header checksum made right for it, so
    that only the lengths disagree (the UDP length, and the frame's own)."""
    header = bytearray(frame[14:34])
    header[2:4] = total_length.to_bytes(2, "big")
    header[10:12] = bytes(2)
    header[10:12] = ipv4_checksum(bytes(header)).to_bytes(2, "big")
    return frame[:14] + bytes(header) + frame[34:]


def model_drop_cause(frame: bytes) -> str | None:
    """Why the model's parser rejects the frame (a MalformedCause value), or None if it takes it."""
    try:
        parse_frame(frame, PMTU)
    except MalformedFrame as error:
        return error.cause.value
    return None


# P_Keys for the partition tests: bit 15 is full membership, bits 14:0 the partition
LIMITED_PARTITION_0x123 = 0x0123
FULL_PARTITION_0x123 = 0x8123
LIMITED_PARTITION_0x456 = 0x0456
# Where a frame the engine should have dropped would write (inside the region, so a WRITE that got
# through would land there): nothing else writes it
CANARY_OFFSET = REGION_BYTES // 2


def random_writes(rng: random.Random, shadow: bytearray, slice_offset: int, slice_bytes: int,
                  count: int, rkey: int = RKEY, base: int = REGION_BASE, max_length: int = 2 * PMTU) -> list[WorkRequest]:
    """WRITEs of up to `max_length` bytes into one slice of the region at `base` (its key
    `rkey`), mirrored in `shadow` (the region's bytes from `base`)."""
    requests = []
    for wr_id in range(count):
        length = rng.randint(0, max_length)
        offset = slice_offset + rng.randrange(0, slice_bytes - length + 1)
        data = rng.randbytes(length)
        requests.append(WorkRequest.write(wr_id, data, base + offset, rkey))
        shadow[offset:offset + length] = data
    return requests


def check_completions(completions, count: int) -> None:
    assert sorted(c.wr_id for c in completions) == list(range(count)), "a work request completed twice or never"
    assert all(c.status is CompletionStatus.SUCCESS for c in completions), completions


@cocotb.test(timeout_time=90, timeout_unit="us")
async def frames_for_other_addresses_or_partitions_are_dropped_and_counted(dut):
    """The engine is 10.0.0.1 in partitions 0x7FFF (full, the default 0xFFFF), 0x456 (limited)
    and 0x123 (full). Two peers write: one in the default partition, one a limited member of
    0x123 (its P_Key matches table entry 2, a full one). Between their frames come WRITEs that copy
    the first peer's QP numbers and PSNs, so each would execute if the engine took it, but are
    for another IPv4 address, or carry a P_Key of no partition of the engine's, of 0x456 (limited
    to limited), or 0x8000 (the invalid partition, which the empty entries must not match), or
    both wrong. Each is dropped and counted once by its cause (a wrong address first); nothing is
    answered, no PSN moves, the canary is never written, and every real WRITE lands once."""
    rng = test_rng("isolation")
    tb = TB(dut, rng)
    await tb.reset()
    first_psn = rng.getrandbits(24)
    await tb.set_up(first_psn)
    await rdma.set_pkey_table(tb.registers, (rdma.DEFAULT_PKEY, LIMITED_PARTITION_0x456, FULL_PARTITION_0x123))
    limited_qpn, limited_peer_qpn = DUT_QPN + 1, PEER_QPN + 1
    await rdma.create_qp(tb.registers, limited_qpn, limited_peer_qpn, PEER.mac, PEER.ip, DUT.udp_source_port,
                         first_psn, pmtu=PMTU)
    default_member = tb.requester(first_psn)
    limited_member = QueuePair(QpConfig(limited_peer_qpn, limited_qpn, PEER, DUT, pmtu=PMTU,
                                        initial_send_psn=first_psn, local_ack_timeout=ACK_TIMEOUT_CODE,
                                        pkey=LIMITED_PARTITION_0x123))
    shadow = bytearray(tb.memory.read(REGION_BASE, REGION_BYTES))
    quarter, count = REGION_BYTES // 4, 12
    for peer, slice_offset in ((default_member, 0), (limited_member, quarter)):
        for request in random_writes(rng, shadow, slice_offset, quarter, count):
            peer.post_send(request)

    canary = rng.randbytes(64)
    other_host = Endpoint(DUT.mac, "10.0.0.9", DUT.udp_source_port)

    def impostor(destination: Endpoint, pkey: int) -> bytes:
        """A WRITE ONLY with the default member's QPs and first PSN: it would execute at once."""
        qp = QueuePair(QpConfig(PEER_QPN, DUT_QPN, PEER, destination, pmtu=PMTU, initial_send_psn=first_psn,
                                pkey=pkey))
        qp.post_send(WorkRequest.write(0, canary, REGION_BASE + CANARY_OFFSET, RKEY))
        return qp.poll(0)[0]

    impostors = {"wrong_address": impostor(other_host, rdma.DEFAULT_PKEY),
                 "unknown_partition": impostor(DUT, 0x8777),
                 "limited_to_limited": impostor(DUT, LIMITED_PARTITION_0x456),
                 "invalid_partition": impostor(DUT, 0x8000),
                 "wrong_address_and_partition": impostor(other_host, 0x8777)}
    junk = [frame for frame in impostors.values() for _ in range(3)]
    rng.shuffle(junk)
    results = await tb.run_peers([default_member, limited_member], [count, count], junk=junk)
    for completions in results:
        check_completions(completions, count)
    assert tb.memory.read(REGION_BASE + CANARY_OFFSET, len(canary)) != canary, "a dropped frame was executed"
    assert tb.memory.read(REGION_BASE, REGION_BYTES) == bytes(shadow), "memory differs from the WRITEs"

    arrived = {kind: tb.delivered.count(frame) for kind, frame in impostors.items()}
    assert arrived == {kind: 3 for kind in impostors}, f"not every impostor reached the engine: {arrived}"
    events = tb.events
    dut._log.info("impostors %s; counters %s", arrived, events)
    assert events["drops_wrong_address"] == arrived["wrong_address"] + arrived["wrong_address_and_partition"], events
    assert events["drops_pkey"] == (arrived["unknown_partition"] + arrived["limited_to_limited"]
                                    + arrived["invalid_partition"]), events
    # Dropped before any QP saw them: no NAK, no PSN out of order, nothing taken for a duplicate
    # (on this clean wire neither peer ever had to send a packet twice)
    assert not default_member.counters.retries and not limited_member.counters.retries
    assert (events["naks_sent"], events["sequence_drops"], events["duplicates"], events["drops_icrc"],
            events["drops_malformed"], events["unknown_qp_drops"]) == (0, 0, 0, 0, 0, 0), events
    assert {packet.bth.pkey for packet in tb.sent} == {rdma.DEFAULT_PKEY}, "the engine answers with table entry 0"


@cocotb.test(timeout_time=35, timeout_unit="us")
async def a_limited_member_talks_to_a_full_member(dut):
    """The engine a limited member of partition 0x123 (its only table entry, so every frame it
    sends carries 0x0123), the peer a full member: IBA lets them talk, one side being full, so
    every WRITE and READ completes and nothing is dropped for its P_Key."""
    rng = test_rng("limited")
    tb = TB(dut, rng)
    await tb.reset()
    await tb.set_up(0)
    await rdma.set_pkey_table(tb.registers, (LIMITED_PARTITION_0x123,))
    peer = tb.requester(0, pkey=FULL_PARTITION_0x123)
    shadow = bytearray(tb.memory.read(REGION_BASE, REGION_BYTES))
    requests = random_writes(rng, shadow, 0, REGION_BYTES // 2, 6)
    read_offset = REGION_BYTES // 2
    requests.append(WorkRequest.read(len(requests), REGION_BASE + read_offset, RKEY, PMTU + 5))
    for request in requests:
        peer.post_send(request)
    completions = await tb.run(peer, len(requests))
    check_completions(completions, len(requests))
    read = {c.wr_id: c for c in completions}[requests[-1].wr_id]
    assert read.data == bytes(shadow[read_offset:read_offset + PMTU + 5]), "READ returned other bytes"
    assert tb.memory.read(REGION_BASE, REGION_BYTES) == bytes(shadow), "memory differs from the WRITEs"
    assert (tb.events["drops_pkey"], tb.events["drops_wrong_address"]) == (0, 0), tb.events
    assert {packet.bth.pkey for packet in tb.sent} == {LIMITED_PARTITION_0x123}, "the engine sends table entry 0"


def request_frame(opcode: Opcode, psn: int, payload: bytes = b"", reth: RETH | None = None,
                  ack_req: bool = False) -> bytes:
    """A request from the peer's QP to the engine's, as the peer would build it."""
    return build_frame(RocePacket(Addressing.between(PEER, DUT), BTH(opcode, DUT_QPN, psn, ack_req=ack_req),
                                  reth=reth, payload=payload))


def atomic_frame(opcode: Opcode, psn: int, address: int, rkey: int, swap_or_add: int, compare: int = 0) -> bytes:
    """COMPARE_SWAP or FETCH_ADD: BTH, then the AtomicETH, no payload."""
    return build_frame(RocePacket(Addressing.between(PEER, DUT), BTH(opcode, DUT_QPN, psn),
                                  atomic_eth=AtomicETH(address, rkey, swap_or_add, compare)))


RECEIVES_POSTED = 3
SEQUENCE_CASE_CYCLES = 3000


def message_openers(psn: int) -> dict[str, bytes]:
    """The FIRST packets that open a message of several packets (the SEND takes a receive)."""
    return {"SEND_FIRST": request_frame(Opcode.SEND_FIRST, psn, bytes(PMTU)),
            "WRITE_FIRST": request_frame(Opcode.RDMA_WRITE_FIRST, psn, bytes(PMTU),
                                         RETH(REGION_BASE, RKEY, 3 * PMTU))}


def message_intruders(opened: str, psn: int) -> dict[str, bytes]:
    """What may not come inside an open message (IBA 9.7.5.1.3): a new request of any kind, or a
    MIDDLE of the other kind of message."""
    other_middle = Opcode.RDMA_WRITE_MIDDLE if opened == "SEND_FIRST" else Opcode.SEND_MIDDLE
    return {"SEND_FIRST": request_frame(Opcode.SEND_FIRST, psn, bytes(PMTU)),
            "SEND_ONLY": request_frame(Opcode.SEND_ONLY, psn, b"intruder"),
            "WRITE_FIRST": request_frame(Opcode.RDMA_WRITE_FIRST, psn, bytes(PMTU),
                                         RETH(REGION_BASE + 0x4000, RKEY, 2 * PMTU)),
            "WRITE_ONLY": request_frame(Opcode.RDMA_WRITE_ONLY, psn, b"intruder",
                                        RETH(REGION_BASE + 0x4000, RKEY, 8)),
            "READ_REQUEST": request_frame(Opcode.RDMA_READ_REQUEST, psn, reth=RETH(REGION_BASE, RKEY, 16)),
            "COMPARE_SWAP": atomic_frame(Opcode.COMPARE_SWAP, psn, REGION_BASE, RKEY, 1),
            other_middle.name: request_frame(other_middle, psn, bytes(PMTU))}


class ErrorCase:
    """One QP driven into the error state by `frames` (a WRITE ONLY with a canary after them): its
    engine side and the model's (its region open to READ and WRITE, not to atomics, as the
    engine's is), with the receives posted before and after."""

    def __init__(self, tb: TB, name: str, first_psn: int, wr_id: int):
        self.tb, self.name, self.first_psn, self.wr_id = tb, name, first_psn, wr_id
        self.model = QueuePair(QpConfig(DUT_QPN, PEER_QPN, DUT, PEER, pmtu=PMTU, initial_expected_psn=first_psn))
        self.model.register_memory(RKEY, REGION_BASE, REGION_BYTES)

    def psn(self, offset: int) -> int:
        return (self.first_psn + offset) % (1 << 24)

    async def create(self):
        """A fresh QP (which must leave the last case's error behind) with receives posted."""
        tb = self.tb
        await rdma.create_qp(tb.registers, DUT_QPN, PEER_QPN, PEER.mac, PEER.ip, DUT.udp_source_port, self.first_psn,
                             pmtu=PMTU, rq_base=RQ_BASE, rq_log_size=RQ_LOG_SIZE)
        tb.host.attach_receive_queue(DUT_QPN, RQ_BASE, RQ_LOG_SIZE)
        for _ in range(RECEIVES_POSTED):
            await self.post_receive()

    async def post_receive(self):
        await self.tb.host.post_receive(DUT_QPN, self.wr_id, RECEIVE_BUFFERS, 4 * PMTU)
        self.model.post_recv(self.wr_id, 4 * PMTU)
        self.wr_id += 1

    async def play(self, frames: list[bytes], canary: bytes):
        """The frames, then the canary WRITE; the engine's answers and receive completions, checked
        against the model's."""
        tb, case = self.tb, self.name
        frames = frames + [request_frame(Opcode.RDMA_WRITE_ONLY, self.psn(len(frames)), canary,
                                         RETH(REGION_BASE + CANARY_OFFSET, RKEY, len(canary)))]
        sent = await tb.play(frames, SEQUENCE_CASE_CYCLES)
        answers = [(packet.bth.opcode, packet.bth.psn, packet.aeth.syndrome) for packet in sent]
        for frame in frames:
            self.model.receive(frame, 0)
        expected = [(packet.bth.opcode, packet.bth.psn, packet.aeth.syndrome)
                    for packet in (parse_frame(frame, PMTU) for frame in self.model.poll(0))]
        assert answers == expected, f"{case}: engine answered {answers}, the model {expected}"
        # The QP's receives are flushed on entering the error state, and one posted later at once
        received = await tb.host.poll()
        assert len(received) == RECEIVES_POSTED, f"{case}: {len(received)} receives completed on entering the error"
        expected = [(c.wr_id, WC_STATUS[c.status]) for c in self.model.take_completions()]
        assert [(c.wr_id, c.status) for c in received] == expected, f"{case}: the model completes {expected}"
        await self.post_receive()
        await ClockCycles(tb.dut.clk, SEQUENCE_CASE_CYCLES)
        received += await tb.host.poll()
        completions = [(c.wr_id, c.status) for c in received]
        assert all((c.opcode, c.byte_len, c.qpn) == (WcOpcode.RECV, 0, DUT_QPN) for c in received), received
        assert tb.memory.read(REGION_BASE + CANARY_OFFSET, len(canary)) != canary, \
            f"{case}: a WRITE after the error was executed"
        return answers, completions


@cocotb.test(timeout_time=(len(message_openers(0)) * len(message_intruders("SEND_FIRST", 0)) + 2) * 30,
             timeout_unit="us")
async def a_new_request_inside_an_open_message_is_an_invalid_request(dut):
    """A SEND or WRITE message opened by its FIRST packet, then, at the next PSN, a packet that
    breaks the opcode sequence, then a WRITE ONLY that would write a canary. For every pair the
    engine answers as the model does: one NAK Invalid Request at the intruder's PSN, the QP in the
    error state (the canary never written, nothing else answered); the open SEND's receive
    completes with REM_INV_REQ_ERR, every other posted receive is flushed (WR_FLUSH_ERR, oldest
    first) at once, and so is a receive posted afterwards."""
    rng = test_rng("sequence")
    tb = TB(dut, rng)
    await tb.reset()
    await tb.set_up(0)
    canary = rng.randbytes(32)
    wr_id, cases = 0x500, 0
    for opened in message_openers(0):
        for intruder in message_intruders(opened, 0):
            case = ErrorCase(tb, f"{opened} then {intruder}", rng.getrandbits(24), wr_id)
            await case.create()
            first_receive = case.wr_id - RECEIVES_POSTED
            frames = [message_openers(case.psn(0))[opened], message_intruders(opened, case.psn(1))[intruder]]
            answers, completions = await case.play(frames, canary)
            assert answers == [(Opcode.ACKNOWLEDGE, case.psn(1), 0x61)], f"{case.name}: engine answered {answers}"
            wanted_first = WcStatus.REM_INV_REQ_ERR if opened == "SEND_FIRST" else WcStatus.WR_FLUSH_ERR
            assert completions == [(first_receive + index, wanted_first if index == 0 else WcStatus.WR_FLUSH_ERR)
                                   for index in range(RECEIVES_POSTED + 1)], f"{case.name}: {completions}"
            wr_id, cases = case.wr_id, cases + 1
    events = await tb.read_events()
    assert events["invalid_requests"] == cases, events


def access_violations(psn) -> dict[str, list[bytes]]:
    """Requests the region table refuses, by why (IBA 9.7.5.2.8: NAK remote access error; psn:
    offset -> PSN)."""
    return {
        "WRITE with another key": [request_frame(Opcode.RDMA_WRITE_ONLY, psn(0), bytes(8),
                                                 RETH(REGION_BASE, RKEY ^ 0x100, 8))],
        "WRITE past the region": [request_frame(Opcode.RDMA_WRITE_ONLY, psn(0), bytes(8),
                                                RETH(REGION_BASE + REGION_BYTES - 4, RKEY, 8))],
        "READ past the region": [request_frame(Opcode.RDMA_READ_REQUEST, psn(0),
                                               reth=RETH(REGION_BASE + REGION_BYTES - 4, RKEY, 8))],
    }


async def each_error_on_a_fresh_qp(tb: TB, rng, cases, syndrome: int, first_wr_id: int) -> None:
    """Every case of `cases` (psn -> {name: frames}) on a fresh QP, its frames then a canary WRITE:
    the engine answers as the model does, one NAK `syndrome` at the last frame's PSN; the QP is in
    the error state (the canary never lands) and every receive, posted before or after, is flushed."""
    canary = rng.randbytes(32)
    wr_id = first_wr_id
    for name in cases(lambda offset: 0):
        case = ErrorCase(tb, name, rng.getrandbits(24), wr_id)
        await case.create()
        frames = cases(case.psn)[name]
        answers, completions = await case.play(frames, canary)
        assert answers == [(Opcode.ACKNOWLEDGE, case.psn(len(frames) - 1), syndrome)], \
            f"{name}: engine answered {answers}"
        assert [status for _, status in completions] == [WcStatus.WR_FLUSH_ERR] * (RECEIVES_POSTED + 1), completions
        wr_id = case.wr_id


@cocotb.test(timeout_time=(len(access_violations(lambda offset: 0)) + 2) * 30, timeout_unit="us")
async def a_remote_access_error_leaves_the_qp_in_the_error_state(dut):
    """A WRITE or READ the region table refuses is answered as the model answers it, one NAK
    remote access error; then the QP is in the error state for good: the canary WRITE behind it is
    dropped (counted with the requests to QPs that cannot take them, once), and every posted
    receive is flushed, as is one posted afterwards."""
    rng = test_rng("access error")
    tb = TB(dut, rng)
    await tb.reset()
    await tb.set_up(0)
    await each_error_on_a_fresh_qp(tb, rng, access_violations, NAK_REMOTE_ACCESS_ERROR, 0x900)
    events = await tb.read_events()
    cases = len(access_violations(lambda offset: 0))
    assert (events["access_errors"], events["unknown_qp_drops"]) == (cases, cases), events


def mismatched_writes(psn) -> dict[str, list[bytes]]:
    """WRITEs whose payload is not the length their RETH announced, by how (psn: offset -> PSN)."""
    first = request_frame(Opcode.RDMA_WRITE_FIRST, psn(0), bytes(PMTU), RETH(REGION_BASE, RKEY, 2 * PMTU))
    return {
        "ONLY longer than its RETH": [request_frame(Opcode.RDMA_WRITE_ONLY, psn(0), bytes(16), RETH(REGION_BASE, RKEY, 8))],
        "ONLY shorter than its RETH": [request_frame(Opcode.RDMA_WRITE_ONLY, psn(0), bytes(8), RETH(REGION_BASE, RKEY, 16))],
        "FIRST and a short LAST": [first, request_frame(Opcode.RDMA_WRITE_LAST, psn(1), bytes(2))],
        "FIRST, MIDDLE and a LAST past it": [first, request_frame(Opcode.RDMA_WRITE_MIDDLE, psn(1), bytes(PMTU)),
                                             request_frame(Opcode.RDMA_WRITE_LAST, psn(2), bytes(4))],
    }


@cocotb.test(timeout_time=(len(mismatched_writes(lambda offset: 0)) + 2) * 30, timeout_unit="us")
async def a_write_whose_payload_is_not_its_reth_length_is_an_invalid_request(dut):
    """The payload of a WRITE must add up to its RETH's DMA length (a message longer or shorter
    than announced is an invalid request, docs/rdma.md). A WRITE ONLY longer or shorter than
    its RETH, a FIRST whose LAST ends short, and a message whose packets run past the length:
    each is answered as the model does, one NAK Invalid Request at the packet that shows the
    mismatch, the QP in the error state (the canary WRITE after it never lands) and every posted
    receive flushed."""
    rng = test_rng("reth-length")
    tb = TB(dut, rng)
    await tb.reset()
    await tb.set_up(0)
    await each_error_on_a_fresh_qp(tb, rng, mismatched_writes, NAK_INVALID_REQUEST, 0x700)
    events = await tb.read_events()
    assert events["invalid_requests"] == len(mismatched_writes(lambda offset: 0)), events


@cocotb.test(timeout_time=60, timeout_unit="us")
async def a_qp_set_up_again_while_its_receives_flush_starts_clean(dut):
    """A QP with a full receive queue enters the error state; the host sets it up again at once,
    while the engine is still flushing the old receives. The new QP must not inherit the error or
    the old queue: a receive posted to it takes a SEND that completes SUCCESS."""
    rng = test_rng("set up again")
    tb = TB(dut, rng)
    await tb.reset()
    await tb.set_up(0)
    case = ErrorCase(tb, "set up again", rng.getrandbits(24), 0x700)
    await case.create()
    for _ in range((1 << RQ_LOG_SIZE) - RECEIVES_POSTED - 1):
        await case.post_receive()
    fresh = ErrorCase(tb, "the new QP", rng.getrandbits(24), 0x900)
    await rdma.stage_qp(tb.registers, DUT_QPN, PEER_QPN, PEER.mac, PEER.ip, DUT.udp_source_port, fresh.first_psn,
                        pmtu=PMTU, rq_base=RQ_BASE, rq_log_size=RQ_LOG_SIZE)
    # A FETCH_ADD on a region closed to atomics: NAK remote access error, the QP in error
    naks = await tb.play([atomic_frame(Opcode.FETCH_ADD, case.psn(0), REGION_BASE, RKEY, 1)], 150)
    assert [(packet.bth.psn, packet.aeth.syndrome) for packet in naks] == [(case.psn(0), NAK_REMOTE_ACCESS_ERROR)]
    flushed = []
    for _ in range(100):
        flushed += await tb.host.poll()
        if flushed:
            break
        await ClockCycles(dut.clk, 8)
    assert flushed, "the flush never started"
    await rdma.commit_qp(tb.registers)  # in the middle of the flush
    flushed += await tb.host.poll()
    assert len(flushed) < (1 << RQ_LOG_SIZE) - 1, f"the flush ({len(flushed)}) ended before the QP was set up again"
    await ClockCycles(dut.clk, 3000)
    tb.host.attach_receive_queue(DUT_QPN, RQ_BASE, RQ_LOG_SIZE)
    await tb.host.poll()
    await tb.host.post_receive(DUT_QPN, 0xAAA, RECEIVE_BUFFERS, 4 * PMTU)
    data = rng.randbytes(100)
    sent = await tb.play([request_frame(Opcode.SEND_ONLY, fresh.psn(0), data)], 2000)
    assert sent == [] or all(packet.aeth.syndrome == 0x1F for packet in sent), sent
    received = await tb.host.poll()
    assert [(c.wr_id, c.status, c.byte_len) for c in received] == [(0xAAA, WcStatus.SUCCESS, len(data))], received
    assert tb.memory.read(RECEIVE_BUFFERS, len(data)) == data


@cocotb.test(timeout_time=30, timeout_unit="us")
async def a_retried_read_inside_an_open_write_is_answered_again(dut):
    """A READ, a WRITE FIRST, the READ again (the requester retried it: a duplicate, from before
    the open message), then the WRITE's LAST: the duplicate is no opcode-sequence violation. The
    engine answers as the model does: the READ's response twice, with the same bytes, then the
    WRITE's ACK, and the WRITE lands."""
    rng = test_rng("retried read")
    tb = TB(dut, rng)
    await tb.reset()
    first_psn = rng.getrandbits(24)
    await tb.set_up(first_psn)
    case = ErrorCase(tb, "retried READ", first_psn, 0)
    data = rng.randbytes(2 * PMTU)
    read = request_frame(Opcode.RDMA_READ_REQUEST, case.psn(0), reth=RETH(REGION_BASE, RKEY, 16))
    frames = [read, request_frame(Opcode.RDMA_WRITE_FIRST, case.psn(1), data[:PMTU], RETH(REGION_BASE + 64, RKEY, 2 * PMTU)),
              read, request_frame(Opcode.RDMA_WRITE_LAST, case.psn(2), data[PMTU:], ack_req=True)]
    sent = await tb.play(frames, SEQUENCE_CASE_CYCLES)
    for frame in frames:
        case.model.receive(frame, 0)
    expected = [parse_frame(frame, PMTU) for frame in case.model.poll(0)]
    shape = [(packet.bth.opcode, packet.bth.psn, packet.aeth.syndrome, packet.payload) for packet in sent]
    assert shape == [(packet.bth.opcode, packet.bth.psn, packet.aeth.syndrome, packet.payload) for packet in expected]
    assert [packet.bth.opcode for packet in sent] == [Opcode.RDMA_READ_RESPONSE_ONLY, Opcode.RDMA_READ_RESPONSE_ONLY,
                                                      Opcode.ACKNOWLEDGE], shape
    assert tb.memory.read(REGION_BASE + 64, len(data)) == data
    assert (await tb.read_events())["invalid_requests"] == 0, tb.events


@cocotb.test(timeout_time=150, timeout_unit="us")
async def qps_of_different_pmtus_each_keep_their_own(dut):
    """The engine takes packets up to 4096 bytes; one QP runs at a PMTU of 256, another at 1024.
    Each peer WRITEs and READs messages of several packets at its QP's PMTU and everything lands
    and completes. Between them comes a WRITE FIRST of 1024 bytes for the 256-byte QP, with its
    PSN: legal for the engine, malformed for that QP, so it is dropped and counted as the QP's
    receiver would drop it (the model's parser at 256 says so too), never executed or answered;
    and a WRITE FIRST of 256 bytes for the 1024-byte QP, too short for it, likewise."""
    rng = test_rng("pmtus")
    tb = TB(dut, rng)
    await tb.reset()
    await rdma.set_up(tb.registers, DUT.mac, DUT.ip, 4096)
    peers, shadows, expected = [], [], []
    quarter = REGION_BYTES // 4
    for index, pmtu in enumerate((256, 1024)):
        dut_qpn, peer_qpn, rkey = DUT_QPN + index, PEER_QPN + index, (RKEY & ~0xF) | (index + 1)
        base = REGION_BASE + index * quarter
        await rdma.create_qp(tb.registers, dut_qpn, peer_qpn, PEER.mac, PEER.ip, DUT.udp_source_port, 0, pmtu=pmtu)
        await rdma.register_region(tb.registers, rkey, base, quarter)
        peer = QueuePair(QpConfig(peer_qpn, dut_qpn, PEER, DUT, pmtu=pmtu, local_ack_timeout=ACK_TIMEOUT_CODE))
        tb.peer_pmtus[peer_qpn] = pmtu
        tb.engine_pmtus[dut_qpn] = pmtu
        shadow = bytearray(tb.memory.read(base, quarter))
        requests = random_writes(rng, shadow, 0, quarter // 2, 6, rkey=rkey, base=base, max_length=4 * pmtu)
        read_offset = quarter // 2
        requests.append(WorkRequest.read(len(requests), base + read_offset, rkey, 3 * pmtu + 7))
        for request in requests:
            peer.post_send(request)
        peers.append(peer)
        shadows.append((base, shadow, read_offset, 3 * pmtu + 7))
        expected.append(len(requests))
    impostor = QueuePair(QpConfig(PEER_QPN, DUT_QPN, PEER, DUT, pmtu=1024))
    impostor.post_send(WorkRequest.write(0, rng.randbytes(2048), REGION_BASE + CANARY_OFFSET, RKEY & ~0xF | 1))
    too_long = impostor.poll(0)[0]
    assert parse_frame_or_none(too_long, 1024) and not parse_frame_or_none(too_long, 256)
    # and a WRITE FIRST of 256 bytes for the 1024-byte QP: too short for it
    impostor = QueuePair(QpConfig(PEER_QPN + 1, DUT_QPN + 1, PEER, DUT, pmtu=256))
    impostor.post_send(WorkRequest.write(0, rng.randbytes(512), REGION_BASE + quarter + CANARY_OFFSET // 2,
                                         RKEY & ~0xF | 2))
    too_short = impostor.poll(0)[0]
    assert parse_frame_or_none(too_short, 256) and not parse_frame_or_none(too_short, 1024)
    results = await tb.run_peers(peers, expected, junk=[too_long, too_short] * 2)
    for completions, count, (base, shadow, read_offset, read_length) in zip(results, expected, shadows):
        check_completions(completions, count)
        read = {c.wr_id: c for c in completions}[count - 1]
        assert read.data == bytes(shadow[read_offset:read_offset + read_length]), "READ returned other bytes"
        assert tb.memory.read(base, len(shadow)) == bytes(shadow), f"region at {base:#x} differs"
    await ClockCycles(dut.clk, 500)  # the last junk frame may still be on its way through the engine
    await tb.read_events()
    arrived = tb.delivered.count(too_long) + tb.delivered.count(too_short)
    assert tb.delivered.count(too_short) >= 1 and tb.events["drops_malformed"] == arrived, \
        f"{arrived} arrived: {tb.events}"
    assert (tb.events["naks_sent"], tb.events["invalid_requests"]) == (0, 0), tb.events


@cocotb.test(timeout_time=150, timeout_unit="us")
async def an_offloaded_qp_takes_receives_at_the_port_and_completes_them_there(dut):
    """The node's own engines' path on the receive side. With the QP in OFFLOAD_QPS, receives are
    posted at the receive doorbell port, one before each message, while the host hammers the
    register receive doorbell of another QP and commits a third: a port doorbell meeting either in
    the same cycle must wait, not vanish (a lost one leaves its message RNR-NAKed forever). SENDs
    and WRITEs with immediate from the model requester land in their buffers; every receive
    completes once, in order, on the completion port (stalled at random) with its length and
    immediate; the completion queue in host memory never sees one."""
    rng = test_rng("offloaded receives")
    tb = TB(dut, rng)
    ports = EnginePorts(dut, rng)
    await tb.reset()
    await tb.set_up(0)
    await rdma.offload_qps(tb.registers, DUT_QPN, 1)
    peer = tb.requester(0)
    await rdma.stage_qp(tb.registers, DUT_QPN + 2, PEER_QPN, PEER.mac, PEER.ip, DUT.udp_source_port, 0)
    doorbell, ctrl = rdma.BLOCK["RQ_DOORBELL"], rdma.BLOCK["QP_CTRL"]
    hammer = RegisterHammer(tb.registers, [
        ("RQ_DOORBELL", doorbell.field("qpn").insert(doorbell.field("producer_index").insert(0, 1), DUT_QPN + 1)),
        ("QP_CTRL", ctrl.field("commit").insert(ctrl.field("valid").insert(0, 1), 1))])
    expected = []
    for wr_id in range(40):
        length = rng.choice([0, 1, 8, 64, PMTU, 2 * PMTU + 3])
        data = rng.randbytes(length)
        address = RECEIVE_BUFFERS + (wr_id % 4) * 3 * PMTU
        imm = rng.getrandbits(32) if rng.random() < 0.5 else None
        tb.host.place_receive(DUT_QPN, 0x100 + wr_id, address, 3 * PMTU)
        await ports.ring("rq", DUT_QPN, tb.host.receive_producer[DUT_QPN])
        if rng.random() < 0.5:
            peer.post_send(WorkRequest.send(wr_id, data, imm))
            expected.append((0x100 + wr_id, WcOpcode.RECV, length, imm))
            target = address
        else:
            target = REGION_BASE + rng.randrange(REGION_BYTES - length + 1)
            imm = rng.getrandbits(32)
            peer.post_send(WorkRequest.write(wr_id, data, target, RKEY, imm=imm))
            expected.append((0x100 + wr_id, WcOpcode.RECV_RDMA_WITH_IMM, length, imm))
        completions = await tb.run(peer, 1, limit_cycles=20_000)
        assert [(c.wr_id, c.status) for c in completions] == [(wr_id, CompletionStatus.SUCCESS)], completions
        assert tb.memory.read(target, length) == data, f"message {wr_id}: bytes"
    await hammer.stop()
    await ClockCycles(dut.clk, 50)
    received = ports.take()
    assert [(c.wr_id, c.status, c.opcode, c.byte_len, c.immediate, c.qpn) for c in received] == \
        [(wr_id, WcStatus.SUCCESS, opcode, length, imm, DUT_QPN) for wr_id, opcode, length, imm in expected]
    assert ports.collisions > 0, "no port doorbell met a register write: the test proves nothing about both"
    assert await tb.host.poll() == [], "an offloaded QP's receive completion reached the completion queue"
    assert tb.events["rnr_naks_sent"] == 0, tb.events
    dut._log.info("40 receives posted at the port, %d doorbell collisions, %s register writes",
                  ports.collisions, hammer.written)


@cocotb.test(timeout_time=60, timeout_unit="us")
async def a_read_the_memory_refuses_is_nakked_remote_operational_error(dut):
    """A READ of three packets whose middle packet's memory answers SLVERR, between two WRITEs.
    The first response packet goes out whole; the middle one goes out poisoned (its ICRC inverted,
    so the requester drops it rather than take bytes the memory never gave); the last one, asked
    of memory before the failure was known, may follow (the requester cannot use it without the
    middle one); then NAK remote operational error (0x63) at the middle packet's PSN, and the QP
    is in the error state: the WRITE behind the READ is never executed. The model requester
    completes the first WRITE, fails the READ with REMOTE_OPERATIONAL_ERROR and flushes the last
    WRITE, as verbs does. Then, on a fresh QP, a READ whose last packet fails, with a WRITE right
    behind it (back to back, so the WRITE is already waiting for the READ's data when the failure
    comes back): the WRITE is dropped, not executed, and the NAK names the last packet."""
    rng = test_rng("read fails")
    tb = TB(dut, rng)
    await tb.reset()
    first_psn = rng.getrandbits(24)
    await tb.set_up(first_psn)
    peer = tb.requester(first_psn)
    failing = REGION_BASE + 0x2000
    tb.poison_reads(range(failing + PMTU, failing + PMTU + 1))
    canary = rng.randbytes(64)
    peer.post_send(WorkRequest.write(0, b"before the read", REGION_BASE, RKEY))
    peer.post_send(WorkRequest.read(1, failing, RKEY, 3 * PMTU))
    peer.post_send(WorkRequest.write(2, canary, REGION_BASE + CANARY_OFFSET, RKEY))
    completions = await tb.run(peer, 3, limit_cycles=20_000)
    assert [(c.wr_id, c.status) for c in completions] == [
        (0, CompletionStatus.SUCCESS), (1, CompletionStatus.REMOTE_OPERATIONAL_ERROR), (2, CompletionStatus.FLUSHED)]
    read_psn = (first_psn + 1) % (1 << 24)
    responses = [(packet.bth.opcode, packet.bth.psn) for packet in tb.sent if packet.bth.opcode != Opcode.ACKNOWLEDGE]
    assert responses[0] == (Opcode.RDMA_READ_RESPONSE_FIRST, read_psn), responses
    assert responses[1:] in ([], [(Opcode.RDMA_READ_RESPONSE_LAST, (read_psn + 2) % (1 << 24))]), responses
    # The NAK's MSN counts the messages completed: the first WRITE, not the READ that failed
    naks = [(packet.bth.psn, packet.aeth.syndrome, packet.aeth.msn) for packet in tb.sent
            if packet.bth.opcode == Opcode.ACKNOWLEDGE and packet.aeth.syndrome != 0x1F]
    assert naks == [((read_psn + 1) % (1 << 24), 0x63, 1)], naks
    assert len(tb.poisoned) == 1, f"{len(tb.poisoned)} poisoned frames"
    poisoned = parse_frame(reseal_icrc(tb.poisoned[0]), PMTU)
    assert (poisoned.bth.opcode, poisoned.bth.psn) == (Opcode.RDMA_READ_RESPONSE_MIDDLE, (read_psn + 1) % (1 << 24))
    assert tb.memory.read(REGION_BASE + CANARY_OFFSET, len(canary)) != canary, "a WRITE after the failed READ landed"
    assert tb.events["naks_sent"] == 1, tb.events

    await rdma.create_qp(tb.registers, DUT_QPN, PEER_QPN, PEER.mac, PEER.ip, DUT.udp_source_port, first_psn,
                         pmtu=PMTU, rq_base=RQ_BASE, rq_log_size=RQ_LOG_SIZE)
    tb.sent.clear()
    last_fails = RETH(failing - PMTU, RKEY, 3 * PMTU)
    sent = await tb.play([request_frame(Opcode.RDMA_READ_REQUEST, first_psn, reth=last_fails),
                          request_frame(Opcode.RDMA_WRITE_ONLY, (first_psn + 3) % (1 << 24), canary,
                                        RETH(REGION_BASE + CANARY_OFFSET, RKEY, len(canary)), ack_req=True)], 2000)
    answers = [(packet.bth.opcode, packet.bth.psn, packet.aeth.syndrome, packet.aeth.msn) for packet in sent
               if packet.bth.opcode == Opcode.ACKNOWLEDGE]
    assert answers == [(Opcode.ACKNOWLEDGE, (first_psn + 2) % (1 << 24), 0x63, 0)], answers
    assert tb.memory.read(REGION_BASE + CANARY_OFFSET, len(canary)) != canary, "the WRITE behind the failed READ landed"


@cocotb.test(timeout_time=100, timeout_unit="us")
async def reset_in_mid_traffic_then_a_clean_exchange(dut):
    rng = test_rng("reset")
    tb = TB(dut, rng)
    await tb.reset()
    await tb.set_up(0)
    peer = tb.requester(0)
    for wr_id in range(6):
        peer.post_send(WorkRequest.write(wr_id, rng.randbytes(3 * PMTU), REGION_BASE + wr_id * 4096, RKEY))
    runner = cocotb.start_soon(tb.run(peer, 6))
    await ClockCycles(dut.clk, 400)
    runner.cancel()
    await pulse_reset(dut.clk, dut.rst)
    tb.rx.clear()
    tb.tx.clear()
    tb.to_dut, tb.from_dut = LossyWire(WireConfig(latency_ns=200), 1), LossyWire(WireConfig(latency_ns=200), 2)
    # software brings the QP up again after the reset, from a fresh PSN
    await exchange(dut, tb, rng, 16, first_psn=rng.getrandbits(24))
