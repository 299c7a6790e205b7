"""Two real terminals, in tmux: `ttt-tui host` in one, `ttt-tui join` in the other, a
whole game on each board with both screens showing it and each data directory holding
its own player's record; a third join refused in one line; a watcher who cannot move;
and the joined terminal killed and joined again to the exact position.

In the long tier (`IN_PROCESSES`): it starts ttt-tui four or five times. Each tmux
server here is the test's own (``-L``), so the person's tmux is never touched.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.support.terminal import ttt
from tests.support.tmux import Tmux
from tests.support.tmux import tmux as tmux
from ttt_tui.engine import coordinate

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None and not os.environ.get("CI"), reason="needs tmux"
)


def square_keys(number: int, n: int) -> list[str]:
    """The keys that play square ``number`` on an n x n board: its digits, and Enter
    when a second digit could still follow."""
    keys = list(str(number))
    return [*keys, "Enter"] if len(keys) == 1 and number * 10 <= n * n else keys


def host_and_join(tmux: Tmux, tmp_path: Path, n: int) -> Path:
    """Host a room on an n x n board and join it; the invite file's path."""
    invites = tmp_path / "invites"
    tmux.start(
        "host",
        tmp_path / "ann",
        *("host", "--bind", "127.0.0.1", "--port", "0", "--board", str(n)),
        *("--name", "Ann", "--invite-file", str(invites)),
    )
    tmux.wait_for("host", "Waiting for your friend to join")
    play = invites.read_text().splitlines()[0]
    tmux.start("join", tmp_path / "bob", "join", play, "--name", "Bob")
    tmux.wait_for("join", "Ann's move (X)")
    tmux.wait_for("host", "Your move (X)")
    return invites


@pytest.mark.parametrize("n", [3, 4, 5])
def test_a_whole_game_on_each_board_in_two_terminals(tmux: Tmux, tmp_path: Path, n: int) -> None:
    host_and_join(tmux, tmp_path, n)
    k = {3: 3, 4: 4, 5: 4}[n]
    # X takes the top row; O plays the row below.
    for ply in range(2 * k - 1):
        window = "host" if ply % 2 == 0 else "join"
        number = ply // 2 + 1 + (0 if ply % 2 == 0 else n)
        tmux.keys(window, *square_keys(number, n))
        if ply < 2 * k - 2:
            # The move said on the other screen, with its turn: never a screen's old words.
            said = f"{'XO'[ply % 2]} plays {coordinate(number - 1, n)}. Your move."
            tmux.wait_for("join" if window == "host" else "host", said)
    tmux.wait_for("host", "You won!")
    tmux.wait_for("join", "Ann (X) won.")
    for window in ("host", "join"):
        tmux.keys(window, "q")
        tmux.wait_for(window, "EXIT=0")
    mine = ttt("games", "list", data=tmp_path / "ann").stdout
    theirs = ttt("games", "list", data=tmp_path / "bob").stdout
    assert f"{n}x{n}  You (X) vs Bob    X won, {2 * k - 1} moves" in mine
    assert f"{n}x{n}  You (O) vs Ann    X won, {2 * k - 1} moves" in theirs
    assert len(mine.splitlines()) == len(theirs.splitlines()) == 1


def test_a_third_join_is_refused_a_watcher_cannot_move_and_a_rejoin_restores(
    tmux: Tmux, tmp_path: Path
) -> None:
    invites = host_and_join(tmux, tmp_path, 3).read_text().splitlines()
    tmux.keys("host", "5")
    tmux.wait_for("join", "X plays b2. Your move.")
    tmux.keys("join", "1")
    tmux.wait_for("host", "O plays a1. Your move.")

    third = ttt("join", invites[0], data=tmp_path / "eve")
    assert third.returncode == 2 and third.stdout == ""
    assert third.stderr == (
        "ttt-tui join: that seat is already being played from another connection\n"
    )

    tmux.start("watch", tmp_path / "eve", "join", invites[1])
    tmux.wait_for("watch", "Watching Ann (X) vs Bob (O)")
    tmux.keys("watch", "9")
    tmux.wait_for("watch", "Watchers cannot move.")

    tmux.kill("join")
    tmux.wait_for("host", "Bob (O) is reconnecting, 1 minute")
    tmux.start("join", tmp_path / "bob", "join", invites[0], "--name", "Bob")
    tmux.wait_for("join", "X plays b2. O plays a1.")
    tmux.wait_for("join", "Ann's move (X)")
    tmux.wait_for("host", "Bob (O) is here.")
    tmux.keys("host", "9")
    tmux.wait_for("join", "X plays c3. Your move.")
    tmux.wait_for("watch", "X plays c3.")
