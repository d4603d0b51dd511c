# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Reference models against independent answers: zlib, published check values, hand counts."""

import random
import zlib

import numpy as np
import pytest

from dpuv.models import nvme_completion, nvme_error_log, nvme_io_statistics, nvme_queue
from dpuv.models.nvme_admin import Completion
from dpuv.models.nvme_nvm import prp_pages
from dpuv.models.crc32 import crc32, reflect
from dpuv.models.packet_fifo import Frame, delivered, dropped_bad, dropped_oversize
from dpuv.models.perf_counters import CycleInputs, PerfCountersModel
from dpuv.models.reduction import CANONICAL_NAN, DTYPES as REDUCTION_TYPES, chunk_bounds, combine, ring_allreduce
from dpuv.models.round_robin import RoundRobin, frame_order, longest_waits


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


def test_longest_waits_count_grants_to_others_until_the_last_own_grant():
    assert longest_waits(frame_order([4, 4, 4]), 3) == [2, 2, 2]
    assert longest_waits([0, 1, 0, 1, 1, 1], 2) == [1, 1]  # port 0 stopped asking after its second grant
    assert longest_waits([0, 0, 0, 1], 2) == [0, 3]  # fixed priority starves port 1
    assert longest_waits([0, 0, 0], 2) == [0, 3]  # never granted: it waited throughout


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


# --- reduction model: spot values worked out by hand from IEEE 754 and the OCP fp8 rules ---


def bits(values, dtype_name):
    info = REDUCTION_TYPES[dtype_name]
    return np.array(values, dtype=np.float32).astype(info.numpy_type).view(info.unsigned)


def test_fp32_sum_is_numpy_float32_addition():
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal(1000).astype(np.float32), rng.standard_normal(1000).astype(np.float32)
    assert np.array_equal(combine(a.view(np.uint32), b.view(np.uint32), "fp32", "sum"), (a + b).view(np.uint32))


def test_bf16_ties_round_to_even():
    # 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: even (1.0) wins; from 1 + 2^-7 it rounds up.
    assert combine(bits([1.0], "bf16"), bits([2.0 ** -8], "bf16"), "bf16", "sum")[0] == 0x3F80
    assert combine(bits([1.0 + 2.0 ** -7], "bf16"), bits([2.0 ** -8], "bf16"), "bf16", "sum")[0] == 0x3F82


def test_fp8_overflow_rules():
    assert combine(bits([448.0], "fp8_e4m3"), bits([448.0], "fp8_e4m3"), "fp8_e4m3", "sum")[0] == 0x7F
    assert combine(bits([57344.0], "fp8_e5m2"), bits([57344.0], "fp8_e5m2"), "fp8_e5m2", "sum")[0] == 0x7C


def test_nan_is_canonical_and_propagates_through_max():
    nan_in = np.array([0xFFC12345], dtype=np.uint32)
    assert combine(nan_in, bits([1.0], "fp32"), "fp32", "sum")[0] == CANONICAL_NAN["fp32"]
    assert combine(bits([1.0], "fp32"), nan_in, "fp32", "max")[0] == CANONICAL_NAN["fp32"]
    assert combine(bits([np.inf], "fp32"), bits([-np.inf], "fp32"), "fp32", "sum")[0] == CANONICAL_NAN["fp32"]


def test_signed_zeros():
    plus, minus = bits([0.0], "fp32"), bits([-0.0], "fp32")
    assert combine(minus, minus, "fp32", "sum")[0] == 0x80000000
    assert combine(minus, plus, "fp32", "sum")[0] == 0
    assert combine(minus, plus, "fp32", "max")[0] == 0 and combine(plus, minus, "fp32", "max")[0] == 0
    assert combine(minus, plus, "fp32", "min")[0] == 0x80000000 and combine(plus, minus, "fp32", "min")[0] == 0x80000000


def test_flush_mode_reads_subnormals_as_zero():
    tiny = np.array([1], dtype=np.uint32)  # the smallest fp32 subnormal
    assert combine(tiny, tiny, "fp32", "sum")[0] == 2
    assert combine(tiny, tiny, "fp32", "sum", flush=True)[0] == 0


def test_integer_sums_wrap():
    assert combine(np.array([0x7FFFFFFF], np.uint32), np.array([1], np.uint32), "int32", "sum")[0] == 0x80000000
    assert combine(np.array([0x80], np.uint8), np.array([0x7F], np.uint8), "int8", "max")[0] == 0x7F


def test_chunks_cover_the_vector_in_whole_beats():
    for elements, ranks, lanes in [(100, 3, 16), (5, 8, 4), (1, 2, 64), (4096, 5, 16)]:
        bounds = chunk_bounds(elements, ranks, lanes)
        assert bounds[0][0] == 0 and bounds[-1][1] == elements
        assert all(end == start for (_, end), (start, _) in zip(bounds, bounds[1:]))
        assert all(start % lanes == 0 for start, _ in bounds if start < elements)


