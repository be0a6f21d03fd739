"""The history cache across starts and races (issue 22.7, issue 23): a game deleted and
put back between the cache's scan and its read is listed again; the records saved in
history-index.json are reused by the next start, and a damaged, stale, foreign or
unwritable index is ignored or skipped, never fatal, with the listing still right."""

from __future__ import annotations

import errno
import json
from pathlib import Path
from typing import Any

import pytest

from companion.history import cache as cache_module
from companion.history import saved_index
from companion.history.cache import HistoryCache
from companion.history.records import build_records
from companion.history.saved_index import INDEX_FILE, VERSION, read_index, write_index
from companion.store.tinydb_store import TinyDBStore

from .helpers import info, solo, tally, village


def finish(store: TinyDBStore, sid: str, day: str, score: int = 1) -> None:
    store.create(sid, "village", sid, {})
    store.update_info(sid, finished=True, summary=village({"Ann": score, "Bo": 2}, day=day))


def fill(store: TinyDBStore) -> None:
    for n in range(12):
        finish(store, f"v{n:02d}", f"2024-03-{1 + n:02d}", score=n)
    store.create("s1", "village", "s1", {})
    store.update_info("s1", finished=True, summary=solo("Zoë", 50, "sage", day="2024-05-09"))
    store.create("t1", "small-city", "t1", {})
    store.update_info("t1", finished=True,
                      summary=tally("small-city", {"Ann": "—", "Cy": 9}, ["Cy"]))
    store.create("bad", "village", "bad", {})
    store.update_info("bad", finished=True, summary={"players": []})  # skipped
    store.create("open", "village", "open", {})


def view(cache: HistoryCache, store: TinyDBStore) -> tuple[Any, ...]:
    records = cache.records(store)
    cache.wait_saved()  # the index is written by a thread of its own
    return ([r.model_dump() for r in records], [i.id for i in cache.unfinished(store)],
            cache.skipped)


def fresh(store: TinyDBStore) -> tuple[Any, ...]:
    """What a cache of a new process shows, read from the game files (no saved index)."""
    infos = store.list_sessions()
    built = build_records(infos)
    from companion.history.query import newest_first
    return ([r.model_dump() for r in newest_first(built.records)],
            [i.id for i in HistoryCache().unfinished(store)], built.skipped)


# -- deleted and put back between the scan and the read ------------------------------


def test_a_game_trashed_and_restored_between_scan_and_read_is_listed_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = TinyDBStore(tmp_path)
    other = TinyDBStore(tmp_path)  # another process's store
    finish(store, "f0", "2024-01-01")
    cache = HistoryCache()
    assert [r.id for r in cache.records(store)] == ["f0"]
    finish(other, "theirs", "2024-06-01")
    trashed: list[str] = []
    real = cache_module.fingerprint

    def scan_then_trash(s: Any) -> Any:
        stamps = real(s)  # the scan sees "theirs" ...
        trashed.append(other.trash("theirs"))  # ... gone before the cache reads it
        return stamps

    monkeypatch.setattr(cache_module, "fingerprint", scan_then_trash)
    assert [r.id for r in cache.records(store)] == ["f0"]
    assert cache.last_update == "incremental"
    monkeypatch.undo()
    stamp_before = (tmp_path / "trash" / trashed[0]).stat()
    other.restore(trashed[0])  # the same file back: the same size, mtime and inode
    after = (tmp_path / "sessions" / "theirs.json").stat()
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (
        stamp_before.st_size, stamp_before.st_mtime_ns, stamp_before.st_ino)
    assert [r.id for r in cache.records(store)] == ["theirs", "f0"]
    assert view(cache, store) == fresh(store)


