"""Cards and banners (see companion.app.kit)."""

from __future__ import annotations

from collections.abc import Sequence

import flet as ft

from companion.app.kit.basics import BODY_TEXT_SIZE, SMALL_TEXT, TOUCH_TARGET, Handler

# A card's share of a 12-column row: full width on phones, halves/thirds when wider.
CARD_COLUMNS: ft.ResponsiveNumber = {"xs": 12, "md": 6, "xl": 4}


def card(title: str | None, controls: Sequence[ft.Control], *,
         identifier: str | None = None) -> ft.Control:
    """A rounded section with an optional title; spans the row on phones and shares it
    on wider screens when its parent is a ResponsiveRow."""
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
    out.col = CARD_COLUMNS
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


def banner(lines: Sequence[str], *, error: bool = True,
           identifier: str = "games-problems") -> ft.Control:
    """Lines the user must read (what is missing, what was refused); selectable text.
    The lines are also the node's label: Flutter's web semantics leave selectable text
    out of the accessibility tree, so a screen reader would otherwise hear nothing."""
    colour = ft.Colors.ON_ERROR_CONTAINER if error else ft.Colors.ON_SECONDARY_CONTAINER
    return ft.Semantics(identifier=identifier, label="\n".join(lines), content=ft.Container(
        ft.Column([ft.Text(line, size=SMALL_TEXT + 1, color=colour, selectable=True)
                   for line in lines], spacing=4),
        bgcolor=ft.Colors.ERROR_CONTAINER if error else ft.Colors.SECONDARY_CONTAINER,
        padding=12, border_radius=12))
