# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The Linux NVMe PCIe host driver's own sequence against nvme_controller (issue #17): probe,
namespace scan, shutdown and reset, every register access and admin command in the order
drivers/nvme/host/pci.c and core.c issue them, with the checks the driver makes on each answer
(docs/linux-nvme-host.md has the sequence and the kernel it was read from). Each replayed step is
a method named after the Linux function it replays, and a failed check names that function.

Where Linux reads a field the controller fixes (Identify additions, Identify CNS 03h, the SMART
log), the value is checked against what the controller advertises too (CONTRACT below, from the
admin model)."""

from __future__ import annotations

import random
import struct
from dataclasses import dataclass, field

import cocotb

from dpuv.drivers import nvme
from dpuv.drivers.nvme import execute, get_log_page_command, identify_command
from dpuv.models import nvme_admin, nvme_nvm
from dpuv.models.nvme_admin import Completion, create_queue, submission

from nvme_bench import TB

# The host being modelled: 4 CPUs, so the driver asks for 4 I/O queues (one per possible CPU,
# no write or poll queues: the module's defaults)
HOST_CPUS = 4
# Kernel constants (drivers/nvme/host/nvme.h, include/linux/nvme.h, pci.c)
NVME_AQ_DEPTH = 32                  # admin queue entries
NVME_AQ_BLK_MQ_DEPTH = NVME_AQ_DEPTH - 1   # the AER's command identifier: the tag past blk-mq's
IO_QUEUE_DEPTH = 1024               # module parameter io_queue_depth
SHUTDOWN_TIMEOUT_S = 5              # module parameter shutdown_timeout
HOST_PAGE_SHIFT = 12                # NVME_CTRL_PAGE_SHIFT
NVME_NSID_ALL = 0xFFFFFFFF
CNS_NS, CNS_CTRL, CNS_NS_ACTIVE_LIST, CNS_NS_DESC_LIST, CNS_CS_NS, CNS_CS_CTRL = 0x00, 0x01, 0x02, 0x03, 0x05, 0x06
LOG_SMART = 0x02
FEAT_NUM_QUEUES = 0x07
OP_DELETE_SQ, OP_DELETE_CQ = 0x00, 0x04
# Identify Controller bits the driver acts on
OACS_SEC_SUPP, OACS_DBBUF_SUPP = 1 << 0, 1 << 8
ONCS_WRITE_ZEROES, ONCS_TIMESTAMP = 1 << 3, 1 << 6
LPA_CMD_EFFECTS_LOG = 1 << 1
AEN_SUPPORTED = 1 << 8 | 1 << 9 | 1 << 11 | 1 << 31   # NS_ATTR, FW_ACT, ANA_CHANGE, DISC_CHANGE
CTRATT_ELBAS = 1 << 15
CNTRLTYPE_DISC, CNTRLTYPE_ADMIN = 2, 3
NIDT_EUI64, NIDT_NGUID, NIDT_UUID, NIDT_CSI = 1, 2, 3, 4
NIDT_LENGTHS = {NIDT_EUI64: 8, NIDT_NGUID: 16, NIDT_UUID: 16, NIDT_CSI: 1}

def advertised() -> dict:
    """The fields Linux reads that the controller fixes, as dpuv.models.nvme_admin (written from
    the specification, docs/storage.md "Admin command set") builds them: the expected values."""
    identity = nvme_admin.Identity()
    controller, namespace = nvme_admin.identify_controller(identity), nvme_admin.identify_namespace(identity)
    return {
        "CNTRLTYPE": controller[111],
        "LPA": controller[261],
        "ONCS": int.from_bytes(controller[520:522], "little"),
        "OAES": int.from_bytes(controller[92:96], "little"),
        "KAS": int.from_bytes(controller[320:322], "little"),
        "VWC": controller[525],
        "NPSS": controller[263],
        "SUBNQN": controller[768:1024].rstrip(b"\0"),
        "NGUID": namespace[104:120],
        "EUI64": namespace[120:128],
        "SMART_TEMPERATURE_K": identity.temperature,
    }


CONTRACT = advertised()


class LinuxCheckFailed(AssertionError):
    """A check the Linux driver makes failed and the driver gives up (the probe or reset fails):
    the message names the function that makes it."""


def linux_check(condition: bool, function: str, message: str) -> None:
    if not condition:
        raise LinuxCheckFailed(f"{function}: {message}")


def version(major: int, minor: int, tertiary: int = 0) -> int:
    """NVME_VS: VS register layout."""
    return major << 16 | minor << 8 | tertiary


def field_bytes(data: bytes, start: int, length: int) -> int:
    return int.from_bytes(data[start:start + length], "little")


@dataclass
class IdentifyController:
    """The fields of Identify Controller that nvme_init_identify and its callees keep (byte
    offsets from the NVMe base specification)."""
    raw: bytes

    vid = property(lambda self: field_bytes(self.raw, 0, 2))
    mdts = property(lambda self: self.raw[77])
    cntlid = property(lambda self: field_bytes(self.raw, 78, 2))
    ver = property(lambda self: field_bytes(self.raw, 80, 4))
    rtd3e = property(lambda self: field_bytes(self.raw, 88, 4))
    oaes = property(lambda self: field_bytes(self.raw, 92, 4))
    ctratt = property(lambda self: field_bytes(self.raw, 96, 4))
    cntrltype = property(lambda self: self.raw[111])
    crdt1 = property(lambda self: field_bytes(self.raw, 134, 2))
    oacs = property(lambda self: field_bytes(self.raw, 256, 2))
    acl = property(lambda self: self.raw[258])
    lpa = property(lambda self: self.raw[261])
    npss = property(lambda self: self.raw[263])
    apsta = property(lambda self: self.raw[264])
    hmpre = property(lambda self: field_bytes(self.raw, 272, 4))
    kas = property(lambda self: field_bytes(self.raw, 320, 2))
    sqes = property(lambda self: self.raw[512])
    cqes = property(lambda self: self.raw[513])
    nn = property(lambda self: field_bytes(self.raw, 516, 4))
    oncs = property(lambda self: field_bytes(self.raw, 520, 2))
    vwc = property(lambda self: self.raw[525])
    sgls = property(lambda self: field_bytes(self.raw, 536, 4))
    subnqn = property(lambda self: self.raw[768:1024])


@dataclass
class NamespaceInfo:
    """What nvme_scan_ns gathers for one NSID (struct nvme_ns_info and its ids)."""
    nsid: int
    eui64: bytes = bytes(8)
    nguid: bytes = bytes(16)
    uuid: bytes = bytes(16)
    csi: int = 0


@dataclass
class Disk:
    """A namespace the driver registered: its gendisk's capacity and logical block size."""
    nsid: int
    capacity_sectors: int
    logical_block_size: int
    nguid: bytes
    eui64: bytes


