# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""nvme_controller's figures: throughput and latency from its counters, cross-checked with port
monitors, against src/dpuv/harness/targets.toml."""

from __future__ import annotations

import cocotb
from cocotb.triggers import ClockCycles

from dpuv.models import nvme_nvm
from dpuv.drivers.nvme import QueuePair
from dpuv.harness import perf
from dpuv.tb.testbench import CycleCounter, HandshakeMonitor, build_parameters, test_rng

from nvme_bench import MSIX_VECTORS, SignalStamps, TB, check_data, check_io_completions


# Figures the engine does not reach yet, recorded and reported against their targets (none at
# present); the test fails when one starts passing, so this list cannot go stale.
TARGETS_NOT_YET_MET: set[str] = set()


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


@cocotb.test(timeout_time=2, timeout_unit="ms")
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
