"""The explorer's words: why a move is good or bad, read off the game tree.

Pure: no UI imports (a test proves it). Everything here is worked out from
the engine's analyses (`ttt_tui.engine.analyze`), never guessed: a move's value
is the analysis's, the best line follows best moves only, and a fork, a block
or a forced move is named only when the board shows it.

- `tactic` says what one move does on the board: completes a line, blocks
  one, threatens one or two squares at once (a fork), or is forced.
- `best_line` and `Ply`: the principal variation, best play from both sides,
  a ply at a time; `pick` chooses among equally good moves the one that shows
  the idea best (a win now, a forced block, a fork, else the first in reading
  order).
- `why` explains a move from the analysis of its position and the best line
  after it; `summary` explains a position.
- `guarantee`: every reply to Hard's move keeps Hard's result at least as
  good as the position promised.
- `step_words`: the alpha-beta walk (`ttt_tui.engine.minimax.walk`) in words.
- `count_words`, `tree_lines`, `tree_json`: the counts and the tree as text
  and JSON, for the explorer and for `ttt-tui analyze`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ttt_tui.engine import (
    Analysis,
    Board,
    Cell,
    Outcome,
    Player,
    Verdict,
    cells_of,
    coordinate,
    rank,
)
from ttt_tui.engine.minimax import (
    INFINITY,
    Count,
    Search,
    Step,
    StepKind,
    position_at,
    verdict_of,
)

Mask = int
"""A set of cells as a bit mask."""

Analyzer = Callable[[Board], Analysis]
"""Values every move of a position: `ttt_tui.engine.analyze`, or a cache in front of it."""


# The board's tactics ---------------------------------------------------------------------


def threats(board: Board, player: Player) -> Mask:
    """The empty cells where ``player`` would complete a line with one more mark."""
    mine, theirs = board.marks(player), board.marks(player.other)
    found = 0
    need = board.k - 1
    for line in board.geometry.lines:
        if not theirs & line and (mine & line).bit_count() == need:
            found |= line & ~mine
    return found


def completed_line(board: Board, cell: Cell) -> Mask:
    """The line the side to move completes by playing ``cell`` (0 if none)."""
    mine = board.marks(board.to_move) | 1 << cell
    for line in board.geometry.lines_through[cell]:
        if mine & line == line:
            return line
    return 0


def threatened_lines(board: Board, player: Player, cell: Cell) -> tuple[Mask, ...]:
    """The lines ``player`` would complete by playing ``cell``."""
    mine, theirs = board.marks(player), board.marks(player.other)
    need = board.k - 1
    return tuple(
        line
        for line in board.geometry.lines_through[cell]
        if not theirs & line and (mine & line).bit_count() == need
    )


def line_name(line: Mask, n: int) -> str:
    """A line by its end squares: ``a1–c3``."""
    cells = list(cells_of(line))
    return f"{coordinate(cells[0], n)}–{coordinate(cells[-1], n)}"


def squares(mask_or_cells: Mask | Sequence[Cell], n: int, conjunction: str = "and") -> str:
    """Squares in words: ``a1``, ``a1 and b2``, ``a1, b2 and c3`` (or ``a1, b2 or c3``)."""
    cells = list(cells_of(mask_or_cells)) if isinstance(mask_or_cells, int) else list(mask_or_cells)
    names = [coordinate(cell, n) for cell in cells]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + f" {conjunction} " + names[-1]


@dataclass(frozen=True, slots=True)
class Tactic:
    """What one move does on the board, for the side that plays it."""

    completes: Mask
    """The line it completes (0 if none)."""
    blocks: tuple[Mask, ...]
    """The opponent's lines, each one mark short, that it blocks."""
    threatens: Mask
    """The squares where the mover could complete a line next move, after it."""
    forced: bool
    """The opponent threatened exactly one square, the mover could not win at once,
    and this move takes that square: the only move that does not lose at once."""

    @property
    def fork(self) -> bool:
        """Whether it makes two threats at once: the opponent can block only one."""
        return self.threatens.bit_count() >= 2


