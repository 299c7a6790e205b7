"""The proof search: can one side force a win within d plies?

Every question the engine asks reduces to one AND/OR search. The *attacker*
tries to complete a line within ``depth`` plies; the *defender* tries to stop
it, by blocking or by winning first. At an OR node the attacker is to move and
one move must work; at an AND node the defender is to move and every move must
fail. Asked with ``depth`` at least the number of empty cells, the question is
"can the attacker force a win at all"; asked for rising depths, the first that
succeeds is the exact length of the win.

What keeps the search small, each sound on its own:

- a side with a cell that completes its line wins at once; a side facing one
  such cell of the opponent must take it, facing two it has lost;
- the attacker needs ``k - m`` more marks in some line still open to it (one
  holding ``m`` of its marks and none of the defender's), so no win comes
  sooner than its ``2(k - m) - 1``-th ply, and never with no open line;
- Maker-Breaker strategies for the defender prove the attacker can never win:
  the Erdős-Selfridge bound (the open lines' potential ``sum 2^-empty`` below
  1/2, or below 1 with the defender to move) and a *pairing*, disjoint pairs of
  empty cells with one pair in each open line, answered cell for cell;
- a cell in no line still open to either side is a pass, never better than a
  real move, so it is searched only if nothing else is left;
- a transposition table keyed on the position up to the 8 symmetries of the
  square, holding for each position the deepest depth proven to fail and the
  shallowest proven to win. Only finished searches store anything, so a
  search that is cancelled (an exception) leaves the table sound.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

Mask = int
"""A set of cells as a bit mask."""

PAIRING_LINES = 28
OR_W = (1, 1)
AND_W = (2, 1)
BASE = 4
SYM_MARKS = {9: 9, 16: 16, 25: 4}

_NONE = 63
"""Stored depth meaning "not proven": larger than any real depth."""

TABLE_CAP: dict[int, int] = {3: 200_000, 4: 500_000, 5: 1_000_000}
"""Entries the transposition table may hold per board size before it is cleared."""


class Stop(Exception):  # noqa: N818 - an event, like StopIteration
    """Raised from a search's tick to abandon it (cancelled, or over its node budget)."""


