"""Church (rulebook 教堂): 1 brown cube or 3 time; a member from the farmyard goes into the
black bag."""

from __future__ import annotations

from .conftest import TRACK, acting, give, noted, put, refused


def test_church_for_one_brown_cube() -> None:
    s = acting("church", colour="brown")
    supply = s.state.supply["brown"]
    out = s.execute({"type": "church", "member": "blue-1a"})
    p = s.state.players[0]
    assert s.state.members["blue-1a"].loc == "bag"
    assert p.cubes["brown"] == 0 and p.time == 0
    assert s.state.supply["brown"] == supply + 1
    assert noted(out.notes, "Chris", "gen-1", "black bag")


def test_church_for_3_time_without_a_brown_cube() -> None:
    s = acting("church", colour="pink")
    s.execute({"type": "church", "member": "blue-1a"})
    p = s.state.players[0]
    assert s.state.members["blue-1a"].loc == "bag"
    assert p.time == 3 and p.cubes == {"pink": 1}


def test_paying_3_time_while_holding_brown() -> None:
    s = acting("church", colour="brown")
    s.execute({"type": "church", "member": "blue-1a", "pay": {"time": 3}})
    p = s.state.players[0]
    assert p.time == 3 and p.cubes["brown"] == 1


def test_the_member_comes_from_the_farmyard() -> None:
    s = acting("church")
    put(s, "blue-1a", "workshop:smithy")
    with refused(s, "member"):
        s.execute({"type": "church", "member": "blue-1a"})


def test_a_member_in_the_bag_is_safe_from_death() -> None:
    s = acting("church", colour="brown")
    s.execute({"type": "church", "member": "blue-1a"})
    for mid in ("blue-1b", "blue-1c", "blue-1d"):
        put(s, mid, "bag")  # position: every other gen-1 member in the bag too
    give(s, 0, time=TRACK - 1)
    s.execute({"type": "spend_time", "player": 0, "amount": 1})
    out = s.execute({"type": "end_turn"})
    assert noted(out.notes, "Chris", "nobody dies")
    assert s.state.members["blue-1a"].loc == "bag"
