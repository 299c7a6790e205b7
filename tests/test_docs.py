"""The README and the docs keep to the code: every link resolves, and every test the
bad-input table names exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.terminal import ROOT

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
