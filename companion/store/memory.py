"""An in-memory SessionStore for tests of other modules.

Same contract and errors as TinyDBStore. Everything is copied through JSON on the way in and
out, so callers cannot alias stored data and non-JSON values fail just as they would on disk.
"""

from __future__ import annotations

import itertools
import json
import threading
from dataclasses import dataclass, field
from typing import Any, cast

from companion.core.json_types import JsonObject
from companion.store.atomic import encode_json
from companion.store.base import (
    SessionExists,
    SessionInfo,
    SessionNotFound,
    StoredSession,
    StoreProblem,
    checked_version,
    clone_json,
    info_fields,
    utc_iso,
    validate_session_id,
)
from companion.store.session_file import session_file_tables, session_meta


@dataclass
class _Entry:
    header: JsonObject
    info: SessionInfo
    touched: int  # monotonic, so "newest first" is exact even within one clock tick
    events: list[JsonObject] = field(default_factory=list)
    redo: list[JsonObject] = field(default_factory=list)
    version: int = 1


def _docs(value: object, what: str) -> list[JsonObject]:
    docs = clone_json(value)
    if not isinstance(docs, list) or not all(isinstance(doc, dict) for doc in docs):
        raise TypeError(f"{what} must be a list of JSON objects")
    return cast(list[JsonObject], docs)


