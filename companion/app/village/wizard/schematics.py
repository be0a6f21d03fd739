"""Small drawings of where an estimated value is printed, built from Flet controls: the
setup card as a grid of spaces, the time track as a ring of dots around the quill, the
chronicle as rows of slots, Karla's board as a strip of spaces with the fate tiles."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.village.present import term
from companion.app.village.table.cubes import INFLUENCE, colour_dot, cube_chip
from companion.core.json_types import JsonObject
from companion.village.components import slot_open

if TYPE_CHECKING:
    from companion.app.context import AppContext

MARK_TEXT = {2: "", 3: "3-5", 4: "4-5", 5: "5"}
PAPER = "#F3E9D2"  # printed cardboard
INK = "#3B2F1E"


def _frame(content: ft.Control, identifier: str) -> ft.Control:
    return ft.Semantics(identifier=identifier, content=ft.Container(
        content=content, padding=10, border_radius=10, bgcolor=PAPER,
        border=ft.Border.all(1.5, INK)))


def _small(text: str, *, bold: bool = False, size: int = 13) -> ft.Text:
    return ft.Text(text, size=size, color=INK, weight=ft.FontWeight.BOLD if bold else None)


def _hourglasses(count: int) -> ft.Row:
    """Time as printed: one hourglass per time unit (icons: glyphs may be missing)."""
    return ft.Row([ft.Icon(ft.Icons.HOURGLASS_BOTTOM, size=16, color=INK)
                   for _ in range(max(0, min(count, 12)))], spacing=0, wrap=True)


def schematic(ctx: AppContext, key: str, value: Any, seats: int,
              player_counts: Sequence[int]) -> ft.Control:
    """The drawing for one component key (a plain value box for keys without one);
    `player_counts` are the edition's (they say which slot marks block a slot)."""
    try:
        if key == "setup_cards":
            return setup_card(ctx, value, seats)
        if key == "time_track_length":
            return time_track(ctx, int(value))
        if key == "chronicle_sections":
            return chronicle(ctx, value, seats, player_counts)
        if key == "graveyard_slots":
            return graveyard(ctx, value, seats, player_counts)
        if key == "council_advance_time":
            return council(ctx, value)
        if key == "church_advance_grain":
            return church(ctx, value)
        if key == "travel_cities":
            return travel_map(ctx, int(value))
        if key.endswith("_train_time"):
            return training(ctx, key.removesuffix("_train_time"), int(value))
        if key == "karla_track_spaces":
            return karla_strip(ctx, int(value), {})
        if key == "karla_fate_after":
            length = max([int(p) for ps in value.values() for p in ps] + [11]) + 1
            return karla_strip(ctx, length, value)
        if key == "karla_action_order":
            return action_ring(ctx, list(value))
        if key == "player_colours":
            return _frame(ft.Row([colour_dot(str(c), 28) for c in value], spacing=8,
                                 wrap=True), "schematic-colours")
    except (TypeError, ValueError, AttributeError, KeyError):
        pass  # a value the drawing cannot show: fall back to the plain text below
    return _frame(_small(str(value)), "schematic-value")


def setup_card(ctx: AppContext, card: JsonObject, seats: int) -> ft.Control:
    spaces: dict[str, int] = dict(card.get("spaces", {}))
    cells: list[ft.Control] = []
    for space, count in spaces.items():
        cells.append(ft.Container(
            width=96, padding=4, border_radius=6, border=ft.Border.all(1, INK),
            content=ft.Column([
                _small(term(ctx, "space", space), bold=True),
                ft.Row([ft.Container(width=10, height=10, bgcolor=INK, border_radius=2)
                        for _ in range(int(count))] or [_small("0")], spacing=2, wrap=True),
                _small(f"× {count}"),
            ], spacing=2, tight=True)))
    bag = ft.Row([_small(ctx.t("village.schematic.bag", count=card.get("bag_per_colour", "?"))),
                  *[cube_chip(ctx, c, size=18) for c in INFLUENCE]], spacing=4, wrap=True)
    return _frame(ft.Column([
        _small(ctx.tn("village.schematic.setup_card", seats, players=seats), bold=True, size=14),
        ft.Row(cells, wrap=True, spacing=4, run_spacing=4), bag], spacing=6, tight=True),
        "schematic-setup-card")


