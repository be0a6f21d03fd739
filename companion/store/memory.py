"""An in-memory SessionStore for tests of other modules.

Same contract and errors as TinyDBStore. Everything is copied through JSON on the way in and
out, so callers cannot alias stored data and non-JSON values fail just as they would on disk.
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, field
from typing import Any, cast

from companion.store.base import (
    SessionExists,
    SessionInfo,
    SessionNotFound,
    StoredSession,
    StoreProblem,
    clone_json,
    info_fields,
    utc_iso,
    validate_session_id,
)


@dataclass
class _Entry:
    header: dict[str, Any]
    info: SessionInfo
    touched: int  # monotonic, so "newest first" is exact even within one clock tick
    events: list[dict[str, Any]] = field(default_factory=list)
    redo: list[dict[str, Any]] = field(default_factory=list)


def _docs(value: Any, what: str) -> list[dict[str, Any]]:
    docs = clone_json(value)
    if not isinstance(docs, list) or not all(isinstance(doc, dict) for doc in docs):
        raise TypeError(f"{what} must be a list of JSON objects")
    return cast(list[dict[str, Any]], docs)


class MemoryStore:
    def __init__(self) -> None:
        self._sessions: dict[str, _Entry] = {}
        self._settings: dict[str, Any] = {}
        self._clock = itertools.count()
        self._lock = threading.Lock()

    def _get(self, session_id: str) -> _Entry:
        validate_session_id(session_id)
        try:
            return self._sessions[session_id]
        except KeyError:
            raise SessionNotFound(session_id) from None

    def _touch(self, entry: _Entry) -> None:
        entry.touched = next(self._clock)
        entry.info = entry.info.model_copy(update={"updated_at": utc_iso()})

    def create(self, session_id: str, game: str, title: str,
               header: dict[str, Any]) -> None:
        validate_session_id(session_id)
        header = clone_json(header)
        if not isinstance(header, dict):
            raise TypeError("header must be a JSON object")
        if not isinstance(game, str) or not isinstance(title, str):
            raise TypeError("game and title must be strings")
        with self._lock:
            if session_id in self._sessions:
                raise SessionExists(f"session {session_id!r} already exists")
            now = utc_iso()
            info = SessionInfo(id=session_id, game=game, title=title, created_at=now,
                               updated_at=now)
            self._sessions[session_id] = _Entry(header, info, next(self._clock))

    def load(self, session_id: str) -> StoredSession:
        with self._lock:
            entry = self._get(session_id)
            return StoredSession(id=session_id, header=clone_json(entry.header),
                                 events=clone_json(entry.events), redo=clone_json(entry.redo))

    def append(self, session_id: str, events: list[dict[str, Any]]) -> None:
        docs = _docs(events, "events")
        with self._lock:
            entry = self._get(session_id)
            entry.events.extend(docs)
            entry.redo.clear()
            self._touch(entry)

    def replace_log(self, session_id: str, events: list[dict[str, Any]],
                    redo: list[dict[str, Any]]) -> None:
        event_docs, redo_docs = _docs(events, "events"), _docs(redo, "redo")
        with self._lock:
            entry = self._get(session_id)
            entry.events, entry.redo = event_docs, redo_docs
            self._touch(entry)

    def update_info(self, session_id: str, *, title: str | None = None,
                    finished: bool | None = None,
                    summary: dict[str, Any] | None = None) -> None:
        fields = info_fields(title=title, finished=finished, summary=summary)
        with self._lock:
            entry = self._get(session_id)
            if fields:
                entry.info = entry.info.model_copy(update=fields)
                self._touch(entry)

    def list_sessions(self) -> list[SessionInfo]:
        with self._lock:
            entries = sorted(self._sessions.values(), key=lambda e: e.touched, reverse=True)
            return [SessionInfo.model_validate(clone_json(e.info.model_dump(mode="json")))
                    for e in entries]

    def delete(self, session_id: str) -> None:
        with self._lock:
            self._get(session_id)
            del self._sessions[session_id]

    def get_setting(self, key: str, default: Any = None) -> Any:
        with self._lock:
            if key not in self._settings:
                return default
            return clone_json(self._settings[key])

    def set_setting(self, key: str, value: Any) -> None:
        if not isinstance(key, str):
            raise TypeError("setting keys are strings")
        value = clone_json(value)
        with self._lock:
            self._settings[key] = value

    def problems(self) -> list[StoreProblem]:
        return []  # Nothing in memory can be corrupt.
