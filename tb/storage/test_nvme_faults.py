# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""nvme_controller when things go wrong: host reads that are lost or answered late, completions
nobody asked for, and the controller disabled in the middle of traffic."""

from __future__ import annotations

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge, Timer
from cocotbext.pcie.core.tlp import Tlp, TlpType

from dpuv.models import nvme_admin, nvme_nvm
from dpuv.models.nvme_admin import create_queue
from dpuv.drivers.nvme import CC, CSTS_RDY, QueuePair
from dpuv.tb.testbench import test_rng

from nvme_bench import (COMMANDS_PER_ROUND, COMPLETION_TIMEOUT_CYCLES, MSIX_VECTORS, TB, check_data,
                        check_io_completions, host_buffers, io_vector, random_round)


class LossyHost:
    """The root complex's memory reads, with those that touch two 'lost' host pages held back (never
    answered, unless let go later), those that touch two 'slow' pages answered 2 us late with a
    completion for the same tag number but the other generation (tag bit 4) sent first, and
    completions nobody asked for sent on demand."""

    def __init__(self, tb: TB, lost_base: int, slow_base: int):
        self.tb, self.lost_base, self.slow_base = tb, lost_base, slow_base
        self.held = []
        self.answer = tb.rc.rx_tlp_handler[TlpType.MEM_READ_64]
        for fmt_type in (TlpType.MEM_READ, TlpType.MEM_READ_64):
            tb.rc.register_rx_tlp_handler(fmt_type, self._read)

    @staticmethod
    def _touches(base: int, address: int, length: int) -> bool:
        return address < base + 8192 and base < address + length

    def lost(self, address: int, length: int = 1) -> bool:
        return self._touches(self.lost_base, address, length)

    async def _read(self, tlp) -> None:
        if self.lost(tlp.address, tlp.length * 4):
            self.held.append(tlp)
        elif self._touches(self.slow_base, tlp.address, tlp.length * 4):
            cocotb.start_soon(self._answer_slowly(tlp))
        else:
            await self.answer(tlp)

    async def _answer_slowly(self, tlp) -> None:
        await self.unexpected(tlp.tag ^ 0x10, self.tb.data_base, tlp.length)
        await Timer(2, "us")
        await self.answer(tlp)

    async def let_go(self) -> None:
        """The held reads' completions, late."""
        held, self.held = self.held, []
        for tlp in held:
            await self.answer(tlp)

    async def unexpected(self, tag: int, address: int, dwords: int) -> None:
        """Completions for a read the device never sent, with this tag."""
        tlp = Tlp()
        tlp.fmt_type = TlpType.MEM_READ_64
        tlp.requester_id = self.tb.device.functions[0].pcie_id
        tlp.tag, tlp.address, tlp.length, tlp.first_be, tlp.last_be = tag, address, dwords, 0xF, 0xF
        await self.answer(tlp)

    def read_memory(self, address: int, length: int) -> bytes:
        """Host memory as the model may read it: the lost page is not there."""
        if self.lost(address, length):
            raise nvme_nvm.HostMemoryError(f"{address:#x} is in the lost page")
        return self.tb.read_memory(address, length)


