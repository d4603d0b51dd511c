# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Formal proofs (tb/formal/proofs.toml): each block's proof passes (k-induction, bounded check
and covers), and each proof catches its deliberately broken block with a counterexample trace."""

import json
from pathlib import Path

import pytest

from dpuv.harness import formal, report_page

PROOFS = formal.load_proofs()
BREAKABLE = [proof for proof in PROOFS if proof.broken]


@pytest.mark.formal
@pytest.mark.parametrize("proof", PROOFS, ids=[proof.name for proof in PROOFS])
def test_proof_holds(proof):
    result = formal.run(proof)
    assert result.passed, "\n".join(result.problems()) + "\n" + formal.table([result])


@pytest.mark.formal
@pytest.mark.parametrize("proof", BREAKABLE, ids=[proof.name for proof in BREAKABLE])
def test_broken_block_gives_a_counterexample_trace(proof, tmp_path):
    result = formal.run(proof, broken=True)
    failing = [task for task in result.tasks.values() if task.status == "FAIL"]
    assert failing, f"{proof.name}: the broken block ({proof.broken['why']}) passed every task\n" + formal.table([result])
    traces = [trace for task in failing for trace in task.traces]
    assert traces and all(trace.is_file() and trace.read_text().startswith("$") for trace in traces), \
        f"{proof.name}: a failing task left no VCD counterexample: {traces}"
    # The report links the trace, copied beside it, and draws its steps
    results = tmp_path / "results"
    formal.record([result], results)
    html = report_page.write(results).read_text()
    recorded = [trace for task in json.loads((results / "formal.json").read_text())[0]["tasks"].values()
                for trace in task["traces"]]
    assert recorded and all((results / trace).is_file() for trace in recorded), recorded
    assert f'href="{Path(recorded[0]).relative_to("report")}"' in html and 'class="trace"' in html


def test_every_proof_says_what_it_proves_and_can_be_broken():
    assert PROOFS, "tb/formal/proofs.toml lists no proof"
    for proof in PROOFS:
        assert proof.properties, f"{proof.name} lists no property"
        assert proof.broken and proof.broken.get("why"), f"{proof.name} has no broken variant with a reason"
        proof.broken_mutant().apply((formal.benches.PROJECT_ROOT / proof.broken["file"]).read_text())


def test_a_proof_naming_a_missing_file_or_unknown_key_is_refused(tmp_path):
    entry = ('[x]\ndescription = ""\nsources = ["rtl/common/missing.v"]\nharness = "tb/formal/axis_skid_buffer_formal.v"\n'
             'induction_depth = 1\nbounded_depth = 1\ncover_depth = 1\nproperties = ["p"]\n')
    (tmp_path / "missing.toml").write_text(entry)
    with pytest.raises(formal.FormalError, match="missing.v"):
        formal.load_proofs(tmp_path / "missing.toml")
    (tmp_path / "unknown.toml").write_text(entry.replace("missing.v", "axis_skid_buffer.v") + "depth = 3\n")
    with pytest.raises(formal.FormalError, match="depth"):
        formal.load_proofs(tmp_path / "unknown.toml")
