# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Mutants: one deliberate break in the RTL that a named test must catch on every simulator.

Each area lists its mutants in `tb/<area>/manifest.toml`:

    [[mutant]]
    id = "crc-polynomial-off-by-one-bit"     # what the break does, in words
    bench = "crc32"                            # the bench whose test must fail
    file = "rtl/common/crc32.v"
    find = "32'hEDB88320"                      # the code to break
    replace = "32'hEDB88321"                   # what it becomes
    test = "known_answer"                      # the test (or test/option) that must catch it
    after = "..."                              # optional: find's first match after this anchor

`find` is matched with whitespace ignored, so re-indenting, re-aligning or re-wrapping the code
keeps the mutant valid; it must match exactly once (after `after`, when given), so a change that
removes or duplicates the site fails loudly instead of mutating something else.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from dpuv.harness import benches

_KEYS = {"id", "bench", "file", "find", "replace", "test", "after"}


class MutationSiteError(ValueError):
    """The code a mutant breaks is missing, or occurs more than once."""


def _pattern(code: str) -> re.Pattern:
    """The code with any whitespace allowed between its characters, and none required."""
    return re.compile(r"\s*".join(re.escape(character) for character in code if not character.isspace()))


@dataclass(frozen=True)
class Mutant:
    id: str
    bench: str
    file: str
    find: str
    replace: str
    test: str
    after: str = ""

    @property
    def site(self) -> str:
        """A short name for the mutation, unique per mutant: names its build folder."""
        return hashlib.sha1(f"{self.file}\0{self.find}\0{self.replace}\0{self.after}".encode()).hexdigest()[:8]

    def apply(self, text: str) -> str:
        start = 0
        if self.after:
            anchors = list(_pattern(self.after).finditer(text))
            if len(anchors) != 1:
                raise MutationSiteError(f"mutant {self.id}: its anchor {self.after!r} occurs {len(anchors)} times "
                                        f"in {self.file}; it must occur once")
            start = anchors[0].end()
            match = _pattern(self.find).search(text, start)
            matches = [match] if match else []
        else:
            matches = list(_pattern(self.find).finditer(text))
        if len(matches) != 1:
            raise MutationSiteError(f"mutant {self.id}: {self.find!r} occurs {len(matches)} times in {self.file}"
                                    f"{' after its anchor' if self.after else ''}; it must occur once "
                                    f"(add an `after` anchor, or more of the line)")
        return text[:matches[0].start()] + self.replace + text[matches[0].end():]


def _mutant(area: benches.Area, entry: dict) -> Mutant:
    where = area.folder / benches.MANIFEST_NAME
    unknown = set(entry) - _KEYS
    missing = {"id", "bench", "file", "find", "replace", "test"} - set(entry)
    if unknown or missing:
        raise benches.ManifestError(f"{where}: mutant {entry.get('id', '?')}: unknown keys {sorted(unknown)}, "
                                    f"missing {sorted(missing)}")
    mutant = Mutant(**entry)
    if mutant.bench not in {bench.name for bench in benches.BENCHES}:
        raise benches.ManifestError(f"{where}: mutant {mutant.id} names no regression bench: {mutant.bench!r}")
    if not (benches.PROJECT_ROOT / mutant.file).is_file():
        raise benches.ManifestError(f"{where}: mutant {mutant.id} breaks a file that does not exist: {mutant.file}")
    return mutant


def load(areas: tuple[benches.Area, ...] = benches.AREAS) -> tuple[Mutant, ...]:
    found: dict[str, Mutant] = {}
    for area in areas:
        for entry in area.entries("mutant"):
            mutant = _mutant(area, entry)
            if mutant.id in found:
                raise benches.ManifestError(f"mutant id {mutant.id} is used twice")
            found[mutant.id] = mutant
    return tuple(found.values())
