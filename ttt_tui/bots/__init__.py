"""A learner's own bot, run where it can do no harm: in a process of its own, timed.

`bot` runs it (for `ttt-tui check` and the game) and hands back its replies as
it gave them, `host` is what runs a Python bot's file in that process, and
`player` asks it for the game's moves from the event loop. No UI imports.
"""
