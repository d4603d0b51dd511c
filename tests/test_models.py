"""Reference models against independent answers: zlib, published check values, hand counts."""

import random
import zlib

import pytest

from dpuv.models.crc32 import crc32, reflect
from dpuv.models.packet_fifo import Frame, delivered, dropped_bad, dropped_oversize
from dpuv.models.perf_counters import CycleInputs, PerfCountersModel
from dpuv.models.round_robin import RoundRobin, frame_order


def test_crc32_check_value():
    # The catalogue check value of CRC-32/ISO-HDLC, the CRC Ethernet and zlib use
    assert crc32(b"123456789") == 0xCBF43926


def test_crc32_reflected_polynomial():
    assert reflect(0x04C11DB7, 32) == 0xEDB88320


@pytest.mark.parametrize("seed", range(5))
def test_crc32_matches_zlib(seed):
    rng = random.Random(seed)
    for length in [0, 1, 2, 7, 64, 1500, rng.randint(1, 9000)]:
        data = rng.randbytes(length)
        assert crc32(data) == zlib.crc32(data)
        split = rng.randint(0, length)
        assert crc32(data[split:], crc32(data[:split])) == zlib.crc32(data), "continuation must compose"


def test_round_robin_rotates_from_port_zero():
    arbiter = RoundRobin(3)
    assert [arbiter.grant({0, 1, 2}) for _ in range(4)] == [0, 1, 2, 0]
    assert arbiter.grant({0, 2}) == 2
    assert arbiter.grant(set()) is None


def test_frame_order_skips_empty_ports():
    assert frame_order([2, 2, 2]) == [0, 1, 2, 0, 1, 2]
    assert frame_order([3, 0, 1]) == [0, 2, 0, 0]


def test_packet_fifo_drops_bad_and_oversize():
    frames = [Frame(b"a" * 8), Frame(b"b" * 8, bad=True), Frame(b"c" * 33), Frame(b"d" * 32), Frame(b"")]
    # 8 bytes per beat, 4 beats deep: 33 bytes need 5 beats and can never fit; 32 bytes fit exactly
    assert delivered(frames, depth=4, bytes_per_beat=8, drop_bad=True) == [b"a" * 8, b"d" * 32, b""]
    assert delivered(frames, depth=4, bytes_per_beat=8, drop_bad=False) == [b"a" * 8, b"b" * 8, b"d" * 32, b""]
    assert dropped_bad(frames, 4, 8) == 1
    assert dropped_oversize(frames, 4, 8) == 1


def test_perf_model_counts_a_hand_worked_trace():
    model = PerfCountersModel(latency_depth=4)
    trace = [
        CycleInputs(valid=True, ready=True, keep=0xFF, latency_start=True),    # beat, 8 bytes
        CycleInputs(valid=True, ready=False, keep=0xFF),                       # stall
        CycleInputs(valid=True, ready=True, last=True, keep=0x0F),             # beat, 4 bytes, packet
        CycleInputs(valid=False, latency_stop=True, event=True),              # idle; latency 3
        CycleInputs(snapshot=True, valid=False),
    ]
    for inputs in trace:
        snapshot = model.step(inputs)
    assert snapshot["cycles"] == 4 and snapshot["beats"] == 2 and snapshot["bytes"] == 12
    assert snapshot["packets"] == 1 and snapshot["stall_cycles"] == 1 and snapshot["idle_cycles"] == 1
    assert snapshot["active_cycles"] == 3 and snapshot["events"] == 1
    assert (snapshot["latency_min"], snapshot["latency_max"], snapshot["latency_count"]) == (3, 3, 1)


def test_perf_model_counts_unpaired_stop_and_queue_overflow_as_errors():
    model = PerfCountersModel(latency_depth=2)
    for inputs in [CycleInputs(latency_stop=True)] + [CycleInputs(latency_start=True)] * 3 + [CycleInputs(snapshot=True)]:
        snapshot = model.step(inputs)
    assert snapshot["latency_errors"] == 2
    assert snapshot["latency_count"] == 0 and snapshot["latency_min"] == 0xFFFFFFFF
