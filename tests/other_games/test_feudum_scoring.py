"""Feudum final sheet through `score_payload`."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.validation import InputProblems
from companion.feudum.scoring import score_payload


def _p(name: str, vp: int, sulfur: int = 0, **extra: Any) -> dict[str, Any]:
    return {"name": name, "vp": vp, "sulfur": sulfur, **extra}


def _score(*players: dict[str, Any]) -> Any:
    return score_payload({"game": "feudum", "players": list(players)})


def test_brief_example() -> None:
    sheet = _score(
        _p("Ann", 80, 2, journey={"stage": 2, "position": 3},
           ruled={"outpost": 1, "farm": 3, "town": 0, "fief": 1}, shillings=7, decrees=[5]),
        _p("Bob", 70, 1, journey={"stage": 2, "position": 1}),
    )
    ann, bob = sheet.players
    assert ann.categories == {"vp": 80, "journey": 9, "empire": 10, "shillings": 2,
                              "decrees": 5}
    assert ann.total == 106
    assert bob.categories == {"vp": 70, "journey": 7, "empire": 0, "shillings": 0,
                              "decrees": 0}
    assert sheet.winners == ["Ann"]


def test_defaults_for_optional_parts() -> None:
    sheet = _score(_p("Ann", 10), _p("Bob", 12))
    assert sheet.players[0].categories == {"vp": 10, "journey": 0, "empire": 0,
                                           "shillings": 0, "decrees": 0}
    assert [p.rank for p in sheet.players] == [2, 1]


def test_tie_goes_to_most_sulfur() -> None:
    sheet = _score(_p("Ann", 50, 1), _p("Bob", 50, 3), _p("Cy", 10, 3))
    assert [p.rank for p in sheet.players] == [2, 1, 3]
    assert sheet.winners == ["Bob"]
    assert sheet.players[0].tiebreak == (
        "Tied on 50 with Bob; most sulfur in the wine cask (Ann 1, Bob 3) decided.")


def test_equal_sulfur_shares_the_victory() -> None:
    sheet = _score(_p("Ann", 50, 2), _p("Bob", 50, 2))
    assert [p.rank for p in sheet.players] == [1, 1]
    assert sheet.winners == ["Ann", "Bob"]
    assert sheet.players[1].tiebreak == (
        "Tied on 50 with Ann; still level with Ann on sulfur 2, so rank 1 is shared.")


def _problems(*players: dict[str, Any]) -> list[str]:
    with pytest.raises(InputProblems) as err:
        _score(*players)
    return err.value.lines


def test_journey_position_rules() -> None:
    assert _problems(_p("Ann", 1, journey={"stage": 0, "position": 2}), _p("Bob", 1)) == [
        "players[0].journey.position: must be 0 when stage is 0 (the disc is not on the "
        "journey track)"]
    assert _problems(_p("Ann", 1), _p("Bob", 1, journey={"stage": 2, "position": 0})) == [
        "players[1].journey.position: must be at least 1 when stage is 2 (spaces are "
        "counted from 1)"]
    assert _problems(_p("Ann", 1), _p("Bob", 1, journey={"stage": 4, "position": 3})) == [
        "players[1].journey.position: must be 1 when stage is 4 (the monastery is a single "
        "space)"]
    assert _problems(_p("Ann", 1), _p("Bob", 1, journey={"stage": 5, "position": 1})) == [
        "players[1].journey.stage: must be at most 4"]


def test_printed_limits() -> None:
    lines = _problems(
        _p("Ann", 1, sulfur=4, decrees=[1, 2, 3, 4]),
        _p("Bob", 1, ruled={"outpost": 6, "farm": 6, "town": 0, "fief": 13}),
    )
    assert lines == [
        "players[0].sulfur: must be at most 3 (the wine cask holds 3 sulfur)",
        "players[0].decrees: must list at most 3 cards (a player never holds more than 3 "
        "royal decrees)",
        "players[1].ruled.fief: must be at most 12 (the game has 12 fief discs)",
        "players[1].ruled: must add up to at most 22 locations (the map has 22 location "
        "spaces), not 25",
    ]


def test_negative_vp_is_accepted() -> None:
    # Disloyalty can take a vassal below 0 VP; the seed sets no floor (L446-L450).
    sheet = _score(_p("Ann", -12), _p("Bob", -3))
    assert [p.categories["vp"] for p in sheet.players] == [-12, -3]
    assert [p.total for p in sheet.players] == [-12, -3] and sheet.winners == ["Bob"]


def test_shape_problems_name_their_fields() -> None:
    lines = _problems(
        _p("Ann", 2.5, ruled={"castle": 1}, decrees=[2, "x"]),  # type: ignore[arg-type]  # bad VP on purpose
        {"name": "Bob", "journey": {"stage": 1, "position": 1.5}},
    )
    assert lines == [
        "players[0].vp: must be a whole number",
        "players[0].ruled.castle: is not a known field",
        "players[0].decrees[1]: must be a whole number",
        "players[1].vp: is required",
        "players[1].journey.position: must be a whole number",
    ]


def test_player_count() -> None:
    assert _problems(_p("Ann", 1)) == ["players: must list 2 to 5 players, not 1"]
    assert _problems(*[_p(n, 1) for n in "ABCDEF"]) == [
        "players: must list 2 to 5 players, not 6"]


def test_rule_checks_run_on_players_whose_shape_is_right() -> None:
    # One run reports everything: Bob's shape problem, Ann's and Cy's rule problems.
    lines = _problems(
        _p("Ann", 1, sulfur=4),
        {"name": "Bob", "vp": "1"},
        _p("Cy", 1, journey={"stage": 4, "position": 2}),
    )
    assert lines == [
        "players[0].sulfur: must be at most 3 (the wine cask holds 3 sulfur)",
        "players[1].vp: must be a whole number",
        "players[2].journey.position: must be 1 when stage is 4 (the monastery is a single "
        "space)",
    ]


def test_roster_is_checked_alongside_shape_problems() -> None:
    assert _problems({"name": "Ann", "vp": True}) == [
        "players: must list 2 to 5 players, not 1",
        "players[0].vp: must be a whole number",
    ]
    assert _problems(_p("Ann", 1), {"name": "ann", "vp": 1, "colour": "red"}) == [
        "players[1].colour: is not a known field",
        "players[1].name: must be unique (players[0] is also called 'ann')",
    ]
