"""Choices (see companion.app.kit): `chip`/`chips` pick one value with 48 px buttons;
`choice_chips` are Material chips for one or several values; `switch` and `radio` are
Material's, 48 px high (their default rows are 40 px)."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, TypeVar

import flet as ft

from companion.app.kit.basics import TOUCH_TARGET

V = TypeVar("V")  # a chip's value


def chip(label: str, selected: bool, on_click: Callable[[], object], *,
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


def chips(options: Sequence[tuple[V, str]], selected: object,
          on_pick: Callable[[V], object], *, id_prefix: str | None = None,
          disabled: Sequence[V] = ()) -> ft.Row:
    """One `chip` per (value, label), the `selected` value filled."""
    return ft.Row(
        [chip(label, value == selected, partial(on_pick, value),
              disabled=value in disabled,
              identifier=f"{id_prefix}-{value}" if id_prefix else None)
         for value, label in options],
        wrap=True, spacing=8, run_spacing=8)


def choice_chips(options: Sequence[tuple[str, str]], selected: set[str] | str | None,
                 on_pick: Callable[[str], object], *, key: str,
                 disabled: bool = False) -> ft.Row:
    """One Material chip per (value, label); the selected ones (one or a set) are filled."""
    chosen = {selected} if isinstance(selected, str) else (selected or set())
    out: list[ft.Control] = []
    for value, label in options:
        out.append(ft.Chip(
            label=label, key=f"{key}-{value}", selected=value in chosen,
            on_select=_picker(on_pick, value), disabled=disabled,
            height=TOUCH_TARGET,
        ))
    return ft.Row(out, wrap=True, spacing=8, run_spacing=4)


def _picker(on_pick: Callable[[str], object], value: str) -> Callable[[], object]:
    if inspect.iscoroutinefunction(on_pick):  # Flet awaits only async handlers
        async def run() -> None:
            await on_pick(value)
        return run
    return lambda: on_pick(value)


def switch(label: str, value: bool, on_change: Callable[..., object], *,
           disabled: bool = False, key: str | None = None) -> ft.Switch:
    """An on/off choice with its label, the whole 48 px row tappable."""
    return ft.Switch(label=label, value=value, on_change=on_change, disabled=disabled,
                     key=key, height=TOUCH_TARGET)


def radio(value: str, label: str) -> ft.Radio:
    """One answer of a RadioGroup, 48 px high."""
    return ft.Radio(value=value, label=label, height=TOUCH_TARGET)
