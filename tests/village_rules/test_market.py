"""Market (rulebook 市集 and its 3-player market day example): the trigger player's first
sale is free, every other sale costs 1 green + 1 time, passing is final, then the refill;
deaths during a market day happen at once (家族成員過世 例外)."""

from __future__ import annotations

from companion.village.session import Outcome, VillageSession

from .conftest import TRACK, acting, assert_conserved, end_turn, give, noted, refused, take


def serve(s: VillageSession, slot: int, points: int, **pay: object) -> Outcome:
    return s.execute({"type": "market_serve", "slot": slot, "points": points, "pay": pay})


def pass_(s: VillageSession) -> Outcome:
    return s.execute({"type": "market_pass"})


def _rulebook_market_day() -> tuple[VillageSession, Outcome]:
    """Chris triggers the market day and serves for free with a horse and a plough
    (6 points). Julie pays 1 green + 1 time and 3 grain. Oliver has a scroll but no grain
    or horse: he passes. Chris pays 1 green + 1 time and a scroll + a grain. Julie has no
    horse: she passes. Chris passes too. Returns the session and the last outcome."""
    s = acting("market", colour="green")  # Chris took the market cube (green): 4 front spaces
    assert s.state.market_day is not None and s.state.market_day.seller == 0
    # Position: what each of them holds.
    give(s, 0, goods={"horse": 1, "plough": 1, "scroll": 1}, grain=1)
    give(s, 1, cubes={"green": 1}, grain=3)
    give(s, 2, goods={"scroll": 1})
    serve(s, 0, 6, goods={"horse": 1, "plough": 1})
    serve(s, 1, 4, grain=3)
    pass_(s)
    serve(s, 2, 5, goods={"scroll": 1}, grain=1)
    pass_(s)
    last = pass_(s)
    return s, last


def test_rulebook_market_day_sales_and_costs() -> None:
    s, _ = _rulebook_market_day()
    chris, julie, oliver = s.state.players
    assert s.state.market_day is None
    assert chris.customers == [6, 5] and julie.customers == [4] and oliver.customers == []
    # Chris: first sale free; the second cost his green cube and 1 time.
    assert chris.goods == {"horse": 0, "plough": 0, "scroll": 0} and chris.grain == 0
    assert chris.cubes["green"] == 0 and chris.time == 1
    assert julie.cubes["green"] == 0 and julie.time == 1 and julie.grain == 0
    assert oliver.goods == {"scroll": 1} and oliver.time == 0
    # The market action was Chris's action: his turn goes on until he ends it.
    assert s.state.current == 0 and s.state.stage == "act" and s.state.action_done
    end_turn(s)
    assert s.state.current == 1
    assert_conserved(s)


def test_rulebook_market_day_refill() -> None:
    """"First the front 3 queue tiles go to the 3 empty front spaces, then the queue
    moves forward, then new tiles from the stack.\""""
    s, out = _rulebook_market_day()
    st = s.state
    assert out.notes == [
        "Refill: move queue 1 » front 1",
        "Refill: move queue 2 » front 2",
        "Refill: move queue 3 » front 3",
        "Refill: move queue 4 » queue 1",
        "Refill: move queue 5 » queue 2",
        "Refill: new tile from the stack » queue 3",
        "Refill: new tile from the stack » queue 4",
        "Refill: new tile from the stack » queue 5",
    ]
    assert st.market_front == [True, True, True, True, False]  # the 4-5 space stays empty
    assert st.market_queue == [True] * 5
    assert st.customer_stack == 15 - 3


def test_two_player_refill_keeps_the_closed_front_spaces_empty() -> None:
    s = acting("market", n=2, colour="green")
    give(s, 0, grain=2)
    serve(s, 0, 3, grain=2)
    pass_(s)
    pass_(s)
    st = s.state
    assert st.market_front == [True, True, True, False, False]
    assert st.market_queue == [True] * 5
    assert st.customer_stack == 16 - 1


def test_the_closed_front_spaces_hold_no_customer() -> None:
    s = acting("market", colour="green")
    give(s, 0, grain=2)
    with refused(s, "slot"):
        serve(s, 4, 3, grain=2)  # 3 players: the space marked 4-5 is empty


def test_taking_the_market_cube_starts_the_market_day_at_once() -> None:
    s = acting("market", colour="green")
    st = s.state
    assert st.market_day is not None and st.market_day.trigger == 0
    assert st.action_done
    with refused(s, "phase"):
        end_turn(s)
    with refused(s, "phase"):
        take(s, "market", "green")
    for _ in range(3):
        pass_(s)
    with refused(s, "action"):  # the market day was this turn's action
        s.execute({"type": "hold_market"})


