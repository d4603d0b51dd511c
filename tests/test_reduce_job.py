# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""`make reduce`: inputs are checked before any simulation, converted predictably, and a real
run writes a result that matches the model on every rank."""

import json

import ml_dtypes
import numpy as np
import pytest

from dpuv.harness import reduce_job, toolchain


def save(tmp_path, name, array):
    path = tmp_path / name
    np.save(path, array)
    return str(path)


@pytest.mark.parametrize("inputs,dtype,op,options,message", [
    (["a"], "bf16", "sum", {}, "give 2 to 16 INPUTS"),
    (["a", "b"], "bf17", "sum", {}, "unknown DTYPE"),
    (["a", "b"], "bf16", "prod", {}, "unknown OP"),
    (["a", "missing"], "bf16", "sum", {}, "does not exist"),
    (["a", "c"], "bf16", "sum", {}, "same shape"),
    (["big", "big"], "int8", "sum", {}, "do not fit int8"),
    (["a", "b"], "bf16", "sum", {"transport": "tcp"}, "unknown TRANSPORT"),
    (["a"] * 9, "bf16", "sum", {"transport": "rdma"}, "give 2 to 8 INPUTS"),
    (["a", "b"], "bf16", "sum", {"transport": "rdma", "nodes": 4}, "NODES=4 but 2 INPUTS"),
    (["a", "b"], "bf16", "sum", {"transport": "rdma", "data_width": 128}, "WIDTH=128"),
    (["huge", "huge"], "fp32", "sum", {"transport": "rdma"}, "at most 4 MiB"),
])
def test_bad_jobs_are_refused_before_simulating(tmp_path, inputs, dtype, op, options, message):
    arrays = {"a": np.zeros((2, 3), np.float32), "b": np.ones((2, 3), np.float32),
              "c": np.ones(7, np.float32), "big": np.array([300], np.int32),
              "huge": np.zeros((4 << 20) // 4 + 1, np.float32)}
    paths = [save(tmp_path, f"{name}.npy", arrays[name]) if name in arrays else str(tmp_path / name) for name in inputs]
    with pytest.raises(reduce_job.JobError, match=message):
        reduce_job.prepare(paths, dtype, op, str(tmp_path / "out.npy"), False, tmp_path / "work", **options)


def test_cluster_builds_come_in_powers_of_two_of_memory():
    small = reduce_job.cluster_parameters(4, 1000, 512)
    assert small == {"NODES": 4, "DATA_WIDTH": 512, "MEMORY_BYTES": 1 << 18}  # the floor: slots and queues take 68 KiB
    assert reduce_job.cluster_parameters(4, 1 << 20, 64)["MEMORY_BYTES"] == 1 << 21
    assert reduce_job.cluster_parameters(4, 4 << 20, 64)["MEMORY_BYTES"] == 8 << 20


def test_arrays_become_bit_patterns_predictably():
    as_bf16 = np.array([1.0, 1.0 + 2.0 ** -8], np.float32).astype(ml_dtypes.bfloat16)
    assert list(reduce_job.as_bit_patterns(as_bf16, "bf16", "x")) == [0x3F80, 0x3F80]
    as_void = as_bf16.view("V2")
    assert list(reduce_job.as_bit_patterns(as_void, "bf16", "x")) == [0x3F80, 0x3F80]
    from_fp32 = np.array([1.0 + 2.0 ** -7 + 2.0 ** -8], np.float32)  # a tie: rounds to even, upward
    assert list(reduce_job.as_bit_patterns(from_fp32, "bf16", "x")) == [0x3F82]


@pytest.mark.cocotb
@pytest.mark.parametrize("simulator", toolchain.SIMULATORS)
def test_a_bf16_gradient_reduces_on_every_rank(tmp_path, simulator, require_simulator):
    require_simulator(simulator)
    rng = np.random.default_rng(3)
    paths = [save(tmp_path, f"g{rank}.npy", (rng.standard_normal((12, 20)) * 1e-3).astype(ml_dtypes.bfloat16))
             for rank in range(3)]
    output = tmp_path / "out.npy"
    report = reduce_job.run(paths, "bf16", "sum", str(output), False, simulator)
    assert report["mismatches_against_model"] == 0
    assert np.load(output).shape == (12, 20) and np.load(tmp_path / "out.float32.npy").dtype == np.float32
    assert json.loads((tmp_path / "out.json").read_text())["ranks"] == 3


@pytest.mark.cocotb
@pytest.mark.parametrize("simulator", toolchain.SIMULATORS)
def test_tensors_reduce_over_rdma_between_four_dpu_nodes(tmp_path, simulator, require_simulator):
    """`make reduce TRANSPORT=rdma NODES=4`: fp32 tensors of a size that is no multiple of the
    ranks, beats or PMTU, through four DPU nodes (64-bit buses, so that the suite's run is short)."""
    require_simulator(simulator)
    rng = np.random.default_rng(11)
    paths = [save(tmp_path, f"w{rank}.npy", rng.standard_normal((3, 347)).astype(np.float32)) for rank in range(4)]
    output = tmp_path / "out.npy"
    report = reduce_job.run(paths, "fp32", "sum", str(output), False, simulator, transport="rdma", nodes=4,
                            data_width=64)
    assert report["mismatches_against_model"] == 0 and report["transport"] == "rdma"
    assert np.load(output).shape == (3, 347)
    assert all(rank["done"] and rank["errors"] == 0 for rank in report["ranks_counters"])