class Solver:
    """The search for one geometry, with its lines, symmetries and tables.

    `or_node(a, d, depth)`: the attacker (marks ``a``) is to move; can it
    complete a line within ``depth`` plies, its own move being the first?
    `and_node(a, d, depth)`: the defender (marks ``d``) is to move; can the
    attacker complete a line within ``depth`` plies, counting the
    defender's move as the first?

    Neither side may already have a line. ``nodes`` counts positions
    expanded (table hits and immediate answers are not counted); ``tick``,
    when set, is called every 256 nodes and may raise to stop the search.
    """

    def __init__(self, n: int, k: int, lines: tuple[Mask, ...]) -> None:
        self.n, self.k = n, k
        self.size = n * n
        self.full: Mask = (1 << self.size) - 1
        self.lines = lines
        self.table: dict[int, int] = {}
        self.cap = TABLE_CAP.get(n, 1_000_000)
        self.pairings: dict[tuple[Mask, ...], bool] = {}
        self.analyses: dict[int, object] = {}
        """Finished analyses by position, kept by `ttt_tui.engine.search`."""
        self.nodes = 0
        self.tick: Callable[[], None] | None = None
        """What the running search does every 256 nodes (`ttt_tui.engine.search`)."""
        self.lock = threading.Lock()
        """Held by the running search: one search at a time uses the tables and `tick`."""
        self.perms = _symmetries(n)
        self._sym_tables = _chunk_tables(self.perms, self.size)
        self.or_node, self.and_node = self._build()

    # --- Keys ----------------------------------------------------------------------------

    def canonical(self, a: Mask, d: Mask) -> int:
        """The smallest image of ``a | d << size`` under the 8 symmetries."""
        return _canonical(self._sym_tables, a | d << self.size)

    def orient(self, a: Mask, d: Mask) -> tuple[int, tuple[int, ...]]:
        """The canonical key of a position and a symmetry that takes it there.

        The symmetry is a cell permutation: ``perm[cell]`` is where the
        position's ``cell`` lies in the canonical image.
        """
        key = a | d << self.size
        found = (key, self.perms[0])
        for perm in self.perms[1:]:
            image = 0
            for bit in range(2 * self.size):
                if key >> bit & 1:
                    image |= (
                        1 << perm[bit]
                        if bit < self.size
                        else 1 << (perm[bit - self.size] + self.size)
                    )
            if image < found[0]:
                found = (image, perm)
        return found

    def clear(self) -> None:
        """Forget every stored result, and count nodes from zero again: a budget is
        checked every 256 nodes, so a search's stopping point depends on the count's
        phase, which then no longer depends on what was searched before."""
        self.table.clear()
        self.pairings.clear()
        self.analyses.clear()
        self.nodes = 0

    # --- The search ------------------------------------------------------------------------

    def _build(
        self,
    ) -> tuple[Callable[[Mask, Mask, int], bool], Callable[[Mask, Mask, int], bool]]:
        k, km1, full, size = self.k, self.k - 1, self.full, self.size
        lines = self.lines
        table = self.table
        sym_tables = self._sym_tables
        canonical = _canonical
        solver = self
        has_pairing = self._has_pairing
        pairings = self.pairings
        maker_first = 1 << km1  # Erdős-Selfridge: sum 2^marks below this, maker to move
        breaker_first = 1 << k  # ... and below this with the breaker to move
        # Move ordering weights by marks in the line: the attacker's own lines
        # first, then blocking; the defender the other way round.
        own = tuple(BASE**c for c in range(k + 1))
        # By the side to move: (weight of its own lines, of the other side's).
        or_own = tuple(w * OR_W[0] for w in own)
        or_other = tuple(w * OR_W[1] for w in own)
        and_own = tuple(w * AND_W[0] for w in own)
        and_other = tuple(w * AND_W[1] for w in own)
        or_empty = OR_W[0] + OR_W[1]
        and_empty = AND_W[0] + AND_W[1]
        sym_marks = SYM_MARKS.get(size, size)

        def order(weighted: list[tuple[Mask, int]], allow: Mask) -> list[int]:
            """The cells of the weighted segments inside ``allow``, heaviest total first."""
            score: dict[int, int] = {}
            get = score.get
            for seg, w in weighted:
                seg &= allow
                while seg:
                    bit = seg & -seg
                    score[bit] = get(bit, 0) + w
                    seg ^= bit
            return sorted(score, key=score.__getitem__, reverse=True)

        def store(key: int, entry: int | None, fail: int, win: int) -> None:
            if entry is not None:
                old_fail, old_win = entry & 63, entry >> 6
                fail = max(fail, old_fail)
                win = min(win, old_win)
            elif len(table) >= solver.cap:
                table.clear()
            table[key] = win << 6 | fail

        def or_node(a: Mask, d: Mask, depth: int) -> bool:
            empty = full ^ (a | d)
            e = empty.bit_count()
            if depth > e:
                depth = e
            # The attacker moves on odd plies: an even depth gives it nothing more.
            depth -= not depth & 1
            if depth < 1:
                return False
            if e + sym_marks >= size:
                key = canonical(sym_tables, a | d << size) << 1
            else:
                key = (a | d << size) << 1
            entry = table.get(key)
            if entry is not None:
                if depth <= entry & 63:
                    return False
                if depth >= entry >> 6:
                    return True
            solver.nodes += 1
            if not solver.nodes & 255 and solver.tick is not None:
                solver.tick()
            d_win = top = once = twice = 0
            best = -1
            potential = 0
            open_lines: list[Mask] = []
            weighted: list[tuple[Mask, int]] = []
            for line in lines:
                if d & line:
                    if a & line:
                        continue
                    c = (d & line).bit_count()
                    if c == km1:
                        d_win |= line ^ (d & line)
                    weighted.append((line & empty, or_other[c]))
                else:
                    c = (a & line).bit_count()
                    if c == km1:
                        store(key, entry, 0, 1)
                        return True
                    seg = line & empty
                    weighted.append((seg, or_own[c] if c else or_empty))
                    if c > best:
                        best, top, once, twice = c, seg, seg, 0
                    elif c == best:
                        twice |= once & seg
                        once |= seg
                        top |= seg
                    potential += 1 << c
                    open_lines.append(seg)
            if best < 0 or d_win & (d_win - 1) or potential < maker_first:
                # No open line, two threats to stop, or an Erdős-Selfridge win for the
                # defender: the attacker never wins from here.
                store(key, entry, _NONE - 1, _NONE)
                return False
            if 2 * (k - best) - 1 > depth:
                store(key, entry, depth, _NONE)
                return False
            # With no ply to spare, every move must add to a fullest open line; with
            # three plies left, it must make two threats at once.
            allow = empty
            if 2 * (k - best) - 1 == depth:
                allow = twice if depth == 3 else top
            if d_win:
                moves = [d_win] if d_win & allow else []
            else:
                if len(open_lines) <= PAIRING_LINES:
                    paired = pairings.get(tuple(open_lines))
                    if paired is None:
                        paired = has_pairing(open_lines)
                    if paired:
                        store(key, entry, _NONE - 1, _NONE)
                        return False
                moves = order(weighted, allow)
            child = depth - 1
            for bit in moves:
                if and_node(a | bit, d, child):
                    store(key, entry, 0, depth)
                    return True
            store(key, entry, depth, _NONE)
            return False

        def and_node(a: Mask, d: Mask, depth: int) -> bool:
            empty = full ^ (a | d)
            e = empty.bit_count()
            if depth > e:
                depth = e
            # The attacker moves on even plies: an odd depth gives it nothing more.
            depth &= ~1
            if depth < 2:
                return False
            if e + sym_marks >= size:
                key = canonical(sym_tables, a | d << size) << 1 | 1
            else:
                key = (a | d << size) << 1 | 1
            entry = table.get(key)
            if entry is not None:
                if depth <= entry & 63:
                    return False
                if depth >= entry >> 6:
                    return True
            solver.nodes += 1
            if not solver.nodes & 255 and solver.tick is not None:
                solver.tick()
            a_win = 0
            best = -1
            potential = 0
            weighted: list[tuple[Mask, int]] = []
            for line in lines:
                if d & line:
                    if a & line:
                        continue
                    c = (d & line).bit_count()
                    if c == km1:
                        # The defender completes a line now.
                        store(key, entry, _NONE - 1, _NONE)
                        return False
                    weighted.append((line & empty, and_own[c]))
                else:
                    c = (a & line).bit_count()
                    if c == km1:
                        a_win |= line ^ (a & line)
                    elif c > best:
                        best = c
                    potential += 1 << c
                    weighted.append((line & empty, and_other[c] if c else and_empty))
            if a_win:
                if a_win & (a_win - 1):
                    store(key, entry, 0, 2)
                    return True
                if depth == 2:
                    store(key, entry, 2, _NONE)
                    return False
                moves = [a_win]
            else:
                if best < 0 or potential < breaker_first:
                    store(key, entry, _NONE - 1, _NONE)
                    return False
                if 2 * (k - best) > depth:
                    store(key, entry, depth, _NONE)
                    return False
                moves = order(weighted, empty)
            child = depth - 1
            for bit in moves:
                if not or_node(a, d | bit, child):
                    store(key, entry, depth, _NONE)
                    return False
            store(key, entry, 0, depth)
            return True

        return or_node, and_node

    def _has_pairing(self, open_lines: list[Mask]) -> bool:
        """Whether disjoint pairs of empty cells can put one pair inside every open line.

        The defender then answers each attacker mark in a pair with the other
        cell of the pair, and no open line can ever be completed.
        """
        # The segments come in the fixed order of the lines: the tuple is a
        # good key as it is, without sorting.
        key = tuple(open_lines)
        known = self.pairings.get(key)
        if known is None:
            if len(self.pairings) >= 200_000:
                # Cleared in place: the search holds a reference to this dict.
                self.pairings.clear()
            known = self.pairings[key] = _pairing(list(set(open_lines)), 0)
        return known


