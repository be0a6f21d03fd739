""""Log in BG Stats" on a finished game's sheet: opens BG Stats' createPlay link
(companion.history.bgstats) with the game's record, as stored when it was finished.

The link is built on the store thread when the sheet is shown, and handed to the button
as its `url`: the web client then opens it inside the tap itself. (A `page.launch_url`
after a server round trip opens a window outside the tap, which phone browsers may
block as a pop-up.)"""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from companion.app.history.data import record_of
from companion.app.kit import PRIMARY_BUTTON_HEIGHT
from companion.history.bgstats import create_play_link
from companion.history.names import load_merges
from companion.store.base import SessionStore

if TYPE_CHECKING:
    from companion.app.context import AppContext


def bgstats_link(session_id: str, store: SessionStore) -> str | None:
    """Store thread: the createPlay link of a finished game (None: not finished yet or
    its summary cannot be read)."""
    record = record_of(session_id, store)
    return None if record is None else create_play_link(record, load_merges(store))


def bgstats_button(ctx: AppContext, session_id: str) -> ft.Control:
    """A full-width "Log in BG Stats" button; shown once the link is ready (hidden for
    a game whose record cannot be built)."""
    holder = ft.Semantics(identifier="bgstats", visible=False)

    def show(link: str | None) -> None:
        if link is None:
            return
        holder.content = ft.Row([ft.OutlinedButton(
            ctx.t("history.bgstats"), icon=ft.Icons.OPEN_IN_NEW,
            url=ft.Url(link, target=ft.UrlTarget.BLANK), height=PRIMARY_BUTTON_HEIGHT,
            expand=True, tooltip=ctx.t("history.bgstats_hint"))])
        holder.visible = True

    def failed(exc: Exception) -> None:  # no button, nothing else lost
        holder.visible = False

    ctx.in_background(lambda store: bgstats_link(session_id, store), then=show,
                      on_error=failed)
    return holder
