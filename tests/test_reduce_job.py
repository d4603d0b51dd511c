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


@pytest.mark.parametrize("inputs,dtype,op,message", [
    (["a"], "bf16", "sum", "give 2 to 16 INPUTS"),
    (["a", "b"], "bf17", "sum", "unknown DTYPE"),
    (["a", "b"], "bf16", "prod", "unknown OP"),
    (["a", "missing"], "bf16", "sum", "does not exist"),
    (["a", "c"], "bf16", "sum", "same shape"),
    (["big", "big"], "int8", "sum", "do not fit int8"),
])
def test_bad_jobs_are_refused_before_simulating(tmp_path, inputs, dtype, op, message):
    arrays = {"a": np.zeros((2, 3), np.float32), "b": np.ones((2, 3), np.float32),
              "c": np.ones(7, np.float32), "big": np.array([300], np.int32)}
    paths = [save(tmp_path, f"{name}.npy", arrays[name]) if name in arrays else str(tmp_path / name) for name in inputs]
    with pytest.raises(reduce_job.JobError, match=message):
        reduce_job.prepare(paths, dtype, op, str(tmp_path / "out.npy"), False, tmp_path / "work")


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
