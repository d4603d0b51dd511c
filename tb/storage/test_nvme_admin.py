# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""nvme_controller's admin queue: every completion predicted by src/dpuv/models/nvme_admin.py
(Features, Abort, unknown opcodes, Identify structures byte for byte), a full CQ, bad doorbells
reported by Asynchronous Events, and I/O queues created and deleted with every check."""

from __future__ import annotations

import struct

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge

from dpuv.models import nvme_admin
from dpuv.models.nvme_admin import AdminModel, create_queue, submission
from dpuv.tb.testbench import build_parameters

import nvme_coverage
from nvme_bench import TB


def check_completions(completions, entries, answers, queue_entries: int, first_head: int):
    """Each completion is the model's answer for its entry: CID, DW0, status (DNR on errors), SQ 0,
    and the SQ head just after the entry."""
    assert len(completions) == len(entries), (len(completions), len(entries))
    for index, (completion, entry, answer) in enumerate(zip(completions, entries, answers)):
        cid = int.from_bytes(entry[2:4], "little")
        expected_head = (first_head + index + 1) % queue_entries
        assert (completion.cid, completion.result, completion.status_code, completion.status_type) == \
            (cid, answer.result, answer.status_code, answer.status_type), (index, completion, answer)
        failed = (answer.status_type, answer.status_code) != (0, 0)
        assert completion.do_not_retry == failed and completion.sq_id == 0, completion
        assert completion.sq_head == expected_head, (index, completion.sq_head, expected_head)


@cocotb.test(timeout_time=20, timeout_unit="us")
async def admin_commands_complete_as_the_model_predicts(dut):
    """Set/Get Features (Number of Queues, Interrupt Coalescing, an unknown feature), Abort and
    opcodes the controller does not carry, through a 4-entry admin queue so that both rings wrap
    and the phase tag flips several times."""
    tb = TB(dut)
    await tb.bring_up()
    queue = await tb.admin_queue(4)
    model = AdminModel(build_parameters().get("QUEUES", 17))
    entries = []
    for cid in range(14):
        opcode, cdw10, cdw11 = [
            (nvme_admin.OP_SET_FEATURES, nvme_admin.FEATURE_NUMBER_OF_QUEUES, 7 << 16 | 7),
            (nvme_admin.OP_GET_FEATURES, nvme_admin.FEATURE_NUMBER_OF_QUEUES, 0),
            (nvme_admin.OP_SET_FEATURES, nvme_admin.FEATURE_NUMBER_OF_QUEUES, 0xFFFF),
            (nvme_admin.OP_SET_FEATURES, nvme_admin.FEATURE_INTERRUPT_COALESCING, 0x0A00 + cid),
            (nvme_admin.OP_GET_FEATURES, nvme_admin.FEATURE_INTERRUPT_COALESCING, 0),
            (nvme_admin.OP_GET_FEATURES, 0x55, 0),
            (nvme_admin.OP_ABORT, 0, 0),
            (0xC5, 0, 0),   # vendor specific: not carried
            (0x18, 0, 0),   # Keep Alive: not carried
        ][cid % 9]
        entries.append(submission(opcode, 0x100 + cid * 3, cdw10=cdw10, cdw11=cdw11))
    # Three at a time (the ring holds 3), reaped in between
    completions = []
    for start in range(0, len(entries), 3):
        batch = entries[start:start + 3]
        for entry in batch:
            queue.place(entry)
        await queue.ring()
        completions += await tb.reap(queue, len(batch))
    answers = [model.answer(entry) for entry in entries]
    check_completions(completions, entries, answers, 4, 0)


@cocotb.test(timeout_time=50, timeout_unit="us")
async def a_full_completion_queue_holds_completions_until_the_head_moves(dut):
    """The host leaves the CQ head where it is: the controller posts 3 completions into the
    4-entry CQ and waits; once the head doorbell frees entries the rest arrive, none overwritten."""
    tb = TB(dut)
    await tb.bring_up()
    queue = await tb.admin_queue(4)
    model = AdminModel(build_parameters().get("QUEUES", 17))
    entries = [submission(nvme_admin.OP_ABORT, 0x200 + index) for index in range(3)]
    for entry in entries:
        queue.place(entry)
    await queue.ring()
    await ClockCycles(dut.user_clk, 400)
    first = await queue.reap(ring_head=False)
    assert len(first) == 3
    more = [submission(nvme_admin.OP_GET_FEATURES, 0x300 + index, cdw10=nvme_admin.FEATURE_NUMBER_OF_QUEUES)
            for index in range(2)]
    for entry in more:
        queue.place(entry)
    await queue.ring()
    await ClockCycles(dut.user_clk, 400)
    # The CQ is full (3 of 4 used): nothing new may have been written
    assert await queue.reap(ring_head=False) == []
    await tb.bar.write_dword(tb.host.doorbell(0, True), queue.head)
    completions = first + await tb.reap(queue, 2)
    check_completions(completions, entries + more, [model.answer(entry) for entry in entries + more], 4, 0)


@cocotb.test(timeout_time=50, timeout_unit="us")
async def bad_doorbells_are_ignored_and_reported_by_an_asynchronous_event(dut):
    """A tail past the queue's size, a head past the CQ's, and a doorbell of a queue that does not
    exist: ignored (the queue goes on), each reported through the oldest outstanding Asynchronous
    Event Request once the host has read the error log after the last one (RAE cleared: until
    then error events are masked); a fifth outstanding request is refused."""
    tb = TB(dut)
    await tb.bring_up()
    queue = await tb.admin_queue(8)
    await queue.submit(submission(nvme_admin.OP_ASYNC_EVENT_REQUEST, 0x77))
    await queue.submit(submission(nvme_admin.OP_ASYNC_EVENT_REQUEST, 0x78))
    await ClockCycles(dut.user_clk, 200)
    assert await queue.reap() == [], "an event request completed with no event"
    await tb.bar.write_dword(tb.host.doorbell(0, False), 9)  # past the 8-entry queue
    [event] = await tb.reap(queue, 1)
    assert (event.cid, event.status_code) == (0x77, 0)
    assert event.result == nvme_admin.async_event_result(nvme_admin.AEI_INVALID_DOORBELL_VALUE), hex(event.result)
    nvme_coverage.doorbell("sq_tail_past_size", "invalid_value_event")
    await read_error_log(tb, queue, 0x7A)
    await tb.bar.write_dword(tb.host.doorbell(5, False), 1)  # I/O queue 5 does not exist
    [event] = await tb.reap(queue, 1)
    assert event.cid == 0x78
    assert event.result == nvme_admin.async_event_result(nvme_admin.AEI_INVALID_DOORBELL_REGISTER), hex(event.result)
    nvme_coverage.doorbell("queue_never_created", "invalid_register_event")
    # At most four wait: the fifth is refused (SCT 1, SC 05h), the four complete one per event
    for cid in range(0x90, 0x95):
        await queue.submit(submission(nvme_admin.OP_ASYNC_EVENT_REQUEST, cid))
    [refused] = await tb.reap(queue, 1)
    assert (refused.cid, refused.status_type, refused.status_code, refused.do_not_retry) == (0x94, 1, 0x05, True)
    for cid in range(0x90, 0x94):
        await read_error_log(tb, queue, cid - 0x10)
        await tb.bar.write_dword(tb.host.doorbell(0, True), 15)  # past the CQ's size
        [event] = await tb.reap(queue, 1)
        assert event.cid == cid and event.result == nvme_admin.async_event_result(nvme_admin.AEI_INVALID_DOORBELL_VALUE)
        nvme_coverage.doorbell("cq_head_past_size", "invalid_value_event")
    # The queue still works
    await queue.submit(submission(nvme_admin.OP_ABORT, 0x79))
    [done] = await tb.reap(queue, 1)
    assert (done.cid, done.result, done.status_code) == (0x79, 1, 0)


async def read_error_log(tb: TB, queue, cid: int) -> None:
    """The host reads the error log with RAE cleared, as it does after an error event."""
    await queue.submit(nvme_admin.get_log_page(cid, nvme_admin.LOG_PAGE_ERROR_INFORMATION, 64,
                                               prp1=tb.memory_base + 0x6000))
    [done] = await tb.reap(queue, 1)
    assert (done.cid, done.status_code) == (cid, 0), done


def identify(cid: int, cns: int, prp1: int, prp2: int = 0, nsid: int = 0) -> bytes:
    return submission(nvme_admin.OP_IDENTIFY, cid, nsid=nsid, cdw10=cns, prp1=prp1, prp2=prp2)


@cocotb.test(timeout_time=50, timeout_unit="us")
async def identify_writes_its_structures_where_the_prps_point(dut):
    """Identify Controller, Namespace and the active namespace list, byte for byte against the
    model: into a whole page (PRP1 alone) and across two (PRP1 inside its page, PRP2 for the
    rest), written in Max Payload Size pieces before the completion. Bad CNS, namespace and PRP
    offsets are refused with their status, nothing written."""
    tb = TB(dut)
    await tb.bring_up()
    queue = await tb.admin_queue(8)
    model = AdminModel(build_parameters().get("QUEUES", 17))
    page = tb.memory_base + 0x1000
    watched = []
    requests = cocotb.start_soon(watch_requests(dut, watched))
    cases = [identify(1, nvme_admin.CNS_CONTROLLER, page),
             identify(2, nvme_admin.CNS_NAMESPACE, page + 0x2000 + 0x7C4, page + 0x4000, nsid=1),
             identify(3, nvme_admin.CNS_ACTIVE_NAMESPACES, page + 0x5000),
             identify(4, nvme_admin.CNS_ACTIVE_NAMESPACES, page + 0x5000, nsid=1),
             identify(5, 0x10, page), identify(6, nvme_admin.CNS_NAMESPACE, page, nsid=2),
             identify(7, nvme_admin.CNS_CONTROLLER, page + 2), identify(8, nvme_admin.CNS_CONTROLLER, page + 4, page + 8)]
    for entry in cases:
        cid = int.from_bytes(entry[2:4], "little")
        prp1, prp2 = struct.unpack_from("<QQ", entry, 24)
        tb.write_memory(page, bytes([0xEE]) * 0x6000)
        await queue.submit(entry)
        [done] = await tb.reap(queue, 1)
        answer = model.answer(entry)
        failed = (answer.status_type, answer.status_code) != (0, 0)
        assert (done.cid, done.status_code, done.do_not_retry) == (cid, answer.status_code, failed)
        if answer.data:
            written = tb.read_prp_pair(prp1, prp2, len(answer.data))
            assert written == answer.data, f"CID {cid}: the structure differs at byte " \
                f"{next(i for i, (a, b) in enumerate(zip(written, answer.data)) if a != b)}"
        else:
            assert tb.read_memory(page, 0x6000) == bytes([0xEE]) * 0x6000, f"CID {cid} wrote data on an error"
    requests.kill()
    max_payload = 128 << int(dut.cfg_max_payload.value)
    assert max_payload == 256
    writes = [(address, dwords) for address, dwords, kind in watched if kind == 1]
    assert all(dwords * 4 <= max_payload and address // 4096 == (address + dwords * 4 - 1) // 4096
               for address, dwords in writes), "a write over the Max Payload Size or across 4 KiB"
    assert sum(1 for _, dwords in writes if dwords * 4 == max_payload) >= 4 * 4096 // max_payload - 4


async def watch_requests(dut, watched: list):
    """Every request TLP's address, dword count and type, from its descriptor."""
    first = True
    while True:
        await RisingEdge(dut.user_clk)
        if dut.s_axis_rq_tvalid.value == 1 and dut.s_axis_rq_tready.value == 1:
            if first:
                descriptor = int(dut.s_axis_rq_tdata.value) & ((1 << 128) - 1)
                watched.append((descriptor & ~3 & ((1 << 64) - 1), descriptor >> 64 & 0x7FF, descriptor >> 75 & 0xF))
            first = dut.s_axis_rq_tlast.value == 1


