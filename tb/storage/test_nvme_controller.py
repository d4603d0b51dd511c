"""nvme_controller behind cocotbext-pcie's UltraScale+ PCIe device model, with its RootComplex as the
host: enumeration, BAR0 registers as the NVMe base specification defines them, the host driver
model's reset, admin-queue set-up, enable and shutdown sequences, admin commands (every
completion predicted by src/dpuv/models/nvme_admin.py), I/O queues with NVM commands and random traffic
over 16 queue pairs (completions, namespace and read data predicted by src/dpuv/models/nvme_nvm.py),
MSI-X, disabling mid-traffic, the counters, and the figures against src/dpuv/harness/targets.toml."""

from __future__ import annotations

import logging
import struct

import cocotb
from cocotb.triggers import ClockCycles, FallingEdge, First, RisingEdge, Timer
from cocotb.utils import get_sim_time
from cocotbext.axi import AxiBus, AxiRam, AxiStreamBus
from cocotbext.pcie.core import RootComplex
from cocotbext.pcie.core.tlp import Tlp, TlpType
from cocotbext.pcie.xilinx.us import UltraScalePlusPcieDevice

from dpuv.models import nvme_admin, nvme_nvm
from dpuv.models.nvme_admin import AdminModel, create_queue, submission
from dpuv.drivers import nvme
from dpuv.drivers.nvme import (AQA, ASQ, CAP, CC, CC_EN, CC_IOCQES_16, CC_IOSQES_64, CSTS, CSTS_CFS, CSTS_RDY, VS,
                                  AdminQueue, Capabilities, ControllerError, NvmeHost, QueuePair)
from dpuv.harness import perf
from dpuv.tb.testbench import CycleCounter, HandshakeMonitor, build_parameters, test_rng

BAR0_BYTES = 32 * 1024
MSIX_TABLE, MSIX_PBA, MSIX_VECTORS = 0x2000, 0x3000, 32
READY_DELAY = 16  # the bench's build parameter: cycles from CC to CSTS
# Bus timing of every BAR access, so a controller that never answers fails the test in time
ACCESS = {"timeout": 2, "timeout_unit": "us"}


class Bar:
    """BAR0 through the root complex, with a timeout on every read."""

    def __init__(self, window):
        self.window = window

    async def read_dword(self, offset: int, **_) -> int:
        return await self.window.read_dword(offset, **ACCESS)

    async def write_dword(self, offset: int, value: int, **_) -> None:
        await self.window.write_dword(offset, value)

    async def read_qword(self, offset: int) -> int:
        return await self.window.read_qword(offset, **ACCESS)


def io_vector(qid: int) -> int:
    """The MSI-X vector of I/O CQ qid: its own up to 31, shared beyond (vector 0 is the admin CQ's)."""
    return (qid - 1) % (MSIX_VECTORS - 1) + 1