def tactic(board: Board, cell: Cell) -> Tactic:
    """What playing ``cell`` does, for the side to move in ``board``."""
    mover = board.to_move
    completes = completed_line(board, cell)
    blocks = threatened_lines(board, mover.other, cell)
    after = board.play(cell)
    ahead = 0 if completes else threats(after, mover)
    open_threats = threats(board, mover.other)
    could_win = bool(threats(board, mover))
    forced = (
        not completes
        and not could_win
        and open_threats.bit_count() == 1
        and bool(open_threats >> cell & 1)
    )
    return Tactic(completes, blocks, ahead, forced)


# Values ------------------------------------------------------------------------------------


def at_least(verdict: Verdict, promised: Verdict) -> bool:
    """Whether ``verdict`` is at least as good as ``promised`` for the same side (by the
    outcome alone where a length is unknown)."""
    if verdict.plies is None or promised.plies is None:
        return rank(Verdict(verdict.outcome, 0)) >= rank(Verdict(promised.outcome, 0))
    return rank(verdict) >= rank(promised)


def verdict_phrase(verdict: Verdict) -> str:
    """A move's value as a verb phrase: ``wins at once``, ``wins in 5``, ``draws``,
    ``loses in 4``, or ``wins`` where the length is unknown."""
    if verdict.outcome is Outcome.DRAW:
        return "draws"
    verb = "wins" if verdict.outcome is Outcome.WIN else "loses"
    if verdict.plies is None:
        return verb
    if verdict.plies == 1:
        return f"{verb} at once"
    return f"{verb} in {verdict.plies}"


def flipped(verdict: Verdict) -> Verdict:
    """The same result seen from the other side."""
    outcome = {Outcome.WIN: Outcome.LOSS, Outcome.LOSS: Outcome.WIN}.get(
        verdict.outcome, Outcome.DRAW
    )
    return Verdict(outcome, verdict.plies)


def shortened(verdict: Verdict, plies: int) -> Verdict:
    """The same result counted ``plies`` plies later in the game (its length, if known,
    that much shorter)."""
    return Verdict(verdict.outcome, None if verdict.plies is None else verdict.plies - plies)


def pick(analysis: Analysis) -> Cell:
    """The best move to show: among the best, a win now, else a forced block, else a
    fork, else the first in reading order. Always one of ``analysis.best``."""
    board = analysis.board
    best = list(analysis.best)
    tactics = {cell: tactic(board, cell) for cell in best}
    for wanted in (
        lambda t: bool(t.completes),
        lambda t: t.forced,
        lambda t: t.fork,
    ):
        for cell in best:
            if wanted(tactics[cell]):
                return cell
    return best[0]


@dataclass(frozen=True, slots=True)
class Ply:
    """One move of a line: the position before it, the move, and its value."""

    board: Board
    """The position the move is played in."""
    cell: Cell
    verdict: Verdict
    """The move's value for the side that plays it."""

    @property
    def player(self) -> Player:
        """The side that plays it."""
        return self.board.to_move

    @property
    def after(self) -> Board:
        """The position it leads to."""
        return self.board.play(self.cell)

    @property
    def name(self) -> str:
        """E.g. ``X c3``."""
        return f"{self.player.value} {coordinate(self.cell, self.board.n)}"


def best_ply(analysis: Analysis) -> Ply:
    """The move `pick` chooses in an analysed position, as a `Ply`."""
    cell = pick(analysis)
    return Ply(analysis.board, cell, analysis.moves[cell])


def best_line(board: Board, analyze: Analyzer) -> list[Ply]:
    """The principal variation from ``board``: best play from both sides to the end."""
    line: list[Ply] = []
    while not board.is_game_over():
        ply = best_ply(analyze(board))
        line.append(ply)
        board = ply.after
    return line


# Why, in words -----------------------------------------------------------------------------


