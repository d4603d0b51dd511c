# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""CRC-32 as IEEE 802.3 defines it (the one zlib.crc32 and the RoCEv2 ICRC use).

Polynomial 0x04C11DB7, bits taken least significant first (so the reflected polynomial
0xEDB88320 is shifted right), register preset to all ones, result complemented.
"""

POLYNOMIAL = 0x04C11DB7
INITIAL = 0xFFFFFFFF
FINAL_XOR = 0xFFFFFFFF


def reflect(value: int, width: int) -> int:
    return int(f"{value:0{width}b}"[::-1], 2)


POLYNOMIAL_REFLECTED = reflect(POLYNOMIAL, 32)


def crc32(data: bytes, previous: int = 0) -> int:
    """CRC of `data`, continuing from a previous result like zlib.crc32(data, previous)."""
    register = previous ^ FINAL_XOR
    for byte in data:
        for bit in range(8):
            if (register ^ (byte >> bit)) & 1:
                register = (register >> 1) ^ POLYNOMIAL_REFLECTED
            else:
                register >>= 1
    return register ^ FINAL_XOR
