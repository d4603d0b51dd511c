# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The bring-up's RDMA scenarios, on a board build that carries two nodes' RDMA engines back to
back (rtl/bringup/board_node_pair.v): set up over the register bus exactly as host software sets
up an RDMA NIC, work requests posted in each node's memory through its window on the bus, and
every byte that lands checked through the same windows.

Found from the chain, never from fixed addresses: every ID block after the board's own opens a
node, whose RDMA engine is the next RDMA block, and whose memory is NODE_MEMORY_OFFSET above
the ID block (the one fact the board builds add; rtl/bringup/board_node_pair.v, board_rank_ring.v). The smoke runs
WRITE, WRITE with immediate, READ and SEND both ways; the soak runs seeded random work both ways
at once; the counters are then held against src/dpuv/harness/targets.toml.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from dpuv.drivers import rdma
from dpuv.drivers.rdma import HostQueues, WcOpcode, WcStatus
from dpuv.harness import perf
from dpuv.models.roce_qp import WorkOpcode, WorkRequest
from dpuv.regs import chain
from dpuv.regs.access import BlockWindow, OffsetAccess, RegisterAccess
from dpuv.regs.maps import id_block, rdma_engine

# Where a node's memory (a rank's buffer) sits above its ID block in every engine area
NODE_MEMORY_OFFSET = 0x8000
# Each node's memory as this scenario lays it out: the first 32 KiB, the smallest a board build has
SQ_BASE, SQ_LOG_SIZE = 0x0000, 4
CQ_BASE, CQ_LOG_SIZE = 0x0400, 4
RQ_BASE, RQ_LOG_SIZE = 0x0600, 4
LOCAL_BASE, LOCAL_BYTES = 0x1000, 0x1000          # sources of WRITEs and SENDs, destinations of READs
RECEIVE_BASE, RECEIVE_BYTES = 0x2000, 0x1000      # buffers for the peer's SENDs
REGION_BASE, REGION_BYTES = 0x4000, 0x4000        # what the peer may WRITE (low half) and READ (high half)
RKEY = 0x00B0A4D5
PMTU = 256
QPN = 1
COMPLETION_TIMEOUT_CYCLES = 200_000
ENDPOINTS = (("02:00:00:00:b0:01", "10.0.9.1", 0xC101), ("02:00:00:00:b0:02", "10.0.9.2", 0xC102))


@dataclass(eq=False)
class Node:
    """One node of the pair, as software sees it through the board's register bus (each one itself:
    compared and hashed by identity)."""
    id_address: int
    registers: BlockWindow
    memory: RegisterAccess
    host: HostQueues
    mac: str
    ip: str
    udp_port: int
    receives_posted: int = 0


def node_areas(found: list[chain.FoundBlock]) -> list[tuple[chain.FoundBlock, list[chain.FoundBlock]]]:
    """Every ID block in chain order with the blocks that follow it up to the next one: a node
    (its memory NODE_MEMORY_OFFSET above its ID block) where those include an engine. On a board
    the first is the board's own (its self-test blocks, no engine); on a card the node's ID
    block is the first, at the BAR's address 0."""
    starts = [index for index, block in enumerate(found) if block.type_id == id_block.BLOCK.type_id]
    return [(found[start], found[start + 1:(starts[position + 1] if position + 1 < len(starts) else len(found))])
            for position, start in enumerate(starts)]


def find_nodes(bus: RegisterAccess, found: list[chain.FoundBlock]) -> list[Node]:
    """Every node of the build with an RDMA engine, in chain order."""
    nodes = []
    for node_id, own in node_areas(found):
        engines = chain.blocks_of_type(own, rdma_engine.BLOCK)
        if not engines:
            continue
        memory = OffsetAccess(bus, node_id.address + NODE_MEMORY_OFFSET)
        registers = engines[0].window(bus)
        mac, ip, port = ENDPOINTS[len(nodes) % len(ENDPOINTS)]
        nodes.append(Node(node_id.address, registers, memory, HostQueues(registers, memory.write, memory.read),
                          mac, ip, port))
    return nodes


