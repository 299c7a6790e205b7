"""The commands `ttt-tui` runs: the game itself (`play`), `analyze` and `serve`.

`ttt_tui.__main__` reads the command line and hands it to one of them, importing
only the one it runs.
"""
