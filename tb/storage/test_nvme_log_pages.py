# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""nvme_controller's log pages and asynchronous events end to end, against
src/dpuv/models/nvme_admin.py told what the controller did: the error log from the error
completions and bad doorbells in the order they happened, SMART from the Reads and Writes that
succeeded, the firmware slot page; an event type masked once reported until its page is read
with RAE cleared; a temperature threshold crossed raising a SMART event when Feature 0Bh asks;
FUSE and PSDT refused for admin and NVM commands with nothing executed."""

from __future__ import annotations

import struct

import cocotb
from cocotb.triggers import ClockCycles

from dpuv.drivers.nvme import execute
from dpuv.models import nvme_admin, nvme_nvm
from dpuv.models.nvme_admin import AdminModel, get_log_page, status_field, submission
from dpuv.tb.testbench import build_parameters, test_rng

import nvme_coverage
from nvme_bench import TB, host_buffers

# Cycles in which a masked event must not complete a waiting event request
QUIET_CYCLES = 300


def new_model() -> AdminModel:
    parameters = build_parameters()
    return AdminModel(parameters.get("QUEUES", 17))


def record_completion(model: AdminModel, completion) -> None:
    """An error completion is an error log entry, in the order the controller posted it."""
    if (completion.status_type, completion.status_code) != (0, 0):
        model.record_error(completion.sq_id, completion.cid,
                           status_field(completion.status_type, completion.status_code), completion.phase)


async def admin_command(tb: TB, queue, model: AdminModel, entry: bytes):
    """One admin command: submitted, reaped, checked against the model's answer (and its data,
    if any, where PRP1 and PRP2 point), and its error recorded."""
    done = await execute(queue, entry)
    answer = model.answer(entry)
    assert (done.result, done.status_type, done.status_code) == \
        (answer.result, answer.status_type, answer.status_code), (done, answer)
    record_completion(model, done)
    if answer.data and answer.succeeded:
        prp1, prp2 = struct.unpack_from("<QQ", entry, 24)
        written = tb.read_prp_pair(prp1, prp2, len(answer.data))
        if written != answer.data:
            where = next(index for index, (a, b) in enumerate(zip(written, answer.data)) if a != b)
            raise AssertionError(f"CID {done.cid}: data byte {where}: {written[where]:#04x}, "
                                 f"expected {answer.data[where]:#04x}")
    return done


async def admin_command_raising_an_event(tb: TB, queue, model: AdminModel, entry: bytes, event_cid: int):
    """An admin command whose effect completes the waiting event request too: both completions,
    in either order; the command's checked as admin_command does, the event's returned."""
    await queue.submit(entry)
    completions = {done.cid: done for done in await tb.reap(queue, 2)}
    cid = int.from_bytes(entry[2:4], "little")
    assert sorted(completions) == sorted((cid, event_cid)), completions
    answer = model.answer(entry)
    done = completions[cid]
    assert (done.result, done.status_type, done.status_code) == (answer.result, answer.status_type,
                                                                answer.status_code), (done, answer)
    return completions[event_cid]


async def bad_doorbell(tb: TB, model: AdminModel, information: int = nvme_admin.AEI_INVALID_DOORBELL_REGISTER):
    """A tail doorbell of I/O queue 9, which does not exist; the model is told."""
    await tb.bar.write_dword(tb.host.doorbell(9, False), 1)
    await ClockCycles(tb.dut.user_clk, 40)
    return model.record_doorbell_error(information)


@cocotb.test(timeout_time=500, timeout_unit="us")
async def log_pages_report_what_the_controller_did(dut):
    """Reads and Writes that succeed and fail, admin errors and a bad doorbell; then the three
    pages read whole, from offsets, past their ends and across PRP1's page into PRP2, each the
    model's byte for byte; unsupported pages, offsets and lengths refused with their status."""
    tb = TB(dut)
    await tb.bring_up()
    rng = test_rng("log-pages")
    model = new_model()
    queue = await tb.admin_queue(16)
    [pair] = await tb.create_io_pairs(queue, 1, 16)
    tb.fill_namespace(rng)
    cursor = [0]
    blocks_most = (32 * 4096) >> tb.lba_shift  # MDTS 5: 128 KiB
    work = [(nvme_nvm.OP_READ, 0, blocks_most), (nvme_nvm.OP_READ, 5, 1), (nvme_nvm.OP_WRITE, 9, 8),
            (nvme_nvm.OP_WRITE, 40, blocks_most), (nvme_nvm.OP_READ, tb.namespace_blocks - 1, 2),  # past the end
            (nvme_nvm.OP_WRITE_ZEROES, 3, 4), (nvme_nvm.OP_READ, 7, blocks_most)]
    for index, (opcode, slba, blocks) in enumerate(work):
        prp1, prp2 = host_buffers(tb, rng, opcode, blocks << tb.lba_shift, cursor)
        entry = nvme_nvm.io_command(opcode, 0x500 + index, slba, blocks, prp1, prp2)
        completions = await tb.run_commands([pair], {1: [entry]})
        [done] = completions[1]
        record_completion(model, done)
        if done.status_code == 0 and opcode in (nvme_nvm.OP_READ, nvme_nvm.OP_WRITE):
            model.record_io(opcode == nvme_nvm.OP_READ, blocks, tb.lba_shift)
    assert model.errors.count == 1, "the Read past the namespace's end fails"
    await admin_command(tb, queue, model, submission(nvme_admin.OP_GET_FEATURES, 0x600, cdw10=0x55))
    await admin_command(tb, queue, model, submission(0xC1, 0x601))
    await bad_doorbell(tb, model)
    page = tb.memory_base + 0x4000
    for cid, (log_page, dwords, offset, prp_offset) in enumerate((
            (nvme_admin.LOG_PAGE_SMART_HEALTH, 128, 0, 0), (nvme_admin.LOG_PAGE_ERROR_INFORMATION, 64, 0, 0),
            (nvme_admin.LOG_PAGE_FIRMWARE_SLOT, 128, 0, 0xF80), (nvme_admin.LOG_PAGE_ERROR_INFORMATION, 20, 64, 0x40),
            (nvme_admin.LOG_PAGE_SMART_HEALTH, 300, 32, 0xE00), (nvme_admin.LOG_PAGE_SMART_HEALTH, 1, 508, 0xFFC),
            (nvme_admin.LOG_PAGE_SMART_HEALTH, 1, 512, 0), (nvme_admin.LOG_PAGE_SMART_HEALTH, 1025, 0, 0),
            (nvme_admin.LOG_PAGE_FIRMWARE_SLOT, 4, 2, 0), (0x05, 128, 0, 0), (nvme_admin.LOG_PAGE_SMART_HEALTH, 128, 0, 2))):
        tb.write_memory(page, bytes([0xEE]) * 0x2000)
        await admin_command(tb, queue, model, get_log_page(0x700 + cid, log_page, dwords, offset, page + prp_offset,
                                                           page + 0x1000, nsid=0xFFFFFFFF))
    # The SMART page is the controller's: NSID 1 is Invalid Field
    await admin_command(tb, queue, model, get_log_page(0x7F0, nvme_admin.LOG_PAGE_SMART_HEALTH, 128, prp1=page,
                                                       nsid=1))
    smart = tb.read_memory(page, 512)
    tb.write_memory(page, bytes(512))
    await admin_command(tb, queue, model, get_log_page(0x7F1, nvme_admin.LOG_PAGE_SMART_HEALTH, 128, prp1=page))
    smart = tb.read_memory(page, 512)
    reads, writes = int.from_bytes(smart[64:80], "little"), int.from_bytes(smart[80:96], "little")
    assert (reads, writes) == (3, 2), f"SMART host read/write commands {reads}/{writes}: 3 Reads and 2 Writes succeeded"


