"""Building blocks of the Village panels: steppers, choice chips, cube and member dots,
cards. Every tappable thing is at least 48 px; numbers are large enough for arm's length."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.village.cubes_widget import cube_chip, hex_of, ink_on
from companion.app.widgets import BODY_TEXT_SIZE, TOUCH_TARGET

if TYPE_CHECKING:
    from companion.app.context import AppContext

Handler = Callable[[], Any]
VALUE_TEXT_SIZE = 22
# A card's share of a 12-column row: full width on phones, halves/thirds when wider.
CARD_COLUMNS: ft.ResponsiveNumber = {"xs": 12, "md": 6, "xl": 4}


def piece(colour: str, text: str = "", size: int = 28) -> ft.Container:
    """A round game piece (member or marker) with an optional number on it."""
    return ft.Container(
        width=size, height=size, border_radius=size / 2, bgcolor=hex_of(colour),
        border=ft.Border.all(1, ft.Colors.OUTLINE), alignment=ft.Alignment.CENTER,
        content=ft.Text(text, size=size * 0.5, weight=ft.FontWeight.BOLD,
                        color=ink_on(colour)) if text else None,
    )


def cube(ctx: AppContext, colour: str, size: int = 24) -> ft.Control:
    """A small influence cube beside a label (not a touch target itself)."""
    return cube_chip(ctx, colour, size=size)


def stepper(label: str | ft.Control, value: int | str, on_minus: Handler, on_plus: Handler,
            *, key: str, minus_tip: str, plus_tip: str, disabled: bool = False,
            minus_disabled: bool = False, plus_disabled: bool = False,
            note: str | None = None) -> ft.Row:
    """`label ............ [−] 3 [+]` — a value changed one step per tap."""
    caption: ft.Control = (ft.Text(label, size=BODY_TEXT_SIZE) if isinstance(label, str)
                           else label)
    left: list[ft.Control] = [caption]
    if note:
        left.append(ft.Text(note, size=12, color=ft.Colors.ON_SURFACE_VARIANT))
    return ft.Row(
        [
            ft.Column(left, spacing=0, expand=True),
            ft.IconButton(ft.Icons.REMOVE_CIRCLE_OUTLINE, tooltip=minus_tip, key=f"{key}-minus",
                          on_click=on_minus, disabled=disabled or minus_disabled,
                          width=TOUCH_TARGET, height=TOUCH_TARGET),
            ft.Container(ft.Text(str(value), size=VALUE_TEXT_SIZE, weight=ft.FontWeight.W_600,
                                 key=f"{key}-value"),
                         width=44, alignment=ft.Alignment.CENTER),
            ft.IconButton(ft.Icons.ADD_CIRCLE_OUTLINE, tooltip=plus_tip, key=f"{key}-plus",
                          on_click=on_plus, disabled=disabled or plus_disabled,
                          width=TOUCH_TARGET, height=TOUCH_TARGET),
        ],
        spacing=0,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


def choice_chips(options: Sequence[tuple[str, str]], selected: set[str] | str | None,
                 on_pick: Callable[[str], Any], *, key: str,
                 disabled: bool = False) -> ft.Row:
    """One chip per (value, label); the selected ones are filled."""
    chosen = {selected} if isinstance(selected, str) else (selected or set())
    chips: list[ft.Control] = []
    for value, label in options:
        chips.append(ft.Chip(
            label=label, key=f"{key}-{value}", selected=value in chosen,
            on_select=_picker(on_pick, value), disabled=disabled,
            height=TOUCH_TARGET,
        ))
    return ft.Row(chips, wrap=True, spacing=8, run_spacing=4)


def _picker(on_pick: Callable[[str], Any], value: str) -> Callable[[], Any]:
    if inspect.iscoroutinefunction(on_pick):  # Flet awaits only async handlers
        async def run() -> None:
            await on_pick(value)
        return run
    return lambda: on_pick(value)


def card(title: str | None, controls: Sequence[ft.Control], *,
         identifier: str | None = None) -> ft.Control:
    """A titled, rounded section."""
    inner: list[ft.Control] = []
    if title:
        inner.append(ft.Text(title, size=18, weight=ft.FontWeight.W_600))
    inner.extend(controls)
    box = ft.Container(
        content=ft.Column(inner, spacing=8),
        padding=12, border_radius=12,
        bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
    )
    out: ft.Control = ft.Semantics(identifier=identifier, content=box) if identifier else box
    out.col = CARD_COLUMNS  # used when the panel body is a ResponsiveRow
    return out


def notice_card(text: str, icon: ft.IconData, action_label: str | None = None,
                on_action: Handler | None = None, *, identifier: str | None = None,
                tone: str = "tertiary") -> ft.Control:
    """A coloured banner with an optional button (e.g. "Open the table")."""
    bg, fg = ((ft.Colors.ERROR_CONTAINER, ft.Colors.ON_ERROR_CONTAINER) if tone == "error"
              else (ft.Colors.TERTIARY_CONTAINER, ft.Colors.ON_TERTIARY_CONTAINER))
    lines: list[ft.Control] = [
        ft.Row([ft.Icon(icon, color=fg),
                ft.Text(text, size=BODY_TEXT_SIZE, color=fg, expand=True)],
               vertical_alignment=ft.CrossAxisAlignment.START)]
    if action_label and on_action is not None:
        lines.append(ft.Row([ft.FilledButton(action_label, on_click=on_action,
                                             height=TOUCH_TARGET)],
                            alignment=ft.MainAxisAlignment.END))
    box = ft.Container(ft.Column(lines, spacing=8), padding=12, border_radius=12, bgcolor=bg)
    return ft.Semantics(identifier=identifier, content=box) if identifier else box


def table_notes(title: str, notes: Sequence[str]) -> ft.Control:
    """What the players do with the physical pieces after the last action."""
    return notice_card(title + "\n" + "\n".join(f"• {n}" for n in notes),
                       ft.Icons.TABLE_RESTAURANT, identifier="table-notes")


def apply_button(label: str, on_click: Handler, *, disabled: bool = False,
                 key: str | None = None, filled: bool = True) -> ft.Row:
    kind = ft.FilledButton if filled else ft.OutlinedButton
    return ft.Row([kind(label, on_click=on_click, disabled=disabled, key=key, height=56,
                        expand=True)])


def muted(text: str, size: int = 14) -> ft.Text:
    return ft.Text(text, size=size, color=ft.Colors.ON_SURFACE_VARIANT)
