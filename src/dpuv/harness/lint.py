# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""`make lint`: verilator --lint-only -Wall on every testbench top, with each block's waivers."""

from __future__ import annotations

import subprocess

from dpuv.harness import benches, runner, toolchain


def main() -> int:
    """Lint every bench top with every parameter set it is tested with; return 1 on any warning."""
    verilator = toolchain.find("verilator")
    toolchain.activate(verilator)
    failures = 0
    for bench in benches.BENCHES:
        sources = [str(source) for source in bench.sources() if source.suffix != benches.HEADER_SUFFIX]
        includes = [f"-I{folder}" for folder in bench.include_dirs()]
        for parameters in bench.parameter_sets:
            overrides = [f"-G{name}={value}" for name, value in parameters.items()]
            command = [str(verilator.executable), "--lint-only", "-Wall", "--top-module", bench.toplevel,
                       *overrides, *includes, *sources]
            completed = subprocess.run(command, capture_output=True, text=True)
            status = "clean" if completed.returncode == 0 else "WARNINGS"
            print(f"lint {bench.toplevel:18} {runner.parameter_slug(parameters):42} {status}")
            if completed.returncode != 0:
                failures += 1
                print(completed.stderr)
    return 1 if failures else 0
