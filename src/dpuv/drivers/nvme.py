# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""NVMe host driver model: the steps a real driver takes on the controller's BAR0 registers
(NVMe base specification; offsets and fields in docs/reference/nvme.md). BAR0 is reached through
the register access interface (dpuv.regs.access: the PCIe BAR backend in simulation, a board's
backend on hardware), so the same driver runs in both; dpuv's own blocks in BAR0 are found by
walking their chain."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from dpuv.models.nvme_admin import Completion, submission
from dpuv.regs import chain
from dpuv.regs.access import BlockWindow, RegisterAccess
from dpuv.regs.maps import nvme_counters

CAP, VS, INTMS, INTMC, CC, CSTS, AQA, ASQ, ACQ = 0x00, 0x08, 0x0C, 0x10, 0x14, 0x1C, 0x24, 0x28, 0x30
# Controller Memory Buffer size and location, Controller Ready Timeouts (0 when not supported)
CMBLOC, CMBSZ, CRTO = 0x38, 0x3C, 0x68
DOORBELLS = 0x1000
# Where dpuv's own register blocks begin in BAR0 (past the NVMe registers and the MSI-X table and
# PBA); the rest are found from there by their chain
DPUV_BLOCKS = 0x4000
# Cycles of the design clock between two status reads while waiting for the controller
POLL_CYCLES = 4

# CC fields
CC_EN = 1 << 0
CC_CSS_NVM = 0 << 4
CC_MPS_4K = 0 << 7
CC_SHN_NORMAL = 1 << 14
CC_SHN_ABRUPT = 2 << 14
CC_IOSQES_64 = 6 << 16
CC_IOCQES_16 = 4 << 20
# CSTS fields
CSTS_RDY = 1 << 0
CSTS_CFS = 1 << 1
SHST_COMPLETE = 2


@dataclass(frozen=True)
class Capabilities:
    max_queue_entries: int      # MQES + 1
    contiguous_queues: bool     # CQR
    timeout_ms: int             # TO x 500 ms
    doorbell_stride: int        # bytes between doorbells: 4 << DSTRD
    nvm_command_set: bool       # CSS bit 0
    page_size_min: int          # 4096 << MPSMIN
    page_size_max: int

    @classmethod
    def decode(cls, cap: int) -> "Capabilities":
        return cls(max_queue_entries=(cap & 0xFFFF) + 1, contiguous_queues=bool(cap >> 16 & 1),
                   timeout_ms=(cap >> 24 & 0xFF) * 500, doorbell_stride=4 << (cap >> 32 & 0xF),
                   nvm_command_set=bool(cap >> 37 & 1), page_size_min=4096 << (cap >> 48 & 0xF),
                   page_size_max=4096 << (cap >> 52 & 0xF))


class ControllerError(Exception):
    """The controller reported a fatal status or did not follow CC within CAP.TO."""


class NvmeHost:
    def __init__(self, bar: RegisterAccess, timeout_polls: int = 1000):
        """bar: BAR0 of the controller. A wait for CSTS gives up after timeout_polls reads."""
        self.bar = bar
        self.timeout_polls = timeout_polls
        self.capabilities: Capabilities | None = None
        self._counters: BlockWindow | None = None

    async def read_qword(self, offset: int) -> int:
        """A 64-bit register as two 32-bit reads, low half first (what drivers for 32-bit hosts do)."""
        low = await self.bar.read_dword(offset)
        high = await self.bar.read_dword(offset + 4)
        return high << 32 | low

    async def write_qword(self, offset: int, value: int) -> None:
        await self.bar.write_dword(offset, value & 0xFFFFFFFF)
        await self.bar.write_dword(offset + 4, value >> 32)

    async def wait_status(self, mask: int, value: int) -> int:
        for _ in range(self.timeout_polls):
            csts = await self.bar.read_dword(CSTS)
            # A fatal status ends a wait for the controller to come up; a reset clears it
            if csts & CSTS_CFS and value & CSTS_RDY:
                raise ControllerError(f"controller fatal status (CSTS {csts:#x})")
            if csts & mask == value:
                return csts
            await self.bar.cycles(POLL_CYCLES)
        raise ControllerError(f"CSTS {csts:#x} never matched {value:#x} under mask {mask:#x}")

    async def reset(self) -> None:
        """Disable the controller and wait for it to be idle (CSTS.RDY and CFS 0)."""
        self.capabilities = Capabilities.decode(await self.read_qword(CAP))
        await self.bar.write_dword(CC, 0)
        # The reset also clears a fatal status (CSTS.CFS) once the controller is idle
        await self.wait_status(CSTS_RDY | CSTS_CFS, 0)

    async def set_admin_queues(self, sq_base: int, sq_entries: int, cq_base: int, cq_entries: int) -> None:
        await self.bar.write_dword(AQA, (cq_entries - 1) << 16 | (sq_entries - 1))
        await self.write_qword(ASQ, sq_base)
        await self.write_qword(ACQ, cq_base)

    async def enable(self, cc: int = CC_IOSQES_64 | CC_IOCQES_16 | CC_MPS_4K | CC_CSS_NVM) -> None:
        await self.bar.write_dword(CC, cc | CC_EN)
        await self.wait_status(CSTS_RDY, CSTS_RDY)

    async def shutdown(self, abrupt: bool = False) -> int:
        """Normal (or abrupt) shutdown; returns CSTS once SHST says complete."""
        cc = await self.bar.read_dword(CC)
        await self.bar.write_dword(CC, cc & ~(3 << 14) | (CC_SHN_ABRUPT if abrupt else CC_SHN_NORMAL))
        return await self.wait_status(3 << 2, SHST_COMPLETE << 2)

    async def counters(self) -> BlockWindow:
        """The controller's counters block, found on dpuv's chain in BAR0."""
        if self._counters is None:
            found = chain.blocks_of_type(await chain.walk_from(self.bar, DPUV_BLOCKS), nvme_counters.BLOCK)
            if not found:
                raise ControllerError(f"no NVMe counters block on the chain at BAR0 {DPUV_BLOCKS:#x}")
            self._counters = found[0].window(self.bar)
        return self._counters

    async def clear_counters(self) -> None:
        counters = await self.counters()
        await counters.write_register("CTRL", counters.block["CTRL"].field("clear").insert(0, 1))

    async def read_counters(self) -> dict[str, int]:
        """Every readable register of the counters block, by lower-case name (read while the
        controller is quiet)."""
        counters = await self.counters()
        return {register.name.lower(): await counters.read_register(register.name)
                for register in counters.block.registers
                if any("r" in field.software_access for field in register.fields)}

    def doorbell(self, queue: int, completion_head: bool) -> int:
        """BAR offset of a queue's SQ tail (or CQ head) doorbell."""
        stride = self.capabilities.doorbell_stride if self.capabilities else 4
        return DOORBELLS + (2 * queue + int(completion_head)) * stride


