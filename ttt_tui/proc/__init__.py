"""Processes of ttt-tui's own: the engine's search process and a learner's bot.

`ttt_tui.proc.child` starts and speaks to one from asyncio; `ttt_tui.proc.frames`
is how messages are cut into frames on both sides. Nothing else of ttt-tui's is
imported here.
"""
