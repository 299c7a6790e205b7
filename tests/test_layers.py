"""The layers hold: the pure folders load no UI, and no module imports upward.

The layers are the package's folders, read from the tree itself: every module in
a folder is covered without a list to keep. Each layer may import only itself and
the layers below it (`LAYERS`, lowest first); the pure ones load neither Textual
nor Rich. What the wheel holds imports no developer tool and no test-only package.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

UI_PACKAGES = ("textual", "rich")

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "ttt_tui"

LAYERS: tuple[tuple[str, tuple[str, ...], bool], ...] = (
    ("proc", (), True),
    ("engine", (), True),
    ("play", ("engine",), True),
    ("teach", ("engine", "play"), True),
    ("storage", ("engine", "play"), True),
    ("online", ("engine", "play", "storage"), True),
    ("search", ("engine", "proc"), True),
    ("bots", ("engine", "play", "teach", "proc"), True),
    ("compat", (), False),
    ("widgets", ("engine", "play", "teach", "compat"), False),
    (
        "screens",
        (
            "engine",
            "play",
            "teach",
            "storage",
            "online",
            "search",
            "bots",
            "proc",
            "compat",
            "widgets",
        ),
        False,
    ),
    (
        "app",
        ("engine", "play", "storage", "search", "bots", "proc", "compat", "widgets", "screens"),
        False,
    ),
    (
        "commands",
        (
            "engine",
            "play",
            "teach",
            "storage",
            "online",
            "bots",
            "proc",
            "compat",
            "widgets",
            "screens",
            "app",
        ),
        False,
    ),
    (
        "__main__",
        ("engine", "play", "storage", "commands"),
        True,
    ),
)
"""Each layer (a folder of the package, or a module at its root), what it may import
besides itself, and whether it is pure (loads no Textual or Rich). Lowest first:
every layer may import only layers listed before it. ``ttt_tui`` itself (the
version) may be imported from anywhere."""

LAYER_NAMES = [name for name, _, _ in LAYERS]


def layer_of(path: Path) -> str:
    """The layer of a file of the package: its folder, or its own name at the root."""
    parts = path.relative_to(PACKAGE).parts
    return parts[0] if len(parts) > 1 else parts[0].removesuffix(".py")


def module_name(path: Path) -> str:
    """The dotted name of a file: ``screens/game.py`` is ``ttt_tui.screens.game``."""
    parts = ["ttt_tui", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


SOURCES = sorted(PACKAGE.rglob("*.py"))
"""Every source file of the package."""

LAYERED = [path for path in SOURCES if path != PACKAGE / "__init__.py"]
"""Every file that belongs to a layer: all but the package's own ``__init__``."""


def imports_of(path: Path) -> set[str]:
    """Every module the import statements of the file at ``path`` name, anywhere in it."""
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
    return names


def layers_imported(path: Path) -> set[str]:
    """The layers of ttt_tui that the file at ``path`` imports from."""
    layers = set()
    for name in imports_of(path):
        parts = name.split(".")
        if parts[0] == "ttt_tui" and len(parts) > 1 and parts[1] in LAYER_NAMES:
            layers.add(parts[1])
    return layers


def test_every_file_is_in_a_layer() -> None:
    """No module sits at the root or in a folder the layers do not name: the root holds
    the entry points only."""
    assert {layer_of(path) for path in LAYERED} == set(LAYER_NAMES)


def test_the_layers_only_look_down() -> None:
    """The allowed imports of each layer come before it, so no import can run upward
    or in a circle."""
    for index, (name, below, _) in enumerate(LAYERS):
        assert set(below) <= set(LAYER_NAMES[:index]), name


@pytest.mark.parametrize("path", LAYERED, ids=lambda path: str(path.relative_to(PACKAGE)))
def test_a_module_imports_only_its_layer_and_those_below(path: Path) -> None:
    """Each module's imports, late ones inside functions included, stay in its layer or
    below it."""
    layer = layer_of(path)
    allowed = {layer, *dict((name, below) for name, below, _ in LAYERS)[layer]}
    assert layers_imported(path) - allowed == set()


def test_the_import_reader_sees_an_upward_import(tmp_path: Path) -> None:
    """The reader itself works: an import of a higher layer, even a late one, is seen."""
    source = tmp_path / "probe.py"
    source.write_text(
        "def f():\n    from ttt_tui.screens.game import GameScreen\n    import ttt_tui.app\n",
        encoding="utf-8",
    )
    assert layers_imported(source) == {"screens", "app"}


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
        cwd=ROOT,
        timeout=20,  # within the test's own limit: a stuck probe is killed, not left behind
    )
    return [name for name in result.stdout.strip().split(",") if name]


def test_the_check_sees_ui_imports() -> None:
    """The probe itself works: importing Textual is noticed."""
    assert "textual" in modules_loaded("import textual", UI_PACKAGES)


PURE = [
    module_name(path)
    for path in SOURCES
    if path == PACKAGE / "__init__.py"
    or layer_of(path) in {name for name, _, pure in LAYERS if pure}
]
"""Every module of the pure layers, read from the tree."""


def test_the_pure_modules_are_found() -> None:
    """The walk sees the pure folders' modules, a new one included without a list."""
    assert {"ttt_tui.engine.search", "ttt_tui.play.session", "ttt_tui.storage.store"} <= set(PURE)
    assert "ttt_tui.screens.game" not in PURE


