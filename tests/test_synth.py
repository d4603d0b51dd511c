# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Open synthesis: every target still synthesises for the ECP5 and stays inside its budget
(src/dpuv/harness/synth.toml); the board top also places, routes and meets its board clock."""

import pytest

from dpuv.harness import synth

TARGETS = synth.load_targets()


@pytest.mark.synth
@pytest.mark.parametrize("target", TARGETS, ids=[target.name for target in TARGETS])
def test_target_synthesises_within_budget(target):
    result = synth.synthesise(target)
    assert not result.problems(), "\n".join(result.problems()) + "\n" + synth.table([result])


def test_a_block_over_its_budget_fails():
    target = synth.Target("example", "", "board_top", {}, {"luts": 100, "ffs": 100, "brams": 1, "dsps": 0})
    within = synth.SynthResult(target, resources={"luts": 100, "ffs": 99, "brams": 1, "dsps": 0})
    assert within.problems() == []
    over = synth.SynthResult(target, resources={"luts": 101, "ffs": 99, "brams": 2, "dsps": 0})
    assert over.problems() == ["example: luts 101 over the budget of 100", "example: brams 2 over the budget of 1"]
    broken = synth.SynthResult(target, error="synthesis failed: ERROR: syntax error")
    assert broken.problems() == ["example: synthesis failed: ERROR: syntax error"]


def test_budgets_name_only_known_resources(tmp_path):
    targets = tmp_path / "synth.toml"
    targets.write_text('[x]\ndescription = ""\nbench = "board_top"\nparameters = {}\nbudget = { luts = 1, slices = 2 }\n')
    with pytest.raises(synth.SynthError, match="slices"):
        synth.load_targets(targets)


def test_ecp5_cells_become_budget_figures():
    cells = {"LUT4": 10, "CCU2C": 3, "TRELLIS_FF": 7, "DP16KD": 2, "MULT18X18D": 1, "PFUMX": 4}
    assert synth.resources_of(cells) == {"luts": 16, "ffs": 7, "brams": 2, "dsps": 1}