def test_ring_order_is_the_schedules_not_numpys():
    rng = np.random.default_rng(5)
    vectors = [rng.standard_normal(64).astype(np.float32) for _ in range(5)]
    result = ring_allreduce([v.view(np.uint32) for v in vectors], "fp32", "sum", beat_bits=128)
    by_hand = np.empty(64, dtype=np.float32)
    for chunk, (start, end) in enumerate(chunk_bounds(64, 5, 4)):
        partial = vectors[chunk][start:end].copy()
        for hop in range(1, 5):
            partial = (partial + vectors[(chunk + hop) % 5][start:end]).astype(np.float32)
        by_hand[start:end] = partial
    assert np.array_equal(result, by_hand.view(np.uint32))
    rank_zero_first = np.sum(np.stack(vectors), axis=0, dtype=np.float32)
    assert not np.array_equal(result, rank_zero_first.view(np.uint32)), "the order should matter for random fp32"


@pytest.mark.parametrize("entries", [2, 3, 16, 65])
def test_nvme_queue_counts_agree_with_a_ring_of_slots(entries):
    """waiting and room against a ring whose slots are walked one by one: the host places at the
    tail while the queue is not full, the controller takes at the head while it is not empty."""
    rng = random.Random(entries)
    head = tail = held = 0
    for _ in range(2000):
        if rng.random() < 0.5 and held < entries - 1:
            tail, held = (tail + 1) % entries, held + 1
        elif held:
            head, held = (head + 1) % entries, held - 1
        assert nvme_queue.waiting(head, tail, entries) == held
        assert nvme_queue.room(head, tail, entries) == entries - 1 - held


def test_nvme_fetch_count_stops_at_each_limit():
    # 10 waiting from head 60 of a 1024-entry SQ: the page ends at 64; a CQ with 2 free; a batch of 4
    assert nvme_queue.fetch_count(60, 70, 1024, 0, 0, 1024, 4) == 4
    assert nvme_queue.fetch_count(62, 70, 1024, 0, 0, 1024, 4) == 2
    assert nvme_queue.fetch_count(60, 70, 1024, 3, 0, 1024, 4) == 2
    assert nvme_queue.fetch_count(60, 5, 62, 0, 0, 1024, 4) == 2  # 7 wait, but the ring ends after 2
    assert nvme_queue.fetch_count(5, 5, 64, 0, 0, 64, 4) == 0


