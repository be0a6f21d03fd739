"""The rulebook's two solo examples (單人遊戲 範例), rebuilt move by move."""

from __future__ import annotations

from companion.village.rules.context import Ctx
from companion.village.state import PLAGUE
from tests.village_solo.helpers import (
    HUMAN,
    KARLA,
    check_invariants,
    cmd,
    fate_position,
    karla_track,
    new_session,
    serve,
    set_board,
    take,
)


def _reach_market_example():
    """Play to the moment before Chris takes the market cube: the market's green is the
    only green on the board, travel is empty, council holds a brown and a plague cube, and
    Karla's next cube goes on the space that passes her second top fate tile."""
    s = new_session()
    comp = s.comp
    # The example needs Karla's board to be at the space just before a fate tile; with the
    # data's layout her 4th cube lands there (her 2nd cube passes the first top tile).
    assert fate_position(comp, "top", 0) == 1 and fate_position(comp, "top", 1) == 3
    # Each take also ends your turn; Karla takes after it.
    take(s, "travel", "plague")           # Karla: plague from travel too -> travel empty
    take(s, "council", "orange")          # Karla: orange clockwise (family) -> space 2
    assert s.state.pending[0].draw == "fate"
    s.enter_draw({"side": "top", "tile": 0, "quill": False})
    take(s, "harvest", "brown")           # Karla: brown from crafts -> space 3
    st = s.state
    assert st.current == HUMAN and st.stage == "take" and not st.pending
    assert st.spaces["market"] == ["green"]
    assert st.spaces["travel"] == []
    assert sorted(st.spaces["council"]) == ["brown", PLAGUE]
    assert all("green" not in c for sp, c in st.spaces.items() if sp != "market")
    assert st.karla is not None and st.karla.last_space == 2
    return s


def test_market_and_council_example() -> None:
    s = _reach_market_example()
    st = s.state
    front_before = list(st.market_front)
    assert front_before[:3] == [True, True, True]

    # Chris takes the market's green: the market day starts, he serves the front customer.
    take(s, "market", "green")            # the market day is open: the turn goes on
    assert s.state.market_day is not None and s.state.market_day.trigger == HUMAN
    assert s.state.karla is not None and s.state.karla.last_space == 2  # nothing taken yet
    serve(s, slot=0, points=6)
    st = s.state
    # Karla serves the customer that was second (she takes part in every market day).
    assert st.players[KARLA].customers == [0]
    assert st.market_day is not None and st.market_day.sales == [(HUMAN, 0), (KARLA, 1)]
    assert st.players[HUMAN].time == 2  # only the plague's 2 time: the first sale is free
    # Chris may pay 1 green + 1 time for another customer; he declines.
    notes = s.execute(cmd("market_pass")).notes
    st = s.state
    assert st.market_day is None
    assert any(n.startswith("Refill") for n in notes)
    # The refill (市集): queue 1-2 move to the two served front spaces, the queue moves
    # up, two new tiles come from the stack. With 2 players only front spaces 1-3 are in
    # play; the blocked spaces 4-5 stay empty.
    assert st.market_front == front_before == [True, True, True, False, False]
    assert st.market_queue == [True] * 5
    assert st.customer_stack == 24 - 3 - 5 - 2
    # The market day was the action of Chris's turn; Karla has not taken anything yet.
    assert not st.pending and st.stage == "act" and st.current == HUMAN
    assert st.karla is not None and st.karla.last_space == 2

    # "Now it is Karla's turn" (after Chris's turn): no green anywhere, market empty,
    # travel empty -> council, where Chris chooses between brown and plague for her.
    s.execute(cmd("end_turn"))
    st = s.state
    pend = st.pending[0]
    assert pend.kind == "karla_cube"
    assert pend.detail.space == "council"
    assert sorted(pend.detail.options) == ["brown", PLAGUE]
    why = [{"key": "karla_why_none", "params": {"colour": "green", "space": "market"}},
           {"key": "karla_why_next_nonempty",
            "params": {"from_space": "market", "space": "council"}}]
    assert [w.model_dump() for w in pend.detail.why] == why
    out = s.execute(cmd("karla_choose_cube", space="council", colour=PLAGUE))
    # Her notes: the take (on her 4th space), then why, as keys + params and in English.
    assert out.note_data[:4] == [
        {"key": "karla_takes", "params": {"colour": PLAGUE, "space": "council", "pos": 4}},
        *why, {"key": "karla_why_chosen", "params": {}}]
    assert out.notes[0] == f"Karla takes {PLAGUE} from council » her space 4"
    assert out.notes[3] == "You chose the cube"
    st = s.state
    assert karla_track(st)[3] == [f"{PLAGUE}@council"]
    assert st.spaces["council"] == ["brown"]
    # The plague cube passes a fate tile: it is flipped at once and shows the quill.
    pend = st.pending[0]
    assert (pend.kind, pend.draw) == ("chance", "fate")
    assert (pend.detail.side, pend.detail.tile) == ("top", 1)
    s.enter_draw({"side": "top", "tile": 1, "quill": True})
    st = s.state
    # One of her gen-1 members dies into the council section (the cube came from council).
    dead = [m for m in st.members_of(KARLA) if not m.living]
    assert [(m.gen, m.loc) for m in dead] == [(1, "chronicle:council")]
    assert st.karla is not None and st.karla.quill["top"] == 1
    assert st.karla.fate["top"] == [True, True, False]
    # Karla's turn is over: Chris's next turn.
    assert not st.pending and st.stage == "take" and st.current == HUMAN
    check_invariants(st, s.comp)


