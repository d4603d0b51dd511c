# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The cocotb side of `make reduce`: one collective over the job's tensors (see dpuv.harness.reduce_job)."""

import json
import os
from pathlib import Path

import cocotb
import numpy as np

from dpuv.models.reduction import DTYPES, ring_allreduce
from dpuv.harness.reduce_job import JOB_VARIABLE
from dpuv.tb.testbench import CLOCK_PERIOD_NS
from ring_bench import RingTB


@cocotb.test(timeout_time=1, timeout_unit="sec")
async def reduce_the_job(dut):
    job = json.loads(Path(os.environ[JOB_VARIABLE]).read_text())
    info = DTYPES[job["dtype"]]
    vectors = [np.load(path) for path in job["inputs"]]
    tb = RingTB(dut)
    await tb.reset()
    results, reports = await tb.allreduce(vectors, job["dtype"], job["op"], job["flush"], backdoor=True)
    for rank, result in enumerate(results[1:], start=1):
        assert np.array_equal(result, results[0]), f"rank {rank} ended with different bits from rank 0"
    expected = ring_allreduce(vectors, job["dtype"], job["op"], 8 * tb.beat_bytes, job["flush"])
    mismatches = int(np.count_nonzero(results[0] != expected))

    output = Path(job["output"])
    output.parent.mkdir(parents=True, exist_ok=True)
    tensor = results[0].view(info.numpy_type).reshape(job["shape"])
    np.save(output, tensor)
    if info.floating:
        np.save(output.with_suffix(".float32.npy"), tensor.astype(np.float32))
    cycles = max(report.counters["collective_cycles"] for report in reports)
    message_bytes = results[0].nbytes
    ranks = len(vectors)
    busbw_ratio = message_bytes * 2 * (ranks - 1) / ranks / cycles / tb.beat_bytes
    report = {
        "output": str(output),
        "dtype": job["dtype"], "op": job["op"], "flush_subnormals": job["flush"],
        "ranks": ranks, "elements": int(results[0].size), "shape": job["shape"],
        "mismatches_against_model": mismatches,
        "collective_cycles": cycles,
        "busbw_share_of_link": round(busbw_ratio, 4),
        "busbw_gbytes_per_s_at_250mhz": round(busbw_ratio * tb.beat_bytes * 1e9 / CLOCK_PERIOD_NS / 1e9, 3),
        "ranks_counters": [{"rank": r.rank, **r.counters, "errors": r.errors, **r.status} for r in reports],
    }
    output.with_suffix(".json").write_text(json.dumps(report, indent=2))
    assert mismatches == 0, f"{mismatches} elements differ from the model"
