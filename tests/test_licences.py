# SPDX-FileCopyrightText: 2026 dpuv contributors
# SPDX-License-Identifier: Apache-2.0
"""Every file says who holds it and under which licence (the REUSE specification), so the code
can be adopted: `reuse lint` must pass on the checkout."""

import subprocess
import sys

from dpuv import PROJECT_ROOT


def test_reuse_lint_passes():
    completed = subprocess.run([sys.executable, "-m", "reuse", "--root", str(PROJECT_ROOT), "lint"],
                               capture_output=True, text=True)
    assert completed.returncode == 0, completed.stdout[-4000:] + completed.stderr[-2000:]


# Spelled in two pieces so that this file does not cite it
NEEDLE = "shared" + "/reference"


def test_nothing_points_outside_the_repository():
    """The protocol facts the code relies on are in docs/reference/; no file cites a folder
    beside the checkout."""
    tracked = subprocess.run(["git", "ls-files"], cwd=PROJECT_ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    offenders = [name for name in tracked if (PROJECT_ROOT / name).is_file()
                 and NEEDLE in (PROJECT_ROOT / name).read_text(errors="replace")]
    assert not offenders, f"files citing {NEEDLE} instead of docs/reference: {offenders}"