class TB:
    def __init__(self, dut, max_payload: int = 256, max_read_request: int = 512):
        """max_payload and max_read_request: what the host sets in Device Control at enumeration
        (256 B and 512 B by default, common server settings, so transfers come in many pieces;
        the device supports up to 1024 B, the UltraScale+ core's largest)."""
        self.dut = dut
        width = len(dut.s_axis_cc_tdata)
        self.rc = RootComplex()
        self.rc.max_payload_size = (max_payload // 128).bit_length() - 1
        self.max_read_request = max_read_request
        self.device = UltraScalePlusPcieDevice(
            pcie_generation=3, pcie_link_width=16 if width == 512 else 8, user_clk_frequency=250e6,
            alignment="dword", cq_straddle=False, cc_straddle=False, rq_straddle=False, rc_straddle=False,
            rc_4tlp_straddle=False, pf_count=1, max_payload_size=1024, enable_client_tag=True,
            enable_extended_tag=False, enable_parity=False, pf0_msi_enable=False,
            pf0_msix_enable=True, pf0_msix_table_size=MSIX_VECTORS - 1, pf0_msix_table_bir=0,
            pf0_msix_table_offset=MSIX_TABLE, pf0_msix_pba_bir=0, pf0_msix_pba_offset=MSIX_PBA,
            user_clk=dut.user_clk, user_reset=dut.user_reset, user_lnk_up=dut.user_lnk_up,
            rq_bus=AxiStreamBus.from_prefix(dut, "s_axis_rq"), rc_bus=AxiStreamBus.from_prefix(dut, "m_axis_rc"),
            cq_bus=AxiStreamBus.from_prefix(dut, "m_axis_cq"), cc_bus=AxiStreamBus.from_prefix(dut, "s_axis_cc"),
            cfg_max_payload=dut.cfg_max_payload, cfg_max_read_req=dut.cfg_max_read_req,
            cfg_function_status=dut.cfg_function_status,
            cfg_interrupt_msix_enable=dut.cfg_interrupt_msix_enable,
            cfg_interrupt_msix_mask=dut.cfg_interrupt_msix_mask,
            cfg_interrupt_msix_address=dut.cfg_interrupt_msix_address,
            cfg_interrupt_msix_data=dut.cfg_interrupt_msix_data,
            cfg_interrupt_msix_int=dut.cfg_interrupt_msix_int,
            cfg_interrupt_msix_sent=dut.cfg_interrupt_msix_sent,
            cfg_interrupt_msix_fail=dut.cfg_interrupt_msix_fail,
            cfg_interrupt_msi_function_number=dut.cfg_interrupt_msi_function_number)
        for logger in (self.device.log, self.rc.log, *(logging.getLogger(f"cocotb.{dut._name}.{bus}")
                                                        for bus in ("m_axis_cq", "s_axis_cc", "s_axis_rq", "m_axis_rc"))):
            logger.setLevel(logging.WARNING)
        self.rc.make_port().connect(self.device)
        function = self.device.functions[0]
        function.class_code = 0x010802  # mass storage, NVM, NVMe
        function.configure_bar(0, BAR0_BYTES, ext=True)
        self.bar = None
        self.host = None
        self.expected_sq_heads = {}
        self.next_cid = 0
        self.queues_used = set()
        parameters = build_parameters()
        self.lba_shift = parameters.get("LBA_SHIFT", 9)
        self.namespace_blocks = parameters.get("NAMESPACE_BLOCKS", 2048)
        self.namespace = AxiRam(AxiBus.from_prefix(dut, "m_axi"), dut.user_clk, dut.user_reset,
                                size=self.namespace_blocks << self.lba_shift)
        for logger in (self.namespace.write_if.log, self.namespace.read_if.log):
            logger.setLevel(logging.WARNING)

    async def bring_up(self):
        """Link up, enumerate, memory space and bus mastering on: what firmware and the OS do."""
        await FallingEdge(self.dut.user_reset)
        await Timer(100, "ns")
        await self.rc.enumerate()
        device = self.rc.find_device(self.device.functions[0].pcie_id)
        await device.enable_device()
        await device.set_master()
        await device.set_readrq((self.max_read_request // 128).bit_length() - 1)
        self.device_view = device
        self.bar = Bar(device.bar_window[0])
        self.host = NvmeHost(self.bar, lambda: ClockCycles(self.dut.user_clk, 4))
        # Host memory for the queues (the pool's first region would sit at address 0)
        self.rc.mem_pool.alloc_region(4096)
        self.memory = self.rc.mem_pool.alloc_region(64 * 1024)
        self.memory_base = self.memory.get_absolute_address(0)
        # Data buffers for NVM commands
        self.data = self.rc.mem_pool.alloc_region(1024 * 1024)
        self.data_base = self.data.get_absolute_address(0)
        self.regions = [(self.memory, self.memory_base), (self.data, self.data_base)]

    def fill_namespace(self, rng) -> nvme_nvm.NvmModel:
        """Random bytes in the whole namespace, and the NVM model holding the same."""
        contents = rng.randbytes(self.namespace_blocks << self.lba_shift)
        self.namespace.write(0, contents)
        return nvme_nvm.NvmModel(self.namespace_blocks, self.lba_shift, 5, contents)

    def _region(self, address: int, length: int):
        for region, base in self.regions:
            if base <= address and address + length <= base + region.size:
                return region, address - base
        raise nvme_nvm.HostMemoryError(f"no host memory at {address:#x}")

    def write_memory(self, address: int, data: bytes) -> None:
        region, offset = self._region(address, len(data))
        region[offset:offset + len(data)] = data

    def read_memory(self, address: int, length: int) -> bytes:
        region, offset = self._region(address, length)
        return bytes(region[offset:offset + length])

    async def admin_queue(self, entries: int) -> AdminQueue:
        """Reset, admin queues of `entries` in host memory, enable: the driver's start-up."""
        queue = AdminQueue(self.host, self.write_memory, self.read_memory, self.memory_base,
                           self.memory_base + 0x8000, entries)
        await self.host.reset()
        await queue.set_up()
        await self.host.enable()
        return queue

    async def create_io_pairs(self, admin: AdminQueue, count: int, entries: int) -> list[QueuePair]:
        """Create I/O CQ and SQ 1..count (CQ n on MSI-X vector n), each queue in its own host page."""
        queue_memory = self.rc.mem_pool.alloc_region(2 * count * 4096)
        queue_base = queue_memory.get_absolute_address(0)
        self.regions.append((queue_memory, queue_base))
        pairs = []
        for qid in range(1, count + 1):
            sq_base = queue_base + 0x2000 * (qid - 1)
            pair = QueuePair(self.host, self.write_memory, self.read_memory, sq_base, sq_base + 0x1000, entries, qid)
            for entry in (create_queue(nvme_admin.OP_CREATE_CQ, 0x10 + qid, qid, entries, pair.cq_base,
                                       vector_or_cq=io_vector(qid)),
                          create_queue(nvme_admin.OP_CREATE_SQ, 0x20 + qid, qid, entries, pair.sq_base,
                                       vector_or_cq=qid)):
                await admin.submit(entry)
                [done] = await self.reap(admin, 1)
                assert done.status_code == 0, done
            pairs.append(pair)
        return pairs

    async def run_commands(self, pairs: list[QueuePair], submitted: dict[int, list[bytes]],
                           polls: int = 4000) -> dict[int, list]:
        """Submit each queue's entries in order (as many outstanding as the SQ holds), ringing
        each tail doorbell once per batch, and reap every completion; per queue, in order."""
        completions = {pair.qid: [] for pair in pairs}
        pending = {pair.qid: list(submitted[pair.qid]) for pair in pairs}
        for _ in range(polls):
            for pair in pairs:
                outstanding = len(submitted[pair.qid]) - len(pending[pair.qid]) - len(completions[pair.qid])
                batch = []
                while pending[pair.qid] and outstanding + len(batch) < pair.entries - 1:
                    batch.append(pending[pair.qid].pop(0))
                for entry in batch:
                    pair.place(entry)
                    # The SQ head the entry's completion reports: just past it
                    self.expected_sq_heads[(pair.qid, int.from_bytes(entry[2:4], "little"))] = pair.tail
                if batch:
                    await pair.ring()
                completions[pair.qid] += await pair.reap()
            if all(len(completions[pair.qid]) == len(submitted[pair.qid]) for pair in pairs):
                return completions
            await ClockCycles(self.dut.user_clk, 32)
        raise AssertionError({qid: f"{len(completions[qid])} of {len(submitted[qid])} completions"
                              for qid in completions})

    async def reap(self, queue: AdminQueue, count: int, polls: int = 200) -> list:
        taken = []
        for _ in range(polls):
            taken += await queue.reap()
            if len(taken) >= count:
                return taken
            await ClockCycles(self.dut.user_clk, 16)
        raise AssertionError(f"{len(taken)} of {count} completions")


@cocotb.test(timeout_time=200, timeout_unit="us")
async def registers_read_as_the_specification_defines(dut):
    tb = TB(dut)
    await tb.bring_up()
    cap = await tb.bar.read_qword(CAP)  # one 2-dword read
    assert cap == await tb.host.read_qword(CAP), "a 64-bit read and two 32-bit reads of CAP differ"
    capabilities = Capabilities.decode(cap)
    parameters = build_parameters()
    assert capabilities.max_queue_entries == parameters.get("MAX_QUEUE_ENTRIES", 1024)
    assert capabilities.contiguous_queues and capabilities.nvm_command_set and capabilities.timeout_ms >= 500
    assert capabilities.doorbell_stride == 4 and capabilities.page_size_min == capabilities.page_size_max == 4096
    assert await tb.bar.read_dword(VS) == 0x00010400
    assert await tb.bar.read_dword(CSTS) == 0 and await tb.bar.read_dword(CC) == 0
    # Read-only registers ignore writes
    await tb.bar.write_dword(CAP, 0xFFFFFFFF)
    await tb.bar.write_dword(VS, 0)
    await tb.bar.write_dword(CSTS, 0xFFFFFFFF)
    assert await tb.bar.read_qword(CAP) == cap and await tb.bar.read_dword(VS) == 0x00010400
    assert await tb.bar.read_dword(CSTS) == 0
    # INTMS sets and INTMC clears the one mask
    await tb.bar.write_dword(nvme.INTMS, 0x0000_0005)
    await tb.bar.write_dword(nvme.INTMC, 0x0000_0001)
    assert await tb.bar.read_dword(nvme.INTMS) == 4 == await tb.bar.read_dword(nvme.INTMC)
    # Byte enables: one byte written leaves the others
    await tb.bar.write_dword(AQA, 0x001F_003F)
    await tb.bar.window.write(AQA + 1, b"\x01")
    assert await tb.bar.read_dword(AQA) == 0x001F_013F
    # The admin queue bases are 4 KiB aligned: their low 12 bits read as 0
    await tb.host.write_qword(ASQ, 0x1_2345_6789)
    assert await tb.host.read_qword(ASQ) == 0x1_2345_6000


@cocotb.test(timeout_time=200, timeout_unit="us")
async def the_driver_enables_and_disables_the_controller(dut):
    tb = TB(dut)
    await tb.bring_up()
    host = tb.host
    await host.reset()
    await host.set_admin_queues(0x10000, 32, 0x20000, 16)
    await host.enable()
    csts = await tb.bar.read_dword(CSTS)
    assert csts & (CSTS_RDY | CSTS_CFS) == CSTS_RDY, hex(csts)
    # While enabled, the admin queue registers do not change, and only SHN of CC does
    await tb.bar.write_dword(AQA, 0)
    await host.write_qword(ASQ, 0x99000)
    assert await tb.bar.read_dword(AQA) == (15 << 16 | 31) and await host.read_qword(ASQ) == 0x10000
    await tb.bar.write_dword(CC, CC_EN | 7 << 16 | CC_IOCQES_16)
    assert await tb.bar.read_dword(CC) == CC_EN | CC_IOSQES_64 | CC_IOCQES_16
    # A normal shutdown completes, then disabling clears RDY and the shutdown status
    csts = await host.shutdown()
    assert csts & CSTS_RDY
    await host.reset()
    assert await tb.bar.read_dword(CSTS) == 0
    # And the controller comes up again
    await host.set_admin_queues(0x30000, 2, 0x40000, 2)
    await host.enable()


@cocotb.test(timeout_time=200, timeout_unit="us")
async def unsupported_settings_give_a_fatal_status_until_disabled(dut):
    """CC asking for I/O SQ entries of 128 B, or 8 KiB pages: CSTS.CFS instead of RDY; clearing
    EN clears it, and a good CC then brings the controller up."""
    tb = TB(dut)
    await tb.bring_up()
    host = tb.host
    await host.reset()
    await host.set_admin_queues(0x10000, 32, 0x20000, 32)
    for bad_cc in (7 << 16 | CC_IOCQES_16, CC_IOSQES_64 | CC_IOCQES_16 | 1 << 7):
        try:
            await host.enable(bad_cc)
        except ControllerError as error:
            assert "fatal" in str(error)
        else:
            raise AssertionError(f"CC {bad_cc:#x} brought the controller up")
        assert await tb.bar.read_dword(CSTS) & CSTS_CFS
        await host.reset()
        assert await tb.bar.read_dword(CSTS) == 0
    await host.enable()


@cocotb.test(timeout_time=200, timeout_unit="us")
async def requests_the_completer_does_not_carry_are_refused(dut):
    """A read longer than a 64-bit register is answered Unsupported Request (the root complex
    reports the unsuccessful completion); the controller keeps answering."""
    tb = TB(dut)
    await tb.bring_up()
    try:
        await tb.bar.window.read(0, 16, **ACCESS)
    except Exception as error:  # cocotbext-pcie's answer to a completion that is not Successful
        assert "Unsuccessful completion" in str(error), error
    else:
        raise AssertionError("a 4-dword read of BAR0 was answered successfully")
    # A write longer than 2 dwords is dropped (posted: nothing to answer)
    await tb.bar.window.write(AQA, bytes(range(16)))
    assert await tb.bar.read_dword(AQA) == 0
    assert await tb.bar.read_dword(VS) == 0x00010400


def check_completions(completions, entries, answers, queue_entries: int, first_head: int):
    """Each completion is the model's answer for its entry: CID, DW0, status (DNR on errors), SQ 0,
    and the SQ head just after the entry."""
    assert len(completions) == len(entries), (len(completions), len(entries))
    for index, (completion, entry, answer) in enumerate(zip(completions, entries, answers)):
        cid = int.from_bytes(entry[2:4], "little")
        expected_head = (first_head + index + 1) % queue_entries
        assert (completion.cid, completion.result, completion.status_code, completion.status_type) == \
            (cid, answer.result, answer.status_code, answer.status_type), (index, completion, answer)
        assert completion.do_not_retry == (answer.status_code != 0) and completion.sq_id == 0, completion
        assert completion.sq_head == expected_head, (index, completion.sq_head, expected_head)


@cocotb.test(timeout_time=500, timeout_unit="us")
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


@cocotb.test(timeout_time=500, timeout_unit="us")
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


@cocotb.test(timeout_time=500, timeout_unit="us")
async def bad_doorbells_are_ignored_and_reported_by_an_asynchronous_event(dut):
    """A tail past the queue's size, a head past the CQ's, and a doorbell of a queue that does not
    exist: ignored (the queue goes on), each reported through the oldest outstanding Asynchronous
    Event Request; a fifth outstanding request is refused."""
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
    await tb.bar.write_dword(tb.host.doorbell(5, False), 1)  # I/O queue 5 does not exist
    [event] = await tb.reap(queue, 1)
    assert event.cid == 0x78
    assert event.result == nvme_admin.async_event_result(nvme_admin.AEI_INVALID_DOORBELL_REGISTER), hex(event.result)
    # At most four wait: the fifth is refused (SCT 1, SC 05h), the four complete one per event
    for cid in range(0x90, 0x95):
        await queue.submit(submission(nvme_admin.OP_ASYNC_EVENT_REQUEST, cid))
    [refused] = await tb.reap(queue, 1)
    assert (refused.cid, refused.status_type, refused.status_code, refused.do_not_retry) == (0x94, 1, 0x05, True)
    for cid in range(0x90, 0x94):
        await tb.bar.write_dword(tb.host.doorbell(0, True), 15)  # past the CQ's size
        [event] = await tb.reap(queue, 1)
        assert event.cid == cid and event.result == nvme_admin.async_event_result(nvme_admin.AEI_INVALID_DOORBELL_VALUE)
    # The queue still works
    await queue.submit(submission(nvme_admin.OP_ABORT, 0x79))
    [done] = await tb.reap(queue, 1)
    assert (done.cid, done.result, done.status_code) == (0x79, 1, 0)


@cocotb.test(timeout_time=500, timeout_unit="us")
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


TIME_UNIT_CYCLES = 25000  # Interrupt Coalescing's 100 us at 250 MHz (the build's default)
USER_CLOCK_NS = 4


@cocotb.test(timeout_time=3000, timeout_unit="us")
async def interrupt_coalescing_holds_io_interrupts_as_set(dut):
    """Set Features Interrupt Coalescing, THR 3 and TIME 2: eight I/O completions on one CQ raise
    two MSI-X messages (one per four entries); a lone completion's message comes after at least
    one and at most two 100 us units; an admin completion's comes at once; TIME 0 turns
    coalescing off again (a message per entry, as before)."""
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
    # TIME 0: no delay, a message per entry again
    await set_coalescing(3, 0)
    await reads(4)
    assert len(messages.stamps) == 4, messages.stamps


def identify(cid: int, cns: int, prp1: int, prp2: int = 0, nsid: int = 0) -> bytes:
    return submission(nvme_admin.OP_IDENTIFY, cid, nsid=nsid, cdw10=cns, prp1=prp1, prp2=prp2)


@cocotb.test(timeout_time=1000, timeout_unit="us")
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
        assert (done.cid, done.status_code, done.do_not_retry) == (cid, answer.status_code, answer.status_code != 0)
        if answer.data:
            first = 4096 - (prp1 & 0xFFF)
            written = tb.read_memory(prp1, first) + (tb.read_memory(prp2, 4096 - first) if first < 4096 else b"")
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


@cocotb.test(timeout_time=1000, timeout_unit="us")
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


def transfer_layout(rng, data_base: int, length: int, cursor: list) -> tuple[int, int, list[tuple[int, int]]]:
    """PRP1 (a random dword offset into a fresh page), PRP2 (the second page, or a PRP list) and
    the list entries to write, for a transfer of `length` bytes; pages taken from the data area."""
    def take_page() -> int:
        cursor[0] += 4096
        return data_base + cursor[0] - 4096
    first = take_page()
    prp1 = first + rng.randrange(0, 4096, 4)
    left = length - (4096 - prp1 % 4096)
    if left <= 0:
        return prp1, 0, []
    pages = [take_page() for _ in range(-(-left // 4096))]
    if len(pages) == 1:
        return prp1, pages[0], []
    list_page = take_page()
    return prp1, list_page, [(list_page + 8 * index, page) for index, page in enumerate(pages)]


def host_buffers(tb: TB, rng, opcode: int, length: int, cursor: list) -> tuple[int, int]:
    """PRP1 and PRP2 for a Read or Write of `length` bytes (transfer_layout), the PRP list entries
    written to host memory and, for a Write, random data in its pages; (0, 0) for commands that
    move no host data."""
    if opcode not in (nvme_nvm.OP_READ, nvme_nvm.OP_WRITE):
        return 0, 0
    prp1, prp2, entries = transfer_layout(rng, tb.data_base, length, cursor)
    for address, page in entries:
        tb.write_memory(address, struct.pack("<Q", page))
    if opcode == nvme_nvm.OP_WRITE:
        for address, size in nvme_nvm.prp_pages(prp1, prp2, length, tb.read_memory):
            tb.write_memory(address, rng.randbytes(size))
    return prp1, prp2


@cocotb.test(timeout_time=5000, timeout_unit="us")
async def nvm_commands_move_every_byte_as_the_model_predicts(dut):
    """Two I/O queue pairs, random Write, Read, Flush and Write Zeroes with PRP1 alone, PRP1 and
    PRP2, and PRP lists, at random dword offsets: every completion (SQID, CID, SQHD, phase,
    status) and every byte of the namespace and of the read buffers as the model says; hostile
    commands (namespace, LBA range and 64-bit wrap, MDTS, PRP offsets, host memory that is not
    there, an unknown opcode) refused with their status, the queues going on; MSI-X on each CQ's
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
        prp1, prp2 = host_buffers(tb, rng, opcode, blocks * block, cursor)
        commands.append(nvme_nvm.io_command(opcode, 0x100 + index, slba, blocks, prp1, prp2))
    unmapped = 0x1_0000_0000
    hostile = [nvme_nvm.io_command(nvme_nvm.OP_READ, 0x200, 0, 1, tb.data_base, nsid=2),
               nvme_nvm.io_command(nvme_nvm.OP_WRITE, 0x201, 0, 1, tb.data_base, nsid=0),
               nvme_nvm.io_command(nvme_nvm.OP_READ, 0x202, tb.namespace_blocks - 1, 2, tb.data_base),
               nvme_nvm.io_command(nvme_nvm.OP_READ, 0x203, (1 << 64) - 1, 2, tb.data_base),
               nvme_nvm.io_command(nvme_nvm.OP_WRITE, 0x204, 0, 300, tb.data_base),
               nvme_nvm.io_command(nvme_nvm.OP_READ, 0x205, 0, 1, tb.data_base + 2),
               nvme_nvm.io_command(nvme_nvm.OP_WRITE, 0x206, 0, 8, tb.data_base + 0x800, tb.data_base + 0x100),
               nvme_nvm.io_command(nvme_nvm.OP_WRITE, 0x207, 4, 2, unmapped),
               nvme_nvm.io_command(0x7F, 0x208, 0, 1, tb.data_base)]
    order = commands + hostile
    rng.shuffle(order)
    assert cursor[0] <= 1024 * 1024
    submitted = {1: [], 2: []}
    expected = {}
    read_back = []
    for entry in order:
        pair = pairs[rng.randrange(2)]
        # Predict as the engine will execute: per queue in order, the queues taking turns; data
        # ranges of different commands never overlap in time here, so the model runs them now
        status = model.execute(entry, tb.read_memory, lambda address, data: read_back.append((address, data)))
        cid = int.from_bytes(entry[2:4], "little")
        expected[(pair.qid, cid)] = status
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
    check_counters(await tb.host.read_counters(), block, [
        (entry, expected[(qid, int.from_bytes(entry[2:4], "little"))]) for qid in (1, 2) for entry in submitted[qid]])


def check_io_completions(tb: TB, pairs: list[QueuePair], submitted: dict[int, list[bytes]],
                      completions: dict[int, list], expected: dict[tuple[int, int], int]) -> None:
    """The scoreboard: every completion matched to its command on (SQID, CID), none missing or
    extra, with the model's status; SQHD is the SQ head just past that entry (the engine takes
    each SQ's entries in order, one at a time)."""
    for pair in pairs:
        got = {(completion.sq_id, completion.cid): completion for completion in completions[pair.qid]}
        assert len(got) == len(completions[pair.qid]) == len(submitted[pair.qid]), (pair.qid, completions[pair.qid])
        for entry in submitted[pair.qid]:
            key = (pair.qid, int.from_bytes(entry[2:4], "little"))
            completion = got[key]
            assert completion.status_code == expected[key], (key, completion)
            assert completion.sq_head == tb.expected_sq_heads[key], (key, completion)


def check_data(tb: TB, model: nvme_nvm.NvmModel, read_back: list[tuple[int, bytes]]) -> int:
    """The namespace holds what the model says, and every successful Read put its bytes in its
    pages; returns the read bytes checked."""
    namespace_bytes = tb.namespace_blocks << tb.lba_shift
    got = tb.namespace.read(0, namespace_bytes)
    differ = [index for index in range(0, namespace_bytes, 64) if got[index:index + 64] != model.namespace[index:index + 64]]
    assert not differ, f"namespace contents differ at {[hex(i) for i in differ[:8]]} ({len(differ)} pieces of 64 bytes)"
    for address, data in read_back:
        assert tb.read_memory(address, len(data)) == data, f"Read data at {address:#x} differs"
    return sum(len(data) for _, data in read_back)


async def random_round(tb: TB, pairs: list[QueuePair], model: nvme_nvm.NvmModel, rng, count: int) -> tuple[int, int]:
    """`count` random Read, Write, Flush and Write Zeroes of 1 to 12 blocks with random PRP layouts
    on random queues, each queue in its own slice of the namespace (so the model's order within a
    queue is the engine's, whatever the interleaving): the scoreboard, the data and the counters
    checked. Returns the commands and the read bytes checked."""
    block = 1 << tb.lba_shift
    slice_blocks = tb.namespace_blocks // len(pairs)
    opcodes = [nvme_nvm.OP_READ] * 4 + [nvme_nvm.OP_WRITE] * 4 + [nvme_nvm.OP_FLUSH, nvme_nvm.OP_WRITE_ZEROES]
    await tb.host.clear_counters()
    cursor = [0]
    submitted = {pair.qid: [] for pair in pairs}
    expected, read_back = {}, []
    for _ in range(count):
        opcode = rng.choice(opcodes)
        blocks = rng.randint(1, min(12, slice_blocks))
        length = blocks * block
        pair = rng.choice(pairs)
        slba = (pair.qid - 1) * slice_blocks + rng.randrange(slice_blocks - blocks + 1)
        prp1, prp2 = host_buffers(tb, rng, opcode, length, cursor)
        tb.next_cid = (tb.next_cid + 1) & 0xFFFF
        entry = nvme_nvm.io_command(opcode, tb.next_cid, slba, blocks, prp1, prp2)
        expected[(pair.qid, tb.next_cid)] = model.execute(entry, tb.read_memory,
                                                          lambda address, data: read_back.append((address, data)))
        submitted[pair.qid].append(entry)
    completions = await tb.run_commands(pairs, submitted, polls=8000)
    check_io_completions(tb, pairs, submitted, completions, expected)
    checked = check_data(tb, model, read_back)
    executed = [(entry, expected[(qid, int.from_bytes(entry[2:4], "little"))])
                for qid, entries in submitted.items() for entry in entries]
    check_counters(await tb.host.read_counters(), block, executed)
    tb.queues_used.update(qid for qid, entries in submitted.items() if entries)
    return count, checked


COMMANDS_PER_ROUND = 48


@cocotb.test(timeout_time=20000, timeout_unit="us")
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
    for qid in tb.queues_used:
        assert tb.device_view.msi_vectors[io_vector(qid)].event.is_set(), f"no MSI-X message on CQ {qid}'s vector"


@cocotb.test(timeout_time=5000, timeout_unit="us")
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


@cocotb.test(timeout_time=5000, timeout_unit="us")
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


@cocotb.test(timeout_time=20000, timeout_unit="us")
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
    # Disable once some commands have completed
    posted = {pair.qid: [] for pair in pairs}
    for _ in range(2000):
        for pair in pairs:
            posted[pair.qid] += await pair.reap(ring_head=False)
        if sum(map(len, posted.values())) >= 8:
            break
        await ClockCycles(dut.user_clk, 8)
    await tb.bar.write_dword(CC, 0)
    await tb.host.wait_status(CSTS_RDY, 0)
    for pair in pairs:
        posted[pair.qid] += await pair.reap(ring_head=False)
    done = [(qid, completion) for qid, completions in posted.items() for completion in completions]
    assert 8 <= len(done) < len(expected), f"{len(done)} of {len(expected)} completed: not mid-traffic"
    for qid, completion in done:
        key = (qid, completion.cid)
        assert completion.sq_id == qid and key in expected and completion.status_code == expected[key], completion
        for address, data in read_back.get(key, []):
            assert tb.read_memory(address, len(data)) == data, f"completed Read {key} data at {address:#x} differs"
    dut._log.info("CC.EN cleared after %d of %d commands completed; RDY cleared", len(done), len(expected))
    # Start again from scratch: the namespace and the model afresh
    admin = await tb.admin_queue(16)
    pairs = await tb.create_io_pairs(admin, 16, 8)
    model = tb.fill_namespace(rng)
    commands, checked = await random_round(tb, pairs, model, rng, COMMANDS_PER_ROUND)
    dut._log.info("after the reset: %d commands, %d read bytes and the namespace checked", commands, checked)


# Figures the engine does not reach yet, recorded and reported against their targets (none at
# present); the test fails when one starts passing, so this list cannot go stale.
TARGETS_NOT_YET_MET: set[str] = set()


class SignalStamps:
    """The cycles (as `now` counts them) at which a one-bit signal is high at a rising clock edge;
    while it is low this waits for it to rise, not for every clock."""

    def __init__(self, signal, clock, now):
        self.signal, self.clock, self.now, self.stamps = signal, clock, now, []
        cocotb.start_soon(self._run())

    async def _run(self) -> None:
        while True:
            if self.signal.value != 1:
                await RisingEdge(self.signal)
            await RisingEdge(self.clock)
            if self.signal.value == 1:
                self.stamps.append(self.now())


async def measured_batch(tb: TB, pairs: list[QueuePair], model: nvme_nvm.NvmModel, opcode: int, blocks: int,
                         per_queue: int, rq: HandshakeMonitor) -> tuple[dict[str, int], int]:
    """per_queue commands of `blocks` blocks on every queue, buffers page aligned, all placed before
    the doorbells ring: the counters over the batch, and the span the testbench saw on the RQ
    stream (first fetch request beat to the last completion's beat). Data checked byte for byte."""
    block = 1 << tb.lba_shift
    length = blocks * block
    submitted = {pair.qid: [] for pair in pairs}
    expected, read_back = {}, []
    slots = len(pairs) * per_queue
    assert slots * max(length, 4096) <= tb.data.size and slots * blocks <= tb.namespace_blocks
    for slot in range(slots):
        pair = pairs[slot % len(pairs)]
        buffer = tb.data_base + slot * max(length, 4096)
        if opcode == nvme_nvm.OP_WRITE:
            tb.write_memory(buffer, tb.rng.randbytes(length))
        cid = 0x400 + slot
        entry = nvme_nvm.io_command(opcode, cid, slot * blocks, blocks, buffer, buffer + 4096 if length > 4096 else 0)
        expected[(pair.qid, cid)] = model.execute(entry, tb.read_memory,
                                                  lambda address, data: read_back.append((address, data)))
        submitted[pair.qid].append(entry)
    await tb.host.clear_counters()
    rq.clear()
    for pair in pairs:
        for entry in submitted[pair.qid]:
            pair.place(entry)
            tb.expected_sq_heads[(pair.qid, int.from_bytes(entry[2:4], "little"))] = pair.tail
    for pair in pairs:
        await pair.ring()
    completions = {pair.qid: [] for pair in pairs}
    for _ in range(20000):
        for pair in pairs:
            completions[pair.qid] += await pair.reap()
        if sum(map(len, completions.values())) == slots:
            break
        await ClockCycles(tb.dut.user_clk, 16)
    check_io_completions(tb, pairs, submitted, completions, expected)
    check_data(tb, model, read_back)
    counters = await tb.host.read_counters()
    assert all(status == 0 for status in expected.values()) and counters["completions"] == slots, counters
    return counters, rq.last_beat_cycles[-1] - rq.first_beat_cycles[0] + 1


async def loaded_figures(tb: TB, pairs: list[QueuePair], model: nvme_nvm.NvmModel, rq: HandshakeMonitor,
                         setting: str) -> list:
    """512-byte and 4 KiB Reads and Writes loaded on every queue: IOPS, GB/s and bus use from the
    counters, each cross-checked with the span the testbench saw on RQ."""
    bus_bytes = len(tb.dut.s_axis_rq_tdata) // 8
    figures = []
    for opcode, name in ((nvme_nvm.OP_READ, "read"), (nvme_nvm.OP_WRITE, "write")):
        for blocks, per_queue in ((512 >> tb.lba_shift or 1, 8), (4096 >> tb.lba_shift, 4)):
            counters, span = await measured_batch(tb, pairs, model, opcode, blocks, per_queue, rq)
            active = counters["active_cycles"]
            moved = counters[f"{name}_bytes"]
            commands = counters["completions"]
            size = blocks << tb.lba_shift
            assert moved == commands * size, counters
            iops = commands / active * 250e6
            utilisation = moved / (active * bus_bytes)
            tb.dut._log.info("%s: %s %d B x %d over %d queues: %d cycles (testbench %d), %.2f M IOPS, %.2f GB/s, "
                             "%.1f %% of the bus; per command %d..%d cycles", setting, name, size, commands,
                             len(pairs), active, span, iops / 1e6, moved / active * 250e6 / 1e9, 100 * utilisation,
                             counters["command_latency_min"], counters["command_latency_max"])
            if size == 512:
                figures.append(perf.compare("nvme", f"{name}_iops_512", iops, commands / span * 250e6,
                                            tolerance=iops * 0.01,
                                            context=f"{setting}, {moved / active * 250e6 / 1e9:.2f} GB/s"))
            else:
                figures.append(perf.compare("nvme", f"{name}_utilisation_4k", utilisation, moved / (span * bus_bytes),
                                            tolerance=0.01, context=f"{setting}, {iops / 1e6:.2f} M IOPS, "
                                                                    f"{moved / active * 250e6 / 1e9:.2f} GB/s"))
    return figures


@cocotb.test(timeout_time=50000, timeout_unit="us")
async def throughput_and_latency_against_the_targets(dut):
    """The figures of src/dpuv/harness/targets.toml from the counters, each cross-checked with what the
    testbench saw on the PCIe ports: an idle controller's doorbell-to-fetch, data-to-completion and
    completion-to-MSI-X latencies for one 512-byte Read; then 16 queues loaded with 512-byte and
    4 KiB Reads and Writes for IOPS and bus use (zero-latency host memory: the root complex model
    answers at once), with the host's MPS and MRRS at 1024 B, and again at 256 B and 512 B.
    Compared with the targets at 512 bits (the targets' bus), the 1024-byte figures."""
    tb = TB(dut, max_payload=1024, max_read_request=1024)
    tb.rng = test_rng("figures")
    await tb.bring_up()
    await tb.device_view.alloc_irq_vectors(1, MSIX_VECTORS)
    admin = await tb.admin_queue(16)
    pairs = await tb.create_io_pairs(admin, 16, 16)
    model = tb.fill_namespace(tb.rng)
    cycles = CycleCounter(dut.user_clk)
    rq = HandshakeMonitor(dut, "s_axis_rq", cycles)
    cq = HandshakeMonitor(dut, "m_axis_cq", cycles)
    interrupts = SignalStamps(dut.cfg_interrupt_msix_int, dut.user_clk, lambda: cycles.now)
    bus_bytes = len(dut.s_axis_rq_tdata) // 8
    figures = []

    # Latencies, one 512-byte Read on an idle controller
    cq.clear()
    interrupts.stamps.clear()
    counters, _ = await measured_batch(tb, pairs[:1], model, nvme_nvm.OP_READ, 1, 1, rq)
    # On RQ: the entry's fetch request, the data writes, the completion entry
    fetch_request, completion_write = rq.first_beat_cycles[0], rq.first_beat_cycles[-1]
    data_last_beat = rq.last_beat_cycles[-2]
    doorbell_tlp = max(cycle for cycle in cq.last_beat_cycles if cycle < fetch_request)
    completion_last_beat = rq.last_beat_cycles[-1]
    assert counters["fetch_latency_count"] == counters["post_latency_count"] == 1, counters
    # The testbench sees the doorbell as its TLP on the completer interface, a few cycles before
    # the registers take it (the completer request path)
    figures.append(perf.compare("nvme", "fetch_latency", counters["fetch_latency_max"], fetch_request - doorbell_tlp,
                                tolerance=8, context="idle; testbench from the doorbell TLP's last beat"))
    # The counter runs from the cycle after the last data beat to the completion's hand-over, a
    # cycle before its first beat
    figures.append(perf.compare("nvme", "post_latency", counters["post_latency_max"],
                                completion_write - data_last_beat, tolerance=2,
                                context="512-byte Read; testbench last data beat to first CQE beat"))
    interrupt_latency = interrupts.stamps[0] - completion_last_beat
    dut._log.info("idle 512-byte Read: doorbell to fetch %d cycles, data to CQE %d, CQE to MSI-X %d "
                  "(testbench %d), command start to CQE %d", counters["fetch_latency_max"], counters["post_latency_max"],
                  counters["interrupt_latency_max"], interrupt_latency, counters["command_latency_max"])
    assert abs(counters["interrupt_latency_max"] - interrupt_latency) <= 1, (counters, interrupt_latency)

    # Loaded: 16 queues, at the MPS and MRRS of 1024 B the host set; then again at the settings
    # many servers use (MPS 256 B, MRRS 512 B), reported and cross-checked but not compared
    assert 128 << int(dut.cfg_max_payload.value) == 1024 and 128 << int(dut.cfg_max_read_req.value) == 1024
    figures += await loaded_figures(tb, pairs, model, rq, "MPS 1024 B")
    tb.rc.max_payload_size = 1
    await tb.device_view.set_mps(1)
    await tb.device_view.set_readrq(2)
    await ClockCycles(dut.user_clk, 8)
    assert 128 << int(dut.cfg_max_payload.value) == 256 and 128 << int(dut.cfg_max_read_req.value) == 512
    common_settings = await loaded_figures(tb, pairs, model, rq, "MPS 256 B")
    assert all(figure.agrees for figure in common_settings), [figure.explain() for figure in common_settings]
    assert all(figure.agrees for figure in figures), [figure.explain() for figure in figures if not figure.agrees]
    if bus_bytes != 64 or build_parameters().get("QUEUES", 17) != 17:
        return  # the targets are the default build's; other builds are measured and cross-checked only
    for figure in figures:
        perf.record(figure)
    missed = {figure.metric for figure in figures if not figure.meets_target}
    assert missed == TARGETS_NOT_YET_MET, (
        f"targets missed {sorted(missed)}, expected to miss {sorted(TARGETS_NOT_YET_MET)}: "
        + "; ".join(figure.explain() for figure in figures))


# Counter of the counters block each generic status counts in
STATUS_COUNTERS = {
    nvme_nvm.SC_INVALID_OPCODE: "errors_invalid_opcode", nvme_nvm.SC_INVALID_FIELD: "errors_invalid_field",
    nvme_nvm.SC_DATA_TRANSFER_ERROR: "errors_data_transfer", nvme_nvm.SC_INVALID_NAMESPACE: "errors_invalid_namespace",
    nvme_nvm.SC_PRP_OFFSET_INVALID: "errors_prp_offset", nvme_nvm.SC_LBA_OUT_OF_RANGE: "errors_lba_range",
}
OPCODE_COUNTERS = {nvme_nvm.OP_READ: "commands_read", nvme_nvm.OP_WRITE: "commands_write",
                   nvme_nvm.OP_FLUSH: "commands_flush", nvme_nvm.OP_WRITE_ZEROES: "commands_write_zeroes"}


def check_counters(counters: dict[str, int], block: int, executed: list[tuple[bytes, int]]) -> None:
    """The counters after I/O commands only (cleared before them), against (entry, expected status)
    of each: commands by opcode, completions by status, the bytes successful Reads and Writes
    moved, one command latency per completion and one post latency per command that moved data;
    each latency's min <= mean <= max."""
    expected = dict.fromkeys((*OPCODE_COUNTERS.values(), "commands_other", "commands_admin", "completions", "errors",
                              *STATUS_COUNTERS.values(), "read_bytes", "write_bytes"), 0)
    data_commands = 0
    for entry, status in executed:
        opcode = entry[0]
        blocks = int.from_bytes(entry[48:50], "little") + 1
        expected[OPCODE_COUNTERS.get(opcode, "commands_other")] += 1
        expected["completions"] += 1
        if status:
            expected["errors"] += 1
            expected[STATUS_COUNTERS[status]] += 1
        elif opcode in (nvme_nvm.OP_READ, nvme_nvm.OP_WRITE, nvme_nvm.OP_WRITE_ZEROES):
            data_commands += 1
            if opcode != nvme_nvm.OP_WRITE_ZEROES:
                expected["read_bytes" if opcode == nvme_nvm.OP_READ else "write_bytes"] += blocks * block
    assert {name: counters[name] for name in expected} == expected, (counters, expected)
    assert counters["command_latency_count"] == len(executed), counters
    assert counters["post_latency_count"] == data_commands, counters
    assert counters["fetch_latency_count"] >= 1 and counters["interrupt_latency_count"] >= 1, counters
    for latency in ("fetch", "post", "interrupt", "command"):
        low, high, total, count = (counters[f"{latency}_latency_{part}"] for part in ("min", "max", "sum", "count"))
        assert low * count <= total <= high * count and low <= high, (latency, counters)
    assert 0 < counters["active_cycles"] <= counters["cycles"], counters
