"""Read-only parts of the mass panel: the black bag, the church track, the drawn items,
and the majority bonus (rule in words, and who would get it now, in the engine's words)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import flet as ft

from companion.app.kit import card, muted
from companion.app.village.present import note_texts
from companion.app.village.table.cubes import piece
from companion.app.village.table.words import player_name
from companion.village.components import ComponentData
from companion.village.read import MONK, Reader
from companion.village.state import Member, VillageState

if TYPE_CHECKING:
    from companion.app.context import AppContext

REVEAL_MS = 450


def member_piece(state: VillageState, m: Member, size: int = 30) -> ft.Control:
    return piece(state.players[m.owner].colour, str(m.gen), size)


def bag_card(ctx: AppContext, state: VillageState, comp: ComponentData) -> ft.Control:
    t = ctx.t
    items = Reader(state, comp).bag_items()
    monks = items.count(MONK)
    rows: list[ft.Control] = [ft.Text(t("panel.mass.monks", count=monks), size=16,
                                      key="bag-monks")]
    for i in range(len(state.players)):
        mine = sorted((state.members[mid] for mid in items if mid != MONK
                       and state.members[mid].owner == i), key=lambda m: m.gen)
        if not mine:
            continue
        rows.append(ft.Row([ft.Text(player_name(ctx, state, i), size=16, expand=True),
                            ft.Row([member_piece(state, m) for m in mine], spacing=4,
                                   wrap=True)],
                           key=f"bag-{i}"))
    rows.append(muted(ctx.tn("panel.mass.bag_total", len(items), count=len(items))))
    return card(t("panel.mass.bag"), rows, identifier="black-bag")


def church_card(ctx: AppContext, state: VillageState, comp: ComponentData) -> ft.Control:
    t = ctx.t
    costs = comp.counts("church_advance_grain")
    rows: list[ft.Control] = []
    for level in Reader(state, comp).church_levels():
        here = sorted(state.members_at(f"church:{level}"), key=lambda m: (m.owner, m.gen))
        cost = (t("panel.mass.level_cost", grain=costs[str(level)])
                if str(level) in costs else "")
        rows.append(ft.Row([
            ft.Column([ft.Text(t("panel.mass.level", level=level), size=16,
                               weight=ft.FontWeight.W_600),
                       muted(cost, size=12)], spacing=0, width=92),
            ft.Row([member_piece(state, m) for m in here], spacing=4, wrap=True, expand=True),
        ], key=f"church-{level}", vertical_alignment=ft.CrossAxisAlignment.CENTER))
    return card(t("panel.mass.track"), rows, identifier="church-track")


def drawn_card(ctx: AppContext, state: VillageState, drawn: Sequence[str], revealed: int,
               reveal_next: Callable[[], object], reveal_all: Callable[[], object]) -> ft.Control:
    """The random draw, turned over one item at a time (an animated flip-in)."""
    t = ctx.t
    tiles: list[ft.Control] = []
    for i, item in enumerate(drawn):
        shown = i < revealed
        if not shown:
            face: ft.Control = ft.Text("?", size=24, weight=ft.FontWeight.BOLD)
        elif item == MONK:
            face = ft.Column([ft.Icon(ft.Icons.PERSON_OUTLINE, size=28),
                              ft.Text(t("panel.mass.monk"), size=12)],
                             spacing=0, tight=True,
                             horizontal_alignment=ft.CrossAxisAlignment.CENTER)
        else:
            m = state.members[item]
            face = ft.Column([member_piece(state, m, 34),
                              ft.Text(player_name(ctx, state, m.owner), size=12,
                                      max_lines=1, overflow=ft.TextOverflow.ELLIPSIS)],
                             spacing=2, tight=True,
                             horizontal_alignment=ft.CrossAxisAlignment.CENTER)
        tiles.append(ft.Container(
            face, key=f"drawn-{i}", width=66, height=80, border_radius=10,
            alignment=ft.Alignment.CENTER,
            bgcolor=(ft.Colors.SECONDARY_CONTAINER if shown
                     else ft.Colors.SURFACE_CONTAINER_HIGHEST),
            border=ft.Border.all(1, ft.Colors.OUTLINE),
            opacity=1.0 if shown else 0.6, scale=1.0 if shown else 0.85,
            animate_opacity=REVEAL_MS, animate_scale=REVEAL_MS,
        ))
    lines: list[ft.Control] = [ft.Row(tiles, spacing=8, wrap=True)]
    if revealed < len(drawn):
        lines.append(ft.Row([
            ft.FilledButton(t("panel.mass.reveal"), icon=ft.Icons.VISIBILITY,
                            on_click=reveal_next, key="reveal-next", height=56, expand=True),
            ft.TextButton(t("panel.mass.reveal_all"), on_click=reveal_all, key="reveal-all",
                          height=56)]))
    else:
        lines.append(muted(t("panel.mass.drawn_placed")))
    return card(t("panel.mass.drawn"), lines, identifier="mass-drawn")


def bonus_preview(ctx: AppContext, state: VillageState, comp: ComponentData) -> list[str]:
    """Who would get the majority bonus now, worded by the engine's own notes (the rule
    runs on a copy, so nothing changes)."""
    return note_texts(ctx, Reader(state, comp).majority_bonus_notes())


def bonus_card(ctx: AppContext, state: VillageState, comp: ComponentData) -> ft.Control:
    t = ctx.t
    rule = t("panel.mass.bonus_rule", bonus=comp.n("mass_bonus"))
    if state.solo:  # Karla's part of the rule only where she plays
        rule += " " + t("panel.mass.bonus_rule_karla", karla=t("village.karla"))
    lines: list[ft.Control] = [ft.Text(rule, size=16)]
    preview = bonus_preview(ctx, state, comp) if state.mass is not None else []
    if preview:
        lines.append(muted(t("panel.mass.bonus_now")))
        lines += [ft.Text(f"• {line}", size=16, key=f"bonus-{i}")
                  for i, line in enumerate(preview)]
    return card(t("panel.mass.bonus"), lines, identifier="mass-bonus")
