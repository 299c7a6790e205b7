"""The Textual app: title, styles, global bindings and the game screen."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import ClassVar

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen

from ttt_tui.engine import Difficulty, Player, choose_move
from ttt_tui.screens.game import GameScreen, MoveChooser
from ttt_tui.screens.help import HelpScreen


class TicTacToeApp(App[None]):
    """Tic-tac-toe against a minimax opponent."""

    TITLE = "ttt-tui"
    SUB_TITLE = "tic-tac-toe vs minimax"
    CSS_PATH = "app.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(
        self,
        difficulty: Difficulty = Difficulty.MEDIUM,
        mark: Player = Player.X,
        ai_delay: float = 0.0,
        seed: int | None = None,
        move_chooser: MoveChooser = choose_move,
    ) -> None:
        super().__init__()
        self._game_screen = GameScreen(
            difficulty, mark, ai_delay, random.Random(seed), move_chooser
        )

    def get_default_screen(self) -> Screen[None]:
        return self._game_screen

    def action_help(self) -> None:
        """Show the rules and bindings."""
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        game = self._game_screen
        yield SystemCommand("New game", "Start a new game", game.action_new_game)
        for difficulty in Difficulty:
            yield SystemCommand(
                f"Difficulty: {difficulty.value.capitalize()}",
                f"The computer plays at {difficulty.value} from its next move",
                lambda d=difficulty: game.set_difficulty(d),
            )
        yield SystemCommand("Help", "The rules and every key", self.action_help)
