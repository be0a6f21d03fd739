"""A finished Village game, step by step: its stored log folded through the engine once,
keeping after each event only what the replay screen shows (round, turn within the round,
phase, whose turn, each player's counters) and the event itself for its log line, and
where each round and turn starts (companion.history.positions) for the screen's jumps.
Read only: the game is loaded from the store and never written. Blocking (folds the whole
game): call it on the store thread (ctx.in_background), never in an event handler."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from companion.app.village.log.model import LogEntry, actor_of
from companion.history.positions import Marks, marks
from companion.store.base import SessionStore
from companion.village.components import ComponentData
from companion.village.engine import apply_event, start_state
from companion.village.session import parse_body
from companion.village.setup import VillageSetup
from companion.village.state import VillageState

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PlayerCounters:
    prestige: int
    coins: int
    grain: int
    time: int


@dataclass(frozen=True)
class ReplayStep:
    """The game just after one event (`number`, 1 = the first stored event)."""

    number: int
    entry: LogEntry  # the event, with the player it acted for
    round: int
    turn: int  # cubes taken (or wells) so far this round: 0 before the round's first
    phase: str
    current: int  # whose turn it is (a player's index)
    players: tuple[PlayerCounters, ...]  # in seat order


@dataclass(frozen=True)
class Replay:
    session_id: str
    steps: list[ReplayStep]
    final: VillageState  # names players and members for the log lines
    total_events: int  # stored events; more than len(steps) when the fold stopped early
    marks: Marks = Marks()  # the steps at which each round and each turn starts


class NotAVillageGame(ValueError):
    """The stored game is not a Village game (only Village keeps a log to replay)."""


def _counters(state: VillageState) -> tuple[PlayerCounters, ...]:
    return tuple(PlayerCounters(prestige=p.prestige, coins=p.coins, grain=p.grain,
                                time=p.time) for p in state.players)


def build_replay(session_id: str, store: SessionStore) -> Replay:
    """Every step of a stored Village game (KeyError/SessionNotFound: no such game;
    NotAVillageGame; a stored setup the engine cannot read raises its ValidationError).
    A log the engine stops folding part way is replayed up to there."""
    stored = store.load(session_id)
    header: dict[str, Any] = stored.header
    if not isinstance(header.get("setup"), dict) or "components" not in header:
        raise NotAVillageGame(f"{session_id} is not a Village game")
    setup = VillageSetup.model_validate(header["setup"], context={"stored": True})
    comp = ComponentData.model_validate(header["components"])
    state = start_state(setup, comp)
    steps: list[ReplayStep] = []
    for number, event in enumerate(stored.events, start=1):
        body = dict(event.get("body", {}))
        entry = LogEntry(seq=int(event.get("seq", number - 1)),
                         group=int(event.get("group", 0)), at=str(event.get("at", "")),
                         body=body, actor=actor_of(state, body), by=event.get("by"))
        try:
            apply_event(state, comp, parse_body(body))
        except Exception:  # an event this engine no longer folds: replay up to here
            logger.exception("replay of %s stopped at event %s", session_id, number)
            break
        steps.append(ReplayStep(number=number, entry=entry, round=state.round,
                                turn=state.round_turns, phase=state.phase, current=state.current,
                                players=_counters(state)))
    return Replay(session_id=session_id, steps=steps, final=state,
                  total_events=len(stored.events), marks=marks(steps))
