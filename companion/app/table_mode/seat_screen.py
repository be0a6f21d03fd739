"""A joined phone picks who it is: one of the game's players, or "Watch only".

Choosing saves the choice in the share state (a reload keeps it: the member cookie names
the phone) and opens that player's panel, with the table one tap away; watching opens
the table. Two phones may pick the same seat (a couple sharing a seat); the list says
which seats a phone already holds.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import flet as ft

from companion.app.kit import PRIMARY_BUTTON_HEIGHT, back_button, body, heading
from companion.app.routing import Screen
from companion.app.table_mode.paths import seat_route
from companion.app.village.hub import HUB
from companion.app.village.table.paths import panel_route, table_route

if TYPE_CHECKING:
    from companion.app.context import AppContext


async def player_names(ctx: AppContext, session_id: str) -> list[str]:
    """The game's players, in seat order, from the shared copy (loaded off the loop)."""
    opened = await ctx.store.run(lambda store: HUB.open(store, session_id))
    HUB.release_later(opened)  # nobody listens here: released after the grace as usual
    return [p.name for p in opened.session.setup.players]


class SeatScreen(Screen):
    @property
    def session_id(self) -> str:
        return self.params.get("session_id", "")

    def build(self) -> ft.View:
        t = self.ctx.t
        self.choices = ft.Column([body(t("common.loading"), muted=True)], spacing=10)
        return ft.View(
            route=seat_route(self.session_id),
            # Back to the table once this phone has picked (before, the table would
            # send it here again: no arrow then).
            appbar=ft.AppBar(title=ft.Text(t("share.seat.title")),
                             leading=back_button(t("panel.common.to_table"), partial(
                                 self.ctx.go, table_route(self.session_id)))
                             if self._has_chosen() else None,
                             automatically_imply_leading=False),
            scroll=ft.ScrollMode.AUTO,
            padding=ft.Padding.symmetric(horizontal=16, vertical=12),
            controls=[body(t("share.seat.intro")), self.choices],
        )

    def _has_chosen(self) -> bool:
        share, member_id = self.ctx.share, self.ctx.member_id
        return share is None or member_id is None or share.has_chosen(member_id)

    def did_appear(self) -> None:
        self.ctx.spawn(self._load())

    async def _load(self) -> None:
        t = self.ctx.t
        try:
            names = await player_names(self.ctx, self.session_id)
        except Exception as exc:  # a game that cannot be opened: say so, never crash
            self.choices.controls = [body(self.ctx.failure_text(exc))]
            self._update()
            return
        share = self.ctx.share
        held: dict[int, int] = {}
        if share is not None:
            for member in share.registry.members(self.session_id):
                if (member.seat is not None and member.member_id != self.ctx.member_id
                        and share.has_chosen(member.member_id)):
                    held[member.seat] = held.get(member.seat, 0) + 1
        rows: list[ft.Control] = [heading(t("share.seat.who"))]
        for index, name in enumerate(names):
            label = name if index not in held else t("share.seat.taken", player=name)
            rows.append(self._choice(label, ft.Icons.PERSON, f"seat-{index}",
                                     partial(self._choose, index)))
        rows.append(self._choice(t("share.seat.watch"), ft.Icons.VISIBILITY, "seat-watch",
                                 partial(self._choose, None)))
        self.choices.controls = rows
        self._update()

    @staticmethod
    def _choice(label: str, icon: ft.IconData, identifier: str,
                on_click: Callable[[], object])  -> ft.Control:
        return ft.Semantics(identifier=identifier, content=ft.Row([ft.OutlinedButton(
            label, icon=icon, on_click=on_click, height=PRIMARY_BUTTON_HEIGHT, expand=True)]))

    def _choose(self, seat: int | None) -> None:
        share, member_id = self.ctx.share, self.ctx.member_id
        if share is None or member_id is None:  # the host has no seat to pick
            self.ctx.go(table_route(self.session_id))
            return
        share.choose_seat(member_id, seat)
        self.ctx.go(panel_route(self.session_id, f"player/{seat}") if seat is not None
                    else table_route(self.session_id))

    def _update(self) -> None:
        with contextlib.suppress(Exception):  # the client went away
            self.ctx.page.update()
