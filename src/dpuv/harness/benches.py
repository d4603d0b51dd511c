# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Every cocotb testbench in dpuv, discovered from the areas that own them.

Each area of tb/ (common, allreduce, rdma, ...) keeps its facts in `tb/<area>/manifest.toml`: its
benches (HDL top, file lists, parameter sets), the mutants its tests must catch and its waveform
scenarios. This module reads every manifest once; `make sim`, `make list`, `make lint` and pytest
all see the same benches. Adding a bench to an area is a test file and one `[[bench]]` entry there.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from dpuv import PROJECT_ROOT

TB_ROOT = PROJECT_ROOT / "tb"
MANIFEST_NAME = "manifest.toml"
# A file list may name Verilog headers: they are not compiled on their own, their folders are
# searched by `include, and their text is part of the build fingerprint
HEADER_SUFFIX = ".vh"


class ManifestError(ValueError):
    """A manifest names something that does not exist or a key the harness does not know."""


@dataclass(frozen=True)
class Bench:
    name: str
    toplevel: str
    test_dir: str
    file_lists: tuple[str, ...]
    parameter_sets: tuple[dict[str, int], ...]
    description: str
    # Build parameters stamped from the checkout (git hash) rather than fixed here
    stamped: bool = False
    # Part of the regression (`make sim`, `make test`); tool benches (the virtual board, `make
    # reduce`) are run by their own commands only
    in_default_regression: bool = True
    # The cocotb modules in test_dir, comma separated; by default test_<name>
    module: str = ""
    # Compile Verilator's C++ at -O0: designs with hundreds of floating-point lanes otherwise
    # take minutes to build, far longer than their short simulations run
    quick_compile: bool = False
    # Runs for minutes per parameter set: the test suite starts these first, so that its two
    # workers finish together instead of one waiting on a long tail
    heavy: bool = False
    # Parameter sets (also in parameter_sets) that the suite runs only in its regress tier: the
    # long sweeps. `make sim` and `make sim TB=...` run every set.
    regress_only_sets: tuple[dict[str, int], ...] = ()
    # Parameter sets (also in parameter_sets) that the test tier runs on Verilator alone: wider or
    # larger variants of a set Icarus runs there too, taking minutes on Icarus. Every test still
    # meets both simulators in `make test`; `make regress` runs these on Icarus as well.
    icarus_regress_only_sets: tuple[dict[str, int], ...] = ()
    # cocotb tests (function names) that the test tier runs on Verilator alone: scenarios taking
    # minutes on Icarus whose bench keeps cheaper tests there, so the build still meets both
    # simulators in `make test`; `make regress` runs them on Icarus as well.
    icarus_regress_only_tests: tuple[str, ...] = ()

    def test_filter(self, regress: bool, simulator: str) -> str | None:
        """The cocotb test filter (a regular expression over module.test) a tier of the suite runs
        this bench with on a simulator: None for every test."""
        if regress or simulator != "icarus" or not self.icarus_regress_only_tests:
            return None
        held_back = "|".join(re.escape(name) for name in self.icarus_regress_only_tests)
        return rf"^(?!.*\.({held_back})$)"

    def suite_parameter_sets(self, regress: bool, simulator: str | None = None) -> tuple[dict[str, int], ...]:
        """The sets a tier of the test suite runs (on one simulator, or on any): all of them in
        regress, the rest in test."""
        if regress:
            return self.parameter_sets
        held_back = self.regress_only_sets + (self.icarus_regress_only_sets if simulator == "icarus" else ())
        return tuple(parameters for parameters in self.parameter_sets if parameters not in held_back)

    @property
    def test_module(self) -> str:
        return self.module or f"test_{self.name}"

    @property
    def area(self) -> str:
        return Path(self.test_dir).name

    def built_from(self, file_lists: tuple[str, ...], name: str) -> "Bench":
        """The same tests on other sources (a mutated RTL copy, say), in a build folder of its own."""
        return dataclasses.replace(self, name=name, module=self.test_module, file_lists=tuple(file_lists))

    def sources(self) -> list[Path]:
        """Every source file of the bench, in file-list order, waiver files included."""
        files: list[Path] = []
        for file_list in self.file_lists:
            list_path = PROJECT_ROOT / file_list  # an absolute file_list stays absolute
            for line in list_path.read_text().splitlines():
                entry = line.split("#", 1)[0].strip()
                if entry:
                    source = (list_path.parent / entry).resolve()
                    if source not in files:
                        files.append(source)
        return files

    def headers(self) -> list[Path]:
        """The Verilog headers the file lists name (sources() has them too)."""
        return [source for source in self.sources() if source.suffix == HEADER_SUFFIX]

    def include_dirs(self) -> list[Path]:
        """The folders `include searches: those of the headers, in file-list order."""
        return list(dict.fromkeys(header.parent for header in self.headers()))


@dataclass(frozen=True)
class Area:
    """One folder of tb/ and everything its manifest says."""
    name: str
    folder: Path
    manifest: dict

    def entries(self, kind: str) -> list[dict]:
        return self.manifest.get(kind, [])


