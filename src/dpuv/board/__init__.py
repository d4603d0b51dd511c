# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The board: byte transports to a real or virtual board, and the `dpuv bringup` command."""
