"""Game end (rulebook 遊戲結束 with its notes and 特殊情況): the last chronicle or graveyard
slot ends the game; final turns; an empty board is not refilled (any action, no well
cubes); the postponed round-end mass, the final mass, final scoring; the market-day cases;
a member dying in the final turns with no slot is removed."""

from __future__ import annotations

from companion.village.session import VillageSession

from .conftest import (
    TRACK,
    assert_conserved,
    end_turn,
    fill_all_chronicle,
    fill_chronicle,
    fill_graveyard,
    give,
    noted,
    refused,
    set_board,
    started,
    take,
)


def _chris_dies_at_turn_end(s: VillageSession, space: str, colour: str) -> list[str]:
    """Chris takes a cube, passes the quill and, at the end of his turn, his gen-1 member
    on the farmyard dies. Returns the notes of the death."""
    give(s, 0, time=TRACK - 1)
    take(s, space, colour)
    s.execute({"type": "spend_time", "player": 0, "amount": 1})
    end_turn(s)
    return s.execute({"type": "choose_death", "member": "blue-1a"}).notes


def _finish_final_mass(s: VillageSession) -> None:
    st = s.state
    assert st.mass is not None and st.mass.final
    while st.phase in ("mass_buyout", "mass_advance"):
        if st.pending:
            s.enter_draw({"items": ["monk"] * int(str(st.pending[0].detail.count))})
        elif st.phase == "mass_buyout":
            s.execute({"type": "mass_buyout", "members": []})
        else:
            s.execute({"type": "mass_advance", "moves": {}})
        st = s.state


def test_filling_the_last_chronicle_slot_ends_the_game_after_the_others_final_turns() -> None:
    s = started(3)
    set_board(s, {"harvest": ["brown", "pink", "orange"], "family": ["green", "green"]})
    fill_all_chronicle(s, {"farm": 1})  # position: one chronicle slot left
    notes = _chris_dies_at_turn_end(s, "harvest", "brown")
    st = s.state
    assert st.members["blue-1a"].loc == "chronicle:farm"
    assert noted(notes, "Game end", "Chris", "last chronicle slot")
    assert noted(notes, "Final turns: Julie, Oliver")
    assert st.end is not None and st.end.triggered_by == 0 and not st.end.during_market
    assert st.current == 1
    take(s, "harvest", "pink")
    end_turn(s)
    assert s.state.current == 2
    take(s, "harvest", "orange")
    out = end_turn(s)
    st = s.state
    # Chris takes no further turn although cubes are left: the final mass follows.
    assert st.cubes_on_board() == 2
    assert noted(out.notes, "Final mass")
    assert st.phase == "mass_buyout" and st.mass is not None and st.mass.final
    _finish_final_mass(s)
    st = s.state
    assert st.phase == "scoring"
    assert st.round == 1 and not st.pending  # no new round, no bag draw
    assert_conserved(s)
    s.execute({"type": "finish_game"})
    assert s.state.phase == "finished"
    with refused(s, "phase"):
        s.execute({"type": "end_turn"})


def test_filling_the_last_graveyard_slot_ends_the_game() -> None:
    s = started(3)
    set_board(s, {"harvest": ["brown", "pink", "orange"]})
    fill_chronicle(s, "farm")  # position: no farm slot, one grave left
    fill_graveyard(s, leave_free=1)
    notes = _chris_dies_at_turn_end(s, "harvest", "brown")
    st = s.state
    assert st.members["blue-1a"].loc == "graveyard"
    assert noted(notes, "Game end", "Chris", "last graveyard slot")
    assert st.end is not None and st.end.triggered_by == 0


def test_a_slot_that_is_not_the_last_does_not_end_the_game() -> None:
    s = started(3)
    set_board(s, {"harvest": ["brown", "pink", "orange"]})
    fill_all_chronicle(s, {"farm": 2})
    _chris_dies_at_turn_end(s, "harvest", "brown")
    assert s.state.end is None and s.state.chronicle_total_free() == 1


