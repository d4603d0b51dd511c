# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Picture of where two waveform tables part: golden above current, signal by signal."""

from __future__ import annotations

from pathlib import Path

from dpuv.waves.diff import MISSING, Difference
from dpuv.waves.table import DONT_CARE, UNKNOWN, WaveTable

GOLDEN_COLOUR = "#1f6f3f"
CURRENT_COLOUR = "#1f4f9f"
ALERT_COLOUR = "#c03030"


def _lane(axes, table: WaveTable, signal: str, cycles: range, base: float, colour: str, label: str) -> None:
    from matplotlib.patches import Rectangle

    values = [table.value(cycle, signal) or MISSING for cycle in cycles]
    one_bit = all(value in ("0", "1", DONT_CARE, UNKNOWN, MISSING) for value in values)
    for offset, value in enumerate(values):
        left, right = cycles.start + offset, cycles.start + offset + 1
        if value in (UNKNOWN, MISSING):
            axes.fill_between([left, right], base, base + 0.6, color=ALERT_COLOUR, alpha=0.25, linewidth=0)
        elif one_bit and value in ("0", "1"):
            level = base + (0.6 if value == "1" else 0.0)
            axes.plot([left, right], [level, level], color=colour, linewidth=1.6)
            following = values[offset + 1] if offset + 1 < len(values) else value
            if following in ("0", "1") and following != value:
                axes.plot([right, right], [base, base + 0.6], color=colour, linewidth=1.6)
        else:
            axes.add_patch(Rectangle((left + 0.05, base), 0.9, 0.6, fill=value != DONT_CARE,
                                     facecolor=colour, alpha=0.15, edgecolor=colour))
            if value != DONT_CARE:
                axes.text(left + 0.5, base + 0.3, value[-4:], ha="center", va="center", fontsize=6)
    axes.text(cycles.start - 0.3, base + 0.3, f"{signal} ({label})", ha="right", va="center", fontsize=7,
              color=colour)


def draw(golden: WaveTable, current: WaveTable, difference: Difference, path: Path, half_window: int = 10) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as pyplot

    cycles = range(max(0, difference.cycle - half_window), difference.cycle + half_window + 1)
    signals = golden.signals
    figure, axes = pyplot.subplots(figsize=(14, 0.75 * len(signals) * 2 + 1.2))
    row = 0
    for signal in reversed(signals):
        _lane(axes, current, signal, cycles, row, CURRENT_COLOUR, "current")
        _lane(axes, golden, signal, cycles, row + 0.9, GOLDEN_COLOUR, "golden")
        if signal == difference.signal:
            axes.axhspan(row - 0.1, row + 1.6, color=ALERT_COLOUR, alpha=0.07)
        row += 2.2
    axes.axvspan(difference.cycle, difference.cycle + 1, color=ALERT_COLOUR, alpha=0.2)
    axes.set_xlim(cycles.start - 0.2, cycles.stop)
    axes.set_ylim(-0.4, row)
    axes.set_yticks([])
    axes.set_xticks(list(cycles))
    axes.tick_params(axis="x", labelsize=6)
    axes.set_xlabel("cycle (0 = first edge after reset)")
    axes.set_title(str(difference), fontsize=9, color=ALERT_COLOUR)
    figure.subplots_adjust(left=0.22, right=0.99, top=0.95, bottom=0.08)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    pyplot.close(figure)
    return path
