"""What textual-serve keeps private that `ttt-tui serve` needs.

Checked with textual-serve 1.1.3 (`ttt_tui.compat.CHECKED_WITH`).

**Running the server.** textual-serve's ``Server.serve`` runs the aiohttp
application itself, with its own signal handling and its own start-up message;
`ttt-tui serve` runs it with a runner of its own, to say where it listens (port
0 included) and to stop cleanly on SIGINT and SIGTERM, so it needs the
application that ``Server._make_app`` builds. No upstream report was found for
either. Can go when textual-serve lets a caller build or run its application.

**Ending a game that does not quit.** textual-serve's ``AppService`` can only ask
its game to quit; it keeps the game's process private (``AppService._process``).
A game that does not quit when its tab closes would run for ever, so `game_process`
reaches it, to kill it. Can go when ``AppService`` can end its process.
"""

from __future__ import annotations

import asyncio

from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from ttt_tui.compat import Private

RELIES_ON = (
    Private("textual_serve.server.Server._make_app", "(self) -> 'web.Application'"),
    Private("textual_serve.app_service.AppService.__init__", attributes=("_process",)),
)
"""What of textual-serve's this module depends on, as it was checked."""


async def web_app(server: Server) -> web.Application:
    """The aiohttp application that serves ``server``'s page and websockets."""
    return await server._make_app()


def game_process(service: AppService) -> asyncio.subprocess.Process | None:
    """The game process of ``service``, once it has started."""
    process = getattr(service, "_process", None)
    return process if isinstance(process, asyncio.subprocess.Process) else None
