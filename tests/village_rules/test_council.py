"""Council (rulebook 議會, 特許行動概覽, 金幣 example): enter for 1 time + 2 green or a scroll,
move right for 2 green or a scroll plus the level's time, privileges L1-L4."""

from __future__ import annotations

import pytest

from companion.village.components import load_components

from .conftest import acting, end_turn, give, noted, put, refused, take

COMP = load_components("big-box")
ADVANCE_TIME = COMP.v("council_advance_time")  # estimate: L2 2, L3 2, L4 3


# ---- a) enter ---------------------------------------------------------------------------
def test_enter_for_1_time_and_2_green() -> None:
    s = acting("council", colour="green")
    give(s, 0, cubes={"green": 2})
    s.execute({"type": "council_enter", "member": "blue-1a"})
    p = s.state.players[0]
    assert s.state.members["blue-1a"].loc == "council:1"
    assert p.time == 1 and p.cubes["green"] == 0 and p.coins == 1


def test_enter_for_1_time_and_a_scroll() -> None:
    s = acting("council")
    give(s, 0, goods={"scroll": 1})
    s.execute({"type": "council_enter", "member": "blue-1a"})
    p = s.state.players[0]
    assert p.goods == {"scroll": 0} and p.time == 1


def test_enter_needs_a_member_from_the_farmyard() -> None:
    s = acting("council")
    give(s, 0, cubes={"green": 2})
    put(s, "blue-1a", "workshop:stable")
    with refused(s, "member"):
        s.execute({"type": "council_enter", "member": "blue-1a"})


def test_entering_allows_only_the_level_1_privilege() -> None:
    s = acting("council")
    give(s, 0, cubes={"green": 2})
    with refused(s, "privilege.level"):
        s.execute({"type": "council_enter", "member": "blue-1a",
                   "privilege": {"level": 2, "cubes": ["pink", "orange"]}})


# ---- b) move right -----------------------------------------------------------------------
@pytest.mark.parametrize("to_level", [2, 3, 4])
def test_advance_costs_2_green_and_the_time_of_the_level_entered(to_level: int) -> None:
    s = acting("council")
    put(s, "blue-2a", f"council:{to_level - 1}")  # position
    give(s, 0, cubes={"green": 2})
    s.execute({"type": "council_advance", "member": "blue-2a"})
    p = s.state.players[0]
    assert s.state.members["blue-2a"].loc == f"council:{to_level}"
    assert p.cubes["green"] == 0
    assert p.time == ADVANCE_TIME[str(to_level)]


@pytest.mark.parametrize(("green", "coins"), [(2, 0), (1, 1), (0, 2)])
def test_rulebook_coin_example_coins_stand_in_for_green(green: int, coins: int) -> None:
    """Moving right costs 2 green; or 1 coin and 1 green; or 2 coins."""
    s = acting("council")
    put(s, "blue-2a", "council:1")
    give(s, 0, cubes={"green": green}, coins=coins)
    s.execute({"type": "council_advance", "member": "blue-2a"})
    p = s.state.players[0]
    assert s.state.members["blue-2a"].loc == "council:2"
    assert p.cubes["green"] == 0 and p.coins == 0


def test_advance_with_a_scroll() -> None:
    s = acting("council")
    put(s, "blue-2a", "council:2")
    give(s, 0, goods={"scroll": 1})
    s.execute({"type": "council_advance", "member": "blue-2a"})
    assert s.state.members["blue-2a"].loc == "council:3"
    assert s.state.players[0].goods == {"scroll": 0}


def test_nothing_beyond_level_4() -> None:
    s = acting("council")
    put(s, "blue-2a", "council:4")
    give(s, 0, cubes={"green": 2})
    with refused(s, "member"):
        s.execute({"type": "council_advance", "member": "blue-2a"})


def test_advance_may_use_a_lower_levels_privilege() -> None:
    s = acting("council")
    put(s, "blue-2a", "council:2")
    give(s, 0, cubes={"green": 2})
    s.execute({"type": "council_advance", "member": "blue-2a",
               "privilege": {"level": 1}})
    assert s.state.members["blue-2a"].loc == "council:3"
    assert s.state.next_start_holder == 0


def test_advance_privilege_above_the_level_reached_is_refused() -> None:
    s = acting("council")
    put(s, "blue-2a", "council:1")
    give(s, 0, cubes={"green": 2})
    with refused(s, "privilege.level"):
        s.execute({"type": "council_advance", "member": "blue-2a",
                   "privilege": {"level": 3, "goods": "ox"}})


# ---- c) privilege without moving, and the privileges --------------------------------------
def test_a_privilege_without_moving_is_free() -> None:
    s = acting("council")
    put(s, "blue-2a", "council:3")
    s.execute({"type": "council_privilege", "privilege": {"level": 3, "goods": "horse"}})
    p = s.state.players[0]
    assert p.goods == {"horse": 1}
    assert p.time == 0 and p.coins == 1 and s.state.members["blue-2a"].loc == "council:3"


