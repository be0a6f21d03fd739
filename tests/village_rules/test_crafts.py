"""Crafts (rulebook 工場, 關於不同工場的花費, 磨坊): train and produce for time, or buy with
cubes (grain at the stable); coins stand in for cubes; the mill."""

from __future__ import annotations

import pytest

from companion.village.components import load_components

from .conftest import acting, give, put, refused

COMP = load_components("big-box")
GOODS = {"wainwright": "wagon", "scriptorium": "scroll", "smithy": "plough"}


def test_rulebook_wainwright_example_train_then_produce() -> None:
    """Chris places a member from his farmyard under the wainwright (2 time to train)
    and makes a wagon (2 more time)."""
    s = acting("crafts")
    s.execute({"type": "crafts_train", "building": "wainwright", "train_member": "blue-1a"})
    p = s.state.players[0]
    assert p.time == 2 + 2
    assert p.goods == {"wagon": 1}
    assert s.state.members["blue-1a"].loc == "workshop:wainwright"


@pytest.mark.parametrize("building", ["wainwright", "stable", "scriptorium", "smithy"])
def test_train_and_produce_times_come_from_the_data(building: str) -> None:
    s = acting("crafts")
    goods = GOODS.get(building, "ox")
    s.execute({"type": "crafts_train", "building": building, "train_member": "blue-1a",
               "goods": goods})
    expected = COMP.train_time(building) + COMP.v("produce_time")[building]
    assert s.state.players[0].time == expected
    assert s.state.players[0].goods == {goods: 1}


@pytest.mark.parametrize(("building", "time"), [("wainwright", 2), ("stable", 3),
                                                ("scriptorium", 2), ("smithy", 3)])
def test_a_trained_member_produces_for_the_printed_time_only(building: str, time: int) -> None:
    s = acting("crafts")
    put(s, "blue-1a", f"workshop:{building}")  # position: trained in an earlier round
    goods = GOODS.get(building, "horse")
    s.execute({"type": "crafts_train", "building": building, "goods": goods})
    assert s.state.players[0].time == time
    assert s.state.players[0].goods == {goods: 1}


def test_training_without_producing_costs_the_training_time_only() -> None:
    s = acting("crafts")
    s.execute({"type": "crafts_train", "building": "wainwright", "train_member": "blue-1a",
               "produce": False})
    assert s.state.players[0].time == COMP.train_time("wainwright")
    assert not any(s.state.players[0].goods.values())
    assert s.state.members["blue-1a"].loc == "workshop:wainwright"


def test_producing_needs_a_trained_member_there() -> None:
    s = acting("crafts")
    put(s, "blue-1a", "workshop:smithy")  # trained elsewhere: makes only ploughs
    with refused(s, "train_member"):
        s.execute({"type": "crafts_train", "building": "scriptorium"})


def test_the_trainee_comes_from_the_farmyard() -> None:
    s = acting("crafts")
    put(s, "blue-1a", "council:1")
    with refused(s, "train_member"):
        s.execute({"type": "crafts_train", "building": "smithy", "train_member": "blue-1a"})


@pytest.mark.parametrize(("building", "goods"), [("smithy", "scroll"), ("stable", "wagon")])
def test_a_workshop_makes_only_its_own_goods(building: str, goods: str) -> None:
    s = acting("crafts")
    with refused(s, "goods"):
        s.execute({"type": "crafts_buy", "building": building, "goods": goods})


def test_the_stable_asks_horse_or_ox() -> None:
    s = acting("crafts")
    give(s, 0, grain=3)
    with refused(s, "goods"):
        s.execute({"type": "crafts_buy", "building": "stable"})


@pytest.mark.parametrize(("building", "cubes", "goods"), [
    ("wainwright", {"pink": 1, "orange": 1}, "wagon"),
    ("scriptorium", {"pink": 1}, "scroll"),
    ("smithy", {"pink": 1, "orange": 1}, "plough"),
])
def test_buying_with_influence_cubes(building: str, cubes: dict[str, int], goods: str) -> None:
    s = acting("crafts")
    give(s, 0, cubes=cubes)
    supply = dict(s.state.supply)
    s.execute({"type": "crafts_buy", "building": building})
    p = s.state.players[0]
    assert p.goods == {goods: 1}
    assert all(p.cubes[c] == 0 for c in cubes)
    assert all(s.state.supply[c] == supply[c] + n for c, n in cubes.items())
    assert p.time == 0  # no member, no time


def test_buying_at_the_stable_costs_3_grain() -> None:
    s = acting("crafts")
    give(s, 0, grain=4)
    s.execute({"type": "crafts_buy", "building": "stable", "goods": "ox"})
    assert s.state.players[0].grain == 1 and s.state.players[0].goods == {"ox": 1}


def test_a_coin_stands_in_for_a_missing_cube() -> None:
    s = acting("crafts")
    give(s, 0, cubes={"pink": 1}, coins=1)
    s.execute({"type": "crafts_buy", "building": "wainwright"})
    p = s.state.players[0]
    assert p.goods == {"wagon": 1} and p.cubes["pink"] == 0 and p.coins == 0


def test_buying_without_cubes_or_coins_is_refused() -> None:
    s = acting("crafts")
    give(s, 0, coins=0)
    with refused(s, "pay.coins"):
        s.execute({"type": "crafts_buy", "building": "scriptorium"})


def test_buying_at_the_stable_without_grain_is_refused() -> None:
    s = acting("crafts")
    give(s, 0, grain=2)
    with refused(s, "pay.grain"):
        s.execute({"type": "crafts_buy", "building": "stable", "goods": "horse"})


def test_the_mill_turns_2_time_and_2_grain_into_2_coins() -> None:
    s = acting("crafts")
    give(s, 0, grain=3)
    s.execute({"type": "mill"})
    p = s.state.players[0]
    assert (p.time, p.grain, p.coins) == (2, 1, 3)


def test_the_mill_needs_2_grain() -> None:
    s = acting("crafts")
    give(s, 0, grain=1)
    with refused(s, "pay.grain"):
        s.execute({"type": "mill"})


def test_the_mill_is_a_crafts_action() -> None:
    s = acting("travel")
    give(s, 0, grain=2)
    with refused(s, "action"):
        s.execute({"type": "mill"})
