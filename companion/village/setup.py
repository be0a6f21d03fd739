"""A new game: the setup the users chose, turned into the initial state."""

from __future__ import annotations

from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from companion.core.errors import Problem
from companion.village.components import ComponentData, Edition, slot_open
from companion.village.interpretations import (
    CURRENT_RULES,
    effective_readings,
    interpretation,
)
from companion.village.locations import FARMYARD, KARLA_BUILDING, KARLA_SIDE, SUPPLY
from companion.village.state import PLAGUE, KarlaState, Member, Player, VillageState

LETTERS = "abcdefgh"


class PlayerSetup(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=24)
    colour: str

    @field_validator("name")
    @classmethod
    def _strip(cls, v: str) -> str:
        v = v.strip()
        if not v:
            raise ValueError("must not be empty")
        return v


class VillageSetup(BaseModel):
    """Players in seat (clockwise) order. Solo: exactly one player, plus Karla."""

    model_config = ConfigDict(extra="forbid")

    edition: Edition = "big-box"
    players: list[PlayerSetup]
    solo: bool = False
    karla_colour: str | None = None
    start_player: int | None = None  # None: the app draws it (a chance event)
    # Seat compensation: the Big Box rule; for 2011 a house rule (004 has none). None: the
    # edition's own rule (resolved in _check). See interpretations "compensation_2011".
    compensation: bool | None = None
    # Which rules revision the game started with (interpretations.CURRENT_RULES for a new
    # game; a stored setup without it is 1 and replays as it was played).
    rules_version: int = Field(default=CURRENT_RULES, ge=1, le=CURRENT_RULES)
    # Switchable readings of the rules chosen for this game (interpretations.json keys).
    readings: dict[str, str] = Field(default_factory=dict)
    # Not tracked yet: a new setup refuses any (see _check). Stored sessions keep loading;
    # for them it only raises the solo achievement thresholds.
    expansions: list[Literal["inn", "port", "marriage"]] = Field(default_factory=list)
    karla_variant: Literal["standard", "d4"] = "standard"
    seed: int = 0

    @model_validator(mode="after")
    def _check(self, info: ValidationInfo) -> VillageSetup:
        n = len(self.players)
        stored = bool((info.context or {}).get("stored"))
        if stored and "rules_version" not in self.model_fields_set:
            self.rules_version = 1  # saved before rules versions: exactly as it was played
        if self.compensation is None:
            # Games saved before this field could be None always stored a bool; a stored
            # game without one predates the 2011 fix and had compensation on.
            self.compensation = self.edition == "big-box" or (
                stored and self.rules_version < 2)
        for key, choice in self.readings.items():
            try:
                item = interpretation(key)
            except KeyError:
                raise ValueError(f"readings.{key}: not a reading this app knows") from None
            if item.setup_field is not None:
                raise ValueError(f"readings.{key}: set {item.setup_field} instead")
            if not item.switchable:
                raise ValueError(f"readings.{key}: not a reading a game can choose")
            if choice not in item.options:
                raise ValueError(f"readings.{key}: must be one of {', '.join(item.options)}")
        if self.expansions and not stored:
            # The engine has none of their spaces or parts (inn, port, wedding, smuggling;
            # Marriage's 12th members and 7th plague cube): saying "yes" would track a game
            # that is not the one on the table.
            raise ValueError("expansions: the Inn, Port and Marriage expansions are not "
                             "supported yet; track a base game (the score command takes "
                             "them for solo achievements)")
        if self.solo:
            if n != 1:
                raise ValueError("players: a solo game has exactly one player (Karla is added)")
            if not self.karla_colour:
                raise ValueError("karla_colour: choose Karla's colour")
        elif not 2 <= n <= 5:
            raise ValueError("players: 2 to 5 players")
        names = [p.name.casefold() for p in self.players]
        if len(set(names)) != len(names):
            dup = next(i for i, nm in enumerate(names) if names.index(nm) != i)
            raise ValueError(f"players[{dup}].name: two players have the same name")
        colours = [p.colour for p in self.players] + ([self.karla_colour] if self.solo else [])
        if len(set(colours)) != len(colours):
            dup = next(i for i, c in enumerate(colours) if colours.index(c) != i)
            field = "karla_colour" if dup == n else f"players[{dup}].colour"
            raise ValueError(f"{field}: two players have the same colour")
        if self.start_player is not None and not 0 <= self.start_player < n:
            raise ValueError(f"start_player: must be between 0 and {n - 1}")
        return self

    @property
    def seat_count(self) -> int:
        return 2 if self.solo else len(self.players)


