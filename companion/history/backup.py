"""Backup: everything in one JSON file, and back; one game as JSON; results as CSV.

A backup file is one JSON object::

    {"format": "village-companion-backup", "version": 2, "exported_at": "...Z",
     "games": [{"meta": {"1": {"id", "game", "title", "created_at", "updated_at",
                               "header", "version", "finished", "summary", "schema"}},
                "events": {"1": {...}, ...}, "redo": {...}}, ...],
     "settings": {key: value, ...}}

Each game is its session file's own tables (companion/store/session_file.py; a `_rev`
may come with them and is ignored), so a game file known sound goes into the backup as
its bytes, unparsed (SessionStore.session_json): at 10,000 games the export reads files
instead of parsing and encoding them. A per-game setting of an old game (store schema 1)
is among the settings under its own key, "session:<id>:<name>". Version 1, which import
still reads and `export_backup` still gives, lists each game as one object::

     "games": [{"id", "game", "title", "created_at", "updated_at", "header", "events",
                "redo", "version", "finished", "summary", "settings"?}, ...]

Every game is as stored (its header holds the setup and the component values it started
with, so its log replays as it was played). The settings are the app's own (language,
theme, ...), the component corrections (calibration:village:<edition>) and which
estimates the user checked, the history's player merge map, and any per-game setting an
old (store schema 1) game still has. The store interface cannot list setting keys, so
these are the keys known here (SETTING_KEYS and the per-edition ones).

Import never overwrites and changes nothing unless the whole file is sound: it is read and
checked first (a damaged or foreign file raises BackupError naming the problem, before
any write: one nested deeper than MAX_DEPTH, a setting this app does not have or a value
it does not accept, a per-game setting of a game not in the file, a component correction
the wizard would refuse; see import_checks). Every game to be created is replayed by its
engine first: one that cannot be replayed is not imported (ImportReport.not_imported says
why), the others are, with the summary and the finished flag their replay gives (what the
game's service writes: scores, winners, ranks, categories, ...), never the file's, which
may say anything; only what a replay cannot know is taken from the file: the play date,
when the game was last played and the abandoned mark of an unfinished game
(`imported_summary`). Then per game: an id not stored yet is created as it was; the same id with
the same log (events) is skipped; the same id with a different log is kept as well, under
a new id (reported as renamed) unless that log was already imported under another id.
A setting already set keeps its value (reported as kept). If a write fails half-way, the
games this import created are deleted again. Created games get a new store `version`,
`created_at` and `updated_at` (the store sets them); their `summary` keeps the play date
and when they were last played (played.py: the backup's `updated_at` where it names none).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import uuid
from collections.abc import Callable, Iterable
from datetime import date
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from companion.core.json_types import JsonObject
from companion.history.abandon import ABANDONED_KEY
from companion.history.import_checks import (
    APP_SETTING_VALUES,
    EDITIONS,
    ImportProblem,
    Replayed,
    legacy_game_setting,
    replay_game,
    setting_problem,
)
from companion.history.names import MERGE_SETTING
from companion.history.played import PLAYED_KEY, keep_played
from companion.history.query import newest_first
from companion.history.records import GameRecord
from companion.store.atomic import CorruptFileError
from companion.store.base import (
    SessionInfo,
    SessionNotFound,
    StoredSession,
    UnsupportedSchema,
    clone_json,
    utc_iso,
    validate_session_id,
)
from companion.store.session_file import (
    EVENTS,
    REDO,
    check_session_tables,
    meta_doc,
    migrate_tables,
    ordered,
)

FORMAT = "village-companion-backup"
GAME_FORMAT = "village-companion-game"
#: The backup version `backup_json` writes (its games: session files' tables); import reads
#: it and every older one.
VERSION = 2
#: The backup version whose games are objects (`export_backup` gives it), and of one game.
ENTRIES_VERSION = 1
GAME_VERSION = 1

#: App settings (companion/app/settings.py KEY_*; a test keeps the two lists equal).
APP_SETTING_KEYS = tuple(APP_SETTING_VALUES)
#: Component corrections (companion/village/service.py calibration_key) and the estimates
#: the user confirmed (companion/app/village/wizard/calibration.py checked_key).
CORRECTION_KEYS = tuple(f"{prefix}:village:{edition}" for edition in EDITIONS
                        for prefix in ("calibration", "calibration_checked"))
SETTING_KEYS = APP_SETTING_KEYS + CORRECTION_KEYS + (MERGE_SETTING,)
#: Per-game settings of store schema 1 (companion/village/service.py prefs_key/engine_key:
#: "session:<id>:<name>"), exported with their game and imported under its (new) id.
LEGACY_GAME_SETTINGS = ("prefs", "engine")


def legacy_key(session_id: str, name: str) -> str:
    return f"session:{session_id}:{name}"

_MISSING = object()
#: Deeper than any backup this app writes (a game's header and events nest about 8).
MAX_DEPTH = 64


class BackupError(ValueError):
    """The file is not a backup this app can import; nothing was changed.

    `code` says which problem it is (the app words it in the user's language from it
    and `params`): not_json, not_object, one_game, foreign (format), newer (version,
    supported), damaged (detail: where, in English, as the validator puts it),
    too_deep (limit: nested deeper than any backup), setting_unknown (key: not a setting
    this app has), setting_game (key: a per-game setting of a game not in the file),
    setting_value (key, detail), correction (edition, detail: a component correction the
    wizard would refuse), read_only (reason); the message is the same in English."""

    def __init__(self, message: str, code: str = "damaged", **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class BackupStore(Protocol):
    read_only: str | None

    def create(self, session_id: str, game: str, title: str, header: JsonObject,
               events: list[JsonObject] | None = None, *, finished: bool = False,
               summary: JsonObject | None = None) -> int: ...

    def load(self, session_id: str) -> StoredSession: ...

    def read_only_view(self, session_id: str) -> StoredSession: ...

    def session_json(self, session_id: str) -> str: ...

    def replace_log(self, session_id: str, events: list[JsonObject],
                    redo: list[JsonObject], *, expected: int | None = None,
                    finished: bool | None = None, summary: JsonObject | None = None,
                    header: JsonObject | None = None) -> int: ...

    def list_sessions(self) -> list[SessionInfo]: ...

    def delete(self, session_id: str) -> None: ...

    def get_setting(self, key: str, default: object = None) -> Any: ...

    def settings(self) -> JsonObject: ...

    def set_setting(self, key: str, value: object) -> None: ...

    def delete_setting(self, key: str) -> None: ...


class BackupGame(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    id: str
    game: str = Field(min_length=1)
    title: str
    created_at: str = ""
    updated_at: str = ""
    header: JsonObject
    events: list[JsonObject]
    redo: list[JsonObject] = Field(default_factory=list)
    version: int = 0
    finished: bool = False
    summary: JsonObject = Field(default_factory=dict)
    settings: JsonObject = Field(default_factory=dict)  # legacy per-game settings

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        return validate_session_id(value)

    @field_validator("settings")
    @classmethod
    def _legacy(cls, value: JsonObject) -> JsonObject:
        unknown = set(value) - set(LEGACY_GAME_SETTINGS)
        if unknown:
            raise ValueError(f"unknown per-game setting {sorted(unknown)[0]!r}")
        return value


class Backup(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    format: Literal["village-companion-backup"]
    version: int
    exported_at: str = ""
    games: list[BackupGame]
    settings: JsonObject = Field(default_factory=dict)


class NotImported(BaseModel):
    """A game of a backup that was not imported: `code` (import_checks: not_replayable,
    newer_engine with version and supported, unknown_game) says why, `detail` in the
    engine's own (English) words."""

    title: str
    game: str
    code: str
    detail: str = ""
    params: JsonObject = Field(default_factory=dict)


