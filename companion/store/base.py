"""The storage interface every store implements. Nothing here knows any game's rules.

A stored session is a header (game id, setup, the component data it started with, schema
version) plus an append-only event log and the redo stack. Events are plain JSON dicts;
the game engines own their meaning.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any, Protocol

from pydantic import BaseModel, Field

STORE_SCHEMA = 1

# Ids become file names, so only a safe alphabet is allowed (no separators, no "..").
_SESSION_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")


class StoredSession(BaseModel):
    id: str
    header: dict[str, Any]
    events: list[dict[str, Any]] = Field(default_factory=list)
    redo: list[dict[str, Any]] = Field(default_factory=list)


class SessionInfo(BaseModel):
    """What the Home screen lists without opening every session."""

    id: str
    game: str
    title: str
    created_at: str  # ISO 8601, UTC
    updated_at: str  # ISO 8601, UTC
    finished: bool = False
    summary: dict[str, Any] = Field(default_factory=dict)  # e.g. players, scores, winners


class StoreProblem(BaseModel):
    """Something the store found and set aside (a corrupt file), to show the user."""

    path: str
    moved_to: str
    reason: str


class SessionNotFound(KeyError):
    pass


class SessionExists(ValueError):
    """`create` was called with an id that is already stored."""


class UnsupportedSchema(RuntimeError):
    """A file was written by a newer app (or needs a migration this build lacks); left untouched."""


class CorruptSession(RuntimeError):
    """The session file could not be read; it was quarantined (see `problem`)."""

    def __init__(self, problem: StoreProblem) -> None:
        super().__init__(f"{problem.path}: {problem.reason}; moved to {problem.moved_to}")
        self.problem = problem


class SessionStore(Protocol):
    """Every method that writes is durable when it returns (or raises)."""

    def create(self, session_id: str, game: str, title: str,
               header: dict[str, Any]) -> None: ...

    def load(self, session_id: str) -> StoredSession: ...

    def append(self, session_id: str, events: list[dict[str, Any]]) -> None:
        """Add events at the end of the log and clear the redo stack."""

    def replace_log(self, session_id: str, events: list[dict[str, Any]],
                    redo: list[dict[str, Any]]) -> None:
        """Undo / redo / go-back: store the whole log and redo stack as given."""

    def update_info(self, session_id: str, *, title: str | None = None,
                    finished: bool | None = None,
                    summary: dict[str, Any] | None = None) -> None: ...

    def list_sessions(self) -> list[SessionInfo]:
        """Newest-updated first."""

    def delete(self, session_id: str) -> None: ...

    def get_setting(self, key: str, default: Any = None) -> Any: ...

    def set_setting(self, key: str, value: Any) -> None: ...

    def problems(self) -> list[StoreProblem]:
        """Corrupt files found and quarantined since this store was opened."""


def validate_session_id(session_id: object) -> str:
    """Return the id if it is safe to use as a file name, else raise ValueError naming it."""
    if not isinstance(session_id, str) or not _SESSION_ID_RE.fullmatch(session_id):
        raise ValueError(
            f"invalid session id {session_id!r}: use 1-64 characters from A-Z a-z 0-9 _ -")
    return session_id


def clone_json(value: Any) -> Any:
    """Deep copy through JSON: callers never share objects with the store, and anything
    that could not be stored (sets, NaN, objects) fails here, before touching disk."""
    return json.loads(json.dumps(value, allow_nan=False))


def info_fields(*, title: str | None, finished: bool | None,
                summary: dict[str, Any] | None) -> dict[str, Any]:
    """The checked fields of an `update_info` call (only those given), shared by every
    store so each refuses the same bad input before writing anything."""
    fields: dict[str, Any] = {}
    if title is not None:
        if not isinstance(title, str):
            raise TypeError("title must be a string")
        fields["title"] = title
    if finished is not None:
        fields["finished"] = bool(finished)
    if summary is not None:
        summary = clone_json(summary)
        if not isinstance(summary, dict):
            raise TypeError("summary must be a JSON object")
        fields["summary"] = summary
    return fields


def utc_iso(ts: float | None = None) -> str:
    """ISO 8601 UTC with milliseconds and a Z, e.g. 2024-05-01T12:00:00.123Z."""
    moment = datetime.now(UTC) if ts is None else datetime.fromtimestamp(ts, UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def iso_to_ts(value: str) -> float:
    """Inverse of `utc_iso` (accepts any ISO 8601 string; naive means UTC)."""
    moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()
