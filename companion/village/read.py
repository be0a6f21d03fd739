"""The engine's read API: everything a screen may ask about a Village game, in one place.

The app imports this module, never `companion.village.rules.*` (an architecture test
keeps it so). A `Reader` wraps one state and its component data and never changes them:
questions that need a rule to run ("what would Karla take now?") run it on a copy. Every
price and printed value comes from the rules and the component data, so a screen shows
exactly what the engine will charge and accept.

`legal_commands()` lists every command the engine accepts now, with its parameters and
its printed payments, like OpenSpiel's `legal_actions`: the table's buttons and the tests
read one list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter

from companion.core.errors import EngineFault
from companion.core.json_types import JsonObject
from companion.village import chance, queries
from companion.village.commands import Command, Payment
from companion.village.components import ComponentData
from companion.village.rules import (
    bag,
    church,
    council,
    crafts,
    deaths,
    family,
    game_end,
    harvest,
    karla,
    market,
    mass,
    time_track,
    travel,
)
from companion.village.rules.context import Ctx
from companion.village.rules.errors import RuleError
from companion.village.state import Member, VillageState

# Re-exported for the screens: the shapes of the answers and the error every refusal has.
TurnOptions = queries.TurnOptions
WellOption = queries.WellOption
ActionBlock = queries.ActionBlock
DeathResult = queries.DeathResult
Reason = queries.Reason
MONK = mass.MONK
TimeMarker = time_track.TimeMarker
Slots = deaths.Slots
# The board places a family action may call a member back from (rulebook: family).
RECALL_PLACES = family.BOARD_PLACES_FOR_RECALL

_COMMAND: TypeAdapter[Any] = TypeAdapter(Command)
# Refusals of a payment that differs from the printed cost: the table may confirm it.
PAYMENT_REFUSALS = frozenset({"rule.payment_differs", "rule.customer_paid_in_goods"})

__all__ = ["MONK", "RECALL_PLACES", "ActionBlock", "DeathResult", "EngineFault", "Reader",
           "Reason", "RuleError", "Slots", "TimeMarker", "TurnOptions", "WellOption"]


class Reader:
    """Read-only questions about one state (see the module's docstring)."""

    def __init__(self, state: VillageState, comp: ComponentData) -> None:
        self.state = state
        self.comp = comp
        self._ctx = Ctx(state, comp)

    def _on_copy(self) -> Ctx:
        work = self.state.clone()
        work.notes, work.note_data = [], []
        return Ctx(work, self.comp)

    # ---- a turn ----------------------------------------------------------------------
    def waiting_for(self) -> int | None:
        """The player (seat index) the game waits for now: the one a pending choice is
        for, the market day's seller, the mass's buyer or advancer, else the current
        player while turns are played. None: nobody in particular (a draw, scoring, the
        end) or Karla, who answers on her own."""
        st = self.state
        player: int | None
        if st.pending:
            player = st.pending[0].player
        elif st.market_day is not None:
            player = st.market_day.seller
        elif st.phase in ("mass_buyout", "mass_advance"):
            player = mass.buyer(self._ctx) if st.phase == "mass_buyout" \
                else mass.advancer(self._ctx)
        elif st.phase == "turns":
            player = st.current
        else:
            player = None
        if player is None or not 0 <= player < len(st.players):
            return None
        if st.karla is not None and player == st.karla.player:
            return None
        return player

    def turn_options(self) -> TurnOptions:
        return queries.turn_options(self.state, self.comp)

    def free_action_open(self) -> bool:
        return queries.free_action_open(self.state, self.comp)

    def well_options(self) -> list[WellOption]:
        return queries.well_options(self.state, self.comp)

    def well_price(self) -> int | None:
        return queries.well_price(self.state, self.comp)

    def action_block(self, player: int, action: str) -> ActionBlock | None:
        return queries.action_block(self.state, self.comp, player, action)

    def refusal(self, command: Command | chance.ChanceEvent) -> RuleError | None:
        """What the engine says to `command` (a command model) now; None = accepted."""
        return queries.refusal(self.state, self.comp, command)

    def payment_refusal(self, command: Command) -> RuleError | None:
        """The engine's refusal of `command` when it is that the payment is not the printed
        cost (the table may confirm it: "That's what we paid"); None otherwise, also when
        the command is refused for another reason (sending it says which)."""
        refused = self.refusal(command)
        return refused if refused is not None and refused.key in PAYMENT_REFUSALS else None

    # ---- printed costs, as the engine charges them ------------------------------------
    def harvest_amount(self, player: int) -> int:
        return harvest.harvest_amount(self._ctx, player)

    def church_payment(self, player: int) -> Payment:
        return church.default_church_payment(self._ctx, player)

    def church_ways(self) -> list[Payment]:
        """The church action's printed ways to pay, in the rulebook's order: the brown
        cube(s), or the time instead (000 教堂)."""
        return [Payment.model_validate(c.as_params()) for c in church.church_costs(self._ctx)]

    def council_payment(self, player: int, entering_level: int) -> Payment:
        return council.default_council_payment(self._ctx, player, entering_level)

    def travel_payment(self, player: int, route: Any) -> Payment:
        return travel.default_travel_payment(self._ctx, player, route)

    def buy_payment(self, player: int, building: str) -> Payment:
        return crafts.default_buy_payment(self._ctx, player, building)

    def train_payment(self, building: str, train: bool, produce: bool) -> Payment:
        return crafts.default_train_payment(self._ctx, building, train, produce)

    def council_can_advance(self, member: str) -> bool:
        """Whether `member` sits on the council below its top level (may move up)."""
        found = self.state.members.get(member)
        return found is not None and council.can_advance(self._ctx, found)

    def privilege_cubes(self) -> tuple[int, bool]:
        """The council's second privilege: how many cubes, and whether their colours must
        differ (Big Box) or may repeat (2011)."""
        return (self.comp.n("council_privilege_cubes"),
                bool(self.comp.flag("council_privilege_cubes_distinct")))

    def mill_payment(self, player: int) -> Payment | None:
        return queries.mill_payment(self.state, self.comp, player)

    # ---- market day -------------------------------------------------------------------
    def market_slots(self) -> list[int]:
        """The customer slots the market day's seller may serve now."""
        return market.available_slots(self._ctx)

    def market_front_open(self) -> list[bool]:
        """Per front (blue) space, whether this player count uses it; a closed one stays
        empty all game."""
        return market.front_open(self._ctx)

    def sale_is_free(self) -> bool:
        return queries.sale_is_free(self.state, self.comp)

    # ---- the mass ---------------------------------------------------------------------
    def mass_buyer(self) -> int | None:
        return mass.buyer(self._ctx)

    def mass_advancer(self) -> int | None:
        return mass.advancer(self._ctx)

    def mass_room(self) -> int:
        """How many more items may come out of the black bag at this mass: the printed
        draw less the members bought out (the buy-outs' room, then the draw's count)."""
        return mass.draw_room(self._ctx)

    def buyout_price(self, members: int) -> int:
        """The coins `members` buy-outs at the mass cost."""
        return mass.buyout_price(self._ctx, members)

    def advance_cost(self, from_level: int, to_level: int) -> int:
        return mass.advance_cost(self._ctx, from_level, to_level)

    def church_levels(self) -> list[int]:
        return queries.church_levels(self.comp)

    def bag_items(self) -> list[str]:
        """What is in the black bag now: a MONK per monk, then the members' ids."""
        return mass.bag_items(self._ctx)

    def majority_bonus_notes(self) -> list[JsonObject]:
        """Who would get the majority bonus now, as the engine's notes (run on a copy)."""
        work = self._on_copy()
        mass.majority_bonus(work)
        return list(work.state.note_data)

    # ---- draws and the seat compensation ----------------------------------------------
    def redraw_allowed(self, draw: str) -> bool:
        return queries.redraw_allowed(self.state, self.comp, draw)

    def compensation_colours(self) -> list[str]:
        return queries.compensation_colours(self.state, self.comp)

    def bag_draw(self, *, redraw: bool) -> BagDraw:
        """The green-bag draw a player enters by hand: the bag and the slots per space, as
        they are before the draw (for a redraw: with the board's cubes back in the bag)."""
        work = self._on_copy()
        if redraw:
            bag.unplace_round(work)
        return BagDraw(work)

    def mass_draw(self, *, redraw: bool, count: int | None = None) -> MassDraw:
        """The black-bag draw a player enters by hand (for a redraw: the drawn items back
        in the bag, and as many to draw as the mass draws less those bought out)."""
        work = self._on_copy()
        if redraw:
            mass.undo_draw(work)
            count = mass.draw_room(work)
        return MassDraw(work, int(count or 0))

    # ---- time, deaths, corrections, the end -------------------------------------------
    def time_marker(self, player: int) -> TimeMarker:
        """Where `player`'s time marker stands: its printed space, the track's length and
        the spaces left to the quill (000 時間流逝: 當時間標記通過羽毛筆的時候，你最年長的
        家族成員中的其中一位過世)."""
        return time_track.time_marker(self._ctx, player)

    def chronicle_slots(self) -> dict[str, Slots]:
        """Each chronicle section's open, used, free and blocked slots."""
        return deaths.chronicle_slots(self._ctx)

    def graveyard_slots(self) -> Slots:
        """The graveyard's open, used, free and blocked slots."""
        return deaths.graveyard_slots(self._ctx)

    def death_candidates(self, player: int) -> list[Member]:
        return deaths.death_candidates(self._ctx, player)

    def death_result(self, member: str) -> DeathResult | None:
        return queries.death_result(self.state, self.comp, member)

    def move_destinations(self, member: str) -> list[str]:
        return queries.move_destinations(self.state, self.comp, member)

    def marker_coin_offered(self) -> bool:
        return queries.marker_coin_offered(self.state, self.comp)

    def customer_tile_refusal(self, player: int) -> RuleError | None:
        return queries.customer_tile_refusal(self.state, self.comp, player)

    def final_order(self) -> list[int]:
        return game_end.final_order(self._ctx)

    # ---- Karla ------------------------------------------------------------------------
    def karla_take_preview(self) -> KarlaPreview:
        """What Karla will take when your turn ends (her rule run on a copy); no notes and
        no choice when no take is due or there is no Karla."""
        if self.state.karla is None or not self.state.karla_due:
            return KarlaPreview(choice_space=None, notes=[])
        work = self._on_copy()
        karla.karla_take(work)
        pending = work.state.pending[0] if work.state.pending else None
        if pending is not None and pending.kind == "karla_cube":
            return KarlaPreview(choice_space=pending.detail.space or "", notes=[])
        return KarlaPreview(choice_space=None, notes=list(work.state.note_data))

    # ---- the legal moves --------------------------------------------------------------
    def legal_commands(self) -> list[Any]:
        """Every command the engine accepts now, as command models (`commands.py`), with
        its parameters and each printed way to pay: the turn, each action, the answer to a
        waiting choice, the mass, the market day, the scoring's end. Each is tried on a
        copy, so the list is exactly what `execute` would take; empty when the game is
        over or waits for a draw. Corrections, payments that differ from the printed cost
        and values only the table knows (a customer's points and demand, a route's cubes:
        listed at their neutral value) are not listed (see `queries.legal_commands`)."""
        return queries.legal_commands(self.state, self.comp)

    def command_candidates(self) -> list[Any]:
        """The commands `legal_commands` tries, not yet tried: a caller that tries them
        itself one by one (the random player, through `execute`) finds exactly the legal
        ones accepted, without trying all of them first."""
        return queries.command_candidates(self.state, self.comp)


@dataclass(frozen=True)
class KarlaPreview:
    """Karla's due take: the action space she must choose a cube on (the player picks for
    her), or else the engine's notes of what she takes."""

    choice_space: str | None
    notes: list[JsonObject]


class BagDraw:
    """A green-bag draw being entered: the cubes in the bag, the slots per space, and the
    engine's check of a complete entry."""

    def __init__(self, ctx: Ctx) -> None:
        self._ctx = ctx
        self.state = ctx.state
        self.quota: dict[str, int] = bag.space_quota(ctx)
        self.bag: dict[str, int] = {c: n for c, n in ctx.state.bag.items() if n > 0}

    def check(self, placements: dict[str, list[str]]) -> None:
        """Raises RuleError naming the slot when the engine would refuse the entry."""
        bag.check_placements(self._ctx, placements)


class MassDraw:
    """A black-bag draw being entered: how many items, the monks and members in the bag,
    and the engine's check of a complete entry."""

    def __init__(self, ctx: Ctx, count: int) -> None:
        self._ctx = ctx
        self.state = ctx.state
        self.count = count
        self.monks_in_bag = ctx.state.monks_in_bag
        self.members = sorted(m.id for m in ctx.state.members.values() if m.loc == "bag")

    def check(self, items: list[str]) -> None:
        mass.check_draw(self._ctx, items, self.count)
