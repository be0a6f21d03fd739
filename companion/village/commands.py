"""What a user can tell the engine. Each accepted command is stored in the log as an event."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt

ActionSpace = Literal["harvest", "family", "crafts", "market", "council", "travel", "church"]
InfluenceColour = Literal["brown", "pink", "orange", "green"]
CubeColour = Literal["brown", "pink", "orange", "green", "plague"]
Goods = Literal["scroll", "horse", "plough", "ox", "wagon"]
Building = Literal["wainwright", "stable", "scriptorium", "smithy"]


class _Cmd(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


PAY_TIME_MAX = 30  # the most time one payment may name (see Payment.time)


class Payment(_Cmd):
    """What a player hands back for an action. Offered by the app, editable by the user."""

    # Bounded like spend_time: no action costs more, and each pass of the quill queues a
    # death to answer (an absurd amount would queue millions).
    time: int = Field(default=0, ge=0, le=PAY_TIME_MAX)
    cubes: dict[InfluenceColour, NonNegativeInt] = Field(default_factory=dict)
    coins: NonNegativeInt = 0  # coins standing in for influence cubes, or paid as coins
    grain: NonNegativeInt = 0
    goods: dict[Goods, NonNegativeInt] = Field(default_factory=dict)
    # The table confirmed this payment although it differs from the printed cost ("That's
    # what we paid"): accepted as entered, and the log says so.
    override: bool = False


class Privilege(_Cmd):
    level: int = Field(ge=1, le=4)
    cubes: list[InfluenceColour] = Field(default_factory=list)  # level 2: two colours
    goods: Goods | None = None  # level 3


# ---- turn ------------------------------------------------------------------------------
class TakeCube(_Cmd):
    type: Literal["take_cube"] = "take_cube"
    space: ActionSpace
    colour: CubeColour


class Well(_Cmd):
    type: Literal["well"] = "well"
    colour: InfluenceColour
    coins: NonNegativeInt = 0  # coins standing in for some of the three cubes


class FreeAction(_Cmd):
    """Final turns with an empty board: any action, without the well's three cubes."""

    type: Literal["free_action"] = "free_action"


class EndTurn(_Cmd):
    type: Literal["end_turn"] = "end_turn"


# ---- actions ---------------------------------------------------------------------------
class Harvest(_Cmd):
    type: Literal["harvest"] = "harvest"


class FamilyBirth(_Cmd):
    type: Literal["family_birth"] = "family_birth"


class FamilyRecall(_Cmd):
    type: Literal["family_recall"] = "family_recall"
    member: str


class CraftsTrain(_Cmd):
    """Train a member in a workshop and/or produce there by spending time."""

    type: Literal["crafts_train"] = "crafts_train"
    building: Building
    train_member: str | None = None  # from the farmyard; None = already trained there
    produce: bool = True
    goods: Goods | None = None  # stable: horse or ox
    pay: Payment | None = None  # None = the printed time


class CraftsBuy(_Cmd):
    type: Literal["crafts_buy"] = "crafts_buy"
    building: Building
    goods: Goods | None = None
    pay: Payment | None = None


class Mill(_Cmd):
    type: Literal["mill"] = "mill"
    pay: Payment | None = None


class HoldMarket(_Cmd):
    """Start a market day through the well (taking the market cube starts one by itself)."""

    type: Literal["hold_market"] = "hold_market"


class MarketServe(_Cmd):
    type: Literal["market_serve"] = "market_serve"
    slot: int = Field(ge=0, le=4)  # front space, 0 = nearest the stall
    points: NonNegativeInt
    pay: Payment = Field(default_factory=Payment)  # the goods/grain the customer demands
    extra_with_coin: bool = False  # pay the extra sale's green cube with a coin


class MarketPass(_Cmd):
    type: Literal["market_pass"] = "market_pass"


class CouncilEnter(_Cmd):
    type: Literal["council_enter"] = "council_enter"
    member: str
    pay: Payment | None = None
    privilege: Privilege | None = None


class CouncilAdvance(_Cmd):
    type: Literal["council_advance"] = "council_advance"
    member: str
    pay: Payment | None = None
    privilege: Privilege | None = None