@cocotb.test(timeout_time=50, timeout_unit="us")
async def io_queues_are_created_and_deleted_with_every_check(dut):
    """Create and Delete I/O CQ/SQ against the model: good ones, then bad QID (0, past the
    controller's queues, taken), bad size (0, past MQES), non-contiguous, bad vector, SQ on a
    missing CQ, misaligned base, deleting a CQ an SQ still uses; a deleted queue's doorbell is a
    write to an invalid doorbell register again."""
    tb = TB(dut)
    await tb.bring_up()
    queue = await tb.admin_queue(16)
    queues = build_parameters().get("QUEUES", 17)
    model = AdminModel(queues)
    base = tb.memory_base + 0x4000
    create_cq, create_sq = nvme_admin.OP_CREATE_CQ, nvme_admin.OP_CREATE_SQ
    entries = [
        create_queue(create_cq, 1, 1, 64, base, vector_or_cq=1),
        create_queue(create_cq, 2, 1, 64, base),                       # QID taken
        create_queue(create_cq, 3, 0, 64, base),                       # the admin queue's ID
        create_queue(create_cq, 4, queues, 64, base),                  # past the controller's queues
        create_queue(create_cq, 5, 2, 1, base),                        # one entry: size 0
        create_queue(create_cq, 6, 2, 1025, base),                     # past MQES
        create_queue(create_cq, 7, 2, 64, base, contiguous=False),
        create_queue(create_cq, 8, 2, 64, base, vector_or_cq=32),      # past the MSI-X table
        create_queue(create_cq, 9, 2, 64, base + 0x80),                # base inside its page
        create_queue(create_cq, 10, 2, 1024, base + 0x1000, vector_or_cq=2),
        create_queue(create_sq, 11, 1, 64, base + 0x2000, vector_or_cq=1),
        create_queue(create_sq, 12, 3, 64, base + 0x3000, vector_or_cq=5),   # CQ 5 does not exist
        create_queue(create_sq, 13, 3, 64, base + 0x3000, vector_or_cq=0),   # the admin CQ
        submission(nvme_admin.OP_DELETE_CQ, 14, cdw10=1),                    # SQ 1 is on it
    ]
    for entry in entries:
        await queue.submit(entry)
    completions = await tb.reap(queue, len(entries))
    check_completions(completions, entries, [model.answer(entry) for entry in entries], 16, 0)
    # SQ 1 exists: its doorbell is taken quietly; an event request stays waiting
    await queue.submit(submission(nvme_admin.OP_ASYNC_EVENT_REQUEST, 0x60))
    await tb.bar.write_dword(tb.host.doorbell(1, False), 0)
    await ClockCycles(dut.user_clk, 100)
    assert await queue.reap() == []
    nvme_coverage.doorbell("queue_exists", "taken")
    more = [submission(nvme_admin.OP_DELETE_SQ, 15, cdw10=1), submission(nvme_admin.OP_DELETE_SQ, 16, cdw10=1),
            submission(nvme_admin.OP_DELETE_CQ, 17, cdw10=1), submission(nvme_admin.OP_DELETE_CQ, 18, cdw10=3)]
    for entry in more:
        await queue.submit(entry)
    completions = await tb.reap(queue, len(more))
    check_completions(completions, more, [model.answer(entry) for entry in more], 16, len(entries) + 1)
    # SQ 1 is gone: its doorbell is reported
    await tb.bar.write_dword(tb.host.doorbell(1, False), 0)
    [event] = await tb.reap(queue, 1)
    assert event.cid == 0x60
    assert event.result == nvme_admin.async_event_result(nvme_admin.AEI_INVALID_DOORBELL_REGISTER)
    nvme_coverage.doorbell("queue_deleted", "invalid_register_event")
