"""The Players section every assistant has: pick a player, then nudge (-/+) or type each
of their numbers. Nudges and typed values are ordinary edits (undoable, saved first)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import flet as ft

from companion.app.assistants.play import TallyScreen, ask_value, player_options
from companion.app.kit import BODY_TEXT_SIZE, SMALL_TEXT, chips, icon_button
from companion.tally.api import AdjustField


@dataclass(frozen=True)
class FieldRow:
    field: str  # the rules' field name ("money")
    label: str  # already translated
    note: str | None = None  # a hint under the label ("Starting money $5")


def player_chips(screen: TallyScreen, selected: int, on_pick: Callable[[int], object],
                 id_prefix: str = "player") -> ft.Row:
    return chips(player_options(screen.names), selected, on_pick, id_prefix=id_prefix)


def field_rows(screen: TallyScreen, player: int, rows: list[FieldRow],
               values: dict[str, int]) -> list[ft.Control]:
    t = screen.ctx.t
    locked = screen.finished
    out: list[ft.Control] = []
    for row in rows:
        value = values[row.field]
        label = ft.Column([ft.Text(row.label, size=BODY_TEXT_SIZE)], spacing=0, expand=True)
        if row.note:
            label.controls.append(ft.Text(row.note, size=SMALL_TEXT,
                                          color=ft.Colors.ON_SURFACE_VARIANT))

        def nudge(field: str, delta: int) -> None:
            screen.edit(AdjustField(player=player, field=field, delta=delta))

        out.append(ft.Row([
            label,
            icon_button(ft.Icons.REMOVE, t("games.decrease", what=row.label),
                        partial(nudge, row.field, -1), disabled=locked),
            ft.Text(str(value), size=BODY_TEXT_SIZE + 2, weight=ft.FontWeight.W_600,
                    width=44, text_align=ft.TextAlign.CENTER),
            icon_button(ft.Icons.ADD, t("games.increase", what=row.label),
                        partial(nudge, row.field, +1), disabled=locked),
            icon_button(ft.Icons.EDIT, t("games.type_value", what=row.label),
                        partial(ask_value, screen, player, row.field, row.label, value),
                        disabled=locked),
        ], vertical_alignment=ft.CrossAxisAlignment.CENTER, spacing=0))
    return out
