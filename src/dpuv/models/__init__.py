# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Reference models written from the protocol specifications: plain Python and numpy, importable without a simulator."""
