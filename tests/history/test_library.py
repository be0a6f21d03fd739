"""The library service (companion.history.library): delete to the trash and restore,
abandon and resume, import; each drops the game from every session cache in memory, so
no screen keeps working on a copy the store has moved past. No Flet involved."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion.history import library
from companion.history.abandon import is_abandoned
from companion.history.backup import backup_json
from companion.history.cache import HistoryCache
from companion.history.library import Library, keep_in_step, session_caches
from companion.store.memory import MemoryStore
from companion.store.tinydb_store import TinyDBStore
from companion.tally.service import TallyService

ROOT = Path(__file__).resolve().parents[2]


class Cache:
    """A session cache that remembers what it was told to forget."""

    def __init__(self) -> None:
        self.forgotten: list[str] = []

    def forget(self, session_id: str) -> None:
        self.forgotten.append(session_id)


@pytest.fixture(params=["memory", "tinydb"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> MemoryStore | TinyDBStore:
    return MemoryStore() if request.param == "memory" else TinyDBStore(tmp_path / "data")


@pytest.fixture
def caches(monkeypatch: pytest.MonkeyPatch) -> list[Cache]:
    """Two registered caches (as the Village and tally hubs register themselves)."""
    monkeypatch.setattr(library, "_CACHES", [])
    made = [Cache(), Cache()]
    for cache in made:
        keep_in_step(cache)
    keep_in_step(made[0])  # registering twice keeps one entry
    return made


def game(store: MemoryStore | TinyDBStore) -> str:
    session_id, _session = TallyService(store).create("villagers", ["Ann", "Bo"])
    return session_id


def listed(store: MemoryStore | TinyDBStore) -> set[str]:
    return {info.id for info in store.list_sessions()}


def test_trash_and_restore_drop_every_cached_copy(store: MemoryStore | TinyDBStore,
                                                  caches: list[Cache]) -> None:
    sid = game(store)
    assert len(session_caches()) == 2
    trash_id = Library(store).trash(sid)
    assert sid not in listed(store)
    assert [c.forgotten for c in caches] == [[sid], [sid]]
    assert Library(store).restore(trash_id) == sid
    assert sid in listed(store)
    assert [c.forgotten for c in caches] == [[sid, sid], [sid, sid]]
    with pytest.raises(KeyError):  # restored already (another tab): nothing else changes
        Library(store).restore(trash_id)
    assert caches[0].forgotten == [sid, sid]


def test_abandon_and_resume_drop_every_cached_copy(store: MemoryStore | TinyDBStore,
                                                   caches: list[Cache]) -> None:
    sid = game(store)
    version = store.load(sid).version
    assert Library(store).abandon(sid) > version
    assert is_abandoned(store.load(sid))
    assert caches[1].forgotten == [sid]
    Library(store).resume(sid)
    assert not is_abandoned(store.load(sid))
    assert [c.forgotten for c in caches] == [[sid, sid], [sid, sid]]


def test_a_refused_action_leaves_the_caches_alone(store: MemoryStore | TinyDBStore,
                                                  caches: list[Cache]) -> None:
    with pytest.raises(KeyError):
        Library(store).abandon("nothing-here")
    assert [c.forgotten for c in caches] == [[], []]


def test_caches_given_to_the_library_are_the_ones_told(store: MemoryStore) -> None:
    sid, mine = game(store), Cache()
    Library(store, caches=[mine]).trash(sid)
    assert mine.forgotten == [sid]


def test_an_import_makes_the_history_list_the_store_again(
        store: MemoryStore | TinyDBStore, monkeypatch: pytest.MonkeyPatch) -> None:
    source = MemoryStore()
    sid = game(source)
    rescanned: list[HistoryCache] = []
    real = HistoryCache.rescan

    def rescan(cache: HistoryCache) -> None:  # many files written: not the folder's mtime
        rescanned.append(cache)
        real(cache)

    monkeypatch.setattr(HistoryCache, "rescan", rescan)
    report = Library(store).import_backup(backup_json(source).encode("utf-8"))
    assert report.imported == [sid] and sid in listed(store)
    assert len(rescanned) == 1


def test_the_library_imports_no_flet() -> None:
    code = ("import sys, companion.history.library; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('flet', 'flet_web')] "
            "or [m for m in sys.modules if m.startswith('companion.app')]; "
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
