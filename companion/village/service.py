"""The thin service between people (CLI, app) and the Village engine: every accepted
action is saved before it is confirmed; undo/redo and calibration are persisted too.

Each save is one atomic write of the game's file (its events, its summary for Home, its
preferences and the newest engine that wrote to it) that names the version it extends:
a copy that another window or process has overtaken is refused (StaleWrite) and rolled
back to what was saved, never appended after a gap. A stored game its engine cannot fold
is set aside and reported (DamagedGame), never shown half-read.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Literal

from pydantic import ValidationError

from companion.core.json_types import JsonObject
from companion.store.base import DamagedGame, SessionStore, UnsupportedSchema, utc_iso
from companion.village import chance, table_marks
from companion.village.commands import Command
from companion.village.components import (
    ComponentData,
    ComponentProblem,
    correction_value,
    load_components,
)
from companion.village.rules.errors import RuleError
from companion.village.scoring import sheet_from_state
from companion.village.session import DrawMode, KarlaPolicy, Outcome, VillageSession
from companion.village.setup import VillageSetup

GAME = "village"
# The event vocabulary this build folds. Raise it whenever a build writes events an older
# one cannot fold: 2 added next_start_marker_coin and the corrections set_time,
# take_back_time, add/remove_customer_tile, set_customer_points and move_member.
ENGINE_VERSION = 2


class NewerEngine(UnsupportedSchema):
    """The session was saved by a newer Village engine than this build: left untouched."""


def engine_key(session_id: str) -> str:
    """Store schema 1 kept the newest engine that appended to a session in this setting;
    it lives in the game's header ("engine") now, and is moved there on first open."""
    return f"session:{session_id}:engine"


def prefs_key(session_id: str) -> str:
    """Store schema 1 kept a game's preferences in this setting (now header "prefs")."""
    return f"session:{session_id}:prefs"



def calibration_key(edition: str) -> str:
    return f"calibration:village:{edition}"


# Table mode: the seat of the phone that acted, and the seat it acted for if another one,
# e.g. {"seat": 1} or {"seat": 1, "for": 2}.
ActedBy = dict[str, int]


