"""Karla's two reactions (market, church) and her part in the mass."""

from __future__ import annotations

import pytest

from companion.village.rules.errors import RuleError
from companion.village.rules.mass import majority_bonus
from tests.village_solo.helpers import (
    HUMAN,
    KARLA,
    check_invariants,
    cmd,
    ctx_of,
    karla_cubes,
    new_session,
    reach_mass,
    resolve_fates,
    serve,
    set_board,
    take,
)


# ---- market ------------------------------------------------------------------------------
def _your_market_day(s) -> None:
    set_board(s, {"market": ["green"], "harvest": ["brown", "pink"], "crafts": ["orange"]})
    take(s, "market", "green")
    assert s.state.market_day is not None and s.state.market_day.trigger == HUMAN


def _sales(s) -> list[tuple[int, int]]:
    assert s.state.market_day is not None
    return list(s.state.market_day.sales)


def test_you_serve_the_front_customer_she_serves_the_former_second() -> None:
    s = new_session()
    _your_market_day(s)
    serve(s, slot=0, points=5)
    assert _sales(s) == [(HUMAN, 0), (KARLA, 1)]


def test_you_serve_another_customer_she_serves_the_front_one() -> None:
    s = new_session()
    _your_market_day(s)
    serve(s, slot=2, points=5)
    assert _sales(s) == [(HUMAN, 2), (KARLA, 0)]


def test_you_pass_she_still_serves_the_front_one() -> None:
    s = new_session()
    _your_market_day(s)
    s.execute(cmd("market_pass"))
    st = s.state
    assert st.market_day is None
    assert st.players[KARLA].customers == [0] and st.players[HUMAN].customers == []


def test_she_never_serves_more_than_one_customer_per_market_day() -> None:
    s = new_session()
    _your_market_day(s)
    serve(s, slot=0, points=5)          # free
    serve(s, slot=2, points=3, extra_with_coin=True)  # 1 coin+1 time
    st = s.state
    # No customer left in the 3 open front spaces: the market day is over.
    assert st.market_day is None
    assert st.players[KARLA].customers == [0]
    assert st.players[HUMAN].customers == [5, 3]
    assert st.players[HUMAN].coins == 0 and st.players[HUMAN].time == 1
    check_invariants(st, s.comp)


def _her_market_day(s) -> None:
    """Your green from harvest: Karla finds green clockwise on the market (crafts has
    none), takes it and triggers a market day."""
    order = s.comp.v("karla_action_order")
    assert order[(order.index("harvest") + 2) % len(order)] == "market"
    set_board(s, {"harvest": ["green", "pink"], "crafts": ["pink"], "market": ["green"],
                  "church": ["brown", "orange"]})
    take(s, "harvest", "green")
    resolve_fates(s)


def test_she_triggers_a_market_day_and_serves_the_front_customer_first() -> None:
    s = new_session()
    _her_market_day(s)
    st = s.state
    assert st.market_day is not None and st.market_day.trigger == KARLA
    assert st.market_day.sales == [(KARLA, 0)]
    assert st.market_day.seller == HUMAN
    with pytest.raises(RuleError) as exc:
        s.execute(cmd("harvest"))
    assert exc.value.field == "phase"


def test_in_her_market_day_you_may_sell_paying_one_green_and_one_time() -> None:
    s = new_session()
    _her_market_day(s)
    assert s.state.players[HUMAN].cubes.get("green") == 1
    serve(s, slot=1, points=4)
    st = s.state
    assert st.players[HUMAN].cubes.get("green") == 0
    assert st.players[HUMAN].time == 1
    assert st.market_day is not None and st.market_day.seller == HUMAN  # she already went
    # No green left: pay the green with the coin instead; plain refusal names the field.
    with pytest.raises(RuleError) as exc:
        serve(s, slot=2, points=2)
    assert exc.value.field == "extra_with_coin"
    serve(s, slot=2, points=2, extra_with_coin=True)
    st = s.state
    assert st.market_day is None
    assert st.players[KARLA].customers == [0]
    assert st.players[HUMAN].customers == [4, 2]
    assert st.players[HUMAN].time == 2
    check_invariants(st, s.comp)


# ---- church ------------------------------------------------------------------------------
def _karla_takes_from_church(s) -> list[str]:
    """Your brown from church and the end of your turn: Karla takes the other brown there
    (her fate flips are entered); then your next turn begins."""
    set_board(s, {"church": ["brown", "brown"], "harvest": ["pink"], "family": ["orange"]})
    notes = take(s, "church", "brown")
    resolve_fates(s)
    st = s.state
    assert st.spaces["church"] == [] and karla_cubes(st)[-1] == "brown@church"
    assert not st.pending and st.current == HUMAN and st.stage == "take"
    return notes + s.last_notes