def test_no_pure_module_loads_ui() -> None:
    """Importing the pure modules, with all they import in turn, leaves Textual and Rich
    unloaded. All at once in one interpreter: what each loads alone is part of what they
    load together. Where something is loaded, each module is tried alone to name it."""
    body = "\n".join(f"import {module}" for module in PURE)
    if modules_loaded(body, UI_PACKAGES):
        culprits = [module for module in PURE if modules_loaded(f"import {module}", UI_PACKAGES)]
        raise AssertionError(f"these pure modules load Textual or Rich: {culprits}")


@pytest.mark.parametrize("layer", [name for name, _, _ in LAYERS if (PACKAGE / name).is_dir()])
def test_a_layer_loads_nothing_above_it(layer: str) -> None:
    """Importing every module of a folder loads no module of a layer it may not import."""
    allowed = {layer, *dict((name, below) for name, below, _ in LAYERS)[layer]}
    modules = [module_name(path) for path in LAYERED if layer_of(path) == layer]
    body = "\n".join(f"import {module}" for module in modules)
    others = tuple(f"ttt_tui.{name}" for name in LAYER_NAMES if name not in allowed)
    assert modules_loaded(body, others) == []


def test_analyze_command_runs_without_ui() -> None:
    """`ttt-tui analyze` does its work without loading Textual or Rich."""
    body = (
        "import contextlib, io\n"
        "from ttt_tui.__main__ import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    assert main(['analyze', 'X........']) == 0\n"
        "assert 'draw' in out.getvalue()\n"
    )
    assert modules_loaded(body, UI_PACKAGES) == []


def test_every_launch_reads_the_options_without_the_commands_code() -> None:
    """Building every command's parser, as each launch does, loads no command's working
    code: no Textual, no web extra, no teaching, bots or search, no server."""
    body = "from ttt_tui.__main__ import build_parser\nbuild_parser()\n"
    working = ("textual_serve", "aiohttp", "ttt_tui.teach", "ttt_tui.bots", "ttt_tui.search")
    assert modules_loaded(body, (*UI_PACKAGES, *working, "ttt_tui.commands.serve")) == []


# What the wheel holds ----------------------------------------------------------

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def requirement_names(requirements: list[str]) -> set[str]:
    """The distribution names of requirement strings, normalised (``pytest-xdist``)."""
    return {re.split(r"[\s<>=!~\[;]", req, maxsplit=1)[0].lower() for req in requirements}


MODULE_OF = {"pytest-xdist": "xdist"}
"""Test distributions whose module is not their name with ``-`` made ``_``."""

RUNTIME = requirement_names(PYPROJECT["project"]["dependencies"])
"""What every install of ttt-tui gets."""
WEB = requirement_names(PYPROJECT["project"]["optional-dependencies"]["web"])
"""What the ``web`` extra adds, for `ttt-tui serve`."""

TEST_ONLY = sorted(
    MODULE_OF.get(name, name.replace("-", "_"))
    for name in requirement_names(PYPROJECT["project"]["optional-dependencies"]["test"])
    - RUNTIME
    - WEB
    - {PYPROJECT["project"]["name"]}  # the test extra takes the web extra by naming it
)
"""The modules of the packages only the tests need: pytest and its plugins, hypothesis,
pyte, the linters."""

WEB_MODULES = {
    PACKAGE / "commands" / "serve.py",
    PACKAGE / "compat" / "serve.py",
    PACKAGE / "online" / "server.py",
    PACKAGE / "online" / "client.py",
}
"""The modules only `ttt-tui serve` and online play load, which may import the ``web``
extra's packages."""


def test_the_wheel_holds_the_package_alone() -> None:
    """The wheel is built from ``ttt_tui`` only: the developer tools stay in the clone."""
    assert PYPROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"] == ["ttt_tui"]
    assert (ROOT / "tools" / "bench.py").exists() and not (PACKAGE / "tools").exists()


def test_the_test_only_packages_are_read_from_pyproject() -> None:
    """The list is what pyproject says: pyte and pytest are in it, textual is not."""
    assert {"pyte", "pytest", "hypothesis", "xdist"} <= set(TEST_ONLY)
    assert "textual" not in TEST_ONLY and "textual_serve" not in TEST_ONLY


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(PACKAGE)))
def test_every_package_a_module_imports_is_declared_where_it_is_needed(path: Path) -> None:
    """What a module imports from outside the standard library is a runtime dependency,
    or, for the modules of `ttt-tui serve`, one of the ``web`` extra's."""
    declared = RUNTIME | (WEB if path in WEB_MODULES else set())
    tops = {name.split(".")[0] for name in imports_of(path)}
    third_party = {
        top.replace("_", "-")
        for top in tops - {"ttt_tui", "__future__"}
        if top not in sys.stdlib_module_names
    }
    assert third_party - declared == set()


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(PACKAGE)))
def test_no_shipped_module_imports_a_tool_or_a_test_package(path: Path) -> None:
    """No module of the package names the developer tools or a test-only package in any
    import statement, even a late one."""
    tops = {name.split(".")[0] for name in imports_of(path)}
    assert tops & {"tools", "tests", *TEST_ONLY} == set()


def test_importing_every_shipped_module_loads_no_tool_or_test_package() -> None:
    """Importing every module of the package, the app and serve included, loads nothing
    from the developer tools or the test-only packages."""
    body = "\n".join(f"import {module_name(path)}" for path in SOURCES)
    assert modules_loaded(body, ("tools", "tests", *TEST_ONLY)) == []
