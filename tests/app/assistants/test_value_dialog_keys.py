"""Esc closes a number dialog as Cancel does (nothing saved), while the dialog stays modal
(a tap beside it keeps what was typed). The browser test tests/e2e/test_assistant_keys.py
presses the real key in Chromium."""

from __future__ import annotations

import flet as ft

from ..conftest import ProblemStore
from ..harness import AppHarness
from .helpers import edits, section, start


def test_escape_closes_the_number_dialog_without_saving(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        sid = start(app, "Small City", "Ann", "Bo")
        section(app, "players")
        saved = len(edits(store, sid))
        app.click("Type Money")
        field = app.find("Money", control_type=ft.TextField)
        [(listener, ancestors)] = [(c, a) for c, a in app.walk()
                                   if isinstance(c, ft.KeyboardListener)]
        [dialog] = [a for a in ancestors if isinstance(a, ft.AlertDialog)]
        assert dialog.open and dialog.modal  # a tap beside it does not close it
        assert any(c is field for c, _ in app.walk(listener))  # the key comes from the field
        app.set_value(field, "47")
        app.dispatch(listener, "key_down", {"key": "7"})  # other keys: typing goes on
        assert dialog.open
        app.dispatch(listener, "key_down", {"key": "Escape"})
        assert not dialog.open
        assert len(edits(store, sid)) == saved  # as Cancel: nothing saved
