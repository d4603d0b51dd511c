# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""`make reduce`: push your own .npy tensors through a simulated all-reduce.

Each input file is one rank's tensor. Two transports carry it:
- `ring` (the default): the all-reduce ring of reduction ranks over bare AXI4-Stream links, as
  many ranks as inputs (2 to 16), 512-bit beats;
- `rdma`: DPU nodes (2 to 8) whose collective engines run the ring over their RoCEv2 engines and
  the switch model at 100 Gb/s, as training nodes do.

The RTL result (identical on every rank, checked) is written to OUT in the chosen dtype, with a
float32 copy for floating types and the ranks' counters in OUT's .json sibling. The run also
compares the result bit for bit with the numpy model and says how many elements differ.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from dpuv.drivers import collective
from dpuv.models.reduction import DTYPES, OPS
from dpuv.harness import benches, runner

JOB_VARIABLE = "DPUV_REDUCE_JOB"
RING_BEAT_BYTES = 64
# What each transport can carry: ranks, and the tool bench that runs it
MAX_RANKS = {"ring": 16, "rdma": 8}
BENCHES = {"ring": "allreduce_npy", "rdma": "cluster_npy"}
TRANSPORTS = tuple(MAX_RANKS)

# The cluster as its bandwidth bench measures it: PMTU 4096 and its streaming layout of slots
CLUSTER_PMTU = 4096
CLUSTER_LAYOUT = collective.STREAMING_LAYOUT
CLUSTER_DATA_WIDTHS = (64, 512)
CLUSTER_MEMORY_MIN_BYTES = 1 << 18
# Node memory is simulated as an array per node; past this the simulators' memory and time grow
# beyond what a desk run is for
CLUSTER_MAX_BYTES_PER_RANK = 4 << 20


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
    transport: str = "ring"

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


def prepare(inputs: list[str], dtype: str, op: str, output: str, flush: bool, work_dir: Path,
            transport: str = "ring", nodes: int | None = None, data_width: int = 512) -> tuple[Job, dict]:
    if dtype not in DTYPES:
        raise JobError(f"unknown DTYPE {dtype!r}; choose one of: {', '.join(DTYPES)}")
    if op not in OPS:
        raise JobError(f"unknown OP {op!r}; choose one of: {', '.join(OPS)}")
    if transport not in TRANSPORTS:
        raise JobError(f"unknown TRANSPORT {transport!r}; choose one of: {', '.join(TRANSPORTS)}")
    if nodes is not None and nodes != len(inputs):
        raise JobError(f"NODES={nodes} but {len(inputs)} INPUTS were given: one tensor per node")
    if not 2 <= len(inputs) <= MAX_RANKS[transport]:
        raise JobError(f"give 2 to {MAX_RANKS[transport]} INPUTS (one per rank) for TRANSPORT={transport}, "
                       f"not {len(inputs)}")
    if transport == "rdma" and data_width not in CLUSTER_DATA_WIDTHS:
        raise JobError(f"WIDTH={data_width}: the cluster runs at {' or '.join(map(str, CLUSTER_DATA_WIDTHS))} bits")
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
    job = Job(patterns, dtype, op, flush, str(Path(output).resolve()), list(arrays[0].shape), transport)
    vector_bytes = arrays[0].size * DTYPES[dtype].bits // 8
    if transport == "ring":
        return job, ring_parameters(len(inputs), vector_bytes)
    return job, cluster_parameters(len(inputs), vector_bytes, data_width)


def power_of_two_at_least(value: int) -> int:
    # Sizes of builds come in powers of two, so tensors of similar size reuse one build
    return 1 << max(0, value - 1).bit_length()


