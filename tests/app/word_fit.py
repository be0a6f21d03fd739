"""Words that would break inside themselves, and names cut with no way to read them,
checked in the headless harness (issue 13, point 7).

`word_fit_problems(app)` walks what the user sees and names:
- each Text in a box of fixed width (a Container or Column given `width`, with nothing
  that shares the width between them) narrower than the Text's longest word at its font
  size: Flutter would break that word inside itself ("Ansehenslei/ste");
- each long fixed Text beside an expanding one in a Row (the Row gives the fixed one
  its width first and squeezes the other until its words break);
- each Text held to its lines (`max_lines`, or `no_wrap`) that does not fit them and has
  no way to be read whole: a tooltip on it or a Semantics label around it.

Widths are companion.app.kit.text_fit's estimate (Roboto's advance widths rounded up, plus
a margin): it errs wide, so a box that passes here has room in the browser.
"""

from __future__ import annotations

from typing import Any

import flet as ft
from flet.controls.base_control import BaseControl

from companion.app.kit import longest_word_width, text_width

from .harness import AppHarness

DEFAULT_SIZE = 14  # Material's body text when a Text sets no size
SQUEEZE = 160  # px: a fixed Text this wide leaves an expanding one beside it too little
BOLD = (ft.FontWeight.W_600, ft.FontWeight.W_700, ft.FontWeight.W_800, ft.FontWeight.W_900,
        ft.FontWeight.BOLD)


def _horizontal_padding(box: Any) -> float:
    padding = getattr(box, "padding", None)
    if isinstance(padding, int | float):
        return 2 * padding
    if isinstance(padding, ft.Padding):
        return float(padding.left + padding.right)
    return 0.0


def _room(ancestors: tuple[BaseControl, ...]) -> float | None:
    """The width a Text gets from its nearest fixed-width box, None when a Row (which
    shares its width out) or nothing fixed lies between."""
    inset = 0.0
    for ancestor in reversed(ancestors):
        if isinstance(ancestor, ft.Row | ft.ResponsiveRow | ft.ListView | ft.GridView):
            return None
        if isinstance(ancestor, ft.Container):
            inset += _horizontal_padding(ancestor)
            border = ancestor.border
            if isinstance(border, ft.Border) and border.left and border.right:
                inset += border.left.width + border.right.width
        width = getattr(ancestor, "width", None)
        if isinstance(width, int | float):
            return float(width) - inset
    return None


def _labelled(ancestors: tuple[BaseControl, ...]) -> bool:
    return any(isinstance(a, ft.Semantics) and a.label for a in ancestors)


def _squeezed(row: ft.Row) -> list[str]:
    """A Row lays out its fixed children first: a long fixed Text beside an expanding one
    leaves the expanding one a sliver, and its words break ("Vorr/at")."""
    if row.wrap:
        return []
    flexible = [c for c in row.controls if isinstance(c, ft.Text) and c.expand]
    fixed = [c for c in row.controls if isinstance(c, ft.Text) and not c.expand
             and isinstance(c.value, str)
             and text_width(c.value, float(c.size or DEFAULT_SIZE)) > SQUEEZE]
    return [f"{c.value!r} squeezes {f.value!r} in its row" for c in fixed
            for f in flexible] if flexible else []


def word_fit_problems(app: AppHarness) -> list[str]:
    problems: list[str] = []
    for root in app.screen_roots():
        for control, ancestors in app.walk(root, visible_only=True):
            if isinstance(control, ft.Row):
                problems += _squeezed(control)
            if not isinstance(control, ft.Text) or not isinstance(control.value, str):
                continue
            text = control.value
            size = float(control.size or DEFAULT_SIZE)
            bold = control.weight in BOLD
            room = _room(ancestors)
            if room is None:
                continue
            word = longest_word_width(text, size, bold=bold)
            # Cut: held to its lines (max_lines) or to one (no_wrap); otherwise it wraps
            # between words, and only a word wider than the box breaks.
            cut = control.max_lines is not None or control.no_wrap
            if cut:
                lines = control.max_lines or 1
                if text_width(text, size, bold=bold) > room * lines and not (
                        control.tooltip or _labelled(ancestors)):
                    problems.append(f"{text!r} is cut to {room:.0f} px with no tooltip "
                                    f"or label")
            elif word > room:
                problems.append(f"{text!r}: a word {word:.0f} px wide in {room:.0f} px")
    return problems