@cocotb.test(timeout_time=50, timeout_unit="us")
async def an_event_type_is_masked_until_its_log_page_is_read(dut):
    """A bad doorbell completes the waiting event request; the next ones complete nothing while
    the type is masked, and neither does a read of the error log with RAE set or of the SMART
    page; the error log read with RAE cleared lets the next bad doorbell through. The error log
    holds every one of them."""
    tb = TB(dut)
    await tb.bring_up()
    model = new_model()
    queue = await tb.admin_queue(16)
    page = tb.memory_base + 0x4000
    await queue.submit(submission(nvme_admin.OP_ASYNC_EVENT_REQUEST, 0x70))
    await queue.submit(submission(nvme_admin.OP_ASYNC_EVENT_REQUEST, 0x71))
    assert await bad_doorbell(tb, model)
    [event] = await tb.reap(queue, 1)
    assert (event.cid, event.result) == (0x70, model.events.take_report()), event
    nvme_coverage.doorbell("queue_never_created", "invalid_register_event")
    for reader in (get_log_page(0x80, nvme_admin.LOG_PAGE_ERROR_INFORMATION, 64, prp1=page, retain_event=True),
                   get_log_page(0x81, nvme_admin.LOG_PAGE_SMART_HEALTH, 128, prp1=page, nsid=0xFFFFFFFF),
                   None):
        if reader:
            await admin_command(tb, queue, model, reader)
        assert not await bad_doorbell(tb, model), "the model unmasked errors"
        await ClockCycles(dut.user_clk, QUIET_CYCLES)
        assert await queue.reap() == [], "an error event was reported while errors were masked"
        nvme_coverage.doorbell("queue_never_created", "masked")
    await admin_command(tb, queue, model, get_log_page(0x82, nvme_admin.LOG_PAGE_ERROR_INFORMATION, 64, prp1=page))
    await ClockCycles(dut.user_clk, QUIET_CYCLES)
    assert await queue.reap() == [], "reading the log is no event"
    assert await bad_doorbell(tb, model) is True
    [event] = await tb.reap(queue, 1)
    assert (event.cid, event.result) == (0x71, model.events.take_report()), event
    await admin_command(tb, queue, model, get_log_page(0x83, nvme_admin.LOG_PAGE_ERROR_INFORMATION, 64, prp1=page))


