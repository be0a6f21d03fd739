"""The table on wide screens (issue 13, point 11): from 900 px the table (whose turn, the
action spaces, the turn's buttons, the instructions) is one pane and the players (and
Karla's board in solo) the other; narrower, one column. A resize across 900 px switches."""

from __future__ import annotations

import flet as ft
from flet.controls.base_control import BaseControl

from companion.store.memory import MemoryStore

from ..harness import AppHarness, FakeClient
from .conftest import find_id, make_game, tap, village_only_routes
from .test_table import cube_id, first_cube

TABLE_PARTS = ("table-turn", "action-spaces", "turn-buttons")


def open_at(store: MemoryStore, route: str, width: float) -> AppHarness:
    return AppHarness(store, routes=village_only_routes(),
                      client=FakeClient(initial_route=route, width=width,
                                        height=800 if width > 800 else 1024))


def pane_of(app: AppHarness, identifier: str) -> str | None:
    """The pane ("table-pane" / "players-pane") holding `identifier`, None in one column."""
    hits = app.find_all(identifier=identifier)
    assert len(hits) == 1, identifier
    for ancestor in hits[0][1]:
        pane = getattr(ancestor, "identifier", None)
        if pane in ("table-pane", "players-pane"):
            return str(pane)
    return None


def columns(app: AppHarness) -> list[BaseControl]:
    """The scrolling lists of the table view (one, or one per pane)."""
    return [c for c, _ in app.walk(app.page.views[-1], visible_only=True)
            if isinstance(c, ft.ListView)]


def resize(app: AppHarness, width: float, height: float) -> None:
    assert app.session is not None
    app.session.apply_page_patch({"width": width, "height": height})
    app.dispatch(app.page, "resize", {"width": width, "height": height})


def test_two_panes_at_1280(store: MemoryStore) -> None:
    sid = make_game(store, players=3)
    with open_at(store, f"/play/village/{sid}", 1280) as app:
        assert len(columns(app)) == 2
        for part in TABLE_PARTS:
            assert pane_of(app, part) == "table-pane", part
        for i in range(3):
            assert pane_of(app, f"player-{i}") == "players-pane"
        assert pane_of(app, "panel-links") == "players-pane"
        # The panes keep working: a cube tap changes both sides in place.
        space, colour = first_cube(store, sid)
        tap(app, cube_id(store, sid, space, colour))
        assert any("×1" in t for c, _ in app.walk(find_id(app, "player-0"))
                   for t in app.own_texts(c))


def test_solo_karla_board_beside_the_table(store: MemoryStore) -> None:
    sid = make_game(store, solo=True)
    with open_at(store, f"/play/village/{sid}", 1280) as app:
        assert pane_of(app, "karla-board") == "players-pane"
        assert pane_of(app, "action-spaces") == "table-pane"


def test_one_column_on_phones_and_at_768(store: MemoryStore) -> None:
    sid = make_game(store, players=3)
    for width in (360, 768):
        with open_at(store, f"/play/village/{sid}", width) as app:
            assert len(columns(app)) == 1
            for part in (*TABLE_PARTS, "player-0", "panel-links"):
                assert pane_of(app, part) is None


def test_resizing_across_900_switches_the_layout(store: MemoryStore) -> None:
    sid = make_game(store, players=2)
    with open_at(store, f"/play/village/{sid}", 360) as app:
        resize(app, 1280, 800)
        assert len(columns(app)) == 2
        assert pane_of(app, "player-1") == "players-pane"
        resize(app, 1100, 800)  # still wide: nothing rebuilt
        assert len(columns(app)) == 2
        resize(app, 400, 800)
        assert len(columns(app)) == 1 and pane_of(app, "action-spaces") is None
        space, colour = first_cube(store, sid)
        tap(app, cube_id(store, sid, space, colour))  # the rebuilt parts answer taps
        assert any("×1" in t for c, _ in app.walk(find_id(app, "player-0"))
                   for t in app.own_texts(c))
