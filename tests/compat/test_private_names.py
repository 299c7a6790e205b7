"""Textual's private names: used only in ttt_tui/compat (and the tests' support), each one
listed by the workaround that uses it, and each still there as it was checked.

A maintainer upgrading Textual runs this first: a failure names the workaround, the
name and what changed, and the workaround's docstring says how to tell it can go.
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import inspect
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

import ttt_tui.compat
from tests.support.terminal import ROOT
from ttt_tui.compat import CHECKED_WITH, Private

PACKAGE = ROOT / "ttt_tui"
COMPAT = PACKAGE / "compat"
TESTS = ROOT / "tests"
SUPPORT = (TESTS / "support.py", TESTS / "support")
"""Where the tests wrap the Textual internals they truly need."""

FOREIGN = ("textual", "textual_serve", "rich")
"""The packages whose private names are not ours to use freely."""

COMPAT_MODULES = sorted(path.stem for path in COMPAT.glob("*.py") if path.stem != "__init__")


def compat_module(name: str) -> ModuleType:
    return importlib.import_module(f"ttt_tui.compat.{name}")


# Every reliance is as it was checked ------------------------------------------------


@pytest.mark.parametrize("name", COMPAT_MODULES)
def test_every_workaround_says_what_it_relies_on(name: str) -> None:
    """Each module lists what of Textual's it depends on, says what it works around
    and how to tell it can go, and names the version it was checked with."""
    module = compat_module(name)
    assert isinstance(module.RELIES_ON, tuple)
    assert all(isinstance(reliance, Private) for reliance in module.RELIES_ON)
    doc = module.__doc__ or ""
    assert "Checked with" in doc and "CHECKED_WITH" in doc, name
    assert re.search(r"[Cc]an go when", doc), name


def reliances() -> Iterator[tuple[str, Private]]:
    for name in COMPAT_MODULES:
        for reliance in compat_module(name).RELIES_ON:
            yield name, reliance


@pytest.mark.parametrize(
    ("name", "reliance"), list(reliances()), ids=lambda v: getattr(v, "path", v)
)
def test_what_a_workaround_relies_on_is_as_it_was_checked(name: str, reliance: Private) -> None:
    """The private name is there, with the signature and source it was checked with."""
    changes = reliance.changes()
    assert changes == [], (
        f"ttt_tui/compat/{name}.py relies on {reliance.path}, checked with {CHECKED_WITH},"
        f" and it changed: {'; '.join(changes)}. Check the workaround against this"
        " version (its docstring says what it works around and how to tell it can go),"
        " then update RELIES_ON."
    )


def test_a_change_is_seen() -> None:
    """The check itself works: a name that is gone, a signature and a source that differ,
    and an attribute no longer set are all named."""
    assert Private("textual.app.App._no_such_thing").changes() != []
    assert Private("textual.app.App._handle_exception", "(self)").changes() != []
    assert Private("textual.app.App.exit", source="000000000000").changes() != []
    assert Private("textual.app.App.__init__", attributes=("_no_such",)).changes() != []
    assert Private("textual.app.App.__init__", attributes=("_exit_renderables",)).changes() == []


def test_the_versions_checked_are_the_versions_tested_and_allowed() -> None:
    """The lowest version checked is what .ci/lowest.txt pins, the highest what
    constraints.txt pins, and pyproject.toml allows both and nothing of another series."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    ranges = {
        Requirement(text).name: Requirement(text).specifier
        for text in [*project["dependencies"], *project["optional-dependencies"]["web"]]
    }
    lowest = (ROOT / ".ci" / "lowest.txt").read_text(encoding="utf-8")
    tested = (ROOT / "constraints.txt").read_text(encoding="utf-8")
    for name, (low, high) in CHECKED_WITH.items():
        assert re.search(rf"^{name}=={re.escape(low)}$", lowest, re.M), name
        assert re.search(rf"^{name}=={re.escape(high)}$", tested, re.M), name
        allowed = ranges[name]
        assert low in allowed and high in allowed, (name, allowed)
        major, minor = Version(low).release[:2]
        assert f"{major}.{minor - 1}.99" not in allowed and f"{major}.{minor + 1}" not in allowed


# Private names are used only here ---------------------------------------------------


@dataclass(frozen=True)
class Use:
    """A private name of Textual's used in a file."""

    file: str
    line: int
    name: str
    how: str


NAMEDTUPLE = frozenset({"_replace", "_asdict", "_fields", "_field_defaults", "_make"})
"""Named tuples' own API, underscored so as not to clash with field names: public."""

STANDARD = frozenset({"_exit"})
"""The standard library's public names with an underscore: ``os._exit``."""


def is_private(name: str) -> bool:
    dunder = name.startswith("__") and name.endswith("__")
    return name.startswith("_") and not dunder and name not in NAMEDTUPLE | STANDARD


