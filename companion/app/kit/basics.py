"""Sizes, text and buttons every screen uses (see companion.app.kit)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import flet as ft

from companion.app.paging import PageSlice

T = TypeVar("T")

# Material's minimum touch target is 48 px; primary actions get a little more.
TOUCH_TARGET = 48
PRIMARY_BUTTON_HEIGHT = 56
BODY_TEXT_SIZE = 16
HEADING_TEXT_SIZE = 20
VALUE_TEXT_SIZE = 22  # a counter's number
SMALL_TEXT = 14

Handler = Callable[[], object]


def heading(text: str) -> ft.Text:
    return ft.Text(text, size=HEADING_TEXT_SIZE, weight=ft.FontWeight.W_600)


def body(text: str, *, muted: bool = False) -> ft.Text:
    return ft.Text(text, size=BODY_TEXT_SIZE,
                   color=ft.Colors.ON_SURFACE_VARIANT if muted else None)


def big_button(label: str, icon: ft.IconData | None, on_click: Callable[[], object],
               *, identifier: str | None = None, filled: bool = True) -> ft.Control:
    """A full-width, 56 px high button; `identifier` shows up in the web semantics DOM.
    Its label style comes from the theme (label_large), which carries the CJK fonts."""
    button: ft.Control
    if filled:
        button = ft.FilledButton(label, icon=icon, on_click=on_click,
                                 height=PRIMARY_BUTTON_HEIGHT, expand=True)
    else:
        button = ft.OutlinedButton(label, icon=icon, on_click=on_click,
                                   height=PRIMARY_BUTTON_HEIGHT, expand=True)
    row = ft.Row([button])
    return ft.Semantics(content=row, identifier=identifier) if identifier else row


def pager(state: PageSlice[T], status: str, previous_label: str, next_label: str,
          on_previous: Callable[[], object],
          on_next: Callable[[], object]) -> ft.Row:
    """Previous / "Page 2 of 5" / next; hidden when everything fits on one page."""
    return ft.Row(
        [
            icon_button(ft.Icons.CHEVRON_LEFT, previous_label, on_previous,
                        disabled=not state.has_previous),
            ft.Text(status, size=BODY_TEXT_SIZE),
            icon_button(ft.Icons.CHEVRON_RIGHT, next_label, on_next,
                        disabled=not state.has_next),
        ],
        alignment=ft.MainAxisAlignment.CENTER,
        visible=state.count > 1,
    )


def icon_button(icon: ft.IconData, name: str, on_click: Callable[..., object] | None, *,
                key: str | None = None, disabled: bool = False) -> ft.IconButton:
    """A 48 px icon-only button named `name` for screen readers and browser tests: the
    name is the icon's semantics label, which the web client puts on the button itself (a
    tooltip alone lands on a separate node beside an unnamed button; seen in Chromium,
    Flet 1.0.5). The tooltip stays for a long press."""
    return ft.IconButton(ft.Icon(icon, semantics_label=name), tooltip=name,
                         on_click=on_click, key=key, disabled=disabled,
                         width=TOUCH_TARGET, height=TOUCH_TARGET)


def back_button(tooltip: str, on_click: Callable[[], object]) -> ft.IconButton:
    return icon_button(ft.Icons.ARROW_BACK, tooltip, on_click)


def read_only_note(text: str) -> ft.Control:
    """A short line on game screens while saving is off (the data folder is read-only)."""
    return ft.Semantics(identifier="read-only-note", content=ft.Container(
        content=ft.Row([ft.Icon(ft.Icons.EDIT_OFF, size=18,
                                color=ft.Colors.ON_SECONDARY_CONTAINER),
                        ft.Text(text, size=14, color=ft.Colors.ON_SECONDARY_CONTAINER,
                                expand=True)], spacing=8),
        bgcolor=ft.Colors.SECONDARY_CONTAINER, border_radius=8,
        padding=ft.Padding.symmetric(horizontal=12, vertical=8)))


def apply_button(label: str, on_click: Handler, *, disabled: bool = False,
                 key: str | None = None, filled: bool = True) -> ft.Row:
    """A full-width 56 px button for a form's one action (apply, save)."""
    kind = ft.FilledButton if filled else ft.OutlinedButton
    return ft.Row([kind(label, on_click=on_click, disabled=disabled, key=key,
                        height=PRIMARY_BUTTON_HEIGHT, expand=True)])


def muted(text: str, size: int = SMALL_TEXT) -> ft.Text:
    """A secondary line: a hint, a rule in words, a count."""
    return ft.Text(text, size=size, color=ft.Colors.ON_SURFACE_VARIANT)
