"""Abandoned games (companion.history.abandon): kept, marked in the stored summary through
the store's atomic compare-and-append save, split from the games to continue, never a
finished record nor in any statistics; Resume takes the mark off."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.history.abandon import (
    ABANDONED_KEY,
    FinishedGame,
    abandon,
    is_abandoned,
    resume,
    split_unfinished,
)
from companion.history.cache import HistoryCache
from companion.history.played import PLAYED_KEY
from companion.store.base import StaleWrite, StoredSession
from companion.store.memory import MemoryStore
from companion.store.tinydb_store import TinyDBStore


@pytest.fixture(params=["memory", "tinydb"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> MemoryStore | TinyDBStore:
    made: MemoryStore | TinyDBStore = (MemoryStore() if request.param == "memory"
                                       else TinyDBStore(tmp_path / "data"))
    made.create("a", "village", "Ann, Bo", {"setup": {"x": 1}},
                [{"seq": 0, "body": {"type": "chance"}}],
                summary={"players": ["Ann", "Bo"]})
    made.create("b", "feudum", "Cy, Di", {}, summary={"players": ["Cy", "Di"]})
    made.create("done", "feudum", "Ed, Flo", {}, finished=True, summary={
        "players": ["Ed", "Flo"], "scores": {"Ed": 30, "Flo": 20}, "winners": ["Ed"]})
    return made


def test_abandon_marks_the_stored_game_and_keeps_everything(
        store: MemoryStore | TinyDBStore) -> None:
    before = store.load("a")
    version = abandon(store, "a")
    after = store.load("a")
    assert version == after.version == before.version + 1
    assert (after.header, after.events, after.redo, after.finished) == (
        before.header, before.events, before.redo, False)
    assert after.summary["players"] == ["Ann", "Bo"]  # the rest of the summary is kept
    assert isinstance(after.summary[ABANDONED_KEY], str)
    assert is_abandoned(after)
    assert abandon(store, "a") == version  # already abandoned: nothing written
    infos = {i.id: i for i in store.list_sessions()}
    assert is_abandoned(infos["a"]) and not is_abandoned(infos["b"])


def test_split_and_cache_keep_abandoned_games_out_of_continue_and_history(
        store: MemoryStore | TinyDBStore) -> None:
    cache = HistoryCache()
    assert [r.id for r in cache.records(store)] == ["done"]
    abandon(store, "a")
    going, abandoned = split_unfinished(cache.unfinished(store))
    assert [i.id for i in going] == ["b"]
    assert [i.id for i in abandoned] == ["a"]
    assert [r.id for r in cache.records(store)] == ["done"]  # not shown as finished
    stats = cache.stats(store)
    assert stats.records == 1  # counted in no statistics
    assert {p.name for p in stats.players} == {"Ed", "Flo"}
    resume(store, "a")
    going, abandoned = split_unfinished(cache.unfinished(store))
    assert {i.id for i in going} == {"a", "b"} and abandoned == []
    assert ABANDONED_KEY not in store.load("a").summary
    summary = store.load("a").summary
    assert summary == {"players": ["Ann", "Bo"], PLAYED_KEY: summary[PLAYED_KEY]}


def test_a_finished_game_cannot_be_abandoned(store: MemoryStore | TinyDBStore) -> None:
    version = store.load("done").version
    with pytest.raises(FinishedGame):
        abandon(store, "done")
    assert store.load("done").version == version


def test_abandon_names_the_version_it_read(store: MemoryStore | TinyDBStore,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A save elsewhere between the read and the write: StaleWrite, nothing written."""
    read = store.load

    def read_then_saved_elsewhere(session_id: str) -> StoredSession:
        stored = read(session_id)
        store.append(session_id, [{"seq": 1, "body": {"type": "chance"}}])
        return stored

    monkeypatch.setattr(store, "load", read_then_saved_elsewhere)
    with pytest.raises(StaleWrite):
        abandon(store, "a")
    monkeypatch.undo()
    stored = store.load("a")
    assert len(stored.events) == 2 and not is_abandoned(stored)


def test_resume_of_a_game_not_abandoned_writes_nothing(
        store: MemoryStore | TinyDBStore) -> None:
    version = store.load("b").version
    assert resume(store, "b") == version


def test_undoing_an_abandon_keeps_last_played_and_the_order(
        store: MemoryStore | TinyDBStore) -> None:
    """Issue 22.8: abandoning a game and taking it back is no play: its last played
    stays, and it does not move to the top of "Continue a game"."""
    import time

    from companion.history.played import last_played

    cache = HistoryCache()
    store.update_info("b", summary={"players": ["Cy"]})  # b was played after a
    time.sleep(0.01)
    order = [i.id for i in cache.unfinished(store)]
    assert order == ["b", "a"]
    played = {i.id: last_played(i) for i in cache.unfinished(store)}
    time.sleep(0.01)
    abandon(store, "a")
    time.sleep(0.01)
    resume(store, "a")
    infos = {i.id: i for i in cache.unfinished(store)}
    assert last_played(infos["a"]) == played["a"]
    assert infos["a"].updated_at > played["a"]  # the store did write
    assert [i.id for i in cache.unfinished(store)] == order
    assert [i.id for i in store.list_sessions() if not i.finished] == ["a", "b"]


def test_a_game_event_moves_last_played(store: MemoryStore | TinyDBStore) -> None:
    import time

    from companion.history.played import last_played
    from companion.tally.service import TallyService

    svc = TallyService(store)
    sid, session = svc.create("villagers", ["Ann", "Bo"])
    abandon(store, sid)
    resume(store, sid)
    before = last_played(next(i for i in store.list_sessions() if i.id == sid))
    session = svc.open(sid)
    time.sleep(0.01)  # the store's clock counts milliseconds
    svc.apply(sid, session, session.read_edit({"type": "set", "player": 0, "field": "money",
                                               "value": 3}))
    after = last_played(next(i for i in store.list_sessions() if i.id == sid))
    assert after >= before and store.load(sid).summary[PLAYED_KEY] == after
    assert HistoryCache().unfinished(store)[0].id == sid