def test_church_reaction_puts_her_lowest_building_member_into_the_black_bag() -> None:
    s = new_session()
    expected = ["red-3a", "red-3b", "red-4a", "red-4b"]
    for k, mid in enumerate(expected):
        _karla_takes_from_church(s)
        st = s.state
        assert st.members[mid].loc == "bag", (k, mid)
        assert [m.id for m in st.members_of(KARLA) if m.loc == "bag"] == expected[:k + 1]
    assert s.state.karla is not None and not s.state.karla.church_reaction_over
    notes = _karla_takes_from_church(s)
    st = s.state
    assert st.karla is not None and st.karla.church_reaction_over
    assert any("no church reaction" in n for n in notes)
    # For the rest of the game: no reaction, and no further note either.
    notes = _karla_takes_from_church(s)
    assert not any("church" in n and "Karla" in n and "bag" in n for n in notes)
    assert not any("no church reaction" in n for n in notes)
    check_invariants(s.state, s.comp)


def test_church_reaction_needs_her_cube_from_the_church_space() -> None:
    s = new_session()
    set_board(s, {"harvest": ["brown", "brown"], "church": ["pink"]})
    take(s, "harvest", "brown")
    assert all(m.loc != "bag" for m in s.state.members_of(KARLA))


# ---- mass --------------------------------------------------------------------------------
def test_drawn_karla_members_go_to_the_leftmost_level_without_her_member() -> None:
    s = new_session()
    st = s.state
    # Mutation: Karla on levels 1 and 3; two more of hers in the black bag.
    st.members["red-3a"].loc = "church:1"
    st.members["red-3b"].loc = "church:3"
    st.members["red-4a"].loc = "bag"
    st.members["red-4b"].loc = "bag"
    reach_mass(s)
    st = s.state
    assert st.pending[0].draw == "mass"  # you have no member in the bag: no buy-out
    s.enter_draw({"items": ["red-4b", "monk", "red-4a", "monk"]})
    st = s.state
    assert st.members["red-4b"].loc == "church:2"
    assert st.members["red-4a"].loc == "church:4"
    check_invariants(st, s.comp)


def test_at_most_one_karla_member_per_level_a_fifth_stays_in_the_bag() -> None:
    """Rulebook: at most 4 of hers on the track. What happens to a fifth one drawn is not
    written; the engine leaves it in the bag (like a monk): interpretations.json
    "karla_fifth_church_member"."""
    s = new_session()
    st = s.state
    assert st.readings["karla_fifth_church_member"] == "stays_in_bag"
    for lvl, mid in enumerate(["red-3a", "red-3b", "red-4a", "red-4b"], start=1):
        st.members[mid].loc = f"church:{lvl}"  # mutation: her four levels taken
    st.members["red-2a"].loc = "bag"
    reach_mass(s)
    s.enter_draw({"items": ["red-2a", "monk", "monk", "monk"]})
    st = s.state
    assert st.members["red-2a"].loc == "bag"
    check_invariants(st, s.comp)


def test_she_never_buys_out_or_advances() -> None:
    s = new_session()
    st = s.state
    st.members["red-3a"].loc = "bag"      # mutation: one of hers and one of yours in the bag
    st.members["blue-1a"].loc = "bag"
    st.players[HUMAN].grain = 5
    reach_mass(s)
    st = s.state
    assert st.phase == "mass_buyout" and st.mass is not None and st.mass.order == [HUMAN]
    with pytest.raises(RuleError) as exc:
        s.execute(cmd("mass_buyout", members=["red-3a"]))
    assert exc.value.field == "members[0]"
    s.execute(cmd("mass_buyout", members=["blue-1a"]))
    s.enter_draw({"items": ["red-3a", "monk", "monk"]})
    st = s.state
    assert st.members["red-3a"].loc == "church:1"
    assert st.phase == "mass_advance" and st.mass is not None and st.mass.order == [HUMAN]
    with pytest.raises(RuleError) as exc:
        s.execute(cmd("mass_advance", moves={"red-3a": 2}))
    assert exc.value.field == "moves.red-3a"
    s.execute(cmd("mass_advance", moves={"blue-1a": 2}))
    st = s.state
    assert st.members["red-3a"].loc == "church:1"  # never moved by anyone
    # One member each; your rightmost is higher: you get the bonus.
    assert st.players[HUMAN].prestige == 2


@pytest.mark.parametrize(("hers", "yours", "winners"), [
    ({"red-3a": 2}, {"blue-1a": 1}, [KARLA]),                   # tie: her rightmost higher
    ({"red-3a": 2}, {"blue-1a": 3}, [HUMAN]),
    ({"red-3a": 2}, {"blue-1a": 2}, [HUMAN, KARLA]),            # still tied: both
    ({"red-3a": 1, "red-3b": 2}, {"blue-1a": 4}, [KARLA]),      # she has more
])
def test_her_members_count_for_the_majority(hers, yours, winners) -> None:
    s = new_session()
    st = s.state
    for mid, lvl in {**hers, **yours}.items():
        st.members[mid].loc = f"church:{lvl}"  # mutation: the church track
    assert majority_bonus(ctx_of(s)) == winners
    assert st.players[HUMAN].prestige == (2 if HUMAN in winners else 0)