class VillageService:
    def __init__(self, store: SessionStore) -> None:
        self.store = store

    # ---- calibration: the user's corrections of estimated printed values -------------
    def corrections(self, edition: str) -> JsonObject:
        value = self.store.get_setting(calibration_key(edition), {})
        return dict(value) if isinstance(value, dict) else {}

    def components(self, edition: Literal["big-box", "2011"]) -> ComponentData:
        return load_components(edition, self.corrections(edition))

    def correct(self, edition: Literal["big-box", "2011"], key: str, value: object) -> None:
        """Store a correction for new sessions; raises ComponentProblem naming the field."""
        data = self.components(edition)
        correction_value(data, key, value)
        corrections = self.corrections(edition)
        corrections[key] = value
        self.store.set_setting(calibration_key(edition), corrections)

    def confirm(self, edition: Literal["big-box", "2011"], key: str) -> None:
        """The user checked an estimate against the box and it was right."""
        data = self.components(edition)
        if key not in data.values:
            raise ComponentProblem(f"{key}: not a component value")
        self.correct(edition, key, data.values[key].value)

    # ---- sessions --------------------------------------------------------------------
    def create(self, setup: VillageSetup, *, draw_mode: DrawMode = "app",
               karla_policy: KarlaPolicy = "ask") -> tuple[str, VillageSession]:
        comp = self.components(setup.edition)
        session = VillageSession(setup, comp, draw_mode=draw_mode, karla_policy=karla_policy)
        session_id = uuid.uuid4().hex[:16]
        names = [p.name for p in setup.players] + (["Karla"] if setup.solo else [])
        title = ("Solo vs Karla: " if setup.solo else "") + ", ".join(names)
        header = {"game": GAME, "engine": ENGINE_VERSION, "setup": setup.model_dump(mode="json"),
                  "components": comp.model_dump(mode="json"),
                  "prefs": {"draw_mode": draw_mode, "karla_policy": karla_policy}}
        # The whole game in one atomic write: header, the first round's draws, summary.
        session.saved_version = self.store.create(session_id, GAME, title, header,
                                                  session.events,
                                                  summary=self._summary(session))
        return session_id, session

    def open(self, session_id: str) -> VillageSession:
        """Resume a stored session. Raises NewerEngine if a newer build wrote to it (its
        log may hold events this build cannot fold); older sessions load as they were.
        A game that cannot be folded is set aside and reported: DamagedGame."""
        stored = self.store.load(session_id)
        header = stored.header
        legacy_prefs = self.store.get_setting(prefs_key(session_id), None)
        legacy_engine = self.store.get_setting(engine_key(session_id), None)
        written = max(v if isinstance(v, int) and not isinstance(v, bool) else 1
                      for v in (header.get("engine", 1), legacy_engine or 1))
        if written > ENGINE_VERSION:
            raise NewerEngine(f"session {session_id} was saved by a newer version of the "
                              f"Village engine ({written}; this app has {ENGINE_VERSION}): "
                              "update the app to open it")
        prefs = dict(header.get("prefs") or {})
        if isinstance(legacy_prefs, dict):
            prefs.update(legacy_prefs)
        try:
            # A stored setup loads as it was saved (e.g. with expansions a new one refuses).
            setup = VillageSetup.model_validate(header["setup"], context={"stored": True})
            comp = ComponentData.model_validate(header["components"])  # what it started with
            session = VillageSession(setup, comp, stored.events, stored.redo,
                                     draw_mode=prefs.get("draw_mode", "app"),
                                     karla_policy=prefs.get("karla_policy", "ask"))
        except (RuleError, ValidationError, KeyError, TypeError, ValueError,
                AttributeError, IndexError, RecursionError) as exc:
            reason = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
            raise DamagedGame(self.store.quarantine(session_id, reason)) from exc
        session.engine_written = written
        session.saved_version = stored.version
        marks = header.get(table_marks.HEADER_KEY)
        session.table_marks = dict(marks) if isinstance(marks, dict) else {}
        if self.store.read_only is None:
            self._adopt_legacy(session_id, session, stored.events, prefs,
                               moved=legacy_prefs is not None or legacy_engine is not None)
        return session

    def _adopt_legacy(self, session_id: str, session: VillageSession,
                      stored_events: list[JsonObject], prefs: JsonObject, *,
                      moved: bool) -> None:
        """Repair what store schema 1 could leave behind: per-game settings (moved into the
        game's header, then removed) and a game created without its first round's draws
        (a kill between its three writes), whose draws are saved now, not dealt again in
        memory at every open."""
        if not stored_events and session.events:
            session.saved_version = self.store.append(
                session_id, session.events, expected=session.saved_version,
                summary=self._summary(session))
        if moved:
            session.saved_version = self.store.update_info(
                session_id, header={"prefs": {"draw_mode": session.draw_mode,
                                              "karla_policy": session.karla_policy},
                                    "engine": session.engine_written},
                expected=session.saved_version)
            self.store.delete_setting(prefs_key(session_id))
            self.store.delete_setting(engine_key(session_id))

    def _engine_header(self, session: VillageSession) -> JsonObject | None:
        """Before this build first writes to an older session, record it as the newest
        writer (in the same write), so an older build refuses the session instead of
        failing on new events."""
        if session.engine_written is not None and session.engine_written < ENGINE_VERSION:
            return {"engine": ENGINE_VERSION}
        return None

    def set_prefs(self, session_id: str, session: VillageSession, *,
                  draw_mode: DrawMode | None = None,
                  karla_policy: KarlaPolicy | None = None) -> None:
        with self._rolled_back_on_failure(session):
            if draw_mode is not None:
                session.draw_mode = draw_mode
            if karla_policy is not None:
                session.karla_policy = karla_policy
            header = {"prefs": {"draw_mode": session.draw_mode,
                                "karla_policy": session.karla_policy}}
            session.saved_version = self.store.update_info(
                session_id, header={**header, **(self._engine_header(session) or {})},
                expected=session.saved_version)
            if self._engine_header(session):
                session.engine_written = ENGINE_VERSION

    def set_table_marks(self, session_id: str, session: VillageSession,
                        instruction: str) -> None:
        """Tick (or untick) one table instruction as done: saved in the game's header in
        one compare-and-append write, never as an event (Undo leaves it alone)."""
        marks = table_marks.toggled(session.table_marks, session.state, instruction)
        before = session.table_marks
        session.table_marks = marks
        try:
            session.saved_version = self.store.update_info(
                session_id, header={table_marks.HEADER_KEY: marks},
                expected=session.saved_version)
        except BaseException:
            session.table_marks = before
            raise

    # `by` (table mode): who did it, e.g. {"seat": 1} for a phone at the table. It is kept
    # on the action's stored events for the log; the fold never reads it.
    def execute(self, session_id: str, session: VillageSession, command: Command, *,
                by: ActedBy | None = None) -> Outcome:
        with self._rolled_back_on_failure(session):
            outcome = session.execute(command)
            self._saved(session_id, session, outcome, by)
        return outcome

    def enter_draw(self, session_id: str, session: VillageSession,
                   outcome: chance.Outcome, *, by: ActedBy | None = None) -> Outcome:
        with self._rolled_back_on_failure(session):
            result = session.enter_draw(outcome)
            self._saved(session_id, session, result, by)
        return result

    def redraw(self, session_id: str, session: VillageSession, draw: Literal["bag", "mass"],
               outcome: chance.Outcome | None = None, *,
               by: ActedBy | None = None) -> Outcome:
        with self._rolled_back_on_failure(session):
            result = session.redraw(draw, outcome)
            self._saved(session_id, session, result, by)
        return result

    @staticmethod
    @contextmanager
    def _rolled_back_on_failure(session: VillageSession) -> Iterator[None]:
        """The stored log is what counts: when the store refuses a write (disk full, a
        lock held too long), the session in memory goes back to what was saved, so the
        next action is never appended after a gap."""
        snap = session.snapshot()
        try:
            yield
        except BaseException:
            session.restore(snap)
            raise

    def _saved(self, session_id: str, session: VillageSession, outcome: Outcome,
               by: ActedBy | None = None) -> None:
        count = len(outcome.events)
        if by and count:  # the action's events are the log's last: tag both copies
            for event in [*outcome.events, *session.events[-count:]]:
                event["by"] = dict(by)
        engine = self._engine_header(session)
        session.saved_version = self.store.append(
            session_id, outcome.events, expected=session.saved_version, header=engine,
            finished=session.state.phase == "finished", summary=self._summary(session))
        if engine:
            session.engine_written = ENGINE_VERSION

    def undo(self, session_id: str, session: VillageSession) -> bool:
        return self._moved(session_id, session, session.undo) > 0

    def redo(self, session_id: str, session: VillageSession) -> bool:
        return self._moved(session_id, session, session.redo) > 0

    def go_back_to(self, session_id: str, session: VillageSession, group: int) -> int:
        return self._moved(session_id, session, lambda: session.go_back_to(group))

    def _moved(self, session_id: str, session: VillageSession,
               move: Callable[[], int | bool]) -> int:
        with self._rolled_back_on_failure(session):
            count = int(move())
            if count:
                engine = self._engine_header(session)
                session.saved_version = self.store.replace_log(
                    session_id, session.events, session.redo_stack,
                    expected=session.saved_version, header=engine,
                    finished=session.state.phase == "finished",
                    summary=self._summary(session))
                if engine:
                    session.engine_written = ENGINE_VERSION
        return count

    def _summary(self, session: VillageSession) -> JsonObject:
        return session_summary(session)


