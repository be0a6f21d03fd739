"""The player panel's read-and-correct sections: time ring, counters, cities, family."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.village.panel_members import (
    gens_text,
    group_members,
    groups_by_loc,
    place_label,
)
from companion.app.village.panel_widgets import card, choice_chips, cube, muted, stepper
from companion.app.village.player_time_ring import time_ring
from companion.app.village.present import term
from companion.village.components import ComponentData
from companion.village.state import Player, VillageState

if TYPE_CHECKING:
    from companion.app.context import AppContext

Adjust = Callable[[str, str | None, int], Awaitable[Any]]
TIME_STEPS = (1, 2, 3)
COUNTER_KEYS = {"grain": "panel.counter.grain", "coins": "panel.counter.coins",
                "prestige": "panel.counter.prestige"}


def time_card(ctx: AppContext, p: Player, length: int,
              spend: Callable[[int], Callable[[], Awaitable[Any]]]) -> ft.Control:
    t = ctx.t
    buttons: list[ft.Control] = [
        ft.FilledTonalButton(f"+{n}", icon=ft.Icons.HOURGLASS_BOTTOM, on_click=spend(n),
                             key=f"time-plus-{n}", tooltip=t("panel.time.spend", count=n),
                             height=56, expand=True)
        for n in TIME_STEPS]
    lines: list[ft.Control] = [
        ft.Row([time_ring(ctx, length=length, position=p.time, colour=p.colour,
                          deaths_owed=p.deaths_pending)],
               alignment=ft.MainAxisAlignment.CENTER),
        ft.Row(buttons, spacing=8),
    ]
    if p.deaths_pending:
        lines.append(ft.Semantics(identifier="deaths-owed", content=ft.Text(
            t("panel.time.death_notice", player=p.name, count=p.deaths_pending),
            size=16, color=ft.Colors.ERROR, weight=ft.FontWeight.W_600)))
    return card(t("panel.time.title"), lines, identifier="time-card")


def counters_card(ctx: AppContext, p: Player, comp: ComponentData, adjust: Adjust) -> ft.Control:
    """Every tracked counter with −/+ (adjust: cubes and goods move to/from the supply)."""
    t = ctx.t

    def step(field: str, key: str | None, delta: int) -> Callable[[], Awaitable[Any]]:
        async def run() -> None:
            await adjust(field, key, delta)
        return run

    def row(label: str | ft.Control, name: str, value: int, field: str, key: str | None,
            note: str | None = None) -> ft.Control:
        return stepper(label, value, step(field, key, -1), step(field, key, +1),
                       key=f"adjust-{field}" + (f"-{key}" if key else ""),
                       minus_tip=t("panel.common.less", what=name),
                       plus_tip=t("panel.common.more", what=name), note=note)

    cap = int(comp.v("grain_max"))
    rows: list[ft.Control] = []
    for field in ("grain", "coins", "prestige"):
        label = t(COUNTER_KEYS[field])
        note = t("panel.counter.grain_cap", cap=cap) if field == "grain" else None
        rows.append(row(label, label, getattr(p, field), field, None, note))
    rows.append(muted(t("panel.counter.cubes")))
    for colour in comp.v("influence_colours"):
        name = term(ctx, "colour", colour)
        rows.append(row(ft.Row([cube(ctx, colour), ft.Text(name, size=16)], spacing=8), name,
                        p.cubes.get(colour, 0), "cubes", colour))
    rows.append(muted(t("panel.counter.goods")))
    for goods in comp.v("goods_types"):
        name = term(ctx, "goods", goods)
        rows.append(row(name, name, p.goods.get(goods, 0), "goods", goods))
    return card(t("panel.counter.title"), rows, identifier="counters")


def cities_card(ctx: AppContext, p: Player, comp: ComponentData,
                toggle: Callable[[str], Any]) -> ft.Control:
    t = ctx.t
    options = [(str(c), t("panel.travel.city", city=c))
               for c in range(1, int(comp.v("travel_cities")) + 1)]
    served = t("panel.counter.customers", count=len(p.customers), points=sum(p.customers))
    return card(t("panel.counter.cities"), [
        muted(t("panel.counter.cities_hint")),
        choice_chips(options, {str(c) for c in p.cities}, toggle, key="city"),
        ft.Text(served, size=16),
    ], identifier="cities")


def family_card(ctx: AppContext, state: VillageState, player: int) -> ft.Control:
    """Members by place, with the generations there ("Council level 2: gen 1 ×2")."""
    t = ctx.t
    groups = group_members(state.members_of(player))
    rows: list[ft.Control] = []
    for loc, here in groups_by_loc(groups).items():
        count = sum(len(g.ids) for g in here)
        rows.append(ft.Container(
            ft.Row([ft.Text(place_label(ctx, loc), size=16, weight=ft.FontWeight.W_600,
                            expand=True),
                    ft.Text(gens_text(ctx, here), size=16),
                    ft.Container(ft.Text(str(count), size=18, weight=ft.FontWeight.BOLD),
                                 width=32, alignment=ft.Alignment.CENTER_RIGHT)],
                   vertical_alignment=ft.CrossAxisAlignment.CENTER),
            padding=ft.Padding.symmetric(vertical=6), key=f"family-{loc}"))
    return card(t("panel.family.title"), rows, identifier="family")
