"""The README and the docs keep to the code: every link resolves, every test the
bad-input table names exists, and the defaults they quote are the commands' own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.terminal import ROOT
from ttt_tui.commands.check import DEFAULT_BUDGET, DEFAULT_POSITIONS, DEFAULT_TIMEOUT
from ttt_tui.commands.games import DEFAULT_LIMIT
from ttt_tui.commands.host import DEFAULT_GRACE, DEFAULT_IDLE
from ttt_tui.commands.host import DEFAULT_PORT as HOST_PORT
from ttt_tui.commands.play import DEFAULT_AI_DELAY
from ttt_tui.commands.serve_options import DEFAULT_HOST, DEFAULT_MAX_GAMES, DEFAULT_PORT
from ttt_tui.online.limits import DEFAULT_MAX_ROOMS, DEFAULT_PER_ADDRESS

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
"""The README and every page of the docs."""

LINK = re.compile(r"\]\(([^)\s]+)\)")
"""A Markdown link's target."""


def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings, as GitHub makes them."""
    found = set()
    for heading in re.findall(r"^#+ (.+)$", page.read_text("utf-8"), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found


def broken_links(page: Path) -> list[str]:
    """The relative links of a page that name no file, or no heading of the page named."""
    broken = []
    for target in LINK.findall(page.read_text("utf-8")):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists() or (
            anchor and linked.suffix == ".md" and anchor not in anchors(linked)
        ):
            broken.append(target)
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_link_resolves(page: Path) -> None:
    """Each relative link names a file that exists, and each anchor a heading on it."""
    assert broken_links(page) == []


def test_the_link_check_sees_a_broken_link(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# A heading\n\n[ok](#a-heading) [gone](nowhere.md#x) [bad](#no-such)\n")
    assert broken_links(page) == ["nowhere.md#x", "#no-such"]


def test_the_readme_is_a_front_door() -> None:
    """A few hundred lines for players; the rest is in docs/."""
    assert len((ROOT / "README.md").read_text("utf-8").splitlines()) <= 400


def test_every_test_the_bad_input_table_names_exists() -> None:
    """Each id in the table's Test column is a test function, a parametrised case's id or
    a test file, so `pytest -k ID` runs something and a renamed test cannot leave the
    table pointing nowhere."""
    page = (ROOT / "docs" / "reliability.md").read_text("utf-8")
    table = page.split("## Bad input, and what it gets", 1)[1].split("\n\n", 3)[2]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    names = [name for row in rows[1:] for name in re.findall(r"`([^`]+)`", row.split(" | ")[-1])]
    sources = "\n".join(path.read_text("utf-8") for path in (ROOT / "tests").rglob("test_*.py"))
    missing = [
        name
        for name in names
        if not (ROOT / "tests" / name).is_file()
        and not re.search(rf"def {re.escape(name)}\(|[\"']{re.escape(name)}[\"']", sources)
    ]
    assert len(names) > 40
    assert missing == []


SERVE_SYNOPSIS = (
    f"ttt-tui serve [--host {DEFAULT_HOST}] [--port {DEFAULT_PORT}] [--public-url URL]\n"
    f"              [--max-games {DEFAULT_MAX_GAMES}] [--max-rooms {DEFAULT_MAX_ROOMS}]"
    f" [--per-address {DEFAULT_PER_ADDRESS}] [game options]"
)

QUOTED_DEFAULTS = {
    "serve-synopsis": ("README.md", SERVE_SYNOPSIS),
    "serve-synopsis-docs": ("docs/serve.md", SERVE_SYNOPSIS),
    "serve-host": ("docs/serve.md", f"`--host` is `{DEFAULT_HOST}` by default"),
    "serve-max-games": ("docs/serve.md", f"`--max-games` ({DEFAULT_MAX_GAMES} by default)"),
    "ai-delay": ("README.md", f"({DEFAULT_AI_DELAY} s by\n  default, 0 to 10)"),
    "check-positions": ("docs/check.md", f"`--positions N`\n({DEFAULT_POSITIONS} by default)"),
    "check-timeout": ("docs/check.md", f"`--timeout SECONDS`** ({DEFAULT_TIMEOUT:g} by default)"),
    "check-budget": ("docs/check.md", f"`--budget SECONDS`** ({DEFAULT_BUDGET:g} by default)"),
    "bot-timeout": ("docs/check.md", f"each move ({DEFAULT_TIMEOUT:g} by\ndefault"),
    "games-limit": ("docs/games.md", f"the newest `N` ({DEFAULT_LIMIT} by\ndefault)"),
    "host-synopsis": ("README.md", f"ttt-tui host [--port {HOST_PORT}]"),
    "host-synopsis-docs": ("docs/online.md", f"ttt-tui host [--port {HOST_PORT}]"),
    "host-grace": ("docs/online.md", f"(5 to 3600) | {DEFAULT_GRACE:g} |"),
    "host-idle": ("docs/online.md", f"(10 to 86400) | {DEFAULT_IDLE:g} |"),
    "max-rooms": ("docs/online.md", f"(1 to 100000) | {DEFAULT_MAX_ROOMS} |"),
    "per-address": ("docs/online.md", f"(1 to 100000) | {DEFAULT_PER_ADDRESS} |"),
    "per-address-synopsis": ("docs/online.md", f"[--per-address {DEFAULT_PER_ADDRESS}]"),
}
"""Where the docs quote a command's default, as the command defines it."""


@pytest.mark.parametrize(("page", "text"), QUOTED_DEFAULTS.values(), ids=QUOTED_DEFAULTS.keys())
def test_the_docs_quote_each_default_as_its_command_defines_it(page: str, text: str) -> None:
    assert text in (ROOT / page).read_text("utf-8")
