"""Read-only questions a UI asks before offering a move: may this be done now, what would
it cost. Pure functions over (state, component data); nothing here changes the state.

None of them knows a rule. Each answer comes from the engine itself: the command is tried
on a copy of the state (`VillageState.clone`, well under a millisecond) through
`engine.apply_event`, or the engine's own check function is called. So a rule lives in
one place, and a UI built on these offers exactly what the engine will accept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from companion.village import chance
from companion.village.commands import (
    AddCustomerTile,
    ChooseCompensationCube,
    ChooseDeath,
    Command,
    EndTurn,
    FreeAction,
    MarketServe,
    Mill,
    MoveMember,
    NextStartMarkerCoin,
    Payment,
    TakeCube,
    Well,
)
from companion.village.components import ComponentData
from companion.village.engine import apply_event, check_gates
from companion.village.rules import turns
from companion.village.rules.context import Ctx
from companion.village.rules.corrections import member_spots
from companion.village.rules.errors import RuleError
from companion.village.rules.market import available_slots
from companion.village.state import VillageState


def refusal(state: VillageState, comp: ComponentData,
            command: Command | chance.ChanceEvent) -> RuleError | None:
    """What the engine says to `command` (a command model) now: None when it would accept
    it, else its RuleError naming the field. Tried on a copy."""
    try:
        apply_event(state.clone(), comp, command)
    except RuleError as exc:
        return exc
    return None


def _after(state: VillageState, comp: ComponentData,
           command: Command | chance.ChanceEvent) -> VillageState | None:
    """The state after `command`, or None when the engine refuses it."""
    work = state.clone()
    try:
        apply_event(work, comp, command)
    except RuleError:
        return None
    return work


# ---- a turn: take a cube, the well, the free action, end the turn --------------------------
@dataclass(frozen=True)
class TurnOptions:
    takes: frozenset[tuple[str, str]]  # (space, colour) the current player may take now
    well: bool  # the well is open now (whether the player can pay is well_options' answer)
    free_action: bool
    end_turn: bool


def turn_options(state: VillageState, comp: ComponentData) -> TurnOptions:
    takes = frozenset(
        (space, colour) for space, cubes in state.spaces.items() for colour in set(cubes)
        if refusal(state, comp, TakeCube.model_validate({"space": space, "colour": colour}))
        is None)
    return TurnOptions(
        takes=takes,
        well=well_price(state, comp) is not None,
        free_action=free_action_open(state, comp),
        end_turn=refusal(state, comp, EndTurn()) is None,
    )


def free_action_open(state: VillageState, comp: ComponentData) -> bool:
    """A final turn on an empty board: any one action without the well's price."""
    return refusal(state, comp, FreeAction()) is None


@dataclass(frozen=True)
class WellOption:
    colour: str
    cubes: int  # cubes of `colour` handed back
    coins: int  # coins standing in for the rest


def well_options(state: VillageState, comp: ComponentData) -> list[WellOption]:
    """Each colour the current player can use the well with now, with the fewest coins the
    engine accepts (cubes first, coins standing in)."""
    if not state.players:
        return []
    player = state.players[state.current]
    out: list[WellOption] = []
    for colour in comp.names("influence_colours"):
        for coins in range(player.coins + 1):
            after = _after(state, comp, Well.model_validate({"colour": colour,
                                                             "coins": coins}))
            if after is not None:
                paid = player.cubes.get(colour, 0) - after.players[state.current].cubes.get(
                    colour, 0)
                out.append(WellOption(colour, paid, coins))
                break
    return out


def well_price(state: VillageState, comp: ComponentData) -> int | None:
    """How many cubes of one colour the well takes now, as the engine charges them; None
    when the well cannot be used now whatever the player holds. Tried on a copy in which
    the current player holds every cube of one colour."""
    if not state.players:
        return None
    work = state.clone()
    colour = str(comp.names("influence_colours")[0])
    plenty = comp.n("cubes_per_colour")
    work.players[work.current].cubes[colour] = plenty
    after = _after(work, comp, Well.model_validate({"colour": colour}))
    if after is None:
        return None
    return plenty - after.players[work.current].cubes.get(colour, 0)


# ---- the action after the cube ------------------------------------------------------------
Reason = Literal["waiting", "not_turns", "market_day", "not_your_turn", "take_first", "done",
                 "other_space"]


@dataclass(frozen=True)
class ActionBlock:
    """Why an action cannot be done now: `reason` for the UI's words, `error` the engine's."""

    reason: Reason
    error: RuleError | None = None


def gate_refusal(state: VillageState, comp: ComponentData) -> RuleError | None:
    """What the engine says to any command that is not the answer to a pending choice
    (its own gate check, asked for an action command)."""
    try:
        check_gates(state, "harvest")
    except RuleError as exc:
        return exc
    return None


def action_block(state: VillageState, comp: ComponentData, player: int,
                 action: str) -> ActionBlock | None:
    """None when `player` may do `action`'s action now (the engine's gates, then its
    `check_action`); else why not. Reasons sharing an engine field are told apart by the
    state the engine checked (market day under way; action already done)."""
    gate = gate_refusal(state, comp)
    if gate is not None:
        reason: Reason = "not_turns" if gate.field == "phase" else "waiting"
        return ActionBlock(reason, gate)
    try:
        acting = turns.check_action(Ctx(state, comp), action)
    except RuleError as exc:
        if exc.field == "phase":
            reason = "market_day" if state.market_day is not None else "not_turns"
        elif player != state.current:  # whoever plays now, it is not `player`
            return ActionBlock("not_your_turn", exc)
        elif exc.field == "stage":
            reason = "take_first"
        else:
            reason = "done" if state.action_done else "other_space"
        return ActionBlock(reason, exc)
    if acting != player:
        return ActionBlock("not_your_turn")
    return None


