"""The typed chance events: one model per draw, each with its outcome's model. No rule
lives here (companion.village.chance applies them), so the rules may import it."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, TypeAdapter

Draw = Literal["start_player", "compensation_cube", "bag", "mass", "fate", "d4"]


# ---- the shape of each draw's outcome ------------------------------------------------------
# Checked where an outcome comes in (a draw entered by hand, a redraw, a stored log) before
# any rule reads it: strict types, so a bool is no player number and a list is no colour.
class _Outcome(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class StartPlayerOutcome(_Outcome):
    player: StrictInt


class ColourOutcome(_Outcome):
    """The compensation cube drawn, or the colour Karla's d4 shows."""

    colour: StrictStr


class BagOutcome(_Outcome):
    placements: dict[StrictStr, list[StrictStr]]  # action space -> the cubes put there


class MassOutcome(_Outcome):
    items: list[StrictStr]  # member ids and "monk"


class FateOutcome(_Outcome):
    side: StrictStr
    tile: StrictInt
    quill: StrictBool


Outcome = StartPlayerOutcome | ColourOutcome | BagOutcome | MassOutcome | FateOutcome


# ---- a chance event: one model per draw, told apart by `draw` ---------------------------------
# The stored form is {"type": "chance", "draw", "outcome", "source", "redraw"}, as always.
class ChanceBase(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["chance"] = "chance"
    draw: Draw
    outcome: _Outcome
    source: Literal["app", "manual"]
    redraw: bool = False


class StartPlayerChance(ChanceBase):
    draw: Literal["start_player"] = "start_player"
    outcome: StartPlayerOutcome


class CompensationChance(ChanceBase):
    draw: Literal["compensation_cube"] = "compensation_cube"
    outcome: ColourOutcome


class BagChance(ChanceBase):
    draw: Literal["bag"] = "bag"
    outcome: BagOutcome


class MassChance(ChanceBase):
    draw: Literal["mass"] = "mass"
    outcome: MassOutcome


class FateChance(ChanceBase):
    draw: Literal["fate"] = "fate"
    outcome: FateOutcome


class D4Chance(ChanceBase):
    draw: Literal["d4"] = "d4"
    outcome: ColourOutcome


ChanceEvent = Annotated[
    StartPlayerChance | CompensationChance | BagChance | MassChance | FateChance | D4Chance,
    Field(discriminator="draw"),
]
CHANCE: TypeAdapter[ChanceEvent] = TypeAdapter(ChanceEvent)
OUTCOME_SHAPES: dict[str, type[_Outcome]] = {
    "start_player": StartPlayerOutcome, "compensation_cube": ColourOutcome,
    "bag": BagOutcome, "mass": MassOutcome, "fate": FateOutcome, "d4": ColourOutcome,
}


