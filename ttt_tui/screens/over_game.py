"""The screens opened over the game: the explorer, the puzzles, the review, the stats,
and a game against a friend online."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from ttt_tui.play.session import Session
from ttt_tui.play.settings import BoardSize, Mode
from ttt_tui.screens.game_search import AIMoved
from ttt_tui.search.client import Searcher
from ttt_tui.storage.saver import Saver

if TYPE_CHECKING:
    from textual.screen import Screen

    from ttt_tui.teach.puzzles import Puzzle


class OverGame:
    """Opens the screens over the game's ``screen``. While the explorer or the puzzles
    are open the game waits: the computer's move, if it comes meanwhile, is held
    (`hold`) and handed to ``play`` once they close."""

    def __init__(
        self,
        screen: Screen[None],
        session: Session,
        saver: Saver,
        searcher: Searcher,
        rng: random.Random,
        play: Callable[[AIMoved], None],
    ) -> None:
        self._screen = screen
        self._session = session
        self._saver = saver
        self._searcher = searcher
        self._play = play
        self._puzzle_rng = random.Random()
        """The puzzles' choices: a copy of the game's generator, so that a seed replays
        them too without changing the computer's moves."""
        self._puzzle_rng.setstate(rng.getstate())
        self._open = False
        """Whether the explorer or the puzzles are open over the game."""
        self._held: AIMoved | None = None
        """The computer's move that came while they were open."""
        self.online_screen: Screen[None] | None = None
        """The online game over the game, while it is open."""

    @property
    def waiting(self) -> bool:
        """Whether the explorer or the puzzles are open, the game waiting under them."""
        return self._open

    def hold(self, move: AIMoved) -> bool:
        """Keep ``move`` until the explorer or the puzzles close; False if neither is open."""
        if self._open:
            self._held = move
        return self._open

    def explorer(self) -> None:
        """Open the explorer on the position in play."""
        from ttt_tui.screens.explorer import ExplorerScreen

        if not self._open:
            self._open = True
            explorer = ExplorerScreen(self._session.game.board, self._searcher)
            self._screen.app.push_screen(explorer, self._closed)

    def puzzles(self, first: Puzzle | None = None) -> None:
        """Open the puzzles, on ``first`` if given (one of the player's own, from the
        review)."""
        from ttt_tui.screens.puzzles import PuzzleScreen

        if not self._open:
            self._open = True
            puzzles = PuzzleScreen(
                self._searcher,
                self._saver,
                self._puzzle_rng,
                screen_reader=self._session.settings.screen_reader,
                first=first,
            )
            self._screen.app.push_screen(puzzles, self._closed)

    def online(self, screen: Screen[None]) -> bool:
        """Open an online game (`ttt_tui.screens.friend`) over the game, which waits under
        it as under the explorer; False if another screen is open over the game."""
        if self._open:
            return False
        self._open = True
        self.online_screen = screen
        self._screen.app.push_screen(screen, self._closed)
        return True

    def _closed(self, _result: None = None) -> None:
        """The explorer, the puzzles or the online game have closed: a move held
        meanwhile is played now."""
        self._open = False
        self.online_screen = None
        held, self._held = self._held, None
        if held is not None:
            self._play(held)

    def review(self) -> None:
        """Open the review of the game just ended."""
        from ttt_tui.screens.review import ReviewScreen

        game = self._session.game
        app = self._screen.app
        if not game.is_over or isinstance(app.screen, ReviewScreen):
            return
        person = game.human if game.mode is Mode.HUMAN_VS_AI else None
        review = ReviewScreen(
            game.board.n, tuple(game.moves), self._searcher, person=person, try_again=self.puzzles
        )
        app.push_screen(review)

    def stats(self) -> None:
        """Show all-time statistics."""
        from ttt_tui.screens.stats import StatsScreen

        board = BoardSize(self._session.game.board.n)
        self._screen.app.push_screen(StatsScreen(self._saver, self._searcher, board))