# ---- a printed cost without an engine function ------------------------------------------
def mill_payment(state: VillageState, comp: ComponentData, player: int) -> Payment | None:
    """What the mill takes from `player` when the command names no payment: the engine's
    own charge, measured on a copy in which `player` has just taken a crafts cube, stands
    at the start of the time track and holds plenty of grain (the mill takes time and
    grain). None when the engine would refuse the mill even so."""
    if not 0 <= player < len(state.players):
        return None
    work = state.clone()
    work.phase, work.market_day, work.pending = "turns", None, []
    work.current, work.stage, work.space_taken, work.action_done = player, "act", "crafts", False
    miller = work.players[player]
    miller.kind, miller.time = "human", 0
    miller.grain = plenty = 10 ** 6
    after = _after(work, comp, Mill())
    if after is None:
        return None
    length = comp.n("time_track_length")
    paid = after.players[player]
    return Payment(time=paid.time % length, grain=plenty - paid.grain)


# ---- market day ---------------------------------------------------------------------------
def sale_is_free(state: VillageState, comp: ComponentData) -> bool:
    """The market day's current seller sells now without the extra sale's green cube and
    time. Tried on a copy: a sale to the first waiting customer, with the seller holding
    every green cube; free when the engine charged nothing for it."""
    md = state.market_day
    slots = available_slots(Ctx(state, comp))
    if md is None or not slots:
        return False
    work = state.clone()
    seller = work.players[md.seller]
    seller.cubes["green"] = comp.n("cubes_per_colour")
    # The customer's own demand is the table's (confirmed, so the engine does not ask).
    after = _after(work, comp, MarketServe(slot=slots[0], points=0,
                                           pay=Payment(override=True)))
    if after is None:
        return False
    sold = after.players[md.seller]
    return (sold.cubes.get("green", 0) == seller.cubes["green"] and sold.coins == seller.coins
            and sold.time == seller.time and sold.deaths_pending == seller.deaths_pending)


# ---- draws and the seat compensation -----------------------------------------------------
def redraw_allowed(state: VillageState, comp: ComponentData, draw: str) -> bool:
    """The app may replace this draw now (a redraw, by the app or entered by hand): the
    engine's own precondition of a redraw, run on a copy."""
    try:
        chance._revert_for_redraw(Ctx(state.clone(), comp), draw)
    except RuleError:
        return False
    return True


def compensation_colours(state: VillageState, comp: ComponentData) -> list[str]:
    """The influence colours the pending seat compensation can be answered with now (the
    player's choice, or the cube drawn physically)."""
    pending = state.pending[0] if state.pending else None
    out: list[str] = []
    for colour in comp.names("influence_colours"):
        answer: Command | chance.ChanceEvent
        if pending is not None and pending.kind == "chance":
            answer = chance.CompensationChance(outcome=chance.ColourOutcome(colour=colour),
                                               source="manual")
        else:
            answer = ChooseCompensationCube.model_validate({"colour": colour})
        if refusal(state, comp, answer) is None:
            out.append(str(colour))
    return out


# ---- the church ---------------------------------------------------------------------------
def church_levels(comp: ComponentData) -> list[int]:
    """The church track's levels, 1 (entered from the black bag) to the top: one per
    printed score (`score_church`)."""
    return list(range(1, len(comp.numbers("score_church")) + 1))


# ---- corrections ------------------------------------------------------------------------
def move_destinations(state: VillageState, comp: ComponentData, member: str) -> list[str]:
    """Where a correction may move `member` now, in board order: the engine's own list of
    spots for its owner, each tried as a `move_member` (a full section drops out)."""
    found = state.members.get(member)
    if found is None:
        return []
    return [loc for loc in member_spots(Ctx(state, comp), found.owner)
            if loc != found.loc
            and refusal(state, comp, MoveMember(member=member, to=loc)) is None]


def marker_coin_offered(state: VillageState, comp: ComponentData) -> bool:
    """Solo: the next-start-player marker may be turned into a coin now."""
    return refusal(state, comp, NextStartMarkerCoin()) is None


def customer_tile_refusal(state: VillageState, comp: ComponentData,
                          player: int) -> RuleError | None:
    """Why a served tile cannot be added for `player` from the face-down stack now."""
    return refusal(state, comp, AddCustomerTile(player=player, points=0))


# ---- a death to choose ------------------------------------------------------------------
@dataclass(frozen=True)
class DeathResult:
    loc: str  # where the member would go: "chronicle:<section>", "graveyard" or "removed"
    ends_game: bool  # it fills the last chronicle or graveyard slot


def death_result(state: VillageState, comp: ComponentData, member: str) -> DeathResult | None:
    """What choosing `member` for the waiting death would do, tried on a copy (None when
    the engine would refuse it)."""
    after = _after(state, comp, ChooseDeath(member=member))
    if after is None:
        return None
    return DeathResult(loc=after.members[member].loc,
                       ends_game=state.end is None and after.end is not None)
