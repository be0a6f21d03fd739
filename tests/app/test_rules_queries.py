"""companion.village.queries: the engine's answers for the UI, tried on copies.

Each query must agree with what the engine then does with the real command, and must
follow the engine when the engine changes (shown by swapping one of its handlers)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from companion.village import engine, queries
from companion.village.commands import Well
from companion.village.rules.context import Ctx
from companion.village.rules.errors import require
from companion.village.session import VillageSession
from companion.village.setup import PlayerSetup, VillageSetup

from .village_panels.conftest import acting, new_game


@pytest.fixture(autouse=True)
def _forget_sessions() -> Iterator[None]:
    yield
    from companion.app.village.hub import HUB

    HUB._open.clear()  # new_game shares its game through the hub


def fresh(n: int = 2) -> VillageSession:
    setup = VillageSetup(players=[PlayerSetup(name=name, colour=colour) for name, colour
                                  in [("Ann", "red"), ("Bo", "blue"), ("Cy", "white")][:n]],
                         start_player=0, compensation=False)
    return VillageSession.new(setup)


def test_queries_never_change_the_state() -> None:
    session = fresh()
    before = session.state.model_dump()
    queries.turn_options(session.state, session.comp)
    queries.well_options(session.state, session.comp)
    queries.action_block(session.state, session.comp, 0, "harvest")
    queries.sale_is_free(session.state, session.comp)
    assert session.state.model_dump() == before


def test_turn_options_are_what_the_engine_accepts() -> None:
    session = fresh()
    st = session.state
    options = queries.turn_options(st, session.comp)
    on_board = {(s, c) for s, cubes in st.spaces.items() for c in cubes}
    assert options.takes == on_board  # every cube, at the start of a turn
    assert options.well and not options.free_action and not options.end_turn
    space, colour = sorted(on_board - {("market", c) for c in ("brown", "pink", "orange",
                                                               "green", "plague")})[0]
    session.execute({"type": "take_cube", "space": space, "colour": colour})
    options = queries.turn_options(session.state, session.comp)
    assert options.takes == frozenset() and not options.well and options.end_turn


def test_free_action_only_in_the_final_turns_with_an_empty_board() -> None:
    session = fresh()
    st = session.state
    for space in st.spaces:
        st.spaces[space] = []  # Position: the board is empty ...
    assert not queries.turn_options(st, session.comp).free_action
    from companion.village.state import EndState

    st.end = EndState(triggered_by=1, during_market=False)  # ... in the final turns
    options = queries.turn_options(st, session.comp)
    assert options.free_action and not options.well and not options.takes


def test_well_options_take_cubes_first_then_the_fewest_coins() -> None:
    session = fresh()
    p = session.state.players[0]
    p.cubes = {"pink": 3, "green": 2, "orange": 1}
    p.coins = 1
    options = queries.well_options(session.state, session.comp)
    assert options == [queries.WellOption("pink", 3, 0), queries.WellOption("green", 2, 1)]
    assert queries.well_price(session.state, session.comp) == 3
    for option in options:  # the engine accepts each as offered
        assert queries.refusal(session.state, session.comp, Well.model_validate(
            {"colour": option.colour, "coins": option.coins})) is None


def test_the_well_follows_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """A house rule in the engine (a two-cube well) changes the offer: the UI's number
    comes from the engine, not from a copy of the rule."""
    def two_cube_well(ctx: Ctx, cmd: Any) -> None:
        st = ctx.state
        p = st.players[st.current]
        require(st.stage == "take" and st.cubes_on_board() > 0, "well", "closed")
        require(p.cubes.get(cmd.colour, 0) + cmd.coins >= 2 and cmd.coins <= p.coins,
                "colour", "needs 2")
        p.cubes[cmd.colour] = p.cubes.get(cmd.colour, 0) - (2 - cmd.coins)
        p.coins -= cmd.coins
        st.stage, st.space_taken = "act", "well"

    monkeypatch.setitem(engine.HANDLERS, "well", two_cube_well)
    session = fresh()
    session.state.players[0].cubes = {"pink": 2}
    session.state.players[0].coins = 0
    assert queries.well_price(session.state, session.comp) == 2
    assert queries.well_options(session.state, session.comp) == [
        queries.WellOption("pink", 2, 0)]


@pytest.mark.parametrize(("space", "player", "action", "reason"), [
    ("crafts", 0, "crafts", None),
    ("crafts", 0, "council", "other_space"),
    ("crafts", 1, "crafts", "not_your_turn"),
])
def test_action_block_after_a_take(space: str, player: int, action: str,
                                   reason: str | None) -> None:
    game = acting(space, "pink")
    block = queries.action_block(game.session.state, game.session.comp, player, action)
    assert (block.reason if block else None) == reason


def test_action_block_before_a_take_and_after_the_action() -> None:
    game = new_game()
    st, comp = game.session.state, game.session.comp
    block = queries.action_block(st, comp, 0, "harvest")
    assert block is not None and block.reason == "take_first"
    assert block.error is not None and block.error.field == "stage"  # the engine's own
    game = acting("harvest", "pink")
    game.execute({"type": "harvest"})
    block = queries.action_block(game.session.state, game.session.comp, 0, "harvest")
    assert block is not None and block.reason == "done"


def test_action_block_waits_for_a_pending_choice_and_a_market_day() -> None:
    game = acting("crafts", "pink")
    st, comp = game.session.state, game.session.comp
    from companion.village.state import Pending

    st.pending.append(Pending(kind="death", player=1))  # Position: a death to choose
    block = queries.action_block(st, comp, 0, "crafts")
    assert block is not None and block.reason == "waiting"
    game = acting("market", "green")
    block = queries.action_block(game.session.state, game.session.comp, 0, "harvest")
    assert block is not None and block.reason == "market_day"


def test_action_block_follows_the_engines_check(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.village.rules import turns
    from companion.village.rules.errors import RuleError

    def no_church(ctx: Ctx, action: str) -> int:
        if action == "church":
            raise RuleError("action", "no church in this house rule")
        return ctx.state.current

    game = acting("church", "brown")
    st, comp = game.session.state, game.session.comp
    assert queries.action_block(st, comp, 0, "church") is None
    monkeypatch.setattr(turns, "check_action", no_church)
    block = queries.action_block(st, comp, 0, "church")
    assert block is not None and block.error is not None
    assert block.error.message == "no church in this house rule"


def test_the_first_sale_of_the_market_day_is_free() -> None:
    game = acting("market", "green")
    st, comp = game.session.state, game.session.comp
    assert queries.sale_is_free(st, comp)  # Ann holds the market day
    game.execute({"type": "market_pass"})
    assert not queries.sale_is_free(game.session.state, comp)  # Bo pays green and time
    assert not queries.sale_is_free(new_game().session.state, comp)  # no market day


def test_church_levels_come_from_the_component_data() -> None:
    comp = fresh().comp
    assert queries.church_levels(comp) == [1, 2, 3, 4]
    trial = comp.model_copy(deep=True)
    trial.values["score_church"].value = [2, 3, 4, 6, 9]
    assert queries.church_levels(trial) == [1, 2, 3, 4, 5]


def test_a_redraw_is_allowed_before_the_rounds_first_take_only() -> None:
    game = new_game()
    st, comp = game.session.state, game.session.comp
    assert queries.redraw_allowed(st, comp, "bag")
    assert not queries.redraw_allowed(st, comp, "mass")  # no mass under way
    game = acting("harvest", "pink")
    assert not queries.redraw_allowed(game.session.state, comp, "bag")


def test_compensation_colours_are_those_left_in_the_supply() -> None:
    from companion.village.setup import PlayerSetup, VillageSetup

    setup = VillageSetup(players=[PlayerSetup(name=n, colour=c) for n, c in [
        ("Ann", "red"), ("Bo", "blue"), ("Cy", "white"), ("Di", "yellow")]],
        start_player=0, compensation=True)
    for mode in ("app", "manual"):  # chosen by the player, or drawn by hand
        session = VillageSession.new(setup, draw_mode=mode)
        st = session.state
        kinds = [(p.kind, p.draw) for p in st.pending]
        assert kinds and kinds[0] in (("compensation_cube", None),
                                      ("chance", "compensation_cube")), kinds
        assert queries.compensation_colours(st, session.comp) == [
            "brown", "pink", "orange", "green"]
        st.supply["pink"] = 0
        assert queries.compensation_colours(st, session.comp) == ["brown", "orange", "green"]


def _owe_a_death(session: VillageSession) -> None:
    """Ann passes the quill and ends her turn: her death is asked."""
    space, colour = next((s, c[0]) for s, c in session.state.spaces.items()
                         if c and s != "market" and c[0] != "plague")
    session.execute({"type": "take_cube", "space": space, "colour": colour})
    length = int(session.comp.v("time_track_length"))
    session.execute({"type": "spend_time", "player": 0, "amount": length})
    session.execute({"type": "end_turn"})
    assert session.state.pending and session.state.pending[0].kind == "death"


def test_death_result_is_where_the_engine_then_puts_the_member() -> None:
    session = fresh()
    _owe_a_death(session)
    st = session.state
    member = st.members_at("farmyard", 0)[0].id
    result = queries.death_result(st, session.comp, member)
    assert result is not None and result.loc == "chronicle:farm" and not result.ends_game
    assert queries.death_result(st, session.comp, "blue-1a") is None  # not Ann's
    session.execute({"type": "choose_death", "member": member})
    assert session.state.members[member].loc == result.loc


def test_death_result_says_when_the_last_slot_ends_the_game() -> None:
    session = fresh()
    _owe_a_death(session)
    st = session.state
    # Position: every chronicle slot but one filled by Bo's members, the farm one left.
    spare = iter(m for m in st.members.values() if m.owner == 1)
    for section in st.chronicle_capacity:
        keep = 1 if section == "farm" else 0
        while st.chronicle_free(section) > keep:
            next(spare).loc = f"chronicle:{section}"
    member = st.members_at("farmyard", 0)[0].id
    result = queries.death_result(st, session.comp, member)
    assert result is not None and result.loc == "chronicle:farm" and result.ends_game
    session.execute({"type": "choose_death", "member": member})
    assert session.state.end is not None


def test_move_destinations_are_the_moves_the_engine_accepts() -> None:
    session = fresh()
    st, comp = session.state, session.comp
    member = st.members_at("farmyard", 0)[0].id
    places = queries.move_destinations(st, comp, member)
    assert "farmyard" not in places and "council:1" in places and "graveyard" in places
    for loc in places:
        trial = VillageSession(session.setup, comp, list(session.events))
        trial.execute({"type": "move_member", "member": member, "to": loc})
        assert trial.state.members[member].loc == loc
    # A full chronicle section is not offered.
    spare = iter(m for m in st.members.values() if m.owner == 1)
    while st.chronicle_free("crafts") > 0:
        next(spare).loc = "chronicle:crafts"
    assert "chronicle:crafts" not in queries.move_destinations(st, comp, member)
    assert queries.move_destinations(st, comp, "no-such-member") == []
