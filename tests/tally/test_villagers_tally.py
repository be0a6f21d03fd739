"""Villagers tally reducer: limits, unlock fees, markets, sheet."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.tally.errors import EditRejected
from companion.villagers.tally import next_market

from .helpers import cli_json, new


def test_limits_follow_food_and_builders() -> None:
    s = new("villagers", "Ann")
    s.apply(s.read_edit({"type": "set", "player": 0, "field": "food", "value": 2}))
    s.apply(s.read_edit({"type": "set", "player": 0, "field": "builders", "value": 7}))
    row = s.state.players[0]
    assert (row.draft_limit, row.build_limit, row.money) == (4, 5, 8)


def test_unlock_fees_land_on_the_unlocking_card() -> None:
    s = new("villagers", "Ann", "Bo")
    s.apply(s.read_edit({"type": "unlock", "player": 0, "owner": 0}))  # own unlocker: bank pays
    s.apply(s.read_edit({"type": "unlock", "player": 1, "owner": 0}))  # Bo pays onto Ann's card
    s.apply(s.read_edit({"type": "unlock", "player": 1}))  # nobody has one: Bo pays the bank
    ann, bo = s.state.players
    assert (ann.money, ann.coins_on_cards, bo.money, bo.coins_on_cards) == (8, 4, 4, 0)
    s.apply(s.read_edit({"type": "set", "player": 1, "field": "money", "value": 1}))
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "unlock", "player": 1, "owner": 0}))
    assert caught.value.fields == ["player"]
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "unlock", "player": 1, "owner": 5}))
    assert caught.value.fields == ["owner"]


def test_two_markets_in_order() -> None:
    s = new("villagers", "Ann", "Bo")
    s.apply(s.read_edit({"type": "unlock", "player": 0, "owner": 0}))
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "market", "which": 2,
                             "players": [{"player": 0}, {"player": 1}]}))
    assert caught.value.lines == ["which: the next market is market 1, not 2"]
    s.apply(s.read_edit({"type": "market", "which": 1, "players": [
        {"player": 0, "gold_icons": 5, "coins_on_cards": 2,
         "silver": [{"coins_each": 3, "count": 2}]},
        {"player": 1, "gold_icons": 1}]}))
    ann, bo = s.state.players
    assert (ann.money, ann.coins_on_cards, bo.money) == (15, 2, 9)  # no silver yet
    assert next_market(s.state) == 2
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "market", "which": 2, "players": [
            {"player": 0, "silver": [{"coins_each": 3, "count": -1}]}, {"player": 1}]}))
    assert caught.value.fields == ["players[0].silver[0].count"]
    s.apply(s.read_edit({"type": "market", "which": 2, "players": [
        {"player": 0, "gold_icons": 5, "coins_on_cards": 2,
         "silver": [{"coins_each": 3, "count": 2}]},
        {"player": 1, "gold_icons": 1}]}))
    ann = s.state.players[0]
    assert (ann.money, ann.coins_on_cards) == (15 + 5 + 6 + 2, 0)
    assert next_market(s.state) is None
    with pytest.raises(EditRejected, match="both markets"):
        s.apply(s.read_edit({"type": "market", "which": 2,
                             "players": [{"player": 0}, {"player": 1}]}))


def test_sheet_matches_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s = new("villagers", "Ann", "Bo", "Cy")
    for player, (money, villagers) in enumerate(((74, 23), (74, 20), (60, 10))):
        s.apply(s.read_edit({"type": "set", "player": player, "field": "money", "value": money}))
        s.apply(s.read_edit({"type": "set", "player": player, "field": "villagers",
                             "value": villagers}))
    payload = s.rules.score_payload(s.state)
    assert s.sheet().to_json() == cli_json(payload, tmp_path, capsys)
    assert s.sheet().winners == ["Bo"]