async def set_up_node(node: Node, peer: Node, receive_psn: int, send_psn: int) -> None:
    """A node's addresses, one RC QP to its peer, the region the peer may use, the queues."""
    await rdma.set_up(node.registers, node.mac, node.ip, PMTU)
    await rdma.create_qp(node.registers, QPN, QPN, peer.mac, peer.ip, node.udp_port, receive_psn,
                         pmtu=PMTU, send_psn=send_psn, sq_base=SQ_BASE, sq_log_size=SQ_LOG_SIZE,
                         rq_base=RQ_BASE, rq_log_size=RQ_LOG_SIZE, timeout=8)
    await rdma.register_region(node.registers, RKEY, REGION_BASE, REGION_BYTES)
    node.host.attach_send_queue(QPN, SQ_BASE, SQ_LOG_SIZE)
    node.host.attach_receive_queue(QPN, RQ_BASE, RQ_LOG_SIZE)
    await node.host.create_completion_queue(CQ_BASE, CQ_LOG_SIZE)
    node.receives_posted = 0


async def set_up_pair(a: Node, b: Node, rng: random.Random) -> None:
    """Each engine's addresses, one RC QP to the other, the region the other may use, the queues."""
    psns = {a: rng.getrandbits(24), b: rng.getrandbits(24)}
    for node, peer in ((a, b), (b, a)):
        await set_up_node(node, peer, psns[peer], psns[node])


async def _completions(node: Node, count: int) -> list[rdma.EngineCompletion]:
    taken, waited = [], 0
    while len(taken) < count:
        taken += await node.host.poll()
        if len(taken) >= count:
            break
        if waited >= COMPLETION_TIMEOUT_CYCLES:
            raise TimeoutError(f"node at {node.id_address:#x}: {len(taken)} of {count} completions "
                               f"after {COMPLETION_TIMEOUT_CYCLES} cycles")
        await node.memory.cycles(256)
        waited += 256
    return taken


@dataclass
class Operation:
    """One work request of `requester` on `responder`, with what it must leave behind."""
    request: WorkRequest
    local: int            # the requester's buffer
    remote: int           # where it lands at the responder (WRITE, SEND) or is read from (READ)


GUARD_BYTES = 4


def _span(address: int, length: int) -> tuple[int, int]:
    """The whole words around `length` bytes at `address`, and GUARD_BYTES beyond: what is filled
    before a transfer and read back after it."""
    first = address & ~3
    return first, ((address + length + GUARD_BYTES + 3) & ~3) - first


async def _fill(memory: RegisterAccess, address: int, length: int, rng: random.Random) -> bytes:
    """Known bytes around a buffer before it is used (on-chip RAM holds nothing defined after
    power-up), so that what lands is told from what was there, and bytes past the end stay put."""
    first, span = _span(address, length)
    data = rng.randbytes(span)
    await memory.write(first, data)
    return data


async def run_operations(requester: Node, responder: Node, operations: list[Operation],
                         rng: random.Random) -> list[str]:
    """Post every operation (a receive first for each SEND and immediate), reap the completions
    on both sides, and return what is wrong: statuses, opcodes, and every byte checked, with the
    bytes just past each destination unchanged."""
    problems = []
    receives = [operation for operation in operations
                if operation.request.opcode in (WorkOpcode.SEND, WorkOpcode.SEND_WITH_IMMEDIATE)
                or operation.request.imm is not None]
    destinations = []
    for operation in operations:
        request = operation.request
        if request.opcode == WorkOpcode.RDMA_READ:
            await _fill(responder.memory, operation.remote, request.length, rng)
            destinations.append((requester, operation.local, request.length,
                                 await _fill(requester.memory, operation.local, request.length, rng)))
        else:
            destinations.append((responder, operation.remote, len(request.data),
                                 await _fill(responder.memory, operation.remote, len(request.data), rng)))
            # The source's partial last word is read back by the link's read-modify-write
            await _fill(requester.memory, operation.local, len(request.data), rng)
    for operation in receives:
        length = max(len(operation.request.data), 4) if operation.request.opcode.name.startswith("SEND") else 4
        await responder.host.post_receive(QPN, 0x100 + responder.receives_posted, operation.remote, length)
        responder.receives_posted += 1
    for operation in operations:
        if operation.request.data:
            await requester.memory.write(operation.local, operation.request.data)
        await requester.host.post(QPN, operation.request, operation.local)
    sent = await _completions(requester, len(operations))
    received = await _completions(responder, len(receives)) if receives else []
    for operation, completion in zip(operations, sent):
        if completion.status != WcStatus.SUCCESS or completion.wr_id != operation.request.wr_id:
            problems.append(f"wr {operation.request.wr_id}: completion {completion}")
    for operation, completion in zip(receives, received):
        if completion.status != WcStatus.SUCCESS or completion.opcode not in (WcOpcode.RECV, WcOpcode.RECV_RDMA_WITH_IMM):
            problems.append(f"receive for wr {operation.request.wr_id}: {completion}")
        elif operation.request.imm is not None and completion.immediate != operation.request.imm:
            problems.append(f"receive for wr {operation.request.wr_id}: immediate {completion.immediate:#x}, "
                            f"sent {operation.request.imm:#x}")
    for operation, (node, address, length, before) in zip(operations, destinations):
        request = operation.request
        wanted = bytearray(before)
        offset = address & 3
        if request.opcode == WorkOpcode.RDMA_READ:
            wanted[offset:offset + length] = await responder.memory.read(operation.remote, length)
        else:
            wanted[offset:offset + length] = request.data
        first, span = _span(address, length)
        landed = await node.memory.read(first, span)
        if landed != bytes(wanted):
            at = next(index for index, (x, y) in enumerate(zip(landed, wanted)) if x != y) - offset
            where = f"byte {at}" if at < length else f"byte {at - length} past the end"
            problems.append(f"wr {request.wr_id} ({request.opcode.name}, {length} bytes): {where} is "
                            f"{landed[at + offset]:#04x}, expected {wanted[at + offset]:#04x}")
    return problems


