"""`label ............ [−] 3 [+]`: one stepper for every counter (see companion.app.kit).
The buttons are named for screen readers and tests ("Decrease Money", kit.icon_button)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import flet as ft

from companion.app.kit.basics import (
    BODY_TEXT_SIZE,
    SMALL_TEXT,
    VALUE_TEXT_SIZE,
    Handler,
    icon_button,
)

if TYPE_CHECKING:
    from companion.app.context import AppContext


def stepper(label: str | ft.Control, value: int | str, on_minus: Handler, on_plus: Handler,
            *, minus_tip: str, plus_tip: str, key: str | None = None,
            disabled: bool = False, minus_disabled: bool = False,
            plus_disabled: bool = False, note: str | None = None) -> ft.Row:
    """A value changed one step per tap; `key` names the buttons and the value
    ("<key>-minus", "<key>-value", "<key>-plus") for the screen's tests."""
    caption: ft.Control = (ft.Text(label, size=BODY_TEXT_SIZE) if isinstance(label, str)
                           else label)
    left: list[ft.Control] = [caption]
    if note:
        left.append(ft.Text(note, size=SMALL_TEXT, color=ft.Colors.ON_SURFACE_VARIANT))
    return ft.Row(
        [
            ft.Column(left, spacing=0, expand=True),
            icon_button(ft.Icons.REMOVE_CIRCLE_OUTLINE, minus_tip, on_minus,
                        key=f"{key}-minus" if key else None,
                        disabled=disabled or minus_disabled),
            ft.Container(ft.Text(str(value), size=VALUE_TEXT_SIZE, weight=ft.FontWeight.W_600,
                                 key=f"{key}-value" if key else None),
                         width=44, alignment=ft.Alignment.CENTER),
            icon_button(ft.Icons.ADD_CIRCLE_OUTLINE, plus_tip, on_plus,
                        key=f"{key}-plus" if key else None,
                        disabled=disabled or plus_disabled),
        ],
        spacing=0,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


def count_stepper(ctx: AppContext, label: str, value: int, on_change: Callable[[int], object],
                  *, minimum: int = 0, maximum: int | None = None,
                  note: str | None = None, disabled: bool = False) -> ft.Row:
    """A `stepper` for a whole number between `minimum` and `maximum`: `on_change` gets
    the new value; the buttons are named "Decrease <label>" / "Increase <label>"."""
    return stepper(label, value, partial(on_change, value - 1), partial(on_change, value + 1),
                   minus_tip=ctx.t("games.decrease", what=label),
                   plus_tip=ctx.t("games.increase", what=label), note=note,
                   disabled=disabled, minus_disabled=value <= minimum,
                   plus_disabled=maximum is not None and value >= maximum)
