"""A learner's own bot, run where it can do no harm: in a process of its own, timed.

`sandbox` runs it (for `ttt-tui check` and the game), `host` is what runs a Python
bot's file in that process, and `player` asks it for the game's moves without
blocking the event loop. No UI imports.
"""
