# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Functional coverage: covergroups that the benches' scoreboards sample, saved per simulation.

A covergroup is declared as data (its coverpoints with their bins, and crosses of them) and built
on cocotb-coverage's database (CoverPoint, CoverCross), so its names, bins and hit counts are
cocotb-coverage's own. Items are named `<area>.<group>.<point>`; the area (rdma, storage,
allreduce, ...) is what the merge groups them by.

Every simulation writes its whole database, items hit or not, to the YAML file the runner names
in DPUV_FUNCTIONAL_COVERAGE_FILE when the simulator shuts down; dpuv.harness.functional_coverage
merges the files of a suite run per area and checks them against the testplans. Without the
variable (a bench run by hand outside the runner) nothing is written.

Bins are labels: a bench classifies what it saw (an operand is "subnormal", a transfer uses a
"prp_list") before sampling, so each classification rule is written once, next to its group.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

# The harness reads this module for the variable's name, so cocotb-coverage (which imports cocotb)
# is imported only where groups are built and saved, inside a simulation
FILE_VARIABLE = "DPUV_FUNCTIONAL_COVERAGE_FILE"

_save_registered = False


@dataclass(frozen=True)
class Covergroup:
    """`points`: each coverpoint's name and bins, in sampling order; `crosses`: a cross's name
    and the points it crosses (every combination of their bins is a bin of the cross)."""
    name: str
    points: dict[str, Sequence[str]]
    crosses: dict[str, Sequence[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.name.count(".") != 1:
            raise ValueError(f"covergroup {self.name!r}: name it <area>.<group>")
        for cross, crossed in self.crosses.items():
            unknown = [point for point in crossed if point not in self.points]
            if unknown or len(crossed) < 2:
                raise ValueError(f"covergroup {self.name}: cross {cross} needs two or more of its points, not {unknown}")
        from cocotb_coverage import coverage as cocotb_coverage
        _register_save()
        sampler = _no_op
        for index, (point, bins) in enumerate(self.points.items()):
            sampler = cocotb_coverage.CoverPoint(f"{self.name}.{point}", xf=_select(index), bins=list(bins))(sampler)
        for cross, crossed in self.crosses.items():
            sampler = cocotb_coverage.CoverCross(f"{self.name}.{cross}",
                                                 items=[f"{self.name}.{point}" for point in crossed])(sampler)
        object.__setattr__(self, "_sampler", sampler)

    def sample(self, **values: str) -> None:
        """One observation: a bin label for every point (a label outside a point's bins is a bug
        in the bench's classification, and fails loudly rather than counting nowhere)."""
        if set(values) != set(self.points):
            raise ValueError(f"covergroup {self.name}: sample every point {list(self.points)}, got {list(values)}")
        for point, label in values.items():
            if label not in self.points[point]:
                raise ValueError(f"covergroup {self.name}: {label!r} is not a bin of {point} {list(self.points[point])}")
        self._sampler(*(values[point] for point in self.points))

    def sample_each(self, observations: Iterable[dict[str, str]]) -> None:
        for values in observations:
            self.sample(**values)


def _no_op(*values: str) -> None:
    pass


def _select(index: int):
    return lambda *values: values[index]


def _register_save() -> None:
    """Write the database when the simulator shuts down (every test of the run has sampled by
    then). cocotb 2 has no public end-of-simulation hook; cocotb.__init__ uses this one for its
    own code coverage, and cocotb is pinned in requirements.lock."""
    global _save_registered
    if _save_registered or not os.environ.get(FILE_VARIABLE):
        return
    import cocotb._shutdown
    cocotb._shutdown.register(save)
    _save_registered = True


def save() -> None:
    from cocotb_coverage import coverage as cocotb_coverage
    path = os.environ.get(FILE_VARIABLE)
    if path:
        cocotb_coverage.coverage_db.export_to_yaml(path)
