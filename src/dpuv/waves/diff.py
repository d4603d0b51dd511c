# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Compare two waveform tables and say where they first part: cycle, signal, both values."""

from __future__ import annotations

from dataclasses import dataclass

from dpuv.waves.table import WaveTable

MISSING = "(none)"


@dataclass(frozen=True)
class Difference:
    cycle: int
    signal: str
    golden: str
    current: str
    # Other signals that differ in the same cycle: one cause often shows on several interfaces
    also: tuple[str, ...] = ()

    @property
    def signals(self) -> tuple[str, ...]:
        return (self.signal, *self.also)

    def __str__(self) -> str:
        text = f"first difference at cycle {self.cycle}, signal {self.signal}: golden {self.golden}, current {self.current}"
        return text + (f" (same cycle: {', '.join(self.also)})" if self.also else "")


def first_difference(golden: WaveTable, current: WaveTable) -> Difference | None:
    if golden.signals != current.signals:
        raise ValueError(f"the tables watch different signals: {golden.signals} vs {current.signals}")
    for cycle in range(max(len(golden.rows), len(current.rows))):
        differing = [(signal, golden.value(cycle, signal) or MISSING, current.value(cycle, signal) or MISSING)
                     for signal in golden.signals]
        differing = [entry for entry in differing if entry[1] != entry[2]]
        if differing:
            signal, expected, got = differing[0]
            return Difference(cycle, signal, expected, got, tuple(entry[0] for entry in differing[1:]))
    return None


def context(golden: WaveTable, current: WaveTable, difference: Difference, cycles: int = 3) -> str:
    """The rows around the difference, golden and current one above the other; * marks a change."""
    first = max(0, difference.cycle - cycles)
    last = difference.cycle + cycles
    widths = [max(len(signal), 4) for signal in golden.signals]
    lines = ["cycle        " + " ".join(signal.rjust(width) for signal, width in zip(golden.signals, widths))]
    for cycle in range(first, last + 1):
        for label, table in (("golden", golden), ("current", current)):
            cells = []
            for signal, width in zip(golden.signals, widths):
                value = table.value(cycle, signal) or MISSING
                other = (current if table is golden else golden).value(cycle, signal) or MISSING
                marker = "*" if value != other else " "
                cells.append((value + marker).rjust(width + 1))
            pointer = ">" if cycle == difference.cycle else " "
            lines.append(f"{pointer}{cycle:5} {label:7}" + "".join(cells))
    return "\n".join(lines)
