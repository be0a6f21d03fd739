"""The farmyard's time track drawn as a ring: N spaces clockwise, the quill at the top
between the last space and space 0, the player's marker on its space."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import flet as ft

from companion.app.village.table.cubes import hex_of, ink_on
from companion.village.read import TimeMarker

if TYPE_CHECKING:
    from companion.app.context import AppContext

RING_SIZE = 248


def ring_positions(length: int, size: float, cell: float) -> list[tuple[float, float]]:
    """Top-left corner of each space's cell; space 0 just clockwise of the top."""
    centre = size / 2
    radius = centre - cell / 2 - 2
    out = []
    for k in range(length):
        angle = math.radians(-90 + (k + 0.5) * 360 / length)  # screen y points down
        out.append((centre + radius * math.cos(angle) - cell / 2,
                    centre + radius * math.sin(angle) - cell / 2))
    return out


def time_ring(ctx: AppContext, *, marker: TimeMarker, colour: str, deaths_owed: int,
              size: int = RING_SIZE) -> ft.Control:
    """The ring around the engine's `marker` (Reader.time_marker): its space highlighted,
    the spaces left to the quill in the middle."""
    t = ctx.t
    length, position = marker.length, marker.position
    cell = min(40.0, 0.62 * math.pi * (size - 40) / max(length, 1))
    spaces: list[ft.Control] = []
    for k, (x, y) in enumerate(ring_positions(length, size, cell)):
        here = k == position
        spaces.append(ft.Container(
            left=x, top=y, width=cell, height=cell, border_radius=cell / 2,
            alignment=ft.Alignment.CENTER,
            bgcolor=hex_of(colour) if here
            else ft.Colors.SURFACE_CONTAINER_HIGHEST,
            border=ft.Border.all(3 if here else 1,
                                 ft.Colors.ON_SURFACE if here else ft.Colors.OUTLINE_VARIANT),
            content=ft.Text(str(k + 1), size=14, weight=ft.FontWeight.BOLD if here else None,
                            color=ink_on(colour) if here else ft.Colors.ON_SURFACE_VARIANT),
            key=f"ring-space-{k}",
        ))
    quill = ft.Container(
        left=size / 2 - 16, top=-4, width=32, height=32, alignment=ft.Alignment.CENTER,
        content=ft.Icon(ft.Icons.HISTORY_EDU, size=28, color=ft.Colors.ERROR,
                        tooltip=t("panel.time.quill")),
    )
    centre_lines: list[ft.Control] = [
        ft.Text(t("panel.time.to_quill", count=marker.to_quill), size=18,
                weight=ft.FontWeight.W_600, text_align=ft.TextAlign.CENTER,
                key="ring-to-quill"),
    ]
    if deaths_owed:
        centre_lines.append(ft.Text(t("panel.time.deaths_owed", count=deaths_owed), size=14,
                                    color=ft.Colors.ERROR, text_align=ft.TextAlign.CENTER,
                                    weight=ft.FontWeight.W_600))
    centre = ft.Container(
        left=size * 0.22, top=size * 0.3, width=size * 0.56, height=size * 0.4,
        alignment=ft.Alignment.CENTER,
        content=ft.Column(centre_lines, spacing=2, tight=True,
                          horizontal_alignment=ft.CrossAxisAlignment.CENTER),
    )
    ring = ft.Stack([*spaces, quill, centre], width=size, height=size)
    return ft.Semantics(identifier="time-ring",
                        label=t("panel.time.where", space=marker.space, length=length),
                        content=ring)