def time_track(ctx: AppContext, length: int) -> ft.Control:
    """A ring of `length` dots; the quill sits at the top, dot 1 just right of it."""
    size, radius, dot = 170, 68, 14
    centre = size / 2
    items: list[ft.Control] = [ft.Container(
        left=centre - 14, top=2, width=28, height=28,
        content=ft.Icon(ft.Icons.HISTORY_EDU, size=24, color=INK))]
    shown = min(max(length, 0), 60)
    for i in range(shown):
        # The quill takes the top position; the spaces follow clockwise.
        angle = -math.pi / 2 + 2 * math.pi * (i + 1) / (shown + 1)
        x = centre + radius * math.cos(angle) - dot / 2
        y = centre + radius * math.sin(angle) - dot / 2 + 6
        items.append(ft.Container(left=x, top=y, width=dot, height=dot, border_radius=dot / 2,
                                  bgcolor=INK if i == 0 else None,
                                  border=ft.Border.all(1.5, INK)))
    items.append(ft.Container(left=centre - 30, top=centre - 4, width=60,
                              alignment=ft.Alignment.CENTER,
                              content=_small(str(length), bold=True, size=22)))
    return _frame(ft.Column([
        _small(ctx.t("village.schematic.time_track"), bold=True, size=14),
        ft.Stack(items, width=size, height=size + 10)], spacing=4, tight=True),
        "schematic-time-track")


def _slots(marks: list[int], seats: int, player_counts: Sequence[int]) -> ft.Row:
    """The printed slots, open or blocked as the engine opens them (slot_open)."""
    cells: list[ft.Control] = []
    for mark in marks:
        open_ = slot_open(int(mark), seats, player_counts)
        cells.append(ft.Container(
            width=34, height=30, border_radius=4, alignment=ft.Alignment.CENTER,
            border=ft.Border.all(1.2, INK), bgcolor="#FFFFFF" if open_ else "#B9AE98",
            content=(_small(MARK_TEXT.get(int(mark), str(mark)), size=11) if open_
                     else ft.Icon(ft.Icons.CLOSE, size=18, color=INK))))
    return ft.Row(cells, spacing=3, wrap=True)


def chronicle(ctx: AppContext, sections: dict[str, list[int]], seats: int,
              player_counts: Sequence[int]) -> ft.Control:
    rows: list[ft.Control] = [
        _small(ctx.tn("village.schematic.chronicle", seats, players=seats), bold=True, size=14)]
    for section, marks in sections.items():
        rows.append(ft.Row([ft.Container(_small(term(ctx, "section", section)), width=80),
                            _slots(list(marks), seats, player_counts)], spacing=4))
    rows.append(_small(ctx.t("village.schematic.blocked")))
    return _frame(ft.Column(rows, spacing=4, tight=True), "schematic-chronicle")


def graveyard(ctx: AppContext, marks: list[int], seats: int,
              player_counts: Sequence[int]) -> ft.Control:
    return _frame(ft.Column([
        _small(ctx.tn("village.schematic.graveyard", seats, players=seats), bold=True, size=14),
        _slots(list(marks), seats, player_counts), _small(ctx.t("village.schematic.blocked"))],
        spacing=4, tight=True), "schematic-graveyard")


def council(ctx: AppContext, levels: dict[str, int]) -> ft.Control:
    boxes: list[ft.Control] = []
    for level in range(1, 5):
        cost = levels.get(str(level))
        boxes.append(ft.Container(
            width=70, padding=4, border_radius=6, border=ft.Border.all(1, INK),
            content=ft.Column([
                _small(ctx.t("village.schematic.level", level=level), bold=True),
                _hourglasses(int(cost)) if cost is not None else _small("—", size=14)],
                spacing=2, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER)))
    return _frame(ft.Column([_small(ctx.t("village.schematic.council"), bold=True, size=14),
                             ft.Row(boxes, spacing=4, wrap=True)], spacing=4, tight=True),
                  "schematic-council")