class ImportReport(BaseModel):
    imported: list[str] = Field(default_factory=list)  # ids created as they were
    skipped: list[str] = Field(default_factory=list)  # already here with the same log
    renamed: dict[str, str] = Field(default_factory=dict)  # backup id -> new id
    settings_imported: list[str] = Field(default_factory=list)
    settings_kept: list[str] = Field(default_factory=list)  # set here already: not changed
    #: Games of the file not imported, by backup id: why (its engine cannot replay it).
    not_imported: dict[str, NotImported] = Field(default_factory=dict)


# --------------------------------------------------------------------------- export


def _game_entry(stored: StoredSession, info: SessionInfo, settings: JsonObject) -> JsonObject:
    legacy = {name: settings[legacy_key(info.id, name)] for name in LEGACY_GAME_SETTINGS
              if legacy_key(info.id, name) in settings}
    entry = {"id": info.id, "game": info.game, "title": stored.title,
             "created_at": info.created_at, "updated_at": info.updated_at,
             "header": stored.header, "events": stored.events, "redo": stored.redo,
             "version": stored.version, "finished": stored.finished,
             "summary": stored.summary}
    if legacy:
        entry["settings"] = legacy
    return entry


def settings_of(store: BackupStore, settings: JsonObject | None = None) -> JsonObject:
    """Every known setting that is set (see SETTING_KEYS); `settings`: the store's
    settings already read."""
    values = store.settings() if settings is None else settings
    return {key: values[key] for key in SETTING_KEYS if key in values}