def smoke_operations(rng: random.Random, wr_base: int) -> list[Operation]:
    """WRITE, WRITE with immediate, READ and SEND (an odd length among them), each to its own buffer."""
    write_at, read_at = REGION_BASE, REGION_BASE + REGION_BYTES // 2
    return [
        Operation(WorkRequest.write(wr_base, rng.randbytes(200), write_at, RKEY), LOCAL_BASE, write_at),
        Operation(WorkRequest.write(wr_base + 1, rng.randbytes(64), write_at + 0x400, RKEY, rng.getrandbits(32)),
                  LOCAL_BASE + 0x100, write_at + 0x400),
        Operation(WorkRequest.read(wr_base + 2, read_at, RKEY, 300), LOCAL_BASE + 0x200, read_at),
        Operation(WorkRequest.send(wr_base + 3, rng.randbytes(77)), LOCAL_BASE + 0x400, RECEIVE_BASE),
    ]


def random_operations(rng: random.Random, wr_base: int, count: int) -> list[Operation]:
    """Seeded random WRITEs, READs and SENDs of 1 to 2 PMTUs, each buffer apart from the next by
    more than the guard bytes checked past it."""
    operations, local, write_at, read_at, receive_at = [], LOCAL_BASE, REGION_BASE, REGION_BASE + REGION_BYTES // 2, RECEIVE_BASE
    for index in range(count):
        length = rng.randint(1, 2 * PMTU)
        step = length + 2 * GUARD_BYTES + rng.randint(0, 3)
        kind = rng.choice(("write", "read", "send"))
        if kind == "write":
            operations.append(Operation(WorkRequest.write(wr_base + index, rng.randbytes(length), write_at, RKEY),
                                        local, write_at))
            write_at += step
        elif kind == "read":
            operations.append(Operation(WorkRequest.read(wr_base + index, read_at, RKEY, length), local, read_at))
            read_at += step
        else:
            operations.append(Operation(WorkRequest.send(wr_base + index, rng.randbytes(length)), local, receive_at))
            receive_at += step
        local += step
    return operations


async def pair_smoke(nodes: list[Node], rng: random.Random) -> tuple[bool, str]:
    a, b = nodes[0], nodes[1]
    await set_up_pair(a, b, rng)
    problems = await run_operations(a, b, smoke_operations(rng, 0x10), rng)
    problems += await run_operations(b, a, smoke_operations(rng, 0x20), rng)
    detail = "; ".join(problems) if problems else "WRITE, WRITE with immediate, READ and SEND both ways, every byte checked"
    return not problems, detail