def test_a_privilege_needs_a_member_on_the_council() -> None:
    s = acting("council")
    with refused(s, "privilege"):
        s.execute({"type": "council_privilege", "privilege": {"level": 1}})


def test_a_privilege_of_a_higher_level_than_ones_member_is_refused() -> None:
    s = acting("council")
    put(s, "blue-2a", "council:3")
    with refused(s, "privilege.level"):
        s.execute({"type": "council_privilege", "privilege": {"level": 4}})


def test_level_1_the_next_start_player_marker_only_once() -> None:
    s = acting("council", colour="green")
    give(s, 0, cubes={"green": 2})
    give(s, 1, cubes={"green": 2})
    s.execute({"type": "council_enter", "member": "blue-1a", "privilege": {"level": 1}})
    assert s.state.next_start_holder == 0
    end_turn(s)
    take(s, "council", "green")
    out = s.execute({"type": "council_enter", "member": "yellow-1a",
                     "privilege": {"level": 1}})
    assert s.state.next_start_holder == 0  # Julie comes away empty-handed
    assert noted(out.notes, "next-start-player marker", "already taken")
    assert s.state.members["yellow-1a"].loc == "council:1"


def test_level_2_two_cubes_of_different_colours() -> None:
    s = acting("council")
    put(s, "blue-2a", "council:2")
    supply = dict(s.state.supply)
    s.execute({"type": "council_privilege",
               "privilege": {"level": 2, "cubes": ["pink", "orange"]}})
    p = s.state.players[0]
    assert p.cubes["pink"] == 1 and p.cubes["orange"] == 1
    assert s.state.supply["pink"] == supply["pink"] - 1


@pytest.mark.parametrize("cubes", [["pink", "pink"], ["pink"], ["pink", "orange", "green"]])
def test_level_2_needs_exactly_two_different_colours(cubes: list[str]) -> None:
    """Big Box, 000 議會: 「第二階級：從供應區選擇拿取2個不同顏色的影響力方塊」."""
    s = acting("council")
    put(s, "blue-2a", "council:2")
    with refused(s, "privilege.cubes"):
        s.execute({"type": "council_privilege", "privilege": {"level": 2, "cubes": cubes}})


def test_level_3_needs_a_goods_choice() -> None:
    s = acting("council")
    put(s, "blue-2a", "council:3")
    with refused(s, "privilege.goods"):
        s.execute({"type": "council_privilege", "privilege": {"level": 3}})


def test_level_4_exactly_one_coin_for_3_prestige() -> None:
    s = acting("council")
    put(s, "blue-2a", "council:4")
    give(s, 0, coins=3)
    s.execute({"type": "council_privilege", "privilege": {"level": 4}})
    p = s.state.players[0]
    assert p.coins == 2 and p.prestige == 3  # not 2 coins for 6


def test_level_4_without_a_coin_is_refused() -> None:
    s = acting("council")
    put(s, "blue-2a", "council:4")
    give(s, 0, coins=0)
    with refused(s, "privilege.level"):
        s.execute({"type": "council_privilege", "privilege": {"level": 4}})


def test_2011_level_2_takes_two_cubes_of_any_colours_one_colour_twice_included() -> None:
    """2011, 004 의회 2): 「특권액션(다음 라운드 선마커 / 원하는 색큐브 2개 / …)」 — two cubes
    of the colours you want; "different colours" is the Big Box rule (issue 19.2)."""
    s = acting("council", edition="2011")
    put(s, "blue-2a", "council:2")
    supply = s.state.supply["pink"]
    s.execute({"type": "council_privilege", "privilege": {"level": 2, "cubes": ["pink", "pink"]}})
    assert s.state.players[0].cubes["pink"] == 2
    assert s.state.supply["pink"] == supply - 2


@pytest.mark.parametrize("cubes", [["pink"], ["pink", "orange", "green"]])
def test_2011_level_2_still_takes_exactly_two(cubes: list[str]) -> None:
    s = acting("council", edition="2011")
    put(s, "blue-2a", "council:2")
    with refused(s, "privilege.cubes"):
        s.execute({"type": "council_privilege", "privilege": {"level": 2, "cubes": cubes}})


def test_a_2011_game_stored_before_the_distinct_rule_gets_its_editions_rule() -> None:
    data = load_components("2011").model_dump()
    del data["values"]["council_privilege_cubes_distinct"]
    assert type(load_components("2011")).model_validate(data).v(
        "council_privilege_cubes_distinct") is False
    big = load_components("big-box").model_dump()
    del big["values"]["council_privilege_cubes_distinct"]
    assert type(load_components("big-box")).model_validate(big).v(
        "council_privilege_cubes_distinct") is True
