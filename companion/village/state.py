"""The state of a Village game: what is where. Built only by folding the event log."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, model_serializer

from companion.core.json_types import JsonObject
from companion.village.interpretations import CURRENT_RULES
from companion.village.locations import Loc, chronicle_spot

PLAGUE = "plague"
SECTIONS = ("farm", "crafts", "council", "church", "travel")
BOARD_PLACES = ("farmyard", "workshop", "council", "church", "travel")
Phase = Literal["turns", "mass_buyout", "mass_advance", "scoring", "finished"]
Stage = Literal["take", "act", "ending"]


class Member(BaseModel):
    id: str
    owner: int
    gen: int
    # Stored as one string, built and read by companion.village.locations: "supply",
    # "farmyard", "bag", "graveyard", "removed", "workshop:<building>", "council:<1-4>",
    # "church:<1-4>", "travel:<city>", "chronicle:<section>", Karla's "karla:side" (beside
    # her board) and "karla:building" (on the church building).
    loc: str = "supply"

    @property
    def location(self) -> Loc:
        """`loc` typed: its place and spot (ValueError when malformed)."""
        return Loc.parse(self.loc)

    @property
    def place(self) -> str:
        return self.loc.split(":", 1)[0]

    @property
    def level(self) -> int:
        return int(self.loc.split(":", 1)[1])

    @property
    def visible(self) -> bool:
        """Only visible members can die: on the board or the farmyard (rulebook 家族成員過世)."""
        return self.place in BOARD_PLACES

    @property
    def living(self) -> bool:
        return self.place not in ("chronicle", "graveyard", "removed")


class Player(BaseModel):
    name: str
    colour: str
    kind: Literal["human", "karla"] = "human"
    time: int = 0  # marker position: 0 = first space right of the quill
    prestige: int = 0
    coins: int = 0
    grain: int = 0
    goods: dict[str, int] = Field(default_factory=dict)
    cubes: dict[str, int] = Field(default_factory=dict)
    customers: list[int] = Field(default_factory=list)  # printed points of each tile served
    cities: list[int] = Field(default_factory=list)
    deaths_pending: int = 0


class KarlaWhy(BaseModel):
    """One of Karla's reasons for a take, as a table note (key + params)."""

    key: str
    params: JsonObject = Field(default_factory=dict)


class PendingDetail(BaseModel):
    """What a pending choice or draw needs besides its kind; each field is set only by
    the kinds named beside it. Serialized with only the fields that are set, in this
    order, so a state dumps to the same JSON as when this was a plain dict (the golden
    logs digest every state)."""

    model_config = {"extra": "forbid"}

    side: Literal["top", "bottom"] | None = None  # fate draw: the side of her board
    tile: int | None = None  # fate draw: the tile turned
    space: str | None = None  # karla_cube: where she takes; d4/fate draws: the space taken
    options: list[str] = Field(default_factory=list)  # karla_cube: colours she may take
    why: list[KarlaWhy] = Field(default_factory=list)  # karla_cube: her reasons so far
    count: int | None = None  # mass draw: how many items to draw
    market_trigger: int | None = None  # death: whose market day it was owed in

    @model_serializer(mode="wrap")
    def _only_set(self, handler: SerializerFunctionWrapHandler) -> JsonObject:
        return {k: v for k, v in handler(self).items() if v is not None and v != []}


class Pending(BaseModel):
    """Something the game waits for before anything else can happen."""

    kind: Literal["death", "chance", "compensation_cube", "karla_cube", "market_day"]
    player: int | None = None
    # For chance: which draw ("start_player", "compensation_cube", "bag", "mass", "fate", "d4").
    draw: str | None = None
    detail: PendingDetail = Field(default_factory=PendingDetail)


class MarketDay(BaseModel):
    trigger: int
    seller: int
    passed: list[int] = Field(default_factory=list)
    free_sale_used: bool = False
    emptied: list[int] = Field(default_factory=list)  # front slots served this market day
    sales: list[tuple[int, int]] = Field(default_factory=list)  # (player, front slot)
    # Solo: Karla serves one customer on her go this market day; not in one you hold
    # through the well (reading "karla_after_well" "no_reaction": no reaction after it).
    karla_to_serve: bool = False


class MassState(BaseModel):
    order: list[int]  # seat order from the start player, humans only
    index: int = 0
    bought: list[str] = Field(default_factory=list)
    drawn: list[str] = Field(default_factory=list)  # member ids or "monk"
    drawn_random: bool = False
    final: bool = False


class EndState(BaseModel):
    triggered_by: int
    during_market: bool
    market_trigger: int | None = None  # who held the market day the end came in
    final_order: list[int] = Field(default_factory=list)
    order_set: bool = False
    mass_held: bool = False


class KarlaState(BaseModel):
    player: int
    track: list[list[str]]  # cubes on each space of her board: [(colour, from_space)] encoded
    last_space: int = -1  # index of the space holding the last placed cube
    fate: dict[str, list[bool]]  # side -> face up?
    quill: dict[str, int]  # side -> index of the quill tile within the set (hidden to the user)
    church_reaction_over: bool = False
    served_this_market: bool = False


