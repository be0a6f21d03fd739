"""A finished Village game loaded for its replay: the stored log handed to the engine's
replay (companion.village.replay.GameReplay), which folds it once and then answers the
screen's questions (the state after a step, where turns and rounds begin, a step's log
line). Read only: the game is loaded from the store and never written. Blocking (folds
the whole game): call it on the store thread (ctx.in_background), never in an event
handler."""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.json_types import JsonObject
from companion.store.base import SessionStore
from companion.village.components import ComponentData
from companion.village.replay import GameReplay, ReplayStep
from companion.village.setup import VillageSetup

__all__ = ["NotAVillageGame", "Replay", "ReplayStep", "build_replay"]


@dataclass(frozen=True)
class Replay:
    session_id: str
    game: GameReplay

    @property
    def steps(self) -> list[ReplayStep]:
        return self.game.steps

    @property
    def total_events(self) -> int:
        """Stored events; more than len(steps) when the fold stopped early."""
        return len(self.game.events)


class NotAVillageGame(ValueError):
    """The stored game is not a Village game (only Village keeps a log to replay)."""


def build_replay(session_id: str, store: SessionStore) -> Replay:
    """A stored Village game, replayed (KeyError/SessionNotFound: no such game;
    NotAVillageGame; a stored setup the engine cannot read raises its ValidationError).
    A log the engine stops folding part way is replayed up to there."""
    stored = store.load(session_id)
    header: JsonObject = stored.header
    if not isinstance(header.get("setup"), dict) or "components" not in header:
        raise NotAVillageGame(f"{session_id} is not a Village game")
    setup = VillageSetup.model_validate(header["setup"], context={"stored": True})
    comp = ComponentData.model_validate(header["components"])
    return Replay(session_id=session_id, game=GameReplay(setup, comp, stored.events))
