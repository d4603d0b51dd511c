# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""`make regs` and `make regs-check`: every file generated from a single source, made anew or
checked against a fresh generation.

Each generator module offers generate() (write its outputs, return their paths) and check()
(the committed outputs that differ from a fresh generation): the register maps from SystemRDL
(dpuv.regs.generate) and the RDMA host interface from its table (dpuv.drivers.rdma_host_interface).
"""

from __future__ import annotations

import argparse
import sys

from dpuv import PROJECT_ROOT
from dpuv.drivers import rdma_host_interface
from dpuv.regs import generate as register_maps

GENERATORS = (register_maps, rdma_host_interface)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="only report stale generated files")
    arguments = parser.parse_args()
    if arguments.check:
        stale = [path for generator in GENERATORS for path in generator.check()]
        for path in stale:
            print(f"stale: {path} (run `make regs`)")
        return 1 if stale else 0
    for generator in GENERATORS:
        for path in generator.generate():
            print(f"wrote {path.relative_to(PROJECT_ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
