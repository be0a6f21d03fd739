"""Village component data: every printed value with its provenance, loaded from JSON.

Estimates can be corrected by the user (calibration); a session keeps the data it started
with, so later corrections never change an old session.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from companion.core.json_types import JsonObject
from companion.core.provenance import Provenanced

Edition = Literal["big-box", "2011"]
EDITION_FILES: dict[str, str] = {"big-box": "big_box.json", "2011": "2011.json"}


def slot_open(mark: int, seats: int, player_counts: Iterable[int]) -> bool:
    """Whether a chronicle or graveyard slot printed with `mark` (the smallest player count
    it is open for; 2 = unmarked) is open at a table of `seats` players, as new games play
    it (rules version 2). 000 遊戲設置 7: 如果遊戲人數少於5人，將一個沒被選取到顏色的家族成員
    放進編年史及公墓中以減少可用的空格. A mark above the edition's largest player count
    (`player_counts`) blocks nothing: 004 blocks spaces only with fewer than 4 players
    (「4인 미만시 … 인원수보다 큰 숫자칸에」)."""
    return min(int(mark), max(int(c) for c in player_counts)) <= seats


class SetupCard(BaseModel):
    model_config = ConfigDict(extra="forbid")

    bag_per_colour: int = Field(ge=0)
    spaces: dict[str, int]

    @property
    def cubes_placed(self) -> int:
        return sum(self.spaces.values())


#: Printed values the engine once kept as literals in its rules (issue 11 moved them into
#: the component data). A game stored before then holds component data without them and
#: was played with exactly these values, so it keeps them when it loads; new games read
#: the shipped data (where each has its rulebook reference). Never change these values.
_ENGINE_VALUES_BEFORE_ISSUE_11: JsonObject = {
    "well_cubes": 3,
    "council_advance": {"green": 2, "scroll": 1},
    "council_privilege_cubes": 2,
    "council_privilege_prestige": {"coins": 1, "prestige": 3},
    "travel_reward": {"prestige": 3, "cubes": 2, "coins": 1},
}


class ComponentData(BaseModel):
    """The raw provenanced values plus typed accessors used by the rules."""

    model_config = ConfigDict(extra="forbid")

    edition: Edition
    values: dict[str, Provenanced]

    @model_validator(mode="after")
    def _fill_values_older_data_lacks(self) -> ComponentData:
        """Component data stored before a value was part of it (a stored game's header)
        gets the value the engine then played with, so the game replays unchanged."""
        if "council_privilege_cubes_distinct" not in self.values:
            # Added with issue 19: the engine asked for different colours in both editions;
            # relaxing the 2011 check refuses nothing that was accepted, so a stored 2011
            # game takes its edition's rule and still replays as played.
            self.values["council_privilege_cubes_distinct"] = Provenanced(
                value=self.edition == "big-box", provenance="seed",
                ref="Not in this game's stored component data (stored before issue 19): "
                    "the edition's rule (000: different colours; 004: any colours)")
        for key, value in _ENGINE_VALUES_BEFORE_ISSUE_11.items():
            if key not in self.values:
                self.values[key] = Provenanced(
                    value=copy.deepcopy(value), provenance="source",
                    ref="Not in this game's stored component data (stored before issue 11): "
                        "the value the engine played with then, as the rulebook prints it")
        return self

    def v(self, key: str) -> Any:
        return self.values[key].value

    def n(self, key: str) -> int:
        """A printed count or number (a whole number in the data; TypeError otherwise)."""
        value = self.values[key].value
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"component value {key!r} is {value!r}, not a whole number")
        return value

    # Typed reads of one value: each checks the value's shape (TypeError otherwise), so a
    # caller gets what its type says. `v` stays for the odd shapes read in one place.
    def names(self, key: str) -> list[str]:
        """A list of names: colours, spaces, goods, an order of actions."""
        value = self.values[key].value
        if not (isinstance(value, list) and all(isinstance(x, str) for x in value)):
            raise TypeError(f"component value {key!r} is {value!r}, not a list of names")
        return value

    def numbers(self, key: str) -> list[int]:
        """A list of whole numbers: a scoring track, player counts, slots per count."""
        value = self.values[key].value
        if not (isinstance(value, list) and all(_whole(x) for x in value)):
            raise TypeError(f"component value {key!r} is {value!r}, not whole numbers")
        return value

    def counts(self, key: str) -> dict[str, int]:
        """Whole numbers by name: a printed cost ({"time": 2, "wagon": 1}), an amount by
        level or building."""
        value = self.values[key].value
        if not (isinstance(value, dict) and all(_whole(x) for x in value.values())):
            raise TypeError(f"component value {key!r} is {value!r}, not counts by name")
        return value

    def name_lists(self, key: str) -> dict[str, list[str]]:
        """Lists of names by name (the goods each workshop makes)."""
        value = self.values[key].value
        if not (isinstance(value, dict) and all(
                isinstance(x, list) and all(isinstance(y, str) for y in x)
                for x in value.values())):
            raise TypeError(f"component value {key!r} is {value!r}, not name lists")
        return value

    def number_lists(self, key: str) -> dict[str, list[int]]:
        """Lists of whole numbers by name (chronicle sections, Karla's fate tiles)."""
        value = self.values[key].value
        if not (isinstance(value, dict) and all(
                isinstance(x, list) and all(_whole(y) for y in x) for x in value.values())):
            raise TypeError(f"component value {key!r} is {value!r}, not number lists")
        return value

    def costs(self, key: str) -> dict[str, dict[str, int]]:
        """A printed cost by name (what each workshop costs to buy)."""
        value = self.values[key].value
        if not (isinstance(value, dict) and all(
                isinstance(x, dict) and all(_whole(y) for y in x.values())
                for x in value.values())):
            raise TypeError(f"component value {key!r} is {value!r}, not costs by name")
        return value

    def name_map(self, key: str) -> dict[str, str]:
        """A name for each name (the chronicle section of each of Karla's actions)."""
        value = self.values[key].value
        if not (isinstance(value, dict) and all(isinstance(x, str) for x in value.values())):
            raise TypeError(f"component value {key!r} is {value!r}, not names by name")
        return value

    def text(self, key: str) -> str:
        """A reading named by a word (how a final-turn death or market goes)."""
        value = self.values[key].value
        if not isinstance(value, str):
            raise TypeError(f"component value {key!r} is {value!r}, not a word")
        return value

    def flag(self, key: str) -> bool:
        value = self.values[key].value
        if not isinstance(value, bool):
            raise TypeError(f"component value {key!r} is {value!r}, not true or false")
        return value

    # Typed accessors: the rules read values through these, never the raw dict.
    def setup_card(self, players: int) -> SetupCard:
        return SetupCard.model_validate(self.v("setup_cards")[str(players)])

    def front_spaces(self, players: int) -> int:
        return int(self.v("market_front_spaces")[str(players)])

    def chronicle_capacity(self, players: int) -> dict[str, int]:
        return {sec: sum(1 for m in marks if m <= players)
                for sec, marks in self.number_lists("chronicle_sections").items()}

    def graveyard_capacity(self, players: int) -> int:
        return sum(1 for m in self.numbers("graveyard_slots") if m <= players)

    def cities(self) -> list[int]:
        """The travel map's cities, numbered 1 to `travel_cities`."""
        return list(range(1, self.n("travel_cities") + 1))

    def train_time(self, building: str) -> int:
        return self.n(f"{building}_train_time")

    def estimates(self) -> dict[str, Provenanced]:
        return {k: p for k, p in self.values.items() if p.provenance == "estimate"}


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@cache
def _load_raw(edition: str) -> str:
    return resources.files("companion.village.data").joinpath(EDITION_FILES[edition]).read_text(
        encoding="utf-8")


def load_components(edition: Edition = "big-box",
                    corrections: JsonObject | None = None) -> ComponentData:
    """The shipped data for an edition, with the user's corrections applied on top."""
    data = ComponentData.model_validate(json.loads(_load_raw(edition)))
    for key, value in (corrections or {}).items():
        if key in data.values:
            was = data.values[key].ref
            data.values[key] = Provenanced(value=value, provenance="user",
                                           ref=f"Corrected by the user (was: {was})")
    validate_consistency(data)
    return data


class ComponentProblem(ValueError):
    pass


def validate_consistency(data: ComponentData) -> None:
    """Reject values that cannot be right (e.g. a corrected setup card that is not fair)."""
    spaces = set(data.v("action_spaces"))
    for n in data.v("player_counts"):
        card = data.setup_card(n)
        if set(card.spaces) != spaces:
            raise ComponentProblem(f"setup_cards.{n}.spaces: must name exactly the spaces "
                                   f"{sorted(spaces)}")
        if any(c < 0 for c in card.spaces.values()):
            raise ComponentProblem(f"setup_cards.{n}.spaces: counts must not be negative")
        if card.cubes_placed % n != 0:
            raise ComponentProblem(f"setup_cards.{n}: {card.cubes_placed} cubes placed is not a "
                                   f"multiple of {n} players")
        if card.bag_per_colour * len(data.v("influence_colours")) < card.cubes_placed - int(
                data.v("plague_cubes")):
            raise ComponentProblem(f"setup_cards.{n}.bag_per_colour: too few cubes to fill "
                                   "the board")
    if int(data.v("time_track_length")) < 2:
        raise ComponentProblem("time_track_length: must be at least 2")
    if int(data.v("travel_cities")) < 1:
        raise ComponentProblem("travel_cities: must be at least 1")
    check_church_costs(data.v("church_advance_grain"), len(data.v("score_church")))
    if "karla_track_spaces" in data.values:
        length = int(data.v("karla_track_spaces"))
        fate = data.v("karla_fate_after")
        for side in ("top", "bottom"):
            if len(fate.get(side, [])) != 3:
                raise ComponentProblem(f"karla_fate_after.{side}: must list 3 positions")
            for pos in fate[side]:
                if not 0 <= int(pos) < length:
                    raise ComponentProblem(f"karla_fate_after.{side}: {pos} is off the board "
                                           f"(0..{length - 1})")
        check_karla_order(data.v("karla_action_order"), spaces)


def check_church_costs(costs: object, levels: int) -> None:
    """The grain printed above church levels 2..top (level 1 is where drawn members start)."""
    wanted = [str(level) for level in range(2, levels + 1)]
    if not isinstance(costs, dict) or sorted(costs) != sorted(wanted):
        raise ComponentProblem(f"church_advance_grain: must give the grain for levels "
                               f"{wanted[0]}-{wanted[-1]}")
    for level in wanted:
        cost = costs[level]
        if isinstance(cost, bool) or not isinstance(cost, int) or cost < 0:
            raise ComponentProblem(f"church_advance_grain.{level}: must be a whole number, "
                                   "at least 0")


def check_karla_order(order: object, spaces: set[str]) -> None:
    """Karla's board, clockwise: every action space in play exactly once. Her board also
    prints the expansions' spaces (inn, wedding, smuggling, ...), covered by a wooden marker
    when not in play; a layout may list them too, and the engine walks past them."""
    if not isinstance(order, list) or not all(isinstance(s, str) and s for s in order):
        raise ComponentProblem("karla_action_order: must be a list of action space names")
    if len(set(order)) != len(order):
        twice = sorted({s for s in order if order.count(s) > 1})
        raise ComponentProblem(f"karla_action_order: {', '.join(twice)} listed twice")
    missing = sorted(spaces - set(order))
    if missing:
        raise ComponentProblem(f"karla_action_order: must list every action space; "
                               f"missing {', '.join(missing)}")


def _same_shape(shipped: object, value: object) -> bool:
    """`value` is what the shipped value is: a whole number, a word, true/false, a list
    or an object of the same kind of items, item by item where the shipped value has one
    (the typed reads of ComponentData rely on it)."""
    if isinstance(shipped, list):
        return isinstance(value, list) and (not shipped or all(
            _same_shape(shipped[min(i, len(shipped) - 1)], item)
            for i, item in enumerate(value)))
    if isinstance(shipped, dict):
        first = next(iter(shipped.values()), None)
        return isinstance(value, dict) and all(
            isinstance(k, str) and (not shipped or _same_shape(shipped.get(k, first), item))
            for k, item in value.items())
    return type(value) is type(shipped)


def correction_value(data: ComponentData, key: str, value: object) -> object:
    """Validate one correction against the rest of the data; raises ComponentProblem."""
    if key not in data.values:
        raise ComponentProblem(f"{key}: not a component value")
    trial = data.model_copy(deep=True)
    trial.values[key] = Provenanced(value=value, provenance="user", ref="trial")
    try:
        trial.setup_card(2) if key == "setup_cards" else None
        validate_consistency(trial)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, ComponentProblem):
            raise
        raise ComponentProblem(f"{key}: {exc}") from exc
    if not _same_shape(data.values[key].value, value):  # the typed reads stay true
        raise ComponentProblem(f"{key}: must have the shape of {data.values[key].value!r}")
    return value


# ---- warnings: values the engine plays with but the rulebook contradicts -----------------
#: More cubes go into the green bag each round than are drawn (000 三人遊戲的範例 註記:
#: 每輪加入布袋的方塊會多於抽出的方塊). The plague cubes added vary (none when none was drawn
#: the round before), so the card's influence cubes alone must outnumber the cubes drawn.
BAG_NOT_ABOVE_DRAW = "bag_not_above_draw"


@dataclass(frozen=True)
class ComponentWarning:
    """A value that contradicts the rulebook, but may still be what a box prints: the
    component check shows it and lets the game start. `key` names the rule (the app
    words it in the player's language from `params`); `item` is the value it is about
    (a component key, or "setup_cards.<n>" for one card)."""

    key: str
    item: str
    params: dict[str, int] = field(default_factory=dict)


def component_warnings(data: ComponentData) -> list[ComponentWarning]:
    """Everything in `data` (shipped estimates or the user's corrections) that breaks a
    rulebook statement without making the game unplayable. Never raises for a value
    `validate_consistency` accepts."""
    out: list[ComponentWarning] = []
    colours = len(data.names("influence_colours"))
    for n in data.numbers("player_counts"):
        card = data.setup_card(n)
        added, drawn = card.bag_per_colour * colours, card.cubes_placed
        if added <= drawn:
            out.append(ComponentWarning(BAG_NOT_ABOVE_DRAW, f"setup_cards.{n}",
                                        {"players": int(n), "added": added, "drawn": drawn}))
    return out
