"""What an action or a turn changed, in words and as a card (issue 20). The engine works
out the changes (companion.village.changes, through the controller's Summary); this
module only words them: the time spent with where the marker now stands against the
quill, goods, grain, coins, cubes, members, points, customers and cities."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.kit import BODY_TEXT_SIZE, TOUCH_TARGET
from companion.app.village.present import note_texts, term
from companion.app.village.table.words import loc_text, player_name
from companion.village.changes import PlayerChange
from companion.village.components import ComponentData
from companion.village.state import VillageState

if TYPE_CHECKING:
    from companion.app.context import AppContext

# Notes of Karla's own move after your turn: her take, why, her fate tile, her market day.
KARLA_NOTES = ("karla_takes", "karla_why", "karla_no_cube", "karla_market", "karla_fate")
COUNTERS = (("grain", "panel.counter.grain"), ("coins", "panel.counter.coins"),
            ("prestige", "panel.counter.prestige"))
MEMBER_KEYS = {"born": "village.changes.born", "moved": "village.changes.moved",
               "died": "village.changes.died", "removed": "village.changes.removed"}


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}"


def _items(ctx: AppContext, namespace: str, counts: dict[str, int]) -> str:
    return ctx.t("village.list_sep").join(
        f"{signed(n)} {term(ctx, namespace, k)}" for k, n in counts.items())


def change_lines(ctx: AppContext, change: PlayerChange, comp: ComponentData) -> list[str]:
    """One line per kind of change, in the order a player checks them."""
    t = ctx.t
    out: list[str] = []
    sep = t("village.list_sep")

    def line(what: str, change_text: str) -> None:
        out.append(t("village.changes.line", what=what, change=change_text))

    marker = change.marker
    if marker is not None and (change.time_spent or change.quill_passed):
        where = t("panel.time.where", space=marker.space, length=marker.length)
        to_quill = t("panel.time.to_quill", count=marker.to_quill)
        key = "village.changes.time" if change.time_spent >= 0 else "village.changes.time_back"
        out.append(t(key, count=abs(change.time_spent), where=where, to_quill=to_quill))
    if change.quill_passed:
        out.append(t("village.changes.quill", count=change.quill_passed))
    if change.goods:
        line(t("panel.counter.goods"), _items(ctx, "goods", change.goods))
    for field, key in COUNTERS:
        delta = int(getattr(change, field))
        if delta:
            line(t(key), signed(delta))
    if change.cubes:
        line(t("panel.counter.cubes"), _items(ctx, "colour", change.cubes))
    if change.customers:
        points = sum(change.customers)
        out.append(ctx.tn("panel.counter.customers", points, count=len(change.customers),
                          points=points))
    if change.cities:
        line(t("panel.counter.cities"),
             sep.join("+" + t("panel.travel.city", city=c) for c in change.cities))
    for m in change.members:
        out.append(t(MEMBER_KEYS[m.kind], member=t("panel.member.gen", gen=m.gen),
                     to=loc_text(ctx, m.after), was=loc_text(ctx, m.before or "supply")))
    return out


def karla_lines(ctx: AppContext, note_data: list[dict[str, Any]]) -> list[str]:
    """Karla's take after your turn and her reasons: the engine's notes of it."""
    return note_texts(ctx, [n for n in note_data
                            if str(n.get("key", "")).startswith(KARLA_NOTES)])


def changes_card(ctx: AppContext, state: VillageState, comp: ComponentData,
                 changes: list[PlayerChange], *, title: str, identifier: str,
                 karla: list[str] | None = None, action: tuple[str, Callable[[], object]] |
                 None = None, key: str | None = None, show_empty: bool = True) -> ft.Control:
    """The changes, one paragraph per player (the acting one first), then Karla's take
    with her reasons, then the next tap."""
    fg = ft.Colors.ON_PRIMARY_CONTAINER
    rows: list[ft.Control] = [ft.Row(
        [ft.Icon(ft.Icons.CHECK_CIRCLE_OUTLINE, color=fg),
         ft.Text(title, size=BODY_TEXT_SIZE, color=fg, weight=ft.FontWeight.W_600,
                 expand=True)], vertical_alignment=ft.CrossAxisAlignment.START)]
    several = len(changes) > 1
    for change in changes:
        lines = change_lines(ctx, change, comp)
        if several:
            lines.insert(0, ctx.t("village.changes.player",
                                  player=player_name(ctx, state, change.player)))
        rows.append(ft.Semantics(identifier=f"{identifier}-player-{change.player}",
                                 content=ft.Text("\n".join(lines), size=BODY_TEXT_SIZE,
                                                 color=fg)))
    if not changes and show_empty:
        rows.append(ft.Text(ctx.t("village.changes.nothing"), size=BODY_TEXT_SIZE, color=fg))
    if karla:
        rows.append(ft.Semantics(identifier="karla-take-now", content=ft.Container(
            ft.Text("\n".join(karla), size=BODY_TEXT_SIZE, color=ft.Colors.ON_SURFACE),
            bgcolor=ft.Colors.SURFACE_CONTAINER_LOWEST, padding=8, border_radius=8)))
    if action is not None:
        label, on_click = action
        rows.append(ft.Row([ft.FilledButton(label, on_click=on_click, height=TOUCH_TARGET,
                                            key=key)],
                           alignment=ft.MainAxisAlignment.END))
    box = ft.Container(ft.Column(rows, spacing=8, tight=True), padding=12, border_radius=12,
                       bgcolor=ft.Colors.PRIMARY_CONTAINER)
    return ft.Semantics(identifier=identifier, content=box)
