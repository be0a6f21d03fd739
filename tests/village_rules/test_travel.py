"""Travel (rulebook 旅行): 2 time + 1 wagon + the route's cubes; a marker and the city's
reward (3 prestige, 2 influence cubes of choice, or 1 coin) once per city."""

from __future__ import annotations

from .conftest import acting, give, noted, put, refused


def test_rulebook_example_first_journey_to_a_neighbouring_city() -> None:
    """Chris sends a member from his farmyard to the northern city: 2 time, 1 wagon and
    2 brown cubes; he places a marker there and takes its reward, 3 prestige."""
    s = acting("travel", colour="orange")
    give(s, 0, cubes={"brown": 2}, goods={"wagon": 1})
    s.execute({"type": "travel", "member": "blue-1a", "city": 1,
               "route_cubes": {"brown": 2}, "reward": "prestige"})
    p = s.state.players[0]
    assert s.state.members["blue-1a"].loc == "travel:1"
    assert p.time == 2 and p.goods == {"wagon": 0} and p.cubes["brown"] == 0
    assert p.cities == [1] and p.prestige == 3


def test_moving_on_to_a_new_city_takes_its_reward() -> None:
    s = acting("travel")
    put(s, "blue-1a", "travel:1")  # position: already on the map, marker in city 1
    s.state.players[0].cities = [1]
    give(s, 0, goods={"wagon": 1})
    s.execute({"type": "travel", "member": "blue-1a", "city": 3, "reward": "coin"})
    p = s.state.players[0]
    assert s.state.members["blue-1a"].loc == "travel:3"
    assert p.cities == [1, 3] and p.coins == 2


def test_reward_of_two_influence_cubes() -> None:
    s = acting("travel", colour="orange")
    give(s, 0, goods={"wagon": 1})
    s.execute({"type": "travel", "member": "blue-1a", "city": 2, "reward": "cubes",
               "reward_cubes": ["green", "brown"]})
    p = s.state.players[0]
    assert p.cubes["green"] == 1 and p.cubes["brown"] == 1 and p.prestige == 0


def test_a_city_rewards_each_player_only_once() -> None:
    s = acting("travel")
    put(s, "blue-1a", "travel:2")
    s.state.players[0].cities = [2, 4]  # position
    give(s, 0, goods={"wagon": 1})
    out = s.execute({"type": "travel", "member": "blue-1b", "city": 4, "reward": "prestige"})
    p = s.state.players[0]
    assert s.state.members["blue-1b"].loc == "travel:4"
    assert p.cities == [2, 4] and p.prestige == 0
    assert p.time == 2 and p.goods == {"wagon": 0}  # the journey is still paid
    assert noted(out.notes, "Chris", "city 4", "no reward")


def test_a_new_city_needs_a_reward_choice() -> None:
    s = acting("travel")
    give(s, 0, goods={"wagon": 1})
    with refused(s, "reward"):
        s.execute({"type": "travel", "member": "blue-1a", "city": 1})


def test_travel_needs_a_wagon() -> None:
    s = acting("travel")
    with refused(s, "pay.goods.wagon"):
        s.execute({"type": "travel", "member": "blue-1a", "city": 1, "reward": "coin"})


def test_route_cubes_can_be_paid_with_coins_but_not_from_nothing() -> None:
    s = acting("travel", colour="orange")
    give(s, 0, goods={"wagon": 1}, coins=1)
    with refused(s, "pay.coins"):
        s.execute({"type": "travel", "member": "blue-1a", "city": 1,
                   "route_cubes": {"pink": 2}, "reward": "coin"})
    give(s, 0, cubes={"pink": 1})
    s.execute({"type": "travel", "member": "blue-1a", "city": 1,
               "route_cubes": {"pink": 2}, "reward": "coin"})
    p = s.state.players[0]
    assert p.cubes["pink"] == 0 and p.coins == 0 + 1  # 1 coin paid, 1 coin as reward


def test_the_traveller_comes_from_the_farmyard_or_the_map() -> None:
    s = acting("travel")
    put(s, "blue-1a", "council:1")
    give(s, 0, goods={"wagon": 1})
    with refused(s, "member"):
        s.execute({"type": "travel", "member": "blue-1a", "city": 1, "reward": "coin"})


def test_there_are_six_cities() -> None:
    s = acting("travel")
    give(s, 0, goods={"wagon": 1})
    with refused(s, "city"):
        s.execute({"type": "travel", "member": "blue-1a", "city": 7, "reward": "coin"})
