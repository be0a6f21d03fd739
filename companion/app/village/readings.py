"""How this app reads the rules, for the screens: which interpretations (companion/village/
data/interpretations.json) apply to a game, their catalogue keys, and what a game plays by.

Everything is built from the data: a new entry needs only its texts in the catalogues,
`rules.<key>.title` and `rules.<key>.option.<option>` (tests/app/village_table/
test_rules_readings.py fails until all four languages have them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from companion.village.interpretations import (
    CURRENT_RULES,
    Interpretation,
    effective_readings,
    interpretations,
)
from companion.village.setup import VillageSetup

# Where the quoted sentences come from (the seeds), in the player's words.
SOURCES = {"000": "readings.source.big_box", "004": "readings.source.korean_2011"}
EDITIONS = {"big-box": "readings.edition.big_box", "2011": "readings.edition.2011"}


def title_key(item: Interpretation) -> str:
    return f"rules.{item.key}.title"


def option_key(item: Interpretation, option: str) -> str:
    return f"rules.{item.key}.option.{option}"


def catalogue_keys(item: Interpretation) -> list[str]:
    """Every text one entry needs in each catalogue."""
    return [title_key(item), *(option_key(item, option) for option in item.options)]


def applicable(edition: str | None = None, solo: bool | None = None
               ) -> list[Interpretation]:
    """Entries for one kind of game (edition and solo), or all of them (None)."""
    return [item for item in interpretations()
            if edition is None or item.applies_to(edition, bool(solo))]


def switchable(edition: str, solo: bool) -> list[Interpretation]:
    """What the players may choose per new game of this kind."""
    return [item for item in applicable(edition, solo) if item.switchable]


def in_effect(item: Interpretation, choice: Callable[[str], str]) -> bool:
    """Whether an entry matters, given the other readings (`applies_with`): e.g. what a paid
    marker does in later rounds matters only when it does not come back at the next one."""
    return all(choice(key) == option for key, option in item.applies_with.items())


def game_readings(setup: VillageSetup) -> list[tuple[Interpretation, str]]:
    """The entries a game plays by (of its edition and mode, in effect) with its reading."""
    effective = effective_readings(setup)
    return [(item, effective[item.key]) for item in applicable(setup.edition, setup.solo)
            if item.key in effective]


@dataclass(frozen=True)
class Differing:
    item: Interpretation
    option: str  # the reading this game plays by (not the app's `chosen` one)


def differing(setup: VillageSetup) -> list[Differing]:
    """The readings a game plays by that are not the app's reading for new games (its own
    choices, or the legacy readings of a game started before the rules fixes)."""
    return [Differing(item, option) for item, option in game_readings(setup)
            if option != item.chosen]


def is_legacy(setup: VillageSetup) -> bool:
    """Started before the rulebook fixes: replays by the rules it was started with."""
    return setup.rules_version < CURRENT_RULES
