"""The layers hold: the headless modules load no UI, and no module imports upward.

Importing a headless module in a fresh interpreter must pull in neither Textual
nor Rich, and importing the storage must pull in nothing of the game or the UI.
Within the lower layers, each module's own import statements are read (the
storage package's ``__init__`` loads all of it, so only the source can show
that ``files`` stands alone).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

UI_PACKAGES = ("textual", "rich")

PACKAGE = Path(__file__).resolve().parents[1] / "ttt_tui"

CHECK = """
import sys
{body}
loaded = sorted(
    name for name in sys.modules
    if any(name == pkg or name.startswith(pkg + ".") for pkg in {packages!r})
)
print(",".join(loaded))
"""


def modules_loaded(body: str, packages: tuple[str, ...]) -> list[str]:
    """The modules of ``packages`` in sys.modules after running ``body`` in a fresh interpreter."""
    result = subprocess.run(
        [sys.executable, "-c", CHECK.format(body=body, packages=packages)],
        capture_output=True,
        text=True,
        check=True,
    )
    return [name for name in result.stdout.strip().split(",") if name]


def ui_modules_loaded(body: str) -> list[str]:
    """The Textual and Rich modules in sys.modules after running ``body`` in a fresh interpreter."""
    return modules_loaded(body, UI_PACKAGES)


def test_the_check_sees_ui_imports() -> None:
    """The probe itself works: importing Textual is noticed."""
    assert "textual" in ui_modules_loaded("import textual")


HEADLESS = [
    "ttt_tui",
    "ttt_tui.engine",
    "ttt_tui.engine.minimax",
    "ttt_tui.explainer",
    "ttt_tui.explorer",
    "ttt_tui.cli",
    "ttt_tui.game",
    "ttt_tui.hangup",
    "ttt_tui.__main__",
    "ttt_tui.jsonfields",
    "ttt_tui.settings",
    "ttt_tui.results",
    "ttt_tui.session",
    "ttt_tui.storage",
    "ttt_tui.storage.files",
    "ttt_tui.storage.model",
    "ttt_tui.storage.store",
]
"""Modules that must load without Textual or Rich."""


@pytest.mark.parametrize("module", HEADLESS)
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


ABOVE_STORAGE = ("ttt_tui.game", "ttt_tui.screens", "ttt_tui.widgets", "ttt_tui.app")
"""What the storage, the settings and the results must never load."""


@pytest.mark.parametrize(
    ("module", "above"),
    [
        ("ttt_tui.storage", ABOVE_STORAGE),
        ("ttt_tui.settings", (*ABOVE_STORAGE, "ttt_tui.storage", "ttt_tui.results")),
        ("ttt_tui.results", (*ABOVE_STORAGE, "ttt_tui.storage")),
        ("ttt_tui.session", ("ttt_tui.screens", "ttt_tui.widgets", "ttt_tui.app")),
    ],
)
def test_lower_layers_load_nothing_above_them(module: str, above: tuple[str, ...]) -> None:
    """Importing a lower layer, with all it imports in turn, loads no module above it."""
    assert modules_loaded(f"import {module}", above) == []


def test_the_layer_check_sees_an_upward_import() -> None:
    """The probe itself works: the game loads the storage it builds records for."""
    assert "ttt_tui.storage" in modules_loaded("import ttt_tui.game", ("ttt_tui.storage",))


def ttt_imports(path: Path) -> set[str]:
    """The ttt_tui modules that the import statements of the file at ``path`` name."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: relative import; the house uses absolute ones"
            assert node.module is not None
            names.add(node.module)
            # ``from ttt_tui.storage import files`` imports a module by its name.
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in names if name == "ttt_tui" or name.startswith("ttt_tui.")}


ALLOWED_IMPORTS = {
    "engine/__init__.py": ("ttt_tui.engine",),
    "engine/board.py": (),
    "engine/solver.py": (),
    "engine/opening.py": (),
    "engine/search.py": ("ttt_tui.engine",),
    "engine/minimax.py": ("ttt_tui.engine",),
    "jsonfields.py": (),
    "settings.py": ("ttt_tui.engine", "ttt_tui.jsonfields"),
    "results.py": ("ttt_tui.engine", "ttt_tui.settings"),
    "storage/files.py": (),
    "storage/model.py": (
        "ttt_tui.engine",
        "ttt_tui.jsonfields",
        "ttt_tui.results",
        "ttt_tui.settings",
    ),
    "storage/store.py": (
        "ttt_tui.jsonfields",
        "ttt_tui.settings",
        "ttt_tui.storage.files",
        "ttt_tui.storage.model",
    ),
    "storage/__init__.py": (
        "ttt_tui.jsonfields",
        "ttt_tui.storage.model",
        "ttt_tui.storage.store",
    ),
    "game.py": ("ttt_tui.engine", "ttt_tui.results", "ttt_tui.settings", "ttt_tui.storage"),
    "session.py": (
        "ttt_tui.engine",
        "ttt_tui.game",
        "ttt_tui.results",
        "ttt_tui.settings",
        "ttt_tui.storage",
    ),
    "explainer.py": ("ttt_tui.engine",),
    "explorer.py": ("ttt_tui.engine", "ttt_tui.explainer", "ttt_tui.session"),
}
"""The only ttt_tui modules (and what lies inside them) each lower module may import,
in the order of the layers: each may import only what comes before it."""