@cocotb.test(timeout_time=1, timeout_unit="ms")
async def lost_and_unexpected_completions_end_cleanly(dut):
    """A host that never answers some reads and sends completions nobody asked for. A Write whose
    data is in a page the root complex does not answer, and a Read whose PRP list is there, end
    with Data Transfer Error once the completion timeout has passed (the other queue working
    meanwhile); a Write and a Read whose reads are answered late, after a completion with their tag
    number but the other generation, succeed; the lost reads' completions arriving late, and
    completions with tags of no read under way, are dropped; then a random round passes with
    every byte checked."""
    rng = test_rng("lost")
    tb = TB(dut)
    await tb.bring_up()
    await tb.device_view.alloc_irq_vectors(1, MSIX_VECTORS)
    admin = await tb.admin_queue(16)
    model = tb.fill_namespace(rng)
    pairs = await tb.create_io_pairs(admin, 2, 16)
    lost_region, slow_region = tb.rc.mem_pool.alloc_region(8192), tb.rc.mem_pool.alloc_region(8192)
    lost_base, slow_base = lost_region.get_absolute_address(0), slow_region.get_absolute_address(0)
    tb.regions += [(lost_region, lost_base), (slow_region, slow_base)]
    host = LossyHost(tb, lost_base, slow_base)
    block = 1 << tb.lba_shift
    cursor = [0]
    submitted, expected, read_back = {1: [], 2: []}, {}, []

    def command(qid: int, opcode: int, slba: int, blocks: int, prp1: int, prp2: int = 0) -> None:
        cid = 0x300 + len(expected)
        entry = nvme_nvm.io_command(opcode, cid, slba, blocks, prp1, prp2)
        expected[(qid, cid)] = model.execute(entry, host.read_memory,
                                             lambda address, data: read_back.append((address, data)))
        submitted[qid].append(entry)

    # Queue 1: a Write from the lost page, a Read whose PRP list is in it, then ordinary commands
    tb.write_memory(lost_base, rng.randbytes(4096))
    command(1, nvme_nvm.OP_WRITE, 0, 4096 // block, lost_base)
    first_page, _ = host_buffers(tb, rng, nvme_nvm.OP_READ, block, cursor)
    command(1, nvme_nvm.OP_READ, 16, 3 * 4096 // block, first_page - first_page % 4096, lost_base)
    # Queue 2, and queue 1 after its failures: ordinary Writes and Reads
    for index in range(6):
        for qid in (1, 2):
            blocks = rng.choice([1, 8, 9])
            opcode = rng.choice([nvme_nvm.OP_WRITE, nvme_nvm.OP_READ])
            command(qid, opcode, 64 + 32 * (2 * index + qid), blocks,
                    *host_buffers(tb, rng, opcode, blocks * block, cursor))
    assert list(expected.values())[:2] == [nvme_nvm.SC_DATA_TRANSFER_ERROR] * 2, expected
    # Completions for reads never sent: a stream read's tag, both small-read tags, a tag past them
    for tag in (5, 0, 16, 27):
        await host.unexpected(tag, tb.data_base, 16)
    completions = await tb.run_commands(pairs, submitted)
    check_io_completions(tb, pairs, submitted, completions, expected)
    check_data(tb, model, read_back)
    assert host.held, "no read went to the lost page"
    # A Write from the slow page and a Read whose PRP list is in it: each read answered late,
    # after a completion with its tag number but the other generation (the tag's generation
    # before the timeouts above, which the lost reads still hold at the host)
    submitted, read_back = {1: [], 2: []}, []
    tb.write_memory(slow_base, rng.randbytes(4096))
    command(2, nvme_nvm.OP_WRITE, 32, 4096 // block, slow_base)
    first_page, list_page = host_buffers(tb, rng, nvme_nvm.OP_READ, 3 * 4096, cursor)
    tb.write_memory(slow_base + 4096, tb.read_memory(list_page, 24))
    command(2, nvme_nvm.OP_READ, 48, 3 * 4096 // block, first_page, slow_base + 4096)
    completions = await tb.run_commands(pairs, submitted)
    check_io_completions(tb, pairs, submitted, completions, expected)
    assert all(expected[(2, int.from_bytes(entry[2:4], "little"))] == 0 for entry in submitted[2]), expected
    check_data(tb, model, read_back)
    # The lost reads answered late, and more unexpected completions, while traffic runs (the
    # round reuses the data pages): let go once a new read has the first lost read's tag number
    lost_tag = next(tlp.tag & 0xF for tlp in host.held if tlp.tag & 0xF)

    async def let_go_when_the_tag_is_reused() -> None:
        while not (int(dut.requester_inst.read_pieces_inst.tag_busy.value) >> (lost_tag - 1)) & 1:
            await RisingEdge(dut.user_clk)
        await host.let_go()
    cocotb.start_soon(let_go_when_the_tag_is_reused())
    for tag in (5, 0, 16, 27):
        cocotb.start_soon(host.unexpected(tag, tb.data_base, 16))
    await random_round(tb, pairs, model, rng, 32)


@cocotb.test(timeout_time=400, timeout_unit="us")
async def an_entry_the_host_never_returns_completes_with_an_error(dut):
    """An I/O SQ placed in a page the root complex never answers: the fetch of its entry is given
    up at the completion timeout, and the entry completes on its CQ with Data Transfer Error and
    CID 0 (its CID was never read), SQHD past it, never executed; the fetch's answer sent late is
    dropped, and the other queue's commands then complete as the model predicts."""
    rng = test_rng("unreadable entry")
    tb = TB(dut)
    await tb.bring_up()
    await tb.device_view.alloc_irq_vectors(1, MSIX_VECTORS)
    admin = await tb.admin_queue(16)
    model = tb.fill_namespace(rng)
    [working] = await tb.create_io_pairs(admin, 1, 16)
    regions = [tb.rc.mem_pool.alloc_region(8192) for _ in range(3)]
    lost_base, unused_base, cq_base = (region.get_absolute_address(0) for region in regions)
    tb.regions += [(region, region.get_absolute_address(0)) for region in regions]
    host = LossyHost(tb, lost_base, unused_base)
    lost = QueuePair(tb.host, tb.write_memory, tb.read_memory, lost_base, cq_base, 16, qid=2)
    for entry in (create_queue(nvme_admin.OP_CREATE_CQ, 0x12, 2, 16, cq_base, vector_or_cq=io_vector(2)),
                  create_queue(nvme_admin.OP_CREATE_SQ, 0x22, 2, 16, lost_base, vector_or_cq=2)):
        await admin.submit(entry)
        [done] = await tb.reap(admin, 1)
        assert done.status_code == 0, done
    # A Write of one block: executed, it would change the namespace and complete with its CID
    await lost.submit(nvme_nvm.io_command(nvme_nvm.OP_WRITE, 0x777, 5, 1, tb.data_base))
    completions = []
    for _ in range(2 * COMPLETION_TIMEOUT_CYCLES // 256):
        completions += await lost.reap()
        if completions:
            break
        await ClockCycles(dut.user_clk, 256)
    assert len(host.held) == 1 and completions, f"no completion for the unreadable entry ({len(host.held)} reads held)"
    [failed] = completions
    assert (failed.cid, failed.status_type, failed.status_code, failed.sq_id, failed.sq_head) == \
        (0, 0, nvme_nvm.SC_DATA_TRANSFER_ERROR, 2, 1), failed
    await host.let_go()
    await random_round(tb, [working], model, rng, 16)


@cocotb.test(timeout_time=500, timeout_unit="us")
async def disabling_in_the_middle_of_traffic_resets_cleanly(dut):
    """CC.EN cleared while 16 queues are busy with 16 KiB Reads and Writes (PRP lists; long enough
    that the one in hand is still moving data): CSTS.RDY clears once that command has finished
    (no transfer cut in half, no request left waiting), every completion posted before it is one
    the model predicts (a completed Read's data included); then the driver's start-up again and
    a round of random traffic with every byte checked: nothing was left stuck."""
    rng = test_rng("disable")
    tb = TB(dut)
    await tb.bring_up()
    await tb.device_view.alloc_irq_vectors(1, MSIX_VECTORS)
    admin = await tb.admin_queue(16)
    pairs = await tb.create_io_pairs(admin, 16, 16)
    model = tb.fill_namespace(rng)
    length = 16 * 1024
    blocks = length >> tb.lba_shift
    submitted, expected, read_back = {pair.qid: [] for pair in pairs}, {}, {}
    cursor = [0]
    for slot in range(2 * len(pairs)):
        pair = pairs[slot % len(pairs)]
        opcode = nvme_nvm.OP_READ if slot % 2 else nvme_nvm.OP_WRITE
        prp1, prp2 = host_buffers(tb, rng, opcode, length, cursor)
        # Every command its own blocks, so any subset of them may have run
        entry = nvme_nvm.io_command(opcode, 0x500 + slot, slot * blocks, blocks, prp1, prp2)
        key = (pair.qid, 0x500 + slot)
        expected[key] = model.execute(entry, tb.read_memory,
                                      lambda address, data, key=key: read_back.setdefault(key, []).append((address, data)))
        submitted[pair.qid].append(entry)
    assert cursor[0] <= tb.data.size
    for pair in pairs:
        for entry in submitted[pair.qid]:
            pair.place(entry)
        await pair.ring()
    done = await disable_once_some_complete(tb, pairs, expected, read_back, 8, poll_cycles=8)
    dut._log.info("CC.EN cleared after %d of %d commands completed; RDY cleared", len(done), len(expected))
    # Start again from scratch: the namespace and the model afresh
    admin = await tb.admin_queue(16)
    pairs = await tb.create_io_pairs(admin, 16, 8)
    model = tb.fill_namespace(rng)
    commands, checked = await random_round(tb, pairs, model, rng, COMMANDS_PER_ROUND)
    dut._log.info("after the reset: %d commands, %d read bytes and the namespace checked", commands, checked)


async def disable_once_some_complete(tb: TB, pairs, expected: dict, read_back: dict, at_least: int,
                                     poll_cycles: int) -> list:
    """CC.EN cleared once `at_least` of the commands rung have completed; once CSTS.RDY clears,
    every completion posted is its command's (status as `expected` says, a Read's data as
    `read_back` holds) and some commands never ran. Returns the (SQID, completion) pairs posted."""
    posted = {pair.qid: [] for pair in pairs}
    for _ in range(2000):
        for pair in pairs:
            posted[pair.qid] += await pair.reap(ring_head=False)
        if sum(map(len, posted.values())) >= at_least:
            break
        await ClockCycles(tb.dut.user_clk, poll_cycles)
    await tb.bar.write_dword(CC, 0)
    await tb.host.wait_status(CSTS_RDY, 0)
    for pair in pairs:
        posted[pair.qid] += await pair.reap(ring_head=False)
    done = [(qid, completion) for qid, completions in posted.items() for completion in completions]
    assert at_least <= len(done) < len(expected), f"{len(done)} of {len(expected)} completed: not mid-traffic"
    for qid, completion in done:
        key = (qid, completion.cid)
        assert completion.sq_id == qid and key in expected and completion.status_code == expected[key], completion
        for address, data in read_back.get(key, []):
            assert tb.read_memory(address, len(data)) == data, f"completed Read {key} data at {address:#x} differs"
    return done


@cocotb.test(timeout_time=100, timeout_unit="us")
async def disabling_while_reads_stream_lets_the_read_in_hand_finish(dut):
    """CC.EN cleared while four queues hold 8 KiB Reads (PRP1 and PRP2, no lists, so once the
    entries are in nothing more comes back from the host): the Read whose data is streaming
    finishes, its completion and every earlier one are the model's with their data, nothing new
    starts, CSTS.RDY clears; then the start-up again and a Read of every queue's blocks. The
    waveform scenario disable_under_load keeps this wind-down under review."""
    rng = test_rng("disable-reads")
    tb = TB(dut)
    await tb.bring_up()
    admin = await tb.admin_queue(16)
    pairs = await tb.create_io_pairs(admin, 4, 8)
    model = tb.fill_namespace(rng)
    blocks = 8192 >> tb.lba_shift
    expected, read_back = {}, {}
    for slot in range(4 * len(pairs)):
        pair = pairs[slot % len(pairs)]
        buffer = tb.data_base + 0x2000 * slot
        entry = nvme_nvm.io_command(nvme_nvm.OP_READ, 0x600 + slot, slot * blocks, blocks, buffer, buffer + 0x1000)
        key = (pair.qid, 0x600 + slot)
        expected[key] = model.execute(entry, tb.read_memory,
                                      lambda address, data, key=key: read_back.setdefault(key, []).append((address, data)))
        pair.place(entry)
    for pair in pairs:
        await pair.ring()
    assert set(expected.values()) == {0}, "every Read is one the model completes"
    await disable_once_some_complete(tb, pairs, expected, read_back, 3, poll_cycles=4)
    admin = await tb.admin_queue(16)
    pairs = await tb.create_io_pairs(admin, 4, 8)
    submitted = {pair.qid: [nvme_nvm.io_command(nvme_nvm.OP_READ, 0x700 + pair.qid, pair.qid * blocks, blocks,
                                                tb.data_base + 0x40000, tb.data_base + 0x41000)] for pair in pairs}
    completions = await tb.run_commands(pairs, submitted)
    assert all(done.status_code == 0 for done in sum(completions.values(), [])), completions
