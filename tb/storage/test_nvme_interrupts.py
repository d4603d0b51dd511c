# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""nvme_controller's interrupts: MSI-X per completion queue, masked vectors pending in the PBA,
and Interrupt Coalescing (aggregation threshold and time)."""

from __future__ import annotations

import cocotb
from cocotb.triggers import ClockCycles, First, RisingEdge, Timer
from cocotb.utils import get_sim_time

from dpuv.models import nvme_admin, nvme_nvm
from dpuv.models.nvme_admin import submission
from dpuv.tb.testbench import test_rng

from nvme_bench import MSIX_PBA, MSIX_TABLE, MSIX_VECTORS, SignalStamps, TB, io_vector


@cocotb.test(timeout_time=50, timeout_unit="us")
async def completions_raise_msix_vector_0_and_masked_ones_wait_in_the_pba(dut):
    """The host's MSI-X set-up writes the table in BAR0; each admin completion then raises vector
    0 after its entry is in memory. With the vector masked the interrupt waits (its PBA bit set)
    and goes out when the mask is cleared: none is lost."""
    tb = TB(dut)
    await tb.bring_up()
    vectors = await tb.device_view.alloc_irq_vectors(1, MSIX_VECTORS)
    assert vectors == MSIX_VECTORS, vectors
    vector = tb.device_view.msi_vectors[0]
    queue = await tb.admin_queue(8)
    vector.event.clear()
    await queue.submit(submission(nvme_admin.OP_ABORT, 0x41))
    await First(vector.event.wait(), Timer(20, "us"))
    assert vector.event.is_set(), "no MSI-X message for the admin completion"
    # The entry was in memory when the message arrived
    [done] = await queue.reap()
    assert done.cid == 0x41
    # Masked: the completion is posted, the interrupt waits in the PBA
    await tb.bar.write_dword(MSIX_TABLE + 12, 1)
    vector.event.clear()
    await queue.submit(submission(nvme_admin.OP_ABORT, 0x42))
    [done] = await tb.reap(queue, 1)
    await ClockCycles(dut.user_clk, 100)
    assert not vector.event.is_set(), "a masked vector sent its message"
    assert await tb.bar.read_dword(MSIX_PBA) & 1, "the masked interrupt is not pending"
    await tb.bar.write_dword(MSIX_TABLE + 12, 0)
    await First(vector.event.wait(), Timer(20, "us"))
    assert vector.event.is_set(), "the pending interrupt was lost when the vector was unmasked"
    assert await tb.bar.read_dword(MSIX_PBA) & 1 == 0


@cocotb.test(timeout_time=20, timeout_unit="us")
async def the_msix_table_reads_back_what_the_host_wrote(dut):
    """The MSI-X table is read/write memory to the host (PCIe, MSI-X table structure): each
    entry's message address, upper address and data read back as written, and its vector control
    reads the mask bit alone (the other bits are reserved, read as 0). Three vectors, the last
    among them, with random values (the address DWORD-aligned, as software must write it)."""
    tb = TB(dut)
    await tb.bring_up()
    rng = test_rng("msix table")
    written = {}
    for vector in (0, 1, MSIX_VECTORS - 1):
        written[vector] = [rng.getrandbits(32) & ~3, rng.getrandbits(32), rng.getrandbits(32)]
        for index, value in enumerate(written[vector]):
            await tb.bar.write_dword(MSIX_TABLE + 16 * vector + 4 * index, value)
        await tb.bar.write_dword(MSIX_TABLE + 16 * vector + 12, 0xFFFF_FFFF if vector % 2 else 0xFFFF_FFFE)
    for vector, values in written.items():
        read = [await tb.bar.read_dword(MSIX_TABLE + 16 * vector + 4 * index) for index in range(4)]
        assert read == values + [vector % 2], \
            f"vector {vector}: the table reads {[hex(word) for word in read]}, the host wrote {[hex(word) for word in values]}"


@cocotb.test(timeout_time=50, timeout_unit="us")
async def a_4k_read_goes_from_doorbell_to_msix(dut):
    """One 4 KiB Read on I/O queue 1, alone on the controller: the entry fetched after its
    doorbell, the namespace read, the data in host memory as the model says, the completion
    entry, then the CQ's MSI-X message. The waveform scenario read_4k_doorbell_to_msix keeps
    this path's timing under review."""
    tb = TB(dut)
    await tb.bring_up()
    await tb.device_view.alloc_irq_vectors(1, MSIX_VECTORS)
    admin = await tb.admin_queue(8)
    [pair] = await tb.create_io_pairs(admin, 1, 8)
    model = tb.fill_namespace(test_rng("read-4k"))
    vector = tb.device_view.msi_vectors[io_vector(pair.qid)]
    vector.event.clear()
    blocks = 4096 >> tb.lba_shift
    buffer = tb.data_base + 0x3000
    entry = nvme_nvm.io_command(nvme_nvm.OP_READ, 0x77, 8, blocks, buffer)
    expected = {}
    assert model.execute(entry, tb.read_memory, lambda address, data: expected.update({address: data})) == 0
    await pair.submit(entry)
    await First(vector.event.wait(), Timer(20, "us"))
    assert vector.event.is_set(), "no MSI-X message on the CQ's vector"
    [done] = await pair.reap()
    assert (done.cid, done.status_code, done.sq_id) == (0x77, 0, pair.qid), done
    assert tb.read_memory(buffer, 4096) == b"".join(expected[address] for address in sorted(expected)), \
        "the Read's data"


