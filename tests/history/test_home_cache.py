"""HistoryCache.home: Home's unfinished games and one page of finished ones from one look
at the store; the --home switch of the history benchmark."""

from __future__ import annotations

import contextlib
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.history import cache as cache_module
from companion.history.cache import HistoryCache
from companion.history.records import GameRecord
from companion.store.base import SessionExists, SessionInfo
from companion.store.memory import MemoryStore
from companion.store.tinydb_store import TinyDBStore

from .helpers import village


def add(store: MemoryStore | TinyDBStore, sid: str, day: str) -> None:
    store.create(sid, "village", sid, {})
    store.update_info(sid, finished=True, summary=village({"Ann": 1, "Bo": 2}, day=day))


def test_home_gives_unfinished_games_and_one_page(tmp_path: Path) -> None:
    store = TinyDBStore(tmp_path)
    for i in range(5):
        add(store, f"f{i}", f"2024-01-0{1 + i}")
    store.create("open-a", "village", "A", {})
    store.create("open-b", "village", "B", {})
    cache = HistoryCache()
    unfinished, page = cache.home(store, 0, 2)
    assert [i.id for i in unfinished] == ["open-b", "open-a"]  # last saved first
    assert [r.id for r in page.items] == ["f4", "f3"] and page.total == 5
    _, page = cache.home(store, 9, 2)  # past the end: the last page
    assert page.page == 2 and [r.id for r in page.items] == ["f0"]
    store.update_info("open-a", finished=True, summary=village({"Ann": 3, "Bo": 1},
                                                                day="2024-02-01"))
    unfinished, page = cache.home(store, 0, 2)
    assert [i.id for i in unfinished] == ["open-b"]
    assert [r.id for r in page.items] == ["open-a", "f4"] and page.total == 6
    with pytest.raises(ValueError, match="no such page"):
        cache.home(store, -1, 2)


def test_bench_home_switch(monkeypatch: pytest.MonkeyPatch,
                           capsys: pytest.CaptureFixture[str]) -> None:
    import companion.bench.home as home_bench
    from companion.cli import main

    def fake(tmp: Path, sizes: tuple[int, ...]) -> dict[str, Any]:
        return {"sizes": list(sizes), "first_ms": {"3": 1.0}, "skeleton_ms": {"3": 0.5},
                "after_skeleton_ms": {"3": 0.5}, "idle_first_ms": {"3": 0.7},
                "warm_ms": {"3": {"p50": 0.2, "p95": 0.3, "max": 0.4}},
                "after_save_ms": {"3": 0.9}, "cold_unwarmed_ms": {"3": 2.0},
                "rss_mb": {"games": 3, "after_1": 50.0, "after_20": 51.0,
                           "growth_pct": 2.0}}

    monkeypatch.setattr(home_bench, "bench_home", fake)
    assert main(["bench", "--history", "--sizes", "3", "--home"]) == 0
    out = capsys.readouterr().out
    assert "Home's history on the live server" in out
    assert "after a save ms" in out and " 0.9 " in out
    assert "50.0 MB after one Home load, 51.0 MB after 20 (+2.0%)" in out


# -- after a save: the one changed game is read, the store is not listed again -----------


