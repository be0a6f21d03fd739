"""One game on two phones, and what a recorded tap feels like: the table confirms a take
with haptic feedback once it is saved, and every phone showing the game follows it."""

from __future__ import annotations

from companion.app.village.hub import HUB
from companion.app.village.table.cubes import DIMMED
from companion.store.memory import MemoryStore

from ..harness import AppHarness, FakeClient
from .conftest import make_game, open_app, tap, texts_under, village_only_routes
from .test_table import cube_id, first_cube, taken_elsewhere


def test_a_recorded_take_buzzes_the_phone(store: MemoryStore) -> None:
    sid = make_game(store)
    space, colour = first_cube(store, sid)
    phone = FakeClient(initial_route=f"/play/village/{sid}", platform="android")
    with AppHarness(store, routes=village_only_routes(), client=phone) as app:
        assert app.client.calls("HapticFeedback") == []
        tap(app, cube_id(store, sid, space, colour))
        assert store.load(sid).events[-1]["body"]["type"] == "take_cube"  # saved, then:
        assert [c.name for c in app.client.calls("HapticFeedback")] == ["light_impact"]


def test_a_desktop_browser_gets_no_haptic_round_trip(store: MemoryStore) -> None:
    sid = make_game(store)
    space, colour = first_cube(store, sid)
    with open_app(store, f"/play/village/{sid}") as app:  # platform: linux
        tap(app, cube_id(store, sid, space, colour))
        assert store.load(sid).events[-1]["body"]["type"] == "take_cube"
        assert app.client.calls("HapticFeedback") == []


def test_a_refused_take_does_not_buzz(store: MemoryStore) -> None:
    sid = make_game(store)
    space, colour = first_cube(store, sid)
    with open_app(store, f"/play/village/{sid}") as app:
        stale = taken_elsewhere(sid, space, colour)
        tap(app, stale)  # this screen had not caught up: the engine refuses
        said = app.toasts()  # the refusal in words, without its field ("stage:")
        assert said and not any(t.startswith("stage") for t in said), said
        assert app.client.calls("HapticFeedback") == []


def test_two_phones_on_one_game_follow_each_other(store: MemoryStore) -> None:
    sid = make_game(store)
    space, colour = first_cube(store, sid)
    ident = cube_id(store, sid, space, colour)
    with open_app(store, f"/play/village/{sid}") as one, \
            open_app(store, f"/play/village/{sid}") as two:
        opened = HUB.get(sid)
        assert opened is not None and len(opened.listeners) == 2  # one shared session
        assert "No cubes" in texts_under(two, "player-0")
        tap(one, ident)  # phone one records Ann's take
        two.settle()
        assert f"{colour} ×1" in texts_under(two, "player-0")  # phone two shows the cube
        assert any(t.startswith("Ann: do the") for t in two.visible_texts())
        spaces = two.find(identifier="action-spaces")  # and offers no second cube
        cubes = [c for c, _ in two.walk(spaces) if getattr(c, "on_click", None)]
        assert cubes and all(c.data == DIMMED for c in cubes)
        tap(two, "undo")  # and back the other way
        one.settle()
        assert "No cubes" in texts_under(one, "player-0")
        assert "Ann: take a cube (or use the well)" in one.visible_texts()