def session_summary(session: VillageSession) -> JsonObject:
    """What Home and the history (companion/history) read without opening the game.
    Keys added for the history (absent in older stored games, read as unknown there):
    edition, started_at / ended_at (the first / finishing event's time), and once
    scored: ranks, categories (per player), start_player (the first round's, by name)
    and, solo, karla_variant; since issue 22 colours (every player's, from the setup) and,
    solo, karla_policy and karla_colour (for BG Stats and the statistics)."""
    st = session.state
    setup = session.setup
    summary: JsonObject = {
        "players": [p.name for p in st.players], "round": st.round,
        "phase": st.phase, "solo": st.solo,
        "date": datetime.now(UTC).date().isoformat(),
        "edition": setup.edition,
        # "Last played" (companion/history/played.py): written only with game events,
        # so abandoning, resuming, preferences and imports leave it where it was.
        "played_at": utc_iso(),
        "colours": {p.name: p.colour for p in setup.players},
    }
    events = session.events
    if events and isinstance(events[0].get("at"), str):
        summary["started_at"] = events[0]["at"]
    if st.phase in ("scoring", "finished"):
        sheet = sheet_from_state(st, session.comp, list(setup.expansions))
        summary["scores"] = {p.name: p.total for p in sheet.players}
        summary["winners"] = sheet.winners
        summary["ranks"] = {p.name: p.rank for p in sheet.players}
        summary["categories"] = {p.name: dict(p.categories) for p in sheet.players}
        start = 0 if st.solo else setup.start_player
        if start is None:  # drawn by the first start_player chance event
            start = next((e["body"]["outcome"].get("player") for e in events
                          if isinstance(e.get("body"), dict)
                          and e["body"].get("draw") == "start_player"
                          and isinstance(e["body"].get("outcome"), dict)), None)
        if isinstance(start, int) and 0 <= start < len(st.players):
            summary["start_player"] = st.players[start].name
        if st.solo:
            summary["achievement"] = sheet.players[0].achievement
            summary["karla_variant"] = setup.karla_variant
            summary["karla_policy"] = session.karla_policy
            summary["karla_colour"] = setup.karla_colour
        if st.phase == "finished" and events and isinstance(events[-1].get("at"), str):
            summary["ended_at"] = events[-1]["at"]
    return summary
