"""What a tally session starts from: the game, the players in seat order, a seed."""

from __future__ import annotations

import secrets

from pydantic import BaseModel, ConfigDict, Field

from companion.scoring.inputs import roster_checks
from companion.tally.errors import EditRejected, Problem

SETUP_SCHEMA = 1


class TallySetup(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    game: str
    players: tuple[str, ...]  # seat order: seat 1 first
    seed: int = Field(default_factory=lambda: secrets.randbits(32))
    schema_version: int = SETUP_SCHEMA


def checked_setup(game: str, names: list[str], minimum: int, maximum: int,
                  seed: int | None = None) -> TallySetup:
    """A setup with trimmed names, or EditRejected naming players[i].name / players."""
    trimmed = [n.strip() for n in names]
    problems = roster_checks(trimmed, minimum, maximum)
    if problems:
        raise EditRejected([Problem(p.field, p.message, p.key, p.params) for p in problems])
    if seed is None:
        return TallySetup(game=game, players=tuple(trimmed))
    return TallySetup(game=game, players=tuple(trimmed), seed=seed)
