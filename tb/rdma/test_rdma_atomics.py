# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Atomics (IBA 9.4.5) both ways against the spec-built Python QP (src/dpuv/models/roce_qp.py).
The engine's responder executes COMPARE_SWAP and FETCH_ADD for the model requester: every
original value and the memory afterwards agree with executing the requests one by one in posting
order, through a lossy wire no atomic is executed twice (a retried one is answered from the
results the QP keeps), and the answers to retries, to retries older than the kept results, and
to atomics that break the rules are the model responder's, frame for frame. The engine's
requester sends atomic work requests to the model responder and brings their original values
back, once each, through loss too."""

import random

import cocotb

from dpuv.models.roce_packet import (BTH, NAK_INVALID_REQUEST, NAK_REMOTE_ACCESS_ERROR, NAK_REMOTE_OPERATIONAL_ERROR,
                                     Addressing, AtomicETH, Opcode, RocePacket, build_frame, parse_frame)
from dpuv.models.roce_qp import ATOMIC_MODULUS, Access, CompletionStatus, QpConfig, QueuePair, WorkRequest
from dpuv.models.roce_wire import Impairment, WireConfig
from dpuv.drivers import rdma
from dpuv.regs.maps import rdma_engine
from dpuv.tb.testbench import test_rng

from rdma_engine_bench import (ACK_TIMEOUT_CODE, DUT, DUT_QPN, PEER, PEER_QPN, PMTU, REGION_BASE, REGION_BYTES, RKEY,
                               RQ_BASE, RQ_LOG_SIZE, TB)
from requester_bench import (LOCAL_BASE, LOCAL_BYTES, PEER_BASE, PEER_BYTES, PEER_RKEY, LosesOneFrame, Requester,
                             check_exactly_once, random_requests)

# The region is open to atomics; its first SLOTS 8-byte words are the operands
WITH_ATOMICS = (True, True, True)
SLOTS = 6
CASE_CYCLES = 400


async def atomic_results_kept(tb: TB) -> int:
    """The engine's max_dest_rd_atomic, from its capabilities."""
    return rdma_engine.BLOCK["CAPS2"].field("atomic_results").extract(await tb.registers.read_register("CAPS2"))


def words(values: list[int]) -> bytes:
    return b"".join(value.to_bytes(8, "little") for value in values)


def random_atomics(rng: random.Random, memory: list[int], count: int,
                   with_reads: bool) -> tuple[list[WorkRequest], dict[int, int], dict[int, bytes]]:
    """FETCH_ADDs and COMPARE_SWAPs on the slots, and now and then a READ of all of them; each
    atomic's original value and each READ's bytes (by wr_id) found by executing them in posting
    order on `memory` (the slots' values, updated in place). Half the COMPARE_SWAPs compare
    against the value they will find, so they swap. RC executes a QP's requests in order, so a
    READ must not see an atomic posted after it, nor miss one posted before; but a READ sent again
    is executed again, after whatever ran since (IBA: no fence, no guarantee), so READs only come
    `with_reads`, for a wire that loses nothing."""
    requests, originals, reads = [], {}, {}
    for wr_id in range(count):
        if with_reads and rng.random() < 0.15:
            requests.append(WorkRequest.read(wr_id, REGION_BASE, RKEY, 8 * SLOTS))
            reads[wr_id] = words(memory)
            continue
        slot = rng.randrange(SLOTS)
        address, original = REGION_BASE + 8 * slot, memory[slot]
        if rng.random() < 0.5:
            add = rng.choice([1, rng.getrandbits(64), ATOMIC_MODULUS - 1])
            requests.append(WorkRequest.fetch_add(wr_id, address, RKEY, add))
            memory[slot] = (original + add) % ATOMIC_MODULUS
        else:
            compare = original if rng.random() < 0.5 else rng.getrandbits(64)
            swap = rng.getrandbits(64)
            requests.append(WorkRequest.compare_swap(wr_id, address, RKEY, compare, swap))
            memory[slot] = swap if original == compare else original
        originals[wr_id] = original
    return requests, originals, reads


def slots_of(tb: TB) -> list[int]:
    data = tb.memory.read(REGION_BASE, 8 * SLOTS)
    return [int.from_bytes(data[8 * slot:8 * slot + 8], "little") for slot in range(SLOTS)]


