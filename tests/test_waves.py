# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Waveform regression: the table format, the diff, every scenario on both simulators against its
golden, and mutants that keep passing functional tests but move a handshake by a cycle."""

import shutil
from pathlib import Path

import pytest

from dpuv.harness import benches, mutants, toolchain
from dpuv.waves import diff as wavediff, regress as waveregress
from dpuv.waves.table import WaveTable, format_table, normalise, parse_table

SCENARIOS = {scenario.name: scenario for scenario in waveregress.load_scenarios()}


def test_values_normalise_the_same_on_two_and_four_state_simulators():
    assert normalise(0x1F, 12) == "01f"
    assert normalise(1, 1) == "1"
    assert normalise("0101", 4) == "5"
    assert normalise("01x1", 4) == "x"
    assert normalise("zzzz", 4) == "x"
    assert normalise(None, 8) == "x"


def test_text_form_keeps_only_changes_and_expands_back():
    table = WaveTable(["valid", "data@valid"], [["0", "-"], ["0", "-"], ["1", "2a"], ["1", "2b"], ["1", "2b"]],
                      ["a comment"])
    text = format_table(table)
    assert text.count("\n") == 6, "comment, header, three changes and the end marker"
    again = parse_table(text)
    assert again.rows == table.rows and again.signals == table.signals and again.comments == ["a comment"]


def test_first_difference_names_cycle_signal_and_values():
    golden = WaveTable(["valid", "ready"], [["0", "1"], ["1", "1"], ["1", "0"]])
    current = WaveTable(["valid", "ready"], [["0", "1"], ["1", "0"], ["1", "0"]])
    difference = wavediff.first_difference(golden, current)
    assert (difference.cycle, difference.signal, difference.golden, difference.current) == (1, "ready", "1", "0")
    assert difference.also == ()
    assert "> " not in wavediff.context(golden, current, difference).splitlines()[1]
    assert wavediff.first_difference(golden, golden) is None


def test_a_shorter_run_differs_where_it_ends():
    golden = WaveTable(["valid"], [["0"], ["1"]])
    current = WaveTable(["valid"], [["0"]])
    assert wavediff.first_difference(golden, current) == wavediff.Difference(1, "valid", "1", wavediff.MISSING)


@pytest.mark.cocotb
@pytest.mark.parametrize("simulator", toolchain.SIMULATORS)
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_matches_its_golden(name, simulator, require_simulator):
    require_simulator(simulator, waves=True)
    outcome = waveregress.check(SCENARIOS[name], simulator)
    assert outcome.passed, waveregress.describe(outcome)


def first_cycle(table: WaveTable, predicate) -> int:
    return next(cycle for cycle, row in enumerate(table.rows) if predicate(dict(zip(table.signals, row))))


# Wave mutants keep passing the functional tests but move a handshake by a cycle; the regression
# must name the first cycle where the golden shows the affected signal change.
MUTANTS = [
    pytest.param(
        "packet_fifo_drops",
        mutants.Mutant("fifo-output-one-cycle-late", "axis_fifo", "rtl/common/axis_fifo.v",
                       "wire empty = committed_pointer == read_pointer;",
                       "reg [ADDR_WIDTH:0] committed_pointer_seen;\n"
                       "always @(posedge clk) committed_pointer_seen <= committed_pointer;\n"
                       "wire empty = committed_pointer_seen == read_pointer;", "frames_arrive_intact"),
        # The first frame leaves one cycle late: the first cycle the golden offers a beat differs.
        lambda row: row["m_axis_tvalid"] == "1", "m_axis_tvalid",
        id="fifo-output-one-cycle-late"),
    pytest.param(
        "skid_buffer_under_pressure",
        mutants.Mutant("skid-ready-from-the-wrong-register", "axis_skid_buffer", "rtl/common/axis_skid_buffer.v",
                       "assign s_axis_tready = !skid_valid;", "assign s_axis_tready = !output_valid;",
                       "frames_arrive_intact"),
        # tready now follows the output register instead of the skid register.
        lambda row: row["s_axis_tready"] != ("0" if row["m_axis_tvalid"] == "1" else "1"), "s_axis_tready",
        id="skid-ready-from-the-wrong-register"),
]


@pytest.mark.cocotb
@pytest.mark.parametrize("simulator", toolchain.SIMULATORS)
@pytest.mark.parametrize("scenario_name,mutant,diverges,signal", MUTANTS)
def test_mutant_is_reported_at_the_right_cycle_and_signal(
        scenario_name, mutant, diverges, signal, simulator, tmp_path, require_simulator):
    require_simulator(simulator, waves=True)
    scenario = SCENARIOS[scenario_name]
    mutant_dir = tmp_path / "common"
    shutil.copytree(benches.PROJECT_ROOT / "rtl" / "common", mutant_dir)
    source = mutant_dir / Path(mutant.file).name
    source.write_text(mutant.apply(source.read_text()))
    bench = benches.find(scenario.bench)
    built = bench.built_from((str(mutant_dir / "common.f"),), f"wave-mutant-{source.stem}")

    outcome = waveregress.check(scenario, simulator, bench=built)

    golden = parse_table(scenario.golden_path.read_text())
    expected_cycle = first_cycle(golden, diverges)
    assert outcome.difference is not None, "the mutant matched the golden"
    assert outcome.difference.cycle == expected_cycle, waveregress.describe(outcome)
    assert signal in outcome.difference.signals, waveregress.describe(outcome)
    assert outcome.picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert outcome.kept_waves.exists() and outcome.kept_waves.stat().st_size > 0
