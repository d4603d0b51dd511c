# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Driver model of the collective engine on DPU nodes: what host software does to connect a ring
of nodes once, and to run each all-reduce on it.

Connecting (`connect_ring`) is what NCCL's bootstrap does out of band: on each rank, two RC QPs
(next and prev) created in the RDMA engine and handed to the collective engine (OFFLOAD_QPS),
the receive slots registered as a region the previous rank may write, the receive WQEs written
once, and the collective engine told where everything is. Each all-reduce (`allreduce`) writes
every rank's vector into its node memory, arms every rank, then starts every rank, waits for each
to finish and reads the vectors back. Only the register access interface and a node-memory
accessor are used, so the same code runs under cocotb and against boards.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Awaitable, Callable, Sequence

import numpy as np

from dpuv.drivers import rdma
from dpuv.models.reduction import DTYPES, OPS
from dpuv.regs import chain
from dpuv.regs.access import BlockWindow, OffsetAccess, RegisterAccess
from dpuv.regs.maps import collective_engine, rdma_engine

BLOCK = collective_engine.BLOCK
STATUS_FLAGS = ("busy", "done", "config_error", "completion_error", "sequence_error", "watchdog", "aborted",
                "memory_error")
ERROR_FLAGS = STATUS_FLAGS[2:]
COUNTERS = ("COLLECTIVE_CYCLES", "REDUCE_SCATTER_BYTES", "ALL_GATHER_BYTES", "PIECES_RECEIVED",
            "CREDIT_STALL_CYCLES", "REDUCER_BEATS", "CREDITS_SENT", "SLOT_PEAK")
# The two QPs of the ring on every node, and their queues' sizes
QPN_NEXT, QPN_PREV = 2, 3
SQ_LOG_SIZE = 4
RQ_LOG_SIZE = 5
CREDIT_RECEIVES = 16
SLOT_RKEY_INDEX = 1


class CollectiveError(RuntimeError):
    pass


@dataclass(frozen=True)
class Layout:
    """Where a rank keeps its things in node memory (the same on every rank). The receive slots go
    to the node's on-chip slot memory when it has one they fit in and `slots_on_chip` asks for it
    (their stretch of node memory at `slot_base` is then left unused); else to `slot_base`."""
    slots: int = 8
    slot_bytes: int = 4096
    sq_next: int = 0x0000
    sq_prev: int = 0x0400
    rq_next: int = 0x0800
    rq_prev: int = 0x0C00
    slot_base: int = 0x1000
    slots_on_chip: bool = True

    @property
    def buffer(self) -> int:
        """The vector, after the slots, on a 4 KiB boundary."""
        end = self.slot_base + self.slots * self.slot_bytes
        return (end + 0xFFF) & ~0xFFF


# The layout the cluster's bandwidth is measured with (and `make reduce TRANSPORT=rdma` runs):
# eight slots of 8 KiB (a piece is two 4 KiB packets). What a sender may have in flight, the slots'
# 64 KiB, stays within the RDMA responder's receive buffer (RX_BUFFER_BYTES, 64 KiB): a receiver
# slowed by its node memory then never overflows it. With 32 KiB slots (256 KiB ahead) it did, at
# 4 MiB per rank, and go-back-N resent whole windows into the same overflow (docs/cluster.md).
STREAMING_LAYOUT = Layout(slots=8, slot_bytes=8192)


@dataclass
class Node:
    """One rank: its RDMA engine and collective engine windows, its addresses and its memory."""
    rank: int
    rdma: BlockWindow
    collective: BlockWindow
    mac: str
    ip: str
    # Plain functions for a memory the testbench holds, coroutine functions for one reached over a
    # link (a board's memory window)
    write_memory: Callable[[int, bytes], Awaitable[None] | None]
    read_memory: Callable[[int, int], Awaitable[bytes] | bytes]


@dataclass
class RankReport:
    rank: int
    status: dict[str, int]
    errors: int
    counters: dict[str, int] = field(default_factory=dict)

    @property
    def failed(self) -> list[str]:
        return [flag for flag in ERROR_FLAGS if self.status[flag]]


def node_mac(rank: int) -> str:
    return f"02:00:00:00:01:{rank + 1:02x}"


def node_ip(rank: int) -> str:
    return f"10.1.0.{rank + 1}"


async def find_node(bus: RegisterAccess, rank: int, window_bytes: int,
                    write_memory: Callable[[int, bytes], None], read_memory: Callable[[int, int], bytes]) -> Node:
    """Node `rank`'s engines, found by walking the chain of its register window."""
    node_bus = OffsetAccess(bus, rank * window_bytes)
    found = await chain.walk(node_bus)
    engines = chain.blocks_of_type(found, rdma_engine.BLOCK)
    collectives = chain.blocks_of_type(found, BLOCK)
    if len(engines) != 1 or len(collectives) != 1:
        raise CollectiveError(f"node {rank}: {len(engines)} RDMA engines and {len(collectives)} collective engines")
    return Node(rank, engines[0].window(node_bus), collectives[0].window(node_bus), node_mac(rank), node_ip(rank),
                write_memory, read_memory)