# What a [[bench]] entry may say, and the Bench field each key fills
_BENCH_KEYS = {"name", "top", "file_lists", "parameter_sets", "description", "stamped", "regression", "modules",
               "quick_compile", "heavy", "regress_only_parameter_sets", "icarus_regress_only_parameter_sets",
               "icarus_regress_only_tests"}


def _parameter_sets(area: Area, entry: dict, key: str = "parameter_sets") -> tuple[dict[str, int], ...]:
    """Inline parameter sets, or the name of a list under the manifest's [sets] table."""
    value = entry.get(key, [])
    if isinstance(value, str):
        sets = area.manifest.get("sets", {})
        if value not in sets:
            raise ManifestError(f"{area.folder / MANIFEST_NAME}: bench {entry['name']} names parameter sets "
                                f"{value!r}, but [sets] has only {sorted(sets)}")
        value = sets[value]
    return tuple(dict(parameters) for parameters in value)


def _bench(area: Area, entry: dict) -> Bench:
    unknown = set(entry) - _BENCH_KEYS
    if unknown or "name" not in entry or "top" not in entry:
        raise ManifestError(f"{area.folder / MANIFEST_NAME}: a [[bench]] needs name and top and may hold "
                            f"{sorted(_BENCH_KEYS)}; got {sorted(entry)}")
    # Relative to the checkout, so build fingerprints and messages do not name where it sits
    test_dir = area.folder.relative_to(PROJECT_ROOT) if area.folder.is_relative_to(PROJECT_ROOT) else area.folder
    parameter_sets = _parameter_sets(area, entry) + _parameter_sets(area, entry, "regress_only_parameter_sets")
    icarus_regress_only = _parameter_sets(area, entry, "icarus_regress_only_parameter_sets")
    strays = [parameters for parameters in icarus_regress_only if parameters not in parameter_sets]
    if strays or len(icarus_regress_only) == len(parameter_sets) > 0:
        raise ManifestError(f"{area.folder / MANIFEST_NAME}: bench {entry['name']} holds back from Icarus "
                            f"{strays or 'every parameter set'}: it may hold back only some of its own sets")
    held_back_tests = entry.get("icarus_regress_only_tests", [])
    if held_back_tests and not all(isinstance(name, str) and name.isidentifier() for name in held_back_tests):
        raise ManifestError(f"{area.folder / MANIFEST_NAME}: bench {entry['name']}'s icarus_regress_only_tests "
                            f"must be cocotb test function names; got {held_back_tests}")
    return Bench(
        name=entry["name"], toplevel=entry["top"], test_dir=str(test_dir),
        file_lists=tuple(entry.get("file_lists", ())),
        parameter_sets=parameter_sets,
        regress_only_sets=_parameter_sets(area, entry, "regress_only_parameter_sets"),
        icarus_regress_only_sets=icarus_regress_only,
        icarus_regress_only_tests=tuple(entry.get("icarus_regress_only_tests", ())),
        description=entry.get("description", ""), stamped=entry.get("stamped", False),
        in_default_regression=entry.get("regression", True), module=",".join(entry.get("modules", ())),
        quick_compile=entry.get("quick_compile", False), heavy=entry.get("heavy", False))


def load_areas(root: Path = TB_ROOT) -> tuple[Area, ...]:
    areas = []
    for manifest_path in sorted(root.glob(f"*/{MANIFEST_NAME}")):
        with manifest_path.open("rb") as file:
            try:
                manifest = tomllib.load(file)
            except tomllib.TOMLDecodeError as error:
                raise ManifestError(f"{manifest_path}: {error}") from None
        areas.append(Area(manifest_path.parent.name, manifest_path.parent, manifest))
    return tuple(areas)


def _load_benches(areas: tuple[Area, ...]) -> tuple[Bench, ...]:
    found: dict[str, Bench] = {}
    for area in areas:
        for entry in area.entries("bench"):
            bench = _bench(area, entry)
            if bench.name in found:
                raise ManifestError(f"bench {bench.name} is declared in both {found[bench.name].test_dir} "
                                    f"and {bench.test_dir}")
            found[bench.name] = bench
    return tuple(found.values())


AREAS = load_areas()
ALL_BENCHES = _load_benches(AREAS)
# The regression: what `make sim`, `make test` and `make lint` run
BENCHES = tuple(bench for bench in ALL_BENCHES if bench.in_default_regression)


def find(name: str) -> Bench:
    """A regression bench by name."""
    for bench in BENCHES:
        if bench.name == name:
            return bench
    raise KeyError(f"unknown testbench {name!r}; choose one of: {', '.join(b.name for b in BENCHES)}")


def tool(name: str) -> Bench:
    """A tool bench (regression = false in its manifest): the virtual board, `make reduce`."""
    for bench in ALL_BENCHES:
        if bench.name == name and not bench.in_default_regression:
            return bench
    raise KeyError(f"no tool bench {name!r} in any tb/*/{MANIFEST_NAME}")
