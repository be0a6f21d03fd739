"""Reader.legal_commands in each phase: every command the engine accepts now, as command
models with their parameters and printed payments, each accepted by a real session; and
the random player (autoplay) plays only listed commands."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.village import commands as c
from companion.village.autoplay import candidate_commands, play_step
from companion.village.read import Reader, RuleError
from companion.village.session import VillageSession
from companion.village.setup import PlayerSetup, VillageSetup
from companion.village.state import VillageState
from tests.hypothesis_budget import examples
from tests.village_rules.conftest import new_session, started

COLOURS = ["red", "yellow", "blue", "white"]


def _session(players: int, seed: int) -> VillageSession:
    solo = players == 1
    setup = VillageSetup(players=[PlayerSetup(name=f"P{i}", colour=COLOURS[i])
                                  for i in range(players)],
                         solo=solo, karla_colour="purple" if solo else None, seed=seed)
    return VillageSession.new(setup)


def _legal(session: VillageSession) -> list[Any]:
    return Reader(session.state, session.comp).legal_commands()


def _reached(pred: Callable[[VillageState], bool], players: int = 3,
             seeds: range = range(12)) -> VillageSession:
    """A random game (autoplay) played until `pred` holds, trying seeds in turn."""
    for seed in seeds:
        session = _session(players, seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if pred(session.state):
                return session
            if play_step(session, rng) is None:
                break
    raise AssertionError("no random game reached the state")


def _accepted_by_a_copy(session: VillageSession, command: Any) -> bool:
    trial = copy.deepcopy(session)
    try:
        trial.execute(command)
    except RuleError:
        return False
    return True


def _take(session: VillageSession, space: str) -> None:
    session.execute({"type": "take_cube", "space": space,
                     "colour": session.state.spaces[space][0]})


# ---- a turn -----------------------------------------------------------------------------
def test_a_turn_lists_the_cubes_the_wells_and_nothing_of_an_action_yet() -> None:
    session = started()
    legal = _legal(session)
    kinds = {cmd.type for cmd in legal}
    assert kinds <= {"take_cube", "well", "end_turn", "free_action", "next_start_marker_coin"}
    takes = {(cmd.space, cmd.colour) for cmd in legal if isinstance(cmd, c.TakeCube)}
    assert takes == {(s, col) for s, cubes in session.state.spaces.items() for col in cubes}


def test_crafts_lists_each_building_goods_trainee_and_printed_payment() -> None:
    session = started()
    me = session.state.current
    farm = sorted(m.id for m in session.state.members_of(me) if m.place == "farmyard")
    _take(session, "crafts")
    legal = _legal(session)
    assert {cmd.type for cmd in legal} <= {"crafts_train", "crafts_buy", "mill", "end_turn",
                                          "next_start_marker_coin"}
    assert c.EndTurn() in legal
    # The stable makes a horse or an ox: both are listed, with a farmyard member trained
    # (one of four interchangeable first-generation members stands for them all).
    trains = [cmd for cmd in legal if isinstance(cmd, c.CraftsTrain)]
    stable = {cmd.goods for cmd in trains if cmd.building == "stable" and cmd.produce}
    assert stable == {"horse", "ox"}
    assert {cmd.train_member for cmd in trains} == {farm[0]}
    reader = Reader(session.state, session.comp)
    for cmd in trains:  # the printed time, exactly the engine's own charge
        assert cmd.pay == reader.train_payment(cmd.building, True, cmd.produce)
    # Buying: each way the player's cubes and coins pay the printed cost (coins standing
    # in for cubes), nothing else.
    p = session.state.players[me]
    for cmd in legal:
        if isinstance(cmd, c.CraftsBuy):
            assert cmd.pay is not None and cmd.pay.coins <= p.coins
            assert all(p.cubes.get(col, 0) >= n for col, n in cmd.pay.cubes.items())
    for cmd in legal:
        assert _accepted_by_a_copy(session, cmd), cmd


def test_council_and_travel_list_their_parameters_when_the_player_can_pay() -> None:
    session = started()
    me = session.state.current
    p = session.state.players[me]
    p.cubes["green"], p.coins = 2, 1
    p.goods["wagon"] = 1
    _take(session, "council")
    legal = _legal(session)
    enters = [cmd for cmd in legal if isinstance(cmd, c.CouncilEnter)]
    # Two green, one green and a coin (no scroll): each without and with privilege 1.
    assert {(tuple(cmd.pay.cubes.items()), cmd.pay.coins) for cmd in enters
            if cmd.pay is not None} == {((("green", 2),), 0), ((("green", 1),), 1)}
    assert [cmd.privilege for cmd in enters[:2]] == [None, c.Privilege(level=1)]
    assert all(cmd.pay is not None and cmd.pay.time == 1 for cmd in enters)

    session = started()
    session.state.players[session.state.current].goods["wagon"] = 1
    _take(session, "travel")
    travels = [cmd for cmd in _legal(session) if isinstance(cmd, c.Travel)]
    cities = session.comp.n("travel_cities")
    assert {cmd.city for cmd in travels} == set(range(1, cities + 1))
    rewards = {cmd.reward for cmd in travels}
    assert rewards == set(session.comp.v("travel_rewards"))
    cube_rewards = {tuple(cmd.reward_cubes) for cmd in travels if cmd.reward == "cubes"}
    assert ("brown", "pink") in cube_rewards and ("green", "green") in cube_rewards
    assert all(cmd.pay == c.Payment(time=2, goods={"wagon": 1}) for cmd in travels)
    for cmd in random.Random(1).sample(travels, 8):
        assert _accepted_by_a_copy(session, cmd), cmd


def test_a_payment_that_differs_from_the_printed_cost_is_never_listed() -> None:
    session = started()
    _take(session, "church")
    for cmd in _legal(session):
        pay = getattr(cmd, "pay", None)
        if isinstance(pay, c.Payment):
            assert not pay.override
            assert Reader(session.state, session.comp).payment_refusal(cmd) is None


# ---- a death, the mass, the market day --------------------------------------------------
def test_a_death_lists_each_member_that_may_die_and_nothing_else() -> None:
    session = started()
    me = session.state.current
    _take(session, "harvest")
    session.execute({"type": "spend_time", "player": me,
                     "amount": session.comp.n("time_track_length")})
    session.execute(c.EndTurn())  # a death is asked for at the end of the turn
    assert session.state.pending and session.state.pending[0].kind == "death"
    reader = Reader(session.state, session.comp)
    assert _legal(session) == [c.ChooseDeath(member=m.id)
                               for m in reader.death_candidates(me)]


def test_the_mass_lists_buy_outs_within_the_room_and_church_moves_within_the_grain() -> None:
    session = _reached(lambda s: s.phase == "mass_buyout" and not s.pending, players=2,
                       seeds=range(2, 14))
    reader = Reader(session.state, session.comp)
    buyer = reader.mass_buyer()
    assert buyer is not None
    legal = _legal(session)
    assert c.MassBuyOut(members=[]) in legal
    assert all(isinstance(cmd, c.MassBuyOut) for cmd in legal)
    coins = session.state.players[buyer].coins
    for cmd in legal:
        assert len(cmd.members) <= min(reader.mass_room(), coins)
        assert all(session.state.members[m].loc == "bag" for m in cmd.members)
    assert max(len(cmd.members) for cmd in legal) == min(
        reader.mass_room(), coins, len(session.state.members_at("bag", buyer)))

    session = _reached(lambda s: s.phase == "mass_advance" and not s.pending, players=2)
    reader = Reader(session.state, session.comp)
    who = reader.mass_advancer()
    assert who is not None
    legal = _legal(session)
    assert c.MassAdvance(moves={}) in legal and len(legal) > 1
    grain = session.state.players[who].grain
    for cmd in legal:
        assert isinstance(cmd, c.MassAdvance)
        cost = sum(reader.advance_cost(session.state.members[m].level, lvl)
                   for m, lvl in cmd.moves.items())
        assert cost <= grain


def test_the_mass_room_is_the_draw_less_the_members_bought_out() -> None:
    session = _reached(lambda s: s.phase == "mass_buyout" and not s.pending, players=2,
                       seeds=range(2, 14))
    reader = Reader(session.state, session.comp)
    assert reader.mass_room() == session.comp.n("mass_draw")
    one = next(cmd for cmd in _legal(session) if len(cmd.members) == 1)
    session.execute(one)
    assert session.state.mass is not None and session.state.mass.bought == one.members
    assert Reader(session.state, session.comp).mass_room() == session.comp.n("mass_draw") - 1


def test_the_market_day_lists_a_sale_per_waiting_customer_and_passing() -> None:
    session = started()
    seller = session.state.current
    session.state.players[seller].grain = 2
    _take(session, "market")
    assert session.state.market_day is not None
    reader = Reader(session.state, session.comp)
    legal = _legal(session)
    assert c.MarketPass() in legal
    serves = [cmd for cmd in legal if isinstance(cmd, c.MarketServe)]
    assert {cmd.slot for cmd in serves} == set(reader.market_slots())
    assert reader.sale_is_free() and not any(cmd.extra_with_coin for cmd in serves)
    assert all(cmd.pay == c.Payment(grain=1) for cmd in serves)
    for cmd in legal:
        assert _accepted_by_a_copy(session, cmd), cmd


# ---- solo, the seat compensation, the end -----------------------------------------------
def test_karlas_choice_lists_each_cube_she_may_take() -> None:
    session = _reached(lambda s: bool(s.pending) and s.pending[0].kind == "karla_cube",
                       players=1)
    pending = session.state.pending[0]
    assert _legal(session) == [
        c.KarlaChooseCube.model_validate({"space": pending.detail.space, "colour": col})
        for col in pending.detail.options]


def test_the_seat_compensation_lists_the_colours_it_may_be_answered_with() -> None:
    session = new_session(4, start_player=0, compensation=True, draw_mode="app")
    assert session.state.pending[0].kind == "compensation_cube"  # the 4th seat chooses
    reader = Reader(session.state, session.comp)
    legal = _legal(session)
    assert legal == [c.ChooseCompensationCube.model_validate({"colour": col})
                     for col in reader.compensation_colours()]
    assert {cmd.colour for cmd in legal} == set(session.comp.v("influence_colours"))


def test_the_scoring_lists_finishing_and_a_finished_game_lists_nothing() -> None:
    session = _reached(lambda s: s.phase == "scoring" and not s.pending, players=2)
    assert _legal(session) == [c.FinishGame()]
    session.execute(c.FinishGame())
    assert session.state.phase == "finished"
    assert _legal(session) == []


def test_a_waiting_draw_lists_nothing() -> None:
    session = new_session(3)  # manual draws: the first bag draw waits
    assert session.state.pending and session.state.pending[0].kind == "chance"
    assert _legal(session) == []


# ---- every listed command is accepted; autoplay plays only listed commands --------------
@settings(max_examples=examples(0.02, minimum=2), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(1, 4), seed=st.integers(0, 10_000))
def test_every_listed_command_executes_and_autoplay_plays_only_listed_ones(
        players: int, seed: int) -> None:
    session = _session(players, seed)
    rng = random.Random(seed)
    for _ in range(300):
        if session.state.phase == "finished":
            assert _legal(session) == []
            break
        legal = [cmd.model_dump(mode="json") for cmd in _legal(session)]
        if not session.state.pending or session.state.pending[0].kind != "chance":
            assert legal, "a game that waits for a player lists something to do"
        for cmd in rng.sample(legal, min(2, len(legal))):
            assert _accepted_by_a_copy(session, cmd), cmd
        # The random player tries the Reader's candidates: every legal command is one.
        tried = [cmd.model_dump(mode="json")
                 for cmd in candidate_commands(session, random.Random(seed))]
        assert all(cmd in tried for cmd in legal)
        played = play_step(session, rng)
        assert played is None or played in legal