async def run_atomics(dut, tb: TB, rng: random.Random, count: int, with_reads: bool) -> dict[str, int]:
    """`count` atomics from the model requester (never more outstanding than the engine keeps),
    each completion's original and the slots afterwards checked against executing them in order."""
    first_psn = rng.getrandbits(24)
    await tb.set_up(first_psn, WITH_ATOMICS)
    initial = [rng.getrandbits(64) for _ in range(SLOTS)]
    tb.memory.write(REGION_BASE, words(initial))
    kept = await atomic_results_kept(tb)
    peer = QueuePair(QpConfig(PEER_QPN, DUT_QPN, PEER, DUT, pmtu=PMTU, initial_send_psn=first_psn,
                              local_ack_timeout=ACK_TIMEOUT_CODE, max_rd_atomic=kept))
    memory = list(initial)
    requests, originals, reads = random_atomics(rng, memory, count, with_reads)
    for request in requests:
        peer.post_send(request)
    completions = await tb.run(peer, count, limit_cycles=count * 4_000)
    assert sorted(c.wr_id for c in completions) == list(range(count)), "a request completed twice or never"
    for completion in completions:
        assert completion.status is CompletionStatus.SUCCESS, completion
        if completion.wr_id in reads:
            assert completion.data == reads[completion.wr_id], f"READ {completion.wr_id} saw an atomic out of order"
            continue
        wanted = originals[completion.wr_id]
        assert completion.original_value == wanted, \
            f"atomic {completion.wr_id} found {completion.original_value:#x}, not {wanted:#x}"
    assert slots_of(tb) == memory, f"the operands are {slots_of(tb)}, not {memory}: an atomic ran twice or never"
    events = tb.events
    assert events["atomics_executed"] == len(originals), \
        f"{events['atomics_executed']} atomics executed for {len(originals)}"
    dut._log.info("%d atomics and %d READs in %d cycles, %d retries by the peer; events %s", len(originals),
                  len(reads), tb.cycle, sum(peer.counters.retries.values()), events)
    return events


@cocotb.test(timeout_time=60, timeout_unit="us")
async def atomics_on_a_clean_wire_match_executing_them_in_order(dut):
    """FETCH_ADD (with carries out of the top bit) and COMPARE_SWAP that swap and that do not, on
    a few shared words, with READs of the words between them: each atomic returns the value before
    it, each READ the words as the requests before it left them, and the words end as executing
    them in posting order leaves them. The engine keeps as many results per QP as CAPS2 says (4)."""
    rng = test_rng("clean atomics")
    tb = TB(dut, rng)
    await tb.reset()
    assert await atomic_results_kept(tb) == 4
    events = await run_atomics(dut, tb, rng, 40, with_reads=True)
    assert (events["atomic_replays"], events["naks_sent"], events["duplicates"]) == (0, 0, 0), events


@cocotb.test(timeout_time=1000, timeout_unit="us")
@cocotb.parametrize(loss=(0.01, 0.1))
async def atomics_through_a_lossy_wire_are_executed_once(dut, loss):
    """Requests and answers lost, duplicated, reordered and corrupted: the peer sends atomics again
    and the engine answers the copies from the results it kept, so every word ends as if each
    atomic ran exactly once, and each original is the in-order one. At 10 % loss most retries
    wait out the peer's 32.8 us ACK timeout: runs take 25 000 to 133 000 cycles (34 retries at
    worst seen), inside the 240 000 the loop allows."""
    rng = test_rng("lossy atomics", loss)
    wire = WireConfig(latency_ns=200, drop=Impairment(loss), duplicate=Impairment(loss / 2),
                      reorder=Impairment(loss / 2), corrupt=Impairment(loss / 10), reorder_delay_ns=2000)
    tb = TB(dut, rng, wire)
    await tb.reset()
    events = await run_atomics(dut, tb, rng, 60, with_reads=False)
    dut._log.info("loss %.2f: %d retried atomics answered from the kept results", loss, events["atomic_replays"])


