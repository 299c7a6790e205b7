"""Measure how strongly each difficulty plays, from seeded games.

``python -m tools.strength`` plays every difficulty against a
uniformly random opponent and against a perfect one (Hard), once as X and once
as O, and prints win / draw / loss percentages as a Markdown table; ``--size``
picks the board (3, 4 or 5). Every game gets its own `random.Random` per
player, seeded from ``--seed``, the board and the game's place in the table, so
any single game can be replayed. Pure Python: no Textual, no Rich.
"""

from __future__ import annotations

import argparse
import enum
import itertools
import random
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from ttt_tui.engine import SIZES, Board, Cell, Difficulty, Player, Status, choose_move

Policy = Callable[[Board, random.Random], Cell]
"""Chooses a move for the side to move, drawing any randomness from the given rng."""

DEFAULT_GAMES = 2_000
"""Games per row of the table unless told otherwise."""

DEFAULT_SEED = 0
"""The seed unless told otherwise."""


class Opponent(enum.Enum):
    """Who a difficulty plays against."""

    RANDOM = "random"
    """Plays a uniformly random legal move."""
    PERFECT = "perfect"
    """Plays as Hard: never loses."""

    @property
    def policy(self) -> Policy:
        """How this opponent chooses its moves."""
        return random_policy if self is Opponent.RANDOM else difficulty_policy(Difficulty.HARD)


def random_policy(board: Board, rng: random.Random) -> Cell:
    """A uniformly random legal move."""
    return rng.choice(board.legal_moves())


def difficulty_policy(difficulty: Difficulty) -> Policy:
    """The computer's move at a difficulty, as the game plays it."""

    def policy(board: Board, rng: random.Random) -> Cell:
        return choose_move(board, difficulty, rng)

    return policy


def play_match(
    x_policy: Policy,
    o_policy: Policy,
    rng_x: random.Random,
    rng_o: random.Random,
    n: int = 3,
) -> Status:
    """Play one game from the empty n x n board to its end and return how it ended."""
    board = Board.empty(n)
    while (status := board.status) is Status.IN_PROGRESS:
        if board.to_move is Player.X:
            board = board.play(x_policy(board, rng_x))
        else:
            board = board.play(o_policy(board, rng_o))
    return status


@dataclass(frozen=True, slots=True)
class Matchup:
    """One row of the table: a difficulty, its opponent, and the side it plays."""

    difficulty: Difficulty
    """The level being measured."""
    opponent: Opponent
    """Who it plays against."""
    side: Player
    """The mark the measured level plays; X moves first."""


@dataclass(slots=True)
class Record:
    """Results of one matchup, from the measured level's point of view."""

    wins: int = 0
    """Games the measured level won."""
    draws: int = 0
    """Games drawn."""
    losses: int = 0
    """Games the measured level lost."""

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.draws + self.losses

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
        return 100 * count / self.games if self.games else 0.0

    @property
    def win_pct(self) -> float:
        """Wins as a percentage of games."""
        return self.percent(self.wins)

    @property
    def draw_pct(self) -> float:
        """Draws as a percentage of games."""
        return self.percent(self.draws)

    @property
    def loss_pct(self) -> float:
        """Losses as a percentage of games."""
        return self.percent(self.losses)


@dataclass(slots=True)
class Strength:
    """Every matchup's record, with the games per matchup and the seed."""

    games: int
    """Games played in each matchup."""
    seed: int
    """The seed every game's randomness came from."""
    n: int = 3
    """The board's size."""
    records: dict[Matchup, Record] = field(default_factory=dict)
    """Results by matchup, in the order they were played."""


def all_matchups(
    difficulties: Sequence[Difficulty] = tuple(Difficulty),
    opponents: Sequence[Opponent] = tuple(Opponent),
    sides: Sequence[Player] = tuple(Player),
) -> list[Matchup]:
    """Each combination, difficulty first, then opponent, then side."""
    return [Matchup(d, o, s) for d in difficulties for o in opponents for s in sides]


def game_rngs(
    seed: int, matchup: Matchup, game: int, n: int = 3
) -> tuple[random.Random, random.Random]:
    """The ``(rng_x, rng_o)`` of one game, derived from the seed, board and game alone.

    A string seed is hashed with SHA-512, so it is the same in every process
    whatever ``PYTHONHASHSEED`` is, and rows do not share a stream: measuring
    a subset of the table gives the same numbers for those rows. (3x3 keeps
    the stems it had before the other sizes, so its table is unchanged.)
    """
    size = "" if n == 3 else f"{n}x{n}/"
    stem = (
        f"{seed}/{size}{matchup.difficulty.value}/{matchup.opponent.value}"
        f"/{matchup.side.value}/{game}"
    )
    return random.Random(f"{stem}/X"), random.Random(f"{stem}/O")


