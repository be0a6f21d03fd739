"""Cubes and player colours as drawn controls: colour plus a letter, so players who cannot
tell green from brown still can (the letter follows the cube-display setting)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.kit import TOUCH_TARGET
from companion.app.settings import CubeDisplay
from companion.app.village.present import term

if TYPE_CHECKING:
    from companion.app.context import AppContext

# Printed component colours (cubes and the five family colours), as close as a screen gets.
COLOUR_HEX: dict[str, str] = {
    "brown": "#7A4A24",
    "pink": "#E07BAE",
    "orange": "#EF8A1E",
    "green": "#3C9A46",
    "plague": "#1E1E1E",
    "red": "#C62828",
    "yellow": "#F6CE2A",
    "blue": "#1F5BC4",
    "white": "#F4F4F0",
    "purple": "#7A3EA0",
}
# Colours light enough to need dark text on them.
_LIGHT = {"yellow", "white", "pink", "orange"}
# Used only until the game-term catalogue (cube_letter.*) has the language's own letters.
_FALLBACK_LETTER = {"brown": "B", "pink": "P", "orange": "O", "green": "G", "plague": "X"}
INFLUENCE = ("brown", "pink", "orange", "green")
CUBE_COLOURS = (*INFLUENCE, "plague")


def hex_of(colour: str) -> str:
    return COLOUR_HEX.get(colour, "#9E9E9E")


def ink_on(colour: str) -> str:
    """Text colour that reads on a `colour` background."""
    return "#1A1A1A" if colour in _LIGHT else "#FFFFFF"


def cube_letter(ctx: AppContext, colour: str) -> str:
    key = f"cube_letter.{colour}"
    if ctx.translator.has(key):
        return ctx.t(key)
    return _FALLBACK_LETTER.get(colour, colour[:1].upper())


def colour_name(ctx: AppContext, colour: str) -> str:
    return term(ctx, "colour", colour)


def cube_chip(ctx: AppContext, colour: str, *, size: int = TOUCH_TARGET,
              on_click: Callable[[], Any] | None = None, identifier: str | None = None,
              count: int | None = None, selected: bool = False,
              disabled: bool = False) -> ft.Control:
    """One cube. Tappable when `on_click` is given (then at least 48 px); `count` adds a
    small number beside the letter (cube counts in the players strip and the bag)."""
    show_letter = ctx.settings.cube_display == CubeDisplay.COLOUR_LETTER
    label = cube_letter(ctx, colour) if show_letter else ""
    if count is not None:
        label = f"{label}{count}" if label else str(count)
    text_size = max(12, size * 0.4)
    content: ft.Control | None = (ft.Text(label, color=ink_on(colour), size=text_size,
                                          weight=ft.FontWeight.BOLD) if label else None)
    if colour == "plague" and show_letter and count is None:
        # An icon, not a glyph: symbol characters are missing from the web build's fonts.
        content = ft.Icon(ft.Icons.CORONAVIRUS, color=ink_on(colour), size=size * 0.55)
    box = ft.Container(
        # A count chip gets its own width: a Container with an alignment and no width
        # stretches to fill its row.
        width=size if count is None else size * 1.8,
        height=size,
        padding=ft.Padding.symmetric(horizontal=6 if count is not None else 0),
        bgcolor=hex_of(colour),
        border_radius=size * 0.2,
        border=ft.Border.all(4 if selected else 1.5,
                             ft.Colors.PRIMARY if selected else ft.Colors.OUTLINE),
        alignment=ft.Alignment.CENTER,
        content=content,
        on_click=None if disabled else on_click,
        ink=on_click is not None and not disabled,
        opacity=0.6 if disabled else 1.0,
    )
    name = colour_name(ctx, colour)
    tip = f"{name} ×{count}" if count is not None else name
    return ft.Semantics(content=box, label=tip, identifier=identifier,
                        button=on_click is not None)


def colour_dot(colour: str, size: int = 20) -> ft.Container:
    """A family colour marker (players strip, names)."""
    return ft.Container(width=size, height=size, bgcolor=hex_of(colour),
                        border_radius=size / 2, border=ft.Border.all(1.5, ft.Colors.OUTLINE))


def cube_count_row(ctx: AppContext, counts: dict[str, int], *, size: int = 28) -> ft.Row:
    """Small cube chips with counts, zeros left out (not touch targets)."""
    chips = [cube_chip(ctx, c, size=size, count=n) for c in CUBE_COLOURS
             if (n := counts.get(c, 0)) > 0]
    return ft.Row(chips, spacing=4, wrap=True)


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
