"""Issue 22.6: index.json is a cache. With the disk full (ENOSPC on its rewrite), listing
(Home, History) and "Back up everything" still work; the games are read from their files."""

from __future__ import annotations

import errno
import json
from pathlib import Path
from typing import Any

import pytest

from companion.app.history.data import export_everything
from companion.history.backup import export_backup, games_as_objects
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
    real = atomic.AtomicJSONStorage.write_known  # what every write goes through

    def write(self: atomic.AtomicJSONStorage, data: Any, *args: Any, **kwargs: Any) -> Any:
        if self.path.name == "index.json":
            tried.append(self.path)
            raise OSError(errno.ENOSPC, "No space left on device", str(self.path))
        return real(self, data, *args, **kwargs)

    monkeypatch.setattr(atomic.AtomicJSONStorage, "write_known", write)
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
    games = games_as_objects(exported["games"])
    assert isinstance(games, list) and games[2]["events"] == [{"type": "x", "n": 2}]


_ON_TMPFS = r'''
import errno, json, os, subprocess, sys, tempfile
from pathlib import Path
root = Path(tempfile.mkdtemp(prefix="full-disk-"))
subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(root)], check=True)
from companion.history.backup import export_backup
from companion.store.tinydb_store import TinyDBStore
store = TinyDBStore(root / "data")
for i in range(3):
    store.create(f"g{i}", "villagers", f"game {i}", {}, [{"n": i}])
store.list_sessions()  # index.json written while there was room
os.utime(root / "data" / "sessions" / "g1.json", ns=(1, 1))  # the index is stale now
fd = os.open(root / "filler", os.O_WRONLY | os.O_CREAT)
try:
    while True:
        os.write(fd, b"x" * 4096)
except OSError as exc:
    assert exc.errno == errno.ENOSPC, exc
os.close(fd)
try:
    (root / "probe").write_bytes(b"x" * 8192)
    full = False
except OSError:
    full = True
infos = store.list_sessions()
backup = export_backup(store)
print(json.dumps({"full": full, "listed": sorted(i.id for i in infos),
                  "games": [g["id"] for g in backup["games"]]}))
subprocess.run(["umount", str(root)], check=False)
root.rmdir()
'''


def test_listing_and_export_on_a_real_full_tmpfs(tmp_path: Path) -> None:
    """The same on a real full disk: a 256 KB tmpfs filled to the last block (mounted in
    a user namespace; skipped where that is not allowed)."""
    import shutil
    import subprocess
    import sys

    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("no unshare")
    probe = subprocess.run([unshare, "-rm", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("user namespaces are not allowed here")
    done = subprocess.run([unshare, "-rm", sys.executable, "-c", _ON_TMPFS],
                          capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[2])
    if done.returncode != 0 and "mount" in done.stderr and "tmpfs" in done.stderr:
        pytest.skip(f"tmpfs cannot be mounted here: {done.stderr[-200:]}")
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result == {"full": True, "listed": ["g0", "g1", "g2"],
                      "games": ["g0", "g1", "g2"]}
