"""How this app reads the rules where the rulebooks are silent or ambiguous.

`data/interpretations.json` lists every such place: the passage (seed and the original
sentence), the reading the app chose for new games, the other reading, and for a reading
that changed with a rules fix, the `legacy` one that games started before it keep
(the setup's `rules_version` below the entry's `since`). Switchable readings are chosen
per new game and stored in its setup (`readings`, or a setup field such as `compensation`).

Engine code asks `reading(setup, key)`; it never reads the file's defaults itself.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, model_validator

Edition = Literal["big-box", "2011"]


class ReadingsOf(Protocol):
    """What a game's readings depend on: its setup (`village.setup.VillageSetup`, which
    builds on this module and so is not named here). A reading kept in a setup field
    (`Interpretation.setup_field`) is read from that attribute."""

    @property
    def edition(self) -> str: ...

    @property
    def solo(self) -> bool: ...

    @property
    def rules_version(self) -> int: ...

    @property
    def readings(self) -> Mapping[str, str]: ...

#: Rules revision of games started by this build. 1: before the rulebook fixes of issue 10
#: (Karla after the well, the solo marker, 2011 blocking, compensation and end deaths).
#: 2: before those of issue 19 (Karla takes nothing once she has ended the game; a payment
#: that differs from the printed cost is refused unless the table confirms it).
CURRENT_RULES = 3
#: From this rules version on, a payment named in a command is compared with the printed
#: cost (rules/payment.check_printed); older games replay unchecked, as they were played.
PAYMENTS_CHECKED_FROM = 3


class Interpretation(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    key: str
    editions: list[Edition]
    solo: bool | None  # None: solo and multiplayer games alike
    seed: Literal["000", "004"]
    where: str
    text: str  # the rulebook's own sentence
    options: list[str]
    chosen: str  # the reading of new games
    legacy: str | None = None  # the reading of games started before rules version `since`
    since: int = Field(default=2, ge=2)  # the rules version that made `chosen` the default
    # The sentence the other reading rests on, where the rulebook seems to say both.
    other_text: str | None = None
    switchable: bool
    setup_field: str | None = None  # a setup field that holds the choice (bool: "on"/"off")
    # Only in effect while these other readings are (e.g. what a paid marker does in later
    # rounds matters only when a paid marker does not come back at the next one).
    applies_with: dict[str, str] = {}
    reading: dict[str, str]  # English descriptions (the app's texts are in the catalogues)

    @model_validator(mode="after")
    def _check(self) -> Interpretation:
        for option in (self.chosen, self.legacy):
            if option is not None and option not in self.options:
                raise ValueError(f"{self.key}: {option!r} is not one of {self.options}")
        if set(self.reading) != set(self.options):
            raise ValueError(f"{self.key}: describe every option")
        return self

    def applies_to(self, edition: str, solo: bool) -> bool:
        return edition in self.editions and (self.solo is None or self.solo == solo)


@cache
def interpretations() -> tuple[Interpretation, ...]:
    raw = resources.files("companion.village").joinpath("data/interpretations.json")
    data = json.loads(raw.read_text("utf-8"))
    return tuple(Interpretation.model_validate(item) for item in data["interpretations"])


def interpretation(key: str) -> Interpretation:
    for item in interpretations():
        if item.key == key:
            return item
    raise KeyError(key)


def default_reading(key: str, rules_version: int) -> str:
    """The reading a game gets when its setup does not choose one."""
    item = interpretation(key)
    if rules_version < item.since and item.legacy is not None:
        return item.legacy
    return item.chosen


def reading(setup: ReadingsOf, key: str) -> str:
    """The reading this game plays by (its choice, else its rules version's default)."""
    item = interpretation(key)
    if item.setup_field is not None:
        return "on" if getattr(setup, item.setup_field) else "off"
    return setup.readings.get(key) or default_reading(key, setup.rules_version)


def effective_readings(setup: ReadingsOf) -> dict[str, str]:
    """Every reading this game plays by: key -> option, for the entries of its edition and
    mode whose `applies_with` readings are in effect (the game's state carries them as
    `VillageState.readings`)."""
    chosen = {item.key: reading(setup, item.key) for item in interpretations()
              if item.applies_to(setup.edition, setup.solo)}
    return {key: option for key, option in chosen.items()
            if all(chosen.get(k) == v for k, v in interpretation(key).applies_with.items())}