class MemoryStore:
    def __init__(self) -> None:
        self._sessions: dict[str, _Entry] = {}
        self._settings: JsonObject = {}
        self._clock = itertools.count()
        self._lock = threading.RLock()
        self._problems: dict[str, tuple[StoreProblem, bytes]] = {}
        self._trash: dict[str, tuple[str, _Entry]] = {}  # trash id -> (session id, game)
        self.read_only: str | None = None

    def _get(self, session_id: str) -> _Entry:
        validate_session_id(session_id)
        try:
            return self._sessions[session_id]
        except KeyError:
            raise SessionNotFound(session_id) from None

    def _touch(self, entry: _Entry) -> None:
        entry.touched = next(self._clock)
        entry.info = entry.info.model_copy(update={"updated_at": utc_iso()})

    def create(self, session_id: str, game: str, title: str, header: JsonObject,
               events: list[JsonObject] | None = None, *, finished: bool = False,
               summary: JsonObject | None = None) -> int:
        validate_session_id(session_id)
        fields = info_fields(title=title, finished=finished, summary=summary or {},
                             header=header)
        docs = _docs(events or [], "events")
        if not isinstance(game, str):
            raise TypeError("game must be a string")
        with self._lock:
            if session_id in self._sessions:
                raise SessionExists(f"session {session_id!r} already exists")
            now = utc_iso()
            info = SessionInfo(id=session_id, game=game, title=fields["title"],
                               created_at=now, updated_at=now, finished=fields["finished"],
                               summary=fields["summary"])
            self._sessions[session_id] = _Entry(fields["header"], info, next(self._clock),
                                                docs)
            return 1

    def read_only_view(self, session_id: str) -> StoredSession:
        return self.load(session_id)  # in memory, copies cost little

    def session_json(self, session_id: str) -> str:
        """The game as TinyDBStore's file holds it (its tables), as JSON text."""
        with self._lock:
            entry = self._get(session_id)
            info = entry.info
            meta = session_meta(session_id, info.game, info.title, entry.header,
                                info.created_at, finished=info.finished,
                                summary=info.summary, version=entry.version)
            meta["updated_at"] = info.updated_at
            return encode_json(session_file_tables(meta, entry.events, entry.redo))

    def load(self, session_id: str) -> StoredSession:
        with self._lock:
            entry = self._get(session_id)
            return StoredSession(id=session_id, header=clone_json(entry.header),
                                 events=clone_json(entry.events), redo=clone_json(entry.redo),
                                 version=entry.version, title=entry.info.title,
                                 finished=entry.info.finished,
                                 summary=clone_json(entry.info.summary))

    def _write(self, session_id: str, expected: int | None, fields: JsonObject,
               events: list[JsonObject] | None,
               redo: list[JsonObject] | None) -> int:
        with self._lock:
            entry = self._get(session_id)
            checked_version(session_id, entry.version, expected)
            if events is not None:
                entry.events = events
            if redo is not None:
                entry.redo = redo
            if "header" in fields:
                entry.header = {**entry.header, **fields.pop("header")}
            entry.info = entry.info.model_copy(update=fields)
            entry.version += 1
            self._touch(entry)
            return entry.version

    def append(self, session_id: str, events: list[JsonObject], *,
               expected: int | None = None, finished: bool | None = None,
               summary: JsonObject | None = None,
               header: JsonObject | None = None) -> int:
        docs = _docs(events, "events")
        fields = info_fields(title=None, finished=finished, summary=summary, header=header)
        with self._lock:
            current = self._get(session_id).events
            return self._write(session_id, expected, fields, [*current, *docs], [])

    def replace_log(self, session_id: str, events: list[JsonObject],
                    redo: list[JsonObject], *, expected: int | None = None,
                    finished: bool | None = None, summary: JsonObject | None = None,
                    header: JsonObject | None = None) -> int:
        event_docs, redo_docs = _docs(events, "events"), _docs(redo, "redo")
        fields = info_fields(title=None, finished=finished, summary=summary, header=header)
        return self._write(session_id, expected, fields, event_docs, redo_docs)

    def update_info(self, session_id: str, *, title: str | None = None,
                    finished: bool | None = None,
                    summary: JsonObject | None = None,
                    header: JsonObject | None = None,
                    expected: int | None = None) -> int:
        fields = info_fields(title=title, finished=finished, summary=summary, header=header)
        if not fields:  # nothing to change: nothing written, not even the version
            return checked_version(session_id, self.load(session_id).version, expected)
        return self._write(session_id, expected, fields, None, None)

    def list_sessions(self) -> list[SessionInfo]:
        with self._lock:
            entries = sorted(self._sessions.values(), key=lambda e: e.touched, reverse=True)
            return [SessionInfo.model_validate(clone_json(e.info.model_dump(mode="json")))
                    for e in entries]

    def delete(self, session_id: str) -> None:
        with self._lock:
            self._get(session_id)
            del self._sessions[session_id]

    def trash(self, session_id: str) -> str:
        with self._lock:
            entry = self._get(session_id)
            del self._sessions[session_id]
            trash_id = f"{session_id}.json.{next(self._clock)}.deleted"
            self._trash[trash_id] = (session_id, entry)
            return trash_id

    def restore(self, trash_id: str) -> str:
        with self._lock:
            if trash_id not in self._trash:
                raise KeyError(trash_id)
            session_id, entry = self._trash[trash_id]
            if session_id in self._sessions:
                raise SessionExists(f"session {session_id!r} already exists")
            del self._trash[trash_id]
            self._sessions[session_id] = entry  # as it was: same place in the list
            return session_id

    def get_setting(self, key: str, default: object = None) -> Any:
        with self._lock:
            if key not in self._settings:
                return default
            return clone_json(self._settings[key])

    def settings(self) -> JsonObject:
        with self._lock:
            return clone_json(self._settings)

    def set_setting(self, key: str, value: object) -> None:
        if not isinstance(key, str):
            raise TypeError("setting keys are strings")
        value = clone_json(value)
        with self._lock:
            self._settings[key] = value

    def delete_setting(self, key: str) -> None:
        with self._lock:
            self._settings.pop(key, None)

    def quarantine(self, session_id: str, reason: str) -> StoreProblem:
        with self._lock:
            entry = self._get(session_id)
            del self._sessions[session_id]
            problem_id = f"{session_id}.json.{next(self._clock)}.corrupt"
            problem = StoreProblem(path=session_id, moved_to=problem_id, reason=reason,
                                   kind="game", id=problem_id, title=entry.info.title,
                                   at=utc_iso())
            raw = json.dumps({"header": entry.header, "events": entry.events,
                              "redo": entry.redo}).encode("utf-8")
            self._problems[problem_id] = (problem, raw)
            return problem

    def problems(self) -> list[StoreProblem]:
        with self._lock:
            return [problem.model_copy() for problem, _ in reversed(self._problems.values())]

    def problem_bytes(self, problem_id: str) -> bytes:
        with self._lock:
            return self._problems[problem_id][1]

    def discard_problem(self, problem_id: str) -> None:
        with self._lock:
            del self._problems[problem_id]