def component_problems(setup: VillageSetup, comp: ComponentData) -> list[Problem]:
    """What in `setup` the edition's components cannot play, each with its refusal key."""
    problems = []
    colours = comp.names("player_colours")
    options = ", ".join(colours)
    for i, p in enumerate(setup.players):
        if p.colour not in colours:
            problems.append(Problem(f"players[{i}].colour", f"must be one of {options}",
                                    "rule.setup_colour", {"colour_options": list(colours)}))
    if setup.solo and setup.karla_colour not in colours:
        problems.append(Problem("karla_colour", f"must be one of {options}",
                                "rule.setup_colour", {"colour_options": list(colours)}))
    if setup.seat_count not in comp.numbers("player_counts"):
        counts = "/".join(map(str, comp.numbers("player_counts")))
        problems.append(Problem("players", f"the {setup.edition} edition plays {counts} players",
                                "rule.setup_player_count",
                                {"edition": setup.edition, "counts": counts}))
    if setup.solo and setup.edition != "big-box":
        problems.append(Problem("solo", "the solo mode is in the Big Box edition only",
                                "rule.setup_solo_big_box"))
    return problems


def check_against_components(setup: VillageSetup, comp: ComponentData) -> list[str]:
    """component_problems as "field: message" lines."""
    return [p.line for p in component_problems(setup, comp)]


def slot_capacities(setup: VillageSetup, comp: ComponentData,
                    n: int) -> tuple[dict[str, int], int]:
    """Open chronicle slots per section and open graveyard slots for `n` seats.

    A slot marked with a player count above `n` is blocked. From rules version 2 a mark
    above the edition's largest player count blocks nothing: 004 blocks spaces only with
    fewer than 4 players (「4인 미만시 … 인원수보다 큰 숫자칸에」), and the 2011 data reuse
    the Big Box "5" marks. Games started before keep the capacities they had."""
    if setup.rules_version < 2:
        return comp.chronicle_capacity(n), comp.graveyard_capacity(n)
    counts = comp.numbers("player_counts")

    def is_open(mark: int) -> bool:
        return slot_open(mark, n, counts)

    chronicle = {sec: sum(1 for m in marks if is_open(m))
                 for sec, marks in comp.number_lists("chronicle_sections").items()}
    return chronicle, sum(1 for m in comp.numbers("graveyard_slots") if is_open(m))


def initial_state(setup: VillageSetup, comp: ComponentData) -> VillageState:
    players = [Player(name=p.name, colour=p.colour, coins=comp.n("start_coins"))
               for p in setup.players]
    if setup.solo:
        assert setup.karla_colour is not None
        players.append(Player(name="Karla", colour=setup.karla_colour, kind="karla"))
    members: dict[str, Member] = {}
    per_gen: dict[str, int] = comp.counts("members_per_generation")
    for idx, p in enumerate(players):
        for gen_s, count in per_gen.items():
            gen = int(gen_s)
            for k in range(count):
                mid = f"{p.colour}-{gen}{LETTERS[k]}"
                if p.kind == "karla":
                    loc = KARLA_SIDE if gen <= 2 else KARLA_BUILDING
                else:
                    loc = FARMYARD if gen == 1 else SUPPLY
                members[mid] = Member(id=mid, owner=idx, gen=gen, loc=loc)
    n = len(players)
    supply = {c: comp.n("cubes_per_colour") for c in comp.names("influence_colours")}
    supply[PLAGUE] = comp.n("plague_cubes")
    front = comp.front_spaces(n)
    queue = comp.n("market_queue_spaces")
    chronicle, graveyard = slot_capacities(setup, comp, n)
    st = VillageState(
        edition=setup.edition,
        solo=setup.solo,
        players=players,
        members=members,
        spaces={s: [] for s in comp.names("action_spaces")},
        bag={c: 0 for c in supply},
        supply=supply,
        monks_in_bag=comp.n("monks"),
        market_front=[True] * front + [False] * (5 - front),
        market_queue=[True] * queue,
        customer_stack=comp.n("customer_tiles") - front - queue,
        chronicle_capacity=chronicle,
        graveyard_capacity=graveyard,
        rules_version=setup.rules_version,
        readings=effective_readings(setup),
    )
    st.setup_variant = setup.karla_variant
    if setup.solo:
        length = comp.n("karla_track_spaces")
        st.karla = KarlaState(player=n - 1, track=[[] for _ in range(length)],
                              fate={"top": [False] * 3, "bottom": [False] * 3},
                              quill={"top": -1, "bottom": -1})
        st.start_player = 0
    elif setup.start_player is not None:
        st.start_player = setup.start_player
    else:
        st.flow.append("start_player")
    if setup.compensation and not setup.solo:
        st.flow.append("compensation")
    st.flow.append("new_round")
    return st
