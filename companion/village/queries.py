"""Read-only questions a UI asks before offering a move: may this be done now, what would
it cost. Pure functions over (state, component data); nothing here changes the state.

None of them knows a rule. Each answer comes from the engine itself: the command is tried
on a copy of the state (`VillageState.clone`, well under a millisecond) through
`engine.apply_event`, or the engine's own check function is called. So a rule lives in
one place, and a UI built on these offers exactly what the engine will accept.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement, product
from typing import Literal

from companion.core.errors import EngineFault
from companion.core.json_types import JsonObject
from companion.village import chance
from companion.village.commands import (
    ACTION_OF,
    AddCustomerTile,
    ChooseCompensationCube,
    ChooseDeath,
    Church,
    Command,
    CouncilAdvance,
    CouncilEnter,
    CouncilPrivilege,
    CraftsBuy,
    CraftsTrain,
    EndTurn,
    FamilyBirth,
    FamilyRecall,
    FinishGame,
    FreeAction,
    Harvest,
    HoldMarket,
    KarlaChooseCube,
    MarketPass,
    MarketServe,
    MassAdvance,
    MassBuyOut,
    Mill,
    MoveMember,
    NextStartMarkerCoin,
    Payment,
    Privilege,
    TakeCube,
    Travel,
    Well,
)
from companion.village.components import ComponentData
from companion.village.engine import apply_event, check_gates
from companion.village.rules import church, council, crafts, mass, travel, turns
from companion.village.rules.context import Ctx
from companion.village.rules.corrections import member_spots
from companion.village.rules.deaths import death_candidates
from companion.village.rules.errors import RuleError
from companion.village.rules.family import BOARD_PLACES_FOR_RECALL
from companion.village.rules.market import available_slots
from companion.village.rules.payment import payment_ways
from companion.village.state import Member, VillageState


def refusal(state: VillageState, comp: ComponentData,
            command: Command | chance.ChanceEvent) -> RuleError | None:
    """What the engine says to `command` (a command model) now: None when it would accept
    it, else its RuleError naming the field. Tried on a copy. An engine crash is no
    refusal: it raises EngineFault, as `execute` does."""
    try:
        _try(state.clone(), comp, command)
    except RuleError as exc:
        return exc
    return None


def _after(state: VillageState, comp: ComponentData,
           command: Command | chance.ChanceEvent) -> VillageState | None:
    """The state after `command`, or None when the engine refuses it."""
    work = state.clone()
    try:
        _try(work, comp, command)
    except RuleError:
        return None
    return work


def _try(work: VillageState, comp: ComponentData,
         command: Command | chance.ChanceEvent) -> None:
    try:
        apply_event(work, comp, command)
    except RuleError:
        raise
    except Exception as exc:  # a bug, not a refusal
        name = getattr(command, "type", None) or getattr(command, "draw", "?")
        raise EngineFault(str(name), exc) from exc


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


# ---- every legal command ----------------------------------------------------------------
def legal_commands(state: VillageState, comp: ComponentData) -> list[Command]:
    """Every command the engine accepts now, as command models, each tried on a copy: the
    turn (cubes, the well with each number of coins, the free action, ending the turn),
    each action with its parameters and each printed way to pay it, the answer to a
    waiting choice, the mass's buy-outs and church moves, the market day's sales and
    passes, finishing the scoring. Empty when the game is over or waits for a draw.

    Not listed: corrections and hand-moved time (always open, free-form), payments other
    than the printed cost (the table confirms those), and values only the table knows,
    which are listed at their neutral value: a customer's printed points (0) and demand
    (one goods tile the seller holds, or one grain), a route's printed cubes (none).
    Members of one generation standing on one spot are interchangeable: the lowest id
    stands for them."""
    return [c for c in command_candidates(state, comp) if refusal(state, comp, c) is None]


def command_candidates(state: VillageState, comp: ComponentData) -> list[Command]:
    """The commands `legal_commands` tries, untried: every legal command is among them,
    in the same order (for a caller that tries them one by one, as `execute` does)."""
    return _candidates(Ctx(state, comp))


def _reps(members: list[Member]) -> list[Member]:
    """One member per (generation, spot), the lowest id; in id order."""
    seen: dict[tuple[int, str], Member] = {}
    for m in sorted(members, key=lambda m: m.id):
        seen.setdefault((m.gen, m.loc), m)
    return sorted(seen.values(), key=lambda m: m.id)


def _candidates(ctx: Ctx) -> list[Command]:
    st = ctx.state
    if st.phase == "finished" or not st.players:
        return []
    if st.pending:
        return _answers(ctx)
    if st.phase == "scoring":
        return [FinishGame()]
    if st.phase == "mass_buyout":
        return _buyouts(ctx)
    if st.phase == "mass_advance":
        return _church_moves(ctx)
    if st.market_day is not None:
        return _market_day(ctx)
    if st.phase != "turns":
        return []
    out: list[Command] = []
    if st.stage == "take":
        out += [TakeCube.model_validate({"space": s, "colour": c})
                for s, cubes in st.spaces.items() for c in sorted(set(cubes))]
        price = well_price(st, ctx.comp)
        if price is not None:
            coins = min(st.players[st.current].coins, price)
            out += [Well.model_validate({"colour": c, "coins": k})
                    for c in ctx.comp.v("influence_colours") for k in range(coins + 1)]
        out.append(FreeAction())
    else:
        out += _actions(ctx, st.current)
    out += [EndTurn(), NextStartMarkerCoin()]
    return out


def _answers(ctx: Ctx) -> list[Command]:
    pending = ctx.state.pending[0]
    if pending.kind == "death" and pending.player is not None:
        return [ChooseDeath(member=m.id) for m in death_candidates(ctx, pending.player)]
    if pending.kind == "karla_cube":
        return [KarlaChooseCube.model_validate({"space": pending.detail.space, "colour": c})
                for c in pending.detail.options]
    if pending.kind == "compensation_cube":
        return [ChooseCompensationCube.model_validate({"colour": c})
                for c in ctx.comp.v("influence_colours")]
    return []  # a draw: entered or drawn by the app, not chosen


def _buyouts(ctx: Ctx) -> list[Command]:
    """Each choice of the buyer's members in the black bag that fits the room and the
    coins (members of one generation interchangeable), buying none included."""
    who = mass.buyer(ctx)
    if who is None:
        return []
    by_gen: dict[int, list[str]] = {}
    for m in sorted(ctx.state.members_at("bag", who), key=lambda m: m.id):
        by_gen.setdefault(m.gen, []).append(m.id)
    most = min(mass.draw_room(ctx), ctx.state.players[who].coins
               // max(1, ctx.comp.n("mass_buyout_cost")))
    gens = sorted(by_gen)
    out: list[Command] = []
    for counts in product(*(range(len(by_gen[g]) + 1) for g in gens)):
        if sum(counts) <= most:
            chosen = [mid for g, k in zip(gens, counts, strict=True) for mid in by_gen[g][:k]]
            out.append(MassBuyOut(members=chosen))
    return out


def _church_moves(ctx: Ctx) -> list[Command]:
    """Each set of church moves the advancer's grain pays for, moving none included."""
    who = mass.advancer(ctx)
    if who is None:
        return []
    top = mass.church_top(ctx)
    movable = sorted((m for m in ctx.state.members_in("church", who) if m.level < top),
                     key=lambda m: m.id)
    grain = ctx.state.players[who].grain
    out: list[Command] = []
    for levels in product(*([m.level, *range(m.level + 1, top + 1)] for m in movable)):
        moves = {m.id: lvl for m, lvl in zip(movable, levels, strict=True) if lvl != m.level}
        cost = sum(mass.advance_cost(ctx, ctx.state.members[mid].level, lvl)
                   for mid, lvl in moves.items())
        if cost <= grain:
            out.append(MassAdvance(moves=moves))
    return out


