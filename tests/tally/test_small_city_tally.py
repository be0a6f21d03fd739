"""Small City tally reducer: seats, picks, votes, trades, pollution, promises, sheet."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.small_city.tally import cost_for, next_mayor_clockwise, next_picker, pick_order
from companion.tally.errors import EditRejected

from .helpers import cli_json, new


def test_starting_money_follows_the_seat() -> None:
    s = new("small-city", "Ann", "Bo", "Cy", "Di")
    assert [p.money for p in s.state.players] == [4, 5, 5, 6]
    assert [p.seat for p in s.state.players] == [1, 2, 3, 4]


def test_picks_go_round_from_the_mayor_and_cost_skipped_free_cards() -> None:
    s = new("small-city", "Ann", "Bo", "Cy")
    s.apply(s.read_edit({"type": "mayor", "player": 1}))
    assert pick_order(s.state) == [1, 2, 0]
    s.apply(s.read_edit({"type": "pick", "player": 1, "position": 0}))  # the mayor picks free
    assert next_picker(s.state) == 2
    assert cost_for(s.state, 1) == 0 and cost_for(s.state, 7) == 0  # neighbours are free
    assert cost_for(s.state, 3) == 2
    s.apply(s.read_edit({"type": "pick", "player": 2, "position": 3}))
    # Previous pick is now 3; card 0 is taken, so going 3 -> 7 the short way skips 4, 5, 6
    # and the long way 2, 1 (0 is taken): $2.
    assert cost_for(s.state, 7) == 2
    s.apply(s.read_edit({"type": "pick", "player": 0, "position": 7}))
    assert [p.money for p in s.state.players] == [2, 5, 3]
    assert next_picker(s.state) is None
    with pytest.raises(EditRejected, match="everyone has picked"):
        s.apply(s.read_edit({"type": "pick", "player": 0, "position": 5}))
    s.apply(s.read_edit({"type": "step", "round": 2, "phase": 1}))  # a new round: a fresh circle
    assert next_picker(s.state) == 1


def test_pick_refusals_name_the_field() -> None:
    s = new("small-city", "Ann", "Bo")
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "pick", "player": 1, "position": 0}))
    assert caught.value.fields == ["player"] and "Ann's turn" in caught.value.lines[0]
    s.apply(s.read_edit({"type": "pick", "player": 0, "position": 0}))
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "pick", "player": 1, "position": 0}))
    assert caught.value.lines == ["position: card 0 is already taken"]
    s.apply(s.read_edit({"type": "set", "player": 1, "field": "money", "value": 1}))
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "pick", "player": 1, "position": 4}))
    assert caught.value.lines == ["position: costs $3 but Bo has $1"]
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "pick", "player": 1, "position": 8}))
    assert caught.value.fields == ["position"]


def test_voting_and_trades() -> None:
    s = new("small-city", "Ann", "Bo")
    s.apply(s.read_edit({"type": "vote", "player": 0, "residences": [1, 1, 3, 4],
                         "university": False}))
    assert s.state.players[0].votes == 18  # the seed's example (L214)
    s.apply(s.read_edit({"type": "vote", "player": 1, "residences": [5], "university": True}))
    assert s.state.players[1].votes == 18
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "vote", "player": 0, "residences": [2, 6]}))
    assert caught.value.fields == ["residences[1]"]
    s.apply(s.read_edit({"type": "trade", "player": 0, "kind": "money_to_votes", "dollars": 4}))
    assert (s.state.players[0].money, s.state.players[0].votes) == (0, 23)
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "trade", "player": 0, "kind": "money_to_votes", "dollars": 1}))
    assert caught.value.lines == ["dollars: the trade costs $1 but Ann has $0"]
    s.apply(s.read_edit({"type": "trade", "player": 0, "kind": "material_to_money",
                         "material": "black"}))
    s.apply(s.read_edit({"type": "trade", "player": 0, "kind": "material_to_votes",
                         "material": "grey"}))
    assert (s.state.players[0].money, s.state.players[0].votes) == (5, 28)
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "trade", "player": 0, "kind": "material_to_votes"}))
    assert caught.value.fields == ["material"]


def town(player: int, residents: int, materials: int = 0, parks: int = 0) -> dict[str, int]:
    return {"player": player, "residents": residents, "materials": materials, "parks": parks}


def test_pollution_ties_go_to_the_higher_level_then_everyone_tied() -> None:
    s = new("small-city", "Ann", "Bo", "Cy")
    s.apply(s.read_edit({"type": "set", "player": 0, "field": "pollution", "value": 8}))
    s.apply(s.read_edit({"type": "set", "player": 1, "field": "pollution", "value": 3}))
    s.apply(s.read_edit({"type": "pollution", "towns": [town(0, 4), town(1, 4), town(2, 2)]}))
    record = s.state.pollution_rounds[0]
    assert [t.level for t in record.towns] == [12, 7, 2]
    assert record.deaths_triggered and record.losers == [0]
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "pollution", "towns": [town(0, 1), town(1, 1), town(2, 1)]}))
    assert caught.value.fields == ["round"]
    s.apply(s.read_edit({"type": "step", "round": 2, "phase": 6}))
    s.apply(s.read_edit({"type": "set", "player": 1, "field": "pollution", "value": 12}))
    s.apply(s.read_edit({"type": "pollution", "towns": [town(0, 3), town(1, 3), town(2, 1)]}))
    assert s.state.pollution_rounds[1].losers == [0, 1]  # same produced, same level


def test_reaching_100_puts_a_player_out_project_interpretation_nobody_else_dies() -> None:
    s = new("small-city", "Ann", "Bo")
    s.apply(s.read_edit({"type": "set", "player": 1, "field": "pollution", "value": 95}))
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "pollution", "towns": [town(0, 1)]}))
    assert caught.value.fields == ["towns"]
    s.apply(s.read_edit({"type": "pollution", "towns": [town(0, 1), town(1, 6)]}))
    record = s.state.pollution_rounds[0]
    # Bo made the most and is out (every resident dies); project interpretation: Ann,
    # the next producer, does not lose one in Bo's place (see small_city/pollution.py).
    assert record.eliminated == [1] and record.losers == []
    assert s.state.players[1].out
    with pytest.raises(EditRejected, match="out of the game"):
        s.apply(s.read_edit({"type": "vote", "player": 1, "residences": [1]}))
    s.apply(s.read_edit({"type": "step", "round": 2, "phase": 1}))
    assert pick_order(s.state) == [0] and next_mayor_clockwise(s.state) == 0
    s.apply(s.read_edit({"type": "step", "round": 2, "phase": 6}))
    s.apply(s.read_edit({"type": "pollution", "towns": [town(0, 1)]}))  # only players still in


def test_promises_keep_drop_and_result() -> None:
    s = new("small-city", "Ann", "Bo")
    s.apply(s.read_edit({"type": "keep_promise", "player": 0, "card": 6, "value": 12}))
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "keep_promise", "player": 1, "card": 6, "value": 6}))
    assert caught.value.lines == ["card: card 6 is already kept by Ann"]
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "keep_promise", "player": 1, "card": 7, "value": 10}))
    assert caught.value.fields == ["value"]
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "keep_promise", "player": 1, "card": 33, "value": 6}))
    assert caught.value.fields == ["card"]
    s.apply(s.read_edit({"type": "keep_promise", "player": 1, "card": 20, "value": 18}))
    s.apply(s.read_edit({"type": "drop_promise", "card": 20}))
    with pytest.raises(EditRejected, match="nobody keeps card 20"):
        s.apply(s.read_edit({"type": "promise_result", "card": 20, "fulfilled": True}))
    s.apply(s.read_edit({"type": "promise_result", "card": 6, "fulfilled": False}))
    assert s.state.promises[0].fulfilled is False


def test_sheet_matches_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s = new("small-city", "Ann", "Bo", "Cy")
    for player, votes, pollution, money in ((0, 58, 22, 5), (1, 70, 100, 9), (2, 52, 10, 1)):
        s.apply(s.read_edit({"type": "set", "player": player, "field": "votes", "value": votes}))
        s.apply(s.read_edit({"type": "set", "player": player, "field": "pollution",
                             "value": pollution}))
        s.apply(s.read_edit({"type": "set", "player": player, "field": "money", "value": money}))
    s.apply(s.read_edit({"type": "keep_promise", "player": 0, "card": 1, "value": 12}))
    s.apply(s.read_edit({"type": "promise_result", "card": 1, "fulfilled": True}))
    s.apply(s.read_edit({"type": "keep_promise", "player": 2, "card": 2, "value": 6}))
    s.apply(s.read_edit({"type": "promise_result", "card": 2, "fulfilled": False}))
    payload = s.rules.score_payload(s.state)
    assert s.sheet().to_json() == cli_json(payload, tmp_path, capsys)
    assert s.sheet().winners == ["Ann"]
    assert [p.rank for p in s.sheet().players] == [1, None, 2]
