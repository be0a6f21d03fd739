"""Corrupt or missing files: quarantined (never overwritten), reported, the rest keeps working."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.store.base import CorruptSession, SessionExists
from companion.store.tinydb_store import TinyDBStore

GARBAGE = b'{"meta": {"1": {"schema": 1, "id": "b", "ga'  # a torn write


def _two_sessions(root: Path) -> TinyDBStore:
    store = TinyDBStore(root)
    store.create("a", "village", "Game A", {"p": 1})
    store.append("a", [{"n": 1}])
    store.create("b", "feudum", "Game B", {"p": 2})
    store.update_info("b", title="Game B2", finished=True, summary={"winners": ["Bo"]})
    store.list_sessions()  # Home builds the index cache
    return store


def _quarantined(root: Path) -> list[Path]:
    qdir = root / "quarantine"
    return sorted(p for p in qdir.iterdir() if p.suffix == ".corrupt") if qdir.exists() else []


def test_corrupt_session_is_quarantined_on_load(tmp_path: Path) -> None:
    _two_sessions(tmp_path)
    session_file = tmp_path / "sessions" / "b.json"
    session_file.write_bytes(GARBAGE)

    store = TinyDBStore(tmp_path)
    with pytest.raises(CorruptSession) as info:
        store.load("b")
    problem = info.value.problem
    assert problem.path == str(session_file)
    assert "JSON" in problem.reason
    [moved] = _quarantined(tmp_path)
    assert str(moved) == problem.moved_to
    assert moved.name.startswith("b.json.") and moved.name.endswith(".corrupt")
    assert moved.read_bytes() == GARBAGE  # kept exactly as found
    assert not session_file.exists()
    assert store.problems() == [problem]

    # The rest still works, and the listing no longer offers the broken session.
    assert [i.id for i in store.list_sessions()] == ["a"]
    store.append("a", [{"n": 2}])
    assert store.load("a").events == [{"n": 1}, {"n": 2}]
    store.create("b", "feudum", "fresh", {})
    assert store.load("b").events == []
    assert _quarantined(tmp_path)[0].read_bytes() == GARBAGE


def test_append_to_corrupt_session_never_overwrites_it(tmp_path: Path) -> None:
    _two_sessions(tmp_path)
    session_file = tmp_path / "sessions" / "a.json"
    session_file.write_bytes(b"\x00" * 40)  # what a lost write can look like
    store = TinyDBStore(tmp_path)
    with pytest.raises(CorruptSession):
        store.append("a", [{"n": 2}])
    [moved] = _quarantined(tmp_path)
    assert moved.read_bytes() == b"\x00" * 40
    assert not session_file.exists()


def test_create_refuses_to_overwrite_corrupt_file(tmp_path: Path) -> None:
    store = TinyDBStore(tmp_path)
    session_file = tmp_path / "sessions" / "x.json"
    session_file.write_bytes(GARBAGE)
    with pytest.raises(SessionExists):
        store.create("x", "village", "t", {})
    assert session_file.read_bytes() == GARBAGE


def test_valid_json_with_wrong_shape_is_corrupt(tmp_path: Path) -> None:
    _two_sessions(tmp_path)
    session_file = tmp_path / "sessions" / "a.json"
    session_file.write_text(json.dumps({"meta": {"1": {"schema": 1, "id": "a"}}}))
    store = TinyDBStore(tmp_path)
    with pytest.raises(CorruptSession, match="meta.game"):
        store.load("a")
    assert len(store.problems()) == 1


def test_list_skips_and_reports_an_empty_session_file(tmp_path: Path) -> None:
    _two_sessions(tmp_path)
    (tmp_path / "sessions" / "a.json").write_bytes(b"")
    store = TinyDBStore(tmp_path)
    assert [i.id for i in store.list_sessions()] == ["b"]
    [problem] = store.problems()
    assert problem.path.endswith("a.json") and "empty" in problem.reason
    assert [i.id for i in store.list_sessions()] == ["b"]  # and the index forgot it


@pytest.mark.parametrize("content", [b"not json at all", b'{"sessions": {"1": {"id": 5}}}',
                                     b"[]", b'{"sessions": []}', b'{"sessions": {"x": {}}}',
                                     b'{"sessions": {"1": {"id": "a", "game": "g", "title": "t", '
                                     b'"created_at": "x", "updated_at": "yesterday"}}}'])
def test_corrupt_index_is_quarantined_and_rebuilt(tmp_path: Path, content: bytes) -> None:
    _two_sessions(tmp_path)
    index = tmp_path / "index.json"
    index.write_bytes(content)

    store = TinyDBStore(tmp_path)
    listed = {i.id: i for i in store.list_sessions()}
    assert set(listed) == {"a", "b"}
    # Rebuilt from the sessions' meta tables, including what update_info had set.
    assert (listed["b"].title, listed["b"].finished, listed["b"].summary) == \
        ("Game B2", True, {"winners": ["Bo"]})
    assert listed["a"].game == "village"
    [problem] = store.problems()
    assert problem.path == str(index)
    [moved] = _quarantined(tmp_path)
    assert moved.read_bytes() == content
    assert json.loads(index.read_bytes())["sessions"]  # a fresh, valid index
    assert store.load("a").events == [{"n": 1}]


def test_missing_index_is_rebuilt_silently(tmp_path: Path) -> None:
    _two_sessions(tmp_path)
    (tmp_path / "index.json").unlink()
    store = TinyDBStore(tmp_path)
    assert {i.id for i in store.list_sessions()} == {"a", "b"}
    assert store.problems() == []
    assert (tmp_path / "index.json").exists()


def test_rebuild_quarantines_corrupt_sessions_and_keeps_the_rest(tmp_path: Path) -> None:
    _two_sessions(tmp_path)
    (tmp_path / "index.json").unlink()
    (tmp_path / "sessions" / "b.json").write_bytes(GARBAGE)
    store = TinyDBStore(tmp_path)
    assert [i.id for i in store.list_sessions()] == ["a"]
    [problem] = store.problems()
    assert problem.path.endswith("b.json")
    assert Path(problem.moved_to).read_bytes() == GARBAGE


def test_index_repairs_orphans_and_dangling_entries(tmp_path: Path) -> None:
    store = _two_sessions(tmp_path)
    # A crash between writing a new session file and the index leaves an orphan file;
    # a file removed by hand leaves a dangling entry.
    orphan = json.loads((tmp_path / "sessions" / "a.json").read_bytes())
    orphan.pop("_rev")
    orphan["meta"]["1"].update(id="c", title="Orphan")
    (tmp_path / "sessions" / "c.json").write_text(json.dumps(orphan))
    (tmp_path / "sessions" / "a.json").unlink()

    assert sorted(i.id for i in store.list_sessions()) == ["b", "c"]
    index = json.loads((tmp_path / "index.json").read_bytes())
    assert sorted(doc["id"] for doc in index["sessions"].values()) == ["b", "c"]
    assert store.load("c").events == [{"n": 1}]
    assert store.problems() == []


def test_corrupt_settings_are_quarantined(tmp_path: Path) -> None:
    store = TinyDBStore(tmp_path)
    store.set_setting("lang", "de")
    (tmp_path / "settings.json").write_bytes(b"{oops")
    store = TinyDBStore(tmp_path)
    assert store.get_setting("lang", "en") == "en"
    [problem] = store.problems()
    assert problem.path.endswith("settings.json")
    assert Path(problem.moved_to).read_bytes() == b"{oops"
    store.set_setting("lang", "fr")
    assert TinyDBStore(tmp_path).get_setting("lang") == "fr"


def test_stale_temp_files_are_swept_on_open(tmp_path: Path) -> None:
    _two_sessions(tmp_path)
    stale = [tmp_path / "sessions" / ".a.json.abc123.tmp", tmp_path / ".index.json.x9.tmp"]
    for path in stale:
        path.write_bytes(b'{"half": ')
    keep = tmp_path / "sessions" / "notes.txt"
    keep.write_text("not ours")
    TinyDBStore(tmp_path)
    assert not any(path.exists() for path in stale)
    assert keep.exists()