def _export(store: BackupStore, read: Callable[[str], StoredSession]) -> JsonObject:
    # The settings are read once, not twice per game (10,000 games: 20,000 reads).
    infos = sorted(store.list_sessions(), key=lambda i: (i.created_at, i.id))
    settings = store.settings()
    return {"format": FORMAT, "version": ENTRIES_VERSION, "exported_at": utc_iso(),
            "games": [_game_entry(read(info.id), info, settings) for info in infos],
            "settings": settings_of(store, settings)}


def export_backup(store: BackupStore) -> JsonObject:
    """Everything stored, as the JSON object of a backup file of version 1 (games as
    objects, oldest first); the caller may change it (its values are copies)."""
    return _export(store, store.load)


def backup_json(store: BackupStore) -> str:
    """The backup file's text (version 2, compact): every game is its file's tables, as
    the store gives them (session_json: a file known sound as its bytes, unparsed), oldest
    first; then the settings, an old game's own among them."""
    infos = sorted(store.list_sessions(), key=lambda i: (i.created_at, i.id))
    values = store.settings()
    settings = settings_of(store, values)
    for info in infos:
        for name in LEGACY_GAME_SETTINGS:
            key = legacy_key(info.id, name)
            if key in values:
                settings[key] = values[key]
    head = json.dumps({"format": FORMAT, "version": VERSION, "exported_at": utc_iso()},
                      ensure_ascii=False, separators=(",", ":"))
    games = ",".join(store.session_json(info.id) for info in infos)
    tail = json.dumps(settings, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return f'{head[:-1]},"games":[{games}],"settings":{tail}}}'


# --------------------------------------------------------------------------- import


def _where(exc: ValidationError) -> str:
    err = exc.errors()[0]
    loc = ".".join(str(part) for part in err["loc"]) or "file"
    return f"{loc}: {err['msg']}"


def parse_backup(data: bytes | str) -> Backup:
    """The backup in `data`, checked from top to bottom; BackupError says what is wrong."""
    try:
        raw = json.loads(data)
    except RecursionError as exc:  # deeper than Python's parser goes
        raise _too_deep() from exc
    except (ValueError, UnicodeDecodeError) as exc:
        raise BackupError(f"not a backup file: it is not readable JSON ({exc})",
                          "not_json", detail=str(exc)) from exc
    if _depth_over(raw, MAX_DEPTH):
        raise _too_deep()
    if not isinstance(raw, dict):
        raise BackupError("not a backup file: it is not a JSON object", "not_object")
    marker = raw.get("format")
    if marker != FORMAT:
        if marker == GAME_FORMAT:
            raise BackupError("this is one exported game, not a backup of everything",
                              "one_game")
        raise BackupError(f"not a Village Companion backup (format is {marker!r}, "
                          f"expected {FORMAT!r})",
                          "foreign", format=str(marker))
    version = raw.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise BackupError(f"damaged backup: version is {version!r}, not a version number",
                          detail=f"version {version!r}")
    if version > VERSION:
        raise BackupError(f"this backup was written by a newer Village Companion (backup "
                          f"version {version}; this app reads up to {VERSION}): update "
                          "the app to import it",
                          "newer", version=version, supported=VERSION)
    if version >= 2:
        raw = {**raw, "games": games_as_objects(raw.get("games"))}
    try:
        clone_json(raw)  # NaN, Infinity: refused here as the store would refuse them
        backup = Backup.model_validate(raw)
    except ValidationError as exc:
        raise BackupError(f"damaged backup: {_where(exc)}", detail=_where(exc)) from exc
    except (ValueError, TypeError) as exc:
        raise BackupError(f"damaged backup: {exc}", detail=str(exc)) from exc
    ids = [g.id for g in backup.games]
    if len(set(ids)) != len(ids):
        dup = next(i for i in ids if ids.count(i) > 1)
        raise BackupError(f"damaged backup: the game id {dup!r} appears twice",
                          detail=f"id {dup!r} twice")
    _check_settings(backup)
    return backup


def games_as_objects(games: object) -> object:
    """The games of a version 2 backup (session files' tables) as version 1 lists them
    (one object each); their tables are checked as the store checks a file (an older
    store schema migrated as opening it would): BackupError if one is not a game file's.
    Anything but a list is left for the validation to refuse."""
    if not isinstance(games, list):
        return games
    return [_game_object(tables, n) for n, tables in enumerate(games)]


def _game_object(tables: object, n: int) -> JsonObject:
    where = Path(f"games.{n}")
    try:
        if not isinstance(tables, dict):
            raise CorruptFileError(where, "not a game file's tables")
        tables = {k: v for k, v in tables.items() if k != "_rev"}
        migrated, _ = migrate_tables(tables, where)
        meta = meta_doc(migrated)
        game_id = meta.get("id")
        check_session_tables(migrated, game_id if isinstance(game_id, str) else "", where)
    except (CorruptFileError, UnsupportedSchema, ValueError) as exc:
        detail = f"{where}: {exc.reason if isinstance(exc, CorruptFileError) else exc}"
        raise BackupError(f"damaged backup: {detail}", detail=detail) from exc
    return {"id": meta["id"], "game": meta["game"], "title": meta["title"],
            "created_at": meta["created_at"], "updated_at": meta["updated_at"],
            "header": meta["header"], "events": ordered(migrated.get(EVENTS, {})),
            "redo": ordered(migrated.get(REDO, {})), "version": meta["version"],
            "finished": meta["finished"], "summary": meta["summary"]}


def _too_deep() -> BackupError:
    return BackupError(f"not a backup file: it is nested deeper than {MAX_DEPTH} levels",
                       "too_deep", limit=MAX_DEPTH)


def _depth_over(value: object, limit: int) -> bool:
    """Is `value` nested deeper than `limit` (counted without recursion)?"""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Iterable[Any] = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def _refused(problem: ImportProblem) -> BackupError:
    params = dict(problem.params)
    if problem.code in ("setting_value", "correction"):
        params["detail"] = problem.detail
    what = {"setting_unknown": "not a setting of this app",
            "setting_game": "a setting of a game that is not in the backup",
            "setting_value": "a value this app does not accept",
            "correction": "a component correction the check refuses"}.get(problem.code, "")
    key = params.get("key") or f"calibration:village:{params.get('edition')}"
    return BackupError(f"the backup's setting {key} cannot be imported: {what}"
                       + (f" ({problem.detail})" if problem.detail else ""),
                       problem.code, **params)


def _check_settings(backup: Backup) -> None:
    """Every setting of the file, and every game's own (schema 1) settings, is one the
    app knows with a value it accepts (import_checks.setting_problem); top-level per-game
    settings go to their game (they are imported with it, under its new id)."""
    ids = {g.id for g in backup.games}
    games = {g.id: g for g in backup.games}
    for key, value in list(backup.settings.items()):
        problem = setting_problem(key, value, ids)
        if problem is not None:
            raise _refused(problem)
        legacy = legacy_game_setting(key)
        if legacy is not None and key not in SETTING_KEYS:
            session_id, name = legacy
            games[session_id].settings.setdefault(name, value)
            del backup.settings[key]
    for game in backup.games:
        for name, value in game.settings.items():
            problem = setting_problem(legacy_key(game.id, name), value, ids)
            if problem is not None:
                raise _refused(problem)


def _same_log(store: BackupStore, session_id: str, game: BackupGame) -> bool:
    """Is `game`'s log the one stored under `session_id`? (A stored game that cannot be
    read counts as a different one: the backup's copy is then kept under a new id.)"""
    try:
        return store.load(session_id).events == game.events
    except Exception:  # damaged, newer, gone: not the same log
        return False


def _replayed(game: BackupGame, report: ImportReport) -> Replayed | None:
    """Replay `game` by its engine, as opening it would; one that cannot be replayed is
    reported (report.not_imported) and left out (None), never stored to be set aside
    later."""
    found = replay_game(game.game, game.header, game.events, game.redo, game.settings)
    if isinstance(found, Replayed):
        return found
    report.not_imported[game.id] = NotImported(title=game.title, game=game.game,
                                               code=found.code, detail=found.detail,
                                               params=found.params)
    return None


def _day(value: object) -> str | None:
    if isinstance(value, str) and len(value) >= 10:
        with contextlib.suppress(ValueError):
            return date.fromisoformat(value[:10]).isoformat()
    return None


def imported_summary(game: BackupGame, replayed: Replayed) -> JsonObject:
    """The summary an imported game is stored with: its replay's, with what a replay
    cannot know taken from the file: the day it was played (the file's, else its last
    event's), when it was last played (the file's, else the backup's updated_at: an
    import is no play) and, unfinished, the abandoned mark."""
    summary = {k: v for k, v in replayed.summary.items() if k != PLAYED_KEY}
    last_event = game.events[-1].get("at") if game.events else None
    day = _day(game.summary.get("date")) or _day(last_event)
    if day is not None:
        summary["date"] = day
    abandoned = game.summary.get(ABANDONED_KEY)
    if not replayed.finished and isinstance(abandoned, str):
        summary[ABANDONED_KEY] = abandoned
    played = game.summary.get(PLAYED_KEY)
    kept = keep_played(summary, played if isinstance(played, str) else None)
    return keep_played(kept, game.updated_at or None)


def import_backup(store: BackupStore, data: bytes | str, *,
                  new_id: Callable[[], str] = lambda: uuid.uuid4().hex[:16]) -> ImportReport:
    """Import a backup file's content into `store` (see the module doc); BackupError
    before anything is written if the file is damaged or foreign, or the store read-only."""
    backup = parse_backup(data)
    if store.read_only is not None:
        raise BackupError(f"saving is off: {store.read_only}", "read_only",
                          reason=store.read_only)
    infos = store.list_sessions()
    here = {i.id: i for i in infos}
    report = ImportReport()
    plan: list[tuple[str, BackupGame, Replayed]] = []  # (id to create, game, its replay)
    for game in backup.games:
        info = here.get(game.id)
        if info is None:
            replayed = _replayed(game, report)
            if replayed is None:
                continue
            plan.append((game.id, game, replayed))
            report.imported.append(game.id)
            continue
        if _same_log(store, game.id, game):
            report.skipped.append(game.id)
            continue
        # Imported before under another id? Those copies keep the game and its title.
        copies = [i for i in infos if i.id != game.id and i.game == game.game
                  and i.title == game.title]
        if any(_same_log(store, c.id, game) for c in copies):
            report.skipped.append(game.id)
            continue
        replayed = _replayed(game, report)
        if replayed is None:
            continue
        fresh = new_id()
        while fresh in here or any(fresh == p for p, _, _ in plan):
            fresh = new_id()
        validate_session_id(fresh)
        plan.append((fresh, game, replayed))
        report.renamed[game.id] = fresh
    settings = []
    for key, value in backup.settings.items():
        current = store.get_setting(key, _MISSING)
        if current is _MISSING:
            settings.append((key, value))
            report.settings_imported.append(key)
        elif current != value:
            report.settings_kept.append(key)
    _write(store, plan, settings)
    return report


def _write(store: BackupStore, plan: list[tuple[str, BackupGame, Replayed]],
           settings: list[tuple[str, Any]]) -> None:
    created: list[str] = []
    set_keys: list[str] = []
    try:
        for session_id, game, replayed in plan:
            # The replay's result; an import is no play: it keeps when it was played.
            version = store.create(session_id, game.game, game.title, game.header,
                                   game.events, finished=replayed.finished,
                                   summary=imported_summary(game, replayed))
            created.append(session_id)
            if game.redo:
                store.replace_log(session_id, game.events, game.redo, expected=version)
            for name, value in game.settings.items():
                key = legacy_key(session_id, name)
                if store.get_setting(key, _MISSING) is _MISSING:
                    store.set_setting(key, value)
                    set_keys.append(key)
        for key, value in settings:
            store.set_setting(key, value)
            set_keys.append(key)
    except BaseException:
        for session_id in created:  # leave the store as it was
            with contextlib.suppress(Exception):  # the first error counts
                store.delete(session_id)
        for key in set_keys:
            with contextlib.suppress(Exception):  # the first error counts
                store.delete_setting(key)
        raise


# --------------------------------------------------------------------------- one game, CSV


def export_game(store: BackupStore, session_id: str) -> JsonObject:
    """One game as a JSON object: its setup (header) and log, enough to replay it."""
    info = next((i for i in store.list_sessions() if i.id == session_id), None)
    if info is None:
        raise SessionNotFound(session_id)
    entry = _game_entry(store.load(session_id), info, store.settings())
    return {"format": GAME_FORMAT, "version": GAME_VERSION, "exported_at": utc_iso(),
            **entry}


def game_json(store: BackupStore, session_id: str) -> str:
    return json.dumps(export_game(store, session_id), ensure_ascii=False, indent=1)


CSV_COLUMNS = ("game_id", "game", "date", "title", "edition", "solo", "players",
               "duration_min", "player", "score", "rank", "winner", "eliminated",
               "start_player", "achievement", "karla_variant")


#: What a spreadsheet may read as the start of a formula (OWASP, CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> object:
    """A cell a spreadsheet shows as text, never runs (OWASP's CSV injection advice):
    text starting with =, +, -, @, a tab or a carriage return gets a leading ' (every
    cell is quoted by the writer, and a " inside doubled). Numbers stay numbers."""
    if isinstance(value, str) and value[:1] in FORMULA_STARTS:
        return "'" + value
    return value


def results_csv(records: Iterable[GameRecord]) -> str:
    """One row per player per game, newest game first; then one column per score
    category any record has (empty where unknown). Every cell, the header's included,
    is quoted and safe to open in a spreadsheet (`_cell`)."""
    chosen = newest_first(records)
    categories = list(dict.fromkeys(c for r in chosen for p in r.players
                                    for c in (p.categories or {})))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL)
    writer.writerow([_cell(c) for c in (*CSV_COLUMNS, *categories)])  # the header too
    for r in chosen:
        for p in r.players:
            none = ""
            writer.writerow([_cell(v) for v in (
                r.id, r.game, r.date.isoformat(), r.title, r.edition or none,
                "yes" if r.solo else "no", r.player_count,
                none if r.duration_min is None else r.duration_min, p.name,
                none if p.score is None else p.score, none if p.rank is None else p.rank,
                "yes" if p.winner else "no", "yes" if p.eliminated else "no",
                "yes" if r.start_player == p.name else ("" if r.start_player is None
                                                        else "no"),
                r.achievement or none, r.karla_variant or none,
                *[(p.categories or {}).get(c, none) for c in categories])])
    return out.getvalue()
