# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The NVMe controller's testbench, shared by every tb/storage test module: cocotbext-pcie's
UltraScale+ PCIe device model with its RootComplex as the host, the namespace as an AXI RAM, the
host driver model (dpuv.drivers.nvme) on BAR0 through the PCIe BAR register backend, and the
helpers the tests share (PRP layouts, host buffers, completion and data checks against
src/dpuv/models/nvme_nvm.py, random rounds, the counters check)."""

from __future__ import annotations

import logging
import struct

import cocotb
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge, Timer
from cocotbext.axi import AxiBus, AxiRam, AxiStreamBus
from cocotbext.pcie.core import RootComplex
from cocotbext.pcie.xilinx.us import UltraScalePlusPcieDevice

from dpuv.models import nvme_admin, nvme_nvm
from dpuv.models.nvme_admin import create_queue
from dpuv.drivers.nvme import AdminQueue, NvmeHost, QueuePair
from dpuv.regs.pcie_bar import PcieBarAccess
from dpuv.tb.testbench import build_parameters
import nvme_coverage


BAR0_BYTES = 32 * 1024
MSIX_TABLE, MSIX_PBA, MSIX_VECTORS = 0x2000, 0x3000, 32
# Every BAR read times out, so a controller that never answers fails the test in time
BAR_READ_TIMEOUT_NS = 2000


# The controller's PCIe completion timeout (its COMPLETION_TIMEOUT default): a host read with no
# answer for this long is given up, and its command ends in error
COMPLETION_TIMEOUT_CYCLES = 16384
# A correct controller leaves every outstanding command without a completion for at most its
# completion timeout plus the command's own transfers. Twice that with no new completion is a
# hang, and the run fails then rather than at the end of its poll budget.
STALL_CYCLES = 2 * COMPLETION_TIMEOUT_CYCLES
RUN_POLL_CYCLES = 32


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
        # The host's BAR access, every CC write sampled for the controller-configuration coverage
        self.bar = nvme_coverage.ConfigurationMonitor(PcieBarAccess(device.bar_window[0], self.dut.user_clk,
                                                                    BAR_READ_TIMEOUT_NS))
        self.host = NvmeHost(self.bar)
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

    def read_prp_pair(self, prp1: int, prp2: int, length: int) -> bytes:
        """The bytes of a transfer of at most two pages, as the controller writes one without a
        PRP list: PRP1 from its offset to its page's end, PRP2 for the rest."""
        first = min(length, 4096 - prp1 % 4096)
        return self.read_memory(prp1, first) + (self.read_memory(prp2, length - first) if first < length else b"")

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
        nvme_coverage.io_queues(len(pairs), any(pair.tail + len(submitted[pair.qid]) >= pair.entries for pair in pairs))
        def progress() -> dict[int, str]:
            return {qid: f"{len(completions[qid])} of {len(submitted[qid])} completions" for qid in completions}

        quiet_polls = 0
        for _ in range(polls):
            reaped = sum(map(len, completions.values()))
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
                # A command completed twice (an entry fetched again, say) fails here, not when
                # the poll budget runs out
                assert len(completions[pair.qid]) <= len(submitted[pair.qid]), f"queue {pair.qid}: {progress()}"
            if all(len(completions[pair.qid]) == len(submitted[pair.qid]) for pair in pairs):
                return completions
            quiet_polls = 0 if sum(map(len, completions.values())) > reaped else quiet_polls + 1
            if quiet_polls * RUN_POLL_CYCLES > STALL_CYCLES:
                raise AssertionError(f"no completion for {STALL_CYCLES} cycles: {progress()}")
            await ClockCycles(self.dut.user_clk, RUN_POLL_CYCLES)
        raise AssertionError(f"not done after {polls} polls: {progress()}")

    async def reap(self, queue: AdminQueue, count: int, polls: int = 200) -> list:
        taken = []
        for _ in range(polls):
            taken += await queue.reap()
            if len(taken) >= count:
                return taken
            await ClockCycles(self.dut.user_clk, 16)
        raise AssertionError(f"{len(taken)} of {count} completions")