def _pairing(lines: list[Mask], used: Mask) -> bool:
    """Backtracking for `Solver._has_pairing`: cover ``lines`` avoiding ``used`` cells."""
    if not lines:
        return True
    # The line with the fewest free cells first: it has the fewest pairs to try.
    pick = min(lines, key=lambda line: (line & ~used).bit_count())
    free = pick & ~used
    if free.bit_count() < 2:
        return False
    cells = [1 << c for c in range(free.bit_length()) if free >> c & 1]
    for i, p in enumerate(cells):
        for q in cells[i + 1 :]:
            pair = p | q
            rest = [line for line in lines if line & pair != pair]
            if _pairing(rest, used | pair):
                return True
    return False


# --- Symmetry ----------------------------------------------------------------------------


def _symmetries(n: int) -> tuple[tuple[int, ...], ...]:
    """The 8 symmetries of the square as cell permutations, identity first."""
    perms = []
    for flip in (False, True):
        for turns in range(4):
            perm = []
            for cell in range(n * n):
                row, col = divmod(cell, n)
                if flip:
                    col = n - 1 - col
                for _ in range(turns):
                    row, col = col, n - 1 - row
                perm.append(row * n + col)
            perms.append(tuple(perm))
    return tuple(perms)


_CHUNK = 6
"""Bits of a key mapped by one table lookup: 64-entry tables build in a blink, which
matters for a cold 3x3 search, and a 5x5 key still takes only 9 lookups."""