class CouncilPrivilege(_Cmd):
    type: Literal["council_privilege"] = "council_privilege"
    privilege: Privilege


class Travel(_Cmd):
    type: Literal["travel"] = "travel"
    member: str  # from the farmyard (new traveller) or already on the map
    city: int = Field(ge=1, le=6)
    route_cubes: dict[InfluenceColour, NonNegativeInt] = Field(default_factory=dict)
    reward: Literal["prestige", "cubes", "coin"] | None = None
    reward_cubes: list[InfluenceColour] = Field(default_factory=list)
    pay: Payment | None = None  # None = 2 time + 1 wagon + route_cubes


class Church(_Cmd):
    type: Literal["church"] = "church"
    member: str
    pay: Payment | None = None  # None = 1 brown if held, else 3 time


# ---- time and death --------------------------------------------------------------------
class SpendTime(_Cmd):
    """Move a time marker by hand (an action the app does not model, or a correction)."""

    type: Literal["spend_time"] = "spend_time"
    player: int = Field(ge=0)
    amount: int = Field(ge=1, le=30)


class ChooseDeath(_Cmd):
    type: Literal["choose_death"] = "choose_death"
    member: str


class ChooseCompensationCube(_Cmd):
    type: Literal["choose_compensation_cube"] = "choose_compensation_cube"
    colour: InfluenceColour


# ---- mass ------------------------------------------------------------------------------
class MassBuyOut(_Cmd):
    type: Literal["mass_buyout"] = "mass_buyout"
    members: list[str] = Field(default_factory=list)  # empty = buy none


class MassAdvance(_Cmd):
    type: Literal["mass_advance"] = "mass_advance"
    moves: dict[str, int] = Field(default_factory=dict)  # member id -> new level


# ---- solo ------------------------------------------------------------------------------
class KarlaChooseCube(_Cmd):
    type: Literal["karla_choose_cube"] = "karla_choose_cube"
    space: ActionSpace
    colour: CubeColour


class SpendNextStartMarker(_Cmd):
    """Legacy (engine 1): turned the marker into a lasting coin. Kept only so that stored
    logs replay exactly; a new session refuses it. Use NextStartMarkerCoin."""

    type: Literal["spend_next_start_marker"] = "spend_next_start_marker"


class NextStartMarkerCoin(_Cmd):
    """Solo only: use the next-start-player marker you hold as a coin (rulebook 單人遊戲
    註記), before the new-round phase.

    The marker joins your coins for one payment: the next coin you pay (any action, the
    well, a sale, a buy-out, privilege 4) is the marker, which then leaves the game for
    this round. Unpaid, it goes back to the council when the new round starts (before the
    bag is filled) and it never scores at the end. Undo like any command."""

    type: Literal["next_start_marker_coin"] = "next_start_marker_coin"


# ---- corrections and the end -----------------------------------------------------------
class Adjust(_Cmd):
    """Correction of a player's counter by `delta` (+/-): prestige, coins, grain, cubes of
    colour `key` and goods of type `key` (cubes and goods come from / go back to the
    supply), or the travel marker on city `key` (+1 places it, -1 removes it)."""

    type: Literal["adjust"] = "adjust"
    player: int = Field(ge=0)
    field: Literal["prestige", "coins", "grain", "cubes", "goods", "cities"]
    key: str | None = None  # colour for cubes, goods type for goods
    delta: int


class SetTime(_Cmd):
    """Correction: put a player's time marker on space `position` (0 = the first space
    right of the quill). Nothing else happens: no death is owed or cancelled. For a marker
    that simply stands on the wrong space; to undo time spent, use take_back_time."""

    type: Literal["set_time"] = "set_time"
    player: int = Field(ge=0)
    position: int = Field(ge=0, le=99)  # checked against the time track's length


class TakeBackTime(_Cmd):
    """Correction: take back `amount` time spent by mistake (the minus of spend_time): the
    marker moves back. Moving back over the quill cancels the death that pass owed if it is
    not decided yet; a death already decided stays (move the member with move_member)."""

    type: Literal["take_back_time"] = "take_back_time"
    player: int = Field(ge=0)
    amount: int = Field(ge=1, le=30)