class ModelResponder:
    """The model's responder QP, set up as the engine's is (atomics allowed, `kept` results), for
    frames played straight at the engine."""

    def __init__(self, first_psn: int, kept: int, region_access: Access):
        self.first_psn = first_psn
        self.qp = QueuePair(QpConfig(DUT_QPN, PEER_QPN, DUT, PEER, pmtu=PMTU, initial_expected_psn=first_psn,
                                     max_dest_rd_atomic=kept))
        self.region = self.qp.register_memory(RKEY, REGION_BASE, REGION_BYTES, region_access)

    def psn(self, offset: int) -> int:
        return (self.first_psn + offset) % (1 << 24)

    def answers(self, frames: list[bytes]) -> list[tuple]:
        for frame in frames:
            self.qp.receive(frame, 0)
        return [answer(parse_frame(frame, PMTU)) for frame in self.qp.poll(0)]


def answer(packet: RocePacket) -> tuple:
    """What an answer says: opcode, PSN, syndrome, MSN and, for an ATOMIC_ACKNOWLEDGE, the value."""
    original = packet.atomic_ack_eth.original if packet.atomic_ack_eth else None
    return packet.bth.opcode, packet.bth.psn, packet.aeth.syndrome, packet.aeth.msn, original


def atomic_frame(opcode: Opcode, psn: int, address: int, swap_add: int, compare: int = 0) -> bytes:
    return build_frame(RocePacket(Addressing.between(PEER, DUT), BTH(opcode, DUT_QPN, psn, ack_req=True),
                                  atomic_eth=AtomicETH(address, RKEY, swap_add, compare)))


async def fresh_qp(tb: TB, rng: random.Random, region_access=WITH_ATOMICS) -> ModelResponder:
    """The engine's QP set up again at a random PSN (after tb.set_up), its region given
    `region_access`, and its words and the model's alike."""
    first_psn = rng.getrandbits(24)
    await rdma.create_qp(tb.registers, DUT_QPN, PEER_QPN, PEER.mac, PEER.ip, DUT.udp_source_port, first_psn,
                         pmtu=PMTU, rq_base=RQ_BASE, rq_log_size=RQ_LOG_SIZE)
    await rdma.register_region(tb.registers, RKEY, REGION_BASE, REGION_BYTES, *region_access)
    access = Access.REMOTE_READ | Access.REMOTE_WRITE | (Access.REMOTE_ATOMIC if region_access[2] else Access.NONE)
    model = ModelResponder(first_psn, await atomic_results_kept(tb), access)
    words = rng.randbytes(8 * SLOTS)
    tb.memory.write(REGION_BASE, words)
    model.region.data[:len(words)] = words
    return model


@cocotb.test(timeout_time=40, timeout_unit="us")
async def a_retried_atomic_gets_its_first_answer_and_runs_once(dut):
    """A FETCH_ADD, then the same frame again: both answered with the original value, the word
    added to once. Then as many newer atomics as the QP keeps: the first one, retried now, is no
    longer kept and is dropped unanswered (rxe), the newest is still answered from its result, and
    a COMPARE_SWAP retried after a later atomic changed its word still returns its first value.
    Every answer is the model responder's."""
    rng = test_rng("retried atomic")
    tb = TB(dut, rng)
    await tb.reset()
    await tb.set_up(0)
    model = await fresh_qp(tb, rng)
    kept = await atomic_results_kept(tb)
    first = atomic_frame(Opcode.FETCH_ADD, model.psn(0), REGION_BASE, 5)
    # FETCH_ADDs on the first word, COMPARE_SWAPs on the second that each find what they compare
    # with and swap, so that running one again would find the word changed
    later, second_word = [], int.from_bytes(model.region.data[8:16], "little")
    for index in range(kept):
        if index % 2:
            swap = rng.getrandbits(64)
            later.append(atomic_frame(Opcode.COMPARE_SWAP, model.psn(1 + index), REGION_BASE + 8, swap, second_word))
            second_word = swap
        else:
            later.append(atomic_frame(Opcode.FETCH_ADD, model.psn(1 + index), REGION_BASE, rng.getrandbits(64)))
    steps = {"first": [first], "first again": [first], "newer ones": later, "first, no longer kept": [first],
             "newest again": [later[-1]], "a compare-swap again": [later[-3]]}
    replays = 0
    for name, frames in steps.items():
        sent = [answer(packet) for packet in await tb.play(frames, CASE_CYCLES)]
        expected = model.answers(frames)
        assert sent == expected, f"{name}: the engine answered {sent}, the model {expected}"
        assert tb.memory.read(REGION_BASE, 8 * SLOTS) == bytes(model.region.data[:8 * SLOTS]), f"{name}: memory"
        replays += name.endswith("again")
    assert model.qp.counters.atomic_replays == replays
    events = await tb.read_events()
    assert (events["atomics_executed"], events["atomic_replays"]) == (1 + kept, replays), events