def python_files(*roots: Path) -> list[Path]:
    return sorted(path for root in roots for path in root.rglob("*.py"))


@functools.cache
def ours() -> frozenset[str]:
    """Every private name that ttt-tui's own code (the tests included) defines or sets."""
    names: set[str] = set()
    for path in python_files(PACKAGE, TESTS, ROOT / "tools", ROOT / "scripts"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
    return frozenset(name for name in names if is_private(name))


@functools.cache
def foreign_source(cls: type) -> str:
    try:
        return inspect.getsource(cls)
    except (OSError, TypeError):
        return ""


def foreign_defines(cls: type, name: str) -> bool:
    """Whether a class of Textual's (or its bases) has ``name``, or sets it on itself."""
    for base in cls.__mro__:
        if not base.__module__.startswith(FOREIGN):
            continue
        if name in vars(base) or re.search(rf"self\.{name}\b\s*(:[^=\n]*)?=", foreign_source(base)):
            return True
    return False


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def private_uses(path: Path, module: ModuleType | None = None) -> list[Use]:
    """Every private name of Textual's (or textual-serve's, or Rich's) the file uses;
    ``module`` is the file imported, if it is not importable by its path."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    where = path.name
    uses: list[Use] = []
    for node in ast.walk(tree):
        modules: list[str] = []
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module]
        for imported in modules:
            parts = imported.split(".")
            if parts[0] in FOREIGN:
                line = getattr(node, "lineno", 0)
                uses += [Use(where, line, part, "import") for part in parts if is_private(part)]
        if isinstance(node, ast.Attribute) and is_private(node.attr):
            called_on_super = (
                isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name)
                and node.value.func.id == "super"
            )
            if called_on_super or node.attr not in ours():
                uses.append(Use(where, node.lineno, node.attr, "attribute"))
    module = module or importlib.import_module(module_name(path))
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        cls = getattr(module, node.name, None)
        if not isinstance(cls, type):
            continue
        for item in ast.walk(node):
            name, how = None, ""
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and is_private(item.name):
                name, how = item.name, "override"
            elif (
                isinstance(item, ast.Attribute)
                and isinstance(item.value, ast.Name)
                and item.value.id == "self"
                and is_private(item.attr)
            ):
                name, how = item.attr, "self"
            if name is not None and foreign_defines(cls, name):
                uses.append(Use(where, getattr(item, "lineno", 0), name, how))
    return uses


SHIPPED_OUTSIDE_COMPAT = [path for path in python_files(PACKAGE) if COMPAT not in path.parents]
TESTS_OUTSIDE_SUPPORT = [
    path
    for path in python_files(TESTS)
    if path != SUPPORT[0] and SUPPORT[1] not in path.parents and path != Path(__file__).resolve()
]


def test_no_private_name_of_textual_outside_the_workarounds() -> None:
    """Outside ttt_tui/compat (and the tests' support), nothing imports a private module of
    Textual's, reads one of its private names, or overrides one of its private methods.
    One test for every file, not one a file: each worker of the run would read the whole
    tree again for `ours` (about 3 s apiece)."""
    found = {
        str(path.relative_to(ROOT)): uses
        for path in SHIPPED_OUTSIDE_COMPAT + TESTS_OUTSIDE_SUPPORT
        if (uses := private_uses(path))
    }
    assert found == {}


@pytest.mark.parametrize("name", COMPAT_MODULES)
def test_every_private_name_a_workaround_uses_is_listed(name: str) -> None:
    """What a workaround reaches into is in its RELIES_ON, so the check above covers it."""
    listed = set().union(*(reliance.names for reliance in compat_module(name).RELIES_ON))
    unlisted = [use for use in private_uses(COMPAT / f"{name}.py") if use.name not in listed]
    assert unlisted == []


def test_the_scan_sees_private_names(tmp_path: Path) -> None:
    """The scan itself works: a private import, a read of Textual's private attribute, a
    call through super(), and an override of a private method are all seen."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from textual._wait import wait_for_idle\n"
        "from textual.app import App\n"
        "class Probe(App[None]):\n"
        "    def _handle_exception(self, error: Exception) -> None:\n"
        "        super()._handle_exception(error)\n"
        "        self._exit_renderables.clear()\n",
        encoding="utf-8",
    )
    spec = importlib.util.spec_from_file_location("probe", probe)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    found = {(use.name, use.how) for use in private_uses(probe, module)}
    assert found == {
        ("_wait", "import"),
        ("_handle_exception", "attribute"),
        ("_handle_exception", "override"),
        ("_exit_renderables", "attribute"),
        ("_exit_renderables", "self"),
    }


def test_the_compat_package_documents_every_module() -> None:
    """The folder's own docstring names each of its modules."""
    doc = ttt_tui.compat.__doc__ or ""
    for name in COMPAT_MODULES:
        assert f"`{name}`" in doc, name