class QueuePair:
    """A submission and completion queue in host memory, as a driver keeps them: entries written
    at the tail and the tail doorbell rung; completions taken while their phase tag is the one
    expected (it flips on each wrap) and the head doorbell rung after. Queue 0 is the admin pair."""

    SQE_BYTES, CQE_BYTES = 64, 16

    def __init__(self, host: NvmeHost, write_memory: Callable[[int, bytes], None],
                 read_memory: Callable[[int, int], bytes], sq_base: int, cq_base: int, entries: int, qid: int = 0):
        self.host, self.write_memory, self.read_memory = host, write_memory, read_memory
        self.sq_base, self.cq_base, self.entries, self.qid = sq_base, cq_base, entries, qid
        self.tail = self.head = 0
        self.phase = 1
        write_memory(cq_base, bytes(entries * self.CQE_BYTES))

    async def set_up(self) -> None:
        """The admin pair's registers (I/O pairs are created by admin commands instead)."""
        await self.host.set_admin_queues(self.sq_base, self.entries, self.cq_base, self.entries)

    def place(self, entry: bytes) -> None:
        self.write_memory(self.sq_base + self.tail * self.SQE_BYTES, entry)
        self.tail = (self.tail + 1) % self.entries

    async def ring(self) -> None:
        await self.host.bar.write_dword(self.host.doorbell(self.qid, False), self.tail)

    async def submit(self, entry: bytes) -> None:
        self.place(entry)
        await self.ring()

    async def reap(self, ring_head: bool = True) -> list[Completion]:
        taken = []
        while True:
            entry = self.read_memory(self.cq_base + self.head * self.CQE_BYTES, self.CQE_BYTES)
            completion = Completion.decode(entry)
            if completion.phase != self.phase:
                break
            taken.append(completion)
            self.head = (self.head + 1) % self.entries
            if self.head == 0:
                self.phase ^= 1
        if taken and ring_head:
            await self.host.bar.write_dword(self.host.doorbell(self.qid, True), self.head)
        return taken


AdminQueue = QueuePair


class CommandTimeout(AssertionError):
    """An admin or I/O command got no completion within the polls allowed."""


async def execute(queue: QueuePair, entry: bytes, polls: int = 400, poll_cycles: int = 16) -> Completion:
    """Submit one command and wait for its completion (what a driver's synchronous submit does).
    Only this command may be completing: a completion with another CID fails, so a test finds a
    controller that answers the wrong command."""
    cid = int.from_bytes(entry[2:4], "little")
    await queue.submit(entry)
    for _ in range(polls):
        taken = await queue.reap()
        if taken:
            assert [done.cid for done in taken] == [cid], f"queue {queue.qid}: expected CID {cid:#x}, got {taken}"
            return taken[0]
        await queue.host.bar.cycles(poll_cycles)
    raise CommandTimeout(f"queue {queue.qid}: no completion for opcode {entry[0]:#04x} CID {cid:#x}")


def identify_command(cid: int, cns: int, prp1: int, nsid: int = 0, csi: int = 0, prp2: int = 0) -> bytes:
    """Identify: CNS in CDW10 7:0, the command set identifier in CDW11 31:24."""
    return submission(0x06, cid, nsid=nsid, cdw10=cns, cdw11=csi << 24, prp1=prp1, prp2=prp2)


def get_log_page_command(cid: int, lid: int, length: int, prp1: int, nsid: int = 0xFFFFFFFF, offset: int = 0,
                         retain_event: bool = False, prp2: int = 0) -> bytes:
    """Get Log Page (02h) of `length` bytes (a whole number of dwords) from byte `offset`: NUMD is
    0-based and split over CDW10 31:16 (NUMDL) and CDW11 15:0 (NUMDU), the offset over CDW12/13."""
    numd = length // 4 - 1
    entry = bytearray(submission(0x02, cid, nsid=nsid, cdw10=lid | int(retain_event) << 15 | (numd & 0xFFFF) << 16,
                                 cdw11=numd >> 16, prp1=prp1, prp2=prp2))
    entry[48:56] = (offset & 0xFFFFFFFF).to_bytes(4, "little") + (offset >> 32).to_bytes(4, "little")
    return bytes(entry)
