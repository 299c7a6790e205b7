"""The game session model: the level of each computer move, through undo and redo."""

from __future__ import annotations

import pytest

from ttt_tui.engine import Difficulty, IllegalMoveError, Player
from ttt_tui.play.game import Game
from ttt_tui.play.settings import Mode

EASY, MEDIUM, HARD = Difficulty.EASY, Difficulty.MEDIUM, Difficulty.HARD


def test_each_move_keeps_the_level_it_was_computed_at() -> None:
    game = Game()
    game.play(4)
    game.play(0, EASY)
    game.play(8)
    game.play(2, HARD)
    assert game.moves == [4, 0, 8, 2]
    assert game.levels == [None, EASY, None, HARD]


def test_undo_takes_the_levels_back_and_redo_brings_the_same_ones_back() -> None:
    game = Game(human=Player.O)
    game.play(4, EASY)
    game.play(0)
    game.play(8, EASY)
    game.play(2)
    game.play(6, EASY)
    assert game.undo()  # O's 2 and X's reply 6
    assert (game.moves, game.levels) == ([4, 0, 8], [EASY, None, EASY])
    assert game.undo()  # O's 0 and X's reply 8
    assert (game.moves, game.levels) == ([4], [EASY])
    assert game.redo()
    assert (game.moves, game.levels) == ([4, 0, 8], [EASY, None, EASY])
    assert game.redo()
    assert (game.moves, game.levels) == ([4, 0, 8, 2, 6], [EASY, None, EASY, None, EASY])


def test_a_fresh_move_after_undo_forgets_the_undone_levels() -> None:
    game = Game()
    game.play(4)
    game.play(0, EASY)
    assert game.undo()
    game.play(8)
    game.play(2, HARD)
    assert game.levels == [None, HARD]
    assert not game.redo()
    assert game.redo_levels == []


def test_two_players_record_no_levels_and_ai_vs_ai_one_each() -> None:
    people = Game(mode=Mode.TWO_PLAYERS)
    people.play(0)
    people.play(1)
    assert people.levels == [None, None]
    engines = Game(mode=Mode.AI_VS_AI)
    engines.play(0, HARD)
    engines.play(1, MEDIUM)
    assert engines.levels == [HARD, MEDIUM]


def test_a_level_must_come_with_a_computer_move_and_only_with_one() -> None:
    game = Game()
    with pytest.raises(ValueError, match="X is played by a person: expected no level, got easy"):
        game.play(4, EASY)
    game.play(4)
    with pytest.raises(ValueError, match="O is played by the computer: expected the level"):
        game.play(0)
    assert (game.moves, game.levels) == ([4], [None])
    with pytest.raises(IllegalMoveError, match="cell 4 is already taken"):
        game.play(4, HARD)
    assert (game.moves, game.levels) == ([4], [None])


def o_wins_the_top_row(game: Game, x_level: Difficulty | None, o_level: Difficulty | None) -> None:
    """X on 3, 4, 8; O takes 0, 1, 2."""
    for x, o in [(3, 0), (4, 1), (8, 2)]:
        game.play(x, x_level)
        if not game.is_over:
            game.play(o, o_level)


@pytest.mark.parametrize(
    ("game", "x_level", "o_level", "lost"),
    [
        (Game(human=Player.X), None, EASY, True),
        (Game(human=Player.O), EASY, None, False),
        (Game(mode=Mode.TWO_PLAYERS), None, None, False),
        (Game(mode=Mode.AI_VS_AI), EASY, HARD, False),
    ],
    ids=["computer-beats-person", "person-wins", "two-players", "ai-vs-ai"],
)
def test_person_lost_only_when_the_computer_beat_the_person(
    game: Game, x_level: Difficulty | None, o_level: Difficulty | None, lost: bool
) -> None:
    assert not game.person_lost
    o_wins_the_top_row(game, x_level, o_level)
    assert game.status.winner is Player.O
    assert game.person_lost is lost
