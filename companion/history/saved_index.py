"""The history's records kept on disk between starts (issue 23): a cache, rebuilt at will.

`history-index.json`, beside the store's sessions folder, holds one entry per game file
the history cache knows, keyed by file name, each with the stamp (size, mtime_ns, inode)
of the file it was read from:

- `["r", size, mtime, inode, row]`: a finished game and its record (`record_row`; the
  score categories of a player as [n, points]: the n-th list of category names of the
  body's `categories`, shared by every player who has that list);
- `["u", size, mtime, inode, info]`: a game not finished yet, its SessionInfo as JSON;
- `["s", size, mtime, inode]`: a finished game whose summary builds no record (skipped).

The file is one header line (format, version, the BLAKE2b digest of the body) and the
body (`{"categories": [[name, ...], ...], "games": {file name: entry}}`). Reading it
checks the digest of every byte; the caller then builds the records of the entries whose
file is unchanged (`SavedIndex.entry`), without validating each with pydantic (they were
built by `build_record` and written here; `record_from_row` checks the shape and the
types of the fields it fills). A missing file, another format or version, or a digest
that does not match makes `read_index` return None; an entry of another shape raises
ValueError: the caller reads the game files instead and writes a new index.
Writing is one atomic replace (temp file, fsync, rename); an OSError (a full disk, a
read-only folder) is the caller's to skip.
"""

from __future__ import annotations

import hashlib
import json
import logging
from datetime import date, datetime
from pathlib import Path
from typing import Any

from companion.core.json_types import JsonObject
from companion.history.records import GameRecord, PlayerResult, built
from companion.store.atomic import atomic_write_bytes
from companion.store.base import SessionInfo

log = logging.getLogger(__name__)

INDEX_FILE = "history-index.json"
FORMAT = "village-companion-history-index"
#: Bump when GameRecord or the row layout changes: older files are then rebuilt.
VERSION = 1

Stamp = tuple[int, int, int]
Entry = tuple[str, Stamp, Any]  # (kind "r" | "u" | "s", stamp, GameRecord | SessionInfo | None)

# One set shared by every record built here: the models are frozen, and model_copy
# copies the set before changing it.
_PLAYER_FIELDS = set(PlayerResult.model_fields)
_new = object.__new__
_set = object.__setattr__


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _categories_row(categories: dict[str, int] | None,
                    names: dict[tuple[str, ...], int]) -> list[Any] | None:
    if categories is None:
        return None
    key = tuple(categories)
    n = names.setdefault(key, len(names))
    return [n, list(categories.values())]


def record_row(record: GameRecord, names: dict[tuple[str, ...], int]) -> list[Any]:
    """A record as compact JSON (its id is the entry's file name); `names` collects the
    lists of category names the rows refer to by number."""
    return [record.game, record.title, record.date.isoformat(), _iso(record.started_at),
            _iso(record.ended_at), record.duration_min, record.edition, record.solo,
            [[p.name, p.score, p.rank, p.winner, p.eliminated,
              _categories_row(p.categories, names)] for p in record.players],
            record.start_player, record.achievement, record.karla_variant,
            record.karla_policy, record.karla_colour, record.colours, record.opponent,
            record.updated_at]


def _colours(value: object) -> dict[str, str] | None:
    if value is None:
        return None
    if type(value) is dict and set(map(type, value)) | set(map(type, value.values())) \
            <= {str}:
        return value
    raise ValueError("not a map of colours")


def _categories(value: Any, names: list[tuple[str, ...]]) -> dict[str, int] | None:
    if value is None:
        return None
    n, points = value
    keys = names[n]
    if type(points) is not list or len(points) != len(keys) \
            or not set(map(type, points)) <= {int}:
        raise ValueError("not a player's points")
    return dict(zip(keys, points, strict=True))


_TEXT_OR_NONE = frozenset({str, type(None)})
_INT_OR_NONE = frozenset({int, type(None)})


