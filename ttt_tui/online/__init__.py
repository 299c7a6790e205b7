"""Playing a friend on another computer: the room the server holds (`room`, pure), the
messages spoken on the socket (`protocol`, pure), and the room server (`server`, on
aiohttp, which only a running server imports).

No Textual and no Rich here; `room` and `protocol` import no network either.
"""
