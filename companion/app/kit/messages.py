"""Snack bars with buttons a finger can hit: a message that offers a button (Home's Undo
after a delete or an abandon; AppContext.offer). Plain messages are the message strip's
(kit/message_strip), which a web client redraws without rebuilding every view.

Material's SnackBarAction and its close icon are 40 px high in Flet 1.0.5 and take no size;
these bars put their own 48 px buttons beside the text instead: an optional action
("Undo") and Close. The bar's text stays the first Text inside (what tests and screen
readers read).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from companion.app.kit.basics import TOUCH_TARGET, icon_button


def message_bar(text: str, close_name: str, *,
                action: tuple[str, Callable[[], object]] | None = None,
                seconds: float | None = None, identifier: str | None = None) -> ft.SnackBar:
    """A snack bar saying `text`, closed by a 48 px Close button named `close_name`;
    `action` (label, handler) adds a 48 px text button that also closes the bar."""
    words: ft.Control = ft.Text(text, expand=True)
    if identifier is not None:
        words = ft.Semantics(identifier=identifier, content=words, expand=True)
    row: list[ft.Control] = [words]
    bar = ft.SnackBar(ft.Row(row, spacing=4,
                             vertical_alignment=ft.CrossAxisAlignment.CENTER),
                      padding=ft.Padding.only(left=16, top=4, right=4, bottom=4))
    if seconds is not None:
        bar.duration = ft.Duration(milliseconds=round(seconds * 1000))

    def close() -> None:
        bar.open = False
        bar.update()

    if action is not None:
        label, handler = action

        def act() -> Any:
            close()
            return handler()

        row.append(ft.TextButton(label, on_click=act, height=TOUCH_TARGET,
                                 style=ft.ButtonStyle(color=ft.Colors.INVERSE_PRIMARY)))
    close_button = icon_button(ft.Icons.CLOSE, close_name, close)
    if isinstance(close_button.icon, ft.Icon):  # light on the bar's dark background
        close_button.icon.color = ft.Colors.ON_INVERSE_SURFACE
    row.append(close_button)
    return bar
