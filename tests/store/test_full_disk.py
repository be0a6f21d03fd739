"""Issue 22.6: index.json is a cache. With the disk full (ENOSPC on its rewrite), listing
(Home, History) and "Back up everything" still work; the games are read from their files."""

from __future__ import annotations

import errno
import json
from pathlib import Path
from typing import Any

import pytest

from companion.app.history.data import export_everything
from companion.history.backup import export_backup
from companion.history.cache import HistoryCache
from companion.store import atomic
from companion.store.tinydb_store import TinyDBStore
from tests.history.helpers import village


def _filled(root: Path) -> TinyDBStore:
    store = TinyDBStore(root)
    for i in range(3):
        store.create(f"g{i}", "village", f"game {i}", {"setup": i}, [{"type": "x", "n": i}])
        if i:
            store.update_info(f"g{i}", finished=True,
                              summary=village({"Ann": i, "Bo": 2}, day=f"2024-01-0{i}"))
    return store


@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every write of an index.json fails as on a full disk; the paths tried."""
    tried: list[Path] = []
    real = atomic.AtomicJSONStorage.write

    def write(self: atomic.AtomicJSONStorage, data: Any) -> None:
        if self.path.name == "index.json":
            tried.append(self.path)
            raise OSError(errno.ENOSPC, "No space left on device", str(self.path))
        real(self, data)

    monkeypatch.setattr(atomic.AtomicJSONStorage, "write", write)
    return tried


def test_listing_works_when_the_index_cannot_be_written(tmp_path: Path,
                                                        full_disk: list[Path]) -> None:
    store = _filled(tmp_path)
    (tmp_path / "index.json").unlink(missing_ok=True)  # the next listing must rewrite it
    infos = store.list_sessions()
    assert full_disk, "the listing did try to rewrite the index"
    assert sorted(i.id for i in infos) == ["g0", "g1", "g2"]
    assert {i.id for i in infos if i.finished} == {"g1", "g2"}
    # Home and History: one look at the store through the history cache.
    unfinished, page = HistoryCache().home(store, 0, 10)
    assert [i.id for i in unfinished] == ["g0"]
    assert sorted(r.id for r in page.items) == ["g1", "g2"]
    # A game still opens.
    assert store.load("g1").events == [{"type": "x", "n": 1}]


def test_backup_export_works_when_the_index_cannot_be_written(
        tmp_path: Path, full_disk: list[Path]) -> None:
    store = _filled(tmp_path)
    (tmp_path / "index.json").write_text("{damaged", encoding="utf-8")
    backup = export_backup(store)
    assert full_disk
    assert [g["id"] for g in backup["games"]] == ["g0", "g1", "g2"]
    exported = json.loads(export_everything(store).data)
    assert len(exported["games"]) == 3
    assert exported["games"][2]["events"] == [{"type": "x", "n": 2}]