def _market_day(ctx: Ctx) -> list[Command]:
    st = ctx.state
    md = st.market_day
    assert md is not None
    seller = st.players[md.seller]
    demands = [Payment.model_validate({"goods": {g: 1}})
               for g in ctx.comp.v("goods_types") if seller.goods.get(g, 0) > 0]
    if seller.grain > 0:
        demands.append(Payment(grain=1))
    extras = [False] if sale_is_free(st, ctx.comp) else [False, True]
    out: list[Command] = [MarketServe(slot=slot, points=0, pay=demand, extra_with_coin=extra)
                          for slot in available_slots(ctx) for demand in demands
                          for extra in extras]
    return [*out, MarketPass()]


def _privileges(ctx: Ctx, level: int) -> list[Privilege]:
    """Every council privilege of the levels up to `level`, with each choice it takes."""
    colours = list(ctx.comp.v("influence_colours"))
    count = ctx.comp.n("council_privilege_cubes")
    pick = combinations if ctx.comp.v("council_privilege_cubes_distinct") \
        else combinations_with_replacement
    by_level: dict[int, list[Privilege]] = {
        1: [Privilege(level=1)],
        2: [Privilege.model_validate({"level": 2, "cubes": list(cubes)})
            for cubes in pick(colours, count)],
        3: [Privilege.model_validate({"level": 3, "goods": g})
            for g in ctx.comp.v("goods_types")],
        4: [Privilege(level=4)],
    }
    return [p for lvl in range(1, level + 1) for p in by_level.get(lvl, [])]


