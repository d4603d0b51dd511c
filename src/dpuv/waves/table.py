# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Waveform tables: an allowlist of signals sampled on clock edges, as small reviewable text.

Sampling and normalisation rules, chosen so that Icarus (4-state) and Verilator (2-state) give
the same table for the same behaviour:
- Cycle 0 is the first rising edge of `clk` at which `rst` is low after having been high; or,
  for a scenario deep into a run (a controller's after enumeration), `lead` cycles before the
  first edge after that at which the `start_at` signal reads 1.
- Each signal is read just before the rising edge (one time unit earlier): the value the
  flip-flops see, never the one they are about to produce.
- Values are lowercase hex, zero-padded to the signal's width; 1-bit signals are 0 or 1.
- A signal listed as `name@qualifier` (a data field with its valid) reads `-` whenever the
  qualifier is low: data carries no meaning then, and Icarus would show X where Verilator shows 0.
- Any X or Z bit makes the whole value `x` (both kinds alike; a 2-state simulator has neither).
- In the text form a row is written only when some value changed since the previous row; the
  parser expands the rows back, so every cycle has a value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

DONT_CARE = "-"
UNKNOWN = "x"


@dataclass(frozen=True)
class SignalSpec:
    name: str
    qualifier: str | None = None

    @classmethod
    def parse(cls, text: str) -> "SignalSpec":
        name, _, qualifier = text.partition("@")
        return cls(name, qualifier or None)

    def __str__(self) -> str:
        return f"{self.name}@{self.qualifier}" if self.qualifier else self.name


@dataclass
class WaveTable:
    signals: list[str]
    rows: list[list[str]] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)

    def value(self, cycle: int, signal: str) -> str | None:
        if cycle >= len(self.rows):
            return None
        return self.rows[cycle][self.signals.index(signal)]


def normalise(raw, width: int) -> str:
    if raw is None:
        return UNKNOWN
    if isinstance(raw, str):
        if any(bit not in "01" for bit in raw):
            return UNKNOWN
        raw = int(raw, 2)
    return f"{raw:0{max(1, -(-width // 4))}x}"


def _variables(waveform, toplevel: str) -> dict:
    return {variable.full_name: variable for variable in waveform.all_vars()
            if variable.full_name.startswith(f"{toplevel}.")}


def sample(path: Path, toplevel: str, specs: list[SignalSpec], cycles: int,
           clock: str = "clk", reset: str = "rst", start_at: str | None = None, lead: int = 0) -> WaveTable:
    """Read `path` (FST or VCD) and tabulate `specs` over at most `cycles` cycles."""
    import pywellen

    waveform = pywellen.Waveform(str(path))
    variables = _variables(waveform, toplevel)
    needed = {clock, reset} | {spec.name for spec in specs} | {spec.qualifier for spec in specs if spec.qualifier}
    needed |= {start_at} if start_at else set()
    missing = sorted(name for name in needed if f"{toplevel}.{name}" not in variables)
    if missing:
        raise KeyError(f"{path} has no {', '.join(missing)} under {toplevel}")

    def reader(name):
        variable = variables[f"{toplevel}.{name}"]
        return variable.signal, variable.bitwidth

    clock_changes = variables[f"{toplevel}.{clock}"].tv
    rising_edges = [time for index, (time, value) in enumerate(clock_changes) if value == 1 and index > 0]
    reset_signal, _ = reader(reset)
    start = None
    for index, time in enumerate(rising_edges[1:], start=1):
        if reset_signal.value_at(time - 1) == 0 and reset_signal.value_at(rising_edges[index - 1] - 1) == 1:
            start = index
            break
    if start is None:
        raise ValueError(f"{path}: reset never falls, so there is no cycle 0")
    if start_at:
        trigger, _ = reader(start_at)
        first = next((index for index in range(start, len(rising_edges))
                      if normalise(trigger.value_at(rising_edges[index] - 1), 1) == "1"), None)
        if first is None:
            raise ValueError(f"{path}: {start_at} never reads 1 after reset, so there is no cycle 0")
        start = max(start, first - lead)

    table = WaveTable([str(spec) for spec in specs])
    readers = {name: reader(name) for name in needed}
    for time in rising_edges[start:start + cycles]:
        row = []
        for spec in specs:
            signal, width = readers[spec.name]
            if spec.qualifier is not None:
                qualifier_signal, _ = readers[spec.qualifier]
                qualifier = normalise(qualifier_signal.value_at(time - 1), 1)
                if qualifier != "1":
                    row.append(DONT_CARE if qualifier == "0" else UNKNOWN)
                    continue
            row.append(normalise(signal.value_at(time - 1), width))
        table.rows.append(row)
    return table


def format_table(table: WaveTable) -> str:
    lines = [f"# {comment}" for comment in table.comments]
    lines.append("cycle " + " ".join(table.signals))
    previous = None
    for cycle, row in enumerate(table.rows):
        if row != previous:
            lines.append(f"{cycle} " + " ".join(row))
            previous = row
    lines.append(f"end {len(table.rows)}")
    return "\n".join(lines) + "\n"


def parse_table(text: str) -> WaveTable:
    lines = [line for line in text.splitlines() if line.strip()]
    comments = [line[2:] for line in lines if line.startswith("# ")]
    body = [line for line in lines if not line.startswith("#")]
    signals = body[0].split()[1:]
    table = WaveTable(signals, comments=comments)
    end = int(body[-1].split()[1])
    changes = {int(fields[0]): fields[1:] for fields in (line.split() for line in body[1:-1])}
    current = None
    for cycle in range(end):
        current = changes.get(cycle, current)
        table.rows.append(list(current))
    return table
