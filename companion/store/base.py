"""The storage interface every store implements. Nothing here knows any game's rules.

A stored session is one atomic unit: a header (setup, engine version, component values,
preferences), the append-only event log, the redo stack, and what Home lists (title,
finished flag, summary). Every write replaces all of it at once and names the `version` it
extends (compare-and-append), so two writers can never interleave their logs. Events are
plain JSON dicts; the game engines own their meaning.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any, Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from companion.core.json_types import JsonObject

T = TypeVar("T")

# 2: meta carries the write `version` and `updated_at`; the index is only a cache.
STORE_SCHEMA = 2

# How long a deleted game stays restorable in the trash before it is purged.
TRASH_KEEP_DAYS = 30

# Ids become file names, so only a safe alphabet is allowed (no separators, no "..").
_SESSION_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")


class StoredSession(BaseModel):
    model_config = ConfigDict(defer_build=True)  # built at first use, not at start-up

    id: str
    header: JsonObject
    events: list[JsonObject] = Field(default_factory=list)
    redo: list[JsonObject] = Field(default_factory=list)
    version: int = 0  # bumped by every write; name it as `expected` in the next one
    title: str = ""
    finished: bool = False
    summary: JsonObject = Field(default_factory=dict)


class SessionInfo(BaseModel):
    """What the Home screen lists without opening every session."""

    model_config = ConfigDict(defer_build=True)

    id: str
    game: str
    title: str
    created_at: str  # ISO 8601, UTC
    updated_at: str  # ISO 8601, UTC
    finished: bool = False
    summary: JsonObject = Field(default_factory=dict)  # e.g. players, scores, winners


ProblemKind = Literal["file", "game", "index", "settings"]


class StoreProblem(BaseModel):
    """Something the store found and set aside, to show the user until they dismiss it.

    kind: `file` a session file that is not a readable game file; `game` a game file the
    engine cannot fold; `index` the (rebuildable) list of games; `settings` the settings
    file, with the keys that were `recovered` (everything else went back to its default).
    """

    model_config = ConfigDict(defer_build=True)

    path: str
    moved_to: str
    reason: str
    kind: ProblemKind = "file"
    id: str = ""  # the quarantined file's name: what discard/export take
    title: str = ""  # the game's title when it could still be read
    recovered: list[str] = Field(default_factory=list)
    at: str = ""  # when it was found (ISO 8601, UTC)


class SessionNotFound(KeyError):
    pass


class SessionExists(ValueError):
    """`create` (or `restore`) was given an id that is already stored."""


class DamagedGame(RuntimeError):
    """A stored game its engine cannot fold: it was set aside and reported (`problem`)."""

    def __init__(self, problem: StoreProblem) -> None:
        super().__init__(f"{problem.path}: {problem.reason}")
        self.problem = problem


class StaleWrite(RuntimeError):
    """The write named a version the stored game has moved past (another window, tab or
    process saved to it since this copy was read). Nothing was written: reload and redo."""

    def __init__(self, session_id: str, expected: int, actual: int) -> None:
        super().__init__(f"session {session_id} is at version {actual}, not {expected}: "
                         "it was changed elsewhere; reload it")
        self.session_id = session_id
        self.expected = expected
        self.actual = actual


class ReadOnlyStore(PermissionError):
    """Saving is off: the data folder cannot be written (the reason says why)."""


class UnsupportedSchema(RuntimeError):
    """A file was written by a newer app (or needs a migration this build lacks); left untouched."""


class CorruptSession(RuntimeError):
    """The session file could not be read; it was quarantined (see `problem`)."""

    def __init__(self, problem: StoreProblem) -> None:
        super().__init__(f"{problem.path}: {problem.reason}; moved to {problem.moved_to}")
        self.problem = problem


class SessionStore(Protocol):
    """Every method that writes is durable when it returns (or raises, having written
    nothing). Writes return the game's new version. `expected`, when given, is the version
    the write extends: if the stored game has moved on, StaleWrite is raised instead.
    `header` merges top-level keys into the stored header in the same write."""

    #: Why saving is off (a read-only data folder), or None when the store can write.
    read_only: str | None

    def create(self, session_id: str, game: str, title: str, header: JsonObject,
               events: list[JsonObject] | None = None, *, finished: bool = False,
               summary: JsonObject | None = None) -> int: ...

    def load(self, session_id: str) -> StoredSession: ...

    def read_only_view(self, session_id: str) -> StoredSession:
        """As `load`, without the copies `load` makes: the caller only reads it, at once
        (a backup export turns 10,000 games into text), and must not change or keep it."""

    def session_json(self, session_id: str) -> str:
        """The game as JSON text of its file's tables (meta, events, redo; at the current
        schema, checked), what a backup holds of it: the file's own bytes when they are
        known sound, without parsing them."""

    def append(self, session_id: str, events: list[JsonObject], *,
               expected: int | None = None, finished: bool | None = None,
               summary: JsonObject | None = None,
               header: JsonObject | None = None) -> int:
        """Add events at the end of the log and clear the redo stack."""

    def replace_log(self, session_id: str, events: list[JsonObject],
                    redo: list[JsonObject], *, expected: int | None = None,
                    finished: bool | None = None, summary: JsonObject | None = None,
                    header: JsonObject | None = None) -> int:
        """Undo / redo / go-back: store the whole log and redo stack as given."""

    def update_info(self, session_id: str, *, title: str | None = None,
                    finished: bool | None = None,
                    summary: JsonObject | None = None,
                    header: JsonObject | None = None,
                    expected: int | None = None) -> int: ...

    def list_sessions(self) -> list[SessionInfo]:
        """Newest-updated first."""

    def delete(self, session_id: str) -> None: ...

    def trash(self, session_id: str) -> str:
        """The user deleted a game: take it off every list without destroying it (the
        file is moved aside whole, never rewritten). Returns the id `restore` takes.
        Trashed games are purged only after TRASH_KEEP_DAYS."""

    def restore(self, trash_id: str) -> str:
        """Put a trashed game back exactly as it was (log, redo, header, times); returns
        its session id. KeyError if it is not in the trash, SessionExists if its id was
        taken meanwhile (the trashed copy then stays where it is)."""

    def get_setting(self, key: str, default: object = None) -> Any:
        """The stored JSON value (a copy), or `default`: unchecked, the reader checks
        its shape."""

    def set_setting(self, key: str, value: object) -> None:
        """Store a JSON value (anything else is refused before touching disk)."""

    def settings(self) -> JsonObject:
        """Every setting that is set, key to JSON value (copies): one read for a caller
        that needs many of them (a backup export looks at two per game)."""

    def delete_setting(self, key: str) -> None: ...

    def quarantine(self, session_id: str, reason: str) -> StoreProblem:
        """Set aside a game its engine cannot fold (moved byte for byte, reported)."""

    def problems(self) -> list[StoreProblem]:
        """Everything set aside and not yet dismissed, newest first."""

    def problem_bytes(self, problem_id: str) -> bytes:
        """The quarantined file exactly as it was found (for export)."""

    def discard_problem(self, problem_id: str) -> None:
        """Delete a quarantined file and its report (the user chose to)."""


def validate_session_id(session_id: object) -> str:
    """Return the id if it is safe to use as a file name, else raise ValueError naming it."""
    if not isinstance(session_id, str) or not _SESSION_ID_RE.fullmatch(session_id):
        raise ValueError(
            f"invalid session id {session_id!r}: use 1-64 characters from A-Z a-z 0-9 _ -")
    return session_id


def checked_version(session_id: str, version: int, expected: int | None) -> int:
    """`version` if a write naming `expected` may extend it, else StaleWrite."""
    if expected is not None and version != expected:
        raise StaleWrite(session_id, expected, version)
    return version


#: json.dumps(value, allow_nan=False) builds an encoder per call; one made once writes
#: the same text (a quarter of a clone's time for a small document).
_CLONE_ENCODE = json.JSONEncoder(allow_nan=False).encode


def clone_json(value: T) -> T:
    """Deep copy through JSON: callers never share objects with the store, and anything
    that could not be stored (sets, NaN, objects) fails here, before touching disk."""
    return json.loads(_CLONE_ENCODE(value))


def info_fields(*, title: str | None, finished: bool | None,
                summary: JsonObject | None,
                header: JsonObject | None = None) -> JsonObject:
    """The checked fields of an `update_info` call (only those given), shared by every
    store so each refuses the same bad input before writing anything."""
    fields: JsonObject = {}
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
    if header is not None:
        header = clone_json(header)
        if not isinstance(header, dict):
            raise TypeError("header must be a JSON object")
        fields["header"] = header
    return fields


def merged_info(current: JsonObject, fields: JsonObject) -> JsonObject:
    """`current` meta with `fields` applied; a `header` field merges key by key."""
    merged = dict(current)
    for key, value in fields.items():
        merged[key] = {**current.get("header", {}), **value} if key == "header" else value
    return merged


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