async def slot_address(node: Node, layout: Layout) -> int:
    """Where `node` keeps its receive slots: at the start of its on-chip slot memory (the engine's
    SLOT_MEMORY registers) when the layout asks for it and the slots fit there, else in node memory."""
    on_chip_bytes = await node.collective.read_register("SLOT_MEMORY_BYTES")
    if layout.slots_on_chip and layout.slots * layout.slot_bytes <= on_chip_bytes:
        return await node.collective.read_register("SLOT_MEMORY_BASE")
    return layout.slot_base


async def connect_ring(nodes: Sequence[Node], layout: Layout = Layout(), pmtu: int = 4096, timeout: int = 14,
                       retry_count: int = 7, watchdog_cycles: int = 0, data_receives: int | None = None,
                       rng: random.Random | None = None) -> None:
    """Connect rank r's QP next to rank r+1's QP prev, all the way round, and hand both QPs of every
    rank to its collective engine. First PSNs are random, as a real stack's are. `data_receives`
    (default: one per slot) receives are kept posted for arriving data; with more than the slots,
    only the credits keep a sender from writing over a slot not yet taken."""
    data_receives = layout.slots if data_receives is None else data_receives
    if not layout.slots <= data_receives <= 1 << RQ_LOG_SIZE:
        raise ValueError(f"{data_receives} data receives: at least the {layout.slots} slots, at most {1 << RQ_LOG_SIZE}")
    rng = rng or random.Random(0)
    ranks = len(nodes)
    # The first PSN of each direction of each link: data r -> r+1, credits r+1 -> r
    data_psn = [rng.getrandbits(24) for _ in range(ranks)]
    credit_psn = [rng.getrandbits(24) for _ in range(ranks)]
    rkeys = [(rng.getrandbits(24) << 8) | SLOT_RKEY_INDEX for _ in range(ranks)]
    slots_at = [await slot_address(node, layout) for node in nodes]
    for node in nodes:
        nxt, prv = nodes[(node.rank + 1) % ranks], nodes[(node.rank - 1) % ranks]
        window = node.rdma
        await rdma.set_up(window, node.mac, node.ip, pmtu)
        await rdma.offload_qps(window, QPN_NEXT, 2)
        await rdma.create_qp(window, QPN_NEXT, QPN_PREV, nxt.mac, nxt.ip, 0xC000 + node.rank, credit_psn[node.rank],
                             pmtu=pmtu, send_psn=data_psn[node.rank], sq_base=layout.sq_next, sq_log_size=SQ_LOG_SIZE,
                             rq_base=layout.rq_next, rq_log_size=RQ_LOG_SIZE, timeout=timeout, retry_count=retry_count)
        await rdma.create_qp(window, QPN_PREV, QPN_NEXT, prv.mac, prv.ip, 0xC100 + node.rank, data_psn[prv.rank],
                             pmtu=pmtu, send_psn=credit_psn[prv.rank], sq_base=layout.sq_prev, sq_log_size=SQ_LOG_SIZE,
                             rq_base=layout.rq_prev, rq_log_size=RQ_LOG_SIZE, timeout=timeout, retry_count=retry_count)
        await rdma.register_region(window, rkeys[node.rank], slots_at[node.rank], layout.slots * layout.slot_bytes,
                                   remote_write=True, remote_read=False)
        # The receives' buffers are never used: each immediate's WRITE lands where its RETH says
        for base in (layout.rq_next, layout.rq_prev):
            for slot in range(1 << RQ_LOG_SIZE):
                await rdma.settled(node.write_memory(base + slot * rdma.RECEIVE_WQE_BYTES,
                                                     rdma.RECEIVE_WQE.pack(wr_id=slot, address=0, length=0)))
    for node in nodes:
        nxt = nodes[(node.rank + 1) % ranks]
        engine = node.collective
        qps = BLOCK["QPS"]
        await engine.write_register("QPS", qps.field("prev").insert(qps.field("next").insert(0, QPN_NEXT), QPN_PREV))
        for name, value in (("SQ_NEXT", layout.sq_next), ("SQ_PREV", layout.sq_prev), ("SLOT_BASE", slots_at[node.rank]),
                            ("REMOTE_SLOT_BASE", slots_at[nxt.rank])):
            await engine.write_register(f"{name}_LOW", value & 0xFFFFFFFF)
            await engine.write_register(f"{name}_HIGH", value >> 32)
        await engine.write_register("REMOTE_SLOT_RKEY", rkeys[nxt.rank])
        sizes = BLOCK["QUEUE_SIZES"]
        await engine.write_register("QUEUE_SIZES", sizes.field("sq_prev_log").insert(
            sizes.field("sq_next_log").insert(0, SQ_LOG_SIZE), SQ_LOG_SIZE))
        slots = BLOCK["SLOTS"]
        await engine.write_register("SLOTS", slots.field("bytes").insert(
            slots.field("count").insert(0, layout.slots), layout.slot_bytes))
        receives = BLOCK["RECEIVES"]
        await engine.write_register("RECEIVES", receives.field("credit").insert(
            receives.field("data").insert(0, data_receives), CREDIT_RECEIVES))
        await engine.write_register("WATCHDOG", watchdog_cycles)
        # An attach is taken only between collectives (a failed one may still be finishing a piece)
        busy = BLOCK["STATUS"].field("busy")
        await engine.poll("STATUS", lambda value: busy.extract(value) == 0, 100_000, interval_cycles=64)
        await engine.write_register("CTRL", BLOCK["CTRL"].field("attach").insert(0, 1))


