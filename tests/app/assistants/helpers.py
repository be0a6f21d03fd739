"""Helpers for the assistant screens' headless tests."""

from __future__ import annotations

from typing import Any, cast

import flet as ft

from companion.store.memory import MemoryStore

from ..harness import AppHarness, HarnessError


def tap(app: AppHarness, identifier: str) -> None:
    """Tap what `ft.Semantics(identifier=...)` marks: the tappable control it wraps (a
    chip) or the tappable control around it (a card of the action circle)."""
    hits = app.find_all(identifier=identifier)
    if len(hits) != 1:
        raise HarnessError(f"expected one {identifier}, found {len(hits)}")
    root, ancestors = hits[0]
    around = [a for a in ancestors if getattr(a, "on_click", None) is not None]
    inside = [c for c, _ in app.walk(root, visible_only=True)]
    for control in [*inside, *reversed(around)]:
        if getattr(control, "on_click", None) is not None:
            if getattr(control, "disabled", False):
                raise HarnessError(f"{identifier} is disabled")
            app.dispatch(control, "click")
            return
    raise HarnessError(f"nothing tappable inside {identifier}")


def texts_in(app: AppHarness, identifier: str) -> list[str]:
    root = app.find(identifier=identifier)
    return [t for c, _ in app.walk(root, visible_only=True) for t in app.own_texts(c)]


def start(app: AppHarness, label: str, *names: str) -> str:
    """From Home: open the game's setup, type the names, start; returns the session id."""
    app.click(label)
    for i, name in enumerate(names):
        if i >= len(app.find_all(control_type=ft.TextField)):
            app.click("Add a player")
        app.type_into(f"Player {i + 1}", name)
    app.click("Start")
    route = app.page.views[-1].route
    assert route.startswith("/play/"), route
    return route.rsplit("/", 1)[-1]


def edits(store: MemoryStore, session_id: str) -> list[dict[str, Any]]:
    return [e["edit"] for e in store.load(session_id).events]


def section(app: AppHarness, key: str) -> None:
    tap(app, f"section-{key}")


def type_in_dialog(app: AppHarness, label: str, text: str) -> None:
    field = app.find(label, control_type=ft.TextField)
    app.set_value(field, text)
    app.click("Save")


def buttons(app: AppHarness) -> list[Any]:
    top = app.page.views[-1]
    return [c for c, _ in app.walk(top, visible_only=True)
            if isinstance(c, ft.IconButton | ft.FilledButton | ft.OutlinedButton
                          | ft.FilledTonalButton | ft.TextButton)]


def text_field(app: AppHarness, label: str) -> ft.TextField:
    return cast(ft.TextField, app.find(label, control_type=ft.TextField))


def text_fields(app: AppHarness, label: str) -> list[ft.TextField]:
    return [cast(ft.TextField, c) for c, _ in app.find_all(label, control_type=ft.TextField)]


def disabled(app: AppHarness, text: str) -> bool:
    return bool(getattr(app.find(text), "disabled", False))
