"""Developer tools: benchmarks and measurements, run from a clone, never shipped.

- ``python -m tools.bench``: the engine against the tutorials' naive minimax;
  with ``--ui``, the real app against a bare Textual app in pseudo-terminals;
  with ``--search``, the search process against searching in a thread.
- ``python -m tools.strength``: how strongly each difficulty plays.
- ``python -m tools.book``: the 5x5 opening book, proven again and written out.

They run from the repository's top folder, as the tests do; the wheel holds
only ``ttt_tui``, and nothing in it imports from here (a test checks).
"""
