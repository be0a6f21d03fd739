"""The player panel's read-and-correct sections: time ring, counters, cities, family."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import flet as ft

from companion.app.kit import (
    TOUCH_TARGET,
    apply_button,
    card,
    choice_chips,
    icon_button,
    muted,
    stepper,
)
from companion.app.village.panel.members import (
    gens_text,
    group_label,
    group_members,
    groups_by_loc,
    place_label,
)
from companion.app.village.panel.time_ring import time_ring
from companion.app.village.present import term
from companion.app.village.table.cubes import cube
from companion.app.village.table.words import loc_text
from companion.village.components import ComponentData
from companion.village.read import Reader, TimeMarker
from companion.village.state import Player, VillageState

if TYPE_CHECKING:
    from companion.app.context import AppContext

Adjust = Callable[[str, str | None, int], Awaitable[object]]
TIME_STEPS = (1, 2, 3)
COUNTER_KEYS = {"grain": "panel.counter.grain", "coins": "panel.counter.coins",
                "prestige": "panel.counter.prestige"}


def time_card(ctx: AppContext, p: Player, marker: TimeMarker,
              spend: Callable[[int], Callable[[], Awaitable[object]]],
              take_back: Callable[[], Awaitable[object]]) -> ft.Control:
    t = ctx.t
    # −1 takes back time spent by mistake (back over the quill cancels a death owed).
    # Narrow padding: four buttons share a 360 px phone without wrapping a label.
    narrow = ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=4))
    buttons: list[ft.Control] = [
        ft.OutlinedButton("−1", on_click=take_back, key="time-minus-1", style=narrow,
                          tooltip=t("panel.time.take_back", count=1), height=56, expand=True)]
    buttons += [
        ft.FilledTonalButton(f"+{n}", icon=ft.Icons.HOURGLASS_BOTTOM, on_click=spend(n),
                             key=f"time-plus-{n}", tooltip=t("panel.time.spend", count=n),
                             height=56, expand=True, style=narrow)
        for n in TIME_STEPS]
    lines: list[ft.Control] = [
        ft.Row([time_ring(ctx, marker=marker, colour=p.colour,
                          deaths_owed=p.deaths_pending)],
               alignment=ft.MainAxisAlignment.CENTER),
        ft.Row(buttons, spacing=8),
    ]
    if p.deaths_pending:
        lines.append(ft.Semantics(identifier="deaths-owed", content=ft.Text(
            t("panel.time.death_notice", player=ctx.t("village.karla") if p.kind == "karla"
              else p.name, count=p.deaths_pending),
            size=16, color=ft.Colors.ERROR, weight=ft.FontWeight.W_600)))
    return card(t("panel.time.title"), lines, identifier="time-card")


def counters_card(ctx: AppContext, p: Player, comp: ComponentData, adjust: Adjust) -> ft.Control:
    """Every tracked counter with −/+ (adjust: cubes and goods move to/from the supply)."""
    t = ctx.t

    def step(field: str, key: str | None, delta: int) -> Callable[[], Awaitable[object]]:
        async def run() -> None:
            await adjust(field, key, delta)
        return run

    def row(label: str | ft.Control, name: str, value: int, field: str, key: str | None,
            note: str | None = None) -> ft.Control:
        return stepper(label, value, step(field, key, -1), step(field, key, +1),
                       key=f"adjust-{field}" + (f"-{key}" if key else ""),
                       minus_tip=t("panel.common.less", what=name),
                       plus_tip=t("panel.common.more", what=name), note=note)

    cap = comp.n("grain_max")
    rows: list[ft.Control] = []
    for field in ("grain", "coins", "prestige"):
        label = t(COUNTER_KEYS[field])
        note = t("panel.counter.grain_cap", cap=cap) if field == "grain" else None
        rows.append(row(label, label, getattr(p, field), field, None, note))
    rows.append(muted(t("panel.counter.cubes")))
    for colour in comp.names("influence_colours"):
        name = term(ctx, "colour", colour)
        rows.append(row(ft.Row([cube(ctx, colour), ft.Text(name, size=16)], spacing=8), name,
                        p.cubes.get(colour, 0), "cubes", colour))
    rows.append(muted(t("panel.counter.goods")))
    for goods in comp.names("goods_types"):
        name = term(ctx, "goods", goods)
        rows.append(row(name, name, p.goods.get(goods, 0), "goods", goods))
    return card(t("panel.counter.title"), rows, identifier="counters")


def cities_card(ctx: AppContext, p: Player, comp: ComponentData,
                toggle: Callable[[str], object]) -> ft.Control:
    t = ctx.t
    options = [(str(c), t("panel.travel.city", city=c))
               for c in comp.cities()]
    return card(t("panel.counter.cities"), [
        muted(t("panel.counter.cities_hint")),
        choice_chips(options, {str(c) for c in p.cities}, toggle, key="city"),
    ], identifier="cities")


@dataclass
class CustomerEdits:
    """What the customers card asks the screen to do (each dispatches one correction)."""

    points: Callable[[int, int], Callable[[], Awaitable[object]]]  # (tile index, new points)
    remove: Callable[[int], Callable[[], Awaitable[object]]]  # tile index
    add: Callable[[], Awaitable[object]]
    add_refusal: str | None  # why a tile cannot be added now (None: it can)


def customers_card(ctx: AppContext, p: Player, edits: CustomerEdits) -> ft.Control:
    """The customer tiles served, each with its printed points editable and a way to take
    it back; a tile the log lacks can be added."""
    t = ctx.t
    rows: list[ft.Control] = [ft.Text(ctx.tn("panel.counter.customers", sum(p.customers),
                                             count=len(p.customers), points=sum(p.customers)),
                                      size=16, key="served")]
    for i, points in enumerate(p.customers):
        name = t("panel.customers.tile", number=i + 1)
        rows.append(ft.Row([
            ft.Container(stepper(name, points, edits.points(i, points - 1),
                                 edits.points(i, points + 1), key=f"tile-{i}",
                                 minus_tip=t("panel.common.less", what=name),
                                 plus_tip=t("panel.common.more", what=name),
                                 minus_disabled=points == 0), expand=True),
            icon_button(ft.Icons.DELETE_OUTLINE, t("panel.customers.remove", number=i + 1),
                        edits.remove(i), key=f"tile-{i}-remove"),
        ], spacing=0))
    rows.append(ft.Row([ft.OutlinedButton(
        t("panel.customers.add"), icon=ft.Icons.ADD, on_click=edits.add, key="tile-add",
        disabled=edits.add_refusal is not None, height=TOUCH_TARGET, expand=True)]))
    if edits.add_refusal is not None:
        rows.append(muted(edits.add_refusal))
    rows.append(muted(t("panel.customers.hint")))
    return card(t("panel.customers.title"), rows, identifier="customers")


def family_card(ctx: AppContext, state: VillageState, player: int) -> ft.Control:
    """Members by place, with the generations there ("Council level 2: gen 1 ×2")."""
    t = ctx.t
    groups = group_members(state.members_of(player))
    rows: list[ft.Control] = []
    for loc, here in groups_by_loc(groups).items():
        count = sum(len(g.ids) for g in here)
        # The generations under the place, not beside it: beside it a long list
        # ("Gen. 2 ×2, Gen. 3 ×2, Gen. 4 ×2") squeezed the place until "Vorrat" broke.
        rows.append(ft.Container(
            ft.Row([ft.Column([ft.Text(place_label(ctx, loc), size=16,
                                       weight=ft.FontWeight.W_600),
                               ft.Text(gens_text(ctx, here), size=16)],
                              spacing=0, tight=True, expand=True),
                    ft.Container(ft.Text(str(count), size=18, weight=ft.FontWeight.BOLD),
                                 width=32, alignment=ft.Alignment.CENTER_RIGHT)],
                   vertical_alignment=ft.CrossAxisAlignment.CENTER),
            padding=ft.Padding.symmetric(vertical=6), key=f"family-{loc}"))
    return card(t("panel.family.title"), rows, identifier="family")


@dataclass
class MoveDraft:
    """The move correction being chosen: a member group (place|gen) and where it goes."""

    group: str | None = None
    to: str | None = None


def move_card(ctx: AppContext, state: VillageState, comp: ComponentData, player: int,
              draft: MoveDraft, on_group: Callable[[str], object], on_to: Callable[[str], object],
              on_apply: Callable[[], Awaitable[object]]) -> ft.Control:
    """Correct where a member stands (a move forgotten or entered wrong): nothing is paid
    or gained. The places offered are the engine's, each one it would accept now."""
    t = ctx.t
    groups = {g.key: g for g in group_members(state.members_of(player))}
    if draft.group not in groups:
        draft.group, draft.to = None, None
    rows: list[ft.Control] = [
        muted(t("panel.move.hint")),
        muted(t("panel.move.which")),
        choice_chips([(k, group_label(ctx, g)) for k, g in groups.items()], draft.group,
                     on_group, key="move-group"),
    ]
    if draft.group is not None:
        places = Reader(state, comp).move_destinations(groups[draft.group].first)
        if draft.to not in places:
            draft.to = None
        rows.append(muted(t("panel.move.to")))
        rows.append(choice_chips([(loc, loc_text(ctx, loc)) for loc in places], draft.to,
                                 on_to, key="move-to") if places
                    else muted(t("panel.move.none")))
    rows.append(apply_button(t("panel.move.apply"), on_apply, disabled=draft.to is None,
                             key="move-apply", filled=False))
    return card(t("panel.move.title"), rows, identifier="move-member")
