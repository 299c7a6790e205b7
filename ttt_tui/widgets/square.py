"""One square of the board: what it shows (`SquareLook`) and its text at a given size.

Pure drawing, no widget: the board (`ttt_tui.widgets.board`) paints every square
itself, so a square costs no widget to mount, style or lay out. The styles come
from the board's component classes, through the ``style`` callable.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from ttt_tui.engine import Outcome, Player, Verdict
from ttt_tui.widgets import glyphs

Styler = Callable[[str], Style]
"""The style of a component class of the board (``"board--x"``), over the square's ground."""


MARGIN = 1
"""Blank columns kept between a square's words and each of its edges."""

HINTS = ("★ best", "★")
"""How a hint is worded, longest first."""
PENDING = ("proving…", "…")
"""How a verdict still being worked out is worded, longest first."""


class VerdictForm(enum.Enum):
    """How a coach's verdict is worded, longest first."""

    FULL = "full"
    """``win in 3``, ``draw``, ``loss in 2``."""
    SHORT = "short"
    """``win 3``, ``draw``, ``loss 2``."""
    LETTER = "letter"
    """``W3``, ``D``, ``L2``."""


def verdict_text(verdict: Verdict, form: VerdictForm) -> str:
    """A verdict worded in ``form``; a win or loss of unknown length is just ``win``,
    ``loss`` (or ``W``, ``L``)."""
    if form is VerdictForm.FULL:
        return str(verdict)
    word: str = verdict.outcome.value
    plies = "" if verdict.outcome is Outcome.DRAW or verdict.plies is None else str(verdict.plies)
    return f"{word} {plies}".rstrip() if form is VerdictForm.SHORT else f"{word[0].upper()}{plies}"


@dataclass(frozen=True, slots=True)
class Wording:
    """The words the squares of a board use. A board chooses them once for all its
    squares, so the same verdict reads the same on every square, and the squares a
    column wider than the others say no more than they do."""

    verdicts: VerdictForm = VerdictForm.FULL
    """How the coach's verdicts are worded."""
    hint: str = HINTS[0]
    """What marks a hinted square."""
    pending: str = PENDING[0]
    """What stands for a verdict still being worked out."""
    star_gap: str = " "
    """What goes between a verdict and the star where they share a line: a space
    where every verdict shown leaves the margins with one, none where one would not."""


def wording(verdicts: Iterable[Verdict], width: int) -> Wording:
    """The longest words that fit a square ``width`` columns wide (the board's
    narrowest) with `MARGIN` to spare, each verdict form chosen for all ``verdicts``
    at once; the shortest where nothing fits."""
    room = width - 2 * MARGIN

    def fits(texts: Iterable[str]) -> bool:
        return all(cell_len(text) <= room for text in texts)

    shown = set(verdicts)
    form = next(
        (form for form in VerdictForm if fits(verdict_text(v, form) for v in shown)),
        VerdictForm.LETTER,
    )
    hint = next((text for text in HINTS if fits([text])), HINTS[-1])
    pending = next((text for text in PENDING if fits([text])), PENDING[-1])
    spaced = fits(f"{verdict_text(v, form)} {HINTS[-1]}" for v in shown)
    return Wording(form, hint, pending, " " if spaced else "")


@dataclass(frozen=True, slots=True)
class SquareLook:
    """Everything a square shows."""

    mark: Player | None = None
    """The mark on this square, if any."""
    last: bool = False
    """Whether the most recent move was played here."""
    verdict: Verdict | None = None
    """The coach's verdict for playing here, shown when set."""
    hint: bool = False
    """Whether a hint points here."""
    cursor: bool = False
    """Whether the keyboard cursor is here."""
    named: bool = False
    """Whether a mark here is named in text with the cursor's pointers (``▶ 5 X ◀``)."""
    win: bool = False
    """Whether this square is on the winning line."""
    lost: bool = False
    """Whether the winning line through it is the person's loss."""
    pending: bool = False
    """Whether the coach is still working out this square's verdict (not proven yet)."""


def background(look: SquareLook) -> str | None:
    """The component class whose background paints the square, if any: the winning
    line (or the person's loss) first, then the cursor and the hint."""
    if look.win:
        return "board--line-lost" if look.lost else "board--line"
    if look.cursor and look.hint:
        return "board--cursor-hint"
    if look.cursor:
        return "board--cursor"
    if look.hint:
        return "board--hint"
    return None


