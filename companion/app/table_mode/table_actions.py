"""The table-mode buttons on the Village table's app bar: "Let phones join" for the host
while the server shares, "My seat" on a joined phone; nothing otherwise. Until the host
first opens "Let phones join" for a game (and while no phone has joined it), the table
says so in a banner (`share_hint`): the QR icon alone was found only by its tooltip."""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from companion.app.kit import icon_button
from companion.app.table_mode.paths import seat_route, share_route

if TYPE_CHECKING:
    from companion.app.context import AppContext


def table_mode_actions(ctx: AppContext, session_id: str) -> list[ft.Control]:
    if ctx.share is None:
        return []
    if ctx.member_id is None:
        route, icon, tip, ident = (share_route(session_id), ft.Icons.QR_CODE_2,
                                   ctx.t("share.host.open"), "open-share")
    else:
        route, icon, tip, ident = (seat_route(session_id), ft.Icons.EVENT_SEAT,
                                   ctx.t("share.seat.change"), "open-seat")
    return [ft.Semantics(identifier=ident, content=icon_button(icon, tip,
                                                               lambda: ctx.go(route)))]


def _opened_key(session_id: str) -> str:
    return f"share-opened:{session_id}"


def share_hint(ctx: AppContext, session_id: str) -> tuple[str, str] | None:
    """The banner's words and button on the host's table while phones could join this
    game and none has, until the host has opened "Let phones join" for it in this
    window; None otherwise."""
    if ctx.share is None or ctx.member_id is not None:
        return None
    if ctx.seen.get(_opened_key(session_id)) or ctx.share.registry.members(session_id):
        return None
    return ctx.t("share.host.hint"), ctx.t("share.host.open")


def share_opened(ctx: AppContext, session_id: str) -> None:
    """The host has seen "Let phones join" for this game: the table's hint is done."""
    ctx.seen[_opened_key(session_id)] = True