class Listings:
    """Counts the listings of one store, `list_sessions` and `list_sessions_stamped`
    (the first look's, with no saved index); the incremental path makes none."""

    def __init__(self, store: TinyDBStore, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real, real_stamped = store.list_sessions, store.list_sessions_stamped

        def counting() -> list[SessionInfo]:
            self.count += 1
            return real()

        def counting_stamped() -> tuple[list[SessionInfo], dict[str, Any]]:
            self.count += 1
            return real_stamped()

        monkeypatch.setattr(store, "list_sessions", counting)
        monkeypatch.setattr(store, "list_sessions_stamped", counting_stamped)


def fresh_view(store: TinyDBStore) -> tuple[list[str], list[GameRecord], int]:
    """What a cache built from nothing shows: unfinished ids, every record, skipped."""
    cache = HistoryCache()
    unfinished, _ = cache.home(store)
    return [i.id for i in unfinished], list(cache.records(store)), cache.skipped


def view(cache: HistoryCache, store: TinyDBStore) -> tuple[list[str], list[GameRecord], int]:
    unfinished, _ = cache.home(store)
    return [i.id for i in unfinished], list(cache.records(store)), cache.skipped


def test_a_saved_game_updates_its_record_only(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    store = TinyDBStore(tmp_path)
    for i in range(6):
        add(store, f"f{i}", f"2024-01-0{1 + i}")
    cache = HistoryCache()
    listed = Listings(store, monkeypatch)
    before = {r.id: r for r in cache.records(store)}
    assert listed.count == 1
    store.update_info("f2", summary=village({"Ann": 77, "Bo": 2}, day="2024-03-01"))
    after = cache.records(store)
    assert listed.count == 1 and cache.last_update == "incremental"
    assert after[0].id == "f2" and after[0].players[0].score == 77  # newest now
    assert all(r is before[r.id] for r in after if r.id != "f2")
    assert view(cache, store) == fresh_view(store)


def test_a_deleted_trashed_or_restored_game(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    store = TinyDBStore(tmp_path)
    for i in range(4):
        add(store, f"f{i}", f"2024-01-0{1 + i}")
    cache = HistoryCache()
    listed = Listings(store, monkeypatch)
    assert len(cache.records(store)) == 4
    store.delete("f1")
    assert [r.id for r in cache.records(store)] == ["f3", "f2", "f0"]
    trash_id = store.trash("f3")
    assert [r.id for r in cache.records(store)] == ["f2", "f0"]
    store.restore(trash_id)
    assert [r.id for r in cache.records(store)] == ["f3", "f2", "f0"]
    assert listed.count == 1 and cache.last_update == "incremental"
    assert view(cache, store) == fresh_view(store)


def test_a_finished_game_moves_from_unfinished_to_the_records(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = TinyDBStore(tmp_path)
    add(store, "f0", "2024-01-01")
    store.create("open", "village", "open", {})
    cache = HistoryCache()
    listed = Listings(store, monkeypatch)
    unfinished, page = cache.home(store)
    assert [i.id for i in unfinished] == ["open"] and page.total == 1
    store.append("open", [{"type": "end_turn"}])  # a save of an unfinished game
    unfinished, page = cache.home(store)
    assert [i.id for i in unfinished] == ["open"] and page.total == 1
    store.update_info("open", finished=True, summary=village({"Ann": 5, "Bo": 9},
                                                             day="2024-02-01"))
    unfinished, page = cache.home(store)
    assert unfinished == [] and [r.id for r in page.items] == ["open", "f0"]
    assert listed.count == 1 and cache.last_update == "incremental"
    store.create("again", "village", "again", {})
    unfinished, page = cache.home(store)
    assert [i.id for i in unfinished] == ["again"] and page.total == 2


def test_a_write_by_another_process_is_seen(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A second store object on the same folder writes as another process would: no
    notification reaches this process's cache; the scan finds the changed files."""
    store = TinyDBStore(tmp_path)
    other = TinyDBStore(tmp_path)
    for i in range(3):
        add(store, f"f{i}", f"2024-01-0{1 + i}")
    cache = HistoryCache()
    listed = Listings(store, monkeypatch)
    assert len(cache.records(store)) == 3
    add(other, "theirs", "2024-06-01")
    other.update_info("f0", summary=village({"Ann": 50, "Bo": 2}, day="2024-01-01"))
    other.create("their-open", "village", "their-open", {})
    records = cache.records(store)
    assert [r.id for r in records][:1] == ["theirs"]
    assert next(r for r in records if r.id == "f0").players[0].score == 50
    assert [i.id for i in cache.unfinished(store)] == ["their-open"]
    other.delete("f1")
    assert "f1" not in {r.id for r in cache.records(store)}
    assert listed.count == 1
    assert view(cache, store) == fresh_view(store)


def test_an_outside_write_after_a_quiet_folder_is_seen(tmp_path: Path) -> None:
    """The folder-mtime shortcut (one stat, no scan) never hides another writer."""
    store = TinyDBStore(tmp_path)
    add(store, "f0", "2024-01-01")
    old = store.sessions_dir.stat().st_mtime_ns - 5 * cache_module.QUIET_NS
    os.utime(store.sessions_dir, ns=(old, old))
    cache = HistoryCache()
    assert len(cache.records(store)) == 1
    assert len(cache.records(store)) == 1 and cache.last_update == "unchanged"
    add(TinyDBStore(tmp_path), "theirs", "2024-06-01")
    assert [r.id for r in cache.records(store)] == ["theirs", "f0"]


def test_a_damaged_file_and_an_unreadable_summary(tmp_path: Path) -> None:
    store = TinyDBStore(tmp_path)
    add(store, "f0", "2024-01-01")
    add(store, "f1", "2024-01-02")
    cache = HistoryCache()
    assert cache.skipped == 0 and len(cache.records(store)) == 2
    store.update_info("f0", summary={"players": []})  # nothing to build a record from
    assert [r.id for r in cache.records(store)] == ["f1"] and cache.skipped == 1
    (store.sessions_dir / "f1.json").write_text("{ not json", "utf-8")  # damaged outside
    assert cache.records(store) == [] and cache.skipped == 1
    assert [p.kind for p in store.problems()] == ["file"]  # set aside, as a listing would
    store.update_info("f0", summary=village({"Ann": 1, "Bo": 2}, day="2024-01-01"))
    assert [r.id for r in cache.records(store)] == ["f0"] and cache.skipped == 0
    assert view(cache, store) == fresh_view(store)


def test_many_changes_at_once_list_the_store(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache_module, "INCREMENTAL_LIMIT", 8)
    store = TinyDBStore(tmp_path)
    cache = HistoryCache()
    assert cache.records(store) == []
    for i in range(cache_module.INCREMENTAL_LIMIT + 1):
        add(store, f"g{i:03d}", "2024-01-01")
    assert len(cache.records(store)) == cache_module.INCREMENTAL_LIMIT + 1
    assert cache.last_update == "listed"


def test_random_saves_keep_the_cache_equal_to_a_fresh_one(tmp_path: Path) -> None:
    """Any mix of saves, by this store and a second one, ends where a cache built from
    nothing would be (records in the same order, the same unfinished games)."""
    rng = random.Random(14)
    store = TinyDBStore(tmp_path)
    other = TinyDBStore(tmp_path)
    cache = HistoryCache()
    trashed: list[str] = []
    for step in range(80):
        writer = store if rng.random() < 0.7 else other
        ids = [i.id for i in store.list_sessions()]
        action = rng.choice(["create", "finish", "append", "delete", "trash", "restore"])
        sid = rng.choice(ids) if ids else None
        if action == "create" or sid is None:
            writer.create(f"g{step:03d}", "village", f"g{step:03d}", {})
        elif action == "finish":
            day = f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            writer.update_info(sid, finished=True, summary=village(
                {"Ann": rng.randint(0, 60), "Bo": rng.randint(0, 60)}, day=day))
        elif action == "append":
            writer.append(sid, [{"type": "end_turn"}])
        elif action == "delete":
            writer.delete(sid)
        elif action == "trash":
            trashed.append(writer.trash(sid))
        elif trashed:
            with contextlib.suppress(SessionExists, KeyError):
                writer.restore(trashed.pop(rng.randrange(len(trashed))))
        if rng.random() < 0.6:
            assert view(cache, store) == fresh_view(store), step
    assert view(cache, store) == fresh_view(store)


def test_a_write_by_a_real_second_process_is_seen(tmp_path: Path) -> None:
    store = TinyDBStore(tmp_path)
    add(store, "f0", "2024-01-01")
    store.create("open", "village", "open", {})
    cache = HistoryCache()
    assert [r.id for r in cache.records(store)] == ["f0"]
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from companion.store.tinydb_store import TinyDBStore\n"
        "from tests.history.helpers import village\n"
        "s = TinyDBStore(Path(sys.argv[1]))\n"
        "s.update_info('open', finished=True, summary=village({'Ann': 9, 'Bo': 1},"
        " day='2024-03-01'))\n"
        "s.delete('f0')\n")
    subprocess.run([sys.executable, "-c", script, str(tmp_path)], check=True,
                   cwd=Path(__file__).resolve().parents[2], timeout=60)
    unfinished, page = cache.home(store)
    assert unfinished == [] and [r.id for r in page.items] == ["open"]
    assert cache.last_update == "incremental"


def test_a_read_failing_half_way_lists_the_store_next_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = TinyDBStore(tmp_path)
    for i in range(3):
        add(store, f"f{i}", f"2024-01-0{1 + i}")
    cache = HistoryCache()
    assert len(cache.records(store)) == 3
    add(store, "new", "2024-02-01")
    store.delete("f0")

    def broken(session_id: str) -> SessionInfo | None:
        raise OSError("disk gone")

    monkeypatch.setattr(store, "session_info", broken)
    with pytest.raises(OSError):
        cache.records(store)
    monkeypatch.undo()
    assert [r.id for r in cache.records(store)] == ["new", "f2", "f1"]
    assert cache.last_update == "listed"
    assert view(cache, store) == fresh_view(store)
