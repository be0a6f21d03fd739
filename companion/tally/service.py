"""Tally sessions in a SessionStore: every edit is saved before it counts.

    service = TallyService(store)
    session_id, session = service.create("villagers", ["Ann", "Bo"])
    service.apply(session_id, session, SetField(player=0, field="money", value=12))
    service.finish(session_id, session)   # history gets players, scores, winners, date

`apply` takes an edit model (what the screens build; a stored or JSON edit is validated
into the game's model once, where it is read: TallySession.read_edit). It validates
first (nothing changes on EditRejected), appends the event to the store (with the summary
Home lists, in the same atomic write, naming the version it extends) and only then
commits it in memory; undo/redo store the whole log and roll the in-memory session back
if the write fails.
The caller runs all of this off the UI loop.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from companion.core.json_types import JsonObject
from companion.scoring.contract import ScoreSheet
from companion.store.base import DamagedGame, SessionStore, utc_iso
from companion.tally.errors import EditRejected
from companion.tally.registry import rules_for
from companion.tally.rules import Edit
from companion.tally.session import Finish, TallySession
from companion.tally.setup import TallySetup, checked_setup

HEADER_KIND = "tally"
HEADER_SCHEMA = 1
OUT_SCORE = "—"  # shown in history for a player who left the game (Small City pollution)

AnySession = TallySession[Any]


class NotATallySession(ValueError):
    pass



def session_summary(session: AnySession) -> JsonObject:
    """What Home's history shows: players, scores, winners, date (ISO day, UTC); since
    issue 22 started_at (the first entry's time, as a Village game's first event) and
    once finished ended_at (the finishing edit's time), for BG Stats and the history."""
    events = session.events
    day = (events[-1]["at"] if events else session.clock())[:10]
    summary: JsonObject = {"players": list(session.setup.players), "date": day,
                           "played_at": utc_iso()}  # last played: saved with events
    if events and isinstance(events[0].get("at"), str):  # the first entry's time
        summary["started_at"] = events[0]["at"]
    if session.finished:
        sheet = session.sheet()
        summary["scores"] = {p.name: OUT_SCORE if p.total is None else p.total
                             for p in sheet.players}
        summary["winners"] = list(sheet.winners)
        if events and isinstance(events[-1].get("at"), str):  # the finishing edit's time
            summary["ended_at"] = events[-1]["at"]
    return summary


class TallyService:
    def __init__(self, store: SessionStore) -> None:
        self.store = store

    def create(self, game: str, names: list[str], *,
               seed: int | None = None) -> tuple[str, AnySession]:
        rules = rules_for(game)
        setup = checked_setup(game, names, rules.min_players, rules.max_players, seed)
        session: AnySession = TallySession(rules, setup)
        session_id = uuid.uuid4().hex[:16]
        header = {"kind": HEADER_KIND, "schema": HEADER_SCHEMA, "game": game,
                  "setup": setup.model_dump(mode="json")}
        session.saved_version = self.store.create(
            session_id, game, ", ".join(setup.players), header,
            summary=session_summary(session))
        return session_id, session

    def open(self, session_id: str) -> AnySession:
        stored = self.store.load(session_id)
        header = stored.header
        if header.get("kind") != HEADER_KIND:
            raise NotATallySession(f"session {session_id} is not a scoring-assistant game")
        if header.get("schema") != HEADER_SCHEMA:
            raise NotATallySession(f"session {session_id} was saved by a newer app")
        try:
            setup = TallySetup.model_validate(header["setup"])
            session: AnySession = TallySession(rules_for(setup.game), setup, stored.events,
                                               stored.redo)
        except (EditRejected, ValidationError, KeyError, TypeError, ValueError,
                AttributeError, IndexError, RecursionError) as exc:
            reason = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
            raise DamagedGame(self.store.quarantine(session_id, reason)) from exc
        session.saved_version = stored.version
        return session

    def apply(self, session_id: str, session: AnySession,
              edit: Edit) -> JsonObject:
        pending = session.prepare(edit)  # EditRejected: nothing saved, nothing changed
        snap = session.snapshot()
        session.commit(pending)  # first in memory, to summarise it; undone if not saved
        try:
            session.saved_version = self.store.append(
                session_id, [pending.event], expected=session.saved_version,
                finished=session.finished, summary=session_summary(session))
        except BaseException:
            session.restore(snap)
            raise
        return pending.event

    def finish(self, session_id: str, session: AnySession) -> ScoreSheet:
        self.apply(session_id, session, Finish())
        return session.sheet()

    def undo(self, session_id: str, session: AnySession) -> bool:
        return self._move(session_id, session, session.undo)

    def redo(self, session_id: str, session: AnySession) -> bool:
        return self._move(session_id, session, session.redo)

    def _move(self, session_id: str, session: AnySession, move: Callable[[], bool]) -> bool:
        snap = session.snapshot()
        if not move():
            return False
        try:
            session.saved_version = self.store.replace_log(
                session_id, session.events, session.redo_stack,
                expected=session.saved_version, finished=session.finished,
                summary=session_summary(session))
        except BaseException:
            session.restore(snap)  # the stored log is what counts: stay in step with it
            raise
        return True
