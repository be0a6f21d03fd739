"""Issue 23: "Back up everything" (backup_json, backup version 2) takes a game file known
sound as its bytes, unparsed (TinyDBStore.session_json): one the last listing read and
checked at the current store schema, with the stamp (size, mtime, inode) it had then.
Anything else is read and checked as opening the game would."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from companion.history.backup import (
    BackupError,
    backup_json,
    export_backup,
    import_backup,
    parse_backup,
)
from companion.store.base import STORE_SCHEMA, CorruptSession
from companion.store.memory import MemoryStore
from companion.store.tinydb_store import TinyDBStore
from companion.village.service import VillageService
from tests.history.helpers import finished_tally, finished_village


def _filled(root: Path) -> TinyDBStore:
    store = TinyDBStore(root)
    finished_village(VillageService(store), ["Zoë", "Bo", "Cy"], seed=1)
    finished_tally(store, "villagers", ["Ann", "Bo"])
    finished_tally(store, "small-city", ["Ann", "Bo"])
    store.set_setting("app.theme", "dark")
    return store


def _games(store: TinyDBStore | MemoryStore) -> dict[str, Any]:
    out = {}
    for info in store.list_sessions():
        s = store.load(info.id)
        out[info.id] = (info.game, s.title, s.header, s.events, s.redo, s.finished,
                        s.summary)
    return out


def _files(store: TinyDBStore) -> dict[str, bytes]:
    return {p.stem: p.read_bytes() for p in store.sessions_dir.glob("*.json")}


def test_sound_files_go_in_as_their_bytes(tmp_path: Path) -> None:
    store = _filled(tmp_path / "a")
    text = backup_json(store)
    files = _files(store)
    assert len(files) == 3
    for raw in files.values():
        assert raw.decode("utf-8") in text  # spliced, unparsed
    data = json.loads(text)
    assert data["version"] == 2 and len(data["games"]) == 3
    assert all(g["meta"]["1"]["schema"] == STORE_SCHEMA for g in data["games"])


def test_the_spliced_backup_imports_the_same_games_as_the_parsed_one(tmp_path: Path) -> None:
    store = _filled(tmp_path / "a")
    spliced = backup_json(store)
    fresh = TinyDBStore(tmp_path / "a")
    infos = sorted(fresh.list_sessions(), key=lambda i: (i.created_at, i.id))
    fresh._sound.clear()  # none known sound: every file read and checked
    texts = [fresh.session_json(i.id) for i in infos]
    assert all(not t.startswith('{"_rev"') for t in texts)
    assert [json.loads(t) for t in texts] == [
        {k: v for k, v in g.items() if k != "_rev"} for g in json.loads(spliced)["games"]]
    parsed = json.dumps({**json.loads(spliced), "games": [json.loads(t) for t in texts]})
    assert parse_backup(spliced).games == parse_backup(parsed).games
    one, two = TinyDBStore(tmp_path / "b"), TinyDBStore(tmp_path / "c")
    import_backup(one, spliced)
    import_backup(two, parsed)
    assert _games(one) == _games(two) == _games(store)
    assert one.get_setting("app.theme") == "dark"


def test_version_1_still_imports_to_the_same_games(tmp_path: Path) -> None:
    store = _filled(tmp_path / "a")
    one, two = TinyDBStore(tmp_path / "b"), TinyDBStore(tmp_path / "c")
    import_backup(one, backup_json(store))
    old = export_backup(store)
    assert old["version"] == 1 and "id" in old["games"][0]
    import_backup(two, json.dumps(old))
    assert _games(one) == _games(two) == _games(store)


def test_a_memory_store_backs_up_the_same_tables(tmp_path: Path) -> None:
    source = MemoryStore()
    finished_tally(source, "villagers", ["Ann", "Bo"])
    target = TinyDBStore(tmp_path / "b")
    import_backup(target, backup_json(source))
    assert _games(target) == _games(source)


def test_a_file_changed_behind_the_listing_is_parsed_not_spliced(tmp_path: Path) -> None:
    store = _filled(tmp_path / "a")
    store.list_sessions()
    game_id, raw = sorted(_files(store).items())[0]
    path = store.sessions_dir / f"{game_id}.json"
    before = os.stat(path)
    # The same size, in place (the same inode), a new mtime: another token, another title.
    title = json.loads(raw)["meta"]["1"]["title"]
    changed = raw.replace(title.encode(), ("X" * len(title.encode())).encode(), 1)
    rev = json.loads(raw)["_rev"]
    changed = changed.replace(rev.encode(), rev[::-1].encode(), 1)
    assert len(changed) == len(raw) and changed != raw
    with open(path, "r+b") as handle:
        handle.write(changed)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000))
    assert os.stat(path).st_ino == before.st_ino and os.stat(path).st_size == before.st_size
    text = store.session_json(game_id)
    assert not text.startswith('{"_rev"')  # parsed and encoded again
    assert json.loads(text)["meta"]["1"]["title"] == "X" * len(title.encode())
    # The next listing reads and checks it again: sound, with its new stamp.
    assert changed.decode() in backup_json(store)


def test_a_file_damaged_after_the_listing_is_never_spliced(tmp_path: Path) -> None:
    written = _filled(tmp_path / "a")
    written.list_sessions()
    store = TinyDBStore(tmp_path / "a")  # nothing read yet (a store holding the file
    store.list_sessions()  # parsed would take that copy, by its unchanged token)
    game_id, raw = sorted(_files(store).items())[0]
    path = store.sessions_dir / f"{game_id}.json"
    path.write_bytes(raw[:-20] + b" " * 20)  # the same size, cut short: a new mtime
    with pytest.raises(CorruptSession):
        store.session_json(game_id)
    assert not path.exists()  # quarantined, as opening it would
    assert [p.kind for p in store.problems()] == ["file"]
    text = backup_json(store)  # the next export goes without it
    assert len(json.loads(text)["games"]) == 2


def test_a_damaged_file_is_not_listed_and_not_backed_up(tmp_path: Path) -> None:
    store = _filled(tmp_path / "a")
    game_id = sorted(_files(store))[0]
    (store.sessions_dir / f"{game_id}.json").write_bytes(b'{"_rev":"' + b"1" * 32 + b'"')
    text = backup_json(TinyDBStore(tmp_path / "a"))
    assert game_id not in text
    assert len(json.loads(text)["games"]) == 2


def test_an_older_index_is_read_again_once(tmp_path: Path) -> None:
    store = _filled(tmp_path / "a")
    store.list_sessions()
    index = json.loads((tmp_path / "a" / "index.json").read_bytes())
    for entry in index["sessions"].values():
        del entry["schema"]  # as written before issue 23
    (tmp_path / "a" / "index.json").write_text(json.dumps(index), "utf-8")
    fresh = TinyDBStore(tmp_path / "a")
    fresh.list_sessions()
    assert len(fresh._sound) == 3  # every file read and checked again
    index = json.loads((tmp_path / "a" / "index.json").read_bytes())
    assert {e["schema"] for e in index["sessions"].values()} == {STORE_SCHEMA}


def test_a_listing_with_nothing_changed_gives_the_same_games(tmp_path: Path) -> None:
    store = _filled(tmp_path / "a")
    first = store.list_sessions()
    again = store.list_sessions()
    assert again == first and again is not first
    store.update_info(first[-1].id, title="Renamed")
    assert [i.title for i in store.list_sessions()].count("Renamed") == 1


def test_the_index_rewritten_from_kept_texts_is_its_full_encoding(tmp_path: Path) -> None:
    store = _filled(tmp_path / "a")
    store.list_sessions()
    finished_tally(store, "villagers", ["Cy", "Di"])  # a new game: the index rewritten
    infos = store.list_sessions()
    store.update_info(infos[-1].id, title="Renamed")
    again = store.list_sessions()
    raw = (tmp_path / "a" / "index.json").read_bytes()
    assert raw == json.dumps(json.loads(raw), ensure_ascii=False,
                             separators=(",", ":")).encode("utf-8")
    entries = list(json.loads(raw)["sessions"].values())
    assert [e["id"] for e in entries] == sorted(i.id for i in again)
    assert {e["title"] for e in entries} >= {"Renamed"} and len(entries) == 4
    assert sorted(TinyDBStore(tmp_path / "a").list_sessions(), key=lambda i: i.id) == \
        sorted(again, key=lambda i: i.id)
    # A new store takes each entry's text from the index as read.
    fresh = TinyDBStore(tmp_path / "a")
    fresh.list_sessions()
    finished_tally(fresh, "small-city", ["Ed", "Flo"])
    assert len(fresh.list_sessions()) == 5
    raw = (tmp_path / "a" / "index.json").read_bytes()
    assert raw == json.dumps(json.loads(raw), ensure_ascii=False,
                             separators=(",", ":")).encode("utf-8")


@pytest.mark.parametrize(("change", "where"), [
    (lambda g: g.update(meta="nope"), "games.0"),
    (lambda g: g["events"].update({"1": 3}), "games.0"),
    (lambda g: g.update(extra={}), "games.0"),
    (lambda g: g["meta"]["1"].update(schema=STORE_SCHEMA + 1), "games.0"),
])
def test_a_damaged_game_of_version_2_is_refused(tmp_path: Path, change: Any,
                                                where: str) -> None:
    store = _filled(tmp_path / "a")
    data = json.loads(backup_json(store))
    change(data["games"][0])
    with pytest.raises(BackupError) as caught:
        import_backup(TinyDBStore(tmp_path / "b"), json.dumps(data))
    assert where in str(caught.value) and caught.value.code == "damaged"
