"""Developer tools: benchmarks and measurements, run as modules, never by the game.

- ``python -m ttt_tui.devtools.bench``: the engine against the tutorials' naive minimax;
  with ``--ui``, the real app against a bare Textual app in pseudo-terminals.
- ``python -m ttt_tui.devtools.strength``: how strongly each difficulty plays.

Nothing in the runtime package imports from here (a test checks), so the game
never pays for these modules or their dependencies.
"""