def test_a_market_day_through_the_well() -> None:
    s = acting("harvest")
    end_turn(s)
    give(s, 1, cubes={"pink": 3})
    s.execute({"type": "well", "colour": "pink"})
    s.execute({"type": "hold_market"})
    assert s.state.market_day is not None and s.state.market_day.seller == 1


def test_only_the_trigger_players_first_sale_is_free() -> None:
    s = acting("market", colour="orange")
    give(s, 0, grain=4)
    serve(s, 0, 2, grain=1)
    pass_(s)  # Julie
    pass_(s)  # Oliver
    with refused(s, "extra_with_coin"):
        serve(s, 1, 2, grain=1)  # the second sale needs a green cube (or a coin)
    s.execute({"type": "market_serve", "slot": 1, "points": 2, "pay": {"grain": 1},
               "extra_with_coin": True})
    p = s.state.players[0]
    assert p.coins == 0 and p.time == 1 and p.customers == [2, 2]


def test_a_player_who_passed_sells_no_more() -> None:
    s = acting("market", colour="green")
    give(s, 1, cubes={"green": 2}, grain=5)
    pass_(s)  # Chris passes at once
    serve(s, 0, 3, grain=1)  # Julie
    pass_(s)  # Oliver
    # Next go is Julie's again: Chris and Oliver have passed.
    assert s.state.market_day is not None and s.state.market_day.seller == 1
    serve(s, 1, 3, grain=1)
    assert s.state.market_day is not None and s.state.market_day.seller == 1
    pass_(s)
    assert s.state.market_day is None
    assert s.state.players[1].customers == [3, 3] and s.state.players[1].time == 2


def test_no_sale_changes_nothing() -> None:
    s = acting("market", colour="green")
    before = (list(s.state.market_front), list(s.state.market_queue), s.state.customer_stack)
    pass_(s)
    pass_(s)
    out = pass_(s)
    st = s.state
    assert st.market_day is None
    assert (st.market_front, st.market_queue, st.customer_stack) == before
    assert out.notes == [
        "Market day over: no customer was served, the market stays as it is"]


def test_an_exhausted_stack_leaves_spaces_empty() -> None:
    s = acting("market", n=4, colour="green")  # 4 players: all 5 front spaces open
    s.state.customer_stack = 1  # position: one tile left face down (others served earlier)
    give(s, 0, grain=3, goods={"ox": 1})
    give(s, 1, cubes={"green": 1}, grain=1)
    serve(s, 0, 4, goods={"ox": 1})
    serve(s, 1, 2, grain=1)
    pass_(s)
    pass_(s)
    serve(s, 2, 3, grain=1)  # Chris, paying his green cube
    pass_(s)
    out = pass_(s)
    st = s.state
    assert st.market_front == [True] * 5
    assert st.market_queue == [True, True, True, False, False]
    assert st.customer_stack == 0
    assert out.notes[-1] == "Refill: new tile from the stack » queue 3"


def test_once_every_customer_is_served_the_front_stays_empty() -> None:
    s = acting("market", n=4, colour="green")
    # Position: the last customer of the game waits on front space 1.
    st = s.state
    st.market_front = [True, False, False, False, False]
    st.market_queue = [False] * 5
    st.customer_stack = 0
    give(s, 0, grain=2)
    out = serve(s, 0, 5, grain=2)
    st = s.state
    assert st.market_day is None  # nobody can serve any more
    assert st.market_front == [False] * 5 and st.market_queue == [False] * 5
    assert noted(out.notes, "Every customer has been served")


def test_a_death_during_a_market_day_is_asked_at_once() -> None:
    s = acting("market", colour="green")
    give(s, 1, cubes={"green": 1}, grain=2, time=TRACK - 1)
    pass_(s)  # Chris
    serve(s, 0, 2, grain=2)  # Julie pays 1 time and passes the quill
    st = s.state
    assert st.pending[0].kind == "death" and st.pending[0].player == 1
    assert st.market_day is not None and st.market_day.seller == 2
    with refused(s, "type"):
        pass_(s)  # Oliver waits for Julie's death
    s.execute({"type": "choose_death", "member": "yellow-1a"})
    assert s.state.members["yellow-1a"].loc == "chronicle:farm"
    assert s.state.players[1].deaths_pending == 0
    pass_(s)
    pass_(s)
    assert s.state.market_day is None


def test_a_plague_cube_on_the_market_space_still_starts_the_market_day() -> None:
    s = acting("market", colour="plague")
    assert s.state.market_day is not None
    assert s.state.players[0].time == 2
    assert s.state.supply["plague"] == 1