def measure(
    games: int = DEFAULT_GAMES,
    seed: int = DEFAULT_SEED,
    matchups: Sequence[Matchup] | None = None,
    n: int = 3,
) -> Strength:
    """Play ``games`` seeded games on an n x n board for each matchup (all by default)."""
    if games < 1:
        raise ValueError(f"expected at least 1 game, got {games}")
    if n not in SIZES:
        raise ValueError(f"expected a size in {sorted(SIZES)}, got {n}")
    result = Strength(games, seed, n)
    for matchup in all_matchups() if matchups is None else matchups:
        level = difficulty_policy(matchup.difficulty)
        other = matchup.opponent.policy
        x_policy, o_policy = (level, other) if matchup.side is Player.X else (other, level)
        record = Record()
        for game in range(games):
            rng_x, rng_o = game_rngs(seed, matchup, game, n)
            record.add(play_match(x_policy, o_policy, rng_x, rng_o, n), matchup.side)
        result.records[matchup] = record
    return result


def combined(
    strength: Strength,
    difficulty: Difficulty,
    opponent: Opponent,
    sides: Iterable[Player] = tuple(Player),
) -> Record | None:
    """One level's record against one opponent summed over sides, if all were measured."""
    total = Record()
    for side in sides:
        record = strength.records.get(Matchup(difficulty, opponent, side))
        if record is None:
            return None
        total.wins += record.wins
        total.draws += record.draws
        total.losses += record.losses
    return total


def ordering_problems(strength: Strength) -> list[str]:
    """Where the levels are not strictly ordered Easy < Medium < Hard.

    Against the random opponent each level up must win more and lose less;
    against the perfect opponent each level up must lose less, and Hard must
    never lose. Checked as X, as O and over both sides; views not measured are
    skipped. Empty when all holds.
    """
    problems: list[str] = []
    views = [(f"as {p.value}", (p,)) for p in Player] + [("both sides", tuple(Player))]
    levels = list(Difficulty)
    for opponent in Opponent:
        for label, sides in views:
            for low, high in itertools.pairwise(levels):
                lo = combined(strength, low, opponent, sides)
                hi = combined(strength, high, opponent, sides)
                if lo is None or hi is None:
                    continue
                where = f"vs {opponent.value}, {label}, {low.value} -> {high.value}"
                if opponent is Opponent.RANDOM and not hi.win_pct > lo.win_pct:
                    problems.append(
                        f"{where}: win % does not rise ({lo.win_pct:.1f} -> {hi.win_pct:.1f})"
                    )
                if not hi.loss_pct < lo.loss_pct:
                    problems.append(
                        f"{where}: loss % does not fall ({lo.loss_pct:.1f} -> {hi.loss_pct:.1f})"
                    )
    for opponent in Opponent:
        for side in Player:
            record = strength.records.get(Matchup(Difficulty.HARD, opponent, side))
            if record is not None and record.losses:
                problems.append(
                    f"hard lost {record.losses} of {record.games} games"
                    f" vs {opponent.value} as {side.value}"
                )
    return problems


def render_table(strength: Strength) -> str:
    """A Markdown table of win / draw / loss percentages for each matchup."""
    header = ("level", "opponent", "plays", "win %", "draw %", "loss %")
    rows = [
        (
            m.difficulty.value,
            m.opponent.value,
            m.side.value,
            f"{r.win_pct:.1f}",
            f"{r.draw_pct:.1f}",
            f"{r.loss_pct:.1f}",
        )
        for m, r in strength.records.items()
    ]
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header))]
    numeric = range(3, len(header))

    def line(cells: Sequence[str]) -> str:
        padded = [
            cell.rjust(w) if i in numeric else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "| " + " | ".join(padded) + " |"

    rule = (
        "|"
        + "|".join(
            ("-" * (w + 1) + ":") if i in numeric else "-" * (w + 2) for i, w in enumerate(widths)
        )
        + "|"
    )
    return "\n".join([line(header), rule, *(line(row) for row in rows)])


def build_parser() -> argparse.ArgumentParser:
    """The parser for ``python -m tools.strength``."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.strength",
        description=(
            "Play each difficulty against a random and a perfect opponent, as X and as O,"
            " and print win / draw / loss percentages."
        ),
    )
    parser.add_argument(
        "--games",
        type=int,
        default=DEFAULT_GAMES,
        metavar="N",
        help=f"games per row of the table (default: {DEFAULT_GAMES:,})",
    )
    parser.add_argument(
        "--size",
        type=int,
        default=3,
        choices=sorted(SIZES),
        help="the board: 3 (3 in a row), 4 (4 in a row) or 5 (4 in a row); default 3",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=DEFAULT_SEED,
        metavar="S",
        help=f"seed for every game's randomness (default: {DEFAULT_SEED})",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Measure, print the table and the ordering check; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"expected at least 1 game, got {args.games}")
    strength = measure(args.games, args.seed, n=args.size)
    n = strength.n
    print(
        f"Strength by difficulty on {n}x{n} ({SIZES[n]} in a row): {strength.games:,} games"
        f" a row, seed {strength.seed} (python -m tools.strength"
        f" --size {n} --games {strength.games} --seed {strength.seed})."
    )
    print(
        "Percentages are from the level's side, rounded to 0.1 (a row may sum to 99.9"
        " or 100.1);\nthe perfect opponent plays as Hard."
    )
    print()
    print(render_table(strength))
    print()
    problems = ordering_problems(strength)
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
