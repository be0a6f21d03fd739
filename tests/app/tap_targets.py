"""Tap targets checked in the headless harness (issue 13, point 8).

`tap_target_problems(app)` walks what the user sees (the top view and every open dialog)
and names each control that can be tapped but is set smaller than 48 px high or wide (a
button, switch, radio, chip, or a Container with a click handler), and each icon-only
button without an accessible name (its icon's semantics label, as `kit.icon_button` sets
it, or a label on a Semantics around it; a tooltip alone is not the button's name in the
web client). A control with no height set is a problem too: Material's default button is
40 px. A tappable Container may instead be sized by its content: then its padding must
give one line of text (24 px) at least 48 px.

screen_tour.py visits every screen; test_every_screen.py runs this check on each.
"""

from __future__ import annotations

from typing import Any

import flet as ft
from flet.controls.base_control import BaseControl

from .harness import AppHarness

MIN_TARGET = 48
LINE_HEIGHT = 24
SIZED = (ft.Button, ft.OutlinedButton, ft.TextButton, ft.IconButton, ft.Switch, ft.Radio,
         ft.Chip)


def _describe(control: BaseControl) -> str:
    texts = AppHarness.own_texts(control)
    content = getattr(control, "content", None)
    if not texts and content is not None:
        texts = AppHarness.own_texts(content)
    name = texts[0] if texts else (getattr(control, "key", None) or "")
    return f"{type(control).__name__}({name!r})"


def _named_by_semantics(ancestors: tuple[BaseControl, ...]) -> bool:
    """A Semantics label right around the control (its parent or grandparent)."""
    return any(isinstance(a, ft.Semantics) and a.label for a in ancestors[-2:])


def tap_target_problems(app: AppHarness, root: Any | None = None) -> list[str]:
    problems: list[str] = []
    roots = [root] if root is not None else app.screen_roots()
    for top in roots:
        for control, ancestors in app.walk(top, visible_only=True):
            if isinstance(control, ft.AppBar):
                continue
            tappable = isinstance(control, SIZED) or (
                isinstance(control, ft.Container) and control.on_click is not None)
            if not tappable:
                continue
            height = getattr(control, "height", None)
            if height is None and isinstance(control, ft.Container):
                height = _padded_height(control)
            if height is None or height < MIN_TARGET:
                problems.append(f"{_describe(control)} is {height} px high")
            width = getattr(control, "width", None)
            if width is not None and width < MIN_TARGET:
                problems.append(f"{_describe(control)} is {width} px wide")
            if isinstance(control, ft.IconButton) and not (
                    _icon_label(control) or _named_by_semantics(ancestors)):
                problems.append(f"{_describe(control)} has no accessible name")
            if isinstance(control, ft.Container) and not (
                    AppHarness.own_texts(control) or _named_by_semantics(ancestors)
                    or any(AppHarness.own_texts(c) for c, _ in app.walk(control))):
                problems.append(f"{_describe(control)} has no accessible name")
    return problems


def _padded_height(box: ft.Container) -> float | None:
    """The least height of a Container sized by one line of text and its padding."""
    padding = box.padding
    if isinstance(padding, int | float):
        return LINE_HEIGHT + 2 * padding
    if isinstance(padding, ft.Padding):
        return LINE_HEIGHT + padding.top + padding.bottom
    return None


def _icon_label(button: ft.IconButton) -> str | None:
    icon = button.icon
    return icon.semantics_label if isinstance(icon, ft.Icon) else None
