"""The history's first load with no saved index (issue 23): its faster paths give what the
general ones give. Records read through `_clean_players` equal the general reading's;
index.json parsed in pieces equals json.loads; the stamped listing equals the listing;
the first look from it equals a cache built the old way, for odd games too (abandoned,
imported, 2011 edition, other assistants', damaged summaries and files); and the saved
index is written a moment after the look."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.bench.fixture import _summary
from companion.history import cache as cache_module
from companion.history import records
from companion.history.abandon import abandon
from companion.history.cache import HistoryCache, fingerprint
from companion.history.played import PLAYED_KEY
from companion.history.query import newest_first_key
from companion.history.records import build_records
from companion.history.saved_index import INDEX_FILE
from companion.history.stats import compute_stats
from companion.store import atomic
from companion.store.atomic import AtomicJSONStorage, parse_in_pieces
from companion.store.tinydb_store import TinyDBStore

from .helpers import info, solo, tally, village

# -- records: the clean reading is the general one ---------------------------------------

ODD_SUMMARIES: list[dict[str, Any]] = [
    village({"Ann": 50, "Bo": 61, "Cy": 50}, start="Cy", minutes=95,
            categories={"Bo": {"prestige": 20, "coins": 41}}),
    {**village({"Ann": 50, "Bo": 61}), "ranks": {"Bo": 1, "Ann": 2}},
    {**village({"Ann": 5, "Bo": 5}), "ranks": {"Bo": 0, "Ann": -1}},
    {**village({"Ann": 5, "Bo": 5}), "ranks": {"Bo": True, "Ann": 2}},
    {**village({"Ann": 5, "Bo": 5}), "ranks": {"Bo": "1", "Ann": 2}},
    {**village({"Ann": 5, "Bo": 5}), "ranks": None},
    {**village({"Ann": 5, "Bo": 5}), "ranks": []},
    village({"Ann": 3, "Bo": 4}, edition="2011"),
    village({"Ann": 40, "Bo": 30}, edition=None),
    village({n: 10 + i for i, n in enumerate("ABCDE")}, edition=None),
    village({"Ann": 12, "Bo": 12, "Cy": 5}, winners=["Bo"]),
    village({"Ann": 12, "Bo": 12}, winners=[]),
    solo("Ann", 52, "master", day="2024-01-02", variant="d4", policy="auto"),
    {**solo("Ann", 52, None, day="2024-01-02"), "karla_colour": " purple "},
    tally("feudum", {"Ann": 20, "Bo": 31}, ["Bo"]),
    tally("small-city", {"Ann": 22, "Bo": 30, "Cy": "—"}, ["Bo"]),
    tally("villagers", {"Ann": 1.0, "Bo": 2.5}, ["Bo"]),
    tally("villagers", {"Ann": "7", "Bo": True}, ["Ann"]),
    {"players": [" Ann ", "Bo"], "scores": {" Ann ": 3, "Bo": 4}, "winners": ["Bo"]},
    {"players": ["Ann", "Ann"], "scores": {"Ann": 3}, "winners": ["Ann"]},
    {"players": ["Ann", "Ann"], "scores": {"Ann": 3, "Bo": 1}, "winners": ["Ann"]},
    {"players": ["Ann"], "scores": {"Ann": 3, "Zed": 9}, "winners": ["Zed"]},
    {"players": ["Ann", "Bo"], "scores": {"Ann": 3, "Bo": 4}, "winner": "Bo"},
    {"players": ["Ann", "Bo"], "scores": {"Ann": 3, "Bo": 4}, "winners": "Bo"},
    {"players": ["Ann", "Bo"], "scores": {"Ann": 3, "Bo": 4}, "winners": ["Bo", ""]},
    {"players": ["Ann", "Bo"], "scores": {}, "winners": ["Bo"]},
    {"players": ["Ann", "Bo"], "scores": [3, 4], "winners": ["Bo"]},
    {"players": [{"name": "Ann", "total": 3}, {"name": "Bo", "score": 9}]},
    {"players": [{"name": "Ann", "points": 3, "eliminated": True}], "winners": []},
    {"players": ("Ann", "Bo"), "scores": {"Ann": 3, "Bo": 4}, "winners": ["Bo"]},
    {"players": ["Ann", "Bo"], "scores": {"Ann": 3, "Bo": 4}, "winners": ["Bo"],
     "categories": {"Ann": {"coins": 2.0, "x": True, "y": "3"}, "Bo": {"coins": 4},
                    "Cy": {"coins": 1}}},
    {"players": ["Ann", "Bo"], "scores": {"Ann": 3, "Bo": 4}, "winners": ["Bo"],
     "categories": {"Ann": {}, "Bo": None}, "colours": {"Ann": "red", "Zed": "blue"}},
    {"players": ["Ann", "Bo"], "scores": {"Ann": 3, "Bo": 4}, "winners": ["Bo"],
     "categories": [1, 2], "start_player": "Zed", PLAYED_KEY: "2024-05-01T20:00:00Z"},
    {"players": [], "scores": {}, "winners": []},
    {"players": 5, "scores": "x"},
    {"players": [[1], {"name": None}]},
    {},
]


def dumped(players: list[records.PlayerResult] | None) -> list[dict[str, Any]] | None:
    return None if players is None else [p.model_dump() for p in players]


def general(summary: dict[str, Any]) -> list[dict[str, Any]] | str:
    try:
        return [p.model_dump() for p in records._read_players(summary)]
    except Exception as exc:  # what build_record would skip the game for
        return type(exc).__name__


@pytest.mark.parametrize("summary", ODD_SUMMARIES)
def test_the_clean_reading_is_the_general_reading_or_declines(summary: dict[str, Any]
                                                              ) -> None:
    clean = records._clean_players(summary)
    assert clean is None or dumped(clean) == general(summary)


def test_todays_summaries_take_the_clean_reading() -> None:
    """What the services write today is read the fast way (issue 23's figure)."""
    rng = random.Random(3)
    today = [_summary(n, rng)[1] for n in range(40)] + [
        village({"Ann": 50, "Bo": 61, "Cy": 50}, start="Cy", minutes=95),
        solo("Ann", 52, "master", day="2024-01-02"),
        tally("feudum", {"Ann": 20, "Bo": 31}, ["Bo"])]
    for summary in today:
        clean = records._clean_players(summary)
        assert clean is not None and dumped(clean) == general(summary)


NAMES = st.sampled_from(["Ann", "Bo", "Cy", " Ann", "Bo ", "", "Karla", "Zoë"])
SCORES = st.one_of(st.integers(-5, 99), st.sampled_from(["—", "7", True, None, 2.0, 2.5]))


@st.composite
def summaries(draw: st.DrawFn) -> dict[str, Any]:
    players = draw(st.lists(NAMES, max_size=5))
    scored = draw(st.lists(NAMES, max_size=5)) if draw(st.booleans()) else players
    summary: dict[str, Any] = {
        "players": players,
        "scores": {n: draw(SCORES) for n in scored},
        "winners": draw(st.lists(NAMES, max_size=3))}
    if draw(st.booleans()):
        summary["ranks"] = {n: draw(st.one_of(st.integers(-1, 6), st.just(True)))
                            for n in draw(st.lists(NAMES, max_size=4))}
    if draw(st.booleans()):
        summary["categories"] = {n: {"coins": draw(SCORES), "travel": draw(SCORES)}
                                 for n in draw(st.lists(NAMES, max_size=4))}
    return summary


@given(summaries())
def test_any_summary_is_read_alike(summary: dict[str, Any]) -> None:
    clean = records._clean_players(summary)
    assert clean is None or dumped(clean) == general(summary)


def test_a_prepared_record_is_the_built_record_and_its_key() -> None:
    """records.prepare: Home's first load sorts by its key and builds the record later."""
    infos = [info(f"g{n}", summary, game=game)
             for n, summary in enumerate(ODD_SUMMARIES)
             for game in ("village", "village_solo", "small-city")]
    rng = random.Random(5)
    infos += [info(f"b{n}", _summary(n, rng)[1]) for n in range(30)]
    prepared = 0
    for one in infos:
        ready = records.prepare(one)
        if ready is None:
            continue
        prepared += 1
        record = records.build_record(one)  # never raises for a prepared game
        assert ready.key == newest_first_key(record)
        assert records.build_prepared(one, ready).model_dump() == record.model_dump()
    assert prepared > 40


@given(summaries(), st.sampled_from(["2024-05-01", "", "x", None]),
       st.sampled_from(["2024-05-01T20:00:00.000Z", "2024-05-01T20:00:00+02:00", "", 3]))
def test_any_prepared_summary_builds_alike(summary: dict[str, Any], day: Any,
                                           ended: Any) -> None:
    summary = {**summary, "date": day, "ended_at": ended}
    one = info("g", summary)
    ready = records.prepare(one)
    if ready is not None:
        record = records.build_record(one)
        assert ready.key == newest_first_key(record)
        assert records.build_prepared(one, ready).model_dump() == record.model_dump()


def test_every_record_of_odd_games_is_what_the_general_reading_builds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    infos = [info(f"g{n}", summary, game=game)
             for n, summary in enumerate(ODD_SUMMARIES)
             for game in ("village", "village_solo", "small-city")]
    fast = build_records(infos)
    monkeypatch.setattr(records, "_clean_players", lambda summary: None)
    slow = build_records(infos)
    assert [r.model_dump() for r in fast.records] == [r.model_dump() for r in slow.records]
    assert fast.skipped_ids == slow.skipped_ids and fast.skipped > 0


# -- index.json in pieces: what json.loads gives ---------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=4) | st.sampled_from(["1", "22", "3"]), inner,
                      max_size=3),
    max_leaves=12)


