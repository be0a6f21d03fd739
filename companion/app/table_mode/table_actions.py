"""The table-mode buttons on the Village table's app bar: "Let phones join" for the host
while the server shares, "My seat" on a joined phone; nothing otherwise."""

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
