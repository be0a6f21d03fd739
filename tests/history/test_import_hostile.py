"""Issue 22.4: a backup import trusts nothing it reads. Hostile files: settings naming a
game already here, invalid preference values, a negative component correction, a log its
engine cannot replay, a 10,000-deep nested file. A refused or partly refused import
changes nothing that was there."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from companion.history.backup import (
    FORMAT,
    BackupError,
    export_backup,
    import_backup,
)
from companion.history.import_checks import APP_SETTING_VALUES
from companion.store.tinydb_store import TinyDBStore
from companion.village.components import ComponentProblem
from companion.village.service import VillageService, calibration_key, engine_key, prefs_key
from companion.village.setup import PlayerSetup, VillageSetup
from tests.history.helpers import finished_tally, finished_village


def _setup(seed: int = 9) -> VillageSetup:
    return VillageSetup(players=[PlayerSetup(name="Al", colour="blue"),
                                 PlayerSetup(name="Di", colour="red")], seed=seed)


@pytest.fixture
def here(tmp_path: Path) -> TinyDBStore:
    """The store the backups are imported into: games and settings already there."""
    store = TinyDBStore(tmp_path / "here")
    svc = VillageService(store)
    finished_village(svc, ["Zoë", "Bo"], seed=1)
    svc.create(_setup())
    store.set_setting("app.theme", "dark")
    return store


@pytest.fixture
def source(tmp_path: Path) -> dict[str, Any]:
    """A sound backup of other games (one Village, one Villagers)."""
    store = TinyDBStore(tmp_path / "there")
    finished_village(VillageService(store), ["Ann", "Cy"], seed=3)
    finished_tally(store, "villagers", ["Ann", "Bo"])
    return export_backup(store)


def _state(store: TinyDBStore) -> dict[str, Any]:
    """Everything that was there (without the export time)."""
    found = export_backup(store)
    found.pop("exported_at")
    for key in (prefs_key(g["id"]) for g in found["games"]):
        found.setdefault("legacy", {})[key] = store.get_setting(key)
    for key in (engine_key(g["id"]) for g in found["games"]):
        found.setdefault("legacy", {})[key] = store.get_setting(key)
    return found


def _empty(**settings: Any) -> str:
    return json.dumps({"format": FORMAT, "version": 1, "games": [], "settings": settings})


def _refused(store: TinyDBStore, data: str, code: str) -> BackupError:
    before = _state(store)
    with pytest.raises(BackupError) as caught:
        import_backup(store, data)
    assert caught.value.code == code, caught.value
    assert _state(store) == before  # nothing that was there changed
    return caught.value


def _unfinished_id(store: TinyDBStore) -> str:
    return next(i.id for i in store.list_sessions() if not i.finished)


# --------------------------------------------------------------------------- settings


def test_zero_games_cannot_make_a_game_here_refuse_to_open(here: TinyDBStore) -> None:
    sid = _unfinished_id(here)
    err = _refused(here, _empty(**{engine_key(sid): 99}), "setting_game")
    assert err.params == {"key": engine_key(sid)}
    VillageService(here).open(sid)  # still opens (a newer engine 99 would refuse it)


def test_zero_games_cannot_rewrite_a_game_header_with_a_bad_preference(
        here: TinyDBStore) -> None:
    sid = _unfinished_id(here)
    header = here.load(sid).header
    _refused(here, _empty(**{prefs_key(sid): {"draw_mode": "bogus"}}), "setting_game")
    VillageService(here).open(sid)
    assert here.load(sid).header == header


@pytest.mark.parametrize(("key", "value"), [
    ("app.theme", "purple"), ("app.language", "xx"), ("app.language", 3),
    ("game.karla_policy", "always"), ("game.d4_variant", "yes"),
    ("game.cube_display", None), ("history.player_merge", ["Chris"]),
    ("history.player_merge", {"Chris": 1}),
    ("calibration_checked:village:big-box", "start_coins"),
])
def test_a_setting_value_the_app_does_not_accept_is_refused(
        here: TinyDBStore, key: str, value: Any) -> None:
    err = _refused(here, _empty(**{key: value}), "setting_value")
    assert err.params["key"] == key


@pytest.mark.parametrize("key", ["app.secret", "calibration:village:1999",
                                 "session:x", "session:abc:colour"])
def test_an_unknown_setting_is_refused(here: TinyDBStore, key: str) -> None:
    err = _refused(here, _empty(**{key: "x"}), "setting_unknown")
    assert err.params["key"] == key


def test_a_game_inside_the_backup_with_an_invalid_preference_is_refused(
        here: TinyDBStore, source: dict[str, Any]) -> None:
    sid = source["games"][0]["id"]
    bad = copy.deepcopy(source)
    bad["settings"][prefs_key(sid)] = {"draw_mode": "app", "karla_policy": "never"}
    _refused(here, json.dumps(bad), "setting_value")
    bad = copy.deepcopy(source)
    bad["games"][0]["settings"] = {"engine": 99}
    _refused(here, json.dumps(bad), "setting_value")


def test_a_per_game_setting_of_a_game_inside_the_backup_goes_with_it(
        here: TinyDBStore, source: dict[str, Any]) -> None:
    sid = source["games"][0]["id"]
    ok = copy.deepcopy(source)
    ok["settings"][prefs_key(sid)] = {"draw_mode": "manual", "karla_policy": "auto"}
    report = import_backup(here, json.dumps(ok))
    assert sid in report.imported
    assert VillageService(here).open(sid).draw_mode == "manual"


@pytest.mark.parametrize(("correction", "field"), [
    ({"time_track_length": -3}, "time_track_length"),
    ({"time_track_length": "long"}, "time_track_length"),
    ({"no_such_component": 1}, "no_such_component"),
])
def test_a_component_correction_the_wizard_would_refuse_is_refused(
        here: TinyDBStore, correction: dict[str, Any], field: str) -> None:
    with pytest.raises(ComponentProblem):  # what the wizard says of the same value
        for key, value in correction.items():
            VillageService(TinyDBStore(here.root.parent / "wizard")).correct(
                "big-box", key, value)
    err = _refused(here, _empty(**{calibration_key("big-box"): correction}), "correction")
    assert err.params["edition"] == "big-box" and field in err.params["detail"]
    VillageService(here).create(_setup(seed=4))  # new games of the edition still start


def test_sound_corrections_and_settings_are_imported(here: TinyDBStore) -> None:
    report = import_backup(here, _empty(**{calibration_key("2011"): {"start_coins": 7},
                                           "app.language": "ko", "app.theme": "light"}))
    assert set(report.settings_imported) == {calibration_key("2011"), "app.language"}
    assert report.settings_kept == ["app.theme"]
    assert VillageService(here).components("2011").v("start_coins") == 7


def test_the_app_setting_values_are_the_app_s_own() -> None:
    from companion.app import settings as app

    assert APP_SETTING_VALUES["app.theme"] == tuple(app.ThemeChoice)
    assert APP_SETTING_VALUES["game.karla_policy"] == tuple(app.KarlaPolicy)
    assert APP_SETTING_VALUES["game.cube_display"] == tuple(app.CubeDisplay)
    assert set(APP_SETTING_VALUES) == set(app._FIELD_BY_KEY)


# --------------------------------------------------------------------------- games


def test_a_game_that_cannot_be_replayed_is_not_imported_and_says_why(
        here: TinyDBStore, source: dict[str, Any]) -> None:
    before = _state(here)
    bad = copy.deepcopy(source)
    village = bad["games"][0]
    village["events"][5]["body"] = {"nonsense": True}
    tally = bad["games"][1]
    tally["header"]["setup"]["game"] = "small-city"  # not the game it is stored as
    newer = copy.deepcopy(source["games"][0])
    newer["id"], newer["header"]["engine"] = "newer-one", 99
    bad["games"].append(newer)
    report = import_backup(here, json.dumps(bad))
    assert report.imported == []
    assert set(report.not_imported) == {village["id"], tally["id"], "newer-one"}
    assert report.not_imported[village["id"]].code == "not_replayable"
    assert report.not_imported[village["id"]].detail  # the engine's words
    assert report.not_imported[village["id"]].title == village["title"]
    assert report.not_imported[tally["id"]].code == "not_replayable"
    assert report.not_imported["newer-one"].code == "newer_engine"
    assert report.not_imported["newer-one"].params == {"version": 99, "supported": 2}
    assert _state(here) == before  # nothing stored to be set aside at its first open


def test_a_partly_refused_import_keeps_the_sound_games(
        here: TinyDBStore, source: dict[str, Any]) -> None:
    bad = copy.deepcopy(source)
    bad["games"][1]["events"].append({"type": "no-such-edit"})
    report = import_backup(here, json.dumps(bad))
    assert report.imported == [source["games"][0]["id"]]
    assert list(report.not_imported) == [source["games"][1]["id"]]
    VillageService(here).open(source["games"][0]["id"])


def test_an_unknown_game_is_not_imported(here: TinyDBStore,
                                         source: dict[str, Any]) -> None:
    bad = copy.deepcopy(source)
    bad["games"][1]["game"] = "chess"
    report = import_backup(here, json.dumps(bad))
    assert report.not_imported[source["games"][1]["id"]].code == "unknown_game"


# --------------------------------------------------------------------------- malformed


@pytest.mark.parametrize("depth", [100, 10_000])
def test_a_deeply_nested_file_is_refused_in_words(here: TinyDBStore, depth: int) -> None:
    nested = "[" * depth + "]" * depth
    data = json.dumps({"format": FORMAT, "version": 1, "games": [],
                       "settings": {}})[:-1] + f', "x": {nested}}}'
    err = _refused(here, data, "too_deep")
    assert err.params == {"limit": 64}
    _refused(here, "[" * depth + "]" * depth, "too_deep")
