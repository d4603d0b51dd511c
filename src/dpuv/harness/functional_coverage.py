# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Functional coverage of a suite run: every simulation's covergroup file (written by
dpuv.tb.functional_coverage beside the run's results) merged into one set of bins and hits.

A point's bin is its label; a cross's bin is the tuple of its points' labels (cocotb-coverage
writes it as the tuple's text, read back here). Hits add up over runs, so a bin counts as hit when
any simulation of the suite, on either simulator, hit it.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from dpuv.harness.runner import FUNCTIONAL_COVERAGE_FILE

Bin = tuple[str, ...]


@dataclass
class Item:
    """A coverpoint or cross: its bins (in the order the bench declared them) and their hits."""
    name: str
    kind: str
    hits: dict[Bin, int] = field(default_factory=dict)

    @property
    def area(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def group(self) -> str:
        return ".".join(self.name.split(".")[:2])

    def hit(self) -> list[Bin]:
        return [bin_ for bin_, count in self.hits.items() if count]

    def missed(self) -> list[Bin]:
        return [bin_ for bin_, count in self.hits.items() if not count]


def _bin(key) -> Bin:
    """cocotb-coverage writes a cross's bin as the text of a tuple, a point's bin as its label."""
    if isinstance(key, str) and key.startswith("("):
        return tuple(str(part) for part in ast.literal_eval(key))
    return (str(key),)


def files(results: Path) -> list[Path]:
    """The coverage files of the recorded runs under `results` (beside a run.json): a run that is
    meant to fail, such as a mutant's on broken RTL, records nothing and counts for nothing."""
    return sorted(path for path in results.rglob(FUNCTIONAL_COVERAGE_FILE) if (path.parent / "run.json").exists())


def merge(paths: list[Path]) -> dict[str, Item]:
    items: dict[str, Item] = {}
    for path in paths:
        for name, entry in (yaml.safe_load(path.read_text()) or {}).items():
            if "bins:_hits" not in entry:
                continue  # a covergroup or area node: its points and crosses carry the bins
            kind = "cross" if "CoverCross" in entry["type"] else "point"
            item = items.setdefault(name, Item(name, kind))
            for key, count in entry["bins:_hits"].items():
                bin_ = _bin(key)
                item.hits[bin_] = item.hits.get(bin_, 0) + int(count)
    return items


def by_area(items: dict[str, Item]) -> dict[str, list[Item]]:
    grouped: dict[str, list[Item]] = defaultdict(list)
    for item in sorted(items.values(), key=lambda item: item.name):
        grouped[item.area].append(item)
    return dict(grouped)
