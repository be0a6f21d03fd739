"""Building blocks of the assistant screens: section bar, choice chips, steppers, number
fields and the number dialog. Every tappable thing is at least 48 px high."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.widgets import BODY_TEXT_SIZE, TOUCH_TARGET

if TYPE_CHECKING:
    from companion.app.context import AppContext
    from companion.app.games.controller import Outcome

SMALL_TEXT = 14


@dataclass(frozen=True)
class Section:
    key: str
    label: str
    icon: ft.IconData


def section_bar(sections: Sequence[Section], selected: str,
                on_select: Callable[[str], None]) -> ft.Row:
    """The screen's sections as a bottom row of big icon+label targets."""
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


def chip(label: str, selected: bool, on_click: Callable[[], Any], *,
         disabled: bool = False, identifier: str | None = None,
         expand: bool = False) -> ft.Control:
    """A choice: filled when selected, outlined otherwise; 48 px high."""
    # `expand` is only ever set to True: the web client lays out a Semantics given
    # expand=False as if it had to fill the row, and inside a wrapping Row that renders
    # as a grey error box (seen in Chromium, Flet 1.0.5).
    sized: dict[str, Any] = {"expand": True} if expand else {}
    button: ft.Control
    if selected:
        button = ft.FilledTonalButton(label, icon=ft.Icons.CHECK, on_click=on_click,
                                      height=TOUCH_TARGET, disabled=disabled, **sized)
    else:
        button = ft.OutlinedButton(label, on_click=on_click, height=TOUCH_TARGET,
                                   disabled=disabled, **sized)
    return ft.Semantics(content=button, identifier=identifier, **sized) \
        if identifier else button


def chips(options: Sequence[tuple[Any, str]], selected: Any,
          on_pick: Callable[[Any], Any], *, id_prefix: str | None = None,
          disabled: Sequence[Any] = ()) -> ft.Row:
    return ft.Row(
        [chip(label, value == selected, partial(on_pick, value),
              disabled=value in disabled,
              identifier=f"{id_prefix}-{value}" if id_prefix else None)
         for value, label in options],
        wrap=True, spacing=8, run_spacing=8)


def stepper(ctx: AppContext, label: str, value: int, on_change: Callable[[int], Any], *,
            minimum: int = 0, maximum: int | None = None,
            note: str | None = None, disabled: bool = False) -> ft.Row:
    """label ........ [-] value [+]  (the buttons are named "Decrease <label>" ...)."""
    text = ft.Column([ft.Text(label, size=BODY_TEXT_SIZE)], spacing=0, expand=True)
    if note:
        text.controls.append(ft.Text(note, size=SMALL_TEXT, color=ft.Colors.ON_SURFACE_VARIANT))
    return ft.Row([
        text,
        ft.IconButton(ft.Icons.REMOVE, tooltip=ctx.t("games.decrease", what=label),
                      on_click=partial(on_change, value - 1),
                      disabled=disabled or value <= minimum,
                      width=TOUCH_TARGET, height=TOUCH_TARGET),
        ft.Text(str(value), size=BODY_TEXT_SIZE + 2, weight=ft.FontWeight.W_600, width=40,
                text_align=ft.TextAlign.CENTER),
        ft.IconButton(ft.Icons.ADD, tooltip=ctx.t("games.increase", what=label),
                      on_click=partial(on_change, value + 1),
                      disabled=disabled or (maximum is not None and value >= maximum),
                      width=TOUCH_TARGET, height=TOUCH_TARGET),
    ], vertical_alignment=ft.CrossAxisAlignment.CENTER)


def parse_count(text: str | None) -> int | None:
    """A whole number 0 or more typed by a person, or None (say so next to the field)."""
    cleaned = (text or "").strip()
    if not cleaned or not cleaned.isdigit():
        return None
    return int(cleaned)


def parse_whole(text: str | None) -> int | None:
    """A whole number typed by a person, sign allowed (Feudum's VP can go below 0); the
    game's rules say whether that value is allowed, naming the field."""
    cleaned = (text or "").strip().replace("\u2212", "-")  # a typographic minus too
    digits = cleaned[1:] if cleaned[:1] in "+-" else cleaned
    if not digits or not digits.isdigit():
        return None
    return int(cleaned)


def number_field(label: str, text: str, on_change: Callable[[str, ft.TextField], Any], *,
                 error: str | None = None, expand: bool = True) -> ft.TextField:
    """`on_change(text, field)` runs per keystroke: keep the text and set `field.error`
    there; do not rebuild the screen (the field would lose focus)."""

    def changed(e: ft.Event[ft.TextField]) -> None:
        on_change(e.control.value or "", e.control)

    field = ft.TextField(label=label, value=text, on_change=changed, error=error,
                         keyboard_type=ft.KeyboardType.NUMBER)
    if expand:  # never expand=False (see chip)
        field.expand = True
    return field


def card(controls: Sequence[ft.Control], *, identifier: str | None = None) -> ft.Control:
    box = ft.Container(ft.Column(list(controls), spacing=8), padding=12, border_radius=12,
                       border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT))
    return ft.Semantics(content=box, identifier=identifier) if identifier else box


def banner(lines: Sequence[str], *, error: bool = True,
           identifier: str = "games-problems") -> ft.Control:
    colour = ft.Colors.ON_ERROR_CONTAINER if error else ft.Colors.ON_SECONDARY_CONTAINER
    return ft.Semantics(identifier=identifier, content=ft.Container(
        ft.Column([ft.Text(line, size=SMALL_TEXT + 1, color=colour, selectable=True)
                   for line in lines], spacing=4),
        bgcolor=ft.Colors.ERROR_CONTAINER if error else ft.Colors.SECONDARY_CONTAINER,
        padding=12, border_radius=12))


def ask_number(ctx: AppContext, title: str, label: str, current: int,
               save: Callable[[int], Awaitable[Outcome]],
               describe: Callable[[Outcome], str]) -> None:
    """A dialog to type an exact number. Bad input or a refused edit keeps the dialog
    open with the typed text and the reason under the field."""
    # Not KeyboardType.NUMBER: phone number pads often have no minus key.
    field = ft.TextField(label=label, value=str(current), autofocus=True)

    async def submit() -> None:
        value = parse_whole(field.value)
        if value is None:
            field.error = ctx.t("games.bad_whole_number", field=label)
            ctx.page.update()
            return
        outcome = await save(value)
        if outcome.ok:
            ctx.page.pop_dialog()
        else:
            field.error = describe(outcome)
        ctx.page.update()

    def on_save() -> None:
        ctx.spawn(submit())

    field.on_submit = lambda _e: on_save()
    ctx.page.show_dialog(ft.AlertDialog(
        modal=True, title=ft.Text(title), content=field,
        actions=[ft.TextButton(ctx.t("common.cancel"), on_click=lambda: ctx.page.pop_dialog(),
                               height=TOUCH_TARGET),
                 ft.FilledButton(ctx.t("games.save"), on_click=on_save,
                                 height=TOUCH_TARGET)]))