def test_a_game_trashed_and_restored_between_scan_and_listing_is_listed_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same race on the first look (the store listed, no saved index)."""
    store = TinyDBStore(tmp_path)
    finish(store, "f0", "2024-01-01")
    finish(store, "f1", "2024-01-02")
    trashed: list[str] = []
    real = store._scan_sessions  # the listing's scan, the first look's fingerprint

    def scan_then_trash() -> Any:
        stamps = real()
        trashed.append(TinyDBStore(tmp_path).trash("f1"))
        return stamps

    monkeypatch.setattr(store, "_scan_sessions", scan_then_trash)
    cache = HistoryCache()
    assert [r.id for r in cache.records(store)] == ["f0"]
    assert cache.last_update == "listed"
    monkeypatch.undo()
    TinyDBStore(tmp_path).restore(trashed[0])
    assert [r.id for r in cache.records(store)] == ["f1", "f0"]
    # And a new process, from the index this cache saved, agrees.
    again = HistoryCache()
    assert [r.id for r in again.records(store)] == ["f1", "f0"]


# -- the saved index ---------------------------------------------------------------------


def test_the_next_start_takes_the_records_from_the_saved_index(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = TinyDBStore(tmp_path)
    fill(store)
    first = HistoryCache()
    first.records(store)
    first.wait_saved()
    assert first.last_update == "listed" and (tmp_path / INDEX_FILE).is_file()
    expected = view(first, store)
    assert expected == fresh(store)

    def no_listing() -> None:
        raise AssertionError("listed although the saved index is current")

    def no_read(session_id: str) -> None:
        raise AssertionError(f"read {session_id} although its entry is current")

    restarted = TinyDBStore(tmp_path)
    monkeypatch.setattr(restarted, "list_sessions", no_listing)
    monkeypatch.setattr(restarted, "session_info", no_read)
    second = HistoryCache()
    second.records(restarted)
    assert second.last_update == "saved"
    assert view(second, restarted) == expected
    # Equal models, and as usable: statistics and filters from the saved records.
    assert second.stats(restarted) == first.stats(store)
    assert second.player_names(restarted) == first.player_names(store)


def test_games_changed_since_the_index_was_saved_are_read_alone(tmp_path: Path) -> None:
    store = TinyDBStore(tmp_path)
    fill(store)
    view(HistoryCache(), store)  # saves the index
    finish(store, "new", "2024-12-01")
    store.update_info("v03", summary=village({"Ann": 77, "Bo": 1}, day="2024-03-04"))
    store.delete("v04")
    store.update_info("open", finished=True, summary=village({"Ann": 5, "Bo": 6},
                                                             day="2024-07-07"))
    reads: list[str] = []
    real = store.session_info

    def counting(session_id: str) -> Any:
        reads.append(session_id)
        return real(session_id)

    store.session_info = counting  # type: ignore[method-assign]
    cache = HistoryCache()
    cache.records(store)
    assert sorted(reads) == ["new", "open", "v03"] and cache.last_update == "saved"
    assert view(cache, store) == fresh(store)
    assert next(r for r in cache.records(store) if r.id == "v03").players[0].score == 77


@pytest.mark.parametrize("damage", [
    lambda raw: raw[:len(raw) // 2],  # cut short
    lambda raw: raw.replace(b'"Ann"', b'"Anx"', 1),  # one changed byte: the digest
    lambda raw: b"",
    lambda raw: b"\x00\xff garbage",
    lambda raw: raw.replace(b'"version": %d' % VERSION, b'"version": 99', 1),  # newer
    lambda raw: raw.replace(b'"version": %d' % VERSION, b'"version": 1', 1),  # the rows of 1
    lambda raw: raw.replace(b"village-companion-history-index", b"something-else", 1),
])
def test_a_damaged_index_is_ignored_and_rebuilt(tmp_path: Path, damage: Any) -> None:
    store = TinyDBStore(tmp_path)
    fill(store)
    expected = view(HistoryCache(), store)
    path = tmp_path / INDEX_FILE
    path.write_bytes(damage(path.read_bytes()))
    cache = HistoryCache()
    cache.records(store)
    assert cache.last_update == "listed"
    assert view(cache, store) == expected
    assert read_index(path) is not None  # written anew (view waited for it)
    assert view(HistoryCache(), store) == expected


def test_a_row_of_another_shape_is_read_from_its_file(tmp_path: Path) -> None:
    """An index whose digest matches but holds a row this build cannot use (written by
    hand, or by a bug): that game is read from its file, the others are taken."""
    store = TinyDBStore(tmp_path)
    fill(store)
    expected = view(HistoryCache(), store)
    path = tmp_path / INDEX_FILE
    head, _, body = path.read_bytes().partition(b"\n")
    lines = [json.loads(line) for line in body.split(b"\n")]

    def entries(field: str) -> dict[str, Any]:  # every line of one map is a view of it
        return {name: (line, name) for line in lines for name in line.get(field, {})}

    records, games = entries("records"), entries("games")
    line, _ = records["v05.json"]
    line["records"]["v05.json"]["players"][0]["score"] = "lots"  # no number
    line, _ = records["v06.json"]
    line["records"]["v06.json"] = "nonsense"
    line, _ = records["v07.json"]
    line["records"]["v07.json"]["id"] = "v08"  # another game's record
    line, _ = games["s1.json"]
    line["games"]["s1.json"][0] = "?"
    body = b"\n".join(json.dumps(line).encode() for line in lines)
    header = json.loads(head)
    header["digest"] = saved_index.hashlib.blake2b(body).hexdigest()
    path.write_bytes(json.dumps(header).encode() + b"\n" + body)
    reads: list[str] = []
    real = store.session_info

    def counting(session_id: str) -> Any:
        reads.append(session_id)
        return real(session_id)

    store.session_info = counting  # type: ignore[method-assign]
    cache = HistoryCache()
    assert view(cache, store) == expected
    assert sorted(reads) == ["s1", "v05", "v06", "v07"]


def test_a_stale_index_of_another_folder_state_is_not_trusted(tmp_path: Path) -> None:
    """An old index (a backup of the data folder put back, a copy from another device):
    every entry whose file differs is read again, games it lacks are read, and games it
    has but the folder does not are not shown."""
    store = TinyDBStore(tmp_path)
    fill(store)
    view(HistoryCache(), store)
    old = (tmp_path / INDEX_FILE).read_bytes()
    for n in range(5):
        store.update_info(f"v{n:02d}", summary=village({"Ann": 50 + n, "Bo": 2},
                                                        day=f"2024-03-{1 + n:02d}"))
    finish(store, "late", "2025-01-01")
    store.delete("v10")
    (tmp_path / INDEX_FILE).write_bytes(old)
    cache = HistoryCache()
    assert view(cache, store) == fresh(store)
    assert "v10" not in {r.id for r in cache.records(store)}


def test_an_index_that_cannot_be_written_is_skipped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = TinyDBStore(tmp_path)
    fill(store)

    def full_disk(path: Path, payload: bytes) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(saved_index, "atomic_write_bytes", full_disk)
    cache = HistoryCache()
    assert view(cache, store) == fresh(store)
    assert not (tmp_path / INDEX_FILE).exists()
    finish(store, "new", "2024-12-01")
    assert view(cache, store) == fresh(store)
    monkeypatch.undo()
    # The next start lists the store (nothing saved) and saves it then.
    again = HistoryCache()
    again.records(store)
    assert again.last_update == "listed"
    assert view(again, store) == fresh(store)  # waits for the index
    assert (tmp_path / INDEX_FILE).is_file()


def test_a_read_only_folder_lists_without_an_index(tmp_path: Path) -> None:
    store = TinyDBStore(tmp_path)
    fill(store)
    store.read_only = "read-only for the test"
    cache = HistoryCache()
    assert view(cache, store) == fresh(store)
    assert not (tmp_path / INDEX_FILE).exists()


def test_records_round_trip(tmp_path: Path) -> None:
    """Every field of a record, and an unfinished game's SessionInfo, come back equal
    (fields at their default are left out of the file)."""
    infos = [
        info("a", village({"Ann": 30, "Bo": 20}, categories={
            "Ann": {"church": 3, "travel": 9}, "Bo": {"church": 1, "travel": 2}},
            start="Bo", minutes=75)),
        info("b", solo("Zoë", 50, "sage", day="2024-05-02")),
        info("c", tally("small-city", {"Ann": "—", "Cy": 9}, ["Cy"]), game="small-city"),
        info("d", {"players": ["Ann", "Bo"], "date": "2024-01-02",
                   "colours": {"Ann": "red", "Bo": "blue"}}),
    ]
    records = build_records(infos).records
    unfinished = info("e", {"players": ["Ann"]}, finished=False)
    entries: dict[str, saved_index.Entry] = {
        f"{r.id}.json": ("r", (n, n + 1, n + 2), r) for n, r in enumerate(records)}
    entries["e.json"] = ("u", (7, 8, 9), unfinished)
    entries["f.json"] = ("s", (1, 1, 1), None)
    path = tmp_path / INDEX_FILE
    write_index(path, entries)
    saved = read_index(path)
    assert saved is not None
    assert {name: saved.entry(name) for name in saved.games} == entries
    assert list(saved.games) == list(entries)  # newest first, as written


def test_a_long_history_is_written_a_few_hundred_entries_a_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each line is one call into pydantic's compiled code, which holds the interpreter
    (and the event loop serving every phone) until it returns: lines stay short."""
    monkeypatch.setattr(saved_index, "LINE_ENTRIES", 3)
    records = build_records([info(f"g{n:02d}", village({"Ann": n, "Bo": 2}))
                             for n in range(10)]).records
    entries: dict[str, saved_index.Entry] = {
        f"{r.id}.json": ("r", (n, n, n), r) for n, r in enumerate(records)}
    path = tmp_path / INDEX_FILE
    write_index(path, entries)
    body = path.read_bytes().partition(b"\n")[2]
    lines = [json.loads(line) for line in body.split(b"\n")]
    assert [len(line.get("games", line.get("records", {}))) for line in lines] == [
        3, 3, 3, 1, 3, 3, 3, 1]
    saved = read_index(path)
    assert saved is not None and list(saved.games) == list(entries)
    assert {name: saved.entry(name) for name in saved.games} == entries
