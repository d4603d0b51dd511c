# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Waveform regression: interface signals tabulated from FST per clock edge, compared with reviewed goldens."""
