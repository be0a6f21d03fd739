"""Villagers helpers and final ranking, checked against the seed (003_848d660789e912b9.txt)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from companion.core.validation import InputProblems
from companion.villagers.limits import build_limit, draft_limit
from companion.villagers.market import (
    MarketTally,
    SilverFormula,
    first_market,
    second_market,
    unlock_transfer,
)
from companion.villagers.scoring import score_payload


def test_draft_limit_is_two_plus_food_at_most_five() -> None:
    assert [draft_limit(f) for f in range(6)] == [2, 3, 4, 5, 5, 5]
    with pytest.raises(ValueError):
        draft_limit(-1)


def test_build_limit_is_two_plus_builders_at_most_five() -> None:
    assert [build_limit(b) for b in range(6)] == [2, 3, 4, 5, 5, 5]
    with pytest.raises(ValueError):
        build_limit(-1)


def _tally() -> MarketTally:
    return MarketTally(name="Ann", gold_icons=7, coins_on_cards=4, silver=[
        SilverFormula(coins_each=3, count=2, label="builders"),
        SilverFormula(coins_each=1, count=5, label="grain"),
    ])


def test_first_market_pays_gold_and_coins_only() -> None:
    (income,) = first_market([_tally()])
    assert (income.gold, income.coins, income.silver, income.total) == (7, 4, 0, 11)
    assert income.coins_stay_on_cards


def test_second_market_adds_silver_formulas() -> None:
    (income,) = second_market([_tally()])
    assert (income.gold, income.coins, income.silver, income.total) == (7, 4, 11, 22)
    assert not income.coins_stay_on_cards


def test_market_tally_is_strict() -> None:
    with pytest.raises(ValidationError):
        MarketTally.model_validate({"name": "Ann", "gold_icons": -1})


def test_unlock_transfer() -> None:
    own = unlock_transfer(owns_unlocker=True, others_own_unlocker=True)
    assert (own.source, own.destination, own.amount) == ("bank", "own unlocker", 2)
    other = unlock_transfer(owns_unlocker=False, others_own_unlocker=True)
    assert (other.source, other.destination) == ("player", "other unlocker")
    nobody = unlock_transfer(owns_unlocker=False, others_own_unlocker=False)
    assert (nobody.source, nobody.destination) == ("player", "bank")


def _score(*players: dict[str, Any]) -> Any:
    return score_payload({"game": "villagers", "players": list(players)})


def test_most_money_wins() -> None:
    sheet = _score({"name": "Ann", "money": 74, "villagers": 23},
                   {"name": "Bob", "money": 80, "villagers": 30})
    assert sheet.players[0].categories == {"money": 74}
    assert sheet.players[0].total == 74
    assert [p.rank for p in sheet.players] == [2, 1]
    assert sheet.winners == ["Bob"]


def test_tie_goes_to_fewest_villagers() -> None:
    sheet = _score({"name": "Ann", "money": 74, "villagers": 23},
                   {"name": "Bob", "money": 74, "villagers": 20})
    assert [p.rank for p in sheet.players] == [2, 1]
    assert sheet.players[1].tiebreak == (
        "Tied on 74 with Ann; fewest villagers (Bob 20, Ann 23) decided.")


def test_still_tied_share() -> None:
    sheet = _score({"name": "Ann", "money": 74, "villagers": 20},
                   {"name": "Bob", "money": 74, "villagers": 20},
                   {"name": "Cy", "money": 50, "villagers": 3})
    assert [p.rank for p in sheet.players] == [1, 1, 3]
    assert sheet.winners == ["Ann", "Bob"]


def test_solo_game_is_allowed() -> None:
    sheet = _score({"name": "Ann", "money": 30, "villagers": 12})
    assert sheet.winners == ["Ann"]


def test_invalid_input_names_fields() -> None:
    with pytest.raises(InputProblems) as err:
        _score({"name": "Ann", "money": 1.5, "villagers": -2, "food": 3})
    assert err.value.lines == [
        "players[0].money: must be a whole number",
        "players[0].villagers: must be at least 0",
        "players[0].food: is not a known field",
    ]
    with pytest.raises(InputProblems) as err:
        _score(*[{"name": n, "money": 1, "villagers": 1} for n in "ABCDEF"])
    assert err.value.lines == ["players: must list 1 to 5 players, not 6"]