@cocotb.test(timeout_time=50, timeout_unit="us")
async def a_temperature_threshold_crossed_raises_a_smart_event(dut):
    """With Feature 0Bh clear, an over-temperature threshold under the composite temperature sets
    the critical warning and raises nothing; with bit 1 set, the next crossing completes the event
    request (SMART/Health, temperature, log 02h) and the warning is in the SMART page; crossing
    again raises nothing until the SMART page is read with RAE cleared, and reading it while the
    warning stays on raises nothing either. A controller reset puts the thresholds back."""
    tb = TB(dut)
    await tb.bring_up()
    model = new_model()
    queue = await tb.admin_queue(16)
    page = tb.memory_base + 0x4000
    temperature = nvme_admin.FEATURE_TEMPERATURE_THRESHOLD
    config = nvme_admin.FEATURE_ASYNC_EVENT_CONFIGURATION

    def threshold(cid: int, kelvin: int, under: bool = False) -> bytes:
        return submission(nvme_admin.OP_SET_FEATURES, cid, cdw10=temperature, cdw11=kelvin | int(under) << 20)

    def smart(cid: int, retain: bool = False) -> bytes:
        return get_log_page(cid, nvme_admin.LOG_PAGE_SMART_HEALTH, 128, prp1=page, nsid=0xFFFFFFFF, retain_event=retain)

    await queue.submit(submission(nvme_admin.OP_ASYNC_EVENT_REQUEST, 0x90))
    for entry in (threshold(1, 300), smart(2, retain=True), threshold(3, 343)):
        await admin_command(tb, queue, model, entry)
    assert await queue.reap() == []
    await admin_command(tb, queue, model, submission(nvme_admin.OP_SET_FEATURES, 4, cdw10=config, cdw11=0x2))
    event = await admin_command_raising_an_event(tb, queue, model, threshold(5, 400, under=True), 0x90)  # too cold
    assert (event.cid, event.result) == (0x90, model.events.take_report()), event
    assert event.result == nvme_admin.async_event_dw0(nvme_admin.AET_SMART_HEALTH, nvme_admin.AEI_TEMPERATURE_THRESHOLD,
                                                      nvme_admin.LOG_PAGE_SMART_HEALTH)
    await admin_command(tb, queue, model, smart(6, retain=True))
    assert tb.read_memory(page, 1)[0] & 2, "the SMART page's critical warning"
    await queue.submit(submission(nvme_admin.OP_ASYNC_EVENT_REQUEST, 0x91))
    for entry in (threshold(7, 0, under=True), threshold(8, 250), threshold(9, 343)):
        await admin_command(tb, queue, model, entry)
    await ClockCycles(dut.user_clk, QUIET_CYCLES)
    assert await queue.reap() == [], "a SMART event while SMART events are masked"
    await admin_command(tb, queue, model, smart(10))
    event = await admin_command_raising_an_event(tb, queue, model, threshold(11, 250), 0x91)
    assert (event.cid, event.result) == (0x91, model.events.take_report()), event
    # The warning is still on: reading the page unmasks SMART events, but only a new crossing
    # raises one
    await queue.submit(submission(nvme_admin.OP_ASYNC_EVENT_REQUEST, 0x92))
    await admin_command(tb, queue, model, smart(15))
    await ClockCycles(dut.user_clk, QUIET_CYCLES)
    assert await queue.reap() == [], "a SMART event with no new crossing"
    # A controller reset: the thresholds and Feature 0Bh are back at their defaults
    await tb.host.reset()
    model.reset()
    await queue.set_up()
    queue.tail = queue.head = 0
    queue.phase = 1
    tb.write_memory(queue.cq_base, bytes(16 * 16))
    await tb.host.enable()
    await admin_command(tb, queue, model, submission(nvme_admin.OP_GET_FEATURES, 12, cdw10=temperature))
    await admin_command(tb, queue, model, submission(nvme_admin.OP_GET_FEATURES, 13, cdw10=config))
    await admin_command(tb, queue, model, smart(14))
    assert tb.read_memory(page, 1)[0] == 0, "no warning after the reset"


