# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Reference model of the all-reduce reduction unit, from docs/reference/allreduce.md and
IEEE 754-2019, in numpy (with ml_dtypes for bf16 and fp8).

Semantics (the RTL must match them bit for bit):
- Floating-point sum rounds to nearest even, keeps subnormals, and follows IEEE for infinities
  and signed zeros. It is computed exactly in fp32 and rounded once to the narrow type: for
  fp16, bf16 and fp8 fp32 has more than 2p+2 significand bits, so that double rounding is exact.
- e4m3 is OCP e4m3fn: no infinities, overflow gives NaN (ml_dtypes' conversion rule).
- max and min are IEEE 754-2019 maximum / minimum: NaN propagates, -0 < +0.
- Every NaN result is the canonical quiet NaN of its type (sign 0, see CANONICAL_NAN).
- Flush mode: subnormal inputs count as zero of their sign, subnormal results (after rounding)
  become zero of their sign.
- Integer sums wrap (two's complement); integer max / min are signed.
- bf16 accumulates by rounding after every hop (NCCL's per-hop semantics); there are no fp32
  partials in this unit.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import ml_dtypes
import numpy as np


@dataclass(frozen=True)
class DataType:
    name: str
    code: int
    numpy_type: type
    bits: int
    floating: bool
    exponent_bits: int = 0
    mantissa_bits: int = 0

    @property
    def unsigned(self):
        return {8: np.uint8, 16: np.uint16, 32: np.uint32}[self.bits]

    def lanes(self, beat_bits: int) -> int:
        return beat_bits // self.bits


DTYPES = {dtype.name: dtype for dtype in (
    DataType("fp32", 0, np.float32, 32, True, 8, 23),
    DataType("fp16", 1, np.float16, 16, True, 5, 10),
    DataType("bf16", 2, ml_dtypes.bfloat16, 16, True, 8, 7),
    DataType("int32", 3, np.int32, 32, False),
    DataType("fp8_e4m3", 4, ml_dtypes.float8_e4m3fn, 8, True, 4, 3),
    DataType("fp8_e5m2", 5, ml_dtypes.float8_e5m2, 8, True, 5, 2),
    DataType("int8", 6, np.int8, 8, False),
)}
OPS = {"sum": 0, "max": 1, "min": 2}

CANONICAL_NAN = {"fp32": 0x7FC00000, "fp16": 0x7E00, "bf16": 0x7FC0, "fp8_e4m3": 0x7F, "fp8_e5m2": 0x7E}


def _is_subnormal(bits: np.ndarray, dtype: DataType) -> np.ndarray:
    exponent = (bits.astype(np.uint32) >> dtype.mantissa_bits) & ((1 << dtype.exponent_bits) - 1)
    mantissa = bits.astype(np.uint32) & ((1 << dtype.mantissa_bits) - 1)
    return (exponent == 0) & (mantissa != 0)


def _flush(bits: np.ndarray, dtype: DataType) -> np.ndarray:
    sign_only = bits & dtype.unsigned(1 << (dtype.bits - 1))
    return np.where(_is_subnormal(bits, dtype), sign_only, bits).astype(dtype.unsigned)


def _order_key(bits: np.ndarray, dtype: DataType) -> np.ndarray:
    """Unsigned keys in numeric order for sign-magnitude patterns, -0 just below +0."""
    wide = bits.astype(np.uint64)
    sign = wide >> (dtype.bits - 1)
    magnitude = wide & ((1 << (dtype.bits - 1)) - 1)
    return np.where(sign == 1, (1 << (dtype.bits - 1)) - 1 - magnitude, (1 << (dtype.bits - 1)) + magnitude)


def combine(partial: np.ndarray, local: np.ndarray, dtype_name: str, op: str, flush: bool = False) -> np.ndarray:
    """One reduction step, element by element: partial (op) local, as bit patterns of dtype."""
    dtype = DTYPES[dtype_name]
    a = np.asarray(partial).view(dtype.unsigned)
    b = np.asarray(local).view(dtype.unsigned)
    if not dtype.floating:
        values_a, values_b = a.view(dtype.numpy_type), b.view(dtype.numpy_type)
        if op == "sum":
            return (values_a.astype(np.int64) + values_b).astype(dtype.numpy_type).view(dtype.unsigned)
        pick = np.maximum if op == "max" else np.minimum
        return pick(values_a, values_b).view(dtype.unsigned)

    if flush:
        a, b = _flush(a, dtype), _flush(b, dtype)
    float_a = a.view(dtype.numpy_type).astype(np.float32)
    float_b = b.view(dtype.numpy_type).astype(np.float32)
    nan = np.isnan(float_a) | np.isnan(float_b)
    if op == "sum":
        with np.errstate(over="ignore", invalid="ignore"):
            result = (float_a + float_b).astype(dtype.numpy_type).view(dtype.unsigned)
        nan |= np.isnan(result.view(dtype.numpy_type).astype(np.float32))
    else:
        a_first = _order_key(a, dtype) >= _order_key(b, dtype)
        if op == "min":
            a_first = _order_key(a, dtype) <= _order_key(b, dtype)
        result = np.where(a_first, a, b).astype(dtype.unsigned)
    if flush:
        result = _flush(result, dtype)
    return np.where(nan, dtype.unsigned(CANONICAL_NAN[dtype_name]), result).astype(dtype.unsigned)


def chunk_bounds(elements: int, ranks: int, lanes: int) -> list[tuple[int, int]]:
    """Element range of every chunk: the vector's beats (lanes elements each, the last one
    partial) split as evenly as whole beats allow, chunk c holding beats c*T//n to (c+1)*T//n."""
    beats = -(-elements // lanes)
    bounds = []
    for chunk in range(ranks):
        first_beat, end_beat = chunk * beats // ranks, (chunk + 1) * beats // ranks
        bounds.append((min(first_beat * lanes, elements), min(end_beat * lanes, elements)))
    return bounds


def ring_allreduce(inputs: list[np.ndarray], dtype_name: str, op: str, beat_bits: int = 512,
                   flush: bool = False) -> np.ndarray:
    """The result every rank ends with, in the ring's fixed order: chunk c is
    (((x_c op x_c+1) op x_c+2) ... op x_c+n-1), ranks taken modulo n."""
    dtype = DTYPES[dtype_name]
    ranks = len(inputs)
    vectors = [np.asarray(vector).view(dtype.unsigned) for vector in inputs]
    result = np.empty_like(vectors[0])
    for chunk, (start, end) in enumerate(chunk_bounds(len(result), ranks, dtype.lanes(beat_bits))):
        partial = vectors[chunk][start:end]
        for hop in range(1, ranks):
            partial = combine(partial, vectors[(chunk + hop) % ranks][start:end], dtype_name, op, flush)
        result[start:end] = partial
    return result


def random_vectors(rng: random.Random, ranks: int, elements: int, dtype: str) -> list[np.ndarray]:
    """One vector per rank, as the dtype's bit patterns: normal-distributed values for floating
    types (rounded to the type), any value for integers."""
    info = DTYPES[dtype]
    generator = np.random.default_rng(rng.getrandbits(32))
    if info.floating:
        values = generator.standard_normal((ranks, elements)).astype(np.float32)
        return [row.astype(info.numpy_type).view(info.unsigned) for row in values]
    return [generator.integers(0, 1 << info.bits, elements, dtype=np.uint64).astype(info.unsigned) for _ in range(ranks)]