@cocotb.test(timeout_time=60, timeout_unit="us")
async def an_atomic_that_breaks_the_rules_is_refused_as_the_model_refuses_it(dut):
    """Each on a fresh QP, then an in-order FETCH_ADD that must not run: an atomic on a region
    without remote atomic access, past its end or across it (NAK remote access error: the region
    is checked before the alignment, as rxe does), one at an address not 8-byte aligned inside it
    (NAK invalid request), one whose operand cannot be read (NAK remote operational error). One NAK each, at its PSN, as the model answers; the QP is then in the
    error state and nothing after it touches memory."""
    rng = test_rng("atomic errors")
    tb = TB(dut, rng)
    await tb.reset()
    await tb.set_up(0)
    cases = {"no atomic access": ((True, True, False), REGION_BASE, NAK_REMOTE_ACCESS_ERROR),
             "past the region": (WITH_ATOMICS, REGION_BASE + REGION_BYTES, NAK_REMOTE_ACCESS_ERROR),
             "across the region's end": (WITH_ATOMICS, REGION_BASE + REGION_BYTES - 4, NAK_REMOTE_ACCESS_ERROR),
             "misaligned": (WITH_ATOMICS, REGION_BASE + 4, NAK_INVALID_REQUEST)}
    for name, (access, address, syndrome) in cases.items():
        model = await fresh_qp(tb, rng, access)
        before = tb.memory.read(REGION_BASE, REGION_BYTES)
        frames = [atomic_frame(Opcode.COMPARE_SWAP, model.psn(0), address, 1, 0),
                  atomic_frame(Opcode.FETCH_ADD, model.psn(1), REGION_BASE, 1)]
        sent = [answer(packet) for packet in await tb.play(frames, CASE_CYCLES)]
        expected = model.answers(frames)
        assert sent == expected, f"{name}: the engine answered {sent}, the model {expected}"
        assert [(opcode, psn, code) for opcode, psn, code, _, _ in sent] == [(Opcode.ACKNOWLEDGE, model.psn(0),
                                                                            syndrome)], f"{name}: {sent}"
        assert tb.memory.read(REGION_BASE, REGION_BYTES) == before, f"{name}: memory changed"
    # The operand's memory answers SLVERR: NAK remote operational error (IBA 9.7.5.2.8; the model
    # has no memory that fails), the QP in error, nothing written
    model = await fresh_qp(tb, rng)
    tb.poison_reads(range(REGION_BASE + 8, REGION_BASE + 16))
    before = tb.memory.read(REGION_BASE, 8 * SLOTS)
    sent = [answer(packet) for packet in await tb.play([atomic_frame(Opcode.FETCH_ADD, model.psn(0), REGION_BASE + 8, 1),
                                                        atomic_frame(Opcode.FETCH_ADD, model.psn(1), REGION_BASE, 1)],
                                                       CASE_CYCLES)]
    assert sent == [(Opcode.ACKNOWLEDGE, model.psn(0), NAK_REMOTE_OPERATIONAL_ERROR, 0, None)], sent
    assert tb.memory.read(REGION_BASE, 8 * SLOTS) == before, "an atomic on unreadable memory wrote"
    events = await tb.read_events()
    assert events["atomics_executed"] == 0, events


