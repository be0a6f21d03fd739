"""Whole numbers typed by a person: parsing, a field, and a dialog that keeps what was
typed when the value is refused (see companion.app.kit)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import flet as ft

from companion.app.kit.entry import ValueDialog, ask_value, value_field

if TYPE_CHECKING:
    from companion.app.assistants.controller import Outcome
    from companion.app.context import AppContext


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


def number_field(label: str, text: str, on_change: Callable[[str, ft.TextField], object], *,
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


def ask_number(ctx: AppContext, title: str, label: str, current: int,
               save: Callable[[int], Awaitable[Outcome]],
               describe: Callable[[Outcome], str]) -> ValueDialog:
    """A dialog to type an exact number. Bad input or a refused edit keeps the dialog
    open with the typed text and the reason under the field (kit.entry.ask_value)."""

    async def submit(text: str) -> str | None:
        value = parse_whole(text)
        if value is None:
            return ctx.t("games.bad_whole_number", field=label)
        outcome = await save(value)
        return None if outcome.ok else describe(outcome)

    # Not KeyboardType.NUMBER: phone number pads often have no minus key.
    return ask_value(ctx, title, value_field(label, str(current)), submit)
