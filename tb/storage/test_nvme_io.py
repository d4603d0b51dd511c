# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""nvme_controller's I/O queues: NVM Read, Write, Flush and Write Zeroes through every PRP form,
random traffic over every queue pair granted, commands behind a draining Write, and fetches
held back by a full I/O CQ, every completion, namespace byte and read byte predicted by
src/dpuv/models/nvme_nvm.py."""

from __future__ import annotations

import cocotb
from cocotb.triggers import ClockCycles

from dpuv.models import nvme_admin, nvme_nvm
from dpuv.models.nvme_admin import submission
from dpuv.tb.testbench import build_parameters, test_rng

import nvme_coverage
from nvme_bench import (COMMANDS_PER_ROUND, MSIX_VECTORS, TB, check_counters, check_data, check_io_completions,
                        executed_commands, host_buffers, io_vector, random_round)


def fused(entry: bytes) -> bytes:
    """The entry marked as the first of a fused pair (CDW0 FUSE = 01b), which this controller refuses."""
    return entry[:1] + bytes([entry[1] | 0x01]) + entry[2:]


def list_with_a_misaligned_chain(tb: TB, cursor: list) -> tuple[int, int]:
    """PRP1 and PRP2 of a three-page transfer whose PRP list starts in its page's last slot, so that
    the slot chains to the next list page; the chain points 16 bytes into a page (an entry inside
    a PRP list must be page aligned: PRP Offset Invalid)."""
    first_page, list_page, next_list_page = (tb.data_base + cursor[0] + 4096 * index for index in range(3))
    cursor[0] += 3 * 4096
    chain_slot = list_page + 4096 - 8
    tb.write_memory(chain_slot, (next_list_page + 16).to_bytes(8, "little"))
    return first_page, chain_slot


@cocotb.test(timeout_time=500, timeout_unit="us")
async def nvm_commands_move_every_byte_as_the_model_predicts(dut):
    """Two I/O queue pairs, random Write, Read, Flush and Write Zeroes with PRP1 alone, PRP1 and
    PRP2, and PRP lists (some chained into a second list page), at random dword offsets: every completion (SQID, CID, SQHD, phase,
    status) and every byte of the namespace and of the read buffers as the model says; hostile
    commands (namespace, LBA range and 64-bit wrap, MDTS, PRP offsets and a list's chain with an
    offset, host memory that is not
    there, an unknown opcode, a fused command; Flush, Write Zeroes and the unknown opcode each
    with a bad namespace) refused with their status, the queues going on; MSI-X on each CQ's
    vector."""
    rng = test_rng("nvm")
    tb = TB(dut)
    await tb.bring_up()
    await tb.device_view.alloc_irq_vectors(1, MSIX_VECTORS)
    admin = await tb.admin_queue(16)
    model = tb.fill_namespace(rng)
    pairs = await tb.create_io_pairs(admin, 2, 8)
    await tb.host.clear_counters()
    block = 1 << tb.lba_shift
    cursor = [0]
    commands = []
    for index in range(28):
        kind = rng.choice(["write", "write", "read", "read", "flush", "zeroes"])
        blocks = rng.choice([1, 2, 7, 8, 9, 16, 24])
        # Each command its own blocks and pages, so the queues' interleaving cannot change results
        slba = 64 + 32 * index
        opcode = {"write": nvme_nvm.OP_WRITE, "read": nvme_nvm.OP_READ, "flush": nvme_nvm.OP_FLUSH,
                  "zeroes": nvme_nvm.OP_WRITE_ZEROES}[kind]
        prp1, prp2 = host_buffers(tb, rng, opcode, blocks * block, cursor, chained_lists=True)
        commands.append(nvme_nvm.io_command(opcode, 0x100 + index, slba, blocks, prp1, prp2))
    unmapped = 0x1_0000_0000
    misaligned_chain = list_with_a_misaligned_chain(tb, cursor)
    hostile = [nvme_nvm.io_command(nvme_nvm.OP_READ, 0x200, 0, 1, tb.data_base, nsid=2),
               nvme_nvm.io_command(nvme_nvm.OP_WRITE, 0x201, 0, 1, tb.data_base, nsid=0),
               nvme_nvm.io_command(nvme_nvm.OP_READ, 0x202, tb.namespace_blocks - 1, 2, tb.data_base),
               nvme_nvm.io_command(nvme_nvm.OP_READ, 0x203, (1 << 64) - 1, 2, tb.data_base),
               nvme_nvm.io_command(nvme_nvm.OP_WRITE, 0x204, 0, 300, tb.data_base),
               nvme_nvm.io_command(nvme_nvm.OP_READ, 0x205, 0, 1, tb.data_base + 2),
               nvme_nvm.io_command(nvme_nvm.OP_WRITE, 0x206, 0, 8, tb.data_base + 0x800, tb.data_base + 0x100),
               nvme_nvm.io_command(nvme_nvm.OP_WRITE, 0x207, 4, 2, unmapped),
               nvme_nvm.io_command(0x7F, 0x208, 0, 1, tb.data_base),
               # Every opcode meets the checks that come before its data (functional coverage
               # showed Flush, Write Zeroes and the unknown opcode had met none of them)
               nvme_nvm.io_command(nvme_nvm.OP_FLUSH, 0x209, 0, 1, nsid=2),
               nvme_nvm.io_command(nvme_nvm.OP_WRITE_ZEROES, 0x20A, 0, 1, nsid=0),
               nvme_nvm.io_command(0x7F, 0x20B, 0, 1, tb.data_base, nsid=2),
               nvme_nvm.io_command(nvme_nvm.OP_WRITE_ZEROES, 0x20C, tb.namespace_blocks - 1, 2),
               nvme_nvm.io_command(nvme_nvm.OP_WRITE, 0x20D, tb.namespace_blocks - 1, 2, tb.data_base),
               nvme_nvm.io_command(nvme_nvm.OP_READ, 0x20E, 0, 300, tb.data_base),
               fused(nvme_nvm.io_command(nvme_nvm.OP_FLUSH, 0x20F, 0, 1)),
               fused(nvme_nvm.io_command(nvme_nvm.OP_WRITE_ZEROES, 0x210, 0, 1)),
               fused(nvme_nvm.io_command(0x7F, 0x211, 0, 1, tb.data_base)),
               nvme_nvm.io_command(nvme_nvm.OP_READ, 0x212, 8, 3 * 4096 >> tb.lba_shift, *misaligned_chain)]
    order = commands + hostile
    rng.shuffle(order)
    assert cursor[0] <= 1024 * 1024
    submitted = {1: [], 2: []}
    expected, moved = {}, {}
    read_back = []
    for entry in order:
        pair = pairs[rng.randrange(2)]
        # Predict as the engine will execute: per queue in order, the queues taking turns; data
        # ranges of different commands never overlap in time here, so the model runs them now
        status = model.execute(entry, tb.read_memory, lambda address, data: read_back.append((address, data)))
        cid = int.from_bytes(entry[2:4], "little")
        expected[(pair.qid, cid)] = status
        moved[(pair.qid, cid)] = model.moved
        submitted[pair.qid].append(entry)
    for qid in (1, 2):
        tb.device_view.msi_vectors[qid].event.clear()
    completions = await tb.run_commands(pairs, submitted)
    check_io_completions(tb, pairs, submitted, completions, expected)
    for qid in (1, 2):
        assert tb.device_view.msi_vectors[qid].event.is_set(), f"no MSI-X message on CQ {qid}'s vector"
    checked = check_data(tb, model, read_back)
    dut._log.info("%d commands, %d read bytes and %d namespace bytes checked", len(order), checked,
                  tb.namespace_blocks * block)
    check_counters(await tb.host.read_counters(), block, executed_commands(submitted, expected, moved))


@cocotb.test(timeout_time=500, timeout_unit="us")
async def random_mixed_traffic_over_every_queue_pair(dut):
    """What a driver does at start-up (Set Features Number of Queues, an I/O CQ/SQ pair for each one
    granted: 16, or 64 in the largest build; one MSI-X vector each, shared past 31), then rounds of random Read, Write, Flush and Write Zeroes of 1 to 12 blocks with
    random PRP layouts on random queues: every completion on (SQID, CID) and every byte of the
    namespace and of the read buffers as the model says, and the counters agreeing. Each queue
    owns a slice of the namespace, so the model's order within a queue is the engine's."""
    rng = test_rng("traffic")
    tb = TB(dut)
    await tb.bring_up()
    await tb.device_view.alloc_irq_vectors(1, MSIX_VECTORS)
    admin = await tb.admin_queue(16)
    # Ask for 64 pairs, the most the controller can have; use every one it grants
    await admin.submit(submission(nvme_admin.OP_SET_FEATURES, 1, cdw10=0x07, cdw11=63 << 16 | 63))
    [granted] = await tb.reap(admin, 1)
    queues = build_parameters().get("QUEUES", 17) - 1
    assert granted.status_code == 0 and granted.result == (queues - 1) << 16 | (queues - 1), granted
    pairs = await tb.create_io_pairs(admin, queues, 8)
    model = tb.fill_namespace(rng)
    # An Asynchronous Event Request waits on the admin queue while the I/O queues are busy
    await admin.submit(submission(nvme_admin.OP_ASYNC_EVENT_REQUEST, 0x77))
    await ClockCycles(dut.user_clk, 200)  # taken before the counters are cleared
    for round_index in range(2):
        commands, checked = await random_round(tb, pairs, model, rng, COMMANDS_PER_ROUND)
        dut._log.info("round %d: %d commands over %d queues, %d read bytes and the namespace checked",
                      round_index, commands, queues, checked)
        if round_index == 0:
            # A doorbell of a queue that does not exist, right after I/O: the event completes the
            # request on the admin CQ (not the CQ of the I/O queue that ran last)
            await tb.bar.write_dword(tb.host.doorbell(queues + 1, False), 1)
            [event] = await tb.reap(admin, 1)
            assert (event.sq_id, event.cid, event.status_code) == (0, 0x77, 0), event
            assert event.result == nvme_admin.async_event_result(nvme_admin.AEI_INVALID_DOORBELL_REGISTER), event
            nvme_coverage.doorbell("queue_never_created", "invalid_register_event")
    for qid in tb.queues_used:
        assert tb.device_view.msi_vectors[io_vector(qid)].event.is_set(), f"no MSI-X message on CQ {qid}'s vector"


@cocotb.test(timeout_time=500, timeout_unit="us")
async def commands_behind_a_draining_write_see_its_data(dut):
    """A Write's data may still be arriving when the next command starts (the controller releases
    it once its reads are out). Commands on one queue must still act as if run one after
    another: a Read, Write Zeroes, Flush or an overlapping Write right behind a 4 KiB Write of the
    same blocks sees (or overwrites) all of its data, and a Write of other blocks goes ahead
    beside it; every completion and byte as the model, run in submission order, predicts."""
    rng = test_rng("write-order")
    tb = TB(dut, max_payload=1024, max_read_request=1024)
    await tb.bring_up()
    admin = await tb.admin_queue(16)
    model = tb.fill_namespace(rng)
    [pair] = await tb.create_io_pairs(admin, 1, 64)
    await tb.host.clear_counters()
    blocks = 4096 >> tb.lba_shift
    cursor = [0]
    submitted, expected, read_back = {pair.qid: []}, {}, []

    def command(opcode: int, slba: int, count: int) -> None:
        prp1, prp2 = host_buffers(tb, rng, opcode, count << tb.lba_shift, cursor)
        cid = len(submitted[pair.qid]) + 1
        entry = nvme_nvm.io_command(opcode, cid, slba, count, prp1, prp2)
        expected[(pair.qid, cid)] = model.execute(entry, tb.read_memory,
                                                  lambda address, data: read_back.append((address, data)))
        submitted[pair.qid].append(entry)

    for round_index in range(4):
        base = 4 * blocks * round_index
        # Each kind of command right behind a Write of the same blocks (partly or wholly)
        for opcode, offset, count in ((nvme_nvm.OP_READ, 0, blocks), (nvme_nvm.OP_WRITE, blocks // 2, blocks),
                                      (nvme_nvm.OP_WRITE_ZEROES, 1, 2), (nvme_nvm.OP_FLUSH, 0, 1),
                                      (nvme_nvm.OP_WRITE, 2 * blocks, blocks), (nvme_nvm.OP_READ, 0, 3 * blocks)):
            command(nvme_nvm.OP_WRITE, base, blocks)
            command(opcode, base + offset, count)
    completions = await tb.run_commands([pair], submitted)
    check_io_completions(tb, [pair], submitted, completions, expected)
    assert all(status == 0 for status in expected.values()), expected
    checked = check_data(tb, model, read_back)
    dut._log.info("%d commands behind draining Writes, %d read bytes checked", len(submitted[pair.qid]), checked)


@cocotb.test(timeout_time=50, timeout_unit="us")
async def an_io_fetch_takes_no_more_entries_than_the_cq_has_room_for(dut):
    """The host leaves an I/O CQ's head where it is. With 2 of its 8 slots free and 5 entries
    waiting (3 of them before the SQ's end), the controller fetches and completes 2 and waits:
    a read takes no more entries than the CQ has room for, or a completion would land in a full
    CQ. Once the head doorbell frees the CQ the other 3 arrive, none overwritten, in order."""
    tb = TB(dut)
    await tb.bring_up()
    admin = await tb.admin_queue(16)
    [pair] = await tb.create_io_pairs(admin, 1, 8)
    flushes = [nvme_nvm.io_command(nvme_nvm.OP_FLUSH, cid, 0, 1) for cid in range(1, 11)]
    for entry in flushes[:5]:
        pair.place(entry)
    await pair.ring()
    await tb.bar.cycles(600)
    first = await pair.reap(ring_head=False)
    assert len(first) == 5, first
    for entry in flushes[5:]:
        pair.place(entry)
    await pair.ring()
    await tb.bar.cycles(600)
    # 7 of the 8 slots used: the CQ is full (its head is still 0), nothing more may be written
    held = await pair.reap(ring_head=False)
    assert len(held) == 2, held
    await tb.bar.write_dword(tb.host.doorbell(pair.qid, True), pair.head)
    completions = first + held + await tb.reap(pair, 3)
    # SQHD: the SQ head just past each entry (cid n sits in slot n - 1 of the 8)
    assert [(completion.sq_id, completion.cid, completion.status_code, completion.sq_head)
            for completion in completions] == [(pair.qid, cid, 0, cid % 8) for cid in range(1, 11)], completions