class AddCustomerTile(_Cmd):
    """Correction: a customer tile the player served that the log lacks, with its printed
    `points`. It comes from front space `slot` (0 = nearest the stall; the space stays
    empty until the next refill) or, with no slot, from the face-down stack. Not during a
    market day (serve there)."""

    type: Literal["add_customer_tile"] = "add_customer_tile"
    player: int = Field(ge=0)
    points: NonNegativeInt
    slot: int | None = Field(default=None, ge=0, le=4)


class RemoveCustomerTile(_Cmd):
    """Correction: take back a served tile recorded by mistake — number `index` in the
    player's served tiles (0 = the first served). It goes back to the empty front space
    `slot` (one open for this player count) or, with no slot, onto the face-down stack.
    Not during a market day."""

    type: Literal["remove_customer_tile"] = "remove_customer_tile"
    player: int = Field(ge=0)
    index: int = Field(ge=0)
    slot: int | None = Field(default=None, ge=0, le=4)


class SetCustomerPoints(_Cmd):
    """Correction: the printed points of served tile number `index` were entered wrong."""

    type: Literal["set_customer_points"] = "set_customer_points"
    player: int = Field(ge=0)
    index: int = Field(ge=0)
    points: NonNegativeInt


class MoveMember(_Cmd):
    """Correction: a family member is really somewhere else. `to` is a location as the
    state names it: "supply", "farmyard", "bag", "graveyard", "removed",
    "workshop:<building>", "council:<level>", "church:<level>", "travel:<city>",
    "chronicle:<section>", and for Karla's members "karla:side" / "karla:building" (hers
    are never in the supply, a farmyard, a workshop, the council or on the map). Every
    member stays counted: the spot must exist, a chronicle section or the graveyard needs a
    free slot, Karla keeps at most one member per church level. Filling the last
    chronicle or graveyard slot ends the game as a death there would."""

    type: Literal["move_member"] = "move_member"
    member: str
    to: str = Field(min_length=1, max_length=40)


class OverrideScore(_Cmd):
    type: Literal["override_score"] = "override_score"
    player: int = Field(ge=0)
    category: Literal["prestige", "travel", "church", "customers", "chronicle", "council",
                      "coins"]
    value: int | None  # None removes the override
    # The players kept a value above what the game can give (scoring.category_maxima):
    # logged, so the log says the override was on purpose.
    beyond_max: bool = False


class FinishGame(_Cmd):
    type: Literal["finish_game"] = "finish_game"


Command = Annotated[
    TakeCube | Well | FreeAction | EndTurn | Harvest | FamilyBirth | FamilyRecall | CraftsTrain
    | CraftsBuy | Mill | HoldMarket | MarketServe | MarketPass | CouncilEnter | CouncilAdvance
    | CouncilPrivilege | Travel | Church | SpendTime | ChooseDeath | ChooseCompensationCube
    | MassBuyOut | MassAdvance | KarlaChooseCube | SpendNextStartMarker | NextStartMarkerCoin
    | Adjust | SetTime | TakeBackTime | AddCustomerTile | RemoveCustomerTile
    | SetCustomerPoints | MoveMember | OverrideScore | FinishGame,
    Field(discriminator="type"),
]

# Which action space's action each action command belongs to (the well allows any).
ACTION_OF: dict[str, str] = {
    "harvest": "harvest", "family_birth": "family", "family_recall": "family",
    "crafts_train": "crafts", "crafts_buy": "crafts", "mill": "crafts",
    "hold_market": "market", "council_enter": "council", "council_advance": "council",
    "council_privilege": "council", "travel": "travel", "church": "church",
}


def as_paid(command: Command) -> Command:
    """"That's what we paid": the same command with its payment (the printed one when it
    names none) confirmed as entered (Payment.override)."""
    if "pay" not in type(command).model_fields:
        return command
    pay = getattr(command, "pay", None) or Payment()
    return command.model_copy(update={"pay": pay.model_copy(update={"override": True})})
