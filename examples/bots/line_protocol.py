"""A bot for `ttt-tui check --cmd`: any program that reads positions on standard input,
one a line, and answers each with one line holding its square. This one is in
Python, but any language will do:

    ttt-tui check --cmd "python3 examples/bots/line_protocol.py"

It stays running, answering position after position (a program that exits after
each answer is started again), and plays the same perfect moves as
choose_move.py, next to it, by name (``b2``).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from choose_move import solve  # noqa: E402

for line in sys.stdin:
    position = line.strip()
    if not position:
        continue
    square = solve(position)[2]
    print("abc"[square % 3] + str(square // 3 + 1), flush=True)
