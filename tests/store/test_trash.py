"""Deleting a game moves it to the trash; restore puts it back exactly (both stores)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.store.base import TRASH_KEEP_DAYS, SessionExists, SessionNotFound, SessionStore
from companion.store.memory import MemoryStore
from companion.store.tinydb_store import TinyDBStore

HEADER: dict[str, Any] = {"players": [{"name": "Ann"}, {"name": "Bo"}]}


@pytest.fixture(params=["tinydb", "memory"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SessionStore]:
    if request.param == "tinydb":
        yield TinyDBStore(tmp_path / "data")
    else:
        yield MemoryStore()


def test_trash_hides_the_game_and_restore_brings_it_back_exactly(
        store: SessionStore) -> None:
    store.create("a", "village", "Game A", HEADER, [{"type": "x", "n": 1}])
    store.append("a", [{"type": "x", "n": 2}])
    store.replace_log("a", [{"type": "x", "n": 1}], [{"type": "x", "n": 2}])
    store.create("b", "feudum", "Game B", {})
    before = store.load("a")
    listed_before = [i.model_dump() for i in store.list_sessions()]

    trash_id = store.trash("a")
    assert [i.id for i in store.list_sessions()] == ["b"]
    with pytest.raises(SessionNotFound):
        store.load("a")

    assert store.restore(trash_id) == "a"
    assert store.load("a") == before  # log, redo, header, version, title
    assert [i.model_dump() for i in store.list_sessions()] == listed_before
    with pytest.raises(KeyError):
        store.restore(trash_id)  # once only


def test_trash_of_a_missing_game_and_restore_over_a_new_one(store: SessionStore) -> None:
    with pytest.raises(SessionNotFound):
        store.trash("nope")
    store.create("a", "village", "Old", {})
    trash_id = store.trash("a")
    store.create("a", "village", "New", {})
    with pytest.raises(SessionExists):
        store.restore(trash_id)
    assert store.load("a").title == "New"  # never overwritten


def test_tinydb_trash_is_a_move_and_old_trash_is_purged(tmp_path: Path) -> None:
    data = tmp_path / "data"
    store = TinyDBStore(data)
    store.create("a", "village", "Game A", HEADER)
    raw = (data / "sessions" / "a.json").read_bytes()
    trash_id = store.trash("a")
    assert (data / "trash" / trash_id).read_bytes() == raw  # byte for byte
    with pytest.raises(ValueError):
        store.restore("../sessions/a.json")

    TinyDBStore(data)  # a fresh start keeps recent trash
    assert (data / "trash" / trash_id).exists()
    old = data / "trash" / "b.json.20200101T000000000000Z.deleted"
    old.write_bytes(raw)
    os.utime(old, (time.time(), time.time()))  # recent mtime: the name's time counts
    TinyDBStore(data)
    assert not old.exists() and (data / "trash" / trash_id).exists()
    assert TRASH_KEEP_DAYS >= 7
