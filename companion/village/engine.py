"""The Village engine: apply one event (a user command or a chance outcome) to the state.

Everything else is a fold: state = apply(apply(initial_state(setup), e1), e2) ...
A command that breaks a rule raises RuleError naming the field; the caller keeps the old
state (the session applies to a copy).
"""

from __future__ import annotations

from companion.village import chance
from companion.village.commands import (
    AddCustomerTile,
    Adjust,
    ChooseCompensationCube,
    ChooseDeath,
    Command,
    EndTurn,
    FinishGame,
    FreeAction,
    HoldMarket,
    KarlaChooseCube,
    MarketPass,
    MarketServe,
    MassAdvance,
    MassBuyOut,
    MoveMember,
    NextStartMarkerCoin,
    OverrideScore,
    RemoveCustomerTile,
    SetCustomerPoints,
    SetTime,
    SpendNextStartMarker,
    SpendTime,
    TakeBackTime,
    TakeCube,
    Well,
)
from companion.village.components import ComponentData
from companion.village.rules import (
    compensation,
    corrections,
    karla,
    marker_coin,
    market,
    mass,
    turns,
    well,
)
from companion.village.rules.actions import ACTION_HANDLERS
from companion.village.rules.context import Ctx, Handler, handles
from companion.village.rules.deaths import choose_death, death_candidates
from companion.village.rules.errors import RuleError, require
from companion.village.rules.rounds import progress
from companion.village.setup import VillageSetup, initial_state
from companion.village.state import VillageState


def _choose_death(ctx: Ctx, cmd: ChooseDeath) -> None:
    choose_death(ctx, cmd.member)


def _hold_market(ctx: Ctx, _cmd: HoldMarket) -> None:
    turns.check_action(ctx, "market")
    ctx.state.action_done = True
    market.start_market_day(ctx, ctx.state.current)


def _override(ctx: Ctx, cmd: OverrideScore) -> None:
    st = ctx.state
    require(st.phase in ("scoring", "finished"), "phase", "scores can be edited at the end",
            key="rule.scores_edited_at_end")
    require(cmd.player < len(st.players) and st.players[cmd.player].kind == "human", "player",
            "no such player", key="rule.no_such_player")
    overrides = st.score_overrides.setdefault(str(cmd.player), {})
    if cmd.value is None:
        overrides.pop(cmd.category, None)
    else:
        require(cmd.value >= 0 or cmd.category == "prestige", "value", "must not be negative",
                key="rule.not_negative")
        overrides[cmd.category] = cmd.value


def _finish(ctx: Ctx, _cmd: FinishGame) -> None:
    require(ctx.state.phase == "scoring", "phase", "the game is not at final scoring",
            key="rule.not_final_scoring")
    ctx.state.phase = "finished"


HANDLERS: dict[str, Handler] = dict([
    handles(TakeCube, turns.take_cube),
    handles(Well, well.well),
    handles(FreeAction, turns.free_action),
    handles(EndTurn, turns.end_turn),
    *ACTION_HANDLERS.items(),  # the action spaces: harvest, family, crafts, council, travel, church
    handles(HoldMarket, _hold_market),
    handles(MarketServe, market.serve),
    handles(MarketPass, market.pass_),
    handles(SpendTime, corrections.spend_time_by_hand),
    handles(ChooseDeath, _choose_death),
    handles(ChooseCompensationCube, compensation.choose_compensation_cube),
    handles(MassBuyOut, mass.buy_out),
    handles(MassAdvance, mass.advance),
    handles(KarlaChooseCube, karla.choose_cube),
    handles(SpendNextStartMarker, marker_coin.spend_next_start_marker),
    handles(NextStartMarkerCoin, marker_coin.next_start_marker_coin),
    handles(Adjust, corrections.adjust),
    handles(SetTime, corrections.set_time),
    handles(TakeBackTime, corrections.take_back_time),
    handles(AddCustomerTile, corrections.add_customer_tile),
    handles(RemoveCustomerTile, corrections.remove_customer_tile),
    handles(SetCustomerPoints, corrections.set_customer_points),
    handles(MoveMember, corrections.move_member),
    handles(OverrideScore, _override),
    handles(FinishGame, _finish),
])

# The answer each kind of pending choice waits for.
ANSWERS = {"death": "choose_death", "compensation_cube": "choose_compensation_cube",
           "karla_cube": "karla_choose_cube"}
# Corrections: allowed whatever the game waits for (until it is finished).
ALWAYS_ALLOWED = {"adjust", "set_time", "take_back_time", "add_customer_tile",
                  "remove_customer_tile", "set_customer_points", "move_member"}


def start_state(setup: VillageSetup, comp: ComponentData) -> VillageState:
    """The state before the first event: setup done, waiting for the first draw."""
    state = initial_state(setup, comp)
    ctx = Ctx(state, comp)
    progress(ctx)
    state.notes = []
    state.note_data = []
    return state


def check_gates(state: VillageState, kind: str) -> None:
    """The checks every command passes before its own rule: a pending choice is answered
    (or the draw entered) first, and nothing but a score edit changes a finished game.
    `kind` may be any command type, also one the caller only asks about."""
    if state.pending and kind not in ALWAYS_ALLOWED:
        waiting = state.pending[0]
        if waiting.kind == "chance":
            raise RuleError("draw", f"waiting for the {waiting.draw} draw",
                            key="rule.waiting_for_draw", params={"draw": waiting.draw})
        expected = ANSWERS.get(waiting.kind)
        choice = waiting.kind.replace("_", " ")
        require(kind == expected, "type", f"answer the pending {choice} choice first",
                key="rule.answer_pending_first", params={"choice": choice})
    if state.phase == "finished" and kind != "override_score":
        raise RuleError("phase", "the game is finished", key="rule.game_finished")


def apply_event(state: VillageState, comp: ComponentData,
                body: Command | chance.ChanceEvent) -> list[str]:
    """Apply a validated command or chance event in place; returns the table notes."""
    ctx = Ctx(state, comp)
    state.notes = []
    state.note_data = []
    if isinstance(body, chance.ChanceBase):
        chance.apply_chance(ctx, body)
    else:
        check_gates(state, body.type)
        HANDLERS[body.type](ctx, body)
    _drop_impossible_deaths(ctx)
    progress(ctx)
    _drop_impossible_deaths(ctx)
    return list(state.notes)


def _drop_impossible_deaths(ctx: Ctx) -> None:
    """A death owed by a player with no visible member left cannot happen."""
    st = ctx.state
    while st.pending and st.pending[0].kind == "death":
        player = st.pending[0].player
        assert player is not None
        if death_candidates(ctx, player):
            return
        st.pending.pop(0)
        st.players[player].deaths_pending = 0
        ctx.note("nobody_dies", player=st.players[player].name)
        progress(ctx)
