"""A screen's sections as a bottom row of big icon+label targets (see companion.app.kit)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import flet as ft


@dataclass(frozen=True)
class Section:
    key: str
    label: str
    icon: ft.IconData


def section_bar(sections: Sequence[Section], selected: str,
                on_select: Callable[[str], None]) -> ft.Row:
    items: list[ft.Control] = []
    for s in sections:
        chosen = s.key == selected
        items.append(ft.Semantics(
            identifier=f"section-{s.key}", button=True, selected=chosen, expand=True,
            content=ft.Container(
                content=ft.Column(
                    [ft.Icon(s.icon, color=ft.Colors.ON_SECONDARY_CONTAINER if chosen else None),
                     ft.Text(s.label, size=12, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS,
                             weight=ft.FontWeight.W_600 if chosen else None)],
                    spacing=2, alignment=ft.MainAxisAlignment.CENTER,
                    horizontal_alignment=ft.CrossAxisAlignment.CENTER),
                on_click=partial(on_select, s.key), ink=True, height=56, border_radius=16,
                bgcolor=ft.Colors.SECONDARY_CONTAINER if chosen else None)))
    return ft.Row(items, spacing=4)
