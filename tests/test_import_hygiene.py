"""The headless modules load no UI: importing them pulls in neither Textual nor Rich."""

from __future__ import annotations

import subprocess
import sys

import pytest

UI_PACKAGES = ("textual", "rich")

CHECK = """
import sys
{body}
loaded = sorted(
    name for name in sys.modules
    if any(name == pkg or name.startswith(pkg + ".") for pkg in {packages!r})
)
print(",".join(loaded))
"""


def ui_modules_loaded(body: str) -> list[str]:
    """The Textual and Rich modules in sys.modules after running ``body`` in a fresh interpreter."""
    result = subprocess.run(
        [sys.executable, "-c", CHECK.format(body=body, packages=UI_PACKAGES)],
        capture_output=True,
        text=True,
        check=True,
    )
    return [name for name in result.stdout.strip().split(",") if name]


def test_the_check_sees_ui_imports() -> None:
    """The probe itself works: importing Textual is noticed."""
    assert "textual" in ui_modules_loaded("import textual")


@pytest.mark.parametrize(
    "module",
    [
        "ttt_tui",
        "ttt_tui.engine",
        "ttt_tui.cli",
        "ttt_tui.game",
        "ttt_tui.session",
        "ttt_tui.storage",
        "ttt_tui.__main__",
    ],
)
def test_headless_module_imports_no_ui(module: str) -> None:
    """Importing a headless module leaves Textual and Rich unloaded."""
    assert ui_modules_loaded(f"import {module}") == []


def test_analyze_command_runs_without_ui() -> None:
    """`ttt-tui analyze` does its work without loading Textual or Rich."""
    body = (
        "import contextlib, io\n"
        "from ttt_tui.__main__ import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    assert main(['analyze', 'X........']) == 0\n"
        "assert 'draw' in out.getvalue()\n"
    )
    assert ui_modules_loaded(body) == []
