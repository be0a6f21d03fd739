"""Grain harvest (rulebook 收穫穀物): 2, 3 with horse + plough, 4 with ox + plough, one
combination only, goods kept, a member on the farmyard needed, at most 5 grain."""

from __future__ import annotations

import pytest

from .conftest import acting, give, noted, put, refused


@pytest.mark.parametrize(("goods", "grain"), [
    ({}, 2),
    ({"horse": 1}, 2),
    ({"plough": 1}, 2),
    ({"horse": 1, "plough": 1}, 3),
    ({"ox": 1, "plough": 1}, 4),
    ({"ox": 1, "horse": 1, "plough": 1}, 4),  # one combination only: never 5
    ({"ox": 2, "horse": 2, "plough": 2}, 4),
])
def test_harvest_amount_by_goods(goods: dict[str, int], grain: int) -> None:
    s = acting("harvest")
    give(s, 0, goods=goods)
    s.execute({"type": "harvest"})
    p = s.state.players[0]
    assert p.grain == grain
    assert p.goods == goods  # the goods are not used up


def test_harvest_needs_a_member_on_the_farmyard() -> None:
    s = acting("harvest")
    for mid in ("blue-1a", "blue-1b", "blue-1c", "blue-1d"):
        put(s, mid, "council:1")  # position: nobody at home
    with refused(s, "harvest"):
        s.execute({"type": "harvest"})


def test_harvest_stops_at_five_grain() -> None:
    s = acting("harvest")
    give(s, 0, grain=4, goods={"ox": 1, "plough": 1})
    out = s.execute({"type": "harvest"})
    assert s.state.players[0].grain == 5
    assert noted(out.notes, "Chris", "at most 5 grain", "1 of 4")


def test_harvest_through_the_well() -> None:
    s = acting("church")
    s.execute({"type": "end_turn"})
    give(s, 1, cubes={"orange": 3})
    s.execute({"type": "well", "colour": "orange"})
    s.execute({"type": "harvest"})
    assert s.state.players[1].grain == 2