def test_an_empty_board_is_not_refilled_final_turns_take_any_action_free() -> None:
    s = started(3)
    set_board(s, {"harvest": ["brown", "pink"]})
    fill_all_chronicle(s, {"farm": 1})
    _chris_dies_at_turn_end(s, "harvest", "brown")
    with refused(s, "free_action"):  # a cube is still on the board
        s.execute({"type": "free_action"})
    take(s, "harvest", "pink")  # Julie takes the last cube
    end_turn(s)
    st = s.state
    # The round-end mass is postponed: Oliver still has his final turn.
    assert st.phase == "turns" and st.mass is None and st.current == 2
    give(s, 2, cubes={"green": 3})
    with refused(s, "well"):  # the well needs a cube on the board
        s.execute({"type": "well", "colour": "green"})
    s.execute({"type": "free_action"})
    s.execute({"type": "harvest"})
    st = s.state
    assert st.players[2].grain == 2 and st.players[2].cubes["green"] == 3  # no well cubes
    assert st.round == 1 and not st.pending  # no refill
    out = end_turn(s)
    assert noted(out.notes, "Final mass")
    assert s.state.mass is not None and s.state.mass.final  # the one mass is the final one
    _finish_final_mass(s)
    assert s.state.phase == "scoring"


def test_free_action_only_in_the_final_turns() -> None:
    s = started(3)
    set_board(s, {})  # position: an empty board outside the final turns
    with refused(s, "free_action"):
        s.execute({"type": "free_action"})


def test_the_trigger_takes_the_last_cube_then_the_others_act_freely() -> None:
    s = started(3)
    set_board(s, {"harvest": ["brown"]})
    fill_all_chronicle(s, {"farm": 1})
    _chris_dies_at_turn_end(s, "harvest", "brown")
    st = s.state
    assert st.phase == "turns" and st.mass is None  # no round-end mass now
    for who in (1, 2):
        assert s.state.current == who
        s.execute({"type": "free_action"})
        end_turn(s)
    assert s.state.mass is not None and s.state.mass.final


def test_market_day_trigger_who_also_ends_the_game_takes_no_final_turn() -> None:
    s = started(3, {"market": ["green", "green"], "harvest": ["brown"] * 3})
    fill_all_chronicle(s, {"farm": 1})
    give(s, 0, grain=2, time=TRACK - 1)
    take(s, "market", "green")
    s.execute({"type": "market_serve", "slot": 0, "points": 2, "pay": {"grain": 1}})
    s.execute({"type": "market_pass"})  # Julie
    s.execute({"type": "market_pass"})  # Oliver
    # Chris's second sale: 1 green + 1 time passes the quill: he dies at once.
    s.execute({"type": "market_serve", "slot": 1, "points": 2, "pay": {"grain": 1}})
    assert s.state.pending[0].kind == "death" and s.state.market_day is not None
    s.execute({"type": "choose_death", "member": "blue-1a"})
    st = s.state
    assert st.end is not None and st.end.during_market and st.end.triggered_by == 0
    assert st.market_day is not None  # the market day is finished first
    s.execute({"type": "market_pass"})
    assert s.state.market_day is None
    out = end_turn(s)
    assert noted(out.notes, "Final turns: Julie, Oliver")
    for who in (1, 2):
        assert s.state.current == who
        take(s, "harvest", "brown")
        end_turn(s)
    assert s.state.mass is not None and s.state.mass.final


def test_someone_else_ending_the_game_in_a_market_day_gives_everyone_a_final_turn() -> None:
    s = started(3, {"market": ["green", "green"], "harvest": ["brown"] * 3})
    fill_all_chronicle(s, {"farm": 1}, owner=2)
    give(s, 1, cubes={"green": 1}, grain=1, time=TRACK - 1)
    take(s, "market", "green")  # Chris starts the market day
    s.execute({"type": "market_pass"})
    # Julie's sale costs 1 time: she passes the quill and dies at once.
    s.execute({"type": "market_serve", "slot": 0, "points": 2, "pay": {"grain": 1}})
    s.execute({"type": "choose_death", "member": "yellow-1a"})
    st = s.state
    assert st.end is not None and st.end.during_market and st.end.triggered_by == 1
    s.execute({"type": "market_pass"})  # Oliver
    s.execute({"type": "market_pass"})  # Julie
    assert s.state.market_day is None
    out = end_turn(s)
    assert noted(out.notes, "Final turns: Julie, Oliver, Chris")
    for who in (1, 2, 0):
        assert s.state.current == who
        take(s, "harvest", "brown")
        end_turn(s)
    assert s.state.mass is not None and s.state.mass.final


