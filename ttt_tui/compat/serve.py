"""What textual-serve keeps private that `ttt-tui serve` needs.

Checked with textual-serve 1.1.0 to 1.1.3 (`ttt_tui.compat.CHECKED_WITH`).

**Running the server.** textual-serve's ``Server.serve`` runs the aiohttp
application itself, with its own signal handling and its own start-up message;
`ttt-tui serve` runs it with a runner of its own, to say where it listens (port
0 included) and to stop cleanly on SIGINT and SIGTERM, so it needs the
application that ``Server._make_app`` builds. No upstream report was found for
either. Can go when textual-serve lets a caller build or run its application.

**The page's font.** textual-serve's page (``templates/app_index.html``) links a
stylesheet on fonts.googleapis.com for its Roboto Mono: a request to a third party
from every browser that opens the game, which fails offline and which a server
meant for a classroom's own network should not make. textual-serve ships the same
font in its static files, unused. `local_fonts` rewrites the page to load those
instead, and `web_app` serves the rewritten page. No upstream report was found. Can
go when textual-serve's page loads its font from the server: `tests/compat` checks
that the page still has the link this replaces.

**A page a screen reader can read.** xterm.js, which draws the game in the page,
keeps its text in the page's accessibility tree only in its screen-reader mode, and
textual-serve's script (``static/js/textual.js``) creates its terminal with fixed
options, off. `screen_reader_script` is that script with the one option turned on,
served from `SCRIPT_URL`; the page loads it when its context says
``screen_reader``. The page has no title and no language either, and nothing before
its terminal: `page_template` gives it a language and puts what `ttt-tui serve`
wants at the end of its head and first in its body. No upstream report was found.
Can go when textual-serve lets a page set the terminal's options and its own
markup: `tests/compat` checks that the script still creates its terminal as this
expects, and that the page still has the places `page_template` writes in.

**Ending a game that does not quit.** textual-serve's ``AppService`` can only ask
its game to quit; it keeps the game's process private (``AppService._process``).
A game that does not quit when its tab closes would run for ever, so `game_process`
reaches it, to kill it. Can go when ``AppService`` can end its process.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path

import aiohttp_jinja2
import jinja2
import textual_serve
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from ttt_tui.compat import Private

RELIES_ON = (
    Private("textual_serve.server.Server._make_app", "(self) -> 'web.Application'"),
    Private("textual_serve.app_service.AppService.__init__", attributes=("_process",)),
)
"""What of textual-serve's this module depends on, as it was checked."""


PAGE = "app_index.html"
"""textual-serve's page, as its templates folder names it."""

FONT_LINK = re.compile(r"<link[^>]*fonts\.googleapis\.com[^>]*>", re.DOTALL)
"""The page's link to a font on a third party's server."""

LOCAL_FONTS = """<style>
      @font-face {
        font-family: "Roboto Mono";
        src: url("{{ config.static.url }}fonts/RobotoMono-VariableFont_wght.ttf")
          format("truetype");
        font-weight: 100 700;
        font-style: normal;
      }
      @font-face {
        font-family: "Roboto Mono";
        src: url("{{ config.static.url }}fonts/RobotoMono-Italic-VariableFont_wght.ttf")
          format("truetype");
        font-weight: 100 700;
        font-style: italic;
      }
    </style>"""
"""The same font, from the fonts textual-serve serves itself."""


TERMINAL = re.compile(r"new (\w+)\.Terminal\(\{")
"""Where textual-serve's script creates its xterm.js terminal, with its options."""

SCRIPT_URL = "/ttt-tui/textual.js"
"""Where, under the server's address, the page finds textual-serve's script with
screen-reader mode on."""

SCRIPT_LINK = "{{ config.static.url }}js/textual.js"
"""How textual-serve's page names its script."""

SCRIPT_CHOICE = (
    "{% if screen_reader %}{{ base_url }}" + SCRIPT_URL + "{% else %}" + SCRIPT_LINK + "{% endif %}"
)
"""The page's script: textual-serve's, or with ``screen_reader`` `screen_reader_script`."""

BODY = re.compile(r"<body[^>]*>")
"""The page's body tag."""


def upstream_script() -> str:
    """textual-serve's script, as it ships."""
    folder = Path(textual_serve.__file__).parent / "static" / "js"
    return (folder / "textual.js").read_text(encoding="utf-8")


def screen_reader_script(script: str) -> str:
    """textual-serve's script, creating its terminal in xterm.js's screen-reader mode;
    `ValueError` if it no longer creates one where `TERMINAL` expects."""
    found, count = TERMINAL.subn(lambda m: f"{m[0]}screenReaderMode:!0,", script, count=1)
    if count != 1:
        raise ValueError("textual-serve's script no longer creates its terminal as expected")
    return found


def upstream_page() -> str:
    """textual-serve's page template, as it ships."""
    folder = Path(textual_serve.__file__).parent / "templates"
    return (folder / PAGE).read_text(encoding="utf-8")


def local_fonts(page: str) -> str:
    """The page with its third-party font link replaced by the server's own fonts."""
    return FONT_LINK.sub(lambda _: LOCAL_FONTS, page)


def _once(page: str, pattern: str | re.Pattern[str], replace: Callable[[str], str]) -> str:
    found, count = re.subn(pattern, lambda m: replace(m[0]), page, count=1)
    if count != 1:
        raise ValueError(f"textual-serve's page no longer has {pattern!r} where expected")
    return found


def page_template(head: str, body: str) -> str:
    """textual-serve's page in English, with `local_fonts`, ``head`` at the end of its
    head, ``body`` first in its body, and its script in screen-reader mode when the
    context's ``screen_reader`` is true (from the context's ``base_url``, the server's
    address); `ValueError` if the page no longer has the places these go."""
    page = local_fonts(upstream_page())
    page = _once(page, "<html>", lambda _: '<html lang="en">')
    page = _once(page, "</head>", lambda tag: head + tag)
    page = _once(page, BODY, lambda tag: tag + body)
    return _once(page, re.escape(SCRIPT_LINK), lambda _: SCRIPT_CHOICE)


async def web_app(server: Server, page: str) -> web.Application:
    """The aiohttp application that serves ``server``'s page from the template ``page``
    (`page_template`), its websockets, and `screen_reader_script` at `SCRIPT_URL`."""
    app = await server._make_app()
    script = screen_reader_script(upstream_script())

    async def serve_script(_request: web.Request) -> web.Response:
        return web.Response(text=script, content_type="application/javascript")

    app.router.add_get(SCRIPT_URL, serve_script)
    aiohttp_jinja2.setup(app, loader=jinja2.DictLoader({PAGE: page}))
    return app


def game_process(service: AppService) -> asyncio.subprocess.Process | None:
    """The game process of ``service``, once it has started."""
    process = getattr(service, "_process", None)
    return process if isinstance(process, asyncio.subprocess.Process) else None