def loopback_operations(rng: random.Random, wr_base: int) -> list[Operation]:
    """WRITEs of one packet and of several PMTUs (an odd length) and a READ: the operations whose
    only completions are the requester's, so one node's completion queue tells them apart."""
    write_at, read_at = REGION_BASE, REGION_BASE + REGION_BYTES // 2
    return [
        Operation(WorkRequest.write(wr_base, rng.randbytes(200), write_at, RKEY), LOCAL_BASE, write_at),
        Operation(WorkRequest.write(wr_base + 1, rng.randbytes(4 * PMTU - 3), write_at + 0x400, RKEY),
                  LOCAL_BASE + 0x100, write_at + 0x400),
        Operation(WorkRequest.read(wr_base + 2, read_at, RKEY, 300), LOCAL_BASE + 0x600, read_at),
    ]


async def loopback_smoke(node: Node, rng: random.Random) -> tuple[bool, str]:
    """A node alone with its MAC looped back (a card's near-end loopback build or a loopback
    module in its cage): one RC QP whose peer is itself, WRITEs and a READ through the whole path
    out of the MAC and back, every byte checked."""
    psn = rng.getrandbits(24)
    await set_up_node(node, node, psn, psn)
    operations = loopback_operations(rng, 0x30)
    problems = await run_operations(node, node, operations, rng)
    carried = ", ".join(f"{operation.request.opcode.name} of {operation.request.length}" for operation in operations)
    detail = "; ".join(problems) if problems else f"{carried} bytes through the MAC's loopback, every byte checked"
    return not problems, detail


async def pair_soak(nodes: list[Node], rng: random.Random, rounds: int) -> tuple[bool, str]:
    a, b = nodes[0], nodes[1]
    problems, operations = [], 0
    for round_index in range(rounds):
        for requester, responder in ((a, b), (b, a)):
            work = random_operations(rng, 0x1000 + 16 * round_index, 6)
            operations += len(work)
            problems += await run_operations(requester, responder, work, rng)
            if problems:
                return False, f"round {round_index}: " + "; ".join(problems)
    return True, f"{rounds} rounds, {operations} random WRITEs, READs and SENDs both ways, every byte checked"


async def _latency_of_one(requester: Node, responder: Node, rng: random.Random) -> dict[str, int]:
    """The doorbell and ACK latencies of one 64-byte WRITE ONLY with nothing else under way: the
    case the targets are written for, read as the change in each latency's sum over its count."""
    before = {node: await rdma.read_counters(node.registers) for node in (requester, responder)}
    problems = await run_operations(requester, responder, [Operation(
        WorkRequest.write(0x7000, rng.randbytes(64), REGION_BASE, RKEY), LOCAL_BASE, REGION_BASE)], rng)
    if problems:
        raise TimeoutError("; ".join(problems))  # reported as the check's failure
    after = {node: await rdma.read_counters(node.registers) for node in (requester, responder)}

    def one(node: Node, name: str) -> int:
        count = after[node][f"{name}_count"] - before[node][f"{name}_count"]
        if count != 1:
            raise TimeoutError(f"node at {node.id_address:#x} counted {count} {name.replace('_', ' ')}s for one WRITE")
        return after[node][f"{name}_sum"] - before[node][f"{name}_sum"]

    return {"doorbell_latency": one(requester, "doorbell_latency"), "ack_latency": one(responder, "ack_latency")}


ERROR_COUNTERS = ("completion_errors", "naks_sent", "naks_received", "drops_icrc", "drops_malformed",
                  "drops_overflow", "retransmits", "timeouts")


async def counters_against_targets(requester: Node, responder: Node, rng: random.Random) -> tuple[bool, str]:
    """No error of any kind counted over the scenarios, and the latencies of one 64-byte WRITE
    within the spec targets (on-chip memory answers as fast as the targets assume)."""
    targets = perf.load_targets()["rdma"]
    latencies = await _latency_of_one(requester, responder, rng)
    counters = await rdma.read_counters(requester.registers)
    errors = {name: counters[name] for name in ERROR_COUNTERS if counters[name]}
    over = [name for name, value in latencies.items() if value > targets[name]["value"]]
    detail = (f"{counters['completions']} completions, {counters['tx_frames']} frames sent; one 64-byte WRITE: "
              + ", ".join(f"{name.replace('_', ' ')} {value} cycles (target {targets[name]['value']})"
                          for name, value in latencies.items()))
    if errors:
        detail += f"; errors counted: {errors}"
    return counters["completions"] > 0 and not errors and not over, detail
