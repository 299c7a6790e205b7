"""A dialog: a modal screen over the game, with the guards every screen of the game has."""

from __future__ import annotations

from typing import TypeVar

from textual.screen import ModalScreen

from ttt_tui.screens.base import BaseScreen

ResultT = TypeVar("ResultT")


class Dialog(ModalScreen[ResultT], BaseScreen[ResultT]):
    """A `ModalScreen` that closes once, however many closing keys or clicks arrive
    together (`BaseScreen.dismiss`)."""