def _actions(ctx: Ctx, player: int) -> list[Command]:
    """The actions open to `player` now, each with its parameters and printed payments."""
    st, comp = ctx.state, ctx.comp
    open_ = {a for a in set(ACTION_OF.values())
             if action_block(st, comp, player, a) is None}
    mine = st.members_of(player)
    farm = _reps([m for m in mine if m.place == "farmyard"])
    out: list[Command] = []
    if "harvest" in open_:
        out.append(Harvest())
    if "family" in open_:
        out.append(FamilyBirth())
        out += [FamilyRecall(member=m.id)
                for m in _reps([m for m in mine if m.place in BOARD_PLACES_FOR_RECALL])]
    if "crafts" in open_:
        for building, goods_options in comp.v("workshop_goods").items():
            for trainee in [None, *farm]:
                train = trainee is not None
                for produce in (True, False) if train else (True,):
                    for goods in goods_options if produce else [None]:
                        out += [CraftsTrain.model_validate({
                            "building": building, "produce": produce, "goods": goods,
                            "train_member": trainee.id if trainee else None, "pay": way})
                            for way in payment_ways(ctx, player, crafts.train_costs(
                                ctx, building, train, produce))]
            out += [CraftsBuy.model_validate({"building": building, "goods": g, "pay": way})
                    for g in goods_options
                    for way in payment_ways(ctx, player, crafts.buy_costs(ctx, building))]
        out += [Mill(pay=way) for way in payment_ways(ctx, player, crafts.mill_costs(ctx))]
    if "market" in open_:
        out.append(HoldMarket())
    if "council" in open_:
        out += _council(ctx, player, farm)
    if "travel" in open_:
        out += _travels(ctx, player, farm)
    if "church" in open_:
        out += [Church(member=m.id, pay=way) for m in farm
                for way in payment_ways(ctx, player, church.church_costs(ctx))]
    return out


def _council(ctx: Ctx, player: int, farm: list[Member]) -> list[Command]:
    out: list[Command] = []
    top = ctx.comp.n("council_levels")
    privileges: list[Privilege | None] = [None, *_privileges(ctx, 1)]
    out += [CouncilEnter(member=m.id, pay=way, privilege=priv) for m in farm
            for way in payment_ways(ctx, player, council.council_costs(ctx, 1))
            for priv in privileges]
    seated = _reps(ctx.state.members_in("council", player))
    for m in seated:
        if m.level < top:
            out += [CouncilAdvance(member=m.id, pay=way, privilege=priv)
                    for way in payment_ways(ctx, player, council.council_costs(ctx, m.level + 1))
                    for priv in [None, *_privileges(ctx, m.level + 1)]]
    if seated:
        out += [CouncilPrivilege(privilege=priv)
                for priv in _privileges(ctx, max(m.level for m in seated))]
    return out


def _travels(ctx: Ctx, player: int, farm: list[Member]) -> list[Command]:
    """Each traveller (new from the farmyard, or on the map) to each city, with each
    reward of a first visit; the route's printed cubes are the table's (none listed)."""
    p = ctx.state.players[player]
    travellers = farm + _reps(ctx.state.members_in("travel", player))
    colours = list(ctx.comp.v("influence_colours"))
    cubes = int(ctx.comp.v("travel_reward")["cubes"])
    rewards: list[JsonObject] = []
    for kind in ctx.comp.v("travel_rewards"):
        rewards += ([{"reward": kind, "reward_cubes": list(pick)}
                     for pick in combinations_with_replacement(colours, cubes)]
                    if kind == "cubes" else [{"reward": kind}])
    ways = payment_ways(ctx, player, travel.travel_costs(ctx, {}))
    out: list[Command] = []
    for m in travellers:
        for city in ctx.comp.cities():
            for reward in ([{}] if city in p.cities else rewards):
                out += [Travel.model_validate({"member": m.id, "city": city, "pay": way,
                                               **reward}) for way in ways]
    return out
