"""textual-serve's page, as `ttt_tui.compat.serve` rewrites it: its font from the server."""

from __future__ import annotations

from ttt_tui.compat.serve import FONT_LINK, local_fonts, upstream_page


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