async def report(node: Node) -> RankReport:
    status_register = BLOCK["STATUS"]
    value = await node.collective.read_register("STATUS")
    status = {name: status_register.field(name).extract(value) for name in STATUS_FLAGS}
    counters = {name.lower(): await node.collective.read_register(name) for name in COUNTERS}
    return RankReport(node.rank, status, await node.collective.read_register("ERRORS"), counters)


async def arm(node: Node, elements: int, dtype: str, op: str, collective_id: int, layout: Layout = Layout(), *,
              ranks: int, flush: bool = False) -> None:
    """Arm one rank. Consecutive collectives should carry different tags (collective_id, 7 bits),
    so that nothing of one can be taken for the other."""
    engine = node.collective
    config = BLOCK["CONFIG"]
    value = config.field("dtype").insert(0, DTYPES[dtype].code)
    value = config.field("op").insert(value, OPS[op])
    value = config.field("flush_subnormals").insert(value, int(flush))
    value = config.field("collective_id").insert(value, collective_id & 0x7F)
    await engine.write_register("CONFIG", value)
    ring = BLOCK["RING"]
    await engine.write_register("RING", ring.field("size").insert(ring.field("rank").insert(0, node.rank), ranks))
    await engine.write_register("LENGTH", elements)
    await engine.write_register("BUFFER_LOW", layout.buffer & 0xFFFFFFFF)
    await engine.write_register("BUFFER_HIGH", layout.buffer >> 32)
    await engine.write_register("CTRL", BLOCK["CTRL"].field("arm").insert(0, 1))


async def start(node: Node) -> None:
    await node.collective.write_register("CTRL", BLOCK["CTRL"].field("start").insert(0, 1))


async def wait(node: Node, timeout_cycles: int) -> RankReport:
    busy = BLOCK["STATUS"].field("busy")
    await node.collective.poll("STATUS", lambda value: busy.extract(value) == 0, timeout_cycles, interval_cycles=256)
    return await report(node)


async def allreduce(nodes: Sequence[Node], vectors: Sequence[np.ndarray], dtype: str, op: str, collective_id: int,
                    layout: Layout = Layout(), timeout_cycles: int = 2_000_000,
                    before_start: Callable[[], Awaitable[None]] | None = None,
                    after_start: Callable[[Node], None] | None = None,
                    flush: bool = False) -> tuple[list[np.ndarray], list[RankReport]]:
    """One all-reduce of `vectors` (one per rank, the dtype's bits): every rank's result and report.
    `after_start` is called with each rank as soon as its start write has completed: the starts
    go one after another over the register bus, and a latency figure needs each one's moment."""
    dtype_info = DTYPES[dtype]
    for node, vector in zip(nodes, vectors):
        await rdma.settled(node.write_memory(layout.buffer, np.asarray(vector).view(dtype_info.unsigned).tobytes()))
    for node, vector in zip(nodes, vectors):
        await arm(node, len(vector), dtype, op, collective_id, layout, ranks=len(nodes), flush=flush)
    if before_start:
        await before_start()
    for node in nodes:
        await start(node)
        if after_start:
            after_start(node)
    reports = [await wait(node, timeout_cycles) for node in nodes]
    results = []
    for node, vector in zip(nodes, vectors):
        data = await rdma.settled(node.read_memory(layout.buffer, len(vector) * dtype_info.bits // 8))
        results.append(np.frombuffer(data, dtype=dtype_info.unsigned).copy())
    return results, reports