def outside(imported: set[str], allowed: tuple[str, ...]) -> list[str]:
    """The imported names that are neither an allowed module nor inside one."""
    return sorted(
        name
        for name in imported
        if not any(name == ok or name.startswith(ok + ".") for ok in allowed)
    )


def test_the_import_reader_sees_what_a_module_imports() -> None:
    """The reader itself works: the store's imports include the file I/O it writes through."""
    imported = ttt_imports(PACKAGE / "storage" / "store.py")
    assert "ttt_tui.storage.files.write_atomic" in imported
    assert outside(imported, ("ttt_tui.jsonfields", "ttt_tui.settings")) != []


@pytest.mark.parametrize("module", sorted(ALLOWED_IMPORTS))
def test_lower_modules_import_only_what_lies_below_them(module: str) -> None:
    """files.py imports nothing of ttt_tui, the model nothing of the store, the storage
    nothing of the game, and so on."""
    assert outside(ttt_imports(PACKAGE / module), ALLOWED_IMPORTS[module]) == []


@pytest.mark.parametrize("module", sorted(p.name for p in (PACKAGE / "widgets").glob("*.py")))
def test_widgets_do_not_import_the_storage(module: str) -> None:
    """Widgets are handed what they show; settings come from ttt_tui.settings."""
    imported = ttt_imports(PACKAGE / "widgets" / module)
    assert [name for name in imported if name.startswith("ttt_tui.storage")] == []


# The developer tools (benchmarks, strength tables) live in ttt_tui.devtools; the
# game must never load them, nor what they need (pyte, for one, is a test extra).

DEVTOOLS = "ttt_tui.devtools"

RUNTIME_FILES = sorted(
    path.relative_to(PACKAGE).as_posix()
    for path in PACKAGE.rglob("*.py")
    if path.relative_to(PACKAGE).parts[0] != "devtools"
)
"""Every source file of the package outside the developer tools, e.g. ``screens/game.py``."""


def module_name(file: str) -> str:
    """The dotted name of a file: ``screens/game.py`` is ``ttt_tui.screens.game``."""
    parts = ["ttt_tui", *file.removesuffix(".py").split("/")]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def devtools_imports(path: Path) -> list[str]:
    """What the file at ``path`` imports from the developer tools, anywhere in its body."""
    return sorted(
        name for name in ttt_imports(path) if name == DEVTOOLS or name.startswith(DEVTOOLS + ".")
    )


def test_the_runtime_files_leave_out_the_devtools() -> None:
    """The walk sees the runtime modules, nested ones included, and no developer tool."""
    modules = {module_name(file) for file in RUNTIME_FILES}
    assert {"ttt_tui", "ttt_tui.app", "ttt_tui.engine.search", "ttt_tui.screens.game"} <= modules
    assert not [m for m in modules if m.startswith(DEVTOOLS)]


def test_the_import_reader_sees_devtools_imports(tmp_path: Path) -> None:
    """The reader itself works: an import of devtools, even inside a function, is seen."""
    source = tmp_path / "probe.py"
    source.write_text(
        "def f():\n    import ttt_tui.devtools.bench\n    from ttt_tui import devtools\n",
        encoding="utf-8",
    )
    assert devtools_imports(source) == ["ttt_tui.devtools", "ttt_tui.devtools.bench"]


@pytest.mark.parametrize("file", RUNTIME_FILES)
def test_no_runtime_module_imports_devtools(file: str) -> None:
    """No runtime module names ttt_tui.devtools in any import statement, even a late one."""
    assert devtools_imports(PACKAGE / file) == []


def test_importing_every_runtime_module_loads_no_devtools() -> None:
    """Importing every runtime module, the app included, loads nothing from devtools."""
    body = "\n".join(f"import {module_name(file)}" for file in RUNTIME_FILES)
    assert modules_loaded(body, (DEVTOOLS,)) == []
