"""Issue 23: saving an event extends the file's cached text instead of encoding the whole
file (TinyDBStore._append_known, session_file.appended_tables). The file must stay exactly
what the TinyDB path writes, and every guarantee of a save must hold on the short path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.store.atomic import AtomicJSONStorage
from companion.store.base import CorruptSession, StaleWrite
from companion.store.session_file import EVENTS, META, appended_tables, next_doc_id
from companion.store.tinydb_store import TinyDBStore

HEADER: dict[str, Any] = {"players": [{"id": "p1", "name": "Ann"}, {"id": "p2", "name": "Bö"}],
                          "setup": {"edition": "big-box"}}


def ev(n: int) -> dict[str, Any]:
    return {"type": "score", "n": n, "note": "教會 · Kirche · 교회", "x": n / 3,
            "detail": {"tiles": ["a", "b"], "none": None, "ok": n % 2 == 0}}


def full_encode(raw: bytes) -> bytes:
    """What encoding the whole file at once gives (json.dumps of all its tables)."""
    return json.dumps(json.loads(raw), ensure_ascii=False, allow_nan=False,
                      separators=(",", ":")).encode("utf-8")


def normalised(raw: bytes) -> str:
    """The file without what differs between two runs (its token and write times), with
    its key order kept."""
    data = json.loads(raw)
    data.pop("_rev")
    meta = data[META]["1"]
    meta["created_at"] = meta["updated_at"] = "T"
    return json.dumps(data, ensure_ascii=False)


def play(store: TinyDBStore) -> None:
    """Saves of every kind the app makes, redo stacks and header merges included."""
    store.create("g", "village", "Game", HEADER, [ev(0)])
    version = store.append("g", [ev(1)], expected=1)
    for n in range(2, 8):
        version = store.append("g", [ev(n)], expected=version, finished=False,
                               summary={"round": n, "names": ["Ann", "Bö"]})
    version = store.replace_log("g", [ev(0), ev(1)], [ev(7), ev(6)], expected=version)
    version = store.append("g", [ev(20), ev(21)], expected=version,
                           header={"engine": 3})  # clears the redo, merges the header
    version = store.append("g", [], expected=version, summary={"round": 9})
    version = store.update_info("g", title="Renamed", expected=version)
    for n in range(30, 34):
        version = store.append("g", [ev(n)], expected=version, finished=n == 33,
                               summary={"round": n, "scores": {"Ann": n, "Bö": 1.5}})


def _tinydb_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(TinyDBStore, "_append_known", lambda *args: None)


def test_the_file_is_exactly_the_full_encoding(tmp_path: Path) -> None:
    store = TinyDBStore(tmp_path / "data")
    play(store)
    raw = (store.sessions_dir / "g.json").read_bytes()
    assert raw == full_encode(raw)
    loaded = store.load("g")
    assert [e["n"] for e in loaded.events] == [0, 1, 20, 21, 30, 31, 32, 33]
    assert loaded.redo == [] and loaded.finished and loaded.title == "Renamed"
    assert loaded.header == {**HEADER, "engine": 3} and loaded.version == 16


def test_the_file_is_what_the_tinydb_path_writes(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    fast = TinyDBStore(tmp_path / "fast")
    play(fast)
    _tinydb_only(monkeypatch)
    slow = TinyDBStore(tmp_path / "slow")
    play(slow)
    fast_raw = (fast.sessions_dir / "g.json").read_bytes()
    slow_raw = (slow.sessions_dir / "g.json").read_bytes()
    assert normalised(fast_raw) == normalised(slow_raw)
    assert slow_raw == full_encode(slow_raw)


def test_a_save_in_play_takes_the_short_path(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    store = TinyDBStore(tmp_path / "data")
    store.create("g", "village", "Game", HEADER)
    version = store.append("g", [ev(1)], expected=1)

    def no_tinydb(*args: object, **kwargs: object) -> None:
        raise AssertionError("the TinyDB path was taken")

    monkeypatch.setattr(TinyDBStore, "_write", no_tinydb)
    for n in range(2, 6):
        version = store.append("g", [ev(n)], expected=version, summary={"n": n})
    raw = (store.sessions_dir / "g.json").read_bytes()
    assert raw == full_encode(raw)
    assert [e["n"] for e in TinyDBStore(tmp_path / "data").load("g").events] == [1, 2, 3, 4, 5]


def test_the_short_path_checks_the_version(tmp_path: Path) -> None:
    store = TinyDBStore(tmp_path / "data")
    store.create("g", "village", "Game", HEADER)
    version = store.append("g", [ev(1)], expected=1)
    before = (store.sessions_dir / "g.json").read_bytes()
    with pytest.raises(StaleWrite):
        store.append("g", [ev(2)], expected=version - 1)
    assert (store.sessions_dir / "g.json").read_bytes() == before
    assert store.append("g", [ev(2)], expected=version) == version + 1


def test_a_write_by_another_instance_is_not_overwritten(tmp_path: Path) -> None:
    mine, theirs = TinyDBStore(tmp_path / "data"), TinyDBStore(tmp_path / "data")
    mine.create("g", "village", "Game", HEADER)
    mine.append("g", [ev(1)])
    mine.append("g", [ev(2)])  # mine now holds the file's text
    theirs.append("g", [ev(3)])
    mine.append("g", [ev(4)])  # not from its stale text: the file changed
    assert [e["n"] for e in TinyDBStore(tmp_path / "data").load("g").events] == [1, 2, 3, 4]
    with pytest.raises(StaleWrite):
        mine.append("g", [ev(5)], expected=3)


def _game_of_two_events(tmp_path: Path) -> tuple[TinyDBStore, Path]:
    """A store whose game "g" holds two events, saved by this store; its file."""
    store = TinyDBStore(tmp_path / "data")
    store.create("g", "village", "Game", HEADER)
    store.append("g", [ev(1)])
    store.append("g", [ev(2)])
    return store, store.sessions_dir / "g.json"


def test_a_file_cut_short_behind_the_cache_is_written_whole_again(tmp_path: Path) -> None:
    # Its token (the first bytes) is unchanged, so the cache stands for it, as on the
    # TinyDB path: the save writes the whole file from the tables in memory.
    store, path = _game_of_two_events(tmp_path)
    path.write_bytes(path.read_bytes()[:-10])
    store.append("g", [ev(3)])
    assert path.read_bytes() == full_encode(path.read_bytes())
    assert [e["n"] for e in TinyDBStore(tmp_path / "data").load("g").events] == [1, 2, 3]


def test_a_damaged_file_is_quarantined(tmp_path: Path) -> None:
    store, path = _game_of_two_events(tmp_path)
    path.write_bytes(b'{"_rev":"' + b"0" * 32 + b'","meta":{')  # a new token, cut short
    with pytest.raises(CorruptSession):
        store.append("g", [ev(3)])
    assert not path.exists()
    assert [p.kind for p in store.problems()] == ["file"]


def test_a_layout_damaged_behind_the_cache_is_quarantined(tmp_path: Path) -> None:
    store = TinyDBStore(tmp_path / "data")
    store.create("g", "village", "Game", HEADER)
    store.append("g", [ev(1)])
    path = store.sessions_dir / "g.json"
    data = json.loads(path.read_bytes())
    data[EVENTS]["2"] = "not a document"
    path.write_text(json.dumps(data), "utf-8")  # valid JSON, a new token, a bad table
    with pytest.raises(CorruptSession):
        store.append("g", [ev(2)])
    assert not path.exists()


def test_appended_tables_leaves_the_cached_tables_alone() -> None:
    meta: dict[str, Any] = {"id": "g", "version": 4, "updated_at": "a", "summary": {},
                             "header": {"a": 1}}
    tables: dict[str, dict[str, Any]] = {META: {"1": meta}, EVENTS: {"1": {"n": 1}},
                                         "redo": {"1": {"n": 9}}}
    texts = {name: json.dumps(table, separators=(",", ":")) for name, table in tables.items()}
    before = json.dumps(tables)
    made = appended_tables(tables, texts, 2, [{"n": 2}], {"header": {"b": 2}}, "now")
    assert made is not None
    new, known = made
    assert json.dumps(tables) == before
    assert new == {META: {"1": {"id": "g", "version": 5, "updated_at": "now", "summary": {},
                                "header": {"a": 1, "b": 2}}},
                   EVENTS: {"1": {"n": 1}, "2": {"n": 2}}, "redo": {}}
    for name, text in known.items():
        assert text == json.dumps(new[name], separators=(",", ":"))
    assert META not in known  # made by the writer


@pytest.mark.parametrize(("keys", "expected"), [([], 1), (["1", "2", "3"], 4), (["1", "7"], 8),
                                                (["1", "02"], None)])
def test_next_doc_id(keys: list[str], expected: int | None) -> None:
    assert next_doc_id({key: {} for key in keys}) == expected


def test_a_file_read_from_disk_is_saved_by_the_tinydb_path_first(tmp_path: Path) -> None:
    # Its text is not known (only parsed): the first save encodes it whole.
    TinyDBStore(tmp_path / "data").create("g", "village", "Game", HEADER, [ev(0)])
    store = TinyDBStore(tmp_path / "data")
    store.load("g")
    path = store.sessions_dir / "g.json"
    entry = AtomicJSONStorage(path, store._cache).read_entry()
    assert entry is not None and entry.texts is None and entry.checked
    store.append("g", [ev(1)])
    entry = AtomicJSONStorage(path, store._cache).read_entry()
    assert entry is not None and entry.texts is not None
    assert path.read_bytes() == full_encode(path.read_bytes())


def test_a_save_after_an_undo_does_not_check_the_file_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # replace_log (an undo) writes through TinyDB a file checked before its change, with
    # checked documents: the save after it takes the short path without walking it again.
    store, path = _game_of_two_events(tmp_path)
    version = store.replace_log("g", [ev(1)], [ev(2)])
    entry = AtomicJSONStorage(path, store._cache).read_entry()
    assert entry is not None and entry.checked and entry.texts is not None

    def no_check(*args: object) -> None:
        raise AssertionError("checked again")

    monkeypatch.setattr("companion.store.tinydb_store.check_session_tables", no_check)
    monkeypatch.setattr(TinyDBStore, "_write", no_check)
    assert store.append("g", [ev(3)], expected=version) == version + 1
    monkeypatch.undo()  # a fresh store checks the file as it opens it
    assert path.read_bytes() == full_encode(path.read_bytes())
    loaded = TinyDBStore(tmp_path / "data").load("g")
    assert [e["n"] for e in loaded.events] == [1, 3] and loaded.redo == []
