"""The thin service between people (CLI, app) and the Village engine: every accepted
action is saved before it is confirmed; undo/redo and calibration are persisted too."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, Literal

from companion.store.base import SessionStore, UnsupportedSchema
from companion.village.components import (
    ComponentData,
    ComponentProblem,
    correction_value,
    load_components,
)
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
    """Setting holding the newest engine that appended to a session (the header only
    records the engine that created it)."""
    return f"session:{session_id}:engine"


def calibration_key(edition: str) -> str:
    return f"calibration:village:{edition}"


class VillageService:
    def __init__(self, store: SessionStore) -> None:
        self.store = store

    # ---- calibration: the user's corrections of estimated printed values -------------
    def corrections(self, edition: str) -> dict[str, Any]:
        value = self.store.get_setting(calibration_key(edition), {})
        return dict(value) if isinstance(value, dict) else {}

    def components(self, edition: Literal["big-box", "2011"]) -> ComponentData:
        return load_components(edition, self.corrections(edition))

    def correct(self, edition: Literal["big-box", "2011"], key: str, value: Any) -> None:
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
        self.store.create(session_id, GAME, title, header)
        self.store.append(session_id, session.events)
        self.store.update_info(session_id, summary=self._summary(session))
        return session_id, session

    def open(self, session_id: str) -> VillageSession:
        """Resume a stored session. Raises NewerEngine if a newer build wrote to it (its
        log may hold events this build cannot fold); older sessions load as they were."""
        stored = self.store.load(session_id)
        header = stored.header
        written = self.written_by(session_id, header)
        if written > ENGINE_VERSION:
            raise NewerEngine(f"session {session_id} was saved by a newer version of the "
                              f"Village engine ({written}; this app has {ENGINE_VERSION}): "
                              "update the app to open it")
        # A stored setup loads as it was saved (e.g. with expansions a new one refuses).
        setup = VillageSetup.model_validate(header["setup"], context={"stored": True})
        comp = ComponentData.model_validate(header["components"])  # the data it started with
        prefs = header.get("prefs", {})
        prefs.update(self.store.get_setting(f"session:{session_id}:prefs", {}) or {})
        session = VillageSession(setup, comp, stored.events, stored.redo,
                                 draw_mode=prefs.get("draw_mode", "app"),
                                 karla_policy=prefs.get("karla_policy", "ask"))
        session.engine_written = written
        return session

    def written_by(self, session_id: str, header: dict[str, Any]) -> int:
        """The newest engine version that wrote to this session (1 if none is recorded)."""
        versions = [header.get("engine", 1), self.store.get_setting(engine_key(session_id), 1)]
        return max(int(v) if isinstance(v, int) else 1 for v in versions)

    def _mark_engine(self, session_id: str, session: VillageSession) -> None:
        """Before this build first appends to an older session, record it as the newest
        writer, so an older build refuses the session instead of failing on new events."""
        if session.engine_written is not None and session.engine_written < ENGINE_VERSION:
            self.store.set_setting(engine_key(session_id), ENGINE_VERSION)
            session.engine_written = ENGINE_VERSION

    def set_prefs(self, session_id: str, session: VillageSession, *,
                  draw_mode: DrawMode | None = None,
                  karla_policy: KarlaPolicy | None = None) -> None:
        with self._rolled_back_on_failure(session):
            if draw_mode is not None:
                session.draw_mode = draw_mode
            if karla_policy is not None:
                session.karla_policy = karla_policy
            self.store.set_setting(f"session:{session_id}:prefs",
                                   {"draw_mode": session.draw_mode,
                                    "karla_policy": session.karla_policy})

    def execute(self, session_id: str, session: VillageSession, command: Any) -> Outcome:
        with self._rolled_back_on_failure(session):
            outcome = session.execute(command)
            self._saved(session_id, session, outcome)
        return outcome

    def enter_draw(self, session_id: str, session: VillageSession,
                   outcome: dict[str, Any]) -> Outcome:
        with self._rolled_back_on_failure(session):
            result = session.enter_draw(outcome)
            self._saved(session_id, session, result)
        return result

    def redraw(self, session_id: str, session: VillageSession, draw: Literal["bag", "mass"],
               outcome: dict[str, Any] | None = None) -> Outcome:
        with self._rolled_back_on_failure(session):
            result = session.redraw(draw, outcome)
            self._saved(session_id, session, result)
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

    def _saved(self, session_id: str, session: VillageSession, outcome: Outcome) -> None:
        self._mark_engine(session_id, session)
        self.store.append(session_id, outcome.events)
        if session.state.phase in ("scoring", "finished"):
            self.store.update_info(session_id, finished=session.state.phase == "finished",
                                   summary=self._summary(session))

    def undo(self, session_id: str, session: VillageSession) -> bool:
        return self._moved(session_id, session, session.undo) > 0

    def redo(self, session_id: str, session: VillageSession) -> bool:
        return self._moved(session_id, session, session.redo) > 0

    def go_back_to(self, session_id: str, session: VillageSession, group: int) -> int:
        return self._moved(session_id, session, lambda: session.go_back_to(group))

    def _moved(self, session_id: str, session: VillageSession,
               move: Callable[[], int | bool]) -> int:
        phase = session.state.phase
        with self._rolled_back_on_failure(session):
            count = int(move())
            if count:
                self._log_replaced(session_id, session, phase)
        return count

    def _log_replaced(self, session_id: str, session: VillageSession, phase_before: str) -> None:
        self._mark_engine(session_id, session)
        self.store.replace_log(session_id, session.events, session.redo_stack)
        if session.state.phase != phase_before:
            self.store.update_info(session_id, finished=session.state.phase == "finished",
                                   summary=self._summary(session))

    def _summary(self, session: VillageSession) -> dict[str, Any]:
        st = session.state
        summary: dict[str, Any] = {
            "players": [p.name for p in st.players], "round": st.round,
            "phase": st.phase, "solo": st.solo,
            "date": datetime.now(UTC).date().isoformat(),
        }
        if st.phase in ("scoring", "finished"):
            sheet = sheet_from_state(st, session.comp, list(session.setup.expansions))
            summary["scores"] = {p.name: p.total for p in sheet.players}
            summary["winners"] = sheet.winners
            if st.solo:
                summary["achievement"] = sheet.players[0].achievement
        return summary
