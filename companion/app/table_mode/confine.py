"""A joined phone sees its one game and nothing else.

`member_router(ctx, routes, not_found)` is the Router of a phone's client: every route
that is not that game's table, panels, round end, log, rules or seat screen is shown as the game's
table instead (Home, Settings, other games and the host's share screen never render,
not even underneath: the stack starts at the table). A phone without a seat yet goes to
the seat screen; a phone the host removed, or after sharing stopped, to a short note.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import flet as ft

from companion.app.routing import Router, RouteSpec, ScreenFactory, match, normalize
from companion.app.table_mode.paths import LEFT_ROUTE, SEAT_PATTERN, seat_route
from companion.app.village.table.paths import (
    GAME_RULES_PATTERN,
    LOG_PATTERN,
    LOG_RULES_PATTERN,
    ROUND_END_PATTERN,
    TABLE_PATTERN,
    panel_route,
    table_route,
)
from companion.web.share_guard import member_id_from_user_agent

if TYPE_CHECKING:
    from companion.app.context import AppContext
    from companion.app.table_mode.sharing import TableShare

# What a phone may open, each for its own game only (the round end too: it opens by
# itself on every screen that shows the table when a round ends).
MEMBER_PATTERNS = (
    TABLE_PATTERN, LOG_PATTERN, GAME_RULES_PATTERN, LOG_RULES_PATTERN, SEAT_PATTERN,
    ROUND_END_PATTERN,
    *(f"{TABLE_PATTERN}/{panel}" for panel in ("player/:index", "player/:index/:action",
                                               "market", "mass", "chronicle", "score")),
)


def joined_member(share: TableShare | None, page: ft.Page) -> str | None:
    """The member id of a joined phone's client (ShareGuard tags its WebSocket); None for
    the host and whenever the server is not sharing."""
    if share is None:
        return None
    return member_id_from_user_agent(getattr(page, "client_user_agent", None))


def member_router(ctx: AppContext, routes: Mapping[str, RouteSpec],
                  not_found: ScreenFactory) -> Router:
    assert ctx.share is not None and ctx.member_id is not None
    return MemberRouter(ctx, routes, not_found, ctx.share, ctx.member_id)


class MemberRouter(Router):
    def __init__(self, ctx: AppContext, routes: Mapping[str, RouteSpec],
                 not_found: ScreenFactory, share: TableShare, member_id: str) -> None:
        super().__init__(ctx, routes, not_found)
        self._share = share
        self._member_id = member_id

    def landing(self) -> str:
        """Where the phone opens: the seat screen first, then its player's panel (or the
        table when it only watches)."""
        member = self._share.member(self._member_id)
        if member is None:
            return LEFT_ROUTE
        if not self._share.has_chosen(self._member_id):
            return seat_route(member.game_id)
        if member.seat is not None:
            return panel_route(member.game_id, f"player/{member.seat}")
        return table_route(member.game_id)

    def permitted(self, route: str) -> str:
        """`route` when this phone may see it, else where it goes instead."""
        route = normalize(route)
        member = self._share.member(self._member_id)
        if member is None:
            return LEFT_ROUTE
        if route == LEFT_ROUTE or route == "/":
            return self.landing()
        if self._in_game(route, member.game_id):
            if not self._share.has_chosen(self._member_id) and route != seat_route(
                    member.game_id):
                return seat_route(member.game_id)
            return route
        return (table_route(member.game_id) if self._share.has_chosen(self._member_id)
                else seat_route(member.game_id))

    @staticmethod
    def _in_game(route: str, game_id: str) -> bool:
        for pattern in MEMBER_PATTERNS:
            params = match(pattern, route)
            if params is not None and params.get("session_id") == game_id:
                return True
        return False

    def chain(self, route: str) -> list[str]:
        """The stack starts at the game's table: Home is never built for a phone."""
        full = super().chain(route)
        member = self._share.member(self._member_id)
        if member is None:
            return [route]
        kept = [r for r in full if r == route or self._in_game(r, member.game_id)]
        return kept or [route]

    def show(self, route: str) -> None:
        wanted = normalize(route)
        target = self.permitted(wanted)
        super().show(target)
        if target != wanted:  # the browser asked for something else: show where it is
            self._ctx.page.navigate(target)

    def go(self, route: str) -> None:
        super().go(self.permitted(route))

    def back(self) -> None:
        """The table is a phone's first screen: back from above it returns to it; on the
        table itself there is nowhere further back (Home is not the phone's), so it stays
        (before, it jumped forward to the phone's own panel)."""
        if len(self._stack) > 1:
            super().back()
