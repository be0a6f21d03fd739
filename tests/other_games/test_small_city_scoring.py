"""Small City end-of-game sheet through `score_payload`."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.validation import InputProblems
from companion.small_city.scoring import score_payload


def _p(name: str, votes: int, pollution: int, money: int = 0,
       promises: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"name": name, "votes": votes, "pollution": pollution, "money": money,
            "promises": promises or []}


def _score(*players: dict[str, Any]) -> Any:
    return score_payload({"game": "small-city", "players": list(players)})


def test_brief_example_categories_and_total() -> None:
    sheet = _score(_p("Ann", 58, 22, 5, [{"value": 12, "fulfilled": True}]), _p("Bob", 40, 10))
    ann = sheet.players[0]
    assert ann.categories == {"votes": 58, "promises": 12, "pollution": -22}
    assert ann.total == 48
    assert ann.rank == 1
    assert sheet.players[1].total == 30
    assert sheet.winners == ["Ann"]


def test_failed_promises_subtract_by_value() -> None:
    sheet = _score(
        _p("Ann", 50, 0, 0, [{"value": 6, "fulfilled": False}, {"value": 18, "fulfilled": False},
                            {"value": 12, "fulfilled": True}]),
        _p("Bob", 50, 0, 0, [{"value": 18, "fulfilled": True}]),
    )
    assert sheet.players[0].categories["promises"] == -3 - 12 + 12
    assert sheet.players[1].categories["promises"] == 18
    assert [p.total for p in sheet.players] == [47, 68]


def test_players_keep_input_order() -> None:
    sheet = _score(_p("Low", 10, 0), _p("High", 90, 0), _p("Mid", 50, 0))
    assert [p.name for p in sheet.players] == ["Low", "High", "Mid"]
    assert [p.rank for p in sheet.players] == [3, 1, 2]


def test_pollution_100_is_out() -> None:
    sheet = _score(_p("Ann", 200, 100), _p("Bob", 30, 5), _p("Cy", 20, 5))
    ann = sheet.players[0]
    assert ann.eliminated
    assert ann.total is None
    assert ann.rank is None
    assert ann.categories == {"votes": 200, "promises": 0, "pollution": -100}
    assert sheet.winners == ["Bob"]
    assert [p.rank for p in sheet.players[1:]] == [1, 2]
    assert ann.to_json()["eliminated"] is True


def test_everyone_out_means_no_winner() -> None:
    sheet = _score(_p("Ann", 10, 100), _p("Bob", 10, 120))
    assert sheet.winners == []
    assert all(p.rank is None for p in sheet.players)


def test_tie_goes_to_lowest_pollution() -> None:
    # Both total 40; Bob has less pollution.
    sheet = _score(_p("Ann", 60, 20, 9), _p("Bob", 50, 10, 0))
    assert [p.rank for p in sheet.players] == [2, 1]
    assert sheet.winners == ["Bob"]
    assert sheet.players[1].tiebreak == (
        "Tied on 40 with Ann; lowest pollution (Bob 10, Ann 20) decided.")


def test_then_most_money() -> None:
    sheet = _score(_p("Ann", 50, 10, 3), _p("Bob", 50, 10, 8))
    assert [p.rank for p in sheet.players] == [2, 1]
    assert sheet.players[0].tiebreak == "Tied on 40 with Bob; most money (Ann 3, Bob 8) decided."


def test_still_tied_share_the_rank() -> None:
    sheet = _score(_p("Ann", 50, 10, 3), _p("Bob", 50, 10, 3), _p("Cy", 20, 0, 0))
    assert [p.rank for p in sheet.players] == [1, 1, 3]
    assert sheet.winners == ["Ann", "Bob"]
    assert sheet.players[0].tiebreak is not None
    assert "rank 1 is shared" in sheet.players[0].tiebreak
    assert sheet.players[2].tiebreak is None


def _problems(payload: dict[str, Any]) -> list[str]:
    with pytest.raises(InputProblems) as err:
        score_payload(payload)
    return err.value.lines


def test_promise_value_must_be_a_pile_value() -> None:
    lines = _problems({"game": "small-city", "players": [
        _p("Ann", 1, 1), _p("Bob", 1, 1, 0, [{"value": 6, "fulfilled": True},
                                             {"value": 10, "fulfilled": False}])]})
    assert lines == ["players[1].promises[1].value: must be one of 6, 12, 18, not 10"]


def test_shape_problems_name_their_fields() -> None:
    lines = _problems({"game": "small-city", "players": [
        {"name": "Ann", "votes": True, "pollution": -1, "money": "3",
         "promises": [{"value": 6, "fulfilled": 1}], "colour": "red"},
        {"name": "Bob", "votes": 3, "pollution": 0},
    ]})
    assert lines == [
        "players[0].votes: must be a whole number",
        "players[0].pollution: must be at least 0",
        "players[0].money: must be a whole number",
        "players[0].promises[0].fulfilled: must be true or false",
        "players[0].colour: is not a known field",
        "players[1].money: is required",
    ]


def test_player_count_and_names() -> None:
    assert _problems({"game": "small-city", "players": [_p("Ann", 1, 1)]}) == [
        "players: must list 2 to 4 players, not 1"]
    five = [_p(n, 1, 1) for n in "ABCDE"]
    assert _problems({"game": "small-city", "players": five}) == [
        "players: must list 2 to 4 players, not 5"]
    assert _problems({"game": "small-city", "players": [_p("Ann", 1, 1), _p("Ann", 2, 2)]}) == [
        "players[1].name: must be unique (players[0] is also called 'Ann')"]