@cocotb.test(timeout_time=40, timeout_unit="us")
async def an_atomic_waits_for_the_read_posted_before_it(dut):
    """A READ of 16 packets, and a FETCH_ADD on its last word posted right behind it. The engine
    reads a READ's packets from memory as the MAC takes them, while later requests arrive; the
    atomic must still not run before the READ's bytes are read (IBA executes a QP's requests in
    order), so the READ returns the word as it was, and so does the atomic. (The bench's AXI
    memory answers reads in the order they were asked, whichever reader asked, so it cannot show
    what the responder's wait for the READ's data guards against: a memory that serves the
    operand read first. That wait is reviewed, not tested.)"""
    rng = test_rng("read then atomic")
    tb = TB(dut, rng)
    await tb.reset()
    first_psn = rng.getrandbits(24)
    await tb.set_up(first_psn, WITH_ATOMICS)
    length = 16 * PMTU
    word_address = REGION_BASE + length - 8
    before = rng.getrandbits(64)
    tb.memory.write(word_address, before.to_bytes(8, "little"))
    peer = QueuePair(QpConfig(PEER_QPN, DUT_QPN, PEER, DUT, pmtu=PMTU, initial_send_psn=first_psn,
                              local_ack_timeout=ACK_TIMEOUT_CODE, max_rd_atomic=await atomic_results_kept(tb)))
    add = rng.getrandbits(64)
    peer.post_send(WorkRequest.read(0, REGION_BASE, RKEY, length))
    peer.post_send(WorkRequest.fetch_add(1, word_address, RKEY, add))
    read, atomic = sorted(await tb.run(peer, 2, limit_cycles=8_000), key=lambda completion: completion.wr_id)
    assert int.from_bytes(read.data[-8:], "little") == before, "the READ saw the atomic posted after it"
    assert atomic.original_value == before, f"the atomic found {atomic.original_value:#x}, not {before:#x}"
    assert tb.memory.read(word_address, 8) == ((before + add) % ATOMIC_MODULUS).to_bytes(8, "little")


# ---- The engine as requester: its atomics against the model responder ----

# The peer's words the engine's atomics work on: above every READ source random_requests picks
PEER_WORDS = PEER_BASE + PEER_BYTES - 8 * SLOTS


def interleaved_atomics(rng: random.Random, work: list[tuple[WorkRequest, int]], memory: list[int], count: int,
                        local: int) -> tuple[list[tuple[WorkRequest, int]], dict[int, int]]:
    """`count` atomics on the peer's words slipped between `work`'s requests, each with its own
    8-byte local buffer from `local` on; each one's original value by wr_id, from executing them
    in posting order on `memory` (the words' values, updated in place)."""
    positions = sorted(rng.sample(range(len(work) + count), count))
    merged, originals, others = [], {}, iter(work)
    for index in range(len(work) + count):
        if positions and positions[0] == index:
            positions.pop(0)
            wr_id = 0x2000 + len(originals)
            slot = rng.randrange(SLOTS)
            address, original = PEER_WORDS + 8 * slot, memory[slot]
            if rng.random() < 0.5:
                add = rng.getrandbits(64)
                request = WorkRequest.fetch_add(wr_id, address, PEER_RKEY, add)
                memory[slot] = (original + add) % ATOMIC_MODULUS
            else:
                compare = original if rng.random() < 0.5 else rng.getrandbits(64)
                swap = rng.getrandbits(64)
                request = WorkRequest.compare_swap(wr_id, address, PEER_RKEY, compare, swap)
                memory[slot] = swap if original == compare else original
            originals[wr_id] = original
            merged.append((request, local + 8 * len(originals)))
        else:
            merged.append(next(others))
    return merged, originals


async def engine_atomics(dut, loss: float, count: int, atomics: int) -> Requester:
    """The engine posts WRITEs, READs and SENDs with atomics between them to the model responder;
    every request completes once, in order, each atomic's local buffer holds the original value
    executing them in posting order gives, and the peer's words end as that order leaves them."""
    rng = test_rng("engine atomics", loss)
    wire = WireConfig(latency_ns=200, drop=Impairment(loss), duplicate=Impairment(loss / 2),
                      reorder=Impairment(loss / 2), corrupt=Impairment(loss / 10), reorder_delay_ns=2000)
    requester = Requester(dut, rng, wire=wire)
    # A responder that keeps one atomic result: enough, as the engine has one atomic outstanding
    requester.new_peer(requester.first_psn, max_dest_rd_atomic=1)
    await requester.set_up()
    pmtu = requester.pmtu
    work = random_requests(rng, bytearray(LOCAL_BYTES), count, pmtu, pmtu if loss >= 0.1 else 3 * pmtu,
                           kinds=("write", "read", "send"))
    assert all(request.remote_address + request.length <= PEER_WORDS for request, _ in work)
    initial = [int.from_bytes(requester.peer_memory.read(PEER_WORDS + 8 * slot, 8), "little") for slot in range(SLOTS)]
    memory = list(initial)
    local_top = max(local + request.length for request, local in work)
    work, originals = interleaved_atomics(rng, work, memory, atomics, (local_top + 64) & ~7)
    assert (local_top + 64 + 8 * (atomics + 1)) < LOCAL_BASE + LOCAL_BYTES
    for request, local in work:
        if request.opcode.name in ("RDMA_WRITE", "SEND"):
            requester.tb.memory.write(local, request.data)
        if request.opcode.name == "SEND":
            requester.peer.post_recv(request.wr_id, 4 * pmtu)
    await requester.run(work)
    await check_exactly_once(requester, work)
    for request, local in work:
        if request.wr_id in originals:
            found = int.from_bytes(requester.tb.memory.read(local, 8), "little")
            assert found == originals[request.wr_id], \
                f"atomic {request.wr_id:#x} brought back {found:#x}, not {originals[request.wr_id]:#x}"
    words = [int.from_bytes(requester.peer_memory.read(PEER_WORDS + 8 * slot, 8), "little") for slot in range(SLOTS)]
    assert words == memory, "the peer's words differ from executing each atomic once, in order"
    dut._log.info("loss %.2f: %d requests with %d atomics; peer %s; engine %s", loss, len(work), atomics,
                  requester.peer.counters, requester.tb.events)
    return requester


