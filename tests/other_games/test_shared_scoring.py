"""The helpers shared by the three games: strict inputs, roster checks, tie-break ranking."""

from __future__ import annotations

import pytest

from companion.core.validation import InputProblems
from companion.scoring.inputs import (
    Count,
    StrictModel,
    parse_payload,
    parse_players_payload,
    roster_problems,
)
from companion.scoring.tiebreak import TieKey, break_ties


class _Thing(StrictModel):
    n: Count


@pytest.mark.parametrize(
    ("value", "line"),
    [
        (True, "n: must be a whole number"),
        ("3", "n: must be a whole number"),
        (2.0, "n: must be a whole number"),
        (-1, "n: must be at least 0"),
    ],
)
def test_count_is_strict_and_non_negative(value: object, line: str) -> None:
    with pytest.raises(InputProblems) as err:
        parse_payload(_Thing, {"n": value})
    assert err.value.lines == [line]


def test_unknown_field_is_refused() -> None:
    with pytest.raises(InputProblems) as err:
        parse_payload(_Thing, {"n": 1, "m": 2})
    assert err.value.lines == ["m: is not a known field"]


def test_rule_checks_run_after_shape() -> None:
    with pytest.raises(InputProblems) as err:
        parse_payload(_Thing, {"n": 4}, lambda t: ["n: too big"] if t.n > 3 else [])
    assert err.value.lines == ["n: too big"]
    assert parse_payload(_Thing, {"n": 3}, lambda t: []).n == 3


class _Player(StrictModel):
    name: str
    n: Count


class _Sheet(StrictModel):
    players: list[_Player]


def _too_big(at: str, p: _Player) -> list[str]:
    return [f"{at}.n: too big"] if p.n > 3 else []


def test_players_payload_reports_shape_and_rule_problems_together() -> None:
    with pytest.raises(InputProblems) as err:
        parse_players_payload(_Sheet, _Player, {"players": [
            {"name": "A", "n": 4}, {"name": "B", "n": -1}, {"n": 9}, {"name": "a", "n": 1}],
            "x": 0}, minimum=1, maximum=3, player_checks=_too_big)
    assert err.value.lines == [
        "x: is not a known field",
        "players: must list 1 to 3 players, not 4",
        "players[0].n: too big",
        "players[1].n: must be at least 0",
        "players[2].name: is required",  # no rule check on a malformed player
        "players[3].name: must be unique (players[0] is also called 'a')",
    ]
    ok = parse_players_payload(_Sheet, _Player, {"players": [{"name": "A", "n": 3}]},
                               minimum=1, maximum=3, player_checks=_too_big)
    assert ok.players[0].n == 3


def test_players_payload_when_players_is_not_a_list() -> None:
    with pytest.raises(InputProblems) as err:
        parse_players_payload(_Sheet, _Player, {"players": 3}, minimum=1, maximum=3)
    assert err.value.lines == ["players: must be a list"]


def test_roster_problems() -> None:
    assert roster_problems(["Ann", "Bob"], 2, 4) == []
    assert roster_problems(["Ann"], 2, 4) == ["players: must list 2 to 4 players, not 1"]
    assert roster_problems(["Ann", " "], 1, 4) == ["players[1].name: must not be empty"]
    assert roster_problems(["Ann", "ann"], 1, 4) == [
        "players[1].name: must be unique (players[0] is also called 'ann')"]
    assert roster_problems(["Ann", None, "ann"], 1, 4) == [  # None: name not given as text
        "players[2].name: must be unique (players[0] is also called 'ann')"]


def test_ranks_without_ties_have_no_notes() -> None:
    r = break_ties(["A", "B", "C"], [10, 30, 20])
    assert r.ranks == [3, 1, 2]
    assert r.notes == [None, None, None]


def test_tie_without_tiebreak_is_shared() -> None:
    r = break_ties(["A", "B", "C"], [30, 30, 20])
    assert r.ranks == [1, 1, 3]
    assert r.notes[0] == "Tied on 30 with B; there is no tie-break, so rank 1 is shared."
    assert r.notes[2] is None


def test_lower_wins_tiebreak_decides() -> None:
    tb = TieKey("pollution", [9, 4], higher_wins=False, label="lowest pollution")
    r = break_ties(["A", "B"], [30, 30], [tb])
    assert r.ranks == [2, 1]
    assert r.notes[1] == "Tied on 30 with A; lowest pollution (B 4, A 9) decided."


def test_second_tiebreak_used_only_when_first_is_level() -> None:
    first = TieKey("pollution", [5, 5, 5], higher_wins=False, label="lowest pollution")
    second = TieKey("money", [1, 3, 3], higher_wins=True, label="most money")
    r = break_ties(["A", "B", "C"], [30, 30, 30], [first, second])
    assert r.ranks == [3, 1, 1]
    assert r.notes[0] == "Tied on 30 with B, C; most money (A 1, B 3, C 3) decided."
    assert r.notes[1] == ("Tied on 30 with A, C; still level with C on pollution 5 and "
                          "money 3, so rank 1 is shared.")


def test_out_players_are_not_ranked() -> None:
    r = break_ties(["A", "B", "C"], [None, 5, 7])
    assert r.ranks == [None, 2, 1]
    assert r.notes == [None, None, None]


def test_tiebreak_needs_one_value_per_player() -> None:
    with pytest.raises(ValueError, match="one value per player"):
        break_ties(["A", "B"], [1, 1], [TieKey("x", [1], higher_wins=True, label="x")])
