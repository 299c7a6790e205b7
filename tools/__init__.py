"""Developer tools: benchmarks and measurements, run from a clone, never shipped.

- ``python -m tools.bench``: the engine against naive minimax; ``--ui``, the app's
  interface against a bare Textual app; ``--search``, the interface while it searches.
- ``python -m tools.databench``: the data layer with up to a million games.
- ``python -m tools.strength``: how strongly each difficulty plays.
- ``python -m tools.book``: the 5x5 opening book, proven again and written out.

They run from the repository's top folder, as the tests do; the wheel holds only
``ttt_tui``, and nothing in it imports from here (a test checks).
"""
