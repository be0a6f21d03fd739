"""A recorded Village game, step by step: the replay's questions, answered by the engine.

`GameReplay` folds a stored event log through the engine once and keeps, for every step
(step n = the game just after its n-th event, 1 = the first; step 0 = the setup before
any event), where the game stood (round, turn within the round, phase, whose turn) and
the event itself with the player it acted for (its log line: the app words it). The
full state of a step is `state_after(n)`: the state a live session reaches after the
same events, rebuilt from a snapshot kept every `every` steps plus at most `every - 1`
events folded forward, and from the state last asked for when stepping on from it, so a
tap on a long game never refolds it from the start. Where each turn and round begins
comes with the fold (`turn_starts`, `round_starts`; companion.core.positions).

A log the engine stops folding part way (a game stored by an older engine whose rules
it no longer follows) is replayed up to there; the later events keep their log lines,
without an actor. Pure domain: no UI, no store. Building folds the whole game (blocking:
the app calls it off the event loop); the questions after that are quick.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.core.json_types import JsonObject
from companion.core.positions import Marks, marks
from companion.village.components import ComponentData
from companion.village.engine import apply_event, start_state
from companion.village.session import parse_body
from companion.village.setup import VillageSetup
from companion.village.state import VillageState

logger = logging.getLogger(__name__)

SNAPSHOT_EVERY = 16  # steps between kept states: a jump folds at most 15 events


@dataclass(frozen=True)
class LogEntry:
    """One stored event as a log line: what it was and the player it was for."""

    seq: int
    group: int
    at: str
    body: JsonObject
    actor: int | None  # the player the event was for (None: nobody in particular)
    by: Any = None  # table mode: whose phone did it, e.g. {"seat": 1} (None: the host)
    taps: int = 1  # stored events this line stands for (consecutive counter taps merged)


# Commands that name the player they are for (corrections, mostly).
PLAYER_NAMED = ("spend_time", "adjust", "override_score", "set_time", "take_back_time",
                "add_customer_tile", "remove_customer_tile", "set_customer_points")


def actor_of(state: VillageState, body: JsonObject) -> int | None:
    """Who an event acts for, judged from the state just before it."""
    kind = body.get("type")
    pending = state.pending[0] if state.pending else None
    if kind in PLAYER_NAMED:
        player = body.get("player")
        return player if isinstance(player, int) else None
    if kind == "move_member":
        member = state.members.get(str(body.get("member")))
        return member.owner if member is not None else None
    if kind == "next_start_marker_coin":
        return state.next_start_holder
    if kind == "chance" or kind in ("choose_death", "choose_compensation_cube"):
        return pending.player if pending is not None else None
    if kind == "karla_choose_cube":
        return state.karla.player if state.karla is not None else None
    if kind in ("market_serve", "market_pass") and state.market_day is not None:
        return state.market_day.seller
    if kind in ("mass_buyout", "mass_advance") and state.mass is not None:
        order, index = state.mass.order, state.mass.index
        return order[index] if index < len(order) else None
    if kind in ("finish_game", "spend_next_start_marker"):
        return None
    return state.current


@dataclass(frozen=True)
class ReplayStep:
    """Where the game stood just after one event (`number`, 1 = the first stored event)."""

    number: int
    entry: LogEntry  # the event, with the player it acted for
    round: int
    turn: int  # cubes taken (or wells) so far this round: 0 before the round's first
    phase: str
    current: int  # whose turn it is (a player's index)
    notes: tuple[JsonObject, ...] = ()  # the engine's notes of this event


def _entry(event: JsonObject, index: int, actor: int | None) -> LogEntry:
    return LogEntry(seq=int(event.get("seq", index)), group=int(event.get("group", 0)),
                    at=str(event.get("at", "")), body=dict(event.get("body", {})),
                    actor=actor, by=event.get("by"))


class GameReplay:
    """A recorded game's steps (see the module's docstring). Read only: the states it
    answers are its own copies; a caller must not change them."""

    def __init__(self, setup: VillageSetup, comp: ComponentData,
                 events: Sequence[JsonObject], *, every: int = SNAPSHOT_EVERY) -> None:
        self.setup, self.comp = setup, comp
        self.every = max(1, every)
        self.events = list(events)
        state = start_state(setup, comp)
        self._snapshots: dict[int, VillageState] = {0: state.clone()}
        self.steps: list[ReplayStep] = []
        self.entries: list[LogEntry] = []  # every event's log line, also after a stop
        folding = True
        for index, event in enumerate(self.events):
            body = dict(event.get("body", {}))
            actor = actor_of(state, body) if folding else None
            entry = _entry(event, index, actor)
            self.entries.append(entry)
            if not folding:
                continue
            try:
                apply_event(state, comp, parse_body(body))
            except Exception:  # an event this engine no longer folds: replay up to here
                logger.exception("replay stopped at event %s", index + 1)
                folding = False
                continue
            number = index + 1
            self.steps.append(ReplayStep(number=number, entry=entry, round=state.round,
                                         turn=state.round_turns, phase=state.phase,
                                         current=state.current,
                                         notes=tuple(state.note_data)))
            if number % self.every == 0:
                self._snapshots[number] = state.clone()
        self.final = state  # names players and members for the log lines
        self.marks: Marks = marks(self.steps)
        self._last: tuple[int, VillageState] = (0, self._snapshots[0])

    @classmethod
    def log_entries(cls, setup: VillageSetup, comp: ComponentData,
                    events: Sequence[JsonObject]) -> list[LogEntry]:
        """Every event's log line with its actor (the log screen's question)."""
        return cls(setup, comp, events, every=len(events) + 1).entries

    # ---- the questions -------------------------------------------------------------------
    @property
    def count(self) -> int:
        """The steps the engine replays (fewer than the events when the fold stopped)."""
        return len(self.steps)

    @property
    def stopped(self) -> bool:
        return len(self.steps) < len(self.events)

    def step(self, number: int) -> ReplayStep:
        """Step `number` (1 .. count)."""
        if not 1 <= number <= self.count:
            raise IndexError(f"step {number} is not in 1..{self.count}")
        return self.steps[number - 1]

    def entry(self, number: int) -> LogEntry:
        """The log line of step `number` (its event and the player it acted for)."""
        return self.step(number).entry

    def action_notes(self, number: int) -> list[JsonObject]:
        """The engine's notes of the action step `number` belongs to, up to that step (what
        a live session's `last_note_data` holds after the same events)."""
        if number < 1:
            return []
        group = self.step(number).entry.group
        first = number
        while first > 1 and self.steps[first - 2].entry.group == group:
            first -= 1
        return [dict(n) for s in self.steps[first - 1:number] for n in s.notes]

    def state_after(self, number: int) -> VillageState:
        """The state just after step `number` (0: before the first event), equal to the
        live session's state after the same events. Folds at most `every - 1` events (none
        when stepping on by one from the step last asked for). Do not change it."""
        if not 0 <= number <= self.count:
            raise IndexError(f"step {number} is not in 0..{self.count}")
        base = number - number % self.every
        last, last_state = self._last
        if last == number:
            return last_state
        start, state = ((last, last_state) if base <= last < number
                        else (base, self._snapshots[base]))
        if start != number:
            state = state.clone()
            for event in self.events[start:number]:
                apply_event(state, self.comp, parse_body(dict(event.get("body", {}))))
        self._last = (number, state)
        return state

    def turn_starts(self) -> tuple[int, ...]:
        """The step numbers at which a turn begins (its cube, well or free action)."""
        return tuple(index + 1 for index in self.marks.turns)

    def round_starts(self) -> tuple[int, ...]:
        """The step numbers at which a round begins."""
        return tuple(index + 1 for index in self.marks.rounds)

    def previous_turn(self, number: int) -> int | None:
        """The start of the turn `number` is in (from its start: of the turn before)."""
        return _number(self.marks.previous_turn(number - 1))

    def next_turn(self, number: int) -> int | None:
        return _number(self.marks.next_turn(number - 1))

    def previous_round(self, number: int) -> int | None:
        return _number(self.marks.previous_round(number - 1))

    def next_round(self, number: int) -> int | None:
        return _number(self.marks.next_round(number - 1))


def _number(index: int | None) -> int | None:
    return None if index is None else index + 1
