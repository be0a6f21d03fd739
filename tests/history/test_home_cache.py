"""HistoryCache.home: Home's unfinished games and one page of finished ones from one look
at the store; the --home switch of the history benchmark."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.history.cache import HistoryCache
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
    import companion.app.home_bench as home_bench
    from companion.history.bench import main

    def fake(tmp: Path, sizes: tuple[int, ...]) -> dict[str, Any]:
        return {"sizes": list(sizes), "first_ms": {"3": 1.0}, "skeleton_ms": {"3": 0.5},
                "after_skeleton_ms": {"3": 0.5}, "idle_first_ms": {"3": 0.7},
                "warm_ms": {"3": {"p50": 0.2, "p95": 0.3, "max": 0.4}},
                "cold_unwarmed_ms": {"3": 2.0},
                "rss_mb": {"games": 3, "after_1": 50.0, "after_20": 51.0,
                           "growth_pct": 2.0}}

    monkeypatch.setattr(home_bench, "bench_home", fake)
    assert main(["--sizes", "3", "--home"]) == 0
    out = capsys.readouterr().out
    assert "Home's history on the live server" in out
    assert "50.0 MB after one Home load, 51.0 MB after 20 (+2.0%)" in out