def _annotation(ply: Ply) -> tuple[str, bool]:
    """What a move of a line does, as a clause; and whether it decides the game."""
    n = ply.board.n
    t = tactic(ply.board, ply.cell)
    if t.completes:
        return f" and completes {line_name(t.completes, n)}", True
    if t.fork:
        opponent = ply.player.other.value
        return (
            f", which threatens {squares(t.threatens, n)} at once (a fork);"
            f" {opponent} can block only one",
            True,
        )
    if t.blocks and t.threatens:
        blocked = " and ".join(line_name(line, n) for line in t.blocks)
        return f", blocking {blocked} and threatening {squares(t.threatens, n)}", False
    if t.blocks:
        blocked = " and ".join(line_name(line, n) for line in t.blocks)
        if t.forced:
            return f" (forced: it blocks {blocked})", False
        return f", blocking {blocked}", False
    if t.threatens:
        return f", threatening {squares(t.threatens, n)}", False
    return "", False


def tactic_tag(ply: Ply) -> str:
    """What a move of a line does, in a few words: ``a fork: threatens a1 and b2``,
    ``forced: blocks a1–c3``, ``completes a1–c3``, or nothing for a quiet move."""
    n = ply.board.n
    t = tactic(ply.board, ply.cell)
    if t.completes:
        return f"completes {line_name(t.completes, n)}"
    blocked = " and ".join(line_name(line, n) for line in t.blocks)
    if t.fork:
        fork = f"a fork: threatens {squares(t.threatens, n)}"
        return f"blocks {blocked}; {fork}" if blocked else fork
    if blocked and t.threatens:
        return f"blocks {blocked}, threatens {squares(t.threatens, n)}"
    if blocked:
        return f"forced: blocks {blocked}" if t.forced else f"blocks {blocked}"
    if t.threatens:
        return f"threatens {squares(t.threatens, n)}"
    return ""


def narrate(line: Sequence[Ply], most: int = 4) -> str:
    """The start of a line until the move that decides it (a fork or a completed line),
    as one clause: ``X answers c3, which threatens b2 and a1 at once (a fork); O can
    block only one``. Longer lines skip their middle."""
    if not line:
        return ""
    decisive = next(
        (
            index
            for index, ply in enumerate(line)
            if ply.verdict.outcome is Outcome.WIN and _annotation(ply)[1]
        ),
        None,
    )
    end = len(line) - 1 if decisive is None else decisive
    shown = list(range(end + 1))
    if len(shown) > most:
        shown = [*shown[: most - 1], end]
    parts: list[str] = []
    previous = -1
    for index in shown:
        ply = line[index]
        where = coordinate(ply.cell, ply.board.n)
        clause, _ = _annotation(ply)
        if index == 0:
            parts.append(f"{ply.player.value} answers {where}{clause}")
        elif index > previous + 1:
            skipped = index - previous - 1
            moves = "move" if skipped == 1 else "moves"
            parts.append(f"{skipped} {moves} later {ply.player.value} plays {where}{clause}")
        else:
            parts.append(f"then {ply.player.value} {where}{clause}")
        previous = index
    return ", ".join(parts)


def _blocks_on(line: Sequence[Ply]) -> int:
    """How many moves of a line are blocks of a threat."""
    return sum(1 for ply in line if tactic(ply.board, ply.cell).blocks)


