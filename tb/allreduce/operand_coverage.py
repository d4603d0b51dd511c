# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The reducer's functional coverage: which classes of operand each dtype and op met, sampled by
the reducer bench's scoreboard for every element pair it checked bit-exact.

An operand is a zero, a negative zero, a subnormal, a normal number, an infinity or a NaN, by its
bit pattern under its dtype's IEEE-style layout (every non-zero integer counts as normal). A pair
whose exact sum lies outside the dtype's finite range counts once more, as an overflow: a float
sum of two finite operands that rounds to infinity (or, for e4m3fn, which has no infinity, to
NaN), an integer sum that wraps. Each distinct (dtype, op, class) of a check is sampled once,
so a hit count is the number of checks that met it."""

from __future__ import annotations

import numpy as np

from dpuv.models.reduction import DTYPES, OPS
from dpuv.tb.functional_coverage import Covergroup

CLASSES = ("zero", "negative_zero", "subnormal", "normal", "infinity", "nan", "overflow")

OPERANDS = Covergroup("allreduce.reducer_operands", {"dtype": tuple(DTYPES), "op": tuple(OPS), "operand": CLASSES},
                      crosses={"dtype_x_op_x_operand": ("dtype", "op", "operand")})


def operand_classes(bits: np.ndarray, dtype_name: str) -> np.ndarray:
    """The class name of every bit pattern in `bits`."""
    dtype = DTYPES[dtype_name]
    wide = np.asarray(bits).view(dtype.unsigned).astype(np.uint64)
    if not dtype.floating:
        return np.where(wide == 0, "zero", "normal")
    sign = wide >> (dtype.bits - 1)
    exponent = (wide >> dtype.mantissa_bits) & ((1 << dtype.exponent_bits) - 1)
    mantissa = wide & ((1 << dtype.mantissa_bits) - 1)
    all_ones = (1 << dtype.exponent_bits) - 1
    if dtype_name == "fp8_e4m3":
        # e4m3fn: the all-ones exponent still holds numbers; only S.1111.111 is NaN, and no infinity
        nan, infinity = (exponent == all_ones) & (mantissa == (1 << dtype.mantissa_bits) - 1), np.zeros_like(sign, bool)
    else:
        nan, infinity = (exponent == all_ones) & (mantissa != 0), (exponent == all_ones) & (mantissa == 0)
    zero = (exponent == 0) & (mantissa == 0)
    return np.select([nan, infinity, zero & (sign == 0), zero, exponent == 0],
                     ["nan", "infinity", "zero", "negative_zero", "subnormal"], "normal")


def overflows(incoming: np.ndarray, local: np.ndarray, dtype_name: str) -> np.ndarray:
    """Pairs whose exact sum leaves the dtype's finite range."""
    dtype = DTYPES[dtype_name]
    a = np.asarray(incoming).view(dtype.unsigned).view(dtype.numpy_type)
    b = np.asarray(local).view(dtype.unsigned).view(dtype.numpy_type)
    if not dtype.floating:
        info = np.iinfo(dtype.numpy_type)
        exact = a.astype(np.int64) + b.astype(np.int64)
        return (exact > info.max) | (exact < info.min)
    wide_a, wide_b = a.astype(np.float64), b.astype(np.float64)
    finite = np.isfinite(wide_a) & np.isfinite(wide_b)
    with np.errstate(over="ignore", invalid="ignore"):
        rounded = (wide_a + wide_b).astype(dtype.numpy_type).astype(np.float64)
    return finite & ~np.isfinite(rounded)


def sample(dtype_name: str, op: str, incoming: np.ndarray, local: np.ndarray) -> None:
    seen = set(operand_classes(incoming, dtype_name)) | set(operand_classes(local, dtype_name))
    if op == "sum" and overflows(incoming, local, dtype_name).any():
        seen.add("overflow")
    for operand in sorted(seen):
        OPERANDS.sample(dtype=dtype_name, op=op, operand=str(operand))