def ring_parameters(ranks: int, vector_bytes: int) -> dict:
    beats = -(-vector_bytes // RING_BEAT_BYTES)
    return {"RANKS": ranks, "DATA_WIDTH": 8 * RING_BEAT_BYTES, "BUFFER_BEATS": max(16, power_of_two_at_least(beats))}


def cluster_parameters(nodes: int, vector_bytes: int, data_width: int) -> dict:
    if vector_bytes > CLUSTER_MAX_BYTES_PER_RANK:
        raise JobError(f"{vector_bytes} bytes per rank: TRANSPORT=rdma takes at most {CLUSTER_MAX_BYTES_PER_RANK >> 20} MiB")
    memory = max(CLUSTER_MEMORY_MIN_BYTES, power_of_two_at_least(CLUSTER_LAYOUT.buffer + vector_bytes))
    return {"NODES": nodes, "DATA_WIDTH": data_width, "MEMORY_BYTES": memory}


# A rank that sees no completion, WQE, piece or node-memory beat for this long ends the collective
# with a watchdog error: a stuck ring fails in a fraction of a millisecond whatever the tensor size
CLUSTER_WATCHDOG_CYCLES = 50_000


def cluster_timeout_cycles(vector_bytes: int, data_width: int) -> int:
    """A bound on one collective through the cluster: about ten times what the bandwidth bench
    measures (1 MiB per rank in about 90,000 cycles at 512 bits, 4 nodes), as many times more for
    a narrower bus as it moves fewer bytes a cycle. The watchdog ends a stuck ring long before."""
    return 100_000 + vector_bytes * 512 // data_width


def load(job_file: str) -> Job:
    return Job(**json.loads(Path(job_file).read_text()))


def finish(job: Job, results: list[np.ndarray], expected: np.ndarray, cycles: int, link_bytes_per_ns: float,
           link: str, ranks_counters: list[dict]) -> dict:
    """Check that every rank holds the same bits, count the elements that differ from the model,
    and write the result tensor (and a float32 copy of a floating one) and the report. The caller
    fails the run when any element differs, after the files are written for the user to look at."""
    from dpuv.tb.testbench import CLOCK_PERIOD_NS  # runs inside the simulation only (cocotb)

    for rank, result in enumerate(results[1:], start=1):
        if not np.array_equal(result, results[0]):
            raise AssertionError(f"rank {rank} ended with different bits from rank 0")
    info = DTYPES[job.dtype]
    output = Path(job.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    tensor = results[0].view(info.numpy_type).reshape(job.shape)
    np.save(output, tensor)
    nan_elements = 0
    if info.floating:
        as_float32 = tensor.astype(np.float32)
        np.save(output.with_suffix(".float32.npy"), as_float32)
        nan_elements = int(np.count_nonzero(np.isnan(as_float32)))
    ranks = len(results)
    busbw_bytes_per_ns = results[0].nbytes * 2 * (ranks - 1) / ranks / (cycles * CLOCK_PERIOD_NS)
    report = {
        "output": str(output), "transport": job.transport,
        "dtype": job.dtype, "op": job.op, "flush_subnormals": job.flush,
        "ranks": ranks, "elements": int(results[0].size), "shape": job.shape,
        "mismatches_against_model": int(np.count_nonzero(results[0] != expected)),
        "nan_elements": nan_elements,
        "collective_cycles": cycles,
        "link": link,
        "busbw_share_of_link": round(busbw_bytes_per_ns / link_bytes_per_ns, 4),
        "busbw_gbytes_per_s_at_250mhz": round(busbw_bytes_per_ns, 3),
        "ranks_counters": ranks_counters,
    }
    job.report_path.write_text(json.dumps(report, indent=2))
    return report


def run(inputs: list[str], dtype: str, op: str, output: str, flush: bool, simulator: str, transport: str = "ring",
        nodes: int | None = None, data_width: int = 512) -> dict:
    # A folder per output, transport and simulator, so concurrent jobs never share their rank files.
    tag = hashlib.sha1(f"{Path(output).resolve()}:{transport}:{simulator}".encode()).hexdigest()[:12]
    work_dir = runner.RESULTS_ROOT / "reduce" / tag
    job, parameters = prepare(inputs, dtype, op, output, flush, work_dir, transport, nodes, data_width)
    job_file = work_dir / "job.json"
    job_file.write_text(json.dumps(asdict(job), indent=2))
    job.report_path.unlink(missing_ok=True)
    result = runner.run(benches.tool(BENCHES[transport]), parameters, simulator, seed=1,
                        environment={JOB_VARIABLE: str(job_file)}, record=False)
    if not result.passed or not job.report_path.exists():
        raise JobError(result.failure_report())
    return json.loads(job.report_path.read_text())