def transfer_layout(rng, data_base: int, length: int, cursor: list,
                    chained_lists: bool = False) -> tuple[int, int, list[tuple[int, int]]]:
    """PRP1 (a random dword offset into a fresh page), PRP2 (the second page, or a PRP list) and
    the list entries to write, for a transfer of `length` bytes; pages taken from the data area.
    With chained_lists, half the lists start so near the end of their page that the rest of the
    list must continue in another: the page's last entry then points to the next list page."""
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
    # Entries that fit in the list's first page: all of them, or (chained) fewer than it needs
    room = rng.randrange(1, len(pages)) if chained_lists and rng.random() < 0.5 else 4096 // 8
    pointer = take_page() + 4096 - 8 * room if room < 4096 // 8 else take_page()
    list_start, entries = pointer, []
    for index, page in enumerate(pages):
        if pointer % 4096 == 4096 - 8 and index < len(pages) - 1:
            next_list_page = take_page()
            entries.append((pointer, next_list_page))
            pointer = next_list_page
        entries.append((pointer, page))
        pointer += 8
    return prp1, list_start, entries


def host_buffers(tb: TB, rng, opcode: int, length: int, cursor: list, chained_lists: bool = False) -> tuple[int, int]:
    """PRP1 and PRP2 for a Read or Write of `length` bytes (transfer_layout), the PRP list entries
    written to host memory and, for a Write, random data in its pages; (0, 0) for commands that
    move no host data."""
    if opcode not in (nvme_nvm.OP_READ, nvme_nvm.OP_WRITE):
        return 0, 0
    prp1, prp2, entries = transfer_layout(rng, tb.data_base, length, cursor, chained_lists)
    for address, page in entries:
        tb.write_memory(address, struct.pack("<Q", page))
    if opcode == nvme_nvm.OP_WRITE:
        for address, size in nvme_nvm.prp_pages(prp1, prp2, length, tb.read_memory):
            tb.write_memory(address, rng.randbytes(size))
    return prp1, prp2


def check_io_completions(tb: TB, pairs: list[QueuePair], submitted: dict[int, list[bytes]],
                      completions: dict[int, list], expected: dict[tuple[int, int], int]) -> None:
    """The scoreboard: every completion matched to its command on (SQID, CID), none missing or
    extra, with the model's status (every NVM status here is generic, SCT 0, and an error carries
    Do Not Retry: a Linux host retries a failed command without it); SQHD is the SQ head just past
    that entry (the engine takes each SQ's entries in order, one at a time)."""
    for pair in pairs:
        got = {(completion.sq_id, completion.cid): completion for completion in completions[pair.qid]}
        assert len(got) == len(completions[pair.qid]) == len(submitted[pair.qid]), (pair.qid, completions[pair.qid])
        for entry in submitted[pair.qid]:
            key = (pair.qid, int.from_bytes(entry[2:4], "little"))
            completion = got[key]
            assert completion.status_code == expected[key], (key, completion)
            assert completion.status_type == 0, (key, completion)
            assert completion.do_not_retry == (expected[key] != nvme_nvm.SC_SUCCESS), (key, completion)
            assert completion.sq_head == tb.expected_sq_heads[key], (key, completion)
            nvme_coverage.io_command(entry, 1 << tb.lba_shift, completion.status_code)


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
    expected, moved, read_back = {}, {}, []
    for _ in range(count):
        opcode = rng.choice(opcodes)
        blocks = rng.randint(1, min(12, slice_blocks))
        length = blocks * block
        pair = rng.choice(pairs)
        slba = (pair.qid - 1) * slice_blocks + rng.randrange(slice_blocks - blocks + 1)
        prp1, prp2 = host_buffers(tb, rng, opcode, length, cursor, chained_lists=True)
        tb.next_cid = (tb.next_cid + 1) & 0xFFFF
        entry = nvme_nvm.io_command(opcode, tb.next_cid, slba, blocks, prp1, prp2)
        expected[(pair.qid, tb.next_cid)] = model.execute(entry, tb.read_memory,
                                                          lambda address, data: read_back.append((address, data)))
        moved[(pair.qid, tb.next_cid)] = model.moved
        submitted[pair.qid].append(entry)
    completions = await tb.run_commands(pairs, submitted, polls=8000)
    check_io_completions(tb, pairs, submitted, completions, expected)
    checked = check_data(tb, model, read_back)
    check_counters(await tb.host.read_counters(), block, executed_commands(submitted, expected, moved))
    tb.queues_used.update(qid for qid, entries in submitted.items() if entries)
    return count, checked


