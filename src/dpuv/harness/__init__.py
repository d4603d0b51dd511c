# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""The harness: benches discovered from tb/<area>/, runner, toolchain, CLI, lint, synthesis, targets and report."""
