"""Corrections (every tracked value stays editable): the time marker, served customer
tiles, where a member stands. Each is a logged command: validated naming the field,
allowed whatever the game waits for, undoable, and every cube, member and tile stays
counted."""

from __future__ import annotations

from typing import Any

import pytest

from companion.village.session import VillageSession
from tests.village.invariants import check_every_event, check_invariants
from tests.village_solo.helpers import new_session as solo_session

from .conftest import (
    TRACK,
    end_turn,
    fill_all_chronicle,
    fill_chronicle,
    give,
    refused,
    started,
    take,
)


def cmd(type_: str, **kw: Any) -> dict[str, Any]:
    return {"type": type_, **kw}


def _ok(s: VillageSession) -> None:
    check_invariants(s.state, s.comp)


# ---- the time track ------------------------------------------------------------------------
def test_set_time_puts_the_marker_on_a_space_without_deaths() -> None:
    s = started(3)
    s.execute(cmd("set_time", player=1, position=TRACK - 1))
    st = s.state
    assert st.players[1].time == TRACK - 1 and st.players[1].deaths_pending == 0
    s.execute(cmd("set_time", player=1, position=0))  # back past the quill: no death either
    assert s.state.players[1].time == 0 and not s.state.pending
    with refused(s, "position"):
        s.execute(cmd("set_time", player=1, position=TRACK))
    with refused(s, "player"):
        s.execute(cmd("set_time", player=3, position=1))
    s.undo()
    assert s.state.players[1].time == TRACK - 1
    _ok(s)


def test_taking_back_time_spent_by_mistake_cancels_the_death_it_owed() -> None:
    s = started(3, {"harvest": ["brown", "pink", "orange"]})
    give(s, 0, time=TRACK - 2)
    take(s, "harvest", "brown")
    s.execute(cmd("spend_time", player=0, amount=3))  # passes the quill: a death is owed
    assert s.state.players[0].deaths_pending == 1 and s.state.players[0].time == 1
    s.execute(cmd("take_back_time", player=0, amount=3))
    st = s.state
    assert st.players[0].time == TRACK - 2 and st.players[0].deaths_pending == 0
    end_turn(s)
    assert not s.state.pending and s.state.current == 1  # nobody dies
    _ok(s)


def test_taking_back_time_while_the_death_is_asked_for_drops_the_question() -> None:
    s = started(3, {"harvest": ["brown", "pink", "orange"]})
    s.execute(cmd("set_time", player=0, position=TRACK - 1))  # logged: undo keeps it
    take(s, "harvest", "brown")
    s.execute(cmd("spend_time", player=0, amount=1))
    end_turn(s)
    assert s.state.pending[0].kind == "death"  # the game waits for the answer ...
    s.execute(cmd("take_back_time", player=0, amount=1))  # ... a correction is still allowed
    st = s.state
    assert not st.pending and st.players[0].deaths_pending == 0
    assert st.current == 1 and st.stage == "take"  # the turn order goes on
    assert st.players[0].time == TRACK - 1
    s.undo()  # and the question is back
    assert s.state.pending[0].kind == "death"
    assert check_every_event(s) == s.state


def test_a_death_already_decided_stays_when_its_time_is_taken_back() -> None:
    s = started(3, {"harvest": ["brown", "pink", "orange"]})
    give(s, 0, time=TRACK - 1)
    take(s, "harvest", "brown")
    s.execute(cmd("spend_time", player=0, amount=1))
    end_turn(s)
    s.execute(cmd("choose_death", member="blue-1a"))
    s.execute(cmd("take_back_time", player=0, amount=1))
    st = s.state
    assert st.players[0].time == TRACK - 1
    assert st.members["blue-1a"].loc == "chronicle:farm"  # fix that with move_member
    s.execute(cmd("move_member", member="blue-1a", to="farmyard"))
    assert s.state.members["blue-1a"].loc == "farmyard"
    _ok(s)


def test_karla_has_no_time_track() -> None:
    s = solo_session()
    with refused(s, "player"):
        s.execute(cmd("set_time", player=1, position=2))
    with refused(s, "player"):
        s.execute(cmd("take_back_time", player=1, amount=2))


# ---- served customer tiles -----------------------------------------------------------------
def test_a_forgotten_served_tile_comes_from_the_stack_or_a_front_space() -> None:
    s = started(3)
    stack = s.state.customer_stack
    s.execute(cmd("add_customer_tile", player=1, points=5))
    st = s.state
    assert st.players[1].customers == [5] and st.customer_stack == stack - 1
    s.execute(cmd("add_customer_tile", player=1, points=3, slot=2))
    st = s.state
    assert st.players[1].customers == [5, 3] and not st.market_front[2]
    with refused(s, "slot"):
        s.execute(cmd("add_customer_tile", player=1, points=3, slot=2))  # now empty
    with refused(s, "player"):
        s.execute(cmd("add_customer_tile", player=5, points=3))
    _ok(s)


