# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The cocotb side of `make reduce` on the ring transport: one collective over the job's tensors
(see dpuv.harness.reduce_job)."""

import os

import cocotb
import numpy as np

from dpuv.harness import reduce_job
from dpuv.models.reduction import ring_allreduce
from dpuv.tb.testbench import CLOCK_PERIOD_NS
from ring_bench import RingTB


@cocotb.test(timeout_time=1, timeout_unit="sec")
async def reduce_the_job(dut):
    job = reduce_job.load(os.environ[reduce_job.JOB_VARIABLE])
    vectors = [np.load(path) for path in job.inputs]
    tb = RingTB(dut)
    await tb.reset()
    results, reports = await tb.allreduce(vectors, job.dtype, job.op, job.flush, backdoor=True)
    expected = ring_allreduce(vectors, job.dtype, job.op, 8 * tb.beat_bytes, job.flush)
    cycles = max(report.counters["collective_cycles"] for report in reports)
    report = reduce_job.finish(
        job, results, expected, cycles, link_bytes_per_ns=tb.beat_bytes / CLOCK_PERIOD_NS,
        link=f"one {8 * tb.beat_bytes}-bit beat per cycle at 250 MHz",
        ranks_counters=[{"rank": r.rank, **r.counters, "errors": r.errors, **r.status} for r in reports])
    mismatches = report["mismatches_against_model"]
    assert mismatches == 0, f"{mismatches} elements differ from the model"