@pytest.mark.parametrize("entries", [2, 3, 5])
def test_nvme_queue_table_cq_phase_inverts_on_each_wrap(entries):
    """The phase of the slot the controller writes next, against a pass count: 1 on the first pass
    through the CQ, inverted each time the tail comes back to slot 0."""
    table = nvme_queue.QueueTable(17)
    table.create_cq(3, 0x4000, entries, 0, True)
    for posted in range(4 * entries):
        assert table.completion[3].phase == 1 - (posted // entries) % 2
        assert table.cq_slot_address(3) == 0x4000 + 16 * (posted % entries)
        table.take_cq_slot(3)
        table.doorbell(3, True, table.completion[3].tail)  # the host consumes it


def test_nvme_queue_table_doorbells_and_readiness():
    table = nvme_queue.QueueTable(5)
    table.create_cq(1, 0, 4, 0, False)
    table.create_sq(2, 0, 8, 1)
    assert not table.doorbell(0, False, 1), "queue 0 is the admin queue, not in the table"
    assert not table.doorbell(3, False, 1) and not table.doorbell_exists(3, False)
    assert not table.doorbell(2, False, 8) and not table.doorbell_fits(2, False, 8), "8 entries: slots 0 to 7"
    assert table.ready() == set()
    assert table.doorbell(2, False, 7) and table.ready() == {2}
    for _ in range(3):  # a CQ of 4 holds 3 completions
        table.take_cq_slot(1)
    assert table.ready() == set(), "no room in the CQ for the completion"
    table.doorbell(1, True, 3)
    assert table.ready() == {2} and table.cq_has_sq(1)
    table.reset()
    assert not table.submission and not table.completion


def test_nvme_completion_entry_decodes_with_the_independent_decoder():
    """The entry's bytes read back field by field with nvme_admin's decoder, and against a hand
    packed DW3: Invalid Queue Identifier (SCT 1, SC 01h) with DNR, CID 0x1234, phase 1."""
    entry = nvme_completion.completion_entry(0xDEADBEEF, 7, 3, 0x1234, 1, 0x01, 1)
    assert Completion.decode(entry) == Completion(0xDEADBEEF, 7, 3, 0x1234, 1, 0x01, 1, True)
    assert entry[12:] == (0x1234 | 1 << 16 | 0x101 << 17 | 1 << 31).to_bytes(4, "little")
    assert not Completion.decode(nvme_completion.completion_entry(0, 0, 0, 5, 0, 0, 0)).do_not_retry
    # An error with SC 0 (SCT 1: Completion Queue Invalid) is an error all the same
    assert Completion.decode(nvme_completion.completion_entry(0, 0, 0, 5, 0, 0x00, 1)).do_not_retry


@pytest.mark.parametrize("entries", [2, 3, 5])
def test_nvme_admin_cq_fills_at_entries_minus_one_and_flips_the_phase_on_each_wrap(entries):
    cq = nvme_completion.AdminCompletionQueue(base=0x10000, entries=entries)
    for posted in range(4 * entries):
        address, phase = cq.take_slot()
        assert (address, phase) == (0x10000 + 16 * (posted % entries), 1 - (posted // entries) % 2)
        cq.doorbell(cq.tail)  # the host consumes it
        assert not cq.full
    fresh = nvme_completion.AdminCompletionQueue(base=0, entries=entries)
    for _ in range(entries - 1):
        assert not fresh.full
        fresh.take_slot()
    assert fresh.full


def test_nvme_held_slot_blocks_later_entries_until_its_status():
    order = nvme_completion.PostingOrder()
    first = nvme_completion.Completion(0x100, bytes(16), 1, False, 0, 0)
    later = nvme_completion.Completion(0x200, bytes(16), 1, False, 0, 0)
    order.post(first)
    order.hold(0x300, 1, 9, 2, 4, 5)
    order.post(later)
    assert order.leave() is first and order.next_out() is None
    order.drain(0x04)
    drained = order.leave()
    assert drained.drained and Completion.decode(drained.entry) == Completion(0, 4, 2, 9, 1, 0x04, 0, True)
    assert order.leave() is later


def test_nvme_error_log_keeps_the_newest_entries_doorbell_first_and_stops_the_count():
    log = nvme_error_log.ErrorLog(entries=2)
    assert log.page() == bytes(128) and log.packed() == 0
    log.cycle((3, 0x1234, 0x4002), doorbell=True)
    assert [entry.count for entry in log.slots()] == [2, 1]
    assert log.slots()[0] == nvme_error_log.ErrorEntry(2, 3, 0x1234, 0x8004)
    assert log.slots()[1] == nvme_error_log.ErrorEntry(1, 0xFFFF, 0xFFFF, 0)
    assert log.page()[:16] == bytes.fromhex("0200000000000000 0300 3412 0480 ffff")
    assert log.packed() >> 80 == 0xFFFF_FFFF_0000_0001 << 0 | 0 << 64
    log.doorbell_error()
    assert [entry.count for entry in log.slots()] == [3, 2]
    log.count = nvme_error_log.COUNT_LIMIT - 1
    log.cycle((0, 1, 1), doorbell=True)
    assert log.count == nvme_error_log.COUNT_LIMIT
    assert [entry.count for entry in log.slots()] == [nvme_error_log.COUNT_LIMIT] * 2
    log.reset()
    assert log.count == 0 and log.packed() == 0


def test_nvme_io_statistics_round_up_to_thousands_and_count_successful_reads_and_writes():
    stats = nvme_io_statistics.IoStatistics(lba_shift=9)
    stats.complete(read=True, write=False, success=True, blocks=1000)
    assert (stats.data_units_read, stats.host_read_commands) == (1, 1)
    stats.complete(read=True, write=False, success=True, blocks=1)
    assert stats.data_units_read == 2
    stats.complete(read=True, write=False, success=False, blocks=5000)
    stats.complete(read=False, write=False, success=True, blocks=5000)  # Flush, Write Zeroes
    assert (stats.data_units_read, stats.host_read_commands, stats.data_units_written) == (2, 2, 0)
    large = nvme_io_statistics.IoStatistics(lba_shift=12)
    large.complete(read=False, write=True, success=True, blocks=65536)
    assert (large.units_written, large.data_units_written, large.host_write_commands) == (524288, 525, 1)
    assert nvme_io_statistics.data_units(0) == 0 and nvme_io_statistics.data_units(999) == 1


def test_nvme_prp_walk_follows_a_chain_and_refuses_one_inside_a_page():
    """Three pages from a list that starts in its page's last slot: that slot chains to the next
    list page (NVMe 1.4, PRP lists), which must be page aligned like every entry in a list."""
    memory = {0x20FF8: 0x30000, 0x30000: 0x40000, 0x30008: 0x50000}

    def read_host(address, length):
        return memory[address].to_bytes(8, "little")
    assert prp_pages(0x10000, 0x20FF8, 3 * 4096, read_host) == [(0x10000, 4096), (0x40000, 4096), (0x50000, 4096)]
    memory[0x20FF8] = 0x30010
    with pytest.raises(ValueError, match="chain"):
        prp_pages(0x10000, 0x20FF8, 3 * 4096, read_host)