def why(position: Analysis, cell: Cell, line: Sequence[Ply], complete: bool = True) -> str:
    """Why playing ``cell`` in the analysed position is worth what it is, in a sentence
    or two.

    ``line`` is the best line after the move (it may be partial while it is being
    worked out; ``complete`` says whether it is whole).
    """
    board = position.board
    n = board.n
    mover, other = board.to_move, board.to_move.other
    verdict = position.moves[cell]
    head = f"{mover.value} {coordinate(cell, n)} {verdict_phrase(verdict)}"
    if verdict.outcome is Outcome.DRAW and rank(position.value) > rank(verdict):
        head = f"{mover.value} {coordinate(cell, n)} only draws"
    if cell not in position.best:
        # The better move with its mark: the line after the move may take the same
        # square ("O b1 loses in 6 (O a1 draws): X answers a1").
        alternative = pick(position)
        better = verdict_phrase(position.moves[alternative])
        head += f" ({mover.value} {coordinate(alternative, n)} {better})"
    t = tactic(board, cell)
    if t.completes:
        return f"{head}: it completes {line_name(t.completes, n)}."
    after = board.play(cell)
    if after.is_game_over():
        return f"{head}: it fills the last square, and no line is complete."
    their_threats = threats(board, other)
    if their_threats and not their_threats >> cell & 1:
        target = next(cells_of(their_threats))
        finished = line_name(threatened_lines(board, other, target)[0], n)
        return (
            f"{head}: it leaves {other.value}'s threat at {coordinate(target, n)} open,"
            f" and {other.value} completes {finished} next."
        )
    if their_threats.bit_count() >= 2:
        rest = their_threats & ~(1 << cell)
        target = next(cells_of(rest))
        finished = line_name(threatened_lines(board, other, target)[0], n)
        return (
            f"{head}: {other.value} already threatens {squares(their_threats, n)} (a fork);"
            f" blocking one leaves {coordinate(target, n)}, where {other.value}"
            f" completes {finished}."
        )
    clauses: list[str] = []
    if t.blocks:
        blocked = " and ".join(line_name(line, n) for line in t.blocks)
        clauses.append(f"it blocks {blocked}" + (" (forced)" if t.forced else ""))
    if t.fork:
        clauses.append(
            f"it threatens {squares(t.threatens, n)} at once (a fork),"
            f" and {other.value} can block only one"
        )
        return f"{head}: " + "; ".join(clauses) + "."
    if t.threatens:
        clauses.append(f"it threatens {squares(t.threatens, n)}")
    story = narrate(line)
    if verdict.outcome is Outcome.DRAW:
        blocks = _blocks_on(line)
        tail = "so far" if not complete else ""
        if blocks:
            threat_words = "threat" if blocks == 1 else f"{blocks} threats"
            each = "the" if blocks == 1 else "each of the"
            summary = (
                f"on the best line {each} {threat_words} is blocked at once"
                + (f" ({tail})" if tail else "")
                + ", and the board fills with no line"
            )
        else:
            summary = "on the best line neither side ever makes a threat, and the board fills"
            summary += " with no line"
        if line:
            first = line[0]
            clause, _ = _annotation(first)
            clauses.append(
                f"{first.player.value} answers {coordinate(first.cell, n)}{clause}; {summary}"
            )
        else:
            clauses.append(summary)
        return f"{head}: " + "; ".join(clauses) + "."
    if story:
        clauses.append(story)
    elif not complete:
        clauses.append("working out the best line")
    return f"{head}: " + "; ".join(clauses) + "."


def summary(position: Analysis) -> str:
    """The position in words: its value, and which moves keep it."""
    board = position.board
    n = board.n
    mover = board.to_move.value
    value = position.value
    if value.outcome is Outcome.DRAW:
        head = f"{mover} to move: a draw with best play from both sides."
    else:
        word = "wins" if value.outcome is Outcome.WIN else "loses"
        length = "" if value.plies is None else f" in {value.plies}"
        head = f"{mover} to move {word}{length} with best play from both sides."
    groups: dict[Outcome, list[Cell]] = {outcome: [] for outcome in Outcome}
    for cell, verdict in sorted(position.moves.items()):
        groups[verdict.outcome].append(cell)
    parts = []
    for outcome, verb in ((Outcome.WIN, "win"), (Outcome.DRAW, "draw"), (Outcome.LOSS, "lose")):
        cells = groups[outcome]
        if cells:
            count = len(cells)
            moves = "move" if count == 1 else "moves"
            verb_form = verb + ("s" if count == 1 else "")
            parts.append(f"{count} {moves} {verb_form} ({squares(cells, n)})")
    text = f"{head} " + "; ".join(parts) + "."
    if len(position.best) < len(groups[value.outcome]):
        text += f" Best: {squares(list(position.best), n)}."
    return text


# Hard's guarantee --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reply:
    """One reply to Hard's move, and what Hard then gets."""

    cell: Cell
    result: Verdict
    """Hard's result after this reply, Hard playing on perfectly, counted in plies from
    the position after the reply (as the tree, the coach and `analyze` count it)."""
    best: bool
    """Whether it is among the opponent's best replies."""


