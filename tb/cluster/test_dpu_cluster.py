# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Ring all-reduce between DPU nodes over RoCEv2, in one simulation: every node's collective engine
drives its own RDMA engine (no host software in the loop) through the switch and link model.

The expected result is dpuv.models.reduction.ring_allreduce, the ring's fixed element order
written from the algorithm; every rank must end with exactly its bits."""

from __future__ import annotations

import cocotb
import numpy as np
from cocotb.triggers import ClockCycles

from dpuv.drivers import collective, rdma
from dpuv.models.reduction import random_vectors, ring_allreduce
from dpuv.models.roce_packet import Opcode
from dpuv.tb.testbench import test_rng
from cluster_bench import ClusterTB, SwitchLedger, check_allreduce


async def check_slots_on_chip(tb: ClusterTB) -> None:
    """Every rank reports the on-chip slot memory the cluster was built with, and its receive slots
    were placed there (so the pieces of this test pass through it, not through node memory)."""
    built_bytes = int(tb.dut.SLOT_MEMORY_BYTES.value)
    for node in tb.nodes:
        engine = node.collective
        reported = await engine.read_register("SLOT_MEMORY_BYTES")
        assert reported == built_bytes, f"rank {node.rank}: SLOT_MEMORY_BYTES reads {reported}, built with {built_bytes}"
        base = await engine.read_register("SLOT_MEMORY_BASE")
        placed = await engine.read_register("SLOT_BASE_HIGH") << 32 | await engine.read_register("SLOT_BASE_LOW")
        assert placed == base, f"rank {node.rank}: slots at {placed:#x}, not in the slot memory at {base:#x}"


@cocotb.test(timeout_time=400, timeout_unit="us")
async def ring_allreduce_is_exact_on_every_rank(dut):
    """With the receive slots in each node's on-chip slot memory: fp32 sum over every rank, the
    vector not a multiple of the ranks, the slot or the beat; then
    more collectives on the same QPs (int32 max, bf16 sum, and fp32 again under the tag just used:
    no credit of one collective may be taken by the next), each exact on every rank."""
    rng = test_rng("ring")
    tb = ClusterTB(dut, rng)
    await tb.reset()
    layout = collective.Layout(slots=4, slot_bytes=1024)
    await collective.connect_ring(tb.nodes, layout, pmtu=1024, rng=rng)
    await check_slots_on_chip(tb)
    for collective_id, elements, dtype, op in ((0, 3001, "fp32", "sum"), (1, 1237, "int32", "max"),
                                               (2, 2049, "bf16", "sum"), (2, 999, "fp32", "sum")):
        reports = await check_allreduce(tb, elements, dtype, op, collective_id, layout, timeout_cycles=200_000)
        dut._log.info("%d %s %s on %d ranks: %s", elements, dtype, op, tb.nodes_count,
                      [(r.counters["collective_cycles"], r.counters["pieces_received"]) for r in reports])
    dut._log.info("switch: %s", tb.switch_counters())
    tb.save_capture()


@cocotb.test(timeout_time=300, timeout_unit="us")
async def a_slow_rank_holds_its_sender_back_by_credits(dut):
    """Two slots (and 16 receives) per rank, and rank 1's collective engine held off node memory for a while in the
    middle of the collective (a slow node): rank 0 fills rank 1's two slots and then waits for
    credits (its CREDIT_STALL_CYCLES count it) instead of writing over pieces not yet taken; the
    result is exact on every rank."""
    rng = test_rng("slow rank")
    tb = ClusterTB(dut, rng)
    await tb.reset()
    layout = collective.Layout(slots=2, slot_bytes=512)
    # More receives than slots: only the credits stand between a sender and a full slot (with one
    # receive per slot, receiver-not-ready NAKs would hold it back too, slowly)
    await collective.connect_ring(tb.nodes, layout, pmtu=512, data_receives=16, rng=rng)

    async def slow_down_rank_1():
        await ClockCycles(dut.clk, 400)
        dut.stall_collective_memory.value = 0b0010
        await ClockCycles(dut.clk, 4000)
        dut.stall_collective_memory.value = 0

    stall = cocotb.start_soon(slow_down_rank_1())
    vectors = random_vectors(tb.rng, tb.nodes_count, 4000, "fp32")
    expected = ring_allreduce(vectors, "fp32", "sum", beat_bits=tb.data_width)
    results, reports = await collective.allreduce(tb.nodes, vectors, "fp32", "sum", 3, layout, timeout_cycles=100_000)
    await stall
    for report, result in zip(reports, results):
        assert not report.failed and report.status["done"], f"rank {report.rank}: {report.status}"
        assert np.array_equal(result, expected), f"rank {report.rank}: {np.count_nonzero(result != expected)} wrong"
    stalls = [report.counters["credit_stall_cycles"] for report in reports]
    assert stalls[0] > 1000 and reports[1].counters["slot_peak"] == layout.slots, (stalls, reports[1].counters)
    engines = await rdma_counters(tb)
    assert [engine["rnr_naks_sent"] for engine in engines] == [0] * tb.nodes_count, engines
    dut._log.info("slow rank 1: credit stalls %s, slot peaks %s", stalls, [r.counters["slot_peak"] for r in reports])


async def rdma_counters(tb: ClusterTB) -> list[dict[str, int]]:
    return [await rdma.read_counters(node.rdma) for node in tb.nodes]


@cocotb.test(timeout_time=400, timeout_unit="us")
async def loss_reordering_and_duplicates_change_no_bit(dut):
    """1 % random loss, reordering and duplication on every switch port: the RDMA engines recover
    every lost packet (go-back-N, timeouts), and every rank still ends with exactly the bits of
    the clean ring."""
    rng = test_rng("lossy ring")
    tb = ClusterTB(dut, rng)
    await tb.reset()
    layout = collective.Layout(slots=4, slot_bytes=1024)
    await collective.connect_ring(tb.nodes, layout, pmtu=1024, timeout=2, rng=rng)
    tb.set_faults(loss_threshold=655, reorder_threshold=655, duplicate_threshold=328)
    ledger = SwitchLedger(tb)
    reports = await check_allreduce(tb, 6007, "fp32", "sum", 5, layout, timeout_cycles=400_000)
    switch = tb.switch_counters()
    engines = await rdma_counters(tb)
    # About 600 frames at these rates: some fault is all but certain, a given kind is not
    faults = sum(sum(switch[kind]) for kind in ("frames_lost", "frames_reordered", "frames_duplicated"))
    assert faults > 0, switch
    lost = ledger.lost()
    assert len(lost) == sum(switch["frames_lost"]), (len(lost), switch)
    # A lost request is sent again by its node; a lost acknowledgement may be covered by the next
    for port, packet in lost:
        if packet.info.is_request:
            assert ledger.sent_again(port, packet), f"node {port} never sent its lost {packet.bth} again"
            assert engines[port]["retransmits"] > 0, (port, engines[port])
    tb.save_capture()
    dut._log.info("lossy ring exact: %s cycles; switch %s; retransmits %s", [r.counters["collective_cycles"] for r in reports],
                  {name: sum(values) for name, values in switch.items()}, [e["retransmits"] for e in engines])
    dut._log.info("lost on the wire: %s", [(port, Opcode(packet.bth.opcode).name, packet.bth.psn) for port, packet in lost])


@cocotb.test(timeout_time=200, timeout_unit="us")
async def ecn_marked_pieces_send_cnps_back_and_change_no_bit(dut):
    """Every node sends ECN-capable (CONGESTION.ect) and notifies (CONGESTION.notify, a CNP per QP
    at most every 2 000 cycles), and the switch marks every ECN-capable frame CE: every rank still
    ends with exactly the ring's bits; every frame the switch marked reaches a node and is counted
    there; each node sends CNPs to the QPs that sent it marked frames, paced (no more than one per
    QP per interval, beside the first), and every CNP reaches its sender, where it is counted and
    changes nothing."""
    rng = test_rng("ecn ring")
    tb = ClusterTB(dut, rng)
    await tb.reset()
    layout = collective.Layout(slots=4, slot_bytes=1024)
    await collective.connect_ring(tb.nodes, layout, pmtu=1024, rng=rng)
    interval_cycles = 2000
    for node in tb.nodes:
        await rdma.set_congestion(node.rdma, ect=True, notify=True, cnp_interval_cycles=interval_cycles)
    tb.mark_every_ect_frame()
    reports = await check_allreduce(tb, 3001, "fp32", "sum", 6, layout, timeout_cycles=200_000)
    elapsed = max(report.counters["collective_cycles"] for report in reports)
    switch = tb.switch_counters()
    engines = await rdma_counters(tb)
    marked = [engine["ce_marked_received"] for engine in engines]
    sent = [engine["cnps_sent"] for engine in engines]
    received = [engine["cnps_received"] for engine in engines]
    dut._log.info("ECN ring: %d cycles; marked %s (switch %s); CNPs sent %s, received %s", elapsed, marked,
                  switch["frames_marked"], sent, received)
    assert sum(marked) == sum(switch["frames_marked"]) > 0, (marked, switch["frames_marked"])
    # Each node receives marked frames on its two QPs (pieces from its previous rank, credits from
    # its next): at most one CNP per QP per interval of the run, and at least the first of each
    per_qp_bound = elapsed // interval_cycles + 1
    assert all(2 <= count <= 2 * per_qp_bound for count in sent), (sent, per_qp_bound)
    assert sum(received) == sum(sent), (sent, received)
    assert all(not report.failed for report in reports)


async def wait_all(tb: ClusterTB, timeout_cycles: int) -> list[collective.RankReport]:
    return [await collective.wait(node, timeout_cycles) for node in tb.nodes]


@cocotb.test(timeout_time=1000, timeout_unit="us")
async def faults_end_with_an_error_on_every_rank_and_the_next_collective_is_exact(dut):
    """A refused configuration answers at once. Ranks that disagree on the length, or on the dtype
    (fp32 against int32: same size, other data), a link cut in the middle of a collective (retries
    run out) and a node reset in the middle of one: every rank ends with an error flag and its
    count (the reset node instead comes back idle, with nothing of the lost collective), none
    hangs (the watchdog ends the ranks left waiting), and after the ring is connected again the
    next collective is exact."""
    rng = test_rng("faults")
    tb = ClusterTB(dut, rng)
    await tb.reset()
    layout = collective.Layout(slots=4, slot_bytes=1024)
    watchdog = 20_000
    connect = dict(layout=layout, pmtu=1024, timeout=1, retry_count=2, watchdog_cycles=watchdog)
    await collective.connect_ring(tb.nodes, rng=rng, **connect)
    ring = len(tb.nodes)

    # Refused at arm: a ring of one
    await collective.arm(tb.nodes[0], 100, "fp32", "sum", 1, layout, ranks=1)
    report = await collective.report(tb.nodes[0])
    assert report.status["config_error"] and not report.status["busy"] and report.errors == 1, report

    reset_rank = 2
    cases = {"length": [(1000 if node.rank != 1 else 1200, "fp32") for node in tb.nodes],
             "dtype": [(1000, "fp32" if node.rank != 2 else "int32") for node in tb.nodes],
             "link cut": [(4000, "fp32")] * ring,
             "node reset": [(4000, "fp32")] * ring}
    for collective_id, (case, configs) in enumerate(cases.items(), start=10):
        errors_before = [(await collective.report(node)).errors for node in tb.nodes]
        for node, (elements, dtype) in zip(tb.nodes, configs):
            await collective.arm(node, elements, dtype, "sum", collective_id, layout, ranks=ring)
        for node in tb.nodes:
            await collective.start(node)
        # Both mid-collective faults strike once data is flowing on every link
        if case == "link cut":
            await ClockCycles(dut.clk, 1500)
            tb.set_faults(loss_threshold=0xFFFF)
        if case == "node reset":
            await ClockCycles(dut.clk, 1500)
            cut_frames = await tb.reset_node(reset_rank, mid_frame=True)
            assert cut_frames == 1, f"the frame the reset cut off reached its receiver {cut_frames} times marked bad"
        # Each case ends within a few watchdog periods of its start
        reports = await wait_all(tb, 4 * watchdog)
        for report, before in zip(reports, errors_before):
            if case == "node reset" and report.rank == reset_rank:
                assert not any(report.status.values()) and report.errors == 0, \
                    f"{case}: the reset rank came back with {report.status}, {report.errors} errors"
                continue
            assert report.failed and not report.status["done"], f"{case}: rank {report.rank} {report.status}"
            assert report.errors > before, f"{case}: rank {report.rank} counted no error"
        dut._log.info("%s: %s", case, [report.failed for report in reports])
        tb.set_faults(loss_threshold=0)
        # Recovery: the QPs may be in the error state and frames of the old ones in flight
        await ClockCycles(dut.clk, 2000)
        await collective.connect_ring(tb.nodes, rng=rng, **connect)
        await check_allreduce(tb, 2001, "fp32", "sum", collective_id + 50, layout, timeout_cycles=200_000)
