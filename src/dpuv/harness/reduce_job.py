# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""`make reduce`: push your own .npy tensors through the simulated all-reduce ring.

Each input file is one rank's tensor; the ring has as many ranks as inputs (2 to 16). The RTL
result (identical on every rank, checked) is written to OUT in the chosen dtype, with a
float32 copy for floating types and the ranks' counters in OUT's .json sibling. The run also
compares the result bit for bit with the numpy model and says how many elements differ.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from dpuv.models.reduction import DTYPES, OPS
from dpuv.harness import benches, runner

JOB_VARIABLE = "DPUV_REDUCE_JOB"
BEAT_BYTES = 64
MAX_RANKS = 16

BENCH = benches.tool("allreduce_npy")


class JobError(ValueError):
    pass


@dataclass
class Job:
    inputs: list[str]
    dtype: str
    op: str
    flush: bool
    output: str
    shape: list[int]

    @property
    def report_path(self) -> Path:
        return Path(self.output).with_suffix(".json")


def as_bit_patterns(array: np.ndarray, dtype_name: str, source: str) -> np.ndarray:
    """The array as the dtype's unsigned bit patterns. Arrays already in the dtype (including
    ml_dtypes arrays that numpy reads back as raw void) pass unchanged; other floating or integer
    arrays are converted, floats with round-to-nearest-even."""
    info = DTYPES[dtype_name]
    if array.dtype == info.numpy_type or (array.dtype.kind == "V" and array.dtype.itemsize == info.bits // 8):
        return np.ascontiguousarray(array).view(info.unsigned)
    if info.floating and array.dtype.kind == "f":
        return array.astype(np.float32).astype(info.numpy_type).view(info.unsigned)
    if not info.floating and array.dtype.kind in "iu":
        limits = np.iinfo(info.numpy_type)
        if array.min(initial=0) < limits.min or array.max(initial=0) > limits.max:
            raise JobError(f"{source}: values do not fit {dtype_name}")
        return array.astype(info.numpy_type).view(info.unsigned)
    raise JobError(f"{source}: cannot take a {array.dtype} array as {dtype_name}")


def prepare(inputs: list[str], dtype: str, op: str, output: str, flush: bool, work_dir: Path) -> tuple[Job, dict]:
    if dtype not in DTYPES:
        raise JobError(f"unknown DTYPE {dtype!r}; choose one of: {', '.join(DTYPES)}")
    if op not in OPS:
        raise JobError(f"unknown OP {op!r}; choose one of: {', '.join(OPS)}")
    if not 2 <= len(inputs) <= MAX_RANKS:
        raise JobError(f"give 2 to {MAX_RANKS} INPUTS (one per rank), not {len(inputs)}")
    arrays = []
    for path in inputs:
        if not Path(path).exists():
            raise JobError(f"input {path} does not exist")
        arrays.append(np.load(path, allow_pickle=False))
    shapes = {array.shape for array in arrays}
    if len(shapes) != 1:
        raise JobError(f"every input must have the same shape; got {sorted(shapes)}")
    work_dir.mkdir(parents=True, exist_ok=True)
    patterns = []
    for rank, (path, array) in enumerate(zip(inputs, arrays)):
        bits = as_bit_patterns(array, dtype, path).reshape(-1)
        if bits.size == 0:
            raise JobError(f"{path} is empty")
        pattern_path = work_dir / f"rank{rank}.npy"
        np.save(pattern_path, bits)
        patterns.append(str(pattern_path))
    job = Job(patterns, dtype, op, flush, str(Path(output).resolve()), list(arrays[0].shape))
    beats = -(-arrays[0].size * DTYPES[dtype].bits // 8 // BEAT_BYTES)
    # One build per power-of-two buffer size, so tensors of similar size reuse it.
    buffer_beats = max(16, 1 << (beats - 1).bit_length())
    parameters = {"RANKS": len(inputs), "DATA_WIDTH": 8 * BEAT_BYTES, "BUFFER_BEATS": buffer_beats}
    return job, parameters


def run(inputs: list[str], dtype: str, op: str, output: str, flush: bool, simulator: str) -> dict:
    # A folder per output and simulator, so concurrent jobs never share their rank files.
    tag = hashlib.sha1(f"{Path(output).resolve()}:{simulator}".encode()).hexdigest()[:12]
    work_dir = runner.RESULTS_ROOT / "reduce" / tag
    job, parameters = prepare(inputs, dtype, op, output, flush, work_dir)
    job_file = work_dir / "job.json"
    job_file.write_text(json.dumps(asdict(job), indent=2))
    job.report_path.unlink(missing_ok=True)
    result = runner.run(BENCH, parameters, simulator, seed=1, environment={JOB_VARIABLE: str(job_file)}, record=False)
    if not result.passed or not job.report_path.exists():
        raise JobError(result.failure_report())
    return json.loads(job.report_path.read_text())