@dataclass(frozen=True, slots=True)
class Guarantee:
    """Hard's move in a position, the result it promises, and every reply to it."""

    board: Board
    """The position where Hard (the side to move) plays."""
    move: Cell
    """Hard's move (one of the best; Hard picks among them at random)."""
    promised: Verdict
    """The position's value for Hard: what best play from the opponent holds it to."""
    replies: tuple[Reply, ...]
    """Every reply, in reading order (none if Hard's move ends the game)."""

    @property
    def hard(self) -> Player:
        """The side Hard plays."""
        return self.board.to_move

    @property
    def after_reply(self) -> Verdict:
        """The promise counted from the position after the reply, as each reply's result
        is: two plies (Hard's move and the reply) fewer."""
        return shortened(self.promised, 2)

    @property
    def holds(self) -> bool:
        """Whether every reply leaves Hard at least as well off as promised."""
        return all(at_least(reply.result, self.after_reply) for reply in self.replies)


def guarantee(position: Analysis, after: Analysis | None) -> Guarantee:
    """Hard's move in ``position`` (`pick`) and every reply, from the analysis of the
    position after Hard's move (None if that move ends the game)."""
    move = pick(position)
    promised = position.moves[move]
    if after is None:
        return Guarantee(position.board, move, promised, ())
    replies = tuple(
        Reply(cell, flipped(shortened(verdict, 1)), cell in after.best)
        for cell, verdict in sorted(after.moves.items())
    )
    return Guarantee(position.board, move, promised, replies)


def result_words(verdict: Verdict, side: Player) -> str:
    """A result for a side: ``X wins in 5``, ``a draw``, ``X loses in 4``, or ``X has
    lost`` when the game is already over (no plies left)."""
    if verdict.outcome is Outcome.DRAW:
        return "a draw"
    if verdict.plies == 0:
        return f"{side.value} has {'won' if verdict.outcome is Outcome.WIN else 'lost'}"
    return f"{side.value} {verdict_phrase(verdict)}"


def guarantee_lines(found: Guarantee) -> list[str]:
    """The guarantee in words: the promise, each reply, and the conclusion."""
    board, hard = found.board, found.hard
    n = board.n
    move = coordinate(found.move, n)
    promise = result_words(found.promised, hard)
    if not found.replies:
        return [
            f"Hard plays {hard.value} {move}: {promise} at worst.",
            "That move ends the game: there is no reply.",
        ]
    other = hard.other.value
    after = found.after_reply
    if after.outcome is Outcome.DRAW or after.plies is None:
        lines = [f"Hard plays {hard.value} {move}: {promise} at worst."]
    elif after.plies == 0:
        lines = [f"Hard plays {hard.value} {move}: {promise}; {other}'s best reply wins at once."]
    else:
        lines = [
            f"Hard plays {hard.value} {move}: {promise} at worst, counting this move;"
            f" after {other}'s reply, {hard.value} {verdict_phrase(after)} at worst."
        ]
    lines.append(
        f"Every reply by {other}, and what {hard.value} then gets with Hard playing on,"
        " counted from after the reply (as the tree and the coach count):"
    )
    promised = found.after_reply
    for reply in found.replies:
        outcome = result_words(reply.result, hard)
        if reply.best:
            note = f"{other}'s best: exactly the promise"
        elif rank(reply.result) > rank(promised):
            note = "better for Hard" if reply.result.outcome is not Outcome.WIN else "sooner"
            if promised.outcome is not Outcome.WIN and reply.result.outcome is Outcome.WIN:
                note = "a mistake: Hard now wins"
        else:
            note = "as promised"
        lines.append(f"  {other} {coordinate(reply.cell, n):<3} {outcome:<16} {note}")
    if found.holds:
        if found.promised.outcome is Outcome.WIN:
            end = f"a weaker {other} can only let {hard.value} win sooner."
        elif found.promised.outcome is Outcome.DRAW:
            end = f"a weaker {other} can only let {hard.value} win."
        else:
            end = f"a weaker {other} can only let {hard.value} lose later, or not at all."
        lines.append(f"No reply is worse for {hard.value} than promised: {end}")
    else:  # pragma: no cover - minimax guarantees it; a test checks every 3x3 position
        lines.append("A reply is worse than promised: the analysis is wrong.")
    return lines


