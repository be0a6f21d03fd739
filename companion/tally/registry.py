"""Which module holds the tally rules of which game (imported lazily). The games and
their rules' modules are the registry's (companion/games)."""

from __future__ import annotations

from typing import Any

from companion import games
from companion.tally.errors import reject
from companion.tally.rules import TallyRules

# game id (as stored in sessions) -> "module:attribute" of its TallyRules instance
TALLY_RULES: dict[str, str] = games.tally_rules()
TALLY_GAMES: tuple[str, ...] = games.TALLY_GAMES


def rules_for(game: str) -> TallyRules[Any]:
    target = TALLY_RULES.get(games.canonical_id(game))  # a legacy id: its game's rules
    if target is None:
        reject("game", f"must be one of {', '.join(TALLY_GAMES)}, not {game!r}",
               key="tally.not_one_of", params={"options": ", ".join(TALLY_GAMES), "value": game})
    rules: TallyRules[Any] = games.load(target)
    return rules