def test_mass_example() -> None:
    """No buy-out; four draws: Karla's gen 4 to level 2 (her gen 3 is on level 1), her
    next gen 3 to level 3, one of Chris's members to level 1, a monk back into the bag.
    Chris cannot win the majority bonus, even by advancing to level 4."""
    s = new_session()
    st = s.state
    # Mutation to build the example position (acceptable in unit tests): the round's last
    # cube on harvest; Karla's gen-3 already on church level 1, her other gen 3 and one
    # gen 4 in the black bag (as after church reactions); one of Chris's members in the bag
    # and 4 grain on his farmyard.
    set_board(s, {"harvest": ["brown"]})
    st.members["red-3a"].loc = "church:1"
    st.members["red-3b"].loc = "bag"
    st.members["red-4a"].loc = "bag"
    st.members["blue-1a"].loc = "bag"
    st.players[HUMAN].grain = 4
    take(s, "harvest", "brown")          # the last cube; after the turn Karla finds none
    assert karla_track(s.state) == [[] for _ in karla_track(s.state)]
    st = s.state
    assert st.phase == "mass_buyout"
    assert st.mass is not None and st.mass.order == [HUMAN]  # Karla never buys out
    s.execute(cmd("mass_buyout", members=[]))
    st = s.state
    assert st.pending[0].draw == "mass" and st.pending[0].detail.count == 4
    s.enter_draw({"items": ["red-4a", "red-3b", "blue-1a", "monk"]})
    st = s.state
    assert st.members["red-3a"].loc == "church:1"
    assert st.members["red-4a"].loc == "church:2"
    assert st.members["red-3b"].loc == "church:3"
    assert st.members["blue-1a"].loc == "church:1"
    assert st.monks_in_bag == 4
    assert st.phase == "mass_advance" and st.mass is not None and st.mass.order == [HUMAN]
    # Chris advances his member to level 4 (1 + 1 + 2 grain): still 1 member against 3.
    s.execute(cmd("mass_advance", moves={"blue-1a": 4}))
    st = s.state
    assert st.members["blue-1a"].loc == "church:4"
    assert st.players[HUMAN].grain == 0
    assert st.players[HUMAN].prestige == 0
    assert st.round == 2 and st.pending[0].draw == "bag"
    check_invariants(st, s.comp)


def test_mass_example_majority_counts_karla_even_against_a_higher_member() -> None:
    """The majority bonus helper itself: Karla's 3 members beat Chris's single level-4."""
    from companion.village.rules.mass import majority_bonus

    s = new_session()
    st = s.state
    # Mutation: church track as at the end of the example.
    for mid, loc in {"red-3a": "church:1", "red-4a": "church:2", "red-3b": "church:3",
                     "blue-1a": "church:4"}.items():
        st.members[mid].loc = loc
    assert majority_bonus(Ctx(st, s.comp)) == [KARLA]
    assert st.players[HUMAN].prestige == 0