def _grain(count: int) -> ft.Row:
    """Grain as printed: one sack per grain."""
    return ft.Row([ft.Icon(ft.Icons.GRAIN, size=16, color=INK)
                   for _ in range(max(0, min(count, 12)))], spacing=0, wrap=True)


def church(ctx: AppContext, costs: dict[str, int]) -> ft.Control:
    """The church track, level 1 to the top, with the grain printed above each level."""
    boxes: list[ft.Control] = []
    for level in range(1, len(costs) + 2):
        cost = costs.get(str(level))
        boxes.append(ft.Container(
            width=70, padding=4, border_radius=6, border=ft.Border.all(1, INK),
            content=ft.Column([
                _grain(int(cost)) if cost is not None else _small("—", size=14),
                _small(ctx.t("village.schematic.level", level=level), bold=True)],
                spacing=2, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER)))
    return _frame(ft.Column([_small(ctx.t("village.schematic.church"), bold=True, size=14),
                             ft.Row(boxes, spacing=4, wrap=True)], spacing=4, tight=True),
                  "schematic-church")


def travel_map(ctx: AppContext, cities: int) -> ft.Control:
    """The travel map's cities, numbered as the app names them."""
    pins: list[ft.Control] = [ft.Column([
        ft.Icon(ft.Icons.LOCATION_CITY, size=22, color=INK), _small(str(i + 1), size=11)],
        spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER)
        for i in range(max(0, min(cities, 24)))]
    return _frame(ft.Column([
        _small(ctx.t("village.schematic.travel", count=cities), bold=True, size=14),
        ft.Row(pins, spacing=6, wrap=True, run_spacing=4)], spacing=4, tight=True),
        "schematic-travel")


def training(ctx: AppContext, building: str, time: int) -> ft.Control:
    return _frame(ft.Row([
        ft.Icon(ft.Icons.HOME_WORK, color=INK, size=36),
        ft.Column([_small(term(ctx, "building", building), bold=True, size=14),
                   _small(ctx.t("village.schematic.train"), size=12),
                   _hourglasses(time)], spacing=2, tight=True)],
        spacing=8), "schematic-training")


def karla_strip(ctx: AppContext, length: int, fate_after: dict[str, list[int]]) -> ft.Control:
    cells: list[ft.Control] = []
    for pos in range(max(0, min(length, 40))):
        top = pos in fate_after.get("top", [])
        bottom = pos in fate_after.get("bottom", [])
        cells.append(ft.Column([
            ft.Container(width=26, height=14, bgcolor=INK if top else None, border_radius=3),
            ft.Container(width=26, height=26, border_radius=4, alignment=ft.Alignment.CENTER,
                         border=ft.Border.all(1.2, INK), bgcolor="#FFFFFF",
                         content=_small(str(pos + 1), size=11)),
            ft.Container(width=26, height=14, bgcolor=INK if bottom else None,
                         border_radius=3)], spacing=2, tight=True))
    return _frame(ft.Column([
        _small(ctx.t("village.schematic.karla_board"), bold=True, size=14),
        ft.Row([ft.Icon(ft.Icons.ACCOUNT_BALANCE, color=INK, size=20), *cells], spacing=3,
               wrap=True, run_spacing=6),
        _small(ctx.t("village.schematic.karla_legend"))], spacing=4, tight=True),
        "schematic-karla-board")


def action_ring(ctx: AppContext, order: list[str]) -> ft.Control:
    parts: list[ft.Control] = []
    for i, space in enumerate(order):
        parts.append(ft.Container(
            padding=ft.Padding.symmetric(horizontal=6, vertical=3), border_radius=12,
            border=ft.Border.all(1, INK), content=_small(term(ctx, "space", space))))
        if i < len(order) - 1:
            parts.append(ft.Icon(ft.Icons.ARROW_FORWARD, size=14, color=INK))
    parts.append(ft.Icon(ft.Icons.REPLAY, size=16, color=INK))
    return _frame(ft.Column([
        _small(ctx.t("village.schematic.karla_order"), bold=True, size=14),
        ft.Row(parts, spacing=3, wrap=True, run_spacing=4)], spacing=4, tight=True),
        "schematic-karla-order")