@cocotb.test(timeout_time=150, timeout_unit="us")
async def the_engine_s_atomics_on_a_clean_wire_return_what_they_found(dut):
    """COMPARE_SWAP and FETCH_ADD work requests between WRITEs, READs and SENDs: the engine sends
    each one (AtomicETH, one PSN) once every request before it has completed, writes the original
    value the ATOMIC_ACKNOWLEDGE brings into its 8-byte local buffer, and completes it (COMP_SWAP
    or FETCH_ADD, 8 bytes) in order; the peer model executed each once."""
    requester = await engine_atomics(dut, 0.0, 20, 12)
    events = requester.tb.events
    assert (events["retries"], events["timeouts"], events["completion_errors"]) == (0, 0, 0), events


@cocotb.test(timeout_time=800, timeout_unit="us")
@cocotb.parametrize(loss=(0.01, 0.1))
async def the_engine_s_atomics_through_a_lossy_wire_run_once(dut, loss):
    """The same through loss, duplication, reordering and corruption: an atomic request or its
    answer lost is sent again with its PSN (an ACK beyond an unanswered atomic counts as a NAK),
    the peer answers the copy from its cache, and every word ends as if each atomic ran once."""
    await engine_atomics(dut, loss, 20, 12)


@cocotb.test(timeout_time=40, timeout_unit="us")
async def an_ack_past_an_unanswered_atomic_sends_it_again(dut):
    """A FETCH_ADD, then a WRITE; the ATOMIC_ACKNOWLEDGE is lost and the WRITE's ACK arrives, past
    the atomic. That ACK cannot complete the atomic (only its own answer carries the value): it is
    an implicit NAK, so the engine goes back to the atomic and sends both again at once; the peer
    answers the atomic from its cache and re-ACKs the WRITE. The atomic completes with its
    original value, and ran once."""
    rng = test_rng("ack past an atomic")
    requester = Requester(dut, rng)
    requester.new_peer(requester.first_psn, max_dest_rd_atomic=1)
    await requester.set_up()
    requester.tb.to_dut = LosesOneFrame(0)
    before = int.from_bytes(requester.peer_memory.read(PEER_WORDS, 8), "little")
    add = rng.getrandbits(64)
    data = rng.randbytes(64)
    work = [(WorkRequest.fetch_add(0x300, PEER_WORDS, PEER_RKEY, add), LOCAL_BASE),
            (WorkRequest.write(0x301, data, PEER_BASE, PEER_RKEY), LOCAL_BASE + 64)]
    requester.tb.memory.write(LOCAL_BASE + 64, data)
    await requester.run(work)
    await check_exactly_once(requester, work)
    assert int.from_bytes(requester.tb.memory.read(LOCAL_BASE, 8), "little") == before, "the original value"
    after = int.from_bytes(requester.peer_memory.read(PEER_WORDS, 8), "little")
    assert after == (before + add) % ATOMIC_MODULUS, "the FETCH_ADD ran other than once"
    first = requester.first_psn
    sent = [packet.bth.psn for packet in requester.tb.sent if packet.info.is_request]
    assert sent == [first, (first + 1) % (1 << 24), first, (first + 1) % (1 << 24)], [hex(psn) for psn in sent]
    assert requester.peer.counters.atomic_replays == 1
    events = requester.tb.events
    assert (events["retries"], events["timeouts"]) == (1, 0), events
