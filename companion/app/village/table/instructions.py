"""The table's instructions for the physical game as one compact card under the action
area: the round's draw (what to put on which space), refills, the mass and the other notes
of the last action ("At the table"). Collapsed it is one 48 px line saying how many are
still to do; a tap opens it, and each instruction can be marked done.

Done marks are saved with the game, never a game event (companion.village.table_marks):
named by the log position each instruction came from, they last until ticked off or the
next round, through a restart, on every device and in table mode.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import flet as ft

from companion.app.kit import BODY_TEXT_SIZE, TOUCH_TARGET, icon_button
from companion.app.village.present import note_text
from companion.core.json_types import JsonObject

if TYPE_CHECKING:
    from companion.app.context import AppContext

Action = Callable[[], object]


@dataclass(frozen=True)
class Instruction:
    id: str  # stable while the instruction is shown: where it came from in the log
    text: str


@dataclass(frozen=True)
class RoundDraw:
    """The round's bag draw, before its first take: its heading and lines."""

    heading: str
    lines: tuple[Instruction, ...]
    redraw: bool = True  # before the round's first take: the ways to redraw are offered


# ---- building the instructions ---------------------------------------------------------------
def note_instructions(ctx: AppContext, group: int,
                      notes: list[JsonObject]) -> tuple[Instruction, ...]:
    """The last action's notes (`group` is its log group) as instructions."""
    return tuple(Instruction(f"g{group}-{i}-{n.get('key')}",
                             note_text(ctx, str(n["key"]), dict(n.get("params", {}))))
                 for i, n in enumerate(notes))


def open_count(draw: RoundDraw | None, notes: tuple[Instruction, ...],
               done: frozenset[str]) -> int:
    lines = (draw.lines if draw is not None else ()) + notes
    return sum(1 for line in lines if line.id not in done)


def instructions_card(ctx: AppContext, *, draw: RoundDraw | None,
                      notes: tuple[Instruction, ...], done: frozenset[str], expanded: bool,
                      on_toggle: Action, on_done: Callable[[str], object],
                      draw_buttons: list[ft.Control]) -> ft.Control | None:
    """The card, or None when there is nothing to do at the table."""
    if draw is None and not notes:
        return None
    t = ctx.t
    left = open_count(draw, notes, done)
    title = (t("village.instructions.open", count=left) if left
             else t("village.instructions.all_done"))
    header = ft.Semantics(
        identifier="table-instructions-toggle", button=True, expanded=expanded,
        content=ft.Container(
            height=TOUCH_TARGET, on_click=on_toggle, ink=True, border_radius=8,
            padding=ft.Padding.symmetric(horizontal=4),
            content=ft.Row([
                ft.Icon(ft.Icons.TABLE_RESTAURANT, size=22),
                ft.Text(title, size=BODY_TEXT_SIZE, weight=ft.FontWeight.W_600, expand=True),
                ft.Icon(ft.Icons.EXPAND_LESS if expanded else ft.Icons.EXPAND_MORE),
            ], vertical_alignment=ft.CrossAxisAlignment.CENTER)))
    parts: list[ft.Control] = [header]
    if expanded:
        position = 0
        if draw is not None:
            rows: list[ft.Control] = [ft.Text(draw.heading, size=18, weight=ft.FontWeight.W_600)]
            for line in draw.lines:
                rows.append(_line(ctx, line, position, line.id in done, on_done))
                position += 1
            if draw.redraw:
                rows.append(ft.Row(draw_buttons, wrap=True, spacing=8))
            parts.append(ft.Semantics(identifier="round-draw", content=ft.Column(
                rows, spacing=4, tight=True)))
        if notes:
            rows = [ft.Text(t("village.table.notes_heading"), size=14,
                            color=ft.Colors.ON_SURFACE_VARIANT, weight=ft.FontWeight.W_600)]
            for line in notes[:12]:
                rows.append(_line(ctx, line, position, line.id in done, on_done))
                position += 1
            parts.append(ft.Semantics(identifier="table-notes", content=ft.Column(
                rows, spacing=4, tight=True)))
    box = ft.Container(content=ft.Column(parts, spacing=6, tight=True),
                       padding=ft.Padding.symmetric(horizontal=8, vertical=4),
                       border_radius=12, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
                       border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT))
    return ft.Semantics(identifier="table-instructions", content=box)


def _line(ctx: AppContext, line: Instruction, position: int, done: bool,
          on_done: Callable[[str], object]) -> ft.Control:
    """One instruction: a check box (48 px) and its words, struck through once done."""
    t = ctx.t
    check = icon_button(
        ft.Icons.CHECK_BOX if done else ft.Icons.CHECK_BOX_OUTLINE_BLANK,
        t("village.instructions.undo_done" if done else "village.instructions.done"),
        lambda: on_done(line.id))
    words = ft.Text(line.text, size=BODY_TEXT_SIZE, expand=True,
                    color=ft.Colors.ON_SURFACE_VARIANT if done else None,
                    style=ft.TextStyle(decoration=ft.TextDecoration.LINE_THROUGH)
                    if done else None)
    return ft.Semantics(identifier=f"instruction-{position}", checked=done, content=ft.Row(
        [ft.Semantics(identifier=f"instruction-{position}-done", content=check), words],
        spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER))
