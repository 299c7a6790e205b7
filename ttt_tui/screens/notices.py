"""Telling the person what the store could not do."""

from __future__ import annotations

from textual.widget import Widget

from ttt_tui.storage import Store


def show_store_notices(screen: Widget, store: Store) -> None:
    """Show each pending storage notice once.

    Notices quote paths and file contents, so they are shown as plain text:
    a folder named ``[old]`` must not read as markup.
    """
    for notice in store.take_notices():
        screen.notify(notice, title="Saving", severity="warning", timeout=8, markup=False)
