"""The BG Stats createPlay link: the URL, and the JSON against the shape in bgstats.py."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

from companion.history.bgstats import CREATE_PLAY_URL, create_play_link, play_data
from companion.history.records import GameRecord, build_record
from tests.history.helpers import info, solo, tally, village

TOP = {"sourceName": str, "sourcePlayId": str, "playDate": str, "durationMin": int,
       "game": dict, "players": list}
REQUIRED_TOP = {"sourceName", "sourcePlayId", "playDate", "game", "players"}
GAME = {"name": str, "sourceGameId": str}
PLAYER = {"name": str, "sourcePlayerId": str, "score": int, "rank": int, "winner": bool,
          "startPlayer": bool}
REQUIRED_PLAYER = {"name", "sourcePlayerId", "winner"}


def _check_shape(data: dict[str, Any]) -> None:
    assert REQUIRED_TOP <= set(data) <= set(TOP)
    for key, kind in TOP.items():
        if key in data:
            assert type(data[key]) is kind, key
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", data["playDate"])
    assert set(data["game"]) == set(GAME)
    assert all(type(data["game"][k]) is t for k, t in GAME.items())
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
    rec = _record(village({"Zoë": 61, "Bo": 50}, day="2024-06-03", start="Bo",
                          minutes=83))
    link = create_play_link(rec)
    assert " " not in link and "&" not in link.split("?", 1)[1]
    data = _decode(link)
    _check_shape(data)
    assert data == {
        "sourceName": "Village Companion", "sourcePlayId": "a1b2c3",
        "playDate": "2024-06-03 19:23:00", "durationMin": 83,
        "game": {"name": "Village", "sourceGameId": "village"},
        "players": [
            {"name": "Zoë", "sourcePlayerId": "zoe", "score": 61, "rank": 1,
             "winner": True, "startPlayer": False},
            {"name": "Bo", "sourcePlayerId": "bo", "score": 50, "rank": 2,
             "winner": False, "startPlayer": True}]}
    assert play_data(rec) == data


def test_unknowns_are_left_out() -> None:
    rec = _record(tally("small-city", {"Ann": 22, "Bo": "—"}, ["Ann"], day="2024-02-01"),
                  game="small-city")
    data = _decode(create_play_link(rec, {"Ann": "Annie"}))
    _check_shape(data)
    assert "durationMin" not in data and data["playDate"] == "2024-02-01 12:00:00"
    assert data["game"] == {"name": "Small City", "sourceGameId": "small-city"}
    assert data["players"] == [
        {"name": "Ann", "sourcePlayerId": "annie", "score": 22, "rank": 1, "winner": True},
        {"name": "Bo", "sourcePlayerId": "bo", "winner": False}]


def test_solo_has_one_player() -> None:
    data = _decode(create_play_link(_record(solo("Ann", 47, "traveller", day="2024-03-01"))))
    _check_shape(data)
    assert [p["name"] for p in data["players"]] == ["Ann"]
