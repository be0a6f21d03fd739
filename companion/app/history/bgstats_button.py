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
from companion.app.kit.text_fit import plain
from companion.app.village.present import term
from companion.history.bgstats import Say, Term, create_play_link, english, english_term
from companion.history.names import load_merges
from companion.store.base import SessionStore

if TYPE_CHECKING:
    from companion.app.context import AppContext


#: The words the link's comments and colours are said in (companion.history.bgstats asks
#: for these keys; game terms come from the game's own catalogue namespaces).
COMMENT_KEYS = ("history.bgstats.solo.won", "history.bgstats.solo.lost",
                "history.bgstats.solo.unknown", "history.bgstats.solo.karla")
TERM_KEYS = {("variant", "standard"): "history.bgstats.variant.standard",
             ("variant", "d4"): "history.bgstats.variant.d4",
             ("policy", "ask"): "history.policy.ask", ("policy", "auto"): "history.policy.auto"}


def bgstats_words(ctx: AppContext) -> tuple[Say, Term]:
    """`say` and `term` for the link, in the player's language (plain text: it leaves
    the app)."""
    def say(key: str, **params: object) -> str:
        return plain(ctx.t(key, **params)) if key in COMMENT_KEYS else english(key, **params)

    def term_of(kind: str, value: str) -> str:
        key = TERM_KEYS.get((kind, value))
        if key is not None:
            return plain(ctx.t(key))
        return plain(term(ctx, kind, value)) if kind in ("colour", "achievement") else value

    return say, term_of


def bgstats_link(session_id: str, store: SessionStore, words: tuple[Say, Term] | None = None
                 ) -> str | None:
    """Store thread: the createPlay link of a finished game (None: not finished yet or
    its summary cannot be read)."""
    record = record_of(session_id, store)
    if record is None:
        return None
    say, term_of = words or (english, english_term)
    return create_play_link(record, load_merges(store), say=say, term=term_of)


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

    words = bgstats_words(ctx)
    ctx.in_background(lambda store: bgstats_link(session_id, store, words), then=show,
                      on_error=failed)
    return holder