TIME_UNIT_CYCLES = 25000  # Interrupt Coalescing's 100 us at 250 MHz (the build's default)
USER_CLOCK_NS = 4


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def interrupt_coalescing_holds_io_interrupts_as_set(dut):
    """Set Features Interrupt Coalescing, THR 3 and TIME 2: eight I/O completions on one CQ raise
    two MSI-X messages (one per four entries); a lone completion's message comes after at least
    one and at most two 100 us units; an admin completion's comes at once; Interrupt Vector
    Configuration's Coalescing Disable on the CQ's vector sends each entry's message at once, and
    cleared holds them again; TIME 0 turns coalescing off again (a message per entry, as before)."""
    tb = TB(dut)
    await tb.bring_up()
    await tb.device_view.alloc_irq_vectors(1, MSIX_VECTORS)
    admin = await tb.admin_queue(16)
    [pair] = await tb.create_io_pairs(admin, 1, 16)
    model = tb.fill_namespace(test_rng("coalescing"))
    # Cycles from sim time: the test waits hundreds of thousands of cycles, with no coroutine
    # woken at every one of them
    def now() -> int:
        return int(get_sim_time("ns")) // USER_CLOCK_NS
    messages = SignalStamps(dut.cfg_interrupt_msix_int, dut.user_clk, now)
    entries_written = []   # cycles of completion entry writes (one beat each) to either CQ

    async def watch_completion_entries() -> None:
        rq = dut.s_axis_rq_tdata
        starting = True
        while True:
            if dut.s_axis_rq_tvalid.value != 1:
                await RisingEdge(dut.s_axis_rq_tvalid)
            await RisingEdge(dut.user_clk)
            if dut.s_axis_rq_tvalid.value == 1 and dut.s_axis_rq_tready.value == 1:
                if starting:
                    descriptor = int(rq.value) & ((1 << 128) - 1)
                    address, request_type = descriptor & ~3 & ((1 << 64) - 1), (descriptor >> 75) & 0xF
                    if request_type == 1 and any(base <= address < base + 16 * 16
                                                 for base in (pair.cq_base, admin.cq_base)):
                        entries_written.append(now())
                starting = dut.s_axis_rq_tlast.value == 1
    cocotb.start_soon(watch_completion_entries())

    async def set_coalescing(threshold: int, time_units: int) -> int:
        """The admin completion's message delay in cycles (from its entry's last beat)."""
        await admin.submit(submission(nvme_admin.OP_SET_FEATURES, 0x40 + time_units,
                                      cdw10=nvme_admin.FEATURE_INTERRUPT_COALESCING, cdw11=time_units << 8 | threshold))
        [done] = await tb.reap(admin, 1)
        assert done.status_code == 0, done
        entry_written = entries_written[-1]
        return min(stamp for stamp in messages.stamps if stamp >= entry_written) - entry_written

    async def reads(count: int) -> list[int]:
        """count 1-block Reads placed together; the cycles of their completion entries' last beats."""
        submitted = {pair.qid: []}
        for index in range(count):
            entry = nvme_nvm.io_command(nvme_nvm.OP_READ, 0x500 + index, index, 1, tb.data_base + 4096 * index)
            model.execute(entry, tb.read_memory, lambda address, data: None)
            submitted[pair.qid].append(entry)
        entries_written.clear()
        messages.stamps.clear()
        completions = await tb.run_commands([pair], submitted, polls=20000)
        assert all(completion.status_code == 0 for completion in completions[pair.qid]), completions
        assert len(entries_written) == count, entries_written
        return list(entries_written)

    # Off (the reset value): a message per completion entry
    await reads(8)
    assert len(messages.stamps) == 8, messages.stamps
    # THR 3 (four entries), TIME 2: the admin completion itself is not held
    admin_delay = await set_coalescing(3, 2)
    assert admin_delay <= 8, admin_delay
    entries = await reads(8)
    await Timer(3 * TIME_UNIT_CYCLES * USER_CLOCK_NS, "ns")
    assert len(messages.stamps) == 2 and messages.stamps[0] > entries[3] and messages.stamps[1] > entries[7], (
        messages.stamps, entries)
    [entry] = await reads(1)
    await Timer(3 * TIME_UNIT_CYCLES * USER_CLOCK_NS, "ns")
    [message] = messages.stamps
    assert TIME_UNIT_CYCLES < message - entry <= 2 * TIME_UNIT_CYCLES + 8, (entry, message)
    # Feature 09h CD on the CQ's vector: its messages are no longer held, each right after its entry
    async def set_vector_coalescing(disabled: bool) -> None:
        await admin.submit(submission(nvme_admin.OP_SET_FEATURES, 0x60 + disabled,
                                      cdw10=nvme_admin.FEATURE_INTERRUPT_VECTOR_CONFIGURATION,
                                      cdw11=int(disabled) << 16 | io_vector(pair.qid)))
        [done] = await tb.reap(admin, 1)
        assert done.status_code == 0, done
    await set_vector_coalescing(True)
    entries = await reads(4)
    await ClockCycles(dut.user_clk, 100)
    assert len(messages.stamps) == 4 and all(0 < message - entry <= 8 for entry, message
                                              in zip(entries, messages.stamps)), (entries, messages.stamps)
    # Cleared: held again, four entries (THR 3) to one message, which the fourth sends at once
    await set_vector_coalescing(False)
    entries = await reads(4)
    await ClockCycles(dut.user_clk, 100)
    assert len(messages.stamps) == 1 and 0 < messages.stamps[0] - entries[3] <= 8, (messages.stamps, entries)
    # TIME 0: no delay, a message per entry again
    await set_coalescing(3, 0)
    await reads(4)
    assert len(messages.stamps) == 4, messages.stamps
