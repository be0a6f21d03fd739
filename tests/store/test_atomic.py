"""The atomic TinyDB storage: crash-safe writes, strict reads, a cache that notices others."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from tinydb import TinyDB

from companion.store import atomic
from companion.store.atomic import (
    AtomicJSONStorage,
    CorruptFileError,
    ReadCache,
    encode_json,
    parse_with_doc_texts,
)
from companion.store.tinydb_store import TinyDBStore


def _fail_replace(*args: object, **kwargs: object) -> None:
    raise OSError("simulated crash between writing the temp file and renaming it")


def test_roundtrip_through_tinydb(tmp_path: Path) -> None:
    path = tmp_path / "db.json"
    with TinyDB(path, storage=AtomicJSONStorage) as db:
        db.table("t").insert({"a": 1})
        db.table("t").insert({"a": 2})
    assert path.read_bytes().startswith(b'{"_rev":"')
    with TinyDB(path, storage=AtomicJSONStorage) as db:
        assert [doc["a"] for doc in db.table("t").all()] == [1, 2]


def test_missing_file_reads_as_empty_and_is_not_created(tmp_path: Path) -> None:
    path = tmp_path / "none.json"
    assert AtomicJSONStorage(path).read() is None
    assert not path.exists()


def test_crash_before_rename_leaves_old_file(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "db.json"
    cache = ReadCache()
    storage = AtomicJSONStorage(path, cache)
    storage.write({"t": {"1": {"v": "old"}}})
    old_bytes = path.read_bytes()

    monkeypatch.setattr(os, "replace", _fail_replace)
    with pytest.raises(OSError, match="simulated crash"):
        storage.write({"t": {"1": {"v": "new"}}})
    monkeypatch.undo()

    assert path.read_bytes() == old_bytes
    assert sorted(p.name for p in tmp_path.iterdir()) == ["db.json"]  # temp file cleaned up
    assert storage.read() == {"t": {"1": {"v": "old"}}}  # the cache did not keep "new"


def test_store_append_that_fails_to_rename_changes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = TinyDBStore(tmp_path)
    store.create("a", "village", "A", {})
    store.append("a", [{"n": 0}])
    store.replace_log("a", [{"n": 0}], [{"n": 9}])
    session_file = tmp_path / "sessions" / "a.json"
    old_bytes = session_file.read_bytes()

    monkeypatch.setattr(os, "replace", _fail_replace)
    with pytest.raises(OSError):
        store.append("a", [{"n": 1}])
    monkeypatch.undo()

    assert session_file.read_bytes() == old_bytes
    for reader in (store, TinyDBStore(tmp_path)):
        loaded = reader.load("a")
        assert (loaded.events, loaded.redo) == ([{"n": 0}], [{"n": 9}])
    store.append("a", [{"n": 1}])  # and the store still works afterwards
    assert store.load("a").events == [{"n": 0}, {"n": 1}]


def test_write_fsyncs_file_and_directory(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[bool] = []
    real_fsync = os.fsync

    def spy(fd: int) -> None:
        synced.append(os.path.isdir(f"/proc/self/fd/{fd}") if os.path.exists("/proc/self/fd")
                      else False)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", spy)
    AtomicJSONStorage(tmp_path / "db.json").write({"t": {}})
    assert len(synced) == 2
    if os.path.exists("/proc/self/fd"):
        assert synced == [False, True]  # the temp file first, then its directory


@pytest.mark.parametrize("content", [b"", b"   ", b'{"t": {"1": ', b"[1, 2]", b"\xff\xfe\x00",
                                     b"null"])
def test_unreadable_file_raises_and_is_left_alone(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "db.json"
    path.write_bytes(content)
    with pytest.raises(CorruptFileError) as info:
        AtomicJSONStorage(path, ReadCache()).read()
    assert info.value.path == path and info.value.reason
    assert path.read_bytes() == content


def test_cache_notices_a_write_by_another_writer(tmp_path: Path) -> None:
    path = tmp_path / "db.json"
    mine = AtomicJSONStorage(path, ReadCache())
    theirs = AtomicJSONStorage(path, ReadCache())  # e.g. another process
    mine.write({"t": {"1": {"v": 1}}})
    assert mine.read() == {"t": {"1": {"v": 1}}}
    theirs.write({"t": {"1": {"v": 2}}})
    assert mine.read() == {"t": {"1": {"v": 2}}}


def test_cache_hit_skips_parsing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "db.json"
    storage = AtomicJSONStorage(path, ReadCache())
    storage.write({"t": {"1": {"v": 1}}})
    calls: list[bytes] = []
    real_parse = AtomicJSONStorage._parse

    def counting(self: AtomicJSONStorage, raw: bytes) -> dict[str, object]:
        calls.append(raw)
        return real_parse(self, raw)

    monkeypatch.setattr(AtomicJSONStorage, "_parse", counting)
    assert storage.read() == {"t": {"1": {"v": 1}}}
    assert calls == []
    assert AtomicJSONStorage(path, ReadCache()).read() == {"t": {"1": {"v": 1}}}
    assert len(calls) == 1  # a cold cache parses


def test_read_cache_is_bounded() -> None:
    cache = ReadCache(capacity=2)
    for name in "abc":
        cache.put(name, "rev", {})
    assert not cache.has("a")
    assert cache.has("b") and cache.has("c")
    assert cache.get("c", "other-rev") is None


def test_temp_names() -> None:
    assert atomic.is_temp_name(".a.json.k2j3.tmp")
    assert not atomic.is_temp_name("a.json")


def test_a_one_table_file_is_parsed_document_by_document(tmp_path: Path) -> None:
    path = tmp_path / "index.json"
    table = {"1": {"id": "a", "t": "Zoë", "n": [1, 2.5, None]}, "2": {"id": "b", "s": {}}}
    AtomicJSONStorage(path).write({"sessions": table})
    raw = path.read_bytes()
    parsed = parse_with_doc_texts(raw, "sessions")
    assert parsed is not None
    data, texts = parsed
    assert data == json.loads(raw)
    assert texts == {key: encode_json(doc) for key, doc in table.items()}
    empty = tmp_path / "empty.json"
    AtomicJSONStorage(empty).write({"sessions": {}})
    assert parse_with_doc_texts(empty.read_bytes(), "sessions") == (
        json.loads(empty.read_bytes()), {})
    # Anything else is left to the whole-file parse (which names what is wrong).
    for other in (raw.replace(b'":{"1"', b'": {"1"', 1), raw[:-1], raw + b" ", raw[:-2],
                  raw.replace(b"sessions", b"settings")):
        assert parse_with_doc_texts(other, "sessions") is None


def test_the_temp_file_is_private_and_named_as_one(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 23: made with one os.open, as tempfile.mkstemp makes it.
    renamed: list[tuple[str, int]] = []
    real_replace = os.replace

    def spy(source: str, target: str | os.PathLike[str]) -> None:
        renamed.append((os.path.basename(source), os.stat(source).st_mode & 0o777))
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", spy)
    atomic.atomic_write_bytes(tmp_path / "g.json", b"{}")
    (name, mode), = renamed
    assert atomic.is_temp_name(name) and name.startswith(".g.json.") and mode == 0o600
    assert (tmp_path / "g.json").read_bytes() == b"{}"


def test_a_taken_temp_name_is_never_written(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    taken = tmp_path / f".g.json.{'00' * 6}.tmp"
    taken.write_bytes(b"someone else's")
    draws = iter([b"\0" * 6, b"\0" * 6, b"\1" * 6])
    monkeypatch.setattr(os, "urandom", lambda n: next(draws))
    atomic.atomic_write_bytes(tmp_path / "g.json", b"{}")
    assert taken.read_bytes() == b"someone else's"
    assert (tmp_path / "g.json").read_bytes() == b"{}"
    assert sorted(p.name for p in tmp_path.iterdir()) == [taken.name, "g.json"]