def test_a_member_dying_in_the_final_turns_with_no_slot_is_removed() -> None:
    s = started(3, {"harvest": ["brown", "plague", "orange"]})
    fill_chronicle(s, "farm")
    fill_graveyard(s, leave_free=1)
    _chris_dies_at_turn_end(s, "harvest", "brown")  # the last grave: game end
    give(s, 1, time=TRACK - 2)
    take(s, "harvest", "plague")  # Julie's final turn: 2 time passes the quill
    end_turn(s)
    out = s.execute({"type": "choose_death", "member": "yellow-1a"})
    st = s.state
    assert st.members["yellow-1a"].loc == "removed"
    assert noted(out.notes, "Julie", "removed from the game")
    assert not st.members["yellow-1a"].living


def test_a_member_dying_in_the_final_turns_still_takes_a_free_slot() -> None:
    s = started(3, {"harvest": ["brown", "plague", "orange"]})
    fill_all_chronicle(s, {"farm": 1})
    _chris_dies_at_turn_end(s, "harvest", "brown")  # the last chronicle slot
    give(s, 1, time=TRACK - 2)
    take(s, "harvest", "plague")
    end_turn(s)
    s.execute({"type": "choose_death", "member": "yellow-1a"})
    assert s.state.members["yellow-1a"].loc == "graveyard"


def _only_front_customers(s: VillageSession, count: int) -> None:
    """Position: only the first `count` front spaces hold a customer; the others' tiles go
    back on the face-down stack (every tile stays accounted for)."""
    st = s.state
    for slot in range(count, len(st.market_front)):
        if st.market_front[slot]:
            st.market_front[slot] = False
            st.customer_stack += 1


def test_the_last_customer_sale_that_ends_the_game_still_counts_as_in_the_market_day() -> None:
    """Julie's sale passes the quill and empties the market, so the market day is over
    before her death is answered; her death fills the last slot. Chris held the market day
    and did not end the game: everyone, Julie included, takes a final turn (特殊情況)."""
    s = started(3, {"market": ["green", "green"], "harvest": ["brown"] * 3})
    _only_front_customers(s, 2)
    fill_all_chronicle(s, {"farm": 1}, owner=2)
    give(s, 0, grain=1)
    give(s, 1, cubes={"green": 1}, grain=1, time=TRACK - 1)
    take(s, "market", "green")  # Chris holds the market day
    s.execute({"type": "market_serve", "slot": 0, "points": 2, "pay": {"grain": 1}})
    # Julie's sale (1 green + 1 time) passes the quill and serves the last customer.
    s.execute({"type": "market_serve", "slot": 1, "points": 3, "pay": {"grain": 1}})
    st = s.state
    assert st.market_day is None and st.pending[0].kind == "death"
    s.execute({"type": "choose_death", "member": "yellow-1a"})
    st = s.state
    assert st.members["yellow-1a"].loc == "chronicle:farm"
    assert st.end is not None and st.end.triggered_by == 1
    assert st.end.during_market and st.end.market_trigger == 0
    out = end_turn(s)
    assert noted(out.notes, "Final turns: Julie, Oliver, Chris")
    for who in (1, 2, 0):
        assert s.state.current == who
        take(s, "harvest", "brown")
        end_turn(s)
    assert s.state.mass is not None and s.state.mass.final


def test_the_market_host_emptying_the_market_with_a_deadly_sale_ends_without_a_final_turn(
) -> None:
    """The same, but Chris (who held the market day) makes the last, deadly sale: he has
    had his final action; only the others play once more."""
    s = started(3, {"market": ["green", "green"], "harvest": ["brown"] * 3})
    _only_front_customers(s, 2)
    fill_all_chronicle(s, {"farm": 1}, owner=2)
    give(s, 0, cubes={"green": 1}, grain=2, time=TRACK - 1)
    take(s, "market", "green")
    s.execute({"type": "market_serve", "slot": 0, "points": 2, "pay": {"grain": 1}})
    s.execute({"type": "market_pass"})  # Julie
    s.execute({"type": "market_pass"})  # Oliver
    s.execute({"type": "market_serve", "slot": 1, "points": 2, "pay": {"grain": 1}})
    assert s.state.market_day is None
    s.execute({"type": "choose_death", "member": "blue-1a"})
    st = s.state
    assert st.end is not None and st.end.during_market and st.end.market_trigger == 0
    out = end_turn(s)
    assert noted(out.notes, "Final turns: Julie, Oliver")
