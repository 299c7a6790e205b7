"""The UI benchmark: a quick run prints every figure beside its baseline in the same run."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.support.terminal import ROOT


def test_a_quick_run_prints_its_table() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "tools.bench", "--ui", "--quick"],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=600,
    ).stdout  # fmt: skip
    figure = r"[\d.,]+ [mµ]?s"
    for measure, baseline in (
        ("CPU from launch to the first full frame, median", r"bare Textual"),
        ("arrow key to screen, median", r"bare Textual"),
        ("a browser tab's first frame, median", r"bare Textual under textual-serve"),
        (
            "explorer on 5x5, tree key to screen while counting, p95",
            r"the explorer, nothing counting",
        ),
    ):
        ratio = r"[\d.]+x \| 1.5x: (met|not met)"
        row = rf"\| {re.escape(measure)} +\| +{figure} \| +{figure} \({baseline}\) \| +{ratio}"
        assert re.search(row, out), out
