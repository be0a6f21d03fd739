"""The BG Stats createPlay link: the URL, and the JSON against the shape in bgstats.py."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

from companion.history.bgstats import CREATE_PLAY_URL, bgg_ids, create_play_link, play_data
from companion.history.records import GameRecord, build_record, build_records
from companion.store.memory import MemoryStore
from companion.village.service import VillageService
from tests.history.helpers import finished_tally, finished_village, info, solo, tally, village

TOP = {"sourceName": str, "sourcePlayId": str, "playDate": str, "durationMin": int,
       "game": dict, "players": list, "comments": str}
REQUIRED_TOP = {"sourceName", "sourcePlayId", "playDate", "game", "players"}
GAME = {"name": str, "sourceGameId": str, "bggId": int, "highestWins": bool,
        "noPoints": bool}
REQUIRED_GAME = {"name", "sourceGameId", "highestWins", "noPoints"}
PLAYER = {"name": str, "sourcePlayerId": str, "score": int, "rank": int, "winner": bool,
          "startPlayer": bool, "role": str}
REQUIRED_PLAYER = {"name", "sourcePlayerId", "winner"}


def _check_shape(data: dict[str, Any]) -> None:
    assert REQUIRED_TOP <= set(data) <= set(TOP)
    for key, kind in TOP.items():
        if key in data:
            assert type(data[key]) is kind, key
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", data["playDate"])
    assert REQUIRED_GAME <= set(data["game"]) <= set(GAME)
    assert all(type(data["game"][k]) is t for k, t in GAME.items() if k in data["game"])
    for player in data["players"]:
        assert REQUIRED_PLAYER <= set(player) <= set(PLAYER)
        assert all(type(player[k]) is t for k, t in PLAYER.items() if k in player)


def _decode(link: str) -> dict[str, Any]:
    parts = urlsplit(link)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == CREATE_PLAY_URL
    (payload,) = parse_qs(parts.query)["data"]
    data: dict[str, Any] = json.loads(payload)
    return data


def _record(summary: dict[str, Any], game: str = "village") -> GameRecord:
    return build_record(info("a1b2c3", summary, game=game))


def test_a_village_game_with_everything_known() -> None:
    summary = village({"Zoë": 61, "Bo": 50}, day="2024-06-03", start="Bo", minutes=83,
                      edition="2011")
    summary["colours"] = {"Zoë": "red", "Bo": "blue"}
    rec = _record(summary)
    link = create_play_link(rec)
    assert " " not in link and "&" not in link.split("?", 1)[1]
    data = _decode(link)
    _check_shape(data)
    assert data == {
        "sourceName": "Village Companion", "sourcePlayId": "a1b2c3",
        "playDate": "2024-06-03 18:00:00", "durationMin": 83,  # the start, not the end
        "game": {"name": "Village", "sourceGameId": "village-2011", "bggId": 104006,
                 "highestWins": True, "noPoints": False},
        "players": [
            {"name": "Zoë", "sourcePlayerId": "zoe", "score": 61, "rank": 1,
             "winner": True, "startPlayer": False, "role": "red"},
            {"name": "Bo", "sourcePlayerId": "bo", "score": 50, "rank": 2,
             "winner": False, "startPlayer": True, "role": "blue"}]}
    assert play_data(rec) == data


def test_each_game_and_edition_is_its_own_bg_stats_game() -> None:
    def game_of(summary: dict[str, Any], game: str = "village") -> dict[str, Any]:
        data = play_data(_record(summary, game))
        _check_shape(data)
        return dict(data["game"])

    big_box = game_of(village({"Ann": 3, "Bo": 2}))
    assert big_box["name"] == "Village: Big Box" and big_box["sourceGameId"] == \
        "village-big-box"
    assert "bggId" not in big_box  # its id is only an estimate (bgg_ids.json)
    assert bgg_ids()["village/big-box"].status == "estimate"
    old = game_of(village({"Ann": 3, "Bo": 2}, edition=None))
    assert old == {"name": "Village", "sourceGameId": "village", "highestWins": True,
                   "noPoints": False}
    assert game_of(village({"Ann": 3, "Bo": 2}, edition="2011"))["bggId"] == 104006
    for game, name in (("small-city", "Small City"), ("feudum", "Feudum"),
                       ("villagers", "Villagers")):
        assert game_of(tally(game, {"Ann": 1, "Bo": 2}, ["Bo"]), game) == {
            "name": name, "sourceGameId": game, "highestWins": True, "noPoints": False}
    # Every id kept has its provenance; only confirmed ids are sent.
    for key, entry in bgg_ids().items():
        assert entry.provenance == "BoardGameGeek" and entry.ref, key
        assert entry.status in ("confirmed", "estimate", "unknown")
        assert (entry.bgg_id is None) == (entry.status == "unknown"), key


def test_unknowns_are_left_out() -> None:
    rec = _record(tally("small-city", {"Ann": 22, "Bo": "—"}, ["Ann"], day="2024-02-01"),
                  game="small-city")
    data = _decode(create_play_link(rec, {"Ann": "Annie"}))
    _check_shape(data)
    assert "durationMin" not in data and data["playDate"] == "2024-02-01 12:00:00"
    assert data["players"] == [
        {"name": "Ann", "sourcePlayerId": "annie", "score": 22, "rank": 1, "winner": True},
        {"name": "Bo", "sourcePlayerId": "bo", "winner": False}]
    assert "comments" not in data


def test_a_solo_game_says_karla_the_result_and_the_achievement() -> None:
    summary = solo("Dana", 47, "traveller", day="2024-03-01", variant="d4", policy="auto",
                   minutes=4)
    summary["karla_colour"] = "purple"
    summary["colours"] = {"Dana": "blue"}
    data = _decode(create_play_link(_record(summary)))
    _check_shape(data)
    # Started 03:19, finished 03:23: logged at the start, four minutes long.
    assert data["playDate"] == "2024-03-01 03:19:00" and data["durationMin"] == 4
    assert data["players"] == [{"name": "Dana", "sourcePlayerId": "dana", "score": 47,
                                "winner": True, "role": "blue"}]
    assert data["comments"] == (
        "Solo against Karla: won, traveller (47 points). Karla scores no points "
        "(rulebook). Her colour: purple; her cubes: four-sided die; chosen by: the app.")
    lost = play_data(_record(solo("Dana", 31, "apprentice", day="2024-03-01")))
    assert lost["players"][0]["winner"] is False
    assert lost["comments"].startswith("Solo against Karla: lost, apprentice (31 points).")
    # In the player's words, when the app passes its translator.
    words = play_data(_record(summary), say=lambda key, **p: f"{key}|{sorted(p.items())}",
                      term=lambda kind, value: f"<{kind}:{value}>")
    assert words["comments"].startswith(
        "history.bgstats.solo.won|[('achievement', '<achievement:traveller>'), "
        "('score', '47')]")
    assert words["players"][0]["role"] == "<colour:blue>"


def test_the_assistants_send_their_start_and_duration() -> None:
    summary = tally("villagers", {"Ann": 30, "Bo": 8}, ["Ann"], day="2024-05-02")
    summary["started_at"] = "2024-05-02T19:05:00.000Z"
    summary["ended_at"] = "2024-05-02T20:17:30.000Z"
    data = play_data(_record(summary, "villagers"))
    assert data["playDate"] == "2024-05-02 19:05:00" and data["durationMin"] == 72


def test_stored_games_carry_their_times_and_colours() -> None:
    store = MemoryStore()
    city = finished_tally(store, "villagers", ["Ann", "Bo"])
    sid = finished_village(VillageService(store), ["Dana"], seed=3, solo_game=True)
    records = {r.id: r for r in build_records(store.list_sessions()).records}
    assistant = play_data(records[city])
    assert records[city].started_at is not None and records[city].ended_at is not None
    assert assistant["durationMin"] == 0 and not assistant["playDate"].endswith("12:00:00")
    village_solo = play_data(records[sid])
    assert village_solo["players"][0]["role"] == "blue"  # finished_village's colours
    assert village_solo["game"]["sourceGameId"] == "village-big-box"
    assert "Karla" in village_solo["comments"] and "purple" in village_solo["comments"]
