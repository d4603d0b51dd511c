# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Open synthesis: every light target synthesises and stays inside its budget
(src/dpuv/harness/synth.toml), the board top also placed, routed and meeting its board clock;
every heavy target (the engines, minutes each: `make synth`) still elaborates for synthesis."""

import pytest

from dpuv.harness import synth

TARGETS = synth.load_targets()
LIGHT = [target for target in TARGETS if not target.heavy]
HEAVY = [target for target in TARGETS if target.heavy]


@pytest.mark.synth
@pytest.mark.parametrize("target", LIGHT, ids=[target.name for target in LIGHT])
def test_target_synthesises_within_budget(target):
    result = synth.synthesise(target)
    assert not result.problems(), "\n".join(result.problems()) + "\n" + synth.table([result])


@pytest.mark.synth
@pytest.mark.parametrize("target", HEAVY, ids=[target.name for target in HEAVY])
def test_heavy_target_still_elaborates_for_synthesis(target):
    problem = synth.elaborate(target)
    assert problem is None, problem


def test_every_engine_has_a_target_on_both_families():
    engines = {"rdma_engine", "allreduce_rank", "nvme_controller", "dpu_node"}
    for family in synth.FAMILIES:
        assert engines <= {target.top for target in TARGETS if target.family == family}, family


def test_elaboration_finds_a_latch(tmp_path, monkeypatch):
    source = tmp_path / "latched.v"
    source.write_text("module latched(input wire a, input wire b, output reg q);\n"
                      "always @* begin if (a) q = b; end\nendmodule\n")
    monkeypatch.setattr(synth, "BUILD_ROOT", tmp_path / "build")
    target = synth.Target("latched", "", "board_top", {}, {}, module="latched")
    monkeypatch.setattr(synth.Target, "sources", lambda self: [source])
    monkeypatch.setattr(synth.Target, "include_dirs", lambda self: [])
    problem = synth.elaborate(target)
    assert problem is not None and "elaboration failed" in problem, problem


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
    targets.write_text('[x]\ndescription = ""\nbench = "board_top"\nparameters = {}\nbudget = { urams = 1 }\n')
    with pytest.raises(synth.SynthError, match="urams"):
        synth.load_targets(targets)  # an ECP5 has no UltraRAM
    targets.write_text('[x]\ndescription = ""\nbench = "board_top"\nfamily = "xc7"\nparameters = {}\nbudget = {}\n')
    with pytest.raises(synth.SynthError, match="unknown family"):
        synth.load_targets(targets)


def test_ultrascale_cells_become_budget_figures():
    cells = {"LUT6": 10, "LUT2": 3, "LUT6_2": 1, "RAM64M": 2, "SRLC32E": 1, "FDRE": 5, "FDSE": 1, "FDCE": 1,
             "RAMB36E2": 2, "RAMB18E2": 3, "URAM288": 4, "DSP48E2": 6, "CARRY4": 9, "MUXF7": 2}
    assert synth.resources_of(cells, "xcup") == {"luts": 23, "ffs": 7, "brams": 4, "urams": 4, "dsps": 6}


def test_logic_levels_count_luts_and_muxes_and_carry8_by_pairs_of_carry4():
    assert synth.logic_levels(["LUT3", "CARRY4", "CARRY4", "CARRY4", "LUT6", "MUXF7", "INV"]) == 5
    ltp = ("Longest topological path in top (length=3):\n    0: \\a [1]\n"
           "    1: $n1 (via $lut1)\n    2: \\q_next [0] (via \\carry)\n")
    assert synth.path_steps(ltp) == [("a [1]", ""), ("$n1", "$lut1"), ("q_next [0]", "carry")]


def test_ecp5_cells_become_budget_figures():
    cells = {"LUT4": 10, "CCU2C": 3, "TRELLIS_FF": 7, "DP16KD": 2, "MULT18X18D": 1, "PFUMX": 4}
    assert synth.resources_of(cells) == {"luts": 16, "ffs": 7, "brams": 2, "dsps": 1}
