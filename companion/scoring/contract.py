"""The scoring contract shared by every game: one result row per player, in input order."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel

from companion.core.json_types import JsonObject


class PlayerResult(BaseModel):
    name: str
    categories: dict[str, int]
    total: int | None
    rank: int | None
    eliminated: bool = False
    achievement: str | None = None
    # Human-readable note on how a tie was (or was not) broken, for the readable table.
    tiebreak: str | None = None

    def to_json(self) -> JsonObject:
        out: JsonObject = {
            "name": self.name,
            "categories": dict(self.categories),
            "total": self.total,
            "rank": self.rank,
        }
        if self.eliminated:
            out["eliminated"] = True
        if self.achievement is not None:
            out["achievement"] = self.achievement
        return out


class ScoreSheet(BaseModel):
    game: str
    players: list[PlayerResult]
    winners: list[str]

    def to_json(self) -> JsonObject:
        return {
            "game": self.game,
            "players": [p.to_json() for p in self.players],
            "winners": list(self.winners),
        }


def competition_ranks(keys: Sequence[tuple[Any, ...] | None]) -> list[int | None]:
    """Rank players by a sort key (greater is better); equal keys share a rank (1, 1, 3).

    A key of None means the player is out of the ranking (e.g. eliminated) and gets None.
    """
    ranked = [k for k in keys if k is not None]
    out: list[int | None] = []
    for key in keys:
        if key is None:
            out.append(None)
        else:
            out.append(1 + sum(1 for other in ranked if other > key))
    return out


def winners_of(players: Sequence[PlayerResult]) -> list[str]:
    return [p.name for p in players if p.rank == 1]


Scorer = Callable[[JsonObject], ScoreSheet]
