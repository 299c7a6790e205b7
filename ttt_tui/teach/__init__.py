"""Teaching minimax: the explorer's model, its words, and the game tree as text.

Pure: no UI imports (a test proves it). Every value shown comes from an
analysis the engine proved; the words come from `ttt_tui.teach.explain`.
"""
