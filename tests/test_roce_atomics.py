# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""RC atomics in the model, against docs/reference/roce.md (Atomic operations): the frames byte by
byte at offsets counted by hand from the header table (and scapy's own BTH and AETH reading of
them), every atomic executed exactly once over a wire that drops, duplicates and reorders,
duplicates answered from the responder's result cache, and the refusals (misaligned, no
remote-atomic access, no atomic support, inside an open message)."""

import random

import pytest
from scapy.contrib.roce import AETH as ScapyAETH, BTH as ScapyBTH
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

from dpuv.models.roce_packet import (
    AETH, BTH, NAK_INVALID_REQUEST, NAK_REMOTE_ACCESS_ERROR, Addressing, AtomicAckETH, AtomicETH, Endpoint,
    MalformedCause, MalformedFrame, Opcode, RocePacket, build_frame, icrc, parse_frame, with_transport,
)
from dpuv.models.roce_qp import (
    Access, CompletionOpcode, CompletionStatus, QpConfig, QpState, QueuePair, WorkRequest,
)
from dpuv.models.roce_wire import Impairment, LossyWire, WireConfig, run_until_idle

ENDPOINT_A = Endpoint("02:00:00:00:00:0a", "10.0.0.1", 0xC00A)
ENDPOINT_B = Endpoint("02:00:00:00:00:0b", "10.0.0.2", 0xC00B)
QPN_A, QPN_B = 0x000011, 0x000022
RKEY = 0x4321
REGION_BASE = 0x7000_0000
REGION_SIZE = 64 * 1024
ALL_ACCESS = Access.REMOTE_READ | Access.REMOTE_WRITE | Access.REMOTE_ATOMIC
# Reads come from [0, READ_AREA), writes go to [WRITE_AREA, end) and the atomic counters sit
# between them, so no operation races another's bytes
READ_AREA = 24 * 1024
COUNTER_AREA = READ_AREA
COUNTERS = 8
WRITE_AREA = REGION_SIZE // 2
TIME_LIMIT_NS = 10**11
ADDRESSING = Addressing.between(ENDPOINT_A, ENDPOINT_B)


def make_pair(**config) -> tuple[QueuePair, QueuePair]:
    defaults = dict(pmtu=256, local_ack_timeout=3)  # 32.8 us against a 2 us round trip
    defaults.update(config)
    a = QueuePair(QpConfig(QPN_A, QPN_B, ENDPOINT_A, ENDPOINT_B, **defaults))
    b = QueuePair(QpConfig(QPN_B, QPN_A, ENDPOINT_B, ENDPOINT_A, **defaults))
    return a, b


def counter_address(index: int) -> int:
    return REGION_BASE + COUNTER_AREA + 8 * index


def exchange(sender: QueuePair, receiver: QueuePair, now_ns: int, keep=lambda index, frame: True) -> list[bytes]:
    """Frames the sender has now, those `keep` accepts handed to the receiver."""
    frames = sender.poll(now_ns)
    for index, frame in enumerate(frames):
        if keep(index, frame):
            receiver.receive(frame, now_ns)
    return frames


# ---- frame layout ---------------------------------------------------------------------------

def test_compare_swap_frame_byte_by_byte():
    atomic = AtomicETH(0x0102_0304_0506_0708, 0x0A0B_0C0D, 0x1112_1314_1516_1718, 0x2122_2324_2526_2728)
    frame = build_frame(RocePacket(ADDRESSING, BTH(Opcode.COMPARE_SWAP, 0xABCDEF, 0x123456, ack_req=True),
                                   atomic_eth=atomic))
    # Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + AtomicETH 28 + ICRC 4, no payload and no pad
    assert len(frame) == 86
    assert frame[16:18] == (86 - 14).to_bytes(2, "big") and frame[38:40] == (86 - 34).to_bytes(2, "big")
    assert frame[42] == 0x13 and frame[43] == 0x00, "opcode, then SE/M/PadCnt 0/TVer 0"
    assert frame[47:50] == bytes.fromhex("abcdef") and frame[50] == 0x80 and frame[51:54] == bytes.fromhex("123456")
    assert frame[54:62] == bytes.fromhex("0102030405060708"), "VA, big endian"
    assert frame[62:66] == bytes.fromhex("0a0b0c0d"), "R_Key"
    assert frame[66:74] == bytes.fromhex("1112131415161718"), "swap data"
    assert frame[74:82] == bytes.fromhex("2122232425262728"), "compare data"
    assert frame[82:86] == icrc(frame[14:82]).to_bytes(4, "little")
    scapy = Ether(frame)
    assert (scapy[ScapyBTH].opcode, scapy[ScapyBTH].dqpn, scapy[ScapyBTH].psn) == (0x13, 0xABCDEF, 0x123456)
    assert scapy[ScapyBTH].icrc.to_bytes(4, "big") == frame[82:86]
    assert parse_frame(frame).atomic_eth == atomic


def test_fetch_add_frame_sends_compare_as_zero():
    a, _ = make_pair()
    a.post_send(WorkRequest.fetch_add(1, REGION_BASE + 8, RKEY, 0xFFFF_FFFF_FFFF_FFFF))
    (frame,) = a.poll(0)
    assert frame[42] == 0x14 and len(frame) == 86
    assert frame[54:62] == (REGION_BASE + 8).to_bytes(8, "big") and frame[62:66] == RKEY.to_bytes(4, "big")
    assert frame[66:74] == b"\xff" * 8 and frame[74:82] == bytes(8)
    assert frame[50] & 0x80, "an atomic asks for its response"


def test_atomic_acknowledge_frame_byte_by_byte():
    frame = build_frame(RocePacket(ADDRESSING, BTH(Opcode.ATOMIC_ACKNOWLEDGE, 0x22, 0x000100),
                                   aeth=AETH(0x1F, 0x000042), atomic_ack_eth=AtomicAckETH(0xF0E1_D2C3_B4A5_9687)))
    # BTH 12 + AETH 4 + AtomicAckETH 8: the AETH comes first
    assert len(frame) == 70
    assert frame[42] == 0x12
    assert frame[54:58] == bytes.fromhex("1f000042"), "AETH: syndrome, MSN"
    assert frame[58:66] == bytes.fromhex("f0e1d2c3b4a59687"), "original value, big endian"
    # scapy 2.8.0 binds AETH only after ACKNOWLEDGE: read the BTH's payload with its AETH by hand
    aeth = ScapyAETH(bytes(Ether(frame)[ScapyBTH].payload))
    assert (aeth.syndrome, aeth.msn) == (0x1F, 0x42)
    assert bytes(aeth.payload) == frame[58:66]


def test_scapy_built_atomic_parses_in_the_model():
    layers = ScapyBTH(opcode=0x13, dqpn=0x22, psn=7, ackreq=1) / bytes.fromhex(
        "00000000700000100000432100000000000000050000000000000009")
    frame = bytes(Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / IP(src="10.0.0.1", dst="10.0.0.2",
                                                                              flags="DF")
                  / UDP(sport=4000, dport=4791) / layers)
    packet = parse_frame(frame)
    assert packet.atomic_eth == AtomicETH(0x7000_0010, 0x4321, 5, 9)


def _atomic_frame() -> bytes:
    return build_frame(RocePacket(ADDRESSING, BTH(Opcode.FETCH_ADD, 0x22, 1, ack_req=True),
                                  atomic_eth=AtomicETH(REGION_BASE, RKEY, 1)))


def _with_transport_length(frame: bytes, delta: int) -> bytes:
    """The frame with `delta` bytes cut from (negative) or added to (positive) its transport,
    lengths, IP checksum and ICRC made consistent."""
    transport = frame[42:-4]
    return with_transport(frame, transport[:len(transport) + delta] if delta < 0 else transport + bytes(delta))


@pytest.mark.parametrize("frame,cause", [
    (_with_transport_length(_atomic_frame(), -4), MalformedCause.TRUNCATED),     # AtomicETH cut short
    (_with_transport_length(_atomic_frame(), 4), MalformedCause.BAD_LENGTH),     # an atomic carries no payload
    (_with_transport_length(build_frame(RocePacket(ADDRESSING, BTH(Opcode.ATOMIC_ACKNOWLEDGE, 1, 1),
                                                   aeth=AETH(0x1F, 0), atomic_ack_eth=AtomicAckETH(3))), -8),
     MalformedCause.TRUNCATED),                                                  # AETH without its AtomicAckETH
], ids=["atomic_eth_cut", "atomic_with_payload", "atomic_ack_without_value"])
def test_malformed_atomic_frames(frame, cause):
    with pytest.raises(MalformedFrame) as caught:
        parse_frame(frame)
    assert caught.value.cause is cause, str(caught.value)


# ---- executed exactly once over a lossy wire ---------------------------------------------------

def random_mix(requester: QueuePair, responder: QueuePair, rng: random.Random, count: int) -> dict:
    """Random WRITE, READ, SEND and atomics; what the responder's memory and the completions must
    end up as."""
    pmtu = requester.config.pmtu
    region = responder.register_memory(RKEY, REGION_BASE, REGION_SIZE, ALL_ACCESS)
    region.data[:] = rng.randbytes(REGION_SIZE)
    starts = [rng.randrange(1 << 64) for _ in range(COUNTERS)]
    for index, start in enumerate(starts):
        region.data[COUNTER_AREA + 8 * index:COUNTER_AREA + 8 * index + 8] = start.to_bytes(8, "little")
    shadow = bytearray(region.data)
    expected = {"reads": {}, "receives": [], "fetch_adds": {index: [] for index in range(COUNTERS // 2)},
                "swaps": {}, "starts": starts, "shadow": shadow, "region": region}
    # Even counters take fetch-adds, odd ones a compare-and-swap chain that succeeds step by step
    swap_value = {index: starts[index] for index in range(1, COUNTERS, 2)}
    for wr_id in range(count):
        kind = rng.choice(["send", "write", "read", "fetch_add", "fetch_add", "compare_swap"])
        length = rng.choice([0, 1, pmtu, pmtu + 1, rng.randrange(4 * pmtu)])
        if kind == "send":
            data = rng.randbytes(length)
            requester.post_send(WorkRequest.send(wr_id, data))
            expected["receives"].append(data)
            responder.post_recv(wr_id, length)
        elif kind == "write":
            data = rng.randbytes(length)
            offset = WRITE_AREA + rng.randrange(WRITE_AREA - length)
            requester.post_send(WorkRequest.write(wr_id, data, REGION_BASE + offset, RKEY))
            shadow[offset:offset + length] = data
        elif kind == "read":
            offset = rng.randrange(READ_AREA - length)
            requester.post_send(WorkRequest.read(wr_id, REGION_BASE + offset, RKEY, length))
            expected["reads"][wr_id] = bytes(shadow[offset:offset + length])
        elif kind == "fetch_add":
            counter = 2 * rng.randrange(COUNTERS // 2)
            add = rng.choice([1, rng.randrange(1 << 64)])
            requester.post_send(WorkRequest.fetch_add(wr_id, counter_address(counter), RKEY, add))
            expected["fetch_adds"][counter // 2].append((wr_id, add))
        else:
            counter = 1 + 2 * rng.randrange(COUNTERS // 2)
            new_value = rng.randrange(1 << 64)
            requester.post_send(WorkRequest.compare_swap(wr_id, counter_address(counter), RKEY,
                                                         swap_value[counter], new_value))
            expected["swaps"][wr_id] = swap_value[counter]
            swap_value[counter] = new_value
    for index, value in swap_value.items():
        shadow[COUNTER_AREA + 8 * index:COUNTER_AREA + 8 * index + 8] = value.to_bytes(8, "little")
    for pair, adds in expected["fetch_adds"].items():
        total = (starts[2 * pair] + sum(add for _, add in adds)) % (1 << 64)
        shadow[COUNTER_AREA + 16 * pair:COUNTER_AREA + 16 * pair + 8] = total.to_bytes(8, "little")
    return expected


def check_mix(expected: dict, requester_completions, responder_completions) -> None:
    assert all(c.status is CompletionStatus.SUCCESS for c in requester_completions + responder_completions)
    by_wr_id = {}
    for completion in requester_completions:
        assert completion.wr_id not in by_wr_id, f"wr_id {completion.wr_id} completed twice"
        by_wr_id[completion.wr_id] = completion
    for wr_id, data in expected["reads"].items():
        assert by_wr_id[wr_id].data == data
    assert [c.data for c in responder_completions] == expected["receives"]
    assert expected["region"].data == expected["shadow"], "memory after the run, counters included"
    for pair, adds in expected["fetch_adds"].items():
        # One requester's atomics on a counter execute in PSN order, so each returns the counter's
        # running sum before it: the originals are exactly the prefix sums
        running = expected["starts"][2 * pair]
        for wr_id, add in adds:
            completion = by_wr_id[wr_id]
            assert completion.opcode is CompletionOpcode.FETCH_ADD and completion.byte_count == 8
            assert completion.original_value == running, f"fetch-add {wr_id} on counter {2 * pair}"
            running = (running + add) % (1 << 64)
    for wr_id, compare in expected["swaps"].items():
        assert by_wr_id[wr_id].opcode is CompletionOpcode.COMP_SWAP
        assert by_wr_id[wr_id].original_value == compare, "every swap in the chain found its value"


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("loss", [0.0, 0.01, 0.1])
def test_random_mix_with_atomics_over_a_lossy_wire(loss, seed):
    rng = random.Random(seed * 1000 + int(loss * 1000))
    a, b = make_pair()
    forward = random_mix(a, b, rng, 40)
    backward = random_mix(b, a, rng, 40)
    impairments = dict(drop=Impairment(loss, burst=2), duplicate=Impairment(loss / 2), reorder=Impairment(loss / 2))
    run_until_idle(a, b, LossyWire(WireConfig(**impairments), seed), LossyWire(WireConfig(**impairments), seed + 1),
                   TIME_LIMIT_NS)
    completions_a, completions_b = a.take_completions(), b.take_completions()
    requests_a = [c for c in completions_a if c.opcode is not CompletionOpcode.RECV]
    requests_b = [c for c in completions_b if c.opcode is not CompletionOpcode.RECV]
    check_mix(forward, requests_a, [c for c in completions_b if c.opcode is CompletionOpcode.RECV])
    check_mix(backward, requests_b, [c for c in completions_a if c.opcode is CompletionOpcode.RECV])
    assert len(requests_a) == len(requests_b) == 40
    if loss:
        assert a.counters.duplicate_requests + b.counters.duplicate_requests > 0


class BothQps:
    """Two QPs of one node on one wire: each hears every frame and keeps those for its QPN."""

    def __init__(self, *qps: QueuePair):
        self.qps = qps

    def poll(self, now_ns: int) -> list[bytes]:
        return [frame for qp in self.qps for frame in qp.poll(now_ns)]

    def receive(self, frame: bytes, now_ns: int) -> None:
        for qp in self.qps:
            qp.receive(frame, now_ns)

    def next_event_ns(self, now_ns: int) -> int | None:
        return min((time for time in (qp.next_event_ns(now_ns) for qp in self.qps) if time is not None), default=None)


@pytest.mark.parametrize("seed", range(3))
def test_two_requesters_on_one_counter_each_add_executes_once(seed):
    """Two connections fetch-add to the same 8 bytes. In whatever order they interleave, each
    add is executed once: ordered by the value they saw, the originals chain (each plus its add
    is the next) from the start to the final value, a permutation of the prefix sums."""
    rng = random.Random(seed)
    config = dict(pmtu=256, local_ack_timeout=3)
    a1 = QueuePair(QpConfig(0x11, 0x21, ENDPOINT_A, ENDPOINT_B, **config))
    a2 = QueuePair(QpConfig(0x12, 0x22, ENDPOINT_A, ENDPOINT_B, **config))
    b1 = QueuePair(QpConfig(0x21, 0x11, ENDPOINT_B, ENDPOINT_A, **config))
    b2 = QueuePair(QpConfig(0x22, 0x12, ENDPOINT_B, ENDPOINT_A, **config))
    region = b1.register_memory(RKEY, REGION_BASE, 64, ALL_ACCESS)
    b2.memory[RKEY] = region
    start = rng.randrange(1 << 64)
    region.data[0:8] = start.to_bytes(8, "little")
    adds = {}
    for wr_id in range(60):
        adds[wr_id] = rng.randrange(1, 1 << 20)
        (a1 if wr_id % 2 else a2).post_send(WorkRequest.fetch_add(wr_id, REGION_BASE, RKEY, adds[wr_id]))
    wire = WireConfig(drop=Impairment(0.05), duplicate=Impairment(0.05), reorder=Impairment(0.05))
    run_until_idle(BothQps(a1, a2), BothQps(b1, b2), LossyWire(wire, seed), LossyWire(wire, seed + 7), TIME_LIMIT_NS)
    completions = a1.take_completions() + a2.take_completions()
    assert sorted(c.wr_id for c in completions) == list(range(60))
    assert all(c.status is CompletionStatus.SUCCESS for c in completions)
    chain = sorted(((c.original_value - start) % (1 << 64), c.wr_id) for c in completions)
    running = 0
    for seen, wr_id in chain:
        assert seen == running, "an add was lost or applied twice"
        running += adds[wr_id]
    assert int.from_bytes(region.data[0:8], "little") == (start + sum(adds.values())) % (1 << 64)


# ---- duplicates and the result cache --------------------------------------------------------

def test_lost_atomic_acknowledge_is_answered_from_the_cache():
    a, b = make_pair()
    region = b.register_memory(RKEY, REGION_BASE, 64, ALL_ACCESS)
    region.data[8:16] = (0x0102_0304_0506_0708).to_bytes(8, "little")
    a.post_send(WorkRequest.fetch_add(1, REGION_BASE + 8, RKEY, 0x10))
    exchange(a, b, 0)
    (lost,) = b.poll(1000)  # the ATOMIC_ACKNOWLEDGE, never delivered
    assert parse_frame(lost).atomic_ack_eth.original == 0x0102_0304_0506_0708
    timeout = a.next_event_ns(2000)
    (again,) = exchange(a, b, timeout)
    assert parse_frame(again).bth.psn == parse_frame(lost).bth.psn, "sent again with the same PSN"
    exchange(b, a, timeout + 1000)
    assert b.counters.atomic_replays == 1 and b.counters.duplicate_requests == 1
    assert region.data[8:16] == (0x0102_0304_0506_0718).to_bytes(8, "little"), "executed once"
    (completion,) = a.take_completions()
    assert (completion.status, completion.opcode, completion.byte_count) == \
        (CompletionStatus.SUCCESS, CompletionOpcode.FETCH_ADD, 8)
    assert completion.data == bytes.fromhex("0807060504030201"), "host order in the local buffer"
    assert a.counters.retries["timeout"] == 1


def test_duplicate_older_than_the_cache_is_dropped_unanswered():
    a, b = make_pair(max_dest_rd_atomic=2)
    region = b.register_memory(RKEY, REGION_BASE, 64, ALL_ACCESS)
    for wr_id in range(3):
        a.post_send(WorkRequest.fetch_add(wr_id, REGION_BASE, RKEY, 1))
    frames = exchange(a, b, 0)
    assert len(frames) == 3 and len(b.poll(1000)) == 3
    b.receive(frames[0], 2000)  # PSN 0: two newer atomics have pushed it out of the cache
    assert b.poll(2000) == [] and b.counters.dropped["atomic_not_in_cache"] == 1
    b.receive(frames[1], 3000)
    (replay,) = b.poll(3000)
    assert parse_frame(replay).atomic_ack_eth.original == 1 and b.counters.atomic_replays == 1
    assert int.from_bytes(region.data[0:8], "little") == 3 and b.state is QpState.READY


def test_requester_keeps_at_most_max_rd_atomic_outstanding():
    a, b = make_pair(max_rd_atomic=2)
    b.register_memory(RKEY, REGION_BASE, 64, ALL_ACCESS)
    a.post_send(WorkRequest.send(0, b"x"))
    for wr_id in range(1, 6):
        a.post_send(WorkRequest.fetch_add(wr_id, REGION_BASE, RKEY, wr_id))
    b.post_recv(0, 16)
    assert [parse_frame(frame).bth.opcode for frame in a.poll(0)] == [Opcode.SEND_ONLY, Opcode.FETCH_ADD,
                                                                      Opcode.FETCH_ADD]
    run_until_idle(a, b, LossyWire(), LossyWire(), TIME_LIMIT_NS, start_ns=1)
    originals = [c.original_value for c in a.take_completions() if c.opcode is CompletionOpcode.FETCH_ADD]
    assert originals == [0, 1, 3, 6, 10]


def test_atomic_acknowledge_acknowledges_earlier_requests():
    a, b = make_pair()
    b.register_memory(RKEY, REGION_BASE, 4096, ALL_ACCESS)
    a.post_send(WorkRequest.write(0, b"hello", REGION_BASE + 1024, RKEY))
    a.post_send(WorkRequest.compare_swap(1, REGION_BASE, RKEY, 0, 5))
    exchange(a, b, 0)
    responses = b.poll(1000)
    assert [parse_frame(frame).bth.opcode for frame in responses] == [Opcode.ACKNOWLEDGE, Opcode.ATOMIC_ACKNOWLEDGE]
    a.receive(responses[1], 2000)  # the WRITE's own ACK is lost
    completions = a.take_completions()
    assert [(c.wr_id, c.status) for c in completions] == [(0, CompletionStatus.SUCCESS), (1, CompletionStatus.SUCCESS)]
    assert completions[1].opcode is CompletionOpcode.COMP_SWAP and completions[1].original_value == 0


def test_ack_beyond_an_unanswered_atomic_is_an_implicit_nak():
    a, b = make_pair()
    region = b.register_memory(RKEY, REGION_BASE, 4096, ALL_ACCESS)
    a.post_send(WorkRequest.fetch_add(0, REGION_BASE, RKEY, 7))
    a.post_send(WorkRequest.write(1, b"later", REGION_BASE + 1024, RKEY))
    exchange(a, b, 0)
    responses = b.poll(1000)
    assert [parse_frame(frame).bth.opcode for frame in responses] == [Opcode.ATOMIC_ACKNOWLEDGE, Opcode.ACKNOWLEDGE]
    a.receive(responses[1], 2000)  # the ACK covers PSN 0 too, but only the atomic's response may answer it
    assert a.take_completions() == [] and a.counters.retries["implicit_nak"] == 1
    run_until_idle(a, b, LossyWire(), LossyWire(), TIME_LIMIT_NS, start_ns=3000)
    completions = a.take_completions()
    assert [c.wr_id for c in completions] == [0, 1] and completions[0].original_value == 0
    assert int.from_bytes(region.data[0:8], "little") == 7 and b.counters.atomic_replays == 1


def test_operands_are_little_endian_in_memory_and_wrap_at_2_to_the_64():
    a, b = make_pair()
    region = b.register_memory(RKEY, REGION_BASE, 64, ALL_ACCESS)
    region.data[16:24] = bytes.fromhex("feffffffffffffff")  # 2^64 - 2, least significant byte first
    a.post_send(WorkRequest.fetch_add(0, REGION_BASE + 16, RKEY, 5))
    a.post_send(WorkRequest.compare_swap(1, REGION_BASE + 16, RKEY, 3, 0x1122_3344_5566_7788))
    a.post_send(WorkRequest.compare_swap(2, REGION_BASE + 16, RKEY, 3, 0))  # compare fails: no change
    run_until_idle(a, b, LossyWire(), LossyWire(), TIME_LIMIT_NS)
    assert [c.original_value for c in a.take_completions()] == [(1 << 64) - 2, 3, 0x1122_3344_5566_7788]
    assert region.data[16:24] == bytes.fromhex("8877665544332211")


# ---- refusals ---------------------------------------------------------------------------------

def _refused(a: QueuePair, b: QueuePair, request: WorkRequest) -> tuple:
    a.post_send(request)
    exchange(a, b, 0)
    (nak,) = exchange(b, a, 1000)
    return parse_frame(nak), a.take_completions()


@pytest.mark.parametrize("case,syndrome,status", [
    ("misaligned", NAK_INVALID_REQUEST, CompletionStatus.REMOTE_INVALID_REQUEST),
    ("no_atomic_access", NAK_REMOTE_ACCESS_ERROR, CompletionStatus.REMOTE_ACCESS_ERROR),
    ("unknown_rkey", NAK_REMOTE_ACCESS_ERROR, CompletionStatus.REMOTE_ACCESS_ERROR),
    ("past_the_region", NAK_REMOTE_ACCESS_ERROR, CompletionStatus.REMOTE_ACCESS_ERROR),
    ("qp_without_atomics", NAK_INVALID_REQUEST, CompletionStatus.REMOTE_INVALID_REQUEST),
    ("no_responder_resources", NAK_INVALID_REQUEST, CompletionStatus.REMOTE_INVALID_REQUEST),
])
def test_refused_atomic(case, syndrome, status):
    responder_config = {"qp_without_atomics": dict(remote_atomic=False),
                        "no_responder_resources": dict(max_dest_rd_atomic=0)}.get(case, {})
    a, _ = make_pair()
    b = QueuePair(QpConfig(QPN_B, QPN_A, ENDPOINT_B, ENDPOINT_A, pmtu=256, local_ack_timeout=3, **responder_config))
    access = Access.REMOTE_READ | Access.REMOTE_WRITE if case == "no_atomic_access" else ALL_ACCESS
    region = b.register_memory(RKEY, REGION_BASE, 64, access)
    address = {"misaligned": REGION_BASE + 4, "past_the_region": REGION_BASE + 64}.get(case, REGION_BASE)
    rkey = RKEY + 1 if case == "unknown_rkey" else RKEY
    nak, completions = _refused(a, b, WorkRequest.compare_swap(9, address, rkey, 0, 1))
    assert (nak.bth.opcode, nak.aeth.syndrome, nak.bth.psn) == (Opcode.ACKNOWLEDGE, syndrome, 0)
    assert [(c.wr_id, c.status, c.opcode) for c in completions] == [(9, status, CompletionOpcode.COMP_SWAP)]
    assert b.state is QpState.ERROR and a.state is QpState.ERROR
    assert region.data == bytearray(64), "nothing executed"


def test_misaligned_check_comes_after_the_rkey_check():
    # rxe checks the R_Key and range first, the alignment while executing
    a, b = make_pair()
    b.register_memory(RKEY, REGION_BASE, 64, ALL_ACCESS)
    nak, _ = _refused(a, b, WorkRequest.fetch_add(0, REGION_BASE + 4, RKEY + 1, 1))
    assert nak.aeth.syndrome == NAK_REMOTE_ACCESS_ERROR


def test_atomic_inside_an_open_send_is_an_invalid_request():
    _, b = make_pair()
    region = b.register_memory(RKEY, REGION_BASE, 64, ALL_ACCESS)
    b.post_recv(5, 1024)
    first = build_frame(RocePacket(ADDRESSING, BTH(Opcode.SEND_FIRST, QPN_B, 0), payload=bytes(256)))
    atomic = build_frame(RocePacket(ADDRESSING, BTH(Opcode.FETCH_ADD, QPN_B, 1, ack_req=True),
                                    atomic_eth=AtomicETH(REGION_BASE, RKEY, 1)))
    b.receive(first, 0)
    b.receive(atomic, 100)
    (nak,) = b.poll(200)
    assert (parse_frame(nak).aeth.syndrome, parse_frame(nak).bth.psn) == (NAK_INVALID_REQUEST, 1)
    assert [(c.wr_id, c.status) for c in b.take_completions()] == [(5, CompletionStatus.REMOTE_INVALID_REQUEST)]
    assert region.data == bytearray(64)


def test_atomic_operands_must_be_64_bits():
    a, _ = make_pair()
    with pytest.raises(ValueError):
        a.post_send(WorkRequest.fetch_add(0, REGION_BASE, RKEY, 1 << 64))
    with pytest.raises(ValueError):
        a.post_send(WorkRequest.compare_swap(0, REGION_BASE, RKEY, -1, 0))
