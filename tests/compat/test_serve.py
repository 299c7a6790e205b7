"""textual-serve's page, as `ttt_tui.compat.serve` rewrites it: its font from the server,
its script in screen-reader mode when the page is, a language, and ttt-tui's own markup."""

from __future__ import annotations

import jinja2
import pytest

from ttt_tui.compat import serve
from ttt_tui.compat.serve import (
    BODY,
    FONT_LINK,
    SCRIPT_LINK,
    SCRIPT_URL,
    TERMINAL,
    local_fonts,
    page_template,
    screen_reader_script,
    upstream_page,
    upstream_script,
)


def test_textual_serve_s_page_still_links_the_font_the_workaround_replaces() -> None:
    """When this fails, textual-serve has changed its page: see whether it still asks a
    third party for its font, and update or remove `local_fonts`."""
    page = upstream_page()
    assert len(FONT_LINK.findall(page)) == 1
    assert "fonts.googleapis.com" in page


def test_the_rewritten_page_loads_its_font_from_the_server_alone() -> None:
    page = local_fonts(upstream_page())
    assert "googleapis" not in page and "gstatic" not in page
    assert page.count("{{ config.static.url }}fonts/RobotoMono-") == 2


def test_textual_serve_s_script_still_creates_its_terminal_where_the_option_goes() -> None:
    """When this fails, textual-serve has changed its script or its page: see whether its
    terminal can now be put in screen-reader mode some public way, and update or remove
    `screen_reader_script`."""
    assert len(TERMINAL.findall(upstream_script())) == 1
    assert upstream_page().count(SCRIPT_LINK) == 1


def test_the_screen_reader_script_turns_on_xterm_s_screen_reader_mode() -> None:
    script = screen_reader_script(upstream_script())
    assert script.count("screenReaderMode:!0,") == 1
    assert len(script) == len(upstream_script()) + len("screenReaderMode:!0,")
    with pytest.raises(ValueError, match="no longer creates its terminal"):
        screen_reader_script("new Something()")


def test_textual_serve_s_page_still_has_the_places_page_template_writes_in() -> None:
    """When this fails, textual-serve has changed its page: see whether it now has a
    language, and a way to put markup before its terminal, and update `page_template`."""
    page = upstream_page()
    assert page.count("<html>") == page.count("</head>") == len(BODY.findall(page)) == 1
    assert page.index("</head>") < page.index("<body") < page.index('id="terminal"')


def render(template: str, screen_reader: bool) -> str:
    """The page as the server renders it, at http://h."""
    return str(
        jinja2.Template(template).render(
            screen_reader=screen_reader,
            base_url="http://h",
            config={"static": {"url": "http://h/static/"}},
            application={"name": "ttt-tui"},
        )
    )


def test_the_page_template_puts_its_parts_in_place_and_picks_the_script() -> None:
    template = page_template("<title>T</title>", "<header>first</header>")
    for screen_reader, script in [
        (False, "http://h/static/js/textual.js"),
        (True, "http://h" + SCRIPT_URL),
    ]:
        page = render(template, screen_reader)
        assert page.startswith('<!DOCTYPE html>\n<html lang="en">')
        assert page.count("<script src=") == 1 and f'<script src="{script}">' in page
        assert "<title>T</title></head>" in page
        body = page[page.index("<body") :]
        assert body.index("<header>first</header>") < body.index("<div")
        assert "googleapis" not in page


def test_page_template_says_when_the_page_has_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve, "upstream_page", lambda: "<html><head></head></html>")
    with pytest.raises(ValueError, match="no longer has"):
        page_template("", "")
