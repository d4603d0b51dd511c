# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Driver model of the RDMA engine's registers (rtl/rdma/regs/rdma_engine.rdl) and host queues:
what host software does to bring a QP up, register memory, post work requests through a send
queue and its doorbell, and reap completions. Registers go through the register access
interface and host memory through two callables, so it runs the same in cocotb and against a
board: plain functions for a memory the testbench holds, coroutine functions for one reached over
a link (a board's memory window)."""

from __future__ import annotations

import inspect
import ipaddress
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum

from dpuv.drivers.rdma_host_interface import CODES, COMPLETION, RECEIVE_WQE, SEND_WQE
from dpuv.models.dcqcn import DcqcnParameters, RateStage
from dpuv.models.roce_qp import CompletionStatus, WorkOpcode, WorkRequest
from dpuv.regs.access import BlockWindow
from dpuv.regs.maps import rdma_engine

BLOCK = rdma_engine.BLOCK
# The counters are every register from the counter window on (rtl/rdma/regs/rdma_engine.rdl),
# in address order: the register map is their one list
COUNTER_WINDOW = BLOCK["RX_FRAMES"].offset
COUNTERS = tuple(register.name for register in BLOCK.registers if register.offset >= COUNTER_WINDOW)

# The P_Key table (PKEY_0, PKEY_1, ...) in entry order, and the default partition entry 0 holds
# after reset; an entry whose bits 14:0 are zero is empty
PKEY_TABLE = tuple(register.name for register in BLOCK.registers if register.name.startswith("PKEY_"))
DEFAULT_PKEY = BLOCK["PKEY_0"].field("value").reset

# The layouts and codes of the host-memory structures: rtl/rdma/host_interface.toml
WQE_BYTES = SEND_WQE.size
RECEIVE_WQE_BYTES = RECEIVE_WQE.size
CQE_BYTES = COMPLETION.size

# The engine's WQE opcode for each verb
WQE_OPCODE = {WorkOpcode.RDMA_WRITE: CODES["wqe_opcode"].values["WRITE"],
              WorkOpcode.RDMA_WRITE_WITH_IMMEDIATE: CODES["wqe_opcode"].values["WRITE_IMM"],
              WorkOpcode.SEND: CODES["wqe_opcode"].values["SEND"],
              WorkOpcode.SEND_WITH_IMMEDIATE: CODES["wqe_opcode"].values["SEND_IMM"],
              WorkOpcode.RDMA_READ: CODES["wqe_opcode"].values["READ"],
              WorkOpcode.COMPARE_SWAP: CODES["wqe_opcode"].values["COMPARE_SWAP"],
              WorkOpcode.FETCH_ADD: CODES["wqe_opcode"].values["FETCH_ADD"]}

# ibv_wc_opcode and ibv_wc_status values the completion entries carry
WcOpcode = IntEnum("WcOpcode", CODES["wc_opcode"].values)
WcStatus = IntEnum("WcStatus", CODES["wc_status"].values)

WC_OPCODE = {WorkOpcode.RDMA_WRITE: WcOpcode.RDMA_WRITE, WorkOpcode.RDMA_WRITE_WITH_IMMEDIATE: WcOpcode.RDMA_WRITE,
             WorkOpcode.SEND: WcOpcode.SEND, WorkOpcode.SEND_WITH_IMMEDIATE: WcOpcode.SEND,
             WorkOpcode.RDMA_READ: WcOpcode.RDMA_READ, WorkOpcode.COMPARE_SWAP: WcOpcode.COMP_SWAP,
             WorkOpcode.FETCH_ADD: WcOpcode.FETCH_ADD}
# What the model's completion statuses are as ibv_wc_status
WC_STATUS = {CompletionStatus.SUCCESS: WcStatus.SUCCESS, CompletionStatus.LOCAL_LENGTH_ERROR: WcStatus.LOC_LEN_ERR,
             CompletionStatus.REMOTE_INVALID_REQUEST: WcStatus.REM_INV_REQ_ERR,
             CompletionStatus.REMOTE_ACCESS_ERROR: WcStatus.REM_ACCESS_ERR,
             CompletionStatus.REMOTE_OPERATIONAL_ERROR: WcStatus.REM_OP_ERR,
             CompletionStatus.RETRY_EXCEEDED: WcStatus.RETRY_EXC_ERR,
             CompletionStatus.RNR_RETRY_EXCEEDED: WcStatus.RNR_RETRY_EXC_ERR, CompletionStatus.FLUSHED: WcStatus.WR_FLUSH_ERR}


def _mac(text: str) -> int:
    return int(text.replace(":", ""), 16)


def pmtu_code(pmtu: int) -> int:
    """The QP_TRANSPORT encoding: PMTU = 256 << code."""
    if pmtu not in (256, 512, 1024, 2048, 4096):
        raise ValueError(f"PMTU {pmtu} is not 256, 512, 1024, 2048 or 4096")
    return pmtu.bit_length() - 9


def encode_wqe(request: WorkRequest, local_address: int) -> bytes:
    """The WQE for `request`, its local buffer (WRITE/SEND source, READ destination, an atomic's 8
    bytes for the original value) at local_address."""
    return SEND_WQE.pack(opcode=WQE_OPCODE[request.opcode], immediate=request.imm or 0, wr_id=request.wr_id,
                         local_address=local_address, length=request.length, rkey=request.rkey,
                         remote_address=request.remote_address, compare=request.compare, swap_add=request.swap_add)


@dataclass(frozen=True)
class EngineCompletion:
    wr_id: int
    status: int
    opcode: int
    byte_len: int
    qpn: int
    immediate: int | None

    @classmethod
    def decode(cls, entry: bytes) -> "EngineCompletion":
        fields = COMPLETION.unpack(entry)
        return cls(fields["wr_id"], fields["status"], fields["opcode"], fields["byte_len"], fields["qpn"],
                   fields["immediate"] if fields["immediate_valid"] else None)


async def set_up(window: BlockWindow, mac: str, ip: str, max_pmtu: int = 4096,
                 pkeys: Sequence[int] = (DEFAULT_PKEY,)) -> None:
    """The engine's own addresses (it acts only on frames for `ip`), the largest PMTU its receiver
    accepts, and its P_Key table (set_pkey_table)."""
    await window.write_register("PMTU", max_pmtu)
    await window.write_register("LOCAL_MAC_LOW", _mac(mac) & 0xFFFFFFFF)
    await window.write_register("LOCAL_MAC_HIGH", _mac(mac) >> 32)
    await window.write_register("LOCAL_IP", int(ipaddress.IPv4Address(ip)))
    await set_pkey_table(window, pkeys)


async def set_pkey_table(window: BlockWindow, pkeys: Sequence[int]) -> None:
    """The partitions the engine is a member of: `pkeys` fill the table from entry 0 and the rest
    is emptied. A frame is accepted if its P_Key matches any entry; the engine sends `pkeys[0]`."""
    if not 1 <= len(pkeys) <= len(PKEY_TABLE) or not all(0 <= pkey <= 0xFFFF for pkey in pkeys):
        raise ValueError(f"{pkeys} is not 1 to {len(PKEY_TABLE)} 16-bit P_Keys")
    for name, pkey in zip(PKEY_TABLE, tuple(pkeys) + (0,) * (len(PKEY_TABLE) - len(pkeys))):
        await window.write_register(name, pkey)


async def set_congestion(window: BlockWindow, *, ect: bool, notify: bool,
                         cnp_interval_cycles: int | None = None, cnp_dscp: int | None = None) -> None:
    """RoCEv2 congestion notification (docs/rdma.md): `ect` sends every request and response
    ECN-capable (ECT(0)); `notify` answers CE-marked frames with CNPs to the sending QP, at most one
    per QP every `cnp_interval_cycles`, their IPv4 DSCP `cnp_dscp` (None: leave as it is)."""
    register = BLOCK["CONGESTION"]
    value = await window.read_register("CONGESTION")
    value = register.field("notify").insert(register.field("ect").insert(value, int(ect)), int(notify))
    if cnp_dscp is not None:
        if not 0 <= cnp_dscp < 64:
            raise ValueError(f"DSCP {cnp_dscp} is not 6 bits")
        value = register.field("cnp_dscp").insert(value, cnp_dscp)
    await window.write_register("CONGESTION", value)
    if cnp_interval_cycles is not None:
        if not 0 <= cnp_interval_cycles < 1 << 32:
            raise ValueError(f"CNP interval {cnp_interval_cycles} is not 32 bits")
        await window.write_register("CNP_INTERVAL", cnp_interval_cycles)


# DCQCN_STATE.stage's codes, in the model's RateStage order (rtl/rdma/roce_dcqcn_stages.vh)
DCQCN_STAGES = tuple(RateStage)
# The registers' alpha fraction bits (DCQCN_ALPHA's fields are 11 bits: 0 to 1 in units of 2^-10)
DCQCN_ALPHA_FRACTION_BITS = 10


@dataclass(frozen=True)
class DcqcnState:
    """One reaction point as the DCQCN_* status registers show it."""
    current_rate_mbps: int
    target_rate_mbps: int
    alpha: int
    stage: RateStage


async def set_dcqcn(window: BlockWindow, parameters: DcqcnParameters, *, first_qpn: int, enable: bool = True) -> None:
    """The reaction points of QPs `first_qpn` on (CAPS2.rate_limited_qps of them) with
    `parameters` (their NP interval aside), then enabled: disabled while the parameters change, so
    each starts again at the line rate."""
    if parameters.alpha_fraction_bits != DCQCN_ALPHA_FRACTION_BITS:
        raise ValueError(f"the registers hold alpha in units of 2^-{DCQCN_ALPHA_FRACTION_BITS}")
    if parameters.byte_counter_bytes < 4182:
        raise ValueError("the byte counter must be at least one largest frame, 4 182 bytes")
    if not 0 <= first_qpn <= 0xFFFF:
        raise ValueError(f"first QP {first_qpn} is not 16 bits")
    ctrl = BLOCK["DCQCN_CTRL"]
    await window.write_register("DCQCN_CTRL", 0)
    alpha = BLOCK["DCQCN_ALPHA"]
    for name, value in (("DCQCN_LINE_RATE", parameters.line_rate_mbps), ("DCQCN_MIN_RATE", parameters.min_rate_mbps),
                        ("DCQCN_ALPHA", alpha.field("gain").insert(alpha.field("initial_value").insert(
                            0, parameters.initial_alpha), parameters.alpha_gain)),
                        ("DCQCN_ALPHA_PERIOD", parameters.alpha_update_period_ns),
                        ("DCQCN_INCREASE_PERIOD", parameters.rate_increase_period_ns),
                        ("DCQCN_BYTE_COUNTER", parameters.byte_counter_bytes),
                        ("DCQCN_FAST_RECOVERY", parameters.fast_recovery_stages),
                        ("DCQCN_AI_RATE", parameters.additive_increase_mbps),
                        ("DCQCN_HAI_RATE", parameters.hyper_increase_mbps)):
        await window.write_register(name, value)
    await window.write_register("DCQCN_CTRL", ctrl.field("first_qpn").insert(ctrl.field("enable").insert(0, int(enable)),
                                                                            first_qpn))


async def read_dcqcn(window: BlockWindow, qpn: int) -> DcqcnState:
    """The reaction point of QP `qpn` (all zeros for a QP without one)."""
    await window.write_register("DCQCN_OBSERVE", qpn)
    state = BLOCK["DCQCN_STATE"]
    value = await window.read_register("DCQCN_STATE")
    return DcqcnState(await window.read_register("DCQCN_RATE"), await window.read_register("DCQCN_TARGET_RATE"),
                      state.field("alpha").extract(value), DCQCN_STAGES[state.field("stage").extract(value)])


async def offload_qps(window: BlockWindow, first_qpn: int, count: int) -> None:
    """QPs `first_qpn` to `first_qpn + count - 1` belong to the node's own engines: their
    completions leave on the engine's completion port, never in the completion queue (count 0:
    none do)."""
    if not (0 <= first_qpn <= 0xFFFF and 0 <= count <= 0xFFFF):
        raise ValueError(f"QPs {first_qpn} + {count} do not fit the 16-bit OFFLOAD_QPS fields")
    register = BLOCK["OFFLOAD_QPS"]
    await window.write_register("OFFLOAD_QPS", register.field("count").insert(
        register.field("first_qpn").insert(0, first_qpn), count))


class QpRefused(ValueError):
    """A QP commit the engine refused (STATUS.qp_refused): nothing changed."""


async def create_qp(window: BlockWindow, qpn: int, remote_qpn: int, remote_mac: str, remote_ip: str,
                    udp_source_port: int, expected_psn: int, *, pmtu: int = 1024, send_psn: int = 0,
                    sq_base: int = 0, sq_log_size: int = 4, rq_base: int = 0, rq_log_size: int = 4,
                    timeout: int = 14, retry_count: int = 7, rnr_retry: int = 7,
                    timeout_cycles: int = 10_000) -> None:
    """Bring QP `qpn` up (or reset it): the peer, the first PSN it expects and the first it sends,
    its send and receive queues (empty, at index 0) and transport settings (IBA timeout code,
    retry count)."""
    await stage_qp(window, qpn, remote_qpn, remote_mac, remote_ip, udp_source_port, expected_psn, pmtu=pmtu,
                   send_psn=send_psn, sq_base=sq_base, sq_log_size=sq_log_size, rq_base=rq_base,
                   rq_log_size=rq_log_size, timeout=timeout, retry_count=retry_count, rnr_retry=rnr_retry,
                   timeout_cycles=timeout_cycles)
    await commit_qp(window)


async def stage_qp(window: BlockWindow, qpn: int, remote_qpn: int, remote_mac: str, remote_ip: str,
                   udp_source_port: int, expected_psn: int, *, pmtu: int = 1024, send_psn: int = 0,
                   sq_base: int = 0, sq_log_size: int = 4, rq_base: int = 0, rq_log_size: int = 4,
                   timeout: int = 14, retry_count: int = 7, rnr_retry: int = 7,
                   timeout_cycles: int = 10_000) -> None:
    """create_qp's register writes short of the commit: nothing changes in the engine until
    commit_qp."""
    await window.poll("STATUS", BLOCK["STATUS"].field("qp_ready").extract, timeout_cycles)
    transport = BLOCK["QP_TRANSPORT"]
    transport_value = transport.field("sq_log_size").insert(0, sq_log_size)
    transport_value = transport.field("pmtu_code").insert(transport_value, pmtu_code(pmtu))
    transport_value = transport.field("timeout").insert(transport_value, timeout)
    transport_value = transport.field("retry_count").insert(transport_value, retry_count)
    transport_value = transport.field("rq_log_size").insert(transport_value, rq_log_size)
    transport_value = transport.field("rnr_retry").insert(transport_value, rnr_retry)
    for name, value in (("QP_INDEX", qpn), ("QP_REMOTE_QPN", remote_qpn),
                        ("QP_REMOTE_MAC_LOW", _mac(remote_mac) & 0xFFFFFFFF), ("QP_REMOTE_MAC_HIGH", _mac(remote_mac) >> 32),
                        ("QP_REMOTE_IP", int(ipaddress.IPv4Address(remote_ip))),
                        ("QP_UDP_SOURCE_PORT", udp_source_port), ("QP_EXPECTED_PSN", expected_psn),
                        ("QP_SEND_PSN", send_psn), ("QP_SQ_BASE_LOW", sq_base & 0xFFFFFFFF),
                        ("QP_SQ_BASE_HIGH", sq_base >> 32), ("QP_RQ_BASE_LOW", rq_base & 0xFFFFFFFF),
                        ("QP_RQ_BASE_HIGH", rq_base >> 32), ("QP_TRANSPORT", transport_value)):
        await window.write_register(name, value)


async def commit_qp(window: BlockWindow) -> None:
    """The QP staged by stage_qp takes effect, in one register write; raises QpRefused if the
    engine refused the commit (STATUS.qp_refused: an index past its QPs, a PMTU code over 4)."""
    ctrl = BLOCK["QP_CTRL"]
    await window.write_register("QP_CTRL", ctrl.field("commit").insert(ctrl.field("valid").insert(0, 1), 1))
    if BLOCK["STATUS"].field("qp_refused").extract(await window.read_register("STATUS")):
        index = await window.read_register("QP_INDEX")
        transport = BLOCK["QP_TRANSPORT"].field("pmtu_code").extract(await window.read_register("QP_TRANSPORT"))
        raise QpRefused(f"the engine refused QP {index} (PMTU code {transport}; CAPS.qp_count and a PMTU code of "
                        f"0 to 4 are the limits)")


async def register_region(window: BlockWindow, rkey: int, base: int, length: int,
                          remote_write: bool = True, remote_read: bool = True, remote_atomic: bool = False) -> None:
    """A region peers may reach with `rkey`; the key's low bits pick the table entry. Atomics on it
    are refused unless `remote_atomic` (verbs IBV_ACCESS_REMOTE_ATOMIC)."""
    entries = BLOCK["CAPS"].field("mr_count").extract(await window.read_register("CAPS"))
    for name, value in (("MR_INDEX", rkey % entries), ("MR_RKEY", rkey), ("MR_BASE_LOW", base & 0xFFFFFFFF),
                        ("MR_BASE_HIGH", base >> 32), ("MR_LENGTH", length)):
        await window.write_register(name, value)
    ctrl = BLOCK["MR_CTRL"]
    value = ctrl.field("valid").insert(0, 1)
    value = ctrl.field("remote_write").insert(value, int(remote_write))
    value = ctrl.field("remote_read").insert(value, int(remote_read))
    value = ctrl.field("remote_atomic").insert(value, int(remote_atomic))
    await window.write_register("MR_CTRL", ctrl.field("commit").insert(value, 1))


async def read_counters(window: BlockWindow) -> dict[str, int]:
    return {name.lower(): await window.read_register(name) for name in COUNTERS}


async def settled(value):
    """What a memory callable gave: awaited when the memory is reached over a link."""
    return await value if inspect.isawaitable(value) else value


class HostQueues:
    """The host's side of the send queues and the completion queue: WQEs written into each QP's
    ring, doorbells rung, completion entries taken by their owner bit and handed back."""

    def __init__(self, window: BlockWindow, write_memory: Callable[[int, bytes], Awaitable[None] | None],
                 read_memory: Callable[[int, int], Awaitable[bytes] | bytes]):
        self.window = window
        self.write_memory = write_memory
        self.read_memory = read_memory
        self.send_queues: dict[int, tuple[int, int]] = {}  # qpn -> (base, log size)
        self.producer: dict[int, int] = {}
        self.receive_queues: dict[int, tuple[int, int]] = {}
        self.receive_producer: dict[int, int] = {}
        self.cq_base = 0
        self.cq_log_size = 0
        self.consumer = 0

    async def create_completion_queue(self, base: int, log_size: int) -> None:
        self.cq_base, self.cq_log_size, self.consumer = base, log_size, 0
        await settled(self.write_memory(base, bytes(CQE_BYTES << log_size)))
        await self.window.write_register("CQ_BASE_LOW", base & 0xFFFFFFFF)
        await self.window.write_register("CQ_BASE_HIGH", base >> 32)
        await self.window.write_register("CQ_CONSUMER", 0)
        config = BLOCK["CQ_CONFIG"]
        await self.window.write_register("CQ_CONFIG", config.field("restart").insert(
            config.field("log_size").insert(0, log_size), 1))

    def attach_send_queue(self, qpn: int, base: int, log_size: int) -> None:
        """A QP created with this send queue (create_qp's sq_base and sq_log_size) starts empty."""
        self.send_queues[qpn] = (base, log_size)
        self.producer[qpn] = 0

    def place(self, qpn: int, request: WorkRequest, local_address: int):
        """Write one WQE into the QP's ring, without ringing the doorbell; with a memory reached
        over a link, the write to await."""
        base, log_size = self.send_queues[qpn]
        slot = self.producer[qpn] % (1 << log_size)
        self.producer[qpn] = (self.producer[qpn] + 1) % 0x10000
        return self.write_memory(base + slot * WQE_BYTES, encode_wqe(request, local_address))

    async def ring(self, qpn: int, producer_index: int | None = None) -> None:
        """Tell the engine the QP's send queue now ends before `producer_index` (default: all placed)."""
        index = self.producer[qpn] if producer_index is None else producer_index
        doorbell = BLOCK["SQ_DOORBELL"]
        await self.window.write_register("SQ_DOORBELL", doorbell.field("qpn").insert(
            doorbell.field("producer_index").insert(0, index), qpn))

    def attach_receive_queue(self, qpn: int, base: int, log_size: int) -> None:
        """A QP created with this receive queue (create_qp's rq_base and rq_log_size) starts empty."""
        self.receive_queues[qpn] = (base, log_size)
        self.receive_producer[qpn] = 0

    def place_receive(self, qpn: int, wr_id: int, address: int, length: int):
        """Write one receive WQE into the QP's ring, without ringing the doorbell; with a memory
        reached over a link, the write to await."""
        base, log_size = self.receive_queues[qpn]
        slot = self.receive_producer[qpn] % (1 << log_size)
        self.receive_producer[qpn] = (self.receive_producer[qpn] + 1) % 0x10000
        return self.write_memory(base + slot * RECEIVE_WQE_BYTES,
                                 RECEIVE_WQE.pack(wr_id=wr_id, address=address, length=length))

    async def post_receive(self, qpn: int, wr_id: int, address: int, length: int) -> None:
        """One receive buffer for a SEND (or the immediate of a WRITE), and its doorbell."""
        await settled(self.place_receive(qpn, wr_id, address, length))
        doorbell = BLOCK["RQ_DOORBELL"]
        await self.window.write_register("RQ_DOORBELL", doorbell.field("qpn").insert(
            doorbell.field("producer_index").insert(0, self.receive_producer[qpn]), qpn))

    async def post(self, qpn: int, request: WorkRequest, local_address: int) -> None:
        await settled(self.place(qpn, request, local_address))
        await self.ring(qpn)

    async def poll(self, hand_back: bool = True) -> list[EngineCompletion]:
        """Every completion the engine has written since the last poll, in order."""
        entries = 1 << self.cq_log_size
        owner = COMPLETION["owner"]
        owner_word = owner.offset & ~3
        taken = []
        while True:
            slot_address = self.cq_base + (self.consumer % entries) * CQE_BYTES
            expected_owner = 1 - (self.consumer // entries) % 2
            # The owner bit's word first, the entry only once it is the host's: a host reads a
            # multi-word entry a word at a time (a BAR, a link), and words read before the engine
            # wrote the entry would sit beside an owner bit read after it
            word = await settled(self.read_memory(slot_address + owner_word, 4))
            if owner.get(bytes(owner_word) + bytes(word)) != expected_owner:
                break
            entry = await settled(self.read_memory(slot_address, CQE_BYTES))
            taken.append(EngineCompletion.decode(entry))
            self.consumer = (self.consumer + 1) % 0x10000
        if taken and hand_back:
            await self.window.write_register("CQ_CONSUMER", self.consumer)
        return taken
