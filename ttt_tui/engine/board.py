"""The board: an immutable position on an n x n grid where k in a row wins."""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator

Cell = int
"""A cell index, 0-based in reading order (0 is top-left)."""

Mask = int
"""A set of cells as a bit mask: bit ``c`` is set when cell ``c`` is in the set."""

SIZES: dict[int, int] = {3: 3, 4: 4, 5: 4}
"""The board sizes the game plays (cells per side), mapped to the line length that wins."""

EMPTY_CHARS = frozenset(".-_")
"""Characters that `Board.parse` accepts for an empty cell."""


class Player(enum.Enum):
    """A side. X always moves first."""

    X = "X"
    """The first player."""
    O = "O"  # noqa: E741
    """The second player."""

    @property
    def other(self) -> Player:
        """The opponent of this side."""
        return Player.O if self is Player.X else Player.X


def mover_of(ply: int) -> Player:
    """The side that makes the move with this 0-based index: X moves first."""
    return Player.X if ply % 2 == 0 else Player.O


class Status(enum.Enum):
    """Where a game stands."""

    IN_PROGRESS = "in_progress"
    """Moves remain and nobody has won."""
    X_WON = "x_won"
    """X has a line."""
    O_WON = "o_won"
    """O has a line."""
    DRAW = "draw"
    """The board is full and nobody has a line."""

    @property
    def winner(self) -> Player | None:
        """The side that won, if any."""
        if self is Status.X_WON:
            return Player.X
        if self is Status.O_WON:
            return Player.O
        return None


class InvalidPositionError(ValueError):
    """A position that cannot be read or could not arise in a real game."""


class IllegalMoveError(ValueError):
    """A move onto an occupied cell, off the board, or after the game ended."""


class Geometry:
    """The fixed facts of an n x n board where k in a row wins. Build one with `geometry`."""

    __slots__ = ("full", "k", "lines", "lines_through", "n")

    n: int
    """Cells per side."""
    k: int
    """Marks in a row needed to win."""
    full: Mask
    """Every cell."""
    lines: tuple[Mask, ...]
    """Every winning line: k cells in a row, column or diagonal."""
    lines_through: tuple[tuple[Mask, ...], ...]
    """For each cell, the winning lines that contain it."""

    def __init__(self, n: int, k: int) -> None:
        if n < 1 or not 1 <= k <= n:
            raise ValueError(f"expected 1 <= k <= n, got n={n}, k={k}")
        lines: list[Mask] = []
        for row in range(n):
            for col in range(n):
                for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_row, end_col = row + d_row * (k - 1), col + d_col * (k - 1)
                    if 0 <= end_row < n and 0 <= end_col < n:
                        mask = 0
                        for step in range(k):
                            mask |= 1 << ((row + d_row * step) * n + col + d_col * step)
                        lines.append(mask)
        self.n, self.k, self.full = n, k, (1 << n * n) - 1
        self.lines = tuple(lines)
        self.lines_through = tuple(
            tuple(line for line in lines if line >> cell & 1) for cell in range(n * n)
        )

    @property
    def size(self) -> int:
        """The number of cells."""
        return self.n * self.n


_GEOMETRIES: dict[tuple[int, int], Geometry] = {}


def geometry(n: int, k: int) -> Geometry:
    """The geometry of an n x n board with k in a row, computed once."""
    geo = _GEOMETRIES.get((n, k))
    if geo is None:
        geo = _GEOMETRIES[n, k] = Geometry(n, k)
    return geo


