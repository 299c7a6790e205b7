"""`ttt_tui.compat.css_cache`: stylesheets read back are the ones Textual parses, and
anything else is parsed as before."""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from pathlib import Path

import pytest
import textual.css
from textual.app import App
from textual.css.stylesheet import Stylesheet
from textual.widgets import Checkbox, Input

from ttt_tui.compat import css_cache
from ttt_tui.compat.css_cache import ParsedCss, encode
from ttt_tui.widgets.board import BoardView

SOURCES = [
    (widget.DEFAULT_CSS, (__file__, f"{widget.__name__}.DEFAULT_CSS"), True, 0, "")
    for widget in (Input, Checkbox, BoardView)
]
"""Three widgets' default CSS, as Textual adds them: two of Textual's, one of ours."""


def variables(theme: str) -> dict[str, str]:
    """The CSS variables of ``theme``."""
    app: App[None] = App()
    app.theme = theme
    return app.get_css_variables()


def parse_all(sheet_variables: dict[str, str]) -> list[tuple[object, ...]]:
    """Every rule of `SOURCES` parsed by a stylesheet with ``sheet_variables``, as
    comparable values: its selectors and its styles."""
    stylesheet = Stylesheet(variables=sheet_variables)
    for css, read_from, is_default, tie_breaker, scope in SOURCES:
        stylesheet.add_source(css, read_from, is_default, tie_breaker, scope)
    stylesheet.parse()
    return [
        (str(rule.selector_set), rule.is_default_rules, sorted(rule.styles.get_rules().items()))
        for rule in stylesheet.rules
    ]


@pytest.fixture
def installed() -> Iterator[list[ParsedCss]]:
    """Caches installed by a test, uninstalled after it however it ends."""
    caches: list[ParsedCss] = []
    yield caches
    for cache in reversed(caches):
        cache.uninstall()


def install(caches: list[ParsedCss], cache: ParsedCss) -> ParsedCss:
    cache.install()
    caches.append(cache)
    return cache


def written_by_a_launch(theme: str, installed: list[ParsedCss]) -> bytes:
    """What a launch with ``theme`` writes: it parses `SOURCES` and encodes them."""
    first = install(installed, ParsedCss.from_bytes(None))
    parse_all(variables(theme))
    assert first.stale
    data = encode(first.contents())
    first.uninstall()
    return data


def test_rules_read_back_are_the_rules_textual_parses(installed: list[ParsedCss]) -> None:
    theme = variables("textual-dark")
    parsed_by_textual = parse_all(theme)
    data = written_by_a_launch("textual-dark", installed)
    cache = install(installed, ParsedCss.from_bytes(data))
    assert parse_all(theme) == parsed_by_textual
    assert cache.missed == 0
    assert not cache.stale


def test_another_theme_is_parsed_and_replaces_what_was_kept(installed: list[ParsedCss]) -> None:
    data = written_by_a_launch("textual-dark", installed)
    light = variables("textual-light")
    parsed_by_textual = parse_all(light)
    cache = install(installed, ParsedCss.from_bytes(data))
    assert parse_all(light) == parsed_by_textual
    assert cache.missed == len(SOURCES)
    assert cache.stale
    assert ParsedCss.from_bytes(encode(cache.contents())).variables == tuple(light.items())


def test_changed_css_is_parsed_again(installed: list[ParsedCss]) -> None:
    data = written_by_a_launch("textual-dark", installed)
    cache = install(installed, ParsedCss.from_bytes(data))
    stylesheet = Stylesheet(variables=variables("textual-dark"))
    css, read_from, *_ = SOURCES[2]
    stylesheet.add_source(css.replace("1fr", "2fr"), read_from, is_default_css=True)
    stylesheet.parse()
    assert cache.missed == 1


@pytest.mark.parametrize(
    "data",
    [b"", b"not a pickle", encode({"variables": "x", "rules": {}}), pickle.dumps([1, 2])],
    ids=["empty", "garbage", "wrong types", "not a mapping"],
)
def test_damaged_data_is_ignored_and_textual_parses(
    data: bytes, installed: list[ParsedCss]
) -> None:
    theme = variables("textual-dark")
    parsed_by_textual = parse_all(theme)
    cache = install(installed, ParsedCss.from_bytes(data))
    assert cache.rules == {}
    assert parse_all(theme) == parsed_by_textual
    assert cache.stale


def test_another_textual_s_data_is_ignored(
    installed: list[ParsedCss], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = written_by_a_launch("textual-dark", installed)
    monkeypatch.setattr(css_cache, "textual_fingerprint", lambda: ("another Textual",))
    assert ParsedCss.from_bytes(data).rules == {}


def test_the_data_is_written_with_the_fingerprint_taken_as_it_was_read(
    installed: list[ParsedCss], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fingerprint describes the Textual that parsed: the one loaded as the launch
    read the data. Writing does not look at Textual's files again."""
    cache = install(installed, ParsedCss.from_bytes(None))
    parse_all(variables("textual-dark"))

    def looked_again() -> css_cache.Fingerprint:
        raise AssertionError("Textual's files looked at again")

    monkeypatch.setattr(css_cache, "textual_fingerprint", looked_again)
    assert cache.contents()["textual"] == cache.fingerprint != ()


def test_the_fingerprint_changes_with_textual_s_css_modules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "model.py").write_text("one")
    monkeypatch.setattr(textual.css, "__file__", str(tmp_path / "__init__.py"))
    before = css_cache.textual_fingerprint()
    (tmp_path / "model.py").write_text("another")
    assert css_cache.textual_fingerprint() != before


def test_uninstall_gives_textual_its_parser_back(installed: list[ParsedCss]) -> None:
    textual_parse = Stylesheet._parse_rules
    cache = install(installed, ParsedCss())
    assert Stylesheet._parse_rules is not textual_parse
    cache.uninstall()
    assert Stylesheet._parse_rules is textual_parse
