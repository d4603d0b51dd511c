# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""dpuv: a verification suite for DPU offload engines.

One package per job, each importable on its own:

- dpuv.models   reference models written from the specifications (pure Python and numpy)
- dpuv.regs     the register access interface, its backends, the generated register maps, the chain walk
- dpuv.drivers  host driver models: what host software does to run each engine
- dpuv.board    the board link's byte transports and the `dpuv bringup` command
- dpuv.tb       the testbench library cocotb benches share (clock, reset, buses, independent decoders)
- dpuv.harness  benches and their discovery, runner, toolchain, CLI, lint, synthesis, targets, report
- dpuv.waves    waveform regression: tables read from FST, their differences, pictures
"""

from pathlib import Path

# The checkout this package runs from (installed editable): RTL, benches and results live there
PROJECT_ROOT = Path(__file__).resolve().parents[2]
