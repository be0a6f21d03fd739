"""Every SessionStore method, against both implementations."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.store.base import (
    SessionExists,
    SessionNotFound,
    SessionStore,
    StoredSession,
)
from companion.store.memory import MemoryStore
from companion.store.tinydb_store import TinyDBStore

HEADER: dict[str, Any] = {"players": [{"id": "p1", "name": "Ann"}, {"id": "p2", "name": "Bo"}],
                          "setup": {"edition": "big-box"}}


def ev(n: int) -> dict[str, Any]:
    return {"type": "score", "n": n, "detail": {"tiles": ["a", "b"]}}


@pytest.fixture(params=["tinydb", "memory"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SessionStore]:
    if request.param == "tinydb":
        yield TinyDBStore(tmp_path / "data")
    else:
        yield MemoryStore()


def tick() -> None:
    # File mtimes have coarse resolution; space out writes whose order a test checks.
    time.sleep(0.05)


def test_create_and_load(store: SessionStore) -> None:
    store.create("g1", "village", "Friday game", HEADER)
    loaded = store.load("g1")
    assert loaded.model_dump(include={"id", "header", "events", "redo", "title"}) == \
        StoredSession(id="g1", header=HEADER, title="Friday game").model_dump(
            include={"id", "header", "events", "redo", "title"})
    assert loaded.version == 1 and loaded.finished is False
    with pytest.raises(SessionExists):
        store.create("g1", "village", "again", {})


def test_append_keeps_order_and_clears_redo(store: SessionStore) -> None:
    store.create("g1", "village", "t", HEADER)
    store.append("g1", [ev(0), ev(1)])
    store.append("g1", [ev(2)])
    assert store.load("g1").events == [ev(0), ev(1), ev(2)]

    store.replace_log("g1", [ev(0)], [ev(2), ev(1)])
    loaded = store.load("g1")
    assert (loaded.events, loaded.redo) == ([ev(0)], [ev(2), ev(1)])

    store.append("g1", [ev(5)])
    loaded = store.load("g1")
    assert (loaded.events, loaded.redo) == ([ev(0), ev(5)], [])

    store.replace_log("g1", [], [ev(5)])
    store.append("g1", [])  # no events still clears redo
    loaded = store.load("g1")
    assert (loaded.events, loaded.redo) == ([], [])


def test_replace_log_with_many_events(store: SessionStore) -> None:
    store.create("g1", "village", "t", HEADER)
    store.append("g1", [ev(i) for i in range(30)])
    store.replace_log("g1", [ev(i) for i in range(12)], [ev(i) for i in range(29, 11, -1)])
    loaded = store.load("g1")
    assert loaded.events == [ev(i) for i in range(12)]
    assert loaded.redo == [ev(i) for i in range(29, 11, -1)]


def test_data_is_copied_in_and_out(store: SessionStore) -> None:
    header: dict[str, list[str]] = {"players": ["a"]}
    event: dict[str, Any] = {"n": 1, "list": [1, 2]}
    store.create("g1", "village", "t", header)
    store.append("g1", [event])
    header["players"].append("b")
    event["list"].append(3)
    loaded = store.load("g1")
    assert loaded.header == {"players": ["a"]}
    assert loaded.events == [{"n": 1, "list": [1, 2]}]
    loaded.events[0]["list"].append(99)
    loaded.header["players"].clear()
    again = store.load("g1")
    assert again.events == [{"n": 1, "list": [1, 2]}]
    assert again.header == {"players": ["a"]}


def test_the_read_only_view_shows_what_load_shows(store: SessionStore) -> None:
    """read_only_view (a backup export's read) holds the same game as load, undo stack,
    summary and finished flag included."""
    store.create("g1", "village", "t", HEADER)
    store.append("g1", [ev(0), ev(1), ev(2)], summary={"players": ["Ann"]}, finished=True)
    store.replace_log("g1", [ev(0), ev(1)], [ev(2)])
    view, loaded = store.read_only_view("g1"), store.load("g1")
    assert view.model_dump() == loaded.model_dump()
    assert (view.events, view.redo, view.finished) == ([ev(0), ev(1)], [ev(2)], True)


def test_non_json_values_are_refused_before_storing(store: SessionStore) -> None:
    store.create("g1", "village", "t", HEADER)
    with pytest.raises((TypeError, ValueError)):
        store.append("g1", [{"bad": {1, 2}}])
    with pytest.raises(TypeError):
        store.append("g1", ["not a dict"])  # type: ignore[list-item]
    with pytest.raises(ValueError):
        store.append("g1", [{"nan": float("nan")}])
    assert store.load("g1").events == []


def test_update_info_and_list(store: SessionStore) -> None:
    store.create("a", "village", "Game A", HEADER)
    tick()
    store.create("b", "feudum", "Game B", {})
    listed = store.list_sessions()
    assert [i.id for i in listed] == ["b", "a"]
    assert listed[1].game == "village" and listed[1].title == "Game A"
    assert listed[1].finished is False and listed[1].summary == {}

    tick()
    store.update_info("a", title="Renamed", finished=True, summary={"winners": ["Ann"]})
    listed = store.list_sessions()
    assert [i.id for i in listed] == ["a", "b"]
    a = listed[0]
    assert (a.title, a.finished, a.summary) == ("Renamed", True, {"winners": ["Ann"]})
    assert a.updated_at >= a.created_at

    tick()
    store.append("b", [ev(1)])  # an event makes a session the newest
    assert [i.id for i in store.list_sessions()] == ["b", "a"]

    store.update_info("a")  # nothing to change is fine
    assert store.list_sessions()[1].title == "Renamed"


def test_delete(store: SessionStore) -> None:
    store.create("a", "village", "A", HEADER)
    store.create("b", "village", "B", HEADER)
    store.delete("a")
    assert [i.id for i in store.list_sessions()] == ["b"]
    with pytest.raises(SessionNotFound):
        store.load("a")
    with pytest.raises(SessionNotFound):
        store.delete("a")
    store.create("a", "village", "A again", {})  # the id is free again
    assert store.load("a").header == {}


def test_unknown_session(store: SessionStore) -> None:
    with pytest.raises(SessionNotFound):
        store.load("nope")
    with pytest.raises(SessionNotFound):
        store.append("nope", [ev(1)])
    with pytest.raises(SessionNotFound):
        store.replace_log("nope", [], [])
    with pytest.raises(SessionNotFound):
        store.update_info("nope", title="x")
    with pytest.raises(SessionNotFound):
        store.delete("nope")
    assert store.list_sessions() == []


@pytest.mark.parametrize("bad", ["", "../evil", "a/b", "a\\b", "..", "x" * 65, "sp ace",
                                 "ümlaut", "dot.json"])
def test_invalid_ids_are_refused(store: SessionStore, bad: str) -> None:
    for call in (lambda: store.create(bad, "village", "t", {}), lambda: store.load(bad),
                 lambda: store.append(bad, []), lambda: store.delete(bad)):
        with pytest.raises(ValueError) as info:
            call()
        assert repr(bad) in str(info.value)


def test_longest_valid_id(store: SessionStore) -> None:
    sid = "A-z_9" * 12 + "abcd"
    assert len(sid) == 64
    store.create(sid, "village", "t", {})
    assert store.load(sid).id == sid


def test_settings(store: SessionStore) -> None:
    assert store.get_setting("lang") is None
    assert store.get_setting("lang", "en") == "en"
    store.set_setting("lang", "de")
    store.set_setting("players", [{"name": "Ann"}])
    store.set_setting("lang", "fr")
    assert store.get_setting("lang") == "fr"
    value = store.get_setting("players")
    assert value == [{"name": "Ann"}]
    value[0]["name"] = "changed"
    assert store.get_setting("players") == [{"name": "Ann"}]
    with pytest.raises((TypeError, ValueError)):
        store.set_setting("bad", object())
    assert store.get_setting("bad", 1) == 1


def test_all_settings_in_one_read(store: SessionStore) -> None:
    """settings() gives every setting set, as get_setting gives each (copies)."""
    assert store.settings() == {}
    store.set_setting("lang", "de")
    store.set_setting("players", [{"name": "Ann"}])
    store.delete_setting("lang")
    store.set_setting("theme", "dark")
    values = store.settings()
    assert values == {"players": [{"name": "Ann"}], "theme": "dark"}
    values["players"][0]["name"] = "changed"
    values["theme"] = "light"
    assert store.settings() == {"players": [{"name": "Ann"}], "theme": "dark"}


def test_no_problems_on_a_healthy_store(store: SessionStore) -> None:
    store.create("a", "village", "A", HEADER)
    store.load("a")
    store.list_sessions()
    assert store.problems() == []


def test_tinydb_store_persists_across_instances(tmp_path: Path) -> None:
    first = TinyDBStore(tmp_path)
    first.create("a", "village", "A", HEADER)
    first.append("a", [ev(1), ev(2)])
    first.replace_log("a", [ev(1)], [ev(2)])
    first.update_info("a", finished=True, summary={"score": 3})
    first.set_setting("theme", {"dark": True})

    second = TinyDBStore(tmp_path)
    loaded = second.load("a")
    assert (loaded.header, loaded.events, loaded.redo) == (HEADER, [ev(1)], [ev(2)])
    [info] = second.list_sessions()
    assert (info.finished, info.summary) == (True, {"score": 3})
    assert second.get_setting("theme") == {"dark": True}

    # A write by one instance is seen by the other despite its read cache.
    second.append("a", [ev(3)])
    assert first.load("a").events == [ev(1), ev(3)]


def test_append_touches_only_the_session_file(tmp_path: Path) -> None:
    store = TinyDBStore(tmp_path)
    store.create("a", "village", "A", HEADER)
    store.create("b", "village", "B", HEADER)
    store.set_setting("k", 1)
    store.list_sessions()  # Home builds the index cache
    watched = [tmp_path / "index.json", tmp_path / "settings.json",
               tmp_path / "sessions" / "b.json"]
    before = {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in watched}
    a_before = (tmp_path / "sessions" / "a.json").stat().st_ino
    store.append("a", [ev(1)])
    assert {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in watched} == before
    assert (tmp_path / "sessions" / "a.json").stat().st_ino != a_before  # replaced atomically