def cells_of(mask: Mask) -> Iterator[Cell]:
    """The cells in a mask, in ascending order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def has_line(geo: Geometry, marks: Mask) -> bool:
    """Whether the marks contain a winning line."""
    return any(marks & line == line for line in geo.lines)


class Board:
    """An immutable position. The side to move follows from the counts.

    Construct one with `Board.empty`, `Board.parse` or `Board.play`; the
    constructor trusts its masks and is for code that already holds a legal
    position. Boards compare and hash by value.
    """

    # A slots class rather than a frozen dataclass: `dataclasses` (and the
    # `inspect` it imports) was most of the engine's import time.
    __slots__ = ("k", "n", "o", "x")

    x: Mask
    """The cells holding X."""
    o: Mask
    """The cells holding O."""
    n: int
    """Cells per side."""
    k: int
    """Marks in a row needed to win."""

    def __init__(self, x: Mask = 0, o: Mask = 0, n: int = 3, k: int | None = None) -> None:
        set_ = object.__setattr__
        set_(self, "x", x)
        set_(self, "o", o)
        set_(self, "n", n)
        set_(self, "k", SIZES.get(n, n) if k is None else k)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Board is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Board is immutable; cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self.x, self.o, self.n, self.k) == (other.x, other.o, other.n, other.k)

    def __hash__(self) -> int:
        return hash((self.x, self.o, self.n, self.k))

    def __repr__(self) -> str:
        return f"Board(x={self.x}, o={self.o}, n={self.n}, k={self.k})"

    def __reduce__(self) -> tuple[type[Board], tuple[Mask, Mask, int, int]]:
        # Immutable slots need this to pickle (boards cross to the search process).
        return (Board, (self.x, self.o, self.n, self.k))

    @classmethod
    def empty(cls, n: int = 3, k: int | None = None) -> Board:
        """The starting position of an n x n game; k in a row wins, by default `SIZES[n]`."""
        if k is None:
            if n not in SIZES:
                raise ValueError(f"expected a size in {sorted(SIZES)}, got {n}")
            k = SIZES[n]
        geometry(n, k)
        return cls(0, 0, n, k)

    @classmethod
    def parse(cls, text: str) -> Board:
        """Read a position such as ``"X..-O-/..."``.

        X and O in either case; ``.``, ``-`` or ``_`` for an empty cell;
        ``/`` between rows is optional. The size follows from the length
        (9, 16 or 25 cells), and the line length from `SIZES`.
        Raises `InvalidPositionError` naming the problem for anything that
        is unreadable or could not arise in a real game.
        """
        cells = text.strip().replace("/", "")
        length = len(cells)
        n = _side_for_length(length)
        if n not in SIZES:
            raise InvalidPositionError(f"expected {_expected_lengths()} cells, got {length}")
        x = o = 0
        for cell, char in enumerate(cells):
            upper = char.upper()
            if upper == "X":
                x |= 1 << cell
            elif upper == "O":
                o |= 1 << cell
            elif char not in EMPTY_CHARS:
                raise InvalidPositionError(
                    f"unknown character {char!r} at cell {cell + 1}; expected X, O, '.', '-' or '_'"
                )
        board = cls(x, o, n, SIZES[n])
        board.validate()
        return board

    def validate(self) -> None:
        """Raise `InvalidPositionError` unless a real game could reach this."""
        geo = self.geometry
        if self.x & self.o:
            raise InvalidPositionError("a cell holds both X and O")
        if (self.x | self.o) & ~geo.full:
            raise InvalidPositionError("a mark lies off the board")
        xs, os = self.x.bit_count(), self.o.bit_count()
        if os > xs:
            raise InvalidPositionError(
                f"O has more marks than X ({os} against {xs}); X moves first"
            )
        if xs > os + 1:
            raise InvalidPositionError(
                f"X has {xs - os} more marks than O ({xs} against {os}); the sides take turns"
            )
        x_line, o_line = has_line(geo, self.x), has_line(geo, self.o)
        if x_line and o_line:
            raise InvalidPositionError("both X and O have a line")
        if x_line and xs == os:
            raise InvalidPositionError("X has a line but O moved last; the game ended when X won")
        if o_line and xs != os:
            raise InvalidPositionError("O has a line but X moved last; the game ended when O won")
        for marks in (self.x,) if x_line else (self.o,) if o_line else ():
            if not any(not has_line(geo, marks & ~(1 << cell)) for cell in cells_of(marks)):
                raise InvalidPositionError(
                    "the winning lines could not all come from one last move"
                )

    @property
    def geometry(self) -> Geometry:
        """The fixed facts of this board's size."""
        return geometry(self.n, self.k)

    @property
    def size(self) -> int:
        """The number of cells."""
        return self.n * self.n

    @property
    def move_count(self) -> int:
        """How many marks are on the board."""
        return (self.x | self.o).bit_count()

    @property
    def to_move(self) -> Player:
        """The side whose turn it is (meaningful while the game is on)."""
        return Player.X if self.x.bit_count() == self.o.bit_count() else Player.O

    def __getitem__(self, cell: Cell) -> Player | None:
        """The mark on a cell, or None."""
        if self.x >> cell & 1:
            return Player.X
        if self.o >> cell & 1:
            return Player.O
        return None

    def marks(self, player: Player) -> Mask:
        """The cells held by one side."""
        return self.x if player is Player.X else self.o

    @property
    def empty_mask(self) -> Mask:
        """The empty cells."""
        return self.geometry.full & ~(self.x | self.o)

    def legal_moves(self) -> list[Cell]:
        """The empty cells in ascending order, or none once the game is over."""
        if self.status is not Status.IN_PROGRESS:
            return []
        return list(cells_of(self.empty_mask))

    @property
    def status(self) -> Status:
        """Whether the game is on, won by a side, or drawn."""
        geo = self.geometry
        if has_line(geo, self.x):
            return Status.X_WON
        if has_line(geo, self.o):
            return Status.O_WON
        if self.x | self.o == geo.full:
            return Status.DRAW
        return Status.IN_PROGRESS

    def is_game_over(self) -> bool:
        """Whether the game has ended."""
        return self.status is not Status.IN_PROGRESS

    def winning_cells(self) -> Mask:
        """The cells of every winning line on the board (0 when nobody won)."""
        geo = self.geometry
        found = 0
        for marks in (self.x, self.o):
            for line in geo.lines:
                if marks & line == line:
                    found |= line
        return found

    def play(self, cell: Cell) -> Board:
        """The position after the side to move marks a cell."""
        if not 0 <= cell < self.size:
            raise IllegalMoveError(f"cell {cell} is off the board; expected 0 to {self.size - 1}")
        if (self.x | self.o) >> cell & 1:
            raise IllegalMoveError(f"cell {cell} is already taken")
        if self.is_game_over():
            raise IllegalMoveError("the game is over")
        bit = 1 << cell
        if self.to_move is Player.X:
            return Board(self.x | bit, self.o, self.n, self.k)
        return Board(self.x, self.o | bit, self.n, self.k)

    def __str__(self) -> str:
        """One character a cell in reading order: X, O or '.'."""
        return "".join(
            "X" if self.x >> c & 1 else "O" if self.o >> c & 1 else "." for c in range(self.size)
        )

    def rows(self) -> list[str]:
        """`str(board)` cut into rows."""
        text = str(self)
        return [text[i : i + self.n] for i in range(0, self.size, self.n)]