def _chunk_tables(
    perms: tuple[tuple[int, ...], ...], size: int
) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each symmetry but the identity, a table per 6-bit chunk of a two-mask key.

    A key is ``a | d << size``; the image of each chunk value under a symmetry
    is precomputed, so a key's image is a handful of lookups.
    """
    bits = 2 * size
    chunks = (bits + _CHUNK - 1) // _CHUNK
    result = []
    for perm in perms[1:]:
        image = [1 << perm[b] if b < size else 1 << (perm[b - size] + size) for b in range(bits)]
        per_chunk = []
        for chunk in range(chunks):
            table = [0] * (1 << _CHUNK)
            for value in range(1, 1 << _CHUNK):
                low = value & -value
                bit = chunk * _CHUNK + low.bit_length() - 1
                table[value] = table[value ^ low] | (image[bit] if bit < bits else 0)
            per_chunk.append(tuple(table))
        result.append(tuple(per_chunk))
    return tuple(result)


def _canonical(tables: tuple[tuple[tuple[int, ...], ...], ...], key: int) -> int:
    """The smallest image of a key under the symmetries."""
    best = key
    for per_chunk in tables:
        image = 0
        rest = key
        for table in per_chunk:
            image |= table[rest & 63]
            rest >>= 6
            if not rest:
                break
        if image < best:
            best = image
    return best


_SOLVERS: dict[tuple[int, int], Solver] = {}


def solver_for(n: int, k: int, lines: tuple[Mask, ...]) -> Solver:
    """The process-wide solver of a geometry: its tables stay warm across searches."""
    found = _SOLVERS.get((n, k))
    if found is None:
        found = _SOLVERS[n, k] = Solver(n, k, lines)
    return found


def clear_tables() -> None:
    """Forget every stored result of every geometry (for tests and benchmarks)."""
    for solver in _SOLVERS.values():
        solver.clear()


def now() -> float:
    """Seconds on the monotonic clock the searches use."""
    return time.perf_counter()