@given(st.lists(st.dictionaries(st.text(max_size=6), JSON, max_size=4), max_size=12),
       st.sampled_from([1, 40, 200, 1 << 19]))
def test_a_table_parsed_in_pieces_is_what_json_loads_gives(
        docs: list[dict[str, Any]], piece: int) -> None:
    raw = atomic.encode_json({"_rev": "0" * 32, "sessions": {
        str(n): doc for n, doc in enumerate(docs, 1)}}).encode("utf-8")
    old, atomic.PIECE_BYTES = atomic.PIECE_BYTES, piece
    try:
        parsed = parse_in_pieces(raw, "sessions")
    finally:
        atomic.PIECE_BYTES = old
    # None: declined (a cut inside a document), the caller parses it as before.
    assert parsed is None or parsed == json.loads(raw)
    assert parse_in_pieces(raw, "sessions") == json.loads(raw)  # one piece of 512 KB


def test_pieces_cut_between_documents_and_decline_what_json_reads_otherwise(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    docs = {str(n): {"id": f"g{n}", "n": 2**70 + n, "t": "Zoë " * n,
                     "s": {"rounds": {"1": {"a": n}, "2": {"b": n}}}} for n in range(1, 60)}
    path = tmp_path / "index.json"
    AtomicJSONStorage(path).write({"sessions": docs})
    raw = path.read_bytes()
    monkeypatch.setattr(atomic, "PIECE_BYTES", 100)
    calls: list[int] = []
    real = atomic.from_json

    def counting(piece: bytes) -> Any:
        calls.append(len(piece))
        return real(piece)

    monkeypatch.setattr(atomic, "from_json", counting)
    parsed = parse_in_pieces(raw, "sessions")
    # A cut inside a document (its "rounds" keyed by numbers) declines the whole file;
    # one between documents parses.
    assert parsed is None or (parsed == json.loads(raw) and len(calls) > 1)
    plain = {str(n): {"id": f"g{n}", "big": 2**70 + n} for n in range(1, 60)}
    AtomicJSONStorage(path).write({"sessions": plain})
    calls.clear()
    assert parse_in_pieces(path.read_bytes(), "sessions") == json.loads(path.read_bytes())
    assert len(calls) > 10 and max(calls) < 200  # many calls, none of the whole file
    # A lone surrogate: json.loads reads it, pydantic's parser does not: declined, and
    # read_entry parses the file as before.
    odd = path.read_bytes().replace(b'"g1"', b'"\\ud800"')
    path.write_bytes(odd)
    assert parse_in_pieces(odd, "sessions") is None
    entry = AtomicJSONStorage(path).read_entry("sessions", pieces=True)
    assert entry is not None and entry.data["sessions"]["1"]["id"] == "\ud800"
    for other in (odd[:-1], odd.replace(b'":{"1"', b'": {"1"', 1), b"[]"):
        assert parse_in_pieces(other, "sessions") is None


# -- the stamped listing and the first look from it -----------------------------------------


def odd_store(tmp_path: Path) -> TinyDBStore:
    """Finished games of every kind, an abandoned and an open one, an imported one, a
    summary no record is built from, and a damaged game file."""
    store = TinyDBStore(tmp_path)
    for n, summary in enumerate(ODD_SUMMARIES):
        game = ("village", "village_solo", "small-city", "feudum")[n % 4]
        store.create(f"g{n:02d}", game, f"g{n}", {})
        store.update_info(f"g{n:02d}", finished=True, summary=summary)
    store.create("imported", "village", "imported", {}, finished=True,
                 summary={**village({"Ann": 9, "Bo": 8}), PLAYED_KEY: "2023-01-01T10:00:00Z"})
    store.create("open", "village", "open", {})
    store.create("gave-up", "village", "gave-up", {})
    abandon(store, "gave-up")
    (store.sessions_dir / "broken.json").write_text('{"_rev": "x", "meta": {', "utf-8")
    return store


def view(cache: HistoryCache, store: TinyDBStore) -> tuple[Any, ...]:
    """Home's first load, how it went, and then every record."""
    unfinished, page = cache.home(store, 0, 1000)
    how = cache.last_update
    return ([r.model_dump() for r in page.items], [i.id for i in unfinished],
            cache.skipped, [r.model_dump() for r in cache.records(store)], how)


def test_the_stamped_listing_is_the_listing_with_the_scans_stamps(tmp_path: Path) -> None:
    store = odd_store(tmp_path)
    store.list_sessions()  # index.json written (the damaged file set aside)
    for index in ("current", "missing", "damaged"):
        if index == "missing":
            store.index_path.unlink()
        elif index == "damaged":
            store.index_path.write_text('{"_rev": "0", "sessions": 7}', "utf-8")
        infos, stamps = TinyDBStore(tmp_path).list_sessions_stamped()
        listed = TinyDBStore(tmp_path).list_sessions()
        assert [i.model_dump() for i in infos] == [i.model_dump() for i in listed]
        assert stamps == fingerprint(store)
    assert [p.kind for p in store.problems()].count("index") == 1  # quarantined once
    # A rewrite after a listing parsed in pieces holds the same entries.
    first = TinyDBStore(tmp_path)
    first.list_sessions_stamped()
    written = json.loads(store.index_path.read_bytes())["sessions"]
    store.create("new", "village", "new", {})
    first.list_sessions()  # a change: index.json rewritten from the texts made then
    rewritten = json.loads(store.index_path.read_bytes())["sessions"]
    assert [d for d in rewritten.values() if d["id"] != "new"] == list(written.values())


def test_the_first_look_without_a_saved_index_is_the_old_first_look(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = odd_store(tmp_path)
    store.list_sessions()
    fast = HistoryCache()
    got = view(fast, store)
    assert got[4] == "listed" and got[2] > 0  # skipped summaries counted
    assert "gave-up" in got[1] and "open" in got[1]
    fast.wait_saved()
    (tmp_path / INDEX_FILE).unlink()
    monkeypatch.setattr(TinyDBStore, "list_sessions_stamped", None)  # the old path
    monkeypatch.setattr(records, "_clean_players", lambda summary: None)
    slow = HistoryCache()
    assert view(slow, TinyDBStore(tmp_path)) == got
    monkeypatch.undo()
    slow.wait_saved()
    again = HistoryCache()  # and the next start, from the saved index
    assert view(again, TinyDBStore(tmp_path)) == (*got[:4], "saved")


def test_a_game_trashed_between_the_listings_scan_and_its_index_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The race of test_saved_index's, with index.json current: the game is listed from
    it (the listing is as of its scan), and the next look finds the file gone."""
    store = TinyDBStore(tmp_path)
    for sid, day in (("f0", "2024-01-01"), ("f1", "2024-01-02")):
        store.create(sid, "village", sid, {}, finished=True,
                     summary=village({"Ann": 1, "Bo": 2}, day=day))
    store.list_sessions()
    real = store._scan_sessions
    trashed: list[str] = []

    def scan_then_trash() -> Any:
        found = real()
        trashed.append(TinyDBStore(tmp_path).trash("f1"))
        return found

    monkeypatch.setattr(store, "_scan_sessions", scan_then_trash)
    cache = HistoryCache()
    assert [r.id for r in cache.records(store)] == ["f1", "f0"]
    monkeypatch.undo()
    assert [r.id for r in cache.records(store)] == ["f0"]
    TinyDBStore(tmp_path).restore(trashed[0])
    assert [r.id for r in cache.records(store)] == ["f1", "f0"]


def test_the_saved_index_is_written_a_moment_after_the_look(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = odd_store(tmp_path)
    monkeypatch.setattr(cache_module, "SAVE_DELAY", 60.0)
    cache = HistoryCache()
    before = view(cache, store)
    assert not (tmp_path / INDEX_FILE).exists()  # not during the look, nor right after
    store.create("later", "village", "later", {}, finished=True,
                 summary=village({"Ann": 3, "Bo": 1}, day="2999-12-31"))
    cache.records(store)  # one change: not enough for another save
    cache.wait_saved()  # written now, from what the cache holds now
    assert (tmp_path / INDEX_FILE).is_file()
    after = view(HistoryCache(), store)
    assert after[0][0]["id"] == "later" and after[4] == "saved"
    assert after[1:3] == before[1:3] and after[0][1:] == before[0]
    monkeypatch.setattr(cache_module, "SAVE_DELAY", 0.0)
    (tmp_path / INDEX_FILE).unlink()
    third = HistoryCache()
    third.records(store)
    assert third._saving is not None
    third._saving.join(10)  # written without wait_saved
    assert (tmp_path / INDEX_FILE).is_file()


def eager(store: TinyDBStore) -> HistoryCache:
    """A cache whose first look builds every record (records(), as the app's warm-up)."""
    cache = HistoryCache()
    cache.records(store)
    return cache


def test_home_builds_the_page_it_shows_and_everything_else_sees_every_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = odd_store(tmp_path)
    rng = random.Random(9)
    for n in range(45):
        game, summary = _summary(n, rng)
        store.create(f"b{n:02d}", game, f"b{n}", {}, finished=True, summary=summary)
    monkeypatch.setattr(cache_module, "SAVE_DELAY", 60.0)
    whole = eager(store)
    total = len(whole.records(store))
    for page, size in ((0, 20), (3, 7), (99, 20), (0, 1000)):
        lazy = HistoryCache()
        unfinished, shown = lazy.home(store, page, size)
        assert bool(lazy._pending) == (size < total)  # the other records wait
        want = whole.home(store, page, size)
        assert (shown.model_dump(), unfinished) == (want[1].model_dump(), want[0])
        assert shown.total == total and lazy.skipped == whole.skipped
        assert [r.model_dump() for r in lazy.records(store)] == [
            r.model_dump() for r in whole.records(store)]
        assert not lazy._pending and lazy._keys == whole._keys
    # Whatever looks first after Home's first load sees every record.
    for look in ("stats", "page", "player_names", "games", "unfinished", "home"):
        lazy = HistoryCache()
        lazy.home(store)
        got = getattr(lazy, look)(store)
        assert not lazy._pending
        assert (got if look != "home" else got[1].model_dump()) == (
            getattr(whole, look)(store) if look != "home"
            else whole.home(store)[1].model_dump())
    # A save right after it: the records are built, then the one game read again.
    lazy = HistoryCache()
    lazy.home(store)
    store.update_info("b03", summary=village({"Ann": 99, "Bo": 1}, day="2999-01-01"))
    assert lazy.home(store)[1].items[0].id == "b03" and lazy.last_update == "incremental"
    assert [r.model_dump() for r in lazy.records(store)] == [
        r.model_dump() for r in eager(store).records(store)]
    # The saved index written meanwhile holds every record.
    monkeypatch.setattr(cache_module, "SAVE_DELAY", 0.0)
    (tmp_path / INDEX_FILE).unlink(missing_ok=True)
    lazy = HistoryCache()
    lazy.home(store)
    assert lazy._saving is not None
    lazy._saving.join(10)
    assert not lazy._pending and (tmp_path / INDEX_FILE).is_file()
    again = HistoryCache()
    assert again.records(store) == lazy.records(store) and again.last_update == "saved"


def test_the_statistics_from_the_caches_keys_are_the_statistics(tmp_path: Path) -> None:
    """HistoryCache.stats hands compute_stats the newest-first keys it keeps."""
    store = odd_store(tmp_path)
    rng = random.Random(11)
    for n in range(30):
        game, summary = _summary(n, rng)
        store.create(f"b{n:02d}", game, f"b{n}", {}, finished=True, summary=summary)
    cache = HistoryCache()
    cache.home(store)  # the first look: Home's page only, the rest built for the stats
    for step in range(3):
        records = cache.records(store)
        for only in (None, "village", "feudum"):
            assert cache.stats(store, game=only) == compute_stats(records, game=only)
        assert cache.stats(store, {"ann": "bo"}) == compute_stats(records, {"ann": "bo"})
        store.update_info(f"b{step:02d}", summary=village({"Ann": step, "Bo": 9},
                                                          day=f"2030-01-0{1 + step}"))
        store.delete(f"b{10 + step:02d}")
