"""Karla's deaths: who dies, where they go, and ending the game."""

from __future__ import annotations

import pytest

from companion.village.rules.karla import death_order, karla_death
from companion.village.state import PLAGUE
from tests.village_solo.helpers import (
    HUMAN,
    KARLA,
    check_invariants,
    cmd,
    ctx_of,
    fate_position,
    karla_cubes,
    karla_track,
    new_session,
    put_karla_last,
    resolve_fates,
    serve,
    set_board,
    take,
)


def test_death_order_side_then_building_then_track_left_to_right() -> None:
    s = new_session()
    st = s.state
    # Mutation: two of her members already on the church track (levels 3 and 1), one in
    # the black bag (invisible: it cannot die).
    st.members["red-3b"].loc = "church:3"
    st.members["red-4a"].loc = "church:1"
    st.members["red-2c"].loc = "bag"
    order = [m.id for m in death_order(ctx_of(s))]
    assert order == ["red-1a", "red-1b", "red-1c", "red-1d", "red-2a", "red-2b",
                     "red-3a", "red-4b", "red-4a", "red-3b"]


def test_deaths_follow_the_order_until_nobody_is_left() -> None:
    s = new_session()
    st = s.state
    st.members["red-3b"].loc = "church:3"  # mutation, as above
    st.members["red-4a"].loc = "church:1"
    ctx = ctx_of(s)
    sections = ["farm", "crafts", "council", "church", "travel"]
    spaces = ["harvest", "crafts", "council", "church", "travel"]
    died = []
    for k in range(11):
        before = {m.id for m in st.members_of(KARLA) if m.living}
        karla_death(ctx, spaces[k % 5])
        after = {m.id for m in st.members_of(KARLA) if m.living}
        died += sorted(before - after)
    assert died == ["red-1a", "red-1b", "red-1c", "red-1d", "red-2a", "red-2b", "red-2c",
                    "red-3a", "red-4b", "red-4a", "red-3b"]
    # The first ten filled the five sections' two solo slots each, the eleventh (after the
    # game end) found no chronicle slot and went to the graveyard.
    assert all(st.chronicle_free(sec) == 0 for sec in sections)
    assert st.end is not None and st.end.triggered_by == KARLA
    assert st.members["red-3b"].loc == "graveyard"
    karla_death(ctx, "harvest")  # nobody left: nothing happens
    assert "Karla has no member left who can die" in st.notes


@pytest.mark.parametrize(("space", "where"), [
    ("harvest", "chronicle:farm"), ("family", "chronicle:farm"),
    ("crafts", "chronicle:crafts"), ("council", "chronicle:council"),
    ("church", "chronicle:church"), ("travel", "chronicle:travel"),
    ("market", "graveyard"),
])
def test_death_section_by_the_cube_source_space(space: str, where: str) -> None:
    s = new_session()
    karla_death(ctx_of(s), space)
    assert s.state.members["red-1a"].loc == where


def test_full_section_sends_her_member_to_the_graveyard() -> None:
    s = new_session()
    st = s.state
    # Mutation: the council section (2 slots with 2 players) is full of your members.
    st.members["blue-1a"].loc = "chronicle:council"
    st.members["blue-1b"].loc = "chronicle:council"
    karla_death(ctx_of(s), "council")
    assert st.members["red-1a"].loc == "graveyard"


def test_quill_from_a_market_cube_goes_to_the_graveyard_then_she_holds_a_market_day() -> None:
    s = new_session()
    # Karla's next cube passes a fate tile; your green from harvest sends her clockwise to
    # the market's green (crafts has none).
    put_karla_last(s, fate_position(s.comp, "top", 0) - 1)
    order = s.comp.v("karla_action_order")
    assert order.index("harvest") + 1 == order.index("crafts")
    assert (order.index("crafts") + 1) % len(order) == order.index("market")
    set_board(s, {"harvest": ["green", "pink"], "crafts": ["pink"], "market": ["green"],
                  "church": ["brown"]})
    take(s, "harvest", "green")
    st = s.state
    assert st.pending[0].draw == "fate" and st.pending[0].detail.space == "market"
    assert st.market_day is None  # the flip comes first, then her reaction
    s.enter_draw({"side": "top", "tile": 0, "quill": True})
    st = s.state
    assert st.members["red-1a"].loc == "graveyard"
    assert st.market_day is not None and st.market_day.trigger == KARLA
    check_invariants(st, s.comp)


def _fill_for_karla_end(s) -> None:
    """Mutation: council section full, graveyard one slot short of full (5 with 2
    players), Karla's next cube passes a fate tile."""
    st = s.state
    st.members["blue-1a"].loc = "chronicle:council"
    st.members["blue-1b"].loc = "chronicle:council"
    for mid in ("red-2a", "red-2b", "red-2c", "blue-1c"):
        st.members[mid].loc = "graveyard"
    assert st.graveyard_free() == 1
    put_karla_last(s, fate_position(s.comp, "top", 0) - 1)
    set_board(s, {"council": ["pink", "brown", "brown"], "harvest": ["orange", PLAGUE],
                  "church": ["orange"]})