def _side_for_length(length: int) -> int:
    side = int(length**0.5)
    return side if side * side == length else 0


def _expected_lengths() -> str:
    lengths = [str(n * n) for n in SIZES]
    return ", ".join(lengths[:-1]) + " or " + lengths[-1]


def coordinate(cell: Cell, n: int = 3) -> str:
    """A cell's human name: column letter and row number, ``a1`` top-left, e.g. ``b2``.

    On 5x5 the names run from ``a1`` to ``e5``.
    """
    row, col = divmod(cell, n)
    return f"{chr(ord('a') + col)}{row + 1}"


_NAME = re.compile(r"([a-z])([0-9]+)")

OFF, UNKNOWN = "off", "unknown"
"""Why `read_square` found no square: a number or name beyond the board, or neither."""


def read_square(text: str, n: int) -> Cell | str:
    """The cell a square's number (1 to n*n) or name (``b2``) names on an ``n`` x ``n``
    board, or why none: `OFF` or `UNKNOWN`. Only ASCII digits count: ``²`` is a digit
    to Python but no number to `int`."""
    word = text.strip().lower()
    if word.isascii() and word.isdecimal():
        number = int(word)
        return number - 1 if 1 <= number <= n * n else OFF
    found = _NAME.fullmatch(word)
    if found is None:
        return UNKNOWN
    col, row = ord(found[1]) - ord("a"), int(found[2]) - 1
    return row * n + col if 0 <= col < n and 0 <= row < n else OFF
