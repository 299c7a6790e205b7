"""The game tree: each node a move with its exact value, its children loaded when opened."""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from ttt_tui.engine import Analysis, Board, Cell, Outcome, Verdict, coordinate

Path = tuple[Cell, ...]
"""A node: the moves from the root that reach it."""

OUTCOME = "outcome"
"""The key, in a label's style, of the value a span shows (``win``, ``draw``, ``loss``):
the tree colours it with the theme's colour for that result as it draws the line."""


def value_style(outcome: Outcome) -> Style:
    """The style of a value in a label: for the side that plays the move."""
    return Style(meta={OUTCOME: outcome.value})


BEST = " ★"
"""After a best move (one that keeps the position's value)."""


def move_text(board: Board, cell: Cell, verdict: Verdict, best: bool) -> Text:
    """A node's label: ``X c3: win in 3 ★``, the value coloured."""
    text = Text(f"{board.to_move.value} {coordinate(cell, board.n)}: ")
    text.append(str(verdict), style=value_style(verdict.outcome))
    if best:
        text.append(BEST, style="bold")
    return text


def root_text(board: Board, value: Verdict | None) -> Text:
    """The root's label: the position's value for the side to move."""
    status = board.status
    if status.winner is not None:
        return Text(f"Now: {status.winner.value} has won")
    if board.is_game_over():
        return Text("Now: a draw")
    text = Text(f"Now: {board.to_move.value} to move, ")
    if value is None:
        text.append("proving…", style="dim")
    else:
        text.append(str(value), style=value_style(value.outcome))
    return text


class MoveTree(Tree[Path]):
    """The moves from the explored position, a level at a time.

    It holds only the nodes opened so far. Opening a node whose moves are not
    known yet (never a finished position, which has none) shows a "proving…" line
    and posts `MoveTree.Opened`; the screen
    answers with `fill` once the analysis has come. Moving the cursor posts
    `MoveTree.Chosen`.
    """

    DEFAULT_CSS = """
    MoveTree {
        border: round $foreground 25%;
        padding: 0 1;
        scrollbar-size-vertical: 1;
    }
    MoveTree:focus {
        border: round $primary;
    }
    MoveTree > .move-tree--win {
        color: $text-success;
    }
    MoveTree > .move-tree--draw {
        color: $text-warning;
    }
    MoveTree > .move-tree--loss {
        color: $text-error;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Open", show=False, tooltip="open or close a move"),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "move-tree--win",
        "move-tree--draw",
        "move-tree--loss",
    }
    """The colour of each value, for the side that plays the move."""

    class Opened(Message):
        """A node was opened whose moves are not known yet."""

        def __init__(self, path: Path) -> None:
            self.path = path
            """The node opened."""
            super().__init__()

    class Chosen(Message):
        """The cursor moved onto a node."""

        def __init__(self, path: Path) -> None:
            self.path = path
            """The node under the cursor."""
            super().__init__()

    def __init__(self, root: Board) -> None:
        super().__init__(root_text(root, None), data=())
        self.board = root
        """The explored position, at the root."""
        self._by_path: dict[Path, TreeNode[Path]] = {(): self.root}
        self._filled: set[Path] = set()
        self._waiting: dict[Path, TreeNode[Path]] = {}
        """Placeholder lines ("proving…") of nodes whose moves are on their way."""
        self.root.allow_expand = not root.is_game_over()
        self.show_root = True
        self.guide_depth = 3

    def position(self, path: Path) -> Board:
        """The position at a node."""
        board = self.board
        for cell in path:
            board = board.play(cell)
        return board

    def fill(self, path: Path, analysis: Analysis) -> None:
        """Put a node's moves under it, valued by ``analysis`` (once; later calls do nothing)."""
        node = self._by_path.get(path)
        if node is None or path in self._filled:
            return
        self._filled.add(path)
        waiting = self._waiting.pop(path, None)
        if waiting is not None:
            waiting.remove()
        board = analysis.board
        if not path:
            node.set_label(root_text(board, analysis.value))
        for cell, verdict in sorted(analysis.moves.items()):
            child_path = (*path, cell)
            ends = board.play(cell).is_game_over()
            child = node.add(
                move_text(board, cell, verdict, cell in analysis.best),
                data=child_path,
                allow_expand=not ends,
            )
            self._by_path[child_path] = child

    def waiting(self, path: Path, note: str) -> None:
        """Say under a node that its moves are being proven, and how far it has got."""
        node = self._by_path.get(path)
        if node is None or path in self._filled:
            return
        line = self._waiting.get(path)
        label = Text(note, style="dim italic")
        if line is None:
            self._waiting[path] = node.add_leaf(label)
        else:
            line.set_label(label)

    def show(self, path: Path) -> bool:
        """Open the nodes down to ``path`` and put the cursor on it; False if it is not
        in the tree yet (its parent's moves are not known)."""
        node = self._by_path.get(path)
        if node is None:
            return False
        for depth in range(len(path)):
            self._by_path[path[:depth]].expand()
        self.move_cursor(node)
        return True

    def render_label(self, node: TreeNode[Path], base_style: Style, style: Style) -> Text:
        """Textual's label, each value coloured as the theme colours its result (under
        the cursor's style, which takes precedence, as over the rest of the line)."""
        text = super().render_label(node, base_style, style)
        for span in list(text.spans):
            outcome = span.style.meta.get(OUTCOME) if isinstance(span.style, Style) else None
            if outcome is not None:
                colour = self.get_component_rich_style(f"move-tree--{outcome}", partial=True)
                text.stylize_before(colour, span.start, span.end)
        return text

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[Path]) -> None:
        # A node that cannot open is a finished position: no moves will come for it.
        # The screen opens the root whatever it is, so this is not Textual's check.
        path = event.node.data
        if path is not None and event.node.allow_expand and path not in self._filled:
            if path not in self._waiting:
                self.waiting(path, "proving…")
            self.post_message(self.Opened(path))

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[Path]) -> None:
        path = event.node.data
        if path is not None:
            self.post_message(self.Chosen(path))
