"""``python -m tools.strength``: each difficulty against a random and a perfect opponent,
as X and as O, from seeded games any one of which can be replayed; win / draw / loss
percentages and whether the levels are strictly ordered. No Textual, no Rich."""

from __future__ import annotations

import enum
import itertools
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tools.report import Count, Options, markdown_table
from ttt_tui.engine import SIZES, Board, Cell, Difficulty, Player, Status, choose_move

Policy = Callable[[Board, random.Random], Cell]
"""Chooses a move for the side to move, drawing any randomness from the given rng."""


class Opponent(enum.Enum):
    """Who a difficulty plays against."""

    RANDOM = "random"
    """Plays a uniformly random legal move."""
    PERFECT = "perfect"
    """Plays as Hard: never loses."""


def policy(player: Difficulty | Opponent) -> Policy:
    """How a level, or an opponent, chooses its moves."""
    if player is Opponent.RANDOM:
        return lambda board, rng: rng.choice(board.legal_moves())
    level = Difficulty.HARD if player is Opponent.PERFECT else player
    assert isinstance(level, Difficulty)
    return lambda board, rng: choose_move(board, level, rng)


@dataclass(frozen=True, slots=True)
class Matchup:
    """One row of the table: a difficulty, its opponent, and the side it plays."""

    difficulty: Difficulty
    opponent: Opponent
    side: Player
    """The mark the measured level plays; X moves first."""


@dataclass(slots=True)
class Record:
    """Results of one matchup, or of several summed, from the measured level's side."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    def add(self, status: Status, side: Player) -> None:
        """Count one finished game's result for the side measured."""
        if status.winner is None:
            self.draws += 1
        elif status.winner is side:
            self.wins += 1
        else:
            self.losses += 1

    def percent(self, count: int) -> float:
        """A count as a percentage of the games played."""
        return 100 * count / (self.wins + self.draws + self.losses)


def game_rngs(seed: int, matchup: Matchup, game: int, n: int) -> tuple[random.Random, ...]:
    """The ``(rng_x, rng_o)`` of one game, from the seed, board and game alone: the same
    in every process whatever ``PYTHONHASHSEED`` is (a string seed is hashed with
    SHA-512), and a row's numbers do not depend on the other rows. 3x3's stems name no
    size."""
    size = "" if n == 3 else f"{n}x{n}/"
    stem = f"{seed}/{size}{matchup.difficulty.value}/{matchup.opponent.value}"
    stem += f"/{matchup.side.value}/{game}"
    return random.Random(f"{stem}/X"), random.Random(f"{stem}/O")


def measure(games: int, seed: int, n: int) -> dict[Matchup, Record]:
    """Play ``games`` seeded games on an n x n board for each matchup: difficulty first,
    then opponent, then side."""
    records = {}
    for difficulty, opponent, side in itertools.product(Difficulty, Opponent, Player):
        matchup = Matchup(difficulty, opponent, side)
        policies = {side: policy(difficulty), side.other: policy(opponent)}
        record = Record()
        for game in range(games):
            rngs = dict(zip(Player, game_rngs(seed, matchup, game, n), strict=True))
            board = Board.empty(n)
            while board.status is Status.IN_PROGRESS:
                board = board.play(policies[board.to_move](board, rngs[board.to_move]))
            record.add(board.status, side)
        records[matchup] = record
    return records


def ordering_problems(records: dict[Matchup, Record]) -> list[str]:
    """Where the levels are not strictly ordered Easy < Medium < Hard: against random
    each level up must win more and lose less, against perfect lose less, and Hard must
    never lose; as X, as O and over both sides. Empty when all holds."""
    problems: list[str] = []
    views = [(f"as {p.value}", (p,)) for p in Player] + [("both sides", tuple(Player))]
    for opponent in Opponent:
        for label, sides in views:
            for low, high in itertools.pairwise(Difficulty):
                lo, hi = (combined(records, level, opponent, sides) for level in (low, high))
                where = f"vs {opponent.value}, {label}, {low.value} -> {high.value}"
                wins = lo.percent(lo.wins), hi.percent(hi.wins)
                losses = lo.percent(lo.losses), hi.percent(hi.losses)
                if opponent is Opponent.RANDOM and not wins[1] > wins[0]:
                    problems.append(
                        f"{where}: win % does not rise ({wins[0]:.1f} -> {wins[1]:.1f})"
                    )
                if not losses[1] < losses[0]:
                    problems.append(
                        f"{where}: loss % does not fall ({losses[0]:.1f} -> {losses[1]:.1f})"
                    )
    for matchup, record in records.items():
        if matchup.difficulty is Difficulty.HARD and record.losses:
            games = record.wins + record.draws + record.losses
            problems.append(
                f"hard lost {record.losses} of {games} games"
                f" vs {matchup.opponent.value} as {matchup.side.value}"
            )
    return problems


def combined(
    records: dict[Matchup, Record], level: Difficulty, opponent: Opponent, sides: Sequence[Player]
) -> Record:
    """One level's record against one opponent, summed over ``sides``."""
    parts = [records[Matchup(level, opponent, side)] for side in sides]
    return Record(*(sum(getattr(r, f) for r in parts) for f in ("wins", "draws", "losses")))


def main(argv: Sequence[str] | None = None) -> int:
    """Play each difficulty against a random and a perfect opponent, as X and as O, and
    print win / draw / loss percentages and whether the levels are strictly ordered."""
    games = Count("--games", "games per row of the table", 2000)
    parser = Options("python -m tools.strength", main.__doc__, games)
    boards = "the board: 3 (3 in a row), 4 (4 in a row) or 5 (4 in a row); default 3"
    parser.add_argument("--size", type=int, default=3, choices=sorted(SIZES), help=boards)
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="seed for every game's randomness (default: %(default)s)")  # fmt: skip
    args = parser.parse(argv)
    n, games, seed = args.size, args.games, args.seed
    records = measure(games, seed, n)
    print(
        f"Strength by difficulty on {n}x{n} ({SIZES[n]} in a row): {games:,} games a row,"
        f" seed {seed} (python -m tools.strength --size {n} --games {games} --seed {seed})."
    )
    print(
        "Percentages are from the level's side, rounded to 0.1 (a row may sum to 99.9"
        " or 100.1);\nthe perfect opponent plays as Hard.\n"
    )
    body = [
        (m.difficulty.value, m.opponent.value, m.side.value,
         *(f"{r.percent(count):.1f}" for count in (r.wins, r.draws, r.losses)))
        for m, r in records.items()
    ]  # fmt: skip
    header = ("level", "opponent", "plays", "win %", "draw %", "loss %")
    print(markdown_table(header, body, right={3, 4, 5}))
    print()
    problems = ordering_problems(records)
    if problems:
        print("Ordering Easy < Medium < Hard is NOT strict:")
        print("\n".join(f"- {p}" for p in problems))
    else:
        print(
            "Ordering Easy < Medium < Hard is strict: against random each level up wins"
            " more and loses less,\nagainst perfect each level up loses less, and Hard"
            " never loses (as X, as O and both together)."
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
