"""`village-companion score FILE --json` for the three games, and exit code 2 on bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main

GAMES: dict[str, dict[str, Any]] = {
    "small-city": {"game": "small-city", "players": [
        {"name": "Ann", "votes": 58, "pollution": 22, "money": 5,
         "promises": [{"value": 12, "fulfilled": True}]},
        {"name": "Bob", "votes": 70, "pollution": 100, "money": 9, "promises": []},
        {"name": "Cy", "votes": 52, "pollution": 10, "money": 1,
         "promises": [{"value": 6, "fulfilled": False}]},
    ]},
    "feudum": {"game": "feudum", "players": [
        {"name": "Ann", "vp": 80, "journey": {"stage": 2, "position": 3},
         "ruled": {"outpost": 1, "farm": 3, "town": 0, "fief": 1}, "shillings": 7,
         "decrees": [5], "sulfur": 2},
        {"name": "Bob", "vp": 90, "journey": {"stage": 4, "position": 1},
         "ruled": {"outpost": 0, "farm": 0, "town": 1, "fief": 0}, "shillings": 2,
         "decrees": [], "sulfur": 0},
    ]},
    "villagers": {"game": "villagers", "players": [
        {"name": "Ann", "money": 74, "villagers": 23},
        {"name": "Bob", "money": 74, "villagers": 20},
    ]},
}


def _write(tmp_path: Path, payload: dict[str, Any]) -> str:
    path = tmp_path / "score.json"
    path.write_text(json.dumps(payload), "utf-8")
    return str(path)


def _run_json(tmp_path: Path, capsys: pytest.CaptureFixture[str],
              payload: dict[str, Any]) -> dict[str, Any]:
    assert main(["score", _write(tmp_path, payload), "--json"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


@pytest.mark.parametrize("game", sorted(GAMES))
def test_json_shape(game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _run_json(tmp_path, capsys, GAMES[game])
    assert set(out) == {"game", "players", "winners"}
    assert out["game"] == game
    names = [p["name"] for p in GAMES[game]["players"]]
    assert [p["name"] for p in out["players"]] == names
    for p in out["players"]:
        assert {"name", "categories", "total", "rank"} <= set(p) <= {
            "name", "categories", "total", "rank", "eliminated", "achievement"}
        assert all(isinstance(v, int) for v in p["categories"].values())
    assert set(out["winners"]) <= set(names)


def test_small_city_json_values(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _run_json(tmp_path, capsys, GAMES["small-city"])
    ann, bob, cy = out["players"]
    assert ann == {"name": "Ann", "categories": {"votes": 58, "promises": 12, "pollution": -22},
                   "total": 48, "rank": 1}
    assert bob["eliminated"] is True and bob["total"] is None and bob["rank"] is None
    assert cy["total"] == 52 - 3 - 10 and cy["rank"] == 2
    assert out["winners"] == ["Ann"]


def test_feudum_json_values(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _run_json(tmp_path, capsys, GAMES["feudum"])
    ann, bob = out["players"]
    assert ann["categories"] == {"vp": 80, "journey": 9, "empire": 10, "shillings": 2,
                                 "decrees": 5}
    assert bob["categories"] == {"vp": 90, "journey": 17, "empire": 1, "shillings": 0,
                                 "decrees": 0}
    assert out["winners"] == ["Bob"]


def test_villagers_json_values(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _run_json(tmp_path, capsys, GAMES["villagers"])
    assert [p["rank"] for p in out["players"]] == [2, 1]
    assert out["winners"] == ["Bob"]


def test_table_prints_tiebreak_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", _write(tmp_path, GAMES["villagers"])]) == 0
    out = capsys.readouterr().out
    assert "villagers: winner: Bob" in out
    assert "  Bob: Tied on 74 with Ann; fewest villagers (Bob 20, Ann 23) decided." in out


@pytest.mark.parametrize(
    ("payload", "lines"),
    [
        ({"game": "small-city", "players": [
            {"name": "Ann", "votes": 1, "pollution": 1, "money": 1,
             "promises": [{"value": 9, "fulfilled": True}]},
            {"name": "Bob", "votes": -1, "pollution": 1, "money": 1}]},
         # the shape problem does not hide the rule problem of a well-formed player
         ["players[0].promises[0].value: must be one of 6, 12, 18, not 9",
          "players[1].votes: must be at least 0"]),
        ({"game": "small-city", "players": [
            {"name": "Ann", "votes": 1, "pollution": 1, "money": 1,
             "promises": [{"value": 9, "fulfilled": True}]},
            {"name": "Bob", "votes": 1, "pollution": 1, "money": 1}]},
         ["players[0].promises[0].value: must be one of 6, 12, 18, not 9"]),
        ({"game": "feudum", "players": [
            {"name": "Ann", "vp": 1, "journey": {"stage": 0, "position": 4}},
            {"name": "Bob", "vp": 1, "sulfur": 5}]},
         ["players[0].journey.position: must be 0 when stage is 0 (the disc is not on the "
          "journey track)",
          "players[1].sulfur: must be at most 3 (the wine cask holds 3 sulfur)"]),
        ({"game": "villagers", "players": [{"name": "Ann", "money": "74", "villagers": 3}]},
         ["players[0].money: must be a whole number"]),
        ({"game": "small-city", "extra": 1, "players": [
            {"name": "Ann", "votes": 1, "pollution": 1, "money": 1,
             "promises": [{"value": 7, "fulfilled": True}, {"value": 6}]}]},
         ["extra: is not a known field",
          "players: must list 2 to 4 players, not 1",
          "players[0].promises[1].fulfilled: is required"]),
        ({"game": "feudum", "players": [
            {"name": "Ann", "vp": -7, "sulfur": 9},
            {"name": "Bob", "vp": 1, "ruled": {"fief": "1"}},
            {"name": "Cy", "vp": 1, "journey": {"stage": 2, "position": 0}}]},
         ["players[0].sulfur: must be at most 3 (the wine cask holds 3 sulfur)",
          "players[1].ruled.fief: must be a whole number",
          "players[2].journey.position: must be at least 1 when stage is 2 (spaces are "
          "counted from 1)"]),
    ],
)
def test_bad_input_exits_2_with_field_lines(
    payload: dict[str, Any], lines: list[str], tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["score", _write(tmp_path, payload), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == lines


# The issue's own example files, verbatim: a single player.
ISSUE_EXAMPLES: dict[str, dict[str, Any]] = {
    "small-city": {"game": "small-city", "players": [
        {"name": "Ann", "votes": 58, "pollution": 22, "money": 5,
         "promises": [{"value": 12, "fulfilled": True}]}]},
    "feudum": {"game": "feudum", "players": [
        {"name": "Ann", "vp": 80, "journey": {"stage": 2, "position": 3},
         "ruled": {"outpost": 1, "farm": 3, "town": 0, "fief": 1},
         "shillings": 7, "decrees": [5], "sulfur": 2}]},
    "villagers": {"game": "villagers", "players": [{"name": "Ann", "money": 74,
                                                    "villagers": 23}]},
}


@pytest.mark.parametrize(("game", "line"), [
    ("small-city", "players: must list 2 to 4 players, not 1"),
    ("feudum", "players: must list 2 to 5 players, not 1"),
])
def test_issue_examples_need_a_second_player(
    game: str, line: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    # Small City is for 2-4 players and Feudum for 2-5: the refusal names the minimum.
    assert main(["score", _write(tmp_path, ISSUE_EXAMPLES[game]), "--json"]) == 2
    assert capsys.readouterr().err.splitlines() == [line]
    two = {**ISSUE_EXAMPLES[game], "players": [
        *ISSUE_EXAMPLES[game]["players"], {**ISSUE_EXAMPLES[game]["players"][0], "name": "Bo"}]}
    out = _run_json(tmp_path, capsys, two)
    assert [p["name"] for p in out["players"]] == ["Ann", "Bo"]


def test_issue_villagers_example_is_a_solo_game(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = _run_json(tmp_path, capsys, ISSUE_EXAMPLES["villagers"])
    assert out == {"game": "villagers", "players": [
        {"name": "Ann", "categories": {"money": 74}, "total": 74, "rank": 1}],
        "winners": ["Ann"]}
