"""Shared sessions are released from memory when their last listener leaves (after the
grace period) and loaded again from the store when reopened; never while listened to,
and a screen coming back never gets a stale copy."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from companion.app.shared_sessions import OpenShared, SharedSessions
from companion.app.village.hub import HUB
from companion.store.memory import MemoryStore

from .village_table.conftest import make_game, open_app, tap, texts_under
from .village_table.test_table import cube_id, first_cube

NO_STORE = MemoryStore()  # what a screen's open passes; Loads below never reads it


class Loads:
    """A load function that counts, returning a fresh object per load."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, _store: Any, session_id: str) -> dict[str, Any]:
        self.count += 1
        return {"id": session_id, "load": self.count}


def hub(grace: float = 0) -> tuple[SharedSessions[dict[str, Any]], Loads]:
    loads = Loads()
    return SharedSessions(loads, grace=grace), loads


def listener() -> None:
    pass


def test_released_when_the_last_listener_leaves_and_loaded_again_on_open() -> None:
    sessions, loads = hub()
    def one() -> None:
        pass

    def two() -> None:
        pass

    opened = sessions.open(NO_STORE, "g")
    assert sessions.attach(opened, one) is opened and sessions.attach(opened, two) is opened
    sessions.detach(opened, one)
    assert sessions.get("g") is opened  # still listened to by two
    sessions.detach(opened, two)
    assert sessions.get("g") is None and opened.released
    again = sessions.open(NO_STORE, "g")
    assert again is not opened and again.session["load"] == 2 and loads.count == 2


def test_the_grace_period_keeps_it_for_a_quick_return() -> None:
    sessions, loads = hub(grace=0.05)

    async def scenario() -> None:
        opened = sessions.open(NO_STORE, "g")
        sessions.attach(opened, listener)
        sessions.detach(opened, listener)  # e.g. table -> panel
        assert sessions.attach(opened, listener) is opened  # the panel listens at once
        await asyncio.sleep(0.1)
        assert sessions.get("g") is opened  # listened to when the grace ran out
        sessions.detach(opened, listener)
        assert sessions.get("g") is opened
        await asyncio.sleep(0.1)
        assert sessions.get("g") is None

    asyncio.run(scenario())
    assert loads.count == 1


def test_a_screen_coming_back_gets_the_copy_the_hub_holds_or_none() -> None:
    sessions, _ = hub()
    first = sessions.open(NO_STORE, "g")
    sessions.attach(first, listener)
    sessions.detach(first, listener)
    assert first.released
    assert sessions.attach(first, listener) is first  # nothing newer: taken back in
    assert sessions.get("g") is first and not first.released
    sessions.detach(first, listener)
    second = sessions.open(NO_STORE, "g")  # another phone
    assert sessions.attach(first, listener) is second  # the newer copy, not the old
    sessions.detach(second, listener)
    assert sessions.get("g") is None
    assert sessions.attach(first, listener) is None  # a newer one came and went: reload


def test_adopting_supersedes_an_older_copy() -> None:
    sessions, _ = hub()
    old = sessions.open(NO_STORE, "g")
    new = sessions.adopt("g", {"id": "g", "load": 99})
    assert old.released and sessions.get("g") is new and new.generation == old.generation + 1


def test_reload_shares_a_fresh_copy_and_moves_every_listener_to_it() -> None:
    """After another window saved to the game: the stored game, as a newer generation,
    heard by every screen that listened to the stale copy."""
    sessions, loads = hub()
    heard: list[str] = []

    def one() -> None:
        heard.append("one")

    def two() -> None:
        heard.append("two")

    stale = sessions.open(NO_STORE, "g")
    sessions.attach(stale, one)
    sessions.attach(stale, two)
    fresh = sessions.reload(NO_STORE, stale)
    assert fresh.session["load"] == 2 and loads.count == 2
    assert fresh.generation == stale.generation + 1 and sessions.get("g") is fresh
    assert stale.released and stale.replaced_by is fresh and stale.latest() is fresh
    assert fresh.listeners == [one, two] and stale.listeners == []
    fresh.notify()
    assert heard == ["one", "two"]
    sessions.detach(stale, one)  # a screen holding the stale copy leaves the fresh one
    assert fresh.listeners == [two]
    sessions.detach(fresh, two)
    assert sessions.get("g") is None  # nobody listens: released
    assert sessions.attach(stale, listener) is fresh  # nothing newer since: taken back
    again = sessions.reload(NO_STORE, stale)  # follows the chain
    assert fresh.replaced_by is again and stale.latest() is again
    assert again.listeners == [listener]