COMMANDS_PER_ROUND = 48


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


# Counter of the counters block each generic status counts in
STATUS_COUNTERS = {
    nvme_nvm.SC_INVALID_OPCODE: "errors_invalid_opcode", nvme_nvm.SC_INVALID_FIELD: "errors_invalid_field",
    nvme_nvm.SC_DATA_TRANSFER_ERROR: "errors_data_transfer", nvme_nvm.SC_INVALID_NAMESPACE: "errors_invalid_namespace",
    nvme_nvm.SC_PRP_OFFSET_INVALID: "errors_prp_offset", nvme_nvm.SC_LBA_OUT_OF_RANGE: "errors_lba_range",
}


OPCODE_COUNTERS = {nvme_nvm.OP_READ: "commands_read", nvme_nvm.OP_WRITE: "commands_write",
                   nvme_nvm.OP_FLUSH: "commands_flush", nvme_nvm.OP_WRITE_ZEROES: "commands_write_zeroes"}


def executed_commands(submitted: dict[int, list[bytes]], expected: dict[tuple[int, int], int],
                      moved: dict[tuple[int, int], int]) -> list[tuple[bytes, int, int]]:
    """(entry, expected status, bytes the model moved) of every command submitted, by (SQID, CID)."""
    executed = []
    for qid, entries in submitted.items():
        for entry in entries:
            key = (qid, int.from_bytes(entry[2:4], "little"))
            executed.append((entry, expected[key], moved[key]))
    return executed


def check_counters(counters: dict[str, int], block: int, executed: list[tuple[bytes, int, int]]) -> None:
    """The counters after I/O commands only (cleared before them), against (entry, expected status,
    bytes the model moved) of each: commands by opcode, completions by status, the bytes Reads and
    Writes moved (a command refused in the middle of its PRP list moved the pieces before it),
    one command latency per completion and one post latency per successful command that moves
    data; each latency's min <= mean <= max."""
    expected = dict.fromkeys((*OPCODE_COUNTERS.values(), "commands_other", "commands_admin", "completions", "errors",
                              *STATUS_COUNTERS.values(), "read_bytes", "write_bytes"), 0)
    data_commands = 0
    for entry, status, moved in executed:
        opcode = entry[0]
        expected[OPCODE_COUNTERS.get(opcode, "commands_other")] += 1
        expected["completions"] += 1
        if status:
            expected["errors"] += 1
            expected[STATUS_COUNTERS[status]] += 1
        elif opcode in (nvme_nvm.OP_READ, nvme_nvm.OP_WRITE, nvme_nvm.OP_WRITE_ZEROES):
            data_commands += 1
        if opcode in (nvme_nvm.OP_READ, nvme_nvm.OP_WRITE):
            expected["read_bytes" if opcode == nvme_nvm.OP_READ else "write_bytes"] += moved
    assert {name: counters[name] for name in expected} == expected, (counters, expected)
    assert counters["command_latency_count"] == len(executed), counters
    assert counters["post_latency_count"] == data_commands, counters
    assert counters["fetch_latency_count"] >= 1 and counters["interrupt_latency_count"] >= 1, counters
    for latency in ("fetch", "post", "interrupt", "command"):
        low, high, total, count = (counters[f"{latency}_latency_{part}"] for part in ("min", "max", "sum", "count"))
        assert low * count <= total <= high * count and low <= high, (latency, counters)
    assert 0 < counters["active_cycles"] <= counters["cycles"], counters
