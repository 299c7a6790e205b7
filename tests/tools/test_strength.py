"""The strength tool: a short run prints its table and the levels' ordering."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.support.terminal import ROOT


def test_a_short_run_prints_its_table() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "tools.strength", "--games", "20", "--seed", "3"],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=600,
    ).stdout  # fmt: skip
    assert "20 games a row, seed 3" in out
    assert re.search(r"^\| level +\| opponent \| plays \| win % \| draw % \| loss % \|$", out, re.M)
    assert len(re.findall(r"^\| (easy|medium|hard) ", out, re.M)) == 12
    assert "Ordering Easy < Medium < Hard is" in out
