"""textual-serve's page, as `ttt_tui.compat.serve` rewrites it: its font from the server."""

from __future__ import annotations

import pytest

from ttt_tui.compat.serve import (
    FONT_LINK,
    SCRIPT_LINK,
    TERMINAL,
    local_fonts,
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