@cocotb.test(timeout_time=20, timeout_unit="us")
async def fused_and_sgl_commands_are_refused_and_not_executed(dut):
    """A Write with FUSE set, a Read with PSDT 01b (SGL) and one with PSDT 11b: Invalid Field, no
    host memory read or written, the namespace unchanged; an Identify with FUSE writes nothing; an
    Asynchronous Event Request with PSDT set completes at once instead of waiting."""
    tb = TB(dut)
    await tb.bring_up()
    rng = test_rng("fused")
    model = new_model()
    queue = await tb.admin_queue(16)
    [pair] = await tb.create_io_pairs(queue, 1, 16)
    nvm = tb.fill_namespace(rng)
    cursor = [0]
    entries = []
    for index, (opcode, fuse, psdt) in enumerate(((nvme_nvm.OP_WRITE, 1, 0), (nvme_nvm.OP_READ, 0, 1),
                                                  (nvme_nvm.OP_READ, 0, 3), (nvme_nvm.OP_WRITE, 2, 0))):
        prp1, prp2 = host_buffers(tb, rng, opcode, 8 << tb.lba_shift, cursor)
        entry = bytearray(nvme_nvm.io_command(opcode, 0x40 + index, 16 * index, 8, prp1, prp2))
        entry[1] |= fuse | psdt << 6
        entries.append(bytes(entry))
    buffers_before = tb.read_memory(tb.data_base, 0x10000)
    completions = await tb.run_commands([pair], {1: entries})
    assert [(done.status_type, done.status_code, done.do_not_retry) for done in completions[1]] == \
        [(0, nvme_admin.SC_INVALID_FIELD, True)] * 4, completions[1]
    assert all(nvm.execute(entry, tb.read_memory, tb.write_memory) == nvme_admin.SC_INVALID_FIELD
               for entry in entries), "the NVM model refuses them too"
    assert tb.read_memory(tb.data_base, 0x10000) == buffers_before, "a refused Read wrote host memory"
    assert tb.namespace.read(0, 64 << tb.lba_shift) == bytes(nvm.namespace[:64 << tb.lba_shift]), "a refused Write wrote"
    page = tb.memory_base + 0x4000
    tb.write_memory(page, bytes([0xEE]) * 4096)
    identify = bytearray(submission(nvme_admin.OP_IDENTIFY, 0x50, cdw10=nvme_admin.CNS_CONTROLLER, prp1=page))
    identify[1] |= 1
    await admin_command(tb, queue, model, bytes(identify))
    assert tb.read_memory(page, 4096) == bytes([0xEE]) * 4096, "a refused Identify wrote its data"
    aer = bytearray(submission(nvme_admin.OP_ASYNC_EVENT_REQUEST, 0x51))
    aer[1] |= 1 << 6
    await admin_command(tb, queue, model, bytes(aer))
