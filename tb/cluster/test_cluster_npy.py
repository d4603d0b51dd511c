# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The cocotb side of `make reduce TRANSPORT=rdma`: the job's tensors, one per DPU node, all-reduced
by the nodes' collective engines over RoCEv2 and the switch (see dpuv.harness.reduce_job)."""

import os

import cocotb
import numpy as np

from dpuv.drivers import collective, rdma
from dpuv.harness import reduce_job
from dpuv.models.reduction import DTYPES, ring_allreduce
from dpuv.tb.testbench import test_rng
from cluster_bench import LINE_RATE_BYTES_PER_NS, ClusterTB


@cocotb.test(timeout_time=1, timeout_unit="sec")
async def reduce_the_job(dut):
    job = reduce_job.load(os.environ[reduce_job.JOB_VARIABLE])
    vectors = [np.load(path) for path in job.inputs]
    rng = test_rng("make reduce over rdma")
    tb = ClusterTB(dut, rng)
    await tb.reset()
    layout = reduce_job.CLUSTER_LAYOUT
    await collective.connect_ring(tb.nodes, layout, pmtu=reduce_job.CLUSTER_PMTU,
                                  watchdog_cycles=reduce_job.CLUSTER_WATCHDOG_CYCLES, rng=rng)
    vector_bytes = vectors[0].size * DTYPES[job.dtype].bits // 8
    timeout_cycles = reduce_job.cluster_timeout_cycles(vector_bytes, tb.data_width)
    results, reports = await collective.allreduce(tb.nodes, vectors, job.dtype, job.op, 1, layout,
                                                  timeout_cycles=timeout_cycles, flush=job.flush)
    rdma_counters = [await rdma.read_counters(node.rdma) for node in tb.nodes]
    switch_counters = {name: sum(values) for name, values in tb.switch_counters().items()}
    for report, engine in zip(reports, rdma_counters):
        assert report.status["done"] and not report.failed, (
            f"rank {report.rank} ended with {report.status}; its collective counters {report.counters}, "
            f"its RDMA engine's {engine}; the switch's {switch_counters}")
    expected = ring_allreduce(vectors, job.dtype, job.op, tb.data_width, job.flush)
    cycles = max(report.counters["collective_cycles"] for report in reports)
    report = reduce_job.finish(
        job, results, expected, cycles, link_bytes_per_ns=LINE_RATE_BYTES_PER_NS,
        link=f"100 Gb/s Ethernet per node through the switch, RoCEv2 at PMTU {reduce_job.CLUSTER_PMTU}, "
             f"{tb.data_width}-bit node buses",
        ranks_counters=[{"rank": r.rank, **r.counters, "errors": r.errors, **r.status,
                         "retransmits": engine["retransmits"]} for r, engine in zip(reports, rdma_counters)])
    dut._log.info("switch: %s", switch_counters)
    mismatches = report["mismatches_against_model"]
    assert mismatches == 0, f"{mismatches} elements differ from the model"