def record_from_row(session_id: str, row: Any, names: list[tuple[str, ...]]) -> GameRecord:
    """The record of `record_row`; ValueError/TypeError for a row of another shape.
    (Written out in one function: it runs 10,000 times at the first look.)"""
    (game, title, day, started, ended, duration, edition, solo, players, start_player,
     achievement, karla_variant, karla_policy, karla_colour, colours, opponent,
     updated_at) = row
    results = []
    for name, score, rank, winner, eliminated, categories in players:
        if type(name) is not str or type(winner) is not bool \
                or type(eliminated) is not bool \
                or not {type(score), type(rank)} <= _INT_OR_NONE:
            raise ValueError("not a player's result")
        if categories is not None:
            categories = _categories(categories, names)
        player = _new(PlayerResult)
        _set(player, "__dict__", {
            "name": name, "score": score, "rank": rank, "winner": winner,
            "eliminated": eliminated, "categories": categories})
        _set(player, "__pydantic_fields_set__", _PLAYER_FIELDS)
        _set(player, "__pydantic_extra__", None)
        _set(player, "__pydantic_private__", None)
        results.append(player)
    if type(game) is not str or type(title) is not str or type(updated_at) is not str \
            or type(solo) is not bool or type(duration) not in _INT_OR_NONE \
            or not set(map(type, (edition, start_player, achievement, karla_variant,
                                  karla_policy, karla_colour, opponent))) <= _TEXT_OR_NONE:
        raise ValueError("not a record")
    return built(GameRecord, {
        "id": session_id, "game": game, "title": title, "date": date.fromisoformat(day),
        "started_at": None if started is None else datetime.fromisoformat(started),
        "ended_at": None if ended is None else datetime.fromisoformat(ended),
        "duration_min": duration, "edition": edition, "solo": solo, "players": results,
        "start_player": start_player, "achievement": achievement,
        "karla_variant": karla_variant, "karla_policy": karla_policy,
        "karla_colour": karla_colour, "colours": _colours(colours), "opponent": opponent,
        "updated_at": updated_at})


def index_path(sessions_dir: Path) -> Path:
    return sessions_dir.parent / INDEX_FILE


class SavedIndex:
    """The entries of a saved index, built one by one on demand (`entry`)."""

    def __init__(self, games: JsonObject, names: list[tuple[str, ...]]) -> None:
        self.games = games
        self._names = names

    def stamp(self, name: str) -> Stamp | None:
        item = self.games.get(name)
        if type(item) is not list or len(item) < 4:
            return None
        return (item[1], item[2], item[3])

    def entry(self, name: str) -> Entry:
        """The entry of file `name` (ValueError, TypeError, ...: of another shape)."""
        item = self.games[name]
        kind, stamp = item[0], (item[1], item[2], item[3])
        if kind == "r":
            return kind, stamp, record_from_row(name[:-len(".json")], item[4], self._names)
        if kind == "u":
            return kind, stamp, SessionInfo.model_validate(item[4])
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
        content = json.loads(body)
        names = [tuple(n) for n in content["categories"]]
        if not all(set(map(type, n)) <= {str} for n in names) \
                or type(content["games"]) is not dict:
            raise ValueError("categories")
        return SavedIndex(content["games"], names)
    except (ValueError, TypeError, KeyError, RecursionError) as exc:
        log.info("history index %s ignored (%s): rebuilt from the game files", path,
                 type(exc).__name__)
        return None


def write_index(path: Path, entries: dict[str, Entry]) -> None:
    """Replace the saved index with `entries` (OSError: not written, the old one kept)."""
    games: dict[str, list[Any]] = {}
    names: dict[tuple[str, ...], int] = {}
    for name, (kind, stamp, value) in entries.items():
        if kind == "r":
            games[name] = [kind, *stamp, record_row(value, names)]
        elif kind == "u":
            games[name] = [kind, *stamp, value.model_dump(mode="json")]
        else:
            games[name] = [kind, *stamp]
    body = json.dumps({"categories": [list(n) for n in names], "games": games},
                      ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    header = json.dumps({"format": FORMAT, "version": VERSION,
                         "digest": hashlib.blake2b(body).hexdigest()}).encode("utf-8")
    atomic_write_bytes(path, header + b"\n" + body)
