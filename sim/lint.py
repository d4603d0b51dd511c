"""`make lint`: verilator --lint-only -Wall on every testbench top, with each block's waivers."""

from __future__ import annotations

import subprocess

from dpuv.sim import benches, toolchain


def main() -> int:
    verilator = toolchain.find("verilator")
    toolchain.activate(verilator)
    failures = 0
    for top, sources in sorted({bench.toplevel: tuple(bench.sources()) for bench in benches.BENCHES}.items()):
        command = [str(verilator.executable), "--lint-only", "-Wall", "--top-module", top, *map(str, sources)]
        completed = subprocess.run(command, capture_output=True, text=True)
        status = "clean" if completed.returncode == 0 else "WARNINGS"
        print(f"lint {top:20} {status}")
        if completed.returncode != 0:
            failures += 1
            print(completed.stderr)
    return 1 if failures else 0