def test_a_tile_recorded_by_mistake_goes_back_to_the_stack_or_an_empty_front_space() -> None:
    s = started(3)
    s.execute(cmd("add_customer_tile", player=0, points=4, slot=1))
    s.execute(cmd("add_customer_tile", player=0, points=6))
    stack = s.state.customer_stack
    with refused(s, "index"):
        s.execute(cmd("remove_customer_tile", player=0, index=2))
    with refused(s, "slot"):  # 3 players: front space 5 stays empty
        s.execute(cmd("remove_customer_tile", player=0, index=0, slot=4))
    with refused(s, "slot"):  # a customer waits there
        s.execute(cmd("remove_customer_tile", player=0, index=0, slot=0))
    s.execute(cmd("remove_customer_tile", player=0, index=0, slot=1))
    st = s.state
    assert st.players[0].customers == [6] and st.market_front[1]
    s.execute(cmd("remove_customer_tile", player=0, index=0))
    st = s.state
    assert st.players[0].customers == [] and st.customer_stack == stack + 1
    _ok(s)


def test_mistyped_points_of_a_served_tile_are_corrected() -> None:
    s = started(3)
    s.execute(cmd("add_customer_tile", player=2, points=4))
    s.execute(cmd("set_customer_points", player=2, index=0, points=7))
    assert s.state.players[2].customers == [7]
    with refused(s, "index"):
        s.execute(cmd("set_customer_points", player=2, index=1, points=7))


def test_no_tile_correction_during_a_market_day() -> None:
    s = started(3, {"market": ["green", "green"]})
    take(s, "market", "green")
    assert s.state.market_day is not None
    with refused(s, "phase"):
        s.execute(cmd("add_customer_tile", player=0, points=3))


# ---- where a member stands -----------------------------------------------------------------
@pytest.mark.parametrize("to", ["council:3", "church:2", "workshop:smithy", "travel:4",
                                "bag", "supply", "chronicle:crafts", "graveyard", "removed"])
def test_a_member_moves_to_any_valid_spot(to: str) -> None:
    s = started(3)
    s.execute(cmd("move_member", member="blue-1a", to=to))
    assert s.state.members["blue-1a"].loc == to
    _ok(s)
    s.undo()
    assert s.state.members["blue-1a"].loc == "farmyard"


@pytest.mark.parametrize(("member", "to", "field"), [
    ("blue-9z", "farmyard", "member"),
    ("blue-1a", "council:9", "to"), ("blue-1a", "council", "to"),
    ("blue-1a", "workshop:mill", "to"), ("blue-1a", "chronicle:market", "to"),
    ("blue-1a", "farmyard:2", "to"), ("blue-1a", "attic", "to"),
    ("blue-1a", "karla:side", "to"), ("blue-1a", "farmyard", "to"),  # already there
])
def test_a_move_to_no_such_spot_is_refused_naming_the_field(member: str, to: str,
                                                            field: str) -> None:
    s = started(3)
    with refused(s, field):
        s.execute(cmd("move_member", member=member, to=to))


def test_a_full_chronicle_section_or_graveyard_takes_no_more() -> None:
    s = started(3)
    fill_chronicle(s, "farm")
    with refused(s, "to"):
        s.execute(cmd("move_member", member="blue-1a", to="chronicle:farm"))


def test_moving_into_the_last_chronicle_slot_ends_the_game() -> None:
    s = started(3)
    fill_all_chronicle(s, {"travel": 1})
    s.execute(cmd("move_member", member="red-1a", to="chronicle:travel"))
    st = s.state
    assert st.end is not None and st.end.triggered_by == 2
    _ok(s)


def test_karla_members_keep_to_her_spots_and_one_per_church_level() -> None:
    s = solo_session()
    for to in ("farmyard", "supply", "council:1", "workshop:stable", "travel:2"):
        with refused(s, "to"):
            s.execute(cmd("move_member", member="red-1a", to=to))
    s.execute(cmd("move_member", member="red-3a", to="church:2"))
    with refused(s, "to"):
        s.execute(cmd("move_member", member="red-3b", to="church:2"))
    s.execute(cmd("move_member", member="red-3b", to="church:1"))
    s.execute(cmd("move_member", member="red-2a", to="karla:building"))
    st = s.state
    assert [st.members[m].loc for m in ("red-3a", "red-3b", "red-2a")] == [
        "church:2", "church:1", "karla:building"]
    _ok(s)


def test_corrections_are_logged_and_replay() -> None:
    s = started(3, {"harvest": ["brown", "pink", "orange"]})
    s.execute(cmd("move_member", member="blue-1a", to="council:2"))
    s.execute(cmd("add_customer_tile", player=0, points=5))
    s.execute(cmd("set_time", player=2, position=3))
    kinds = [e["body"]["type"] for e in s.events[-3:]]
    assert kinds == ["move_member", "add_customer_tile", "set_time"]
    replayed = VillageSession(s.setup, s.comp, s.events)
    assert replayed.state == s.state
    for _ in range(3):
        s.undo()
    assert s.state.members["blue-1a"].loc == "farmyard" and s.state.players[0].customers == []