# The alpha-beta walk in words --------------------------------------------------------------


def score_words(score: int) -> str:
    """A score from X's side in words: ``+5 (X wins)``, ``0 (a draw)``, ``-3 (O wins)``."""
    if score == 0:
        return "0 (a draw)"
    if score >= INFINITY:
        return "+∞"
    if score <= -INFINITY:
        return "−∞"
    side = "X" if score > 0 else "O"
    return f"{score:+d} ({side} wins)".replace("-", "−")


def bound_words(value: int) -> str:
    """α or β as shown: a score, or ∞ while nothing is known yet."""
    if value >= INFINITY:
        return "+∞"
    if value <= -INFINITY:
        return "−∞"
    return f"{value:+d}".replace("-", "−") if value else "0"


def path_words(root: Board, path: Sequence[Cell]) -> str:
    """Moves from the root: ``X a1 · O b2``, or ``the position itself``."""
    if not path:
        return "the position itself"
    board = root
    names = []
    for cell in path:
        names.append(f"{board.to_move.value} {coordinate(cell, root.n)}")
        board = board.play(cell)
    return " · ".join(names)


def step_words(root: Board, step: Step) -> list[str]:
    """One step of the alpha-beta walk, explained in a few lines."""
    where = path_words(root, step.path)
    window = f"α = {bound_words(step.alpha)}, β = {bound_words(step.beta)}"
    if step.kind is StepKind.ENTER:
        position = position_at(root, step.path)
        if step.value is not None:
            if step.value == 0:
                what = "the board is full: a draw, score 0"
            else:
                winner = "X" if step.value > 0 else "O"
                what = (
                    f"{winner} has a line: score {bound_words(step.value)}"
                    f" (squares left + 1, {'plus' if step.value > 0 else 'minus'} for {winner})"
                )
            return [f"Visit {where}: the game is over, {what}.", window]
        side = position.to_move
        goal = "the highest" if side is Player.X else "the lowest"
        return [
            f"Visit {where}: {side.value} to move, looking for {goal} score.",
            f"{window}  (α: the best X is sure of on the way here; β: the best O is sure of)",
        ]
    if step.kind is StepKind.RETURN:
        parent = step.path[:-1]
        receiver = position_at(root, parent).to_move
        kind = {0: "", 1: "at least ", -1: "at most "}[step.bound]
        came = f"{kind}{score_words(step.value or 0)}"
        best = score_words(step.best if step.best is not None else 0)
        move = f"{receiver.value} {coordinate(step.path[-1], root.n)}"
        lines = [
            f"Back up to {path_words(root, parent)}: {move} is worth {came}.",
            f"{receiver.value}'s best here so far: {best}.  {window}",
        ]
        if step.bound:
            lines.append(
                "It is a bound, not an exact value: that position stopped early, and its"
                " exact value cannot matter."
            )
        return lines
    if step.kind is StepKind.CUT:
        position = position_at(root, step.path)
        side = position.to_move
        pruned = squares(list(step.pruned), root.n)
        value = step.value or 0
        if side is Player.X:
            source = step.beta_from
            promise = f"O can already hold X to {score_words(step.beta)}"
            here = f"X gets at least {score_words(value)} here"
            opponent = "O"
        else:
            source = step.alpha_from
            promise = f"X is already sure of {score_words(step.alpha)}"
            here = f"O can hold X to at most {score_words(value)} here"
            opponent = "X"
        elsewhere = "" if source is None else f" elsewhere ({path_words(root, source)})"
        return [
            f"Cut at {where}: {here}, but {promise}{elsewhere}.",
            f"So {opponent} will never let the game come here: this branch cannot matter,"
            f" and {pruned} {'is' if len(step.pruned) == 1 else 'are'} not searched.",
            window,
        ]
    verdict = verdict_of(root, step.value or 0)
    return [
        f"Done: the position is worth {score_words(step.value or 0)},"
        f" {root.to_move.value} {verdict_phrase(verdict)} with best play.",
        f"{step.nodes:,} positions visited, {step.cuts:,} cuts: the same counts as alpha-beta"
        " on the Search tab.",
    ]


