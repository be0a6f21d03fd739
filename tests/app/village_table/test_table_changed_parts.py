"""The table sends a change by diffing only its changed parts (kit/changed_parts.py): on
every phone showing the game, nothing is left that diffing the whole view would still
send, and the watching phone shows the tapping phone's change."""

from __future__ import annotations

import flet as ft
import pytest
from flet.controls.base_control import BaseControl
from flet.controls.object_patch import ObjectPatch

from companion.app.kit import changed_parts
from companion.store.memory import MemoryStore

from ..harness import AppHarness
from .conftest import make_game, open_app, tap, texts_under
from .test_table import cube_id, first_cube


def _left_unsent(app: AppHarness) -> list[object]:
    view = app.page.views[-1]
    assert isinstance(view, ft.View)
    changed_parts.changed_parts(view)  # the table is walked, not sent whole (no fallback)
    patch, added, removed = ObjectPatch.from_diff(view, view, control_cls=BaseControl)
    return [*patch.patch, *added, *removed]


def test_every_phone_is_sent_all_of_each_change(store: MemoryStore,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    sid = make_game(store)
    space, colour = first_cube(store, sid)
    sent_whole: list[object] = []
    original = BaseControl.update

    def counted(control: BaseControl) -> None:
        if isinstance(control, ft.View):
            sent_whole.append(control)
        original(control)

    with open_app(store, f"/play/village/{sid}") as one, \
            open_app(store, f"/play/village/{sid}") as two:
        monkeypatch.setattr(BaseControl, "update", counted)
        for step in ("cube", "end", "undo", "undo"):
            if step == "cube":
                tap(one, cube_id(store, sid, space, colour))
            elif step == "end":
                one.click("End turn")
            else:
                tap(one, "undo")
            one.settle()
            two.settle()
            assert _left_unsent(one) == [] and _left_unsent(two) == [], step
            assert texts_under(one, "table-turn") == texts_under(two, "table-turn")
            if step == "end":
                assert "Bo" in " ".join(texts_under(two, "table-turn"))
        assert sent_whole == []  # no view was diffed whole