def draw(
    look: SquareLook,
    label: str,
    width: int,
    height: int,
    style: Styler,
    words: Wording,
    mark_size: tuple[int, int] | None = None,
) -> Text:
    """The square as ``height`` lines of ``width`` cells: its content centred both ways
    on its ground (painted when `background` says so). ``label`` is the square's
    name while it is empty (its number); its verdict, hint or pending verdict are
    worded as ``words`` says. A mark is drawn to fit ``mark_size`` (columns, rows;
    the square's own size if None): the board gives every square the size of its
    smallest, so that all marks come out alike."""
    glyph_width, glyph_height = mark_size or (width, height)
    content = _content(look, label, width, height, style, words, glyph_width, glyph_height)
    painted = background(look)
    return fill(content, width, height, style(painted or "board--square"))


def fill(text: Text, width: int, height: int, ground: Style) -> Text:
    """``text`` centred in a ``width`` x ``height`` block whose every cell has the
    ``ground``'s background; the text keeps its own colours."""
    lines = text.split("\n", allow_blank=True)[:height] if height else []
    top = max(height - len(lines), 0) // 2
    blank = Text(" " * width)
    rows = [blank] * top + lines + [blank] * (height - top - len(lines))
    block = Text("\n").join(_centred(row, width) for row in rows)
    block.style = ground
    # The labels' own styles carry the square's plain ground: paint over it.
    block.stylize(Style(bgcolor=ground.bgcolor), 0, len(block))
    return block


def _centred(row: Text, width: int) -> Text:
    """A row cut to ``width`` and centred in it; the padding takes the ground's style."""
    row = row.copy()
    row.truncate(width)
    excess = width - row.cell_len
    return Text.assemble(" " * (excess // 2), row, " " * (excess - excess // 2))


def _content(
    look: SquareLook,
    label: str,
    width: int,
    height: int,
    style: Styler,
    words: Wording,
    glyph_width: int,
    glyph_height: int,
) -> Text:
    if look.mark is not None:
        lines = glyphs.draw(look.mark.value, glyph_width, glyph_height)
        text = Text("\n".join(lines), style=style(f"board--{look.mark.value.lower()}"))
        # Said in a word, not only by a colour (with NO_COLOR, or to a colour-blind
        # eye): the winning line, else the last move.
        word = "win line" if look.win else "last move" if look.last else None
        tags: list[Text] = []
        room = height - len(lines)
        if look.named:
            # The square's number and its mark where the terminal's cursor sits, for a
            # screen reader (the mark's glyph is shapes, not a letter); in the glyph's
            # place where there is no room beside it.
            mark = look.mark.value
            named = (f"▶ {label} {mark} ◀", f"▶{label} {mark}◀", f"▶{label}{mark}◀")
            pointer = next((shown for shown in named if len(shown) <= width), named[-1])
            if room < 1:
                return Text(pointer, style=style(f"board--{mark.lower()}"))
            tags.append(Text(pointer, style=style("board--number")))
        if word is not None and room >= len(tags) + 1 + (not tags):
            tags.append(Text(word, style=style("board--last")))
        elif word is not None:
            text.stylize(Style(underline=True))
        if tags:
            # A blank line above a single tag balances it, keeping the mark level with
            # the marks in the other squares.
            above = "\n" if len(tags) == 1 and room >= 2 else ""
            text = Text.assemble(above, text, "\n", Text("\n").join(tags))
        return text
    if look.cursor:
        # Marked in text, not only by the background: with NO_COLOR (or to a
        # colour-blind eye) the cursor and a hinted square look alike.
        label = next(
            (shown for shown in (f"▶ {label} ◀", f"▶{label}◀") if len(shown) <= width), label
        )
    number = Text(label, style=style("board--number"))
    said: list[Text] = []
    if look.verdict is not None:
        outcome = look.verdict.outcome.value
        verdict = verdict_text(look.verdict, words.verdicts)
        said.append(Text(verdict, style=style(f"board--{outcome}")))
    elif look.pending:
        said.append(Text(words.pending, style=style("board--number")))
    if look.hint:
        said.append(Text(words.hint, style=style("board--best")))
    if height >= 1 + len(said):
        return Text("\n").join([number, *said])
    # Too short for a line apiece: the verdict and the star share one, under the
    # number if there is room (a short square used to lose its star and number).
    if look.hint and len(said) == 2:
        # Spaced alike on every square of the board (`Wording.star_gap`).
        star = Text(HINTS[-1], style=style("board--best"))
        said = [Text.assemble(said[0], words.star_gap, star)]
    return Text("\n").join([number, *said] if height >= 2 else said)