def test_her_death_can_end_the_game_and_you_get_one_final_turn() -> None:
    s = new_session()
    _fill_for_karla_end(s)
    before = karla_cubes(s.state)
    take(s, "council", "brown", end=False)
    assert karla_cubes(s.state) == before and s.state.end is None  # your turn goes on first
    s.execute(cmd("end_turn"))                  # then Karla: brown from council
    s.enter_draw({"side": "top", "tile": 0, "quill": True})
    st = s.state
    assert karla_track(st)[fate_position(s.comp, "top", 0)] == ["brown@council"]
    assert st.members["red-1a"].loc == "graveyard"  # council full -> graveyard, last slot
    assert st.end is not None and st.end.triggered_by == KARLA
    assert not st.end.during_market
    # Her take came after your turn: you get exactly one final turn.
    assert st.phase == "turns" and st.stage == "take" and st.current == HUMAN
    assert st.end.order_set and st.end.final_order == []
    take(s, "harvest", "orange")                # your final turn, and its end
    st = s.state
    # No further turn: the final mass (the round mass is skipped), then final scoring.
    assert st.phase == "mass_buyout" or st.pending[0].draw == "mass"
    assert st.mass is not None and st.mass.final
    s.enter_draw({"items": ["monk"] * 4})
    assert s.state.phase == "scoring"
    check_invariants(s.state, s.comp)


def test_final_turn_on_an_empty_board_is_a_free_action() -> None:
    """Karla takes the last cube and her death ends the game: your final turn has no cube
    to take, so you act freely (without the well's three cubes)."""
    s = new_session()
    _fill_for_karla_end(s)
    set_board(s, {"council": ["brown", "brown"]})
    take(s, "council", "brown")                 # your turn ends; Karla takes the last cube
    s.enter_draw({"side": "top", "tile": 0, "quill": True})
    assert s.state.cubes_on_board() == 0 and s.state.end is not None
    st = s.state
    assert karla_track(st)[fate_position(s.comp, "top", 0)] == ["brown@council"]
    # Not the round mass: your final turn.
    assert st.stage == "take" and st.current == HUMAN and st.phase == "turns"
    s.execute(cmd("free_action"))
    s.execute(cmd("harvest"))
    s.execute(cmd("end_turn"))
    assert s.state.mass is not None and s.state.mass.final


def test_your_death_in_her_market_day_ends_the_game_you_still_get_a_final_turn() -> None:
    s = new_session()
    st = s.state
    # Mutation: farm section full, graveyard one short; your time marker one step before
    # the quill; the only greens are on harvest and the market.
    st.members["red-1a"].loc = "chronicle:farm"
    st.members["red-1b"].loc = "chronicle:farm"
    for mid in ("red-2a", "red-2b", "red-2c", "red-1c"):
        st.members[mid].loc = "graveyard"
    st.players[HUMAN].time = int(s.comp.v("time_track_length")) - 1
    set_board(s, {"harvest": ["green", "pink"], "crafts": ["pink"], "market": ["green"],
                  "church": ["brown", "orange"]})
    take(s, "harvest", "green")                 # after your turn Karla takes the market green
    st = s.state
    assert karla_cubes(st) == ["green@market"]
    assert st.market_day is not None and st.market_day.trigger == KARLA
    assert st.market_day.sales == [(KARLA, 0)]
    # She served the front customer; you sell too: 1 green + 1 time -> past the quill.
    serve(s, slot=1, points=4)
    pend = s.state.pending[0]
    assert pend.kind == "death" and pend.player == HUMAN  # at once, in the market day
    s.execute(cmd("choose_death", member="blue-1a"))
    st = s.state
    assert st.members["blue-1a"].loc == "graveyard"     # farm section full -> last slot
    assert st.end is not None and st.end.triggered_by == HUMAN and st.end.during_market
    assert st.end.market_trigger == KARLA
    s.execute(cmd("market_pass"))
    # The market day is finished first; its trigger (Karla) is not the end trigger (you):
    # every player takes a final turn, so you do (遊戲結束 特殊情況).
    st = s.state
    assert st.market_day is None
    assert st.phase == "turns" and st.stage == "take" and st.current == HUMAN
    assert st.end is not None and st.end.order_set and st.end.final_order == []
    # Exactly one: after it, the final mass.
    take(s, "harvest", "pink")                  # Karla: pink from crafts (a fate flip)
    resolve_fates(s)
    st = s.state
    assert st.mass is not None and st.mass.final
    check_invariants(st, s.comp)


def test_your_deadly_sale_of_the_last_customer_in_her_market_day_still_gives_a_final_turn(
) -> None:
    """As above, but your sale empties the market: her market day closes before your death
    is answered. The end still came in her market day, so you take a final turn."""
    s = new_session()
    st = s.state
    st.members["red-1a"].loc = "chronicle:farm"  # mutation, as above
    st.members["red-1b"].loc = "chronicle:farm"
    for mid in ("red-2a", "red-2b", "red-2c", "red-1c"):
        st.members[mid].loc = "graveyard"
    st.players[HUMAN].time = int(s.comp.v("time_track_length")) - 1
    st.market_front[2] = False  # mutation: two customers wait; the third tile on the stack
    st.customer_stack += 1
    set_board(s, {"harvest": ["green", "pink"], "crafts": ["pink"], "market": ["green"],
                  "church": ["brown", "orange"]})
    take(s, "harvest", "green")                 # Karla takes the market green, serves slot 1
    serve(s, slot=1, points=4)  # the last customer, past the quill
    st = s.state
    assert st.market_day is None and st.pending[0].kind == "death"
    s.execute(cmd("choose_death", member="blue-1a"))
    st = s.state
    assert st.end is not None and st.end.triggered_by == HUMAN and st.end.during_market
    assert st.end.market_trigger == KARLA
    assert st.phase == "turns" and st.stage == "take" and st.current == HUMAN
    take(s, "harvest", "pink")
    resolve_fates(s)
    assert s.state.mass is not None and s.state.mass.final
    check_invariants(s.state, s.comp)
