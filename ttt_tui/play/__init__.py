"""Playing: the settings, how games end, a game with its undo and redo, the session that
decides what happens next, and the view the widgets draw.

Pure: no UI imports and no file I/O (a test proves it). The game screen turns
input into `ttt_tui.play.session.Session` calls and draws the immutable view it
gives back; what is to be saved comes back in the session's outcomes, for the
storage to write.
"""
