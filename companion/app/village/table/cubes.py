"""Cubes and player colours as drawn controls: colour plus a letter, so players who cannot
tell green from brown still can (the letter follows the cube-display setting)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

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
DIM_MIX, DIM_GREY = 0.55, 0xB0  # a cube that may not be taken now: mixed with grey
DIMMED = "dimmed"  # a dimmed cube's `data` (never sent to the client)
CUBE_COLOURS = (*INFLUENCE, "plague")


def hex_of(colour: str) -> str:
    return COLOUR_HEX.get(colour, "#9E9E9E")


def dimmed_hex(colour: str) -> str:
    """`colour` faded halfway to grey: a cube that may not be taken now."""
    value = hex_of(colour).lstrip("#")
    mixed = (round(int(value[i:i + 2], 16) * (1 - DIM_MIX) + DIM_GREY * DIM_MIX)
             for i in (0, 2, 4))
    return "#" + "".join(f"{c:02X}" for c in mixed)


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
              on_click: Callable[[], object] | None = None, identifier: str | None = None,
              count: int | None = None, selected: bool = False,
              disabled: bool = False) -> ft.Control:
    """One cube. Tappable when `on_click` is given (then at least 48 px); `count` adds a
    small number beside the letter (cube counts in the players strip and the bag)."""
    content = cube_face(ctx, colour, size, count)
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


def cube_face(ctx: AppContext, colour: str, size: int,
              count: int | None = None) -> ft.Control | None:
    """What is drawn on a cube: its letter (and `count`), or the plague icon."""
    show_letter = ctx.settings.cube_display == CubeDisplay.COLOUR_LETTER
    label = cube_letter(ctx, colour) if show_letter else ""
    if count is not None:
        label = f"{label}{count}" if label else str(count)
    if colour == "plague" and show_letter and count is None:
        # An icon, not a glyph: symbol characters are missing from the web build's fonts.
        return ft.Icon(ft.Icons.CORONAVIRUS, color=ink_on(colour), size=size * 0.55)
    return (ft.Text(label, color=ink_on(colour), size=max(12, size * 0.4),
                    weight=ft.FontWeight.BOLD) if label else None)


class CubeButton:
    """A tappable cube on an action space that stays on screen across taps: a change of
    colour or of whether it may be taken now mutates it (a tap sends a few properties,
    not a new table). A cube that may not be taken now still answers a tap: the engine
    says why (shown as a message)."""

    def __init__(self, ctx: AppContext, on_click: Callable[[], object],
                 size: int = TOUCH_TARGET) -> None:
        self.ctx = ctx
        self.size = size
        self.colour: str | None = None
        self.takeable: bool | None = None
        # Kept lean, since a tap re-checks every cube: no ink ripple (it repaints the
        # table on every frame for half a second, in the way of the change the tap makes,
        # which is its feedback) and no border (each border is five more objects).
        self.box = ft.Container(width=size, height=size, border_radius=size * 0.2,
                                alignment=ft.Alignment.CENTER, on_click=on_click)
        self.control = ft.Semantics(content=self.box, button=True)

    def show(self, colour: str, identifier: str, takeable: bool) -> bool:
        """Show this cube; True when anything changed."""
        changed = False
        if colour != self.colour:
            self.box.content = cube_face(self.ctx, colour, self.size)
            self.control.label = colour_name(self.ctx, colour)
            # The black plague cube gets an outline: on the dark theme's background it
            # would otherwise show as its icon alone (the others need none).
            self.box.border = (ft.Border.all(2, ft.Colors.OUTLINE) if colour == "plague"
                               else None)
        if colour != self.colour or takeable != self.takeable:
            # Dimmed by a paler colour only (no opacity layer, no other property): the
            # fewer properties a tap changes, the less the phone redraws.
            self.box.bgcolor = hex_of(colour) if takeable else dimmed_hex(colour)
            self.box.data = None if takeable else DIMMED  # server side only (tests)
            self.colour, self.takeable = colour, takeable
            changed = True
        if identifier != self.control.identifier:
            self.control.identifier = identifier
            changed = True
        return changed


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
