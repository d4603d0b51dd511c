# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""`make mutation`: the operators find the places they name and only those, a draw is the same
for the same seed, each mutant changes one line and applies to the file as it is, the benches
that build a file are found, and the score leaves out stillborn and equivalent mutants."""

import time

import pytest

from dpuv.harness import benches, mutation


def _mutated(line: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for mutant in mutation._line_mutations("rtl/common/x.v", 1, line):
        found.setdefault(mutant.kind, set()).add(mutant.mutated)
    return found


def test_each_operator_changes_what_it_names():
    assert _mutated("assign ready = valid && (count != 4'd3);") == {
        "logic": {"assign ready = valid || (count != 4'd3);"},
        "compare": {"assign ready = valid && (count == 4'd3);"},
    }
    assert _mutated("        count <= count + 1'b1;") == {
        "arith": {"        count <= count - 1'b1;"},
        "constant": {"        count <= count + 1'b0;"},
        "held": {"        count <= count;"},
    }
    found = _mutated("    if (level >= limit) begin")
    assert found["compare"] == {"    if (level > limit) begin"}
    assert found["dropped"] == {"    if (1'b1) begin"}
    assert found["negated"] == {"    if (!(level >= limit)) begin"}


def test_bit_ranges_part_selects_shifts_and_comments_are_left_alone():
    assert _mutated("assign low = data[WIDTH-1:0] >> 2; // a + b < c") == {}
    assert "arith" not in _mutated("assign lane = data[index*8 +: 8];")
    assert _mutated("assign mask = {WIDTH{1'b1}} << shift;") == {"constant": {"assign mask = {WIDTH{1'b0}} << shift;"}}


def test_initial_blocks_declarations_and_formal_code_are_not_mutated(tmp_path, monkeypatch):
    monkeypatch.setattr(benches, "PROJECT_ROOT", tmp_path)
    source = tmp_path / "rtl" / "x.v"
    source.parent.mkdir()
    source.write_text("\n".join([
        "module x #(parameter W = 8 + 1) (input wire a, output reg b);",
        "initial begin",
        "    if (W < 2) $error(\"no\");",
        "end",
        "wire [W-1:0] c;",
        "`ifdef FORMAL",
        "always @(*) if (a) assert(b == 1'b1);",
        "`endif",
        "always @(posedge a) b <= !b && a;",
        "endmodule",
    ]))
    found = mutation.mutations_of(source)
    assert found and {mutant.line for mutant in found} == {9}
    mutant = next(m for m in found if m.kind == "logic")
    text = mutant.apply(source.read_text())
    assert "b <= !b || a;" in text and text.count("\n") == source.read_text().count("\n")
    with pytest.raises(mutation.MutationError, match="no longer"):
        mutant.apply(source.read_text().replace("!b && a", "!b & a"))
    assert "@@ -9 +9 @@" in mutant.diff() and "+always @(posedge a) b <= !b || a;" in mutant.diff()


def test_a_draw_is_fixed_by_its_seed_and_draws_from_the_area():
    first = mutation.draw("common", 30, seed=4)
    assert first == mutation.draw("common", 30, seed=4) and len(first) == 30
    assert first != mutation.draw("common", 30, seed=5)
    assert all(mutant.file.startswith("rtl/common/") for mutant in first)
    assert len({mutant.id for mutant in first}) == 30
    with pytest.raises(mutation.MutationError, match="no RTL area 'nowhere'"):
        mutation.draw("nowhere", 3, seed=1)


def test_a_survivor_is_chosen_again_by_the_id_its_report_printed():
    drawn = mutation.draw("common", 5, seed=4)
    assert mutation.chosen("common", [drawn[3].id, drawn[1].id]) == [drawn[3], drawn[1]]
    with pytest.raises(mutation.MutationError, match="no mutant"):
        mutation.chosen("common", ["crc32.v:1:0:held"])


def test_a_mutant_runs_against_the_benches_whose_design_holds_its_module():
    # The common file list compiles every common block; the crc32 bench holds only crc32
    assert "crc32" in mutation.instantiated_modules(benches.find("crc32"))
    assert "axi_dma_read" not in mutation.instantiated_modules(benches.find("crc32"))
    assert [bench.name for bench in mutation.benches_for("rtl/common/axi_dma_read.v", "common")] == ["axi_dma_read"]
    # The responder is held by the RDMA area's engine benches, and no bench of the cluster area's
    responder = mutation.benches_for("rtl/rdma/roce_responder.v", "rdma")
    assert responder and all(bench.area == "rdma" for bench in responder) and len(responder) <= mutation.MAX_BENCHES
    # A module no bench of its area holds is tried on the others' (the collective engine: the
    # cluster's benches, cheapest first, then the board build that carries two nodes)
    collective = mutation.benches_for("rtl/collective/collective_engine.v", "collective")
    assert collective[0].area == "cluster" and {bench.area for bench in collective} <= {"cluster", "bringup"}


def test_the_score_counts_only_live_mutants():
    mutants = mutation.draw("common", 4, seed=1)
    results = [mutation.MutantResult(mutants[0], "killed"), mutation.MutantResult(mutants[1], "survived"),
               mutation.MutantResult(mutants[2], "survived"), mutation.MutantResult(mutants[3], "stillborn")]
    assert mutation.score(results, {}) == (1, 2, 1, 0, 1 / 3)
    assert mutation.score(results, {mutants[2].id: "same value either way"}) == (1, 2, 1, 1, 0.5)
    # A survivor of the 2-state draw that Icarus kills counts as killed
    assert mutation.score(results, {}, {mutants[1].id: "its test fails on Icarus"}) == (2, 1, 1, 0, 2 / 3)


def test_the_triage_knows_its_verdicts_and_wants_a_reason_for_each(tmp_path, monkeypatch):
    monkeypatch.setattr(mutation.benches, "TB_ROOT", tmp_path)
    (tmp_path / "area").mkdir()
    triage = tmp_path / "area" / "mutation_triage.toml"
    assert mutation.triage("area") == {"equivalent": {}, "killed_on_icarus": {}}
    triage.write_text('[equivalent]\n"a.v:1:0:held" = "never read"\n[killed_on_icarus]\n"a.v:2:0:held" = "X on Icarus"\n')
    assert mutation.triage("area") == {"equivalent": {"a.v:1:0:held": "never read"},
                                       "killed_on_icarus": {"a.v:2:0:held": "X on Icarus"}}
    triage.write_text('[killed_on_icarus]\n"a.v:2:0:held" = " "\n')
    with pytest.raises(mutation.MutationError, match="without a reason"):
        mutation.triage("area")
    triage.write_text('[harmless]\n"a.v:2:0:held" = "trust me"\n')
    with pytest.raises(mutation.MutationError, match="no verdict"):
        mutation.triage("area")


def test_mutants_side_by_side_keep_their_order_and_never_share_a_worker(monkeypatch):
    drawn = mutation.draw("common", 6, seed=2)
    running: set[int] = set()
    seen: list[int] = []

    def fake_run(mutant, scratch, area, worker, simulator):
        # Each worker has its own RTL copy and build folders: two mutants at once must differ
        assert worker not in running and scratch.name == f"worker{worker}", (worker, running)
        assert simulator == "icarus"
        running.add(worker)
        seen.append(worker)
        time.sleep(0.05)
        running.discard(worker)
        return mutation.MutantResult(mutant, "killed")

    monkeypatch.setattr(mutation, "run_mutant", fake_run)
    results = mutation.run_all(drawn, "common", jobs=2, simulator="icarus")
    assert [result.mutation for result in results] == drawn and set(seen) == {0, 1}
