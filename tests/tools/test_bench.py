"""The engine benchmark: a quick run prints its tables, each row against the baseline."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.support.terminal import ROOT


def test_a_quick_run_prints_its_tables() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "tools.bench", "--quick"],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=600,
    ).stdout  # fmt: skip
    assert "549,945 nodes visited" in out
    assert re.search(
        r"\| naive minimax, first move on empty board +\| +[\d.]+ m?s .*1x \(baseline\)", out
    )
    assert re.search(
        r"\| cold import \+ analyze\(empty\), fresh process +\| .* [\d,.]+x faster", out
    )
    assert re.search(
        r"\| 5x5: a Hard move, \d+ moves of 8 games .*p95 under 1 s: (met|not met)", out
    )
    assert re.search(
        r"\| 5x5: review of a whole 25-move game, cold, 2 games .*: (met|not met)", out
    )