class VillageState(BaseModel):
    edition: str
    solo: bool = False
    players: list[Player]
    members: dict[str, Member]
    round: int = 0
    start_player: int = 0
    current: int = 0
    phase: Phase = "turns"
    stage: Stage = "take"
    space_taken: str | None = None  # the action space of this turn's cube ("well"/"free")
    action_done: bool = False
    spaces: dict[str, list[str]]
    bag: dict[str, int]
    supply: dict[str, int]
    monks_in_bag: int = 4
    market_front: list[bool]
    market_queue: list[bool]
    customer_stack: int
    market_day: MarketDay | None = None
    next_start_holder: int | None = None
    # The marker left the council (solo: spent as a coin). With a holder still set, it is a
    # coin on the holder's farmyard not yet paid (see marker_coin_holder). Without one it
    # was paid: gone for this round, and (reading "marker_coin_return" "unused_only") for
    # the rest of the game.
    next_start_spent: bool = False
    mass: MassState | None = None
    end: EndState | None = None
    pending: list[Pending] = Field(default_factory=list)
    karla: KarlaState | None = None
    score_overrides: dict[str, dict[str, int]] = Field(default_factory=dict)
    turns_taken: int = 0
    last_take_space: str | None = None
    last_take_colour: str | None = None
    karla_choice_queue: list[str] = Field(default_factory=list)
    chronicle_capacity: dict[str, int]
    graveyard_capacity: int
    notes: list[str] = Field(default_factory=list)  # table instructions from the last action
    note_data: list[JsonObject] = Field(default_factory=list)  # the same as key + params
    # Automatic steps still to run (e.g. "resolve_deaths", "advance_turn", "new_round").
    flow: list[str] = Field(default_factory=list)
    round_turns: int = 0  # cubes taken (or wells) this round: a bag redraw needs 0
    mass_advanced: bool = False
    setup_variant: str = "standard"  # Karla: "standard" or "d4"
    karla_due: bool = False  # solo: you took a cube this turn, Karla takes after it
    karla_react: str | None = None  # the space of Karla's last cube, for her reaction
    # The rules this game plays by, from its setup (they never change during a game, so
    # they are left out of the state's dumps: a stored game's states stay as recorded).
    # rules_version: interpretations.CURRENT_RULES for a game started by this build, 1 for
    # one started before the rulebook fixes of issue 10 (it replays as it was played).
    # readings: interpretations.json key -> the reading in effect (interpretations.
    # effective_readings); rules code asks Ctx.reading.
    rules_version: int = Field(default=CURRENT_RULES, exclude=True)
    readings: dict[str, str] = Field(default_factory=dict, exclude=True)

    def clone(self) -> VillageState:
        """An independent copy. The session copies the state before every command (so a
        refused one changes nothing); a dump/validate round trip is ~5x faster than
        pydantic's deep copy, which was most of the time of a random game."""
        copy = self.model_validate(self.model_dump())
        copy.rules_version = self.rules_version  # not in the dump (see above)
        copy.readings = dict(self.readings)
        return copy

    @property
    def follows_older_rules(self) -> bool:
        """Started before the current rules version: it plays by the rules as this app read
        them then (the log says so)."""
        return self.rules_version < CURRENT_RULES

    # ---- queries -----------------------------------------------------------------------
    def marker_coin_holder(self) -> int | None:
        """Solo: who holds the next-start-player marker as a coin not yet paid (it sits in
        their `coins`). Encoded as holder set *and* marker spent: the marker left the
        council this round but still stands on the holder's farmyard as a coin."""
        return self.next_start_holder if self.next_start_spent else None

    def humans(self) -> list[int]:
        return [i for i, p in enumerate(self.players) if p.kind == "human"]

    def members_of(self, player: int) -> list[Member]:
        return [m for m in self.members.values() if m.owner == player]

    def members_at(self, loc: str, player: int | None = None) -> list[Member]:
        return [m for m in self.members.values()
                if m.loc == loc and (player is None or m.owner == player)]

    def members_in(self, place: str, player: int | None = None) -> list[Member]:
        return [m for m in self.members.values()
                if m.place == place and (player is None or m.owner == player)]

    def cubes_on_board(self) -> int:
        return sum(len(c) for c in self.spaces.values())

    def chronicle_used(self, section: str | None = None) -> int:
        if section is None:
            return sum(1 for m in self.members.values() if m.place == "chronicle")
        loc = chronicle_spot(section)
        return sum(1 for m in self.members.values() if m.loc == loc)

    def chronicle_free(self, section: str) -> int:
        return self.chronicle_capacity.get(section, 0) - self.chronicle_used(section)

    def chronicle_total_free(self) -> int:
        return sum(self.chronicle_free(s) for s in self.chronicle_capacity)

    def graveyard_free(self) -> int:
        return self.graveyard_capacity - len(self.members_in("graveyard"))

    def cube_totals(self) -> dict[str, int]:
        """Every cube of each colour wherever it is (for the conservation invariant)."""
        totals: dict[str, int] = {}
        for where in (self.supply, self.bag):
            for c, n in where.items():
                totals[c] = totals.get(c, 0) + n
        for cubes in self.spaces.values():
            for c in cubes:
                totals[c] = totals.get(c, 0) + 1
        for p in self.players:
            for c, n in p.cubes.items():
                totals[c] = totals.get(c, 0) + n
        if self.karla is not None:
            for space in self.karla.track:
                for entry in space:
                    c = entry.split("@", 1)[0]
                    totals[c] = totals.get(c, 0) + 1
        return totals

    def customer_total(self) -> int:
        served = sum(len(p.customers) for p in self.players)
        return (served + self.customer_stack + sum(self.market_front)
                + sum(self.market_queue))
