"""HistoryCache: the same pages and statistics as the pure functions, records rebuilt only
for games that changed, and any write to a TinyDBStore seen at the next call."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.history import cache as cache_module
from companion.history.cache import HistoryCache, fingerprint, history_cache
from companion.history.query import HistoryFilter, history_page
from companion.history.records import build_records
from companion.history.stats import compute_stats
from companion.store.memory import MemoryStore
from companion.store.tinydb_store import TinyDBStore

from .helpers import solo, tally, village


def fill(store: MemoryStore | TinyDBStore) -> None:
    for n in range(25):
        sid = f"v{n:02d}"
        store.create(sid, "village", sid, {})
        store.update_info(sid, finished=True, summary=village(
            {"Ann": 30 + n, "Bo": 40 - n}, day=f"2024-04-{1 + n:02d}"))
    store.create("s1", "village", "s1", {})
    store.update_info("s1", finished=True, summary=solo("Zoë", 50, "sage", day="2024-05-09"))
    store.create("f1", "feudum", "f1", {})
    store.update_info("f1", finished=True,
                      summary=tally("feudum", {"Ann": 3, "Cy": 9}, ["Cy"]))
    store.create("open", "village", "open", {})  # unfinished: no record


@pytest.mark.parametrize("flt", [
    None, HistoryFilter(game="village"), HistoryFilter(solo=True),
    HistoryFilter(search="zoe"), HistoryFilter(player="ann", game="feudum")])
def test_pages_match_the_pure_functions(flt: HistoryFilter | None) -> None:
    store = MemoryStore()
    fill(store)
    records = build_records(store.list_sessions()).records
    cache = HistoryCache()
    for page in (0, 1, 2):
        assert cache.page(store, flt, page=page, page_size=10) == history_page(
            records, flt, page=page, page_size=10)
    assert cache.stats(store, game="village") == compute_stats(records, game="village")


def test_only_changed_games_get_new_records() -> None:
    store = MemoryStore()
    fill(store)
    cache = HistoryCache()
    before = {r.id: r for r in cache.records(store)}
    store.update_info("v03", summary=village({"Ann": 99, "Bo": 1}, day="2024-04-04"))
    after = {r.id: r for r in cache.records(store)}
    assert after["v03"].players[0].score == 99
    assert all(after[k] is before[k] for k in before if k != "v03")
    store.delete("v04")
    assert "v04" not in {r.id for r in cache.records(store)}


def test_a_tinydb_store_is_listed_once_and_then_read_file_by_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = TinyDBStore(tmp_path)
    fill(store)
    cache = HistoryCache()
    listings = []
    real, real_stamped = store.list_sessions, store.list_sessions_stamped

    def counting() -> list:
        listings.append(1)
        return real()

    def counting_stamped() -> tuple:
        listings.append(1)
        return real_stamped()

    monkeypatch.setattr(store, "list_sessions", counting)
    # The first look (no saved index) lists with the files' stamps: one folder scan.
    monkeypatch.setattr(store, "list_sessions_stamped", counting_stamped)
    assert cache.page(store).total == 27
    assert cache.page(store, HistoryFilter(game="feudum")).total == 1
    cache.stats(store)
    assert len(listings) == 1  # nothing changed: one directory scan, no listing
    store.create("v99", "village", "v99", {})
    store.update_info("v99", finished=True, summary=village({"Ann": 1, "Bo": 2},
                                                            day="2024-12-31"))
    first = cache.page(store).items[0]
    # The write changed one file: that file is read, the store is not listed again.
    assert first.id == "v99" and len(listings) == 1
    assert cache.last_update == "incremental"
    cache.invalidate()
    cache.page(store)
    assert len(listings) == 2 and cache.last_update == "listed"


def test_fingerprint_and_the_one_cache_per_store(tmp_path: Path) -> None:
    assert fingerprint(MemoryStore()) is None  # no folder: listed every time
    store = TinyDBStore(tmp_path)
    empty = fingerprint(store)
    store.create("a", "village", "a", {})
    assert fingerprint(store) != empty
    assert history_cache(store) is history_cache(store)
    assert history_cache(store) is not history_cache(TinyDBStore(tmp_path))
    assert len(cache_module._CACHES) >= 1


def test_bad_page_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="no such page"):
        HistoryCache().page(MemoryStore(), page=-1)


def test_an_old_folder_mtime_spares_the_scan(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    store = TinyDBStore(tmp_path)
    fill(store)
    old = store.sessions_dir.stat().st_mtime_ns - 5 * cache_module.QUIET_NS
    os.utime(store.sessions_dir, ns=(old, old))
    scans = []
    real = cache_module.fingerprint

    def counting(s: object) -> object:
        scans.append(1)
        return real(s)  # type: ignore[arg-type]

    monkeypatch.setattr(cache_module, "fingerprint", counting)
    cache = HistoryCache()
    # The first look lists the store: the listing's own scan is the fingerprint.
    assert cache.page(store).total == 27 and cache.last_update == "listed"
    assert cache.page(store).total == 27 and len(scans) == 0  # one stat, no scan
    assert cache.last_update == "unchanged"
    store.create("v99", "village", "v99", {})  # a rename in the folder: a new mtime
    store.update_info("v99", finished=True, summary=village({"Ann": 1, "Bo": 2},
                                                            day="2024-12-31"))
    assert cache.page(store).total == 28 and len(scans) == 1


def test_player_names_are_the_statistics_names() -> None:
    store = MemoryStore()
    fill(store)
    store.create("z", "village", "z", {})
    store.update_info("z", finished=True, summary=village({"zoe": 1, "BO": 2},
                                                          day="2024-01-01"))
    cache = HistoryCache()
    merges = {"Cy": "Ann"}
    stats = compute_stats(build_records(store.list_sessions()).records, merges)
    assert cache.player_names(store, merges) == sorted((p.name for p in stats.players),
                                                       key=str.casefold)
    assert cache.player_names(store) == ["Ann", "Bo", "Cy", "Zoë"]