def test_a_failed_reload_changes_nothing() -> None:
    sessions, loads = hub()
    stale = sessions.open(NO_STORE, "g")
    sessions.attach(stale, listener)

    def broken(_store: Any, _session_id: str) -> dict[str, Any]:
        raise OSError("disk gone")

    sessions._load = broken
    with pytest.raises(OSError):
        sessions.reload(NO_STORE, stale)
    assert sessions.get("g") is stale and not stale.released
    assert stale.replaced_by is None and stale.listeners == [listener]


def test_never_released_while_listened_to_under_concurrent_opens() -> None:
    """The store thread opens while the event loop attaches and detaches: the hub never
    holds a released copy and never drops one somebody listens to."""
    sessions, _ = hub()
    stop = threading.Event()
    problems: list[str] = []

    def store_thread() -> None:
        while not stop.is_set():
            opened = sessions.open(NO_STORE, "g")
            if opened.released and sessions.get("g") is opened:
                problems.append("the hub holds a released copy")

    worker = threading.Thread(target=store_thread)
    worker.start()
    try:
        for _ in range(3000):
            held = sessions.get("g") or sessions.open(NO_STORE, "g")
            current = sessions.attach(held, listener)
            if current is None:
                continue
            if current.released or sessions.get("g") is not current:
                problems.append("released while listened to")
            sessions.detach(current, listener)
    finally:
        stop.set()
        worker.join()
    assert problems == []


# ---- the app ------------------------------------------------------------------------------
@pytest.fixture
def no_grace(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(HUB, "grace", 0)
    yield
    HUB._open.clear()


def loaded(session_id: str) -> OpenShared[Any] | None:
    return HUB.get(session_id)


def test_leaving_the_game_releases_it_and_reopening_loads_the_saved_game(
        store: MemoryStore, no_grace: None) -> None:
    sid = make_game(store)
    space, colour = first_cube(store, sid)
    with open_app(store, f"/play/village/{sid}") as app:
        first = loaded(sid)
        assert first is not None
        tap(app, cube_id(store, sid, space, colour))
        app.click("Back")  # to Home: nobody shows the game any more
        assert loaded(sid) is None and first.released
        app.set_route(f"/play/village/{sid}")
        again = loaded(sid)
        assert again is not None and again is not first  # loaded again from the store
        assert again.session.state.players[0].cubes.get(colour) == 1
        assert f"{colour} ×1" in texts_under(app, "player-0")


def test_a_panel_and_back_never_shows_a_stale_copy(store: MemoryStore,
                                                   no_grace: None) -> None:
    sid = make_game(store)
    with open_app(store, f"/play/village/{sid}") as app:
        tap(app, "player-0")  # the table stops listening: released at once (no grace)
        app.click(key="time-plus-1")  # on the panel's copy
        app.click("Back to the table")
        assert any(t.startswith("Time 2/12") for t in texts_under(app, "player-0"))
        assert loaded(sid) is not None and len(loaded(sid).listeners) == 1  # type: ignore[union-attr]


def test_one_phone_leaving_keeps_it_for_the_other(store: MemoryStore, no_grace: None) -> None:
    sid = make_game(store)
    with open_app(store, f"/play/village/{sid}") as one, \
            open_app(store, f"/play/village/{sid}") as two:
        opened = loaded(sid)
        one.click("Back")
        assert loaded(sid) is opened  # phone two still shows it
        two.click("Back")
        assert loaded(sid) is None


def test_an_expired_client_session_stops_listening(store: MemoryStore, no_grace: None) -> None:
    sid = make_game(store)
    with open_app(store, f"/play/village/{sid}") as app:
        assert loaded(sid) is not None
        app.dispatch(app.page, "close")  # Flet closes a session an hour after the tab
        assert loaded(sid) is None


def test_with_the_grace_period_a_quick_return_keeps_the_same_copy(
        store: MemoryStore) -> None:
    sid = make_game(store)
    with open_app(store, f"/play/village/{sid}") as app:
        first = loaded(sid)
        app.click("Back")
        app.set_route(f"/play/village/{sid}")
        assert loaded(sid) is first  # within the grace period: not reloaded
    HUB._open.clear()