@dataclass
class LinuxNvmeHost:
    """The driver's state for one controller (struct nvme_dev and nvme_ctrl, the parts the
    replayed steps use) over the bench."""
    tb: TB
    cap: int = 0
    vs: int = 0
    ctrl_config: int = 0
    q_depth: int = 0
    admin: nvme.QueuePair | None = None
    io_queues: list = field(default_factory=list)
    identify: IdentifyController | None = None
    identified: bool = False
    shutdown_timeout_s: int = SHUTDOWN_TIMEOUT_S
    max_hw_sectors: int | None = 0
    max_zeroes_sectors: int | None = 0
    disks: dict = field(default_factory=dict)
    next_cid: int = 0
    io_memory: tuple | None = None
    # Linux quirks the replay runs with (pci.c's table): "NO_NS_DESC_LIST" skips Identify CNS 03h
    quirks: frozenset = frozenset()
    # What the driver would warn about, tolerate or give up on without failing the probe, and
    # fields it reads that differ from what the controller advertises: (function, message), in order
    findings: list = field(default_factory=list)

    def finding(self, condition: bool, function: str, message: str) -> bool:
        """A check whose failure the driver survives (a warning, a feature left off, a namespace
        not registered): recorded and the replay goes on as the driver would. Returns condition."""
        if not condition:
            self.findings.append((function, message))
        return condition

    def contract(self, name: str, value, function: str) -> bool:
        """A field Linux reads, against the value the controller advertises."""
        expected = CONTRACT[name]
        shown = (lambda v: v.hex() if isinstance(v, bytes) else f"{v:#x}") if name not in ("SUBNQN",) else repr
        return self.finding(value == expected, function,
                            f"{name} {shown(value)}, the controller advertises {shown(expected)}")

    # Host memory the driver would have allocated with dma_alloc_coherent / kmalloc: the admin
    # queues and 4 KiB data buffers in the bench's queue memory
    @property
    def admin_sq(self) -> int:
        return self.tb.memory_base

    @property
    def admin_cq(self) -> int:
        return self.tb.memory_base + 0x1000

    @property
    def buffer(self) -> int:
        return self.tb.memory_base + 0x4000

    def cid(self) -> int:
        self.next_cid = (self.next_cid + 1) % NVME_AQ_BLK_MQ_DEPTH   # blk-mq tags stay below the AER's
        return self.next_cid

    async def admin_command(self, entry: bytes) -> Completion:
        """nvme_submit_sync_cmd: one admin command, waited for."""
        return await execute(self.admin, entry)

    async def read_buffer_command(self, entry_for_buffer, length: int = 4096) -> tuple[Completion, bytes]:
        """An admin command that returns data into the driver's (zeroed) buffer."""
        self.tb.write_memory(self.buffer, bytes(length))
        done = await self.admin_command(entry_for_buffer(self.buffer))
        return done, self.tb.read_memory(self.buffer, length)

    # ---- registers (pci.c: readl / writel / lo_hi_readq / lo_hi_writeq) ----

    async def readl(self, offset: int) -> int:
        return await self.tb.bar.read_dword(offset)

    async def writel(self, offset: int, value: int) -> None:
        await self.tb.bar.write_dword(offset, value)

    async def lo_hi_readq(self, offset: int) -> int:
        return await self.tb.host.read_qword(offset)

    async def lo_hi_writeq(self, offset: int, value: int) -> None:
        await self.tb.host.write_qword(offset, value)

    def cap_timeout_units(self) -> int:
        return self.cap >> 24 & 0xFF

    async def nvme_wait_ready(self, mask: int, value: int, timeout_s: int, operation: str) -> bool:
        """Poll CSTS until (CSTS & mask) == value; an all-ones CSTS means the device is gone. The
        driver's timeout is in seconds, far beyond any simulation: the poll budget stands in, and a
        zero timeout is itself a failure (the driver would give up after its first sleep)."""
        if not self.finding(timeout_s > 0, "nvme_wait_ready", f"{operation} timeout of 0 s (CAP.TO {self.cap_timeout_units()})"):
            return False
        for _ in range(self.tb.host.timeout_polls):
            csts = await self.readl(nvme.CSTS)
            if not self.finding(csts != 0xFFFFFFFF, "nvme_wait_ready", f"CSTS reads all ones during {operation}"):
                return False
            if csts & mask == value:
                return True
            await self.tb.bar.cycles(nvme.POLL_CYCLES)
        self.finding(False, "nvme_wait_ready", f"Device not ready; aborting {operation}, CSTS={csts:#x}")
        return False

    # ---- probe: nvme_probe -> nvme_pci_enable ----

    async def nvme_pci_enable(self) -> None:
        csts = await self.readl(nvme.CSTS)
        linux_check(csts != 0xFFFFFFFF, "nvme_pci_enable", "reading CSTS register failed (all ones)")
        self.cap = await self.lo_hi_readq(nvme.CAP)
        self.q_depth = min((self.cap & 0xFFFF) + 1, IO_QUEUE_DEPTH)
        linux_check(self.q_depth >= 2, "nvme_pci_enable", f"CAP.MQES {self.cap & 0xFFFF} leaves no usable queue")
        await self.nvme_map_cmb()
        await self.nvme_pci_configure_admin_queue()

    async def nvme_map_cmb(self) -> None:
        """CAP.CMBS (bit 57) would make the driver enable CMBMSC first; then CMBSZ is read and a
        non-zero size maps a Controller Memory Buffer (and its SQs would move there)."""
        linux_check(not self.cap >> 57 & 1, "nvme_map_cmb", "CAP.CMBS set: the controller has no CMB to enable")
        cmbsz = await self.readl(nvme.CMBSZ)
        linux_check(cmbsz == 0, "nvme_map_cmb", f"CMBSZ {cmbsz:#x}: the driver would place I/O SQs in a CMB")

    async def nvme_pci_configure_admin_queue(self) -> None:
        vs = await self.readl(nvme.VS)
        if vs >= version(1, 1) and self.cap >> 36 & 1:       # CAP.NSSRC: a subsystem reset is possible
            csts = await self.readl(nvme.CSTS)
            if csts & 1 << 4:                                 # NSSRO: clear it
                await self.writel(nvme.CSTS, 1 << 4)
        # A disable that does not reach RDY 0 is retried after a Function Level Reset; the replay
        # has none to give, so the probe fails there
        linux_check(await self.nvme_disable_ctrl(shutdown=False), "nvme_pci_configure_admin_queue",
                    "controller reset did not clear CSTS.RDY")
        # nvme_alloc_queue (the queue is kept across resets) and nvme_init_queue (CQ zeroed, heads 0, phase 1)
        self.admin = nvme.QueuePair(self.tb.host, self.tb.write_memory, self.tb.read_memory, self.admin_sq,
                                    self.admin_cq, NVME_AQ_DEPTH)
        aqa = (NVME_AQ_DEPTH - 1) | (NVME_AQ_DEPTH - 1) << 16
        await self.writel(nvme.AQA, aqa)
        await self.lo_hi_writeq(nvme.ASQ, self.admin_sq)
        await self.lo_hi_writeq(nvme.ACQ, self.admin_cq)
        await self.nvme_enable_ctrl()

    async def nvme_disable_ctrl(self, shutdown: bool) -> bool:
        """core.c: SHN cleared; a shutdown sets SHN normal and waits for SHST complete within the
        shutdown timeout, a disable clears EN and waits for RDY 0 within (CAP.TO + 1) / 2 s."""
        self.ctrl_config &= ~(3 << 14)
        if shutdown:
            self.ctrl_config |= nvme.CC_SHN_NORMAL
        else:
            self.ctrl_config &= ~nvme.CC_EN
        await self.writel(nvme.CC, self.ctrl_config)
        if shutdown:
            return await self.nvme_wait_ready(3 << 2, nvme.SHST_COMPLETE << 2, self.shutdown_timeout_s, "shutdown")
        return await self.nvme_wait_ready(nvme.CSTS_RDY, 0, (self.cap_timeout_units() + 1) // 2, "reset")

    async def nvme_enable_ctrl(self) -> None:
        """core.c: CAP (64-bit), the page size check, CC with every field but EN, CAP again (it may
        change after the first CC write), CRTO if CAP.CRMS says so, then EN and a wait for RDY."""
        self.cap = await self.lo_hi_readq(nvme.CAP)
        page_min_shift = (self.cap >> 48 & 0xF) + 12
        linux_check(HOST_PAGE_SHIFT >= page_min_shift, "nvme_enable_ctrl",
                    f"minimum device page size {1 << page_min_shift} too large for host (4096)")
        css_all_io = self.cap >> 43 & 1                       # CAP.CSS bit 6: I/O command sets via CSI
        self.ctrl_config = (6 << 4 if css_all_io else 0) | (HOST_PAGE_SHIFT - 12) << 7 | nvme.CC_IOSQES_64 \
            | nvme.CC_IOCQES_16                               # AMS round robin, SHN none, CRIME off
        await self.writel(nvme.CC, self.ctrl_config)
        self.cap = await self.lo_hi_readq(nvme.CAP)
        timeout_units = self.cap_timeout_units()
        if self.cap >> 59 & 1:                                # CAP.CRMS.CRWMS: CRTO holds the real timeout
            crto = await self.readl(nvme.CRTO)
            timeout_units = max(timeout_units, crto >> 16 & 0xFFFF)
        self.ctrl_config |= nvme.CC_EN
        await self.writel(nvme.CC, self.ctrl_config)
        linux_check(await self.nvme_wait_ready(nvme.CSTS_RDY, nvme.CSTS_RDY, (timeout_units + 1) // 2, "initialisation"),
                    "nvme_enable_ctrl", "CSTS.RDY never set")

    # ---- nvme_init_ctrl_finish and nvme_init_identify ----

    async def nvme_init_ctrl_finish(self) -> None:
        self.vs = await self.readl(nvme.VS)
        await self.nvme_init_identify()
        self.finding(self.identify.cntrltype != CNTRLTYPE_ADMIN, "nvme_init_ctrl_finish",
                     "CNTRLTYPE 3 (administrative controller): the driver would create no I/O queues")
        self.nvme_configure_apst()
        self.nvme_configure_timestamp()
        self.nvme_configure_host_options()
        self.nvme_configure_opal()
        if not self.identified:
            await self.nvme_hwmon_init()
        self.identified = True
        # nvme_start_keep_alive: KAS (kato) 0 sends nothing

    async def nvme_identify_ctrl(self) -> IdentifyController:
        done, data = await self.read_buffer_command(lambda buffer: identify_command(self.cid(), CNS_CTRL, buffer))
        linux_check(done.status_code == 0 and done.status_type == 0, "nvme_init_identify",
                    f"Identify Controller failed ({done})")
        return IdentifyController(data)

    async def nvme_init_identify(self) -> None:
        previous = self.identify
        self.identify = identify = await self.nvme_identify_ctrl()
        if not self.identified:
            self.nvme_init_subnqn(identify)
            self.finding(identify.cntrltype != CNTRLTYPE_DISC, "nvme_init_subsystem",
                         "CNTRLTYPE 2: a discovery controller, not a subsystem with namespaces")
            self.nvme_init_effects(identify)
        else:
            # A reset re-reads the structure; the controller it names must be the same one
            self.finding(previous.raw == identify.raw, "nvme_init_identify",
                         "Identify Controller changed across the reset")
        self.contract("CNTRLTYPE", identify.cntrltype, "nvme_init_identify")
        # MDTS in units of the minimum page size; 0 means no limit
        page_shift = (self.cap >> 48 & 0xF) + 12
        self.max_hw_sectors = 1 << (identify.mdts + page_shift - 9) if identify.mdts else None
        # RTD3E (us) sets the shutdown timeout, clamped to 5..60 s
        if identify.rtd3e:
            self.shutdown_timeout_s = min(max(identify.rtd3e // 1_000_000, SHUTDOWN_TIMEOUT_S), 60)
        # Fields the driver keeps and acts on later: the values advertised
        for name, value in (("ONCS", identify.oncs), ("OAES", identify.oaes), ("KAS", identify.kas),
                            ("VWC", identify.vwc), ("NPSS", identify.npss)):
            self.contract(name, value, "nvme_init_identify")
        self.finding(identify.sqes & 0xF <= 6 <= identify.sqes >> 4 and identify.cqes & 0xF <= 4 <= identify.cqes >> 4,
                    "nvme_init_identify", f"SQES {identify.sqes:#x} / CQES {identify.cqes:#x} exclude the "
                    "64- and 16-byte entries the driver's CC asks for")

    def nvme_init_subnqn(self, identify: IdentifyController) -> None:
        """A SUBNQN of 1 to 255 characters (NUL-terminated in its 256 bytes) is used as is; else
        the driver warns (VS >= 1.2.1) and makes one up from VID, SSVID, SN and MN."""
        length = identify.subnqn.find(b"\0")
        self.finding(0 < length < 256 or self.vs < version(1, 2, 1), "nvme_init_subnqn",
                     "missing or invalid SUBNQN field (the driver would warn and make one up)")
        self.contract("SUBNQN", identify.subnqn[:max(length, 0)], "nvme_init_subnqn")

    def nvme_init_effects(self, identify: IdentifyController) -> None:
        """LPA bit 1 would make the driver read the Commands Supported and Effects log (05h),
        which the controller does not keep; otherwise it assumes the known NVM effects."""
        self.contract("LPA", identify.lpa, "nvme_init_effects")
        self.finding(not identify.lpa & LPA_CMD_EFFECTS_LOG, "nvme_init_effects",
                    "LPA advertises the Commands Supported and Effects log, which the controller does not keep")

    def nvme_configure_apst(self) -> None:
        self.finding(self.identify.apsta == 0, "nvme_configure_apst",
                    "APSTA set: the driver would send Set Features 0Ch, which the controller does not carry")

    def nvme_configure_timestamp(self) -> None:
        self.finding(not self.identify.oncs & ONCS_TIMESTAMP, "nvme_configure_timestamp",
                    "ONCS advertises Timestamp: the driver would send Set Features 0Eh")

    def nvme_configure_host_options(self) -> None:
        self.finding(self.identify.crdt1 == 0 and not self.identify.ctratt & CTRATT_ELBAS,
                    "nvme_configure_host_options", "CRDT1 or CTRATT.ELBAS set: the driver would send Set Features 16h")

    def nvme_configure_opal(self) -> None:
        self.finding(not self.identify.oacs & OACS_SEC_SUPP, "nvme_configure_opal",
                    "OACS advertises Security Send/Receive: the driver would start an Opal discovery")

    async def nvme_hwmon_init(self) -> None:
        """CONFIG_NVME_HWMON: the SMART / Health log for every namespace (512 bytes); a failure is
        a warning and no hwmon device, the composite temperature (Kelvin) is what it reports."""
        done, log = await self.read_buffer_command(
            lambda buffer: get_log_page_command(self.cid(), LOG_SMART, 512, buffer, nsid=NVME_NSID_ALL), 512)
        if self.finding((done.status_type, done.status_code) == (0, 0), "nvme_hwmon_init",
                        f"Failed to read smart log ({done}): no hwmon device"):
            self.contract("SMART_TEMPERATURE_K", field_bytes(log, 1, 2), "nvme_hwmon_init")

    # ---- I/O queues: nvme_setup_io_queues ----

    async def nvme_set_queue_count(self, count: int) -> int:
        """Set Features Number of Queues with count-1 in both halves; a failure leaves the
        controller with the admin queue only; else the smaller of NSQA and NCQA, 0-based, caps it."""
        done = await self.admin_command(submission(nvme_admin.OP_SET_FEATURES, self.cid(), cdw10=FEAT_NUM_QUEUES,
                                                   cdw11=(count - 1) | (count - 1) << 16))
        if not self.finding((done.status_type, done.status_code) == (0, 0), "nvme_set_queue_count",
                            f"Could not set queue count ({done}): no I/O queues, no namespaces"):
            return 0
        return min(count, min(done.result & 0xFFFF, done.result >> 16) + 1)

    def io_queue_memory(self, count: int) -> int:
        """The I/O queues' host memory, allocated once and kept across resets (nvme_alloc_queue)."""
        sq_bytes, cq_bytes = self.q_depth * 64, self.q_depth * 16
        pair_bytes = -(-(sq_bytes + cq_bytes) // 4096) * 4096
        if self.io_memory is None or self.io_memory[1] < count:
            region = self.tb.rc.mem_pool.alloc_region(count * pair_bytes)
            base = region.get_absolute_address(0)
            self.tb.regions.append((region, base))
            self.io_memory = (base, count, pair_bytes)
        return self.io_memory[0]

    async def nvme_setup_io_queues(self) -> None:
        count = await self.nvme_set_queue_count(HOST_CPUS)
        self.io_queues = []
        if count == 0:
            return
        # nvme_setup_irqs: one MSI-X vector for the admin queue and one per I/O queue
        base = self.io_queue_memory(count)
        pair_bytes = self.io_memory[2]
        for qid in range(1, count + 1):
            sq_base = base + (qid - 1) * pair_bytes
            cq_base = sq_base + -(-self.q_depth * 64 // 4096) * 4096
            if not await self.nvme_create_queue(qid, sq_base, cq_base):
                break
        self.finding(len(self.io_queues) == count, "nvme_create_io_queues",
                     f"{len(self.io_queues)} of {count} I/O queues created")

    async def nvme_create_queue(self, qid: int, sq_base: int, cq_base: int) -> bool:
        """adapter_alloc_cq (physically contiguous, interrupts on, vector = qid while there is more
        than one vector) then adapter_alloc_sq (contiguous, urgent priority, on CQ qid); a failed
        create stops queue creation with the queues made so far."""
        queue = nvme.QueuePair(self.tb.host, self.tb.write_memory, self.tb.read_memory, sq_base, cq_base,
                               self.q_depth, qid)
        for entry, what in ((create_queue(nvme_admin.OP_CREATE_CQ, self.cid(), qid, self.q_depth, cq_base,
                                          vector_or_cq=qid), "adapter_alloc_cq"),
                            (create_queue(nvme_admin.OP_CREATE_SQ, self.cid(), qid, self.q_depth, sq_base,
                                          vector_or_cq=qid), "adapter_alloc_sq")):
            done = await self.admin_command(entry)
            if not self.finding((done.status_type, done.status_code) == (0, 0), what, f"queue {qid} refused: {done}"):
                return False
        self.io_queues.append(queue)
        return True

    # ---- nvme_start_ctrl: events and the scan ----

    async def nvme_start_ctrl(self) -> None:
        self.nvme_enable_aen()
        await self.nvme_pci_submit_async_event()
        # nvme_queue_scan: only with I/O queues (a tag set)
        if self.io_queues:
            await self.nvme_scan_work()

    def nvme_enable_aen(self) -> None:
        """OAES bits the driver handles (namespace attribute, firmware activation, ANA, discovery
        changes) would be enabled with Set Features 0Bh; the controller advertises OAES 0."""
        self.finding(not self.identify.oaes & AEN_SUPPORTED, "nvme_enable_aen",
                    f"OAES {self.identify.oaes:#x} would enable notices the controller does not send")

    async def nvme_pci_submit_async_event(self) -> None:
        """One Asynchronous Event Request, outside blk-mq with the reserved command identifier; it
        must stay outstanding while nothing has happened."""
        await self.admin.submit(submission(nvme_admin.OP_ASYNC_EVENT_REQUEST, NVME_AQ_BLK_MQ_DEPTH))
        await self.tb.bar.cycles(200)
        early = await self.admin.reap()
        self.finding(early == [], "nvme_complete_async_event", f"an event request completed with no event: {early}")

    async def nvme_scan_work(self) -> None:
        await self.nvme_init_non_mdts_limits()
        # nvme_id_cns_ok(CNS 02h): the active list from NVMe 1.1
        if self.vs >= version(1, 1):
            status = await self.nvme_scan_ns_list()
            # A DNR status: a device that should carry the list (by its VS) but does not
            if status is not None and status.do_not_retry:
                await self.nvme_scan_ns_sequential()
        else:
            await self.nvme_scan_ns_sequential()

    async def nvme_scan_ns_sequential(self) -> None:
        """Every NSID from 1 to NN, NN from a fresh Identify Controller."""
        identify = await self.nvme_identify_ctrl()
        for nsid in range(1, identify.nn + 1):
            await self.nvme_scan_ns(nsid)

    async def nvme_init_non_mdts_limits(self) -> None:
        """Write Zeroes in ONCS lets the block layer send Write Zeroes up to max_hw_sectors; with VS
        1.2 or later the driver asks Identify CNS 06h (NVM command set Identify Controller), and a
        status answer only makes it stop asking."""
        self.max_zeroes_sectors = self.max_hw_sectors if self.identify.oncs & ONCS_WRITE_ZEROES else 0
        if self.vs >= version(1, 2):
            await self.read_buffer_command(lambda buffer: identify_command(self.cid(), CNS_CS_CTRL, buffer, csi=0))

    async def nvme_scan_ns_list(self) -> Completion | None:
        """Identify CNS 02h from NSID 0: each non-zero entry is scanned, a zero ends the list.
        Returns the failed completion, if it failed."""
        done, data = await self.read_buffer_command(lambda buffer: identify_command(self.cid(), CNS_NS_ACTIVE_LIST,
                                                                                     buffer, nsid=0))
        if not self.finding((done.status_type, done.status_code) == (0, 0), "nvme_scan_ns_list",
                            f"Identify NS List failed ({done})"):
            return done
        nsids = struct.unpack("<1024I", data)
        active = list(nsids[:nsids.index(0)] if 0 in nsids else nsids)
        # The driver removes namespaces between listed NSIDs, so the list must ascend
        self.finding(active == sorted(set(active)), "nvme_scan_ns_list", f"NSIDs not ascending: {active}")
        self.finding(all(nsid <= self.identify.nn for nsid in active), "nvme_scan_ns_list",
                     f"NSIDs {active} past NN {self.identify.nn}")
        for nsid in active:
            await self.nvme_scan_ns(nsid)
        return None

    async def nvme_scan_ns(self, nsid: int) -> None:
        info = NamespaceInfo(nsid)
        if self.vs >= version(1, 3) and "NO_NS_DESC_LIST" not in self.quirks:
            if not await self.nvme_identify_ns_descs(info):
                return
        if not self.finding(info.csi == 0, "nvme_scan_ns", f"command set not reported for nsid: {nsid}"):
            return
        if not await self.nvme_ns_info_from_identify(info):
            self.disks.pop(nsid, None)
            return
        if nsid in self.disks and not self.nvme_validate_ns(info):
            return
        await self.nvme_update_ns_info_block(info)

    async def nvme_identify_ns_descs(self, info: NamespaceInfo) -> bool:
        """Identify CNS 03h: a status answer makes nvme_scan_ns give the namespace up. Descriptors
        are walked until a zero NIDL; a length wrong for its type stops the walk."""
        done, data = await self.read_buffer_command(lambda buffer: identify_command(self.cid(), CNS_NS_DESC_LIST,
                                                                                     buffer, nsid=info.nsid))
        if not self.finding((done.status_type, done.status_code) == (0, 0), "nvme_identify_ns_descs",
                            f"Identify Descriptors failed (nsid={info.nsid}, {done}): the namespace is not registered"):
            return False
        position = 0
        while position + 4 <= 4096:
            nidt, nidl = data[position], data[position + 1]
            if nidl == 0 or position + 4 + nidl > 4096:
                break
            value = data[position + 4:position + 4 + nidl]
            if nidt in NIDT_LENGTHS:
                if not self.finding(nidl == NIDT_LENGTHS[nidt], "nvme_process_ns_desc",
                                    f"ctrl returned bogus length: {nidl} for NIDT {nidt}"):
                    break
                if nidt == NIDT_EUI64:
                    info.eui64 = value
                elif nidt == NIDT_NGUID:
                    info.nguid = value
                elif nidt == NIDT_UUID:
                    info.uuid = value
                else:
                    info.csi = value[0]
            position += 4 + nidl
        self.contract("NGUID", info.nguid, "nvme_identify_ns_descs")
        return True

    async def nvme_identify_ns(self, nsid: int, function: str) -> bytes | None:
        done, data = await self.read_buffer_command(lambda buffer: identify_command(self.cid(), CNS_NS, buffer,
                                                                                     nsid=nsid))
        if not self.finding((done.status_type, done.status_code) == (0, 0), function,
                            f"Identify namespace failed ({done})"):
            return None
        if not self.finding(field_bytes(data, 8, 8) != 0, function,
                            f"nsid {nsid}: NCAP 0 (namespace not allocated or attached)"):
            return None
        return data

    async def nvme_ns_info_from_identify(self, info: NamespaceInfo) -> bool:
        """NCAP 0: not allocated or attached. EUI64 (VS >= 1.1) and NGUID (VS >= 1.2) are taken
        from the structure only where the descriptor list gave none; where both give one they must
        agree, or the IDs the kernel exposes (/dev/disk/by-id) depend on which the driver read."""
        data = await self.nvme_identify_ns(info.nsid, "nvme_ns_info_from_identify")
        if data is None:
            return False
        nguid, eui64 = data[104:120], data[120:128]
        for name, listed, structure in (("NGUID", info.nguid, nguid), ("EUI64", info.eui64, eui64)):
            self.finding(not any(listed) or not any(structure) or listed == structure, "nvme_ns_info_from_identify",
                         f"{name} {structure.hex()} in Identify Namespace, {listed.hex()} in the descriptor list")
        if self.vs >= version(1, 1) and not any(info.eui64):
            info.eui64 = eui64
        if self.vs >= version(1, 2) and not any(info.nguid):
            info.nguid = nguid
        self.contract("NGUID", nguid, "nvme_ns_info_from_identify")
        self.contract("EUI64", eui64, "nvme_ns_info_from_identify")
        return True

    def nvme_validate_ns(self, info: NamespaceInfo) -> bool:
        """A namespace seen before (a rescan after reset) keeps its identifiers, or it is removed."""
        disk = self.disks[info.nsid]
        if self.finding((disk.nguid, disk.eui64) == (info.nguid, info.eui64), "nvme_validate_ns",
                        f"identifiers changed for nsid {info.nsid}"):
            return True
        del self.disks[info.nsid]
        return False

    async def nvme_update_ns_info_block(self, info: NamespaceInfo) -> None:
        """Identify Namespace again, the NVM-specific one (CNS 05h, a status answer tolerated),
        then capacity = NSZE << (LBADS - 9) sectors, the logical block size 1 << LBADS (512 to
        the host page), no metadata; set_capacity_and_notify registers it."""
        data = await self.nvme_identify_ns(info.nsid, "nvme_update_ns_info_block")
        if data is None:
            return
        if self.vs >= version(1, 2):
            await self.read_buffer_command(lambda buffer: identify_command(self.cid(), CNS_CS_NS, buffer,
                                                                           nsid=info.nsid, csi=0))
        nsze, nlbaf, flbas = field_bytes(data, 0, 8), data[25], data[26]
        index = flbas & 0xF | ((flbas >> 5 & 3) << 4 if nlbaf > 16 else 0)
        self.finding(index <= nlbaf, "nvme_update_ns_info_block", f"FLBAS picks format {index} of {nlbaf + 1}")
        lbaf = field_bytes(data, 128 + 4 * index, 4)
        metadata, lbads = lbaf & 0xFFFF, lbaf >> 16 & 0xFF
        if not self.finding(lbads >= 9 and (nsze << (lbads - 9)) < 1 << 64, "nvme_invalid_lba_sz",
                            f"invalid LBA data size {lbads}, skipping namespace"):
            return
        capacity = nsze << (lbads - 9)
        # Blocks the block layer cannot take (past the host page) or metadata without PI: capacity 0
        if not self.finding(lbads <= HOST_PAGE_SHIFT, "nvme_update_disk_info",
                            f"LBA data size 2^{lbads}: blk_validate_block_size refuses it, capacity 0"):
            capacity = 0
        if not self.finding(metadata == 0, "nvme_init_integrity",
                            f"{metadata} metadata bytes per block without PI support: capacity 0"):
            capacity = 0
        self.disks[info.nsid] = Disk(info.nsid, capacity, 1 << lbads, info.nguid, info.eui64)

    # ---- teardown: nvme_dev_disable ----

    async def nvme_dev_disable(self, shutdown: bool) -> None:
        """nvme_pci_ctrl_is_dead reads CSTS (CFS or not RDY: dead, nothing sent); else every I/O SQ
        is deleted, then every CQ (each batch sent highest QID first, all before the waits), then
        nvme_disable_ctrl. The outstanding event request is dropped with the admin queue."""
        csts = await self.readl(nvme.CSTS)
        dead = bool(csts & nvme.CSTS_CFS) or not csts & nvme.CSTS_RDY
        if self.finding(not dead, "nvme_pci_ctrl_is_dead", f"CSTS {csts:#x}: the driver skips the orderly teardown"):
            await self.nvme_delete_io_queues()
            # nvme_dev_disable does not look at the outcome: a timeout is only logged
            await self.nvme_disable_ctrl(shutdown)
        self.io_queues = []

    async def nvme_delete_io_queues(self) -> None:
        for opcode, name in ((OP_DELETE_SQ, "Delete I/O SQ"), (OP_DELETE_CQ, "Delete I/O CQ")):
            sent = {}
            for queue in reversed(self.io_queues):
                entry = submission(opcode, self.cid(), cdw10=queue.qid)
                sent[int.from_bytes(entry[2:4], "little")] = queue.qid
                self.admin.place(entry)
                await self.admin.ring()
            done = await self.reap_admin(len(sent), "__nvme_delete_io_queues")
            if done is None:
                return       # the driver stops deleting on a timeout
            self.finding(sorted(completion.cid for completion in done) == sorted(sent), "__nvme_delete_io_queues",
                        f"{name}: completions {done} for commands {sent}")
            failed = [(sent[completion.cid], completion) for completion in done if completion.status_code
                      or completion.status_type]
            self.finding(not failed, "nvme_del_cq_end" if opcode == OP_DELETE_CQ else "nvme_del_queue_end",
                        f"{name} failed: {failed}")

    async def reap_admin(self, count: int, function: str, polls: int = 400) -> list[Completion] | None:
        taken = []
        for _ in range(polls):
            taken += await self.admin.reap()
            if len(taken) >= count:
                return taken
            await self.tb.bar.cycles(16)
        self.finding(False, function, f"{len(taken)} of {count} completions (admin timeout)")
        return None

    # ---- the whole paths ----

    async def nvme_probe(self) -> None:
        await self.nvme_pci_enable()
        await self.nvme_init_ctrl_finish()
        # nvme_dbbuf_dma_alloc / nvme_dbbuf_set: the Doorbell Buffer Config command only with OACS bit 8
        self.finding(not self.identify.oacs & OACS_DBBUF_SUPP, "nvme_dbbuf_set",
                    "OACS advertises Doorbell Buffer Config, which the controller does not carry")
        # nvme_setup_host_mem: HMPRE 0 asks for no host memory buffer
        self.finding(self.identify.hmpre == 0, "nvme_setup_host_mem", "HMPRE asks for a host memory buffer")
        await self.nvme_setup_io_queues()
        await self.nvme_start_ctrl()

    async def nvme_reset_work(self) -> None:
        """nvme_reset_ctrl: a live controller is disabled first (not shut down), then brought up
        as at probe: enable, identify, queues, events, scan (namespaces seen before revalidated)."""
        if self.ctrl_config & nvme.CC_EN:
            await self.nvme_dev_disable(shutdown=False)
        await self.nvme_pci_enable()
        await self.nvme_init_ctrl_finish()
        await self.nvme_setup_io_queues()
        await self.nvme_start_ctrl()


# ---- what the tests expect ----

def report(findings: list) -> str:
    return "\n".join(f"  {function}: {message}" for function, message in findings)


def check_no_findings(host: LinuxNvmeHost, path: str) -> None:
    """Every check the driver survives passed too: no warning, nothing tolerated, every advertised value met."""
    assert not host.findings, f"the Linux {path} found {len(host.findings)} problem(s):\n{report(host.findings)}"


def check_registered_namespace(tb: TB, host: LinuxNvmeHost) -> None:
    """Namespace 1 registered with the build's size and block size."""
    assert set(host.disks) == {1}, f"namespaces registered: {sorted(host.disks)}\n{report(host.findings)}"
    disk = host.disks[1]
    block = 1 << tb.lba_shift
    assert disk.logical_block_size == block, f"logical block size {disk.logical_block_size}, the build's is {block}"
    sectors = tb.namespace_blocks * block // 512
    assert disk.capacity_sectors == sectors, f"capacity {disk.capacity_sectors} sectors, the build's is {sectors}"


async def read_first_blocks(tb: TB, host: LinuxNvmeHost, seed: int) -> None:
    """device_add_disk's partition scan reads the start of the disk through an I/O queue: the
    queues carry I/O, and the data is the namespace's."""
    contents = random.Random(seed).randbytes(4096)
    tb.namespace.write(0, contents)
    tb.write_memory(host.buffer, bytes(4096))
    entry = nvme_nvm.io_command(nvme_nvm.OP_READ, 0x42, 0, 4096 >> tb.lba_shift, host.buffer, 0)
    done = await execute(host.io_queues[0], entry)
    assert (done.status_type, done.status_code) == (0, 0), f"partition-table Read failed: {done}"
    assert tb.read_memory(host.buffer, 4096) == contents, "the first 4 KiB read back differ from the namespace"


async def probed_host(dut, quirks: frozenset = frozenset()) -> tuple[TB, LinuxNvmeHost]:
    tb = TB(dut)
    await tb.bring_up()
    host = LinuxNvmeHost(tb, quirks=quirks)
    await host.nvme_probe()
    assert len(host.io_queues) == HOST_CPUS, f"{len(host.io_queues)} I/O queues\n{report(host.findings)}"
    return tb, host


@cocotb.test(timeout_time=100, timeout_unit="us")
async def linux_probe_and_scan_registers_the_namespace(dut):
    """nvme_probe to the end of the first scan: HOST_CPUS I/O queue pairs up and carrying a Read,
    namespace 1 registered with the build's size and block size, and nothing the driver would
    warn about, tolerate or find against what the controller advertises."""
    tb, host = await probed_host(dut)
    await read_first_blocks(tb, host, seed=17)
    check_registered_namespace(tb, host)
    check_no_findings(host, "probe")


@cocotb.test(timeout_time=50, timeout_unit="us")
async def linux_probe_with_the_no_ns_desc_list_quirk_registers_the_namespace(dut):
    """The same probe as a controller on NVME_QUIRK_NO_NS_DESC_LIST gets it (pci.c's table has
    such devices): no Identify CNS 03h, the identifiers from Identify Namespace alone. Separates
    what the scan needs of Identify Namespace from what it needs of the descriptor list."""
    tb, host = await probed_host(dut, quirks=frozenset({"NO_NS_DESC_LIST"}))
    await read_first_blocks(tb, host, seed=19)
    check_registered_namespace(tb, host)
    check_no_findings(host, "probe (NO_NS_DESC_LIST)")


@cocotb.test(timeout_time=100, timeout_unit="us")
async def linux_shutdown_deletes_queues_and_reaches_shst_complete(dut):
    """nvme_shutdown (reboot or power-off) after probe: nvme_dev_disable with shutdown, every I/O
    SQ then every CQ deleted, CC.SHN normal and CSTS.SHST complete within the shutdown timeout,
    no fatal status; then the next boot's first step, a disable, brings RDY to 0. Only what the
    shutdown path finds is this test's (the probe's findings are the probe tests')."""
    tb, host = await probed_host(dut)
    host.findings = []
    await host.nvme_dev_disable(shutdown=True)
    csts = await host.readl(nvme.CSTS)
    assert csts >> 2 & 3 == nvme.SHST_COMPLETE and not csts & nvme.CSTS_CFS, f"CSTS {csts:#x} after the shutdown"
    check_no_findings(host, "shutdown")
    assert await host.nvme_disable_ctrl(shutdown=False), report(host.findings)


@cocotb.test(timeout_time=100, timeout_unit="us")
async def linux_reset_brings_the_controller_back(dut):
    """nvme_reset_ctrl after probe: the live controller disabled (I/O queues deleted, EN cleared,
    RDY 0), then nvme_reset_work brings it up as at probe, the admin queue reinitialised, Identify
    Controller unchanged, the queue count set and the queues created again, the scan revalidating
    the namespaces probe registered (same identifiers and size) and I/O working. The reset finds
    nothing the probe did not (the probe tests judge what the probe finds)."""
    tb, host = await probed_host(dut)
    probe_findings, disks = {function for function, _ in host.findings}, dict(host.disks)
    host.findings = []
    await host.nvme_reset_work()
    assert len(host.io_queues) == HOST_CPUS, f"{len(host.io_queues)} I/O queues after the reset\n{report(host.findings)}"
    assert host.disks == disks, f"namespaces {disks} before the reset, {host.disks} after\n{report(host.findings)}"
    # The reset repeats the probe's steps but those done once (subsystem, effects, hwmon)
    new = [(function, message) for function, message in host.findings if function not in probe_findings]
    assert not new, f"the reset found problems the probe did not:\n{report(new)}"
    await read_first_blocks(tb, host, seed=18)
