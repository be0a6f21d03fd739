"""Which module holds the tally rules of which game (imported lazily)."""

from __future__ import annotations

import importlib
from typing import Any

from companion.tally.errors import reject
from companion.tally.rules import TallyRules

# game id (as stored in sessions) -> "module:attribute" of its TallyRules instance
TALLY_RULES: dict[str, str] = {
    "small-city": "companion.small_city.tally:RULES",
    "feudum": "companion.feudum.tally:RULES",
    "villagers": "companion.villagers.tally:RULES",
}
TALLY_GAMES: tuple[str, ...] = tuple(TALLY_RULES)


def rules_for(game: str) -> TallyRules[Any]:
    target = TALLY_RULES.get(game)
    if target is None:
        reject("game", f"must be one of {', '.join(TALLY_GAMES)}, not {game!r}",
               key="tally.not_one_of", params={"options": ", ".join(TALLY_GAMES), "value": game})
    module, attribute = target.split(":")
    rules: TallyRules[Any] = getattr(importlib.import_module(module), attribute)
    return rules
