"""The data benchmark: a tiny run prints every row beside the empty directory's figure."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.support.terminal import ROOT
from tools import uibench


def test_a_tiny_run_prints_its_table() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "tools.bench", "--data", "--sizes", "100", "--runs", "1"],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=600,
    ).stdout  # fmt: skip
    assert re.search(r"\| measure +\| empty directory \| +100 games \| target at 100 +\|", out)
    figure = r"[\d.,]+ (?:[mµ]?s|MiB)"
    for label, *_ in uibench.DATA_ROWS:
        assert re.search(rf"\| {re.escape(label)} +\| +{figure} \| +{figure}", out), label
