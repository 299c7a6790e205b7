"""The test run's own guard: a test that fails and then hangs in its teardown still ends
at its time limit (`tests.support.timeouts`), so a hung engine cannot hang the run."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from tests.support.terminal import ROOT

HANGS_AFTER_FAILING = """
import time

import pytest


@pytest.fixture
def hangs():
    yield
    time.sleep(60)


def test_fails_then_hangs(hangs):
    assert False
"""


def test_a_failed_test_s_teardown_is_held_to_its_time_limit(tmp_path: Path) -> None:
    (tmp_path / "test_hangs.py").write_text(HANGS_AFTER_FAILING)
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    command = [sys.executable, "-m", "pytest", "-p", "pytest_timeout"]
    command += ["-p", "tests.support.timeouts", "--timeout=1", "--timeout-method=thread"]
    command += ["-c", os.devnull, "--rootdir", str(tmp_path), "-q", "-p", "no:cacheprovider"]
    started = time.monotonic()
    result = subprocess.run(
        [*command, str(tmp_path)], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=20
    )
    assert time.monotonic() - started < 15, "the teardown ran on past its limit"
    assert result.returncode == 1
    assert "Timeout" in result.stdout and "in hangs" in result.stdout  # its stack
