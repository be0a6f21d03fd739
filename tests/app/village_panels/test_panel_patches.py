"""What a counter tap on the player panel sends to the phone (issue 23): the controls on
the page are changed in place (kit.reconcile), not rebuilt, so the patch holds the
changed value and little else."""

from __future__ import annotations

import flet as ft

from companion.app.kit.reconcile import reconcile, reconcile_list

from .conftest import new_game, open_panel, tap, value_of

PATCH_BYTES = 2_000  # a rebuilt panel body was ~20,000 bytes


def test_a_counter_tap_changes_the_panel_in_place_and_sends_a_small_patch() -> None:
    game = new_game()
    with open_panel(game, "player/0") as app:
        value = app.find(key="adjust-grain-value")
        plus = app.find(key="adjust-grain-plus")
        sent = len(app.conn.frames)
        tap(app, "adjust-grain-plus")
        assert value_of(app, "adjust-grain-value") == "1"
        # the same controls, still on the page, now showing the new value
        assert app.find(key="adjust-grain-value") is value
        assert app.find(key="adjust-grain-plus") is plus
        frames = app.conn.frames[sent:]
        assert frames and sum(len(f) for f in frames) < PATCH_BYTES
        tap(app, "adjust-grain-minus")
        assert value_of(app, "adjust-grain-value") == "0"
        assert app.find(key="adjust-grain-value") is value


def test_reconcile_merges_same_kind_and_replaces_the_rest() -> None:
    old_text = ft.Text("1", key="n")
    old = ft.Row([old_text, ft.Icon(ft.Icons.ADD)])
    new = ft.Row([ft.Text("2", key="n", size=20), ft.Text("icon gone")])
    merged = reconcile(old, new)
    assert merged is old and old.controls[0] is old_text
    assert old_text.value == "2" and old_text.size == 20
    assert isinstance(old.controls[1], ft.Text) and old.controls[1].value == "icon gone"
    # another key or another class: the new control itself
    other = ft.Text("3", key="m")
    assert reconcile(old_text, other) is other
    icon = ft.Icon(ft.Icons.ADD)
    assert reconcile(ft.Text("a"), icon) is icon
    # a list merged item by item; a longer new list keeps its extra items
    extra = ft.Text("extra")
    kept = [ft.Text("a")]
    assert reconcile_list(kept, [ft.Text("b")]) is kept and kept[0].value == "b"
    longer = reconcile_list(kept, [ft.Text("c"), extra])
    assert longer[0] is kept[0] and longer[1] is extra
