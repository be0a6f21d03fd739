"""A tally session: setup + append-only edit log; state = fold of the log; undo/redo.

Undo pops the last edit onto the redo stack (front = next to redo); redo re-applies it
exactly as recorded (a die roll keeps its face); any new edit clears the redo stack.
`prepare` validates an edit without changing anything, so a caller can save the event
first and `commit` only once it is stored (see service.py). The log and redo bookkeeping
is companion.core.log's (each edit is a group of its own); the session keeps one state
per edit beside it, so undo never refolds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Generic, Literal

from companion.core.json_types import JsonObject
from companion.core.log import EventLog, LogSnapshot
from companion.scoring.contract import ScoreSheet
from companion.tally.chance import rng_for
from companion.tally.errors import reject
from companion.tally.rules import Edit, S, TallyRules
from companion.tally.setup import TallySetup

FINISH = "finish"


class Finish(Edit):
    """Ends the game (refused while numbers are missing); stored as {"type": "finish"}."""

    type: Literal["finish"] = "finish"


def _now() -> str:
    from datetime import UTC, datetime

    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class Pending(Generic[S]):
    """A validated edit, not yet part of the session."""

    event: JsonObject  # {"at": iso, "edit": {...}} as stored
    state: S  # the state once it is committed


@dataclass(frozen=True)
class Snapshot(Generic[S]):
    log: LogSnapshot
    states: tuple[S, ...]

    @property
    def events(self) -> tuple[JsonObject, ...]:
        return self.log.events

    @property
    def redo(self) -> tuple[JsonObject, ...]:
        return self.log.redo


class TallySession(Generic[S]):
    def __init__(self, rules: TallyRules[S], setup: TallySetup,
                 events: Iterable[JsonObject] = (),
                 redo: Iterable[JsonObject] = (),
                 clock: Callable[[], str] = _now) -> None:
        if setup.game != rules.game:
            raise ValueError(f"setup is for {setup.game!r}, rules are for {rules.game!r}")
        self.rules = rules
        self.setup = setup
        self.clock = clock
        self._log = EventLog()  # one group per edit
        # _states[i] is the state after i edits; kept so undo never refolds the log.
        self._states: list[S] = [rules.start(setup)]
        for event in events:
            self.commit(self.prepare(self.read_edit(event["edit"]), at=event.get("at")),
                        keep_redo=True)
        self._log.redo = [dict(e) for e in redo]
        # The stored version this copy extends (compare-and-append); set by the service.
        self.saved_version = 0

    # ---- reading -----------------------------------------------------------------------
    @property
    def state(self) -> S:
        return self._states[-1]

    @property
    def events(self) -> list[JsonObject]:
        return list(self._log.events)

    @property
    def redo_stack(self) -> list[JsonObject]:
        return list(self._log.redo)

    @property
    def finished(self) -> bool:
        events = self._log.events
        return bool(events) and events[-1]["edit"]["type"] == FINISH

    @property
    def can_undo(self) -> bool:
        return self._log.can_undo

    @property
    def can_redo(self) -> bool:
        return self._log.can_redo

    def sheet(self) -> ScoreSheet:
        """The final sheet for the current numbers (EditRejected says what is missing)."""
        return self.rules.sheet(self.state)

    # ---- editing -----------------------------------------------------------------------
    def read_edit(self, raw: object) -> Edit:
        """A stored edit (a dict from the log, or JSON) validated into the game's model,
        once, where it is read; anything malformed is refused naming the field."""
        if not isinstance(raw, Mapping):
            reject("(edit)", "must be an object", key="tally.edit_not_object")
        if raw.get("type") == FINISH:
            return Finish()
        return self.rules.parse(raw)

    def prepare(self, edit: Edit, *, at: str | None = None) -> Pending[S]:
        """Check `edit` (a model: a screen's, or a stored one through read_edit) against
        the current state without changing anything."""
        stamp = at or self.clock()
        if isinstance(edit, Finish):
            if self.finished:
                reject("type", "the game is already finished", key="tally.game_finished")
            self.rules.sheet(self.state)  # refuses (naming fields) while numbers are missing
            return Pending({"at": stamp, "edit": Finish().model_dump(mode="json")}, self.state)
        if self.finished:
            reject("type", "the game is finished: undo to change it",
                   key="tally.game_finished_undo")
        edit = self.rules.own(edit)
        seq = len(self._log)
        edit = self.rules.complete(
            self.state, edit,
            lambda draw: rng_for(self.setup.game, self.setup.seed, seq, draw))
        new_state = self.rules.apply(self.state, edit)
        return Pending({"at": stamp, "edit": edit.model_dump(mode="json")}, new_state)

    def commit(self, pending: Pending[S], *, keep_redo: bool = False) -> None:
        self._log.record([pending.event], keep_redo=keep_redo)
        self._states.append(pending.state)

    def apply(self, edit: Edit) -> JsonObject:
        """Validate and add one edit; returns the stored event."""
        pending = self.prepare(edit)
        self.commit(pending)
        return pending.event

    def undo(self) -> bool:
        if not self._log.undo():
            return False
        self._states.pop()
        return True

    def redo(self) -> bool:
        batch = self._log.next_redo()
        if not batch:
            return False
        # Re-checked first: an edit that no longer applies leaves everything as it was.
        pending = self.prepare(self.read_edit(batch[0]["edit"]), at=batch[0].get("at"))
        self._log.redo_next([pending.event])
        self._states.append(pending.state)
        return True

    # ---- all-or-nothing around a save ----------------------------------------------------
    def snapshot(self) -> Snapshot[S]:
        return Snapshot(self._log.snapshot(), tuple(self._states))

    def restore(self, snap: Snapshot[S]) -> None:
        self._log.restore(snap.log)
        self._states = list(snap.states)
