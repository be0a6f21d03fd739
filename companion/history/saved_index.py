"""The history's records kept on disk between starts (issue 23): a cache, rebuilt at will.

`history-index.json`, beside the store's sessions folder, holds one entry per game file
the history cache knows, keyed by file name, with the stamp (size, mtime_ns, inode) of
the file it was read from: `games` maps each name to `[kind, size, mtime, inode]`, kind

- "r": a finished game, its record in `records` under the same name (a GameRecord as
  pydantic writes it, fields at their default left out);
- "u": a game not finished yet, its SessionInfo in `unfinished`;
- "s": a finished game whose summary builds no record (skipped).

The file is one header line (format, version, the BLAKE2b digest of the body) and the
body: lines of up to LINE_ENTRIES entries of one of the three maps, each line an object
`{"games"|"records"|"unfinished": {...}}`, in the maps' order. Both ways go through
pydantic's compiled serializer and validator (`_Body`), a line at a time. Version 1
wrote each record as a row of lists in Python: about 180 ms of a 10,000-game history's
index write, on a thread beside Home and the statistics, which waited for the
interpreter meanwhile; the serializer takes about a fifth of that. Reading checks the
digest of every byte, then validates line by line; a record or a SessionInfo that does not validate
comes through as it was read (`_or_as_read`), and its entry raises ValueError: that
game is read from its file, the others are taken. A missing file, another format or
version, a digest that does not match or a body of another shape makes `read_index`
return None: the caller lists the game files and writes a new index.
Writing is one atomic replace (temp file, fsync, rename); an OSError (a full disk, a
read-only folder) is the caller's to skip.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, Field, ValidationError

from companion.history.records import GameRecord
from companion.store.atomic import atomic_write_bytes
from companion.store.base import SessionInfo

log = logging.getLogger(__name__)

INDEX_FILE = "history-index.json"
FORMAT = "village-companion-history-index"
#: Bump when GameRecord or the layout changes: older files are then rebuilt.
VERSION = 2

#: Entries per line of the body. Each line is one call into pydantic's compiled code,
#: which holds the interpreter throughout (about 4 ms for 500 records): the event loop
#: serving every phone has it back between two lines, never 40-140 ms at a time.
LINE_ENTRIES = 500

Stamp = tuple[int, int, int]
Entry = tuple[str, Stamp, Any]  # (kind "r" | "u" | "s", stamp, GameRecord | SessionInfo | None)


def _or_as_read(model: type) -> Any:
    """`model`, or (when it does not validate) the value as read: one bad entry must not
    cost the others."""
    return Annotated[model | Any, Field(union_mode="left_to_right")]


class _Body(BaseModel):
    games: dict[str, list[Any]] = {}
    records: dict[str, _or_as_read(GameRecord)] = {}  # type: ignore[valid-type]
    unfinished: dict[str, _or_as_read(SessionInfo)] = {}  # type: ignore[valid-type]


_TO_JSON = _Body.__pydantic_serializer__.to_json


def _lines(field: str, entries: dict[str, Any]) -> list[bytes]:
    """`entries` as lines of the body, LINE_ENTRIES a line, in their order."""
    items = list(entries.items())
    lines = []
    for at in range(0, len(items), LINE_ENTRIES):
        values: dict[str, Any] = {field: dict(items[at:at + LINE_ENTRIES])}
        lines.append(_TO_JSON(_Body.model_construct(None, **values), exclude_defaults=True))
    return lines


def index_path(sessions_dir: Path) -> Path:
    return sessions_dir.parent / INDEX_FILE


class SavedIndex:
    """The entries of a saved index (`entry`), validated when it was read."""

    def __init__(self) -> None:
        self.games: dict[str, list[Any]] = {}
        self._records: dict[str, Any] = {}
        self._unfinished: dict[str, Any] = {}

    def add(self, line: _Body) -> None:
        self.games.update(line.games)
        self._records.update(line.records)
        self._unfinished.update(line.unfinished)

    def stamp(self, name: str) -> Stamp | None:
        item = self.games.get(name)
        if type(item) is not list or len(item) != 4:
            return None
        return (item[1], item[2], item[3])

    def entry(self, name: str) -> Entry:
        """The entry of file `name` (ValueError, TypeError, ...: of another shape)."""
        kind, size, mtime, inode = self.games[name]
        stamp = (size, mtime, inode)
        if kind == "r":
            record = self._records[name]
            if not isinstance(record, GameRecord) or f"{record.id}.json" != name:
                raise ValueError("not a record of this game")
            return kind, stamp, record
        if kind == "u":
            info = self._unfinished[name]
            if not isinstance(info, SessionInfo) or f"{info.id}.json" != name:
                raise ValueError("not the SessionInfo of this game")
            return kind, stamp, info
        if kind == "s":
            return kind, stamp, None
        raise ValueError(f"unknown kind {kind!r}")


#: What reading an entry of another shape may raise (the entry is then not taken).
ENTRY_ERRORS = (ValueError, TypeError, KeyError, IndexError, AttributeError)


def read_index(path: Path) -> SavedIndex | None:
    """The saved index; None when there is none to trust (missing, another format or
    version, or damaged: its digest does not match)."""
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    try:
        head, _, body = raw.partition(b"\n")
        header = json.loads(head)
        if (not isinstance(header, dict) or header.get("format") != FORMAT
                or header.get("version") != VERSION
                or header.get("digest") != hashlib.blake2b(body).hexdigest()):
            log.info("history index %s ignored: another format, or damaged", path)
            return None
        saved = SavedIndex()
        for line in body.split(b"\n"):
            saved.add(_Body.model_validate_json(line))
        return saved
    except (ValueError, TypeError, ValidationError, RecursionError) as exc:
        log.info("history index %s ignored (%s): rebuilt from the game files", path,
                 type(exc).__name__)
        return None


def write_index(path: Path, entries: dict[str, Entry]) -> None:
    """Replace the saved index with `entries` (OSError: not written, the old one kept)."""
    games: dict[str, list[Any]] = {}
    records: dict[str, GameRecord] = {}
    unfinished: dict[str, SessionInfo] = {}
    for name, (kind, stamp, value) in entries.items():
        games[name] = [kind, *stamp]
        if kind == "r":
            records[name] = value
        elif kind == "u":
            unfinished[name] = value
    payload = b"\n".join([*_lines("games", games), *_lines("records", records),
                           *_lines("unfinished", unfinished)])
    header = json.dumps({"format": FORMAT, "version": VERSION,
                         "digest": hashlib.blake2b(payload).hexdigest()}).encode("utf-8")
    atomic_write_bytes(path, header + b"\n" + payload)
