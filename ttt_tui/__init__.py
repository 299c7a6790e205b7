"""ttt-tui: tic-tac-toe in the terminal, with a minimax opponent."""

__version__ = "0.1.0"
