# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Reduction operands for the all-reduce benches: the bit patterns every float lane must get right,
and random operands that really round and cancel. Shared by the reducer and ring benches."""

import numpy as np

from dpuv.models.reduction import DTYPES


def edge_values(dtype_name: str) -> np.ndarray:
    """Bit patterns every float unit must get right: zeros, infinities, NaN, extremes, subnormals,
    and pairs whose exact sum lies halfway between two neighbours (round-to-even ties)."""
    dtype = DTYPES[dtype_name]
    bits, man = dtype.bits, dtype.mantissa_bits
    sign = 1 << (bits - 1)
    exponent_one = ((1 << (dtype.exponent_bits - 1)) - 1) << man
    all_ones_exponent = ((1 << dtype.exponent_bits) - 1) << man
    # e4m3fn's all-ones exponent still holds finite values; only mantissa all ones is NaN.
    largest = (all_ones_exponent | ((1 << man) - 2)) if dtype_name == "fp8_e4m3" else (all_ones_exponent - 1)
    patterns = [0, sign, 1, sign | 1, (1 << man) - 1, 1 << man, largest, sign | largest, exponent_one,
                exponent_one | 1, exponent_one | ((1 << man) - 1)]
    if dtype_name != "fp8_e4m3":
        patterns += [all_ones_exponent, sign | all_ones_exponent, all_ones_exponent | (1 << (man - 1))]
    else:
        patterns += [0x7F, 0xFF]
    half_ulp_of_one = exponent_one - ((man + 1) << man)  # 2^-(man+1): a tie when added to 1.0 or 1.0+ulp
    pairs = [(a, b) for a in patterns for b in patterns]
    pairs += [(exponent_one, half_ulp_of_one), (exponent_one | 1, half_ulp_of_one),
              (exponent_one | 1, sign | half_ulp_of_one), (largest, largest), (sign | largest, sign | largest)]
    incoming, local = zip(*pairs)
    return np.array(incoming, dtype=dtype.unsigned), np.array(local, dtype=dtype.unsigned)


def random_operands(rng: np.random.Generator, dtype_name: str, count: int):
    dtype = DTYPES[dtype_name]
    if dtype.floating:
        # Half arbitrary bit patterns (NaN, inf and subnormals included), half values near each
        # other so that sums really round and cancel.
        patterns = rng.integers(0, 1 << dtype.bits, size=(2, count // 2), dtype=np.uint64).astype(dtype.unsigned)
        scale = rng.choice([1e-3, 1.0, 50.0], size=(2, count - count // 2))
        values = (rng.standard_normal((2, count - count // 2)) * scale).astype(np.float32)
        near = values.astype(dtype.numpy_type).view(dtype.unsigned)
        return np.concatenate([patterns[0], near[0]]), np.concatenate([patterns[1], near[1]])
    info = np.iinfo(dtype.numpy_type)
    draws = rng.integers(info.min, info.max, size=(2, count), endpoint=True).astype(dtype.numpy_type)
    # The extremes, their wrap-arounds, and zero against either sign
    fixed = np.array([[info.max, info.min, info.max, -1, 0, 0], [1, -1, info.max, info.min, 0, info.min]])[:, :count]
    draws[:, :fixed.shape[1]] = fixed
    return draws[0].view(dtype.unsigned), draws[1].view(dtype.unsigned)
