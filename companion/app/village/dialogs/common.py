"""Dialog plumbing shared by the pending-choice dialogs and the draw entry forms."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import flet as ft

from companion.app.kit import BODY_TEXT_SIZE, TOUCH_TARGET

logger = logging.getLogger(__name__)
Action = Callable[[], Any]


class DialogSlot:
    """One dialog at a time, closed by reference. Never `page.pop_dialog()`: a toast
    (also a dialog control) may be on top and would be closed instead."""

    def __init__(self, page: ft.Page) -> None:
        self.page = page
        self.dialog: ft.AlertDialog | None = None
        self.tag: object = None

    @property
    def is_open(self) -> bool:
        return self.dialog is not None and bool(self.dialog.open)

    def show(self, dialog: ft.AlertDialog, tag: object) -> None:
        self.close()
        self.dialog, self.tag = dialog, tag
        dialog.on_dismiss = self._dismissed
        self.page.show_dialog(dialog)

    def close(self) -> None:
        dialog, self.dialog, self.tag = self.dialog, None, None
        if dialog is not None and dialog.open:
            dialog.open = False
            try:
                dialog.update()
            except Exception as exc:  # the page went away meanwhile
                logger.info("dialog close skipped: %s", exc)

    def _dismissed(self, e: Any = None) -> None:
        # Closed from the client side (barrier tap, back key): forget it. A dismissal can
        # arrive late, after the next dialog was shown (two pending choices in a row): only
        # the dialog the event is about may be forgotten, never its successor.
        source = getattr(e, "control", None)
        if source is None or source is self.dialog:
            self.dialog, self.tag = None, None


def dialog(title: str, body: list[ft.Control], actions: list[ft.Control], *,
           identifier: str) -> ft.AlertDialog:
    """A modal dialog that scrolls on a small phone and is as tall as its content."""
    return ft.AlertDialog(
        modal=True,
        scrollable=True,
        title=ft.Text(title, size=20, weight=ft.FontWeight.W_600),
        content=ft.Semantics(identifier=identifier, content=ft.Column(
            body, tight=True, spacing=10, width=340)),
        actions=actions,
        actions_overflow_button_spacing=4,
    )


def text(value: str, *, muted: bool = False, bold: bool = False) -> ft.Text:
    return ft.Text(value, size=BODY_TEXT_SIZE, selectable=False,
                   color=ft.Colors.ON_SURFACE_VARIANT if muted else None,
                   weight=ft.FontWeight.W_600 if bold else None)


def error_line() -> ft.Text:
    """Where a form shows what is wrong (hidden until then)."""
    return ft.Text("", size=BODY_TEXT_SIZE, color=ft.Colors.ERROR, visible=False)


def show_error(line: ft.Text, message: str | None) -> None:
    line.value = message or ""
    line.visible = bool(message)


def choice_tile(title: str, subtitle: str | None, on_click: Action, *, identifier: str,
                leading: ft.Control | None = None) -> ft.Control:
    """A full-width tappable answer (≥ 56 px), two lines at most."""
    lines: list[ft.Control] = [ft.Text(title, size=BODY_TEXT_SIZE, weight=ft.FontWeight.W_600)]
    if subtitle:
        lines.append(ft.Text(subtitle, size=14, color=ft.Colors.ON_SURFACE_VARIANT))
    row: list[ft.Control] = ([leading] if leading is not None else []) + [
        ft.Column(lines, spacing=2, tight=True, expand=True)]
    return ft.Semantics(identifier=identifier, button=True, content=ft.Container(
        content=ft.Row(row, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        padding=ft.Padding.symmetric(horizontal=12, vertical=10),
        border_radius=12, border=ft.Border.all(1, ft.Colors.OUTLINE),
        on_click=on_click, ink=True, height=None))


def text_button(label: str, on_click: Action, *, identifier: str | None = None) -> ft.Control:
    button = ft.TextButton(label, on_click=on_click, height=TOUCH_TARGET)
    return ft.Semantics(content=button, identifier=identifier) if identifier else button


def filled_button(label: str, on_click: Action, *,
                  identifier: str | None = None) -> ft.Control:
    button = ft.FilledButton(label, on_click=on_click, height=TOUCH_TARGET)
    return ft.Semantics(content=button, identifier=identifier) if identifier else button