# Counts and trees as text ------------------------------------------------------------------


def count_words(count: Count) -> str:
    """One search's count in a line: positions, cuts, time, the value it found."""
    nodes = f"{count.nodes:,} positions"
    if count.search is Search.ALPHA_BETA:
        nodes += f", {count.cuts:,} cuts"
    if count.finished:
        assert count.verdict is not None
        found = f"found: {count.verdict}"
        extra = " (proof search, from empty tables)" if count.search is Search.ENGINE else ""
        return f"{nodes}{extra} in {count.seconds:.2f} s; {found}"
    done = f"{count.root_done} of {count.root_moves} moves finished"
    text = f"stopped after {nodes} ({done})"
    if count.estimate is not None:
        text += f"; the whole tree is about {big_number(count.estimate.nodes)} positions"
        text += f" (an estimate from {count.estimate.samples:,} random games)"
    return text


def big_number(value: float) -> str:
    """A count for a person: ``549,946``, or ``2.3 × 10^13`` when it is huge."""
    if value < 1e7:
        return f"{round(value):,}"
    exponent = len(str(int(value))) - 1
    mantissa = value / 10**exponent
    return f"{mantissa:.1f} × 10^{exponent}"


SCALES = ((1e12, "trillion"), (1e9, "billion"), (1e6, "million"), (1e3, "thousand"))
"""The words a rough figure is told in."""


def rough(value: float) -> str:
    """An estimate for a person, to two figures at most: ``750``, ``12 thousand``,
    ``5 million``, ``2.1 billion``; beyond trillions, ``3.4 × 10^15``."""
    if value >= 1e15:
        return big_number(value)
    for scale, word in SCALES:
        if value >= scale:
            figure = float(f"{value / scale:.2g}")
            return f"{figure:g} {word}"
    return f"{float(f'{value:.2g}'):g}"


def move_label(board: Board, cell: Cell, verdict: Verdict, best: bool) -> str:
    """A tree node: ``X c3: win in 3`` with `` *`` after a best move."""
    mover = board.to_move.value
    return f"{mover} {coordinate(cell, board.n)}: {verdict}" + (" *" if best else "")


def tree_lines(board: Board, depth: int, analyze: Analyzer, indent: str = "  ") -> Iterator[str]:
    """The game tree from ``board`` to ``depth`` plies as indented text, best moves
    marked with ``*``; each level's values from ``analyze``."""

    def walk_tree(position: Board, level: int) -> Iterator[str]:
        if level >= depth or position.is_game_over():
            return
        analysis = analyze(position)
        for cell, verdict in sorted(analysis.moves.items()):
            yield indent * (level + 1) + move_label(position, cell, verdict, cell in analysis.best)
            yield from walk_tree(position.play(cell), level + 1)

    yield from walk_tree(board, 0)


def tree_json(board: Board, depth: int, analyze: Analyzer) -> list[dict[str, Any]]:
    """The game tree from ``board`` to ``depth`` plies as nested objects: each move with
    ``move``, ``cell``, ``player``, ``value``, ``plies``, ``best`` and, above the depth
    limit, ``children`` (empty when the move ends the game)."""

    def children(position: Board, level: int) -> list[dict[str, Any]]:
        analysis = analyze(position)
        found = []
        for cell, verdict in sorted(analysis.moves.items()):
            node: dict[str, Any] = {
                "move": coordinate(cell, position.n),
                "cell": cell,
                "player": position.to_move.value,
                "value": verdict.outcome.value,
                "plies": verdict.plies,
                "best": cell in analysis.best,
            }
            if level + 1 < depth:
                after = position.play(cell)
                node["children"] = [] if after.is_game_over() else children(after, level + 1)
            found.append(node)
        return found

    if depth < 1 or board.is_game_over():
        return []
    return children(board, 0)
