"""What a joined phone is told about the turn: whose turn it is, at the top of the table and
of every panel, and "Your turn" (highlighted, with a vibration where the phone has one) the
moment the game comes to its seat.

`SeatStrip(ctx)` is the line at the top; `update(state, comp)` shows the state and returns
whether this phone's seat is up. `notice_turn(ctx, up)` remembers, per client, whether its
seat was up at the last change and vibrates when it becomes up (not when a screen merely
opens on it). The host's screens show neither: the table's own header says whose turn.
Who the game waits for comes from the engine (`Reader.waiting_for`).
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

import flet as ft

from companion.app.kit import BODY_TEXT_SIZE
from companion.app.table_mode.acting import controls_locked, phone_seat
from companion.app.village.table.words import player_name
from companion.village.read import Reader

if TYPE_CHECKING:
    from companion.app.context import AppContext
    from companion.village.components import ComponentData
    from companion.village.state import VillageState

# Per client: was its seat up at the last change it heard? (weak: a client that went
# away is forgotten with its context)
_WAS_UP: weakref.WeakKeyDictionary[AppContext, bool] = weakref.WeakKeyDictionary()


def is_phone(ctx: AppContext) -> bool:
    return ctx.member_id is not None and ctx.share is not None


def seat_is_up(ctx: AppContext, state: VillageState, comp: ComponentData) -> bool:
    """True when the game waits for this phone's own seat (and the phone may act)."""
    seat = phone_seat(ctx)
    return (seat is not None and not controls_locked(ctx)
            and Reader(state, comp).waiting_for() == seat)


def notice_turn(ctx: AppContext, up: bool) -> bool:
    """Remember whether this phone's seat is up; True (and a vibration) when it has just
    become up since the last change this phone heard."""
    was = _WAS_UP.get(ctx)
    _WAS_UP[ctx] = up
    if up and was is False:
        ctx.device.haptic("vibrate")
        return True
    return False


def seat_state_text(ctx: AppContext, state: VillageState, comp: ComponentData) -> str:
    """The line at the top of a phone's screens."""
    t = ctx.t
    up = Reader(state, comp).waiting_for()
    seat = phone_seat(ctx)
    watching = seat is None or controls_locked(ctx)
    # A market day waits for each seller in turn while it is still the taker's turn
    # (the table's header says so): the line names the sale, not another turn.
    selling = state.market_day is not None and up is not None and up != state.current
    if not watching and seat is not None and up == seat:
        return t("share.turn.your_sale" if selling else "share.turn.yours",
                 player=player_name(ctx, state, seat))
    if up is None:
        whose = t("share.turn.nobody")
    else:
        whose = t("share.turn.sells" if selling else "share.turn.whose",
                  player=player_name(ctx, state, up))
    if watching:
        return t("share.turn.watching", turn=whose)
    assert seat is not None
    return t("share.turn.you_are", turn=whose, player=player_name(ctx, state, seat))


class SeatStrip:
    """The phone's line at the top: whose turn, and who this phone is; highlighted (and
    named "Your turn") while its seat is up."""

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self.icon = ft.Icon(ft.Icons.HOURGLASS_EMPTY, size=24)
        self.text = ft.Text("", size=BODY_TEXT_SIZE, weight=ft.FontWeight.W_600, expand=True)
        self.box = ft.Container(
            content=ft.Row([self.icon, self.text], spacing=10,
                           vertical_alignment=ft.CrossAxisAlignment.CENTER),
            padding=ft.Padding.symmetric(horizontal=12, vertical=10), border_radius=8,
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST)
        self.control = ft.Semantics(identifier="seat-state", live_region=True,
                                    content=self.box)
        self.up: bool | None = None

    def update(self, state: VillageState, comp: ComponentData) -> bool:
        """Show `state`; True while this phone's seat is up."""
        up = seat_is_up(self.ctx, state, comp)
        text = seat_state_text(self.ctx, state, comp)
        if self.text.value != text:
            self.text.value = text
            self.control.label = text
        if up != self.up:
            self.up = up
            self.icon.icon = ft.Icons.NOTIFICATIONS_ACTIVE if up else ft.Icons.HOURGLASS_EMPTY
            self.icon.color = ft.Colors.ON_PRIMARY if up else ft.Colors.ON_SURFACE_VARIANT
            self.text.color = ft.Colors.ON_PRIMARY if up else None
            self.text.size = 20 if up else BODY_TEXT_SIZE
            self.box.bgcolor = ft.Colors.PRIMARY if up else ft.Colors.SURFACE_CONTAINER_HIGHEST
            self.control.identifier = "seat-state-up" if up else "seat-state"
        return up
