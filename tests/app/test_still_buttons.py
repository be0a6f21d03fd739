"""Buttons change state without animating (issue 23): the page's light and dark themes give
every button kind a style whose only setting is a zero animation duration, and that
setting reaches the client. A button that becomes enabled or disabled (undo and redo, Well
and End turn on every table tap) then shows its new colours in the frame of the change,
instead of 200 ms of frames that each redraw the whole screen on CanvasKit."""

from __future__ import annotations

from typing import Any

import flet as ft
import msgpack
from flet.messaging.protocol import decode_ext_from_msgpack

from .conftest import ProblemStore
from .harness import AppHarness

BUTTON_THEMES = ("button_theme", "filled_button_theme", "outlined_button_theme",
                 "text_button_theme", "icon_button_theme")


def _themes_sent(app: AppHarness) -> list[dict[str, Any]]:
    """Every theme the client was sent (a dict holding button themes), in order."""
    found: list[dict[str, Any]] = []

    def walk(value: object) -> None:
        if isinstance(value, dict):
            if "filled_button_theme" in value:
                found.append(value)
            for item in value.values():
                walk(item)
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)

    for frame in app.conn.frames:  # (patches have int keys: not strict)
        walk(msgpack.unpackb(frame, ext_hook=decode_ext_from_msgpack, strict_map_key=False))
    return found


def _check(theme: ft.Theme | None) -> None:
    assert theme is not None
    for name in BUTTON_THEMES:
        style = getattr(theme, name).style
        assert style.animation_duration == ft.Duration()
        # Nothing else: Material's own colours, shapes and sizes stay.
        others = {field: value for field, value in vars(style).items()
                  if value is not None and field != "animation_duration"
                  and not field.startswith("_")}
        assert others == {}


def test_every_button_kind_changes_state_at_once(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        _check(app.page.theme)
        _check(app.page.dark_theme)
        sent = _themes_sent(app)
        assert len(sent) >= 2  # light and dark
        for theme in sent:
            for name in BUTTON_THEMES:
                assert "animation_duration" in theme[name]["style"]
        # A language change installs the themes again (the CJK fallbacks): still at once.
        app.click("Settings")
        app.select_radio("한국어")
        _check(app.page.theme)
        _check(app.page.dark_theme)
