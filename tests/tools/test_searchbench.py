"""The search benchmark: a quick run prints its tables, each beside its baseline."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.support.terminal import ROOT


def test_a_quick_run_prints_its_tables() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "tools.bench", "--search", "--quick"],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=600,
    ).stdout  # fmt: skip
    figure = r"[\d.,]+ [mµ]?s"
    ratio = r"[\d.]+x \| 1.5x: (met|not met)"
    row = rf"\| arrow key to screen, p95 +\| +{figure} \| +{figure} \| +{ratio}"
    assert re.search(row, out), out
    assert re.search(rf"\| tiny analysis, the process idle \(baseline\) +\| +{figure} \|", out), out
    assert re.search(r"\| the cancelled search went on .*worst under 100 ms: (met|not met)", out), (
        out
    )
