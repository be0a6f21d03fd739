"""The on-disk session store: one TinyDB file per game, holding everything about it.

Layout under the data directory::

    sessions/<id>.json   one game, one atomic unit: table meta (1 doc: title, finished,
                         summary, version, updated_at, header), events (1 doc per event), redo
    index.json           a cache of what Home lists, one entry per game with the stamp
                         (size, mtime, inode) of the file it summarises; rebuilt at will
    settings.json        key/value settings (app-wide only: nothing per game)
    locks/               filelock files (one per session, one for index + settings)
    quarantine/          files set aside (never rewritten) and a `.why.json` report each

Writes: every change of a game (create, append, undo, finish, preferences) is one atomic
replace of its file (temp file, fsync, rename, fsync of the folder), made under the game's
lock after checking the `expected` version it extends. A kill can cost at most the write
in flight. Nothing else is written per action: saving an event costs the same with 10,000
stored games as with none. `list_sessions` compares each file's stamp with its index entry
and re-reads only the files that changed, so the index can never disagree for long.

Reads take no lock (a reader sees the old or the new file, never a mix), so a read-only
data folder still lists and opens every game; its writes raise ReadOnlyStore.

Concurrency: the only nesting ever taken while blocking is "session lock, then store lock";
code holding the store lock only *tries* a session lock (timeout 0), so two processes
cannot deadlock.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from filelock import BaseFileLock, FileLock, Timeout
from pydantic import ValidationError
from tinydb import TinyDB
from tinydb.middlewares import CachingMiddleware

from companion.store import crashpoints
from companion.store.atomic import (
    AtomicJSONStorage,
    CorruptFileError,
    ReadCache,
    Tables,
    atomic_write_bytes,
    fsync_dir,
    is_temp_name,
)
from companion.store.base import (
    STORE_SCHEMA,
    CorruptSession,
    ProblemKind,
    ReadOnlyStore,
    SessionExists,
    SessionInfo,
    SessionNotFound,
    StaleWrite,
    StoredSession,
    StoreProblem,
    UnsupportedSchema,
    checked_version,
    clone_json,
    info_fields,
    iso_to_ts,
    merged_info,
    utc_iso,
    validate_session_id,
)
from companion.store.settings_recovery import recover_settings

log = logging.getLogger(__name__)

Migration = Callable[[dict[str, Any]], dict[str, Any]]

SESSIONS_DIR = "sessions"
LOCKS_DIR = "locks"
QUARANTINE_DIR = "quarantine"
INDEX_FILE = "index.json"
SETTINGS_FILE = "settings.json"
STORE_LOCK_FILE = "store.lock"  # guards index.json and settings.json
REPORT_SUFFIX = ".why.json"  # a quarantined file's report, beside it

META, EVENTS, REDO = "meta", "events", "redo"
INDEX_TABLE = "sessions"
SETTINGS_TABLE = "settings"

_META_FIELDS: dict[str, type | tuple[type, ...]] = {
    "id": str, "game": str, "title": str, "created_at": str, "header": dict,
    "version": int, "updated_at": str, "finished": bool, "summary": dict,
}
# A per-game setting key of store schema 1 (moved into the game's header since).
LEGACY_SESSION_KEY = "session:{id}:"


def _migrate_1_to_2(tables: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 -> 2: the meta gets the write `version` (the log length is as good a start
    as any) and `updated_at`; finished/summary may be missing in the oldest files."""
    meta = _meta_doc(tables)
    meta.setdefault("version", len(tables.get(EVENTS) or {}))
    meta.setdefault("updated_at", meta.get("created_at", utc_iso()))
    meta.setdefault("finished", False)
    meta.setdefault("summary", {})
    return tables


#: Upgrades of a session file's raw tables, version n -> n+1. To change the file format,
#: raise STORE_SCHEMA in base.py and register the step from the previous version here.
#: A step receives a private deep copy and returns the new tables; the store then sets
#: meta.schema to n+1 and writes the result atomically.
MIGRATIONS: dict[int, Migration] = {1: _migrate_1_to_2}


class _Batch(CachingMiddleware):
    """Hold every table change of one store operation in memory; `flush` writes them once.

    An operation touching three tables (append events, clear redo, update meta) thus
    becomes a single atomic file replace. The threshold is infinite so nothing is written
    half-way.
    """

    WRITE_CACHE_SIZE = sys.maxsize


# --------------------------------------------------------------------------- file layout


def session_file_tables(meta: dict[str, Any], events: list[dict[str, Any]],
                        redo: list[dict[str, Any]]) -> Tables:
    """The raw tables of a session file (TinyDB layout: doc-id string -> document)."""
    return {
        META: {"1": meta},
        EVENTS: {str(i): event for i, event in enumerate(events, 1)},
        REDO: {str(i): item for i, item in enumerate(redo, 1)},
    }


def session_meta(session_id: str, game: str, title: str, header: dict[str, Any],
                 created_at: str, *, finished: bool = False,
                 summary: dict[str, Any] | None = None, version: int = 1) -> dict[str, Any]:
    return {"schema": STORE_SCHEMA, "id": session_id, "game": game, "title": title,
            "created_at": created_at, "updated_at": created_at, "version": version,
            "finished": finished, "summary": summary or {}, "header": header}


def _stamp(stat: os.stat_result) -> list[int]:
    """What identifies one write of a file: every write is a new file (rename), so a new
    inode, size or mtime."""
    return [stat.st_size, stat.st_mtime_ns, stat.st_ino]


def index_tables(entries: list[dict[str, Any]]) -> Tables:
    """The raw tables of index.json (each entry: a SessionInfo plus its file's stamp)."""
    return {INDEX_TABLE: {str(i): entry for i, entry in enumerate(entries, 1)}}


def _meta_doc(tables: dict[str, Any]) -> dict[str, Any]:
    meta = tables.get(META)
    if not isinstance(meta, dict) or len(meta) != 1:
        raise ValueError("no single document in table 'meta'")
    doc = next(iter(meta.values()))
    if not isinstance(doc, dict):
        raise ValueError("meta document is not an object")
    return doc


def _schema_of(tables: dict[str, Any], path: Path) -> int:
    try:
        version = _meta_doc(tables).get("schema")
    except ValueError as exc:
        raise CorruptFileError(path, str(exc)) from exc
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise CorruptFileError(path, f"meta.schema is {version!r}, not a version number")
    return version


def migrate_tables(tables: dict[str, Any], path: Path) -> tuple[dict[str, Any], bool]:
    """Bring raw session tables up to STORE_SCHEMA. Returns (tables, whether it changed).

    Never mutates `tables`. Raises UnsupportedSchema for a newer file or a missing step,
    CorruptFileError if there is no readable schema.
    """
    version = _schema_of(tables, path)
    if version > STORE_SCHEMA:
        raise UnsupportedSchema(
            f"{path} was written by a newer Village Companion (store schema {version}; this "
            f"version reads up to {STORE_SCHEMA}). Update the app; the file was not modified.")
    if version == STORE_SCHEMA:
        return tables, False
    migrated = cast(dict[str, Any], clone_json(tables))
    while version < STORE_SCHEMA:
        step = MIGRATIONS.get(version)
        if step is None:
            raise UnsupportedSchema(
                f"{path}: no migration from store schema {version} to {version + 1}; "
                "the file was not modified.")
        try:
            migrated = step(migrated)
            _meta_doc(migrated)["schema"] = version + 1
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise CorruptFileError(
                path, f"cannot migrate from store schema {version}: {exc}") from exc
        version += 1
    return migrated, True


def check_session_tables(tables: dict[str, Any], session_id: str, path: Path) -> None:
    """Raise CorruptFileError unless `tables` has the current session layout."""
    unknown = set(tables) - {META, EVENTS, REDO}
    if unknown:
        raise CorruptFileError(path, f"unexpected table {sorted(unknown)[0]!r}")
    try:
        meta = _meta_doc(tables)
    except ValueError as exc:
        raise CorruptFileError(path, str(exc)) from exc
    for field, kind in _META_FIELDS.items():
        value = meta.get(field)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise CorruptFileError(path, f"meta.{field} missing or of the wrong type")
    if meta["id"] != session_id:
        raise CorruptFileError(path, f"meta.id is {meta['id']!r}, expected {session_id!r}")
    for name in (EVENTS, REDO):
        table = tables.get(name, {})
        if not isinstance(table, dict) or not all(
                isinstance(doc, dict) and key.isdigit() for key, doc in table.items()):
            raise CorruptFileError(path, f"table {name!r} is not a table of documents")


def _info_from_meta(meta: dict[str, Any]) -> SessionInfo:
    return SessionInfo(
        id=meta["id"], game=meta["game"], title=meta["title"], created_at=meta["created_at"],
        updated_at=meta.get("updated_at") or meta["created_at"],
        finished=bool(meta.get("finished", False)), summary=meta.get("summary") or {},
    )


def _json_docs(value: Any, what: str) -> list[dict[str, Any]]:
    docs = clone_json(value)
    if not isinstance(docs, list) or not all(isinstance(doc, dict) for doc in docs):
        raise TypeError(f"{what} must be a list of JSON objects")
    return cast(list[dict[str, Any]], docs)


def _ordered(table: dict[str, Any]) -> list[dict[str, Any]]:
    """Documents of a raw table in doc-id order, i.e. the order they were stored in."""
    return [table[key] for key in sorted(table, key=int)]


def _check_index_entry(doc: Any) -> None:
    info = SessionInfo.model_validate(doc)
    iso_to_ts(info.updated_at)  # list_sessions sorts by these
    stamp = doc.get("stamp")
    # No stamp: an entry of store schema 1, re-read from its file (never "damaged").
    if stamp is not None and not (isinstance(stamp, list) and len(stamp) == 3
                                  and all(isinstance(n, int) for n in stamp)):
        raise ValueError("index entry with a malformed file stamp")


def _check_table_file(tables: dict[str, Any], table_name: str,
                      check: Callable[[Any], None]) -> None:
    """Raise ValueError unless `tables` is exactly {table_name: {"<n>": doc, ...}}."""
    unknown = set(tables) - {table_name}
    if unknown:
        raise ValueError(f"unexpected table {sorted(unknown)[0]!r}")
    table = tables.get(table_name, {})
    if not isinstance(table, dict):
        raise ValueError(f"table {table_name!r} is not a table of documents")
    for key, doc in table.items():
        if not key.isdigit():
            raise ValueError(f"document id {key!r} is not a number")
        check(doc)


def _check_setting(doc: Any) -> None:
    if not isinstance(doc, dict) or not isinstance(doc.get("key"), str) or "value" not in doc:
        raise ValueError("a setting is not a {key, value} object")


def _one_line(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}" if not isinstance(exc, CorruptFileError) \
        else exc.reason
    return (text.splitlines() or [""])[0][:300]


# --------------------------------------------------------------------------- the store


class TinyDBStore:
    """SessionStore on TinyDB files. Safe across threads and processes (see module doc)."""

    def __init__(self, data_dir: Path, *, lock_timeout: float = 30.0,
                 cache_size: int = 8) -> None:
        self.root = Path(data_dir)
        self.sessions_dir = self.root / SESSIONS_DIR
        self.locks_dir = self.root / LOCKS_DIR
        self.quarantine_dir = self.root / QUARANTINE_DIR
        self.index_path = self.root / INDEX_FILE
        self.settings_path = self.root / SETTINGS_FILE
        self._lock_timeout = lock_timeout
        # Parsed copies of the few most recently used files; validated by revision token.
        self._cache = ReadCache(cache_size)
        self._locks: dict[str, BaseFileLock] = {}
        self._locks_guard = threading.Lock()
        self._unmoved: list[StoreProblem] = []  # found read-only: reported, not moved
        self.read_only: str | None = self._open_folders()
        self._store_lock = self._lock_at(self.locks_dir / STORE_LOCK_FILE)
        if self.read_only is None:
            self._sweep_temp_files()
        else:
            log.warning("the data folder %s is read-only: %s", self.root, self.read_only)

    def _open_folders(self) -> str | None:
        """Create the folders and prove that a lock file can be written; return why not."""
        try:
            for directory in (self.root, self.sessions_dir, self.locks_dir):
                directory.mkdir(parents=True, exist_ok=True)
            probe = self.locks_dir / STORE_LOCK_FILE
            fd = os.open(probe, os.O_WRONLY | os.O_CREAT, 0o644)
            os.close(fd)
        except OSError as exc:
            if not self.root.is_dir():
                raise  # nothing to read either: the caller says so
            return f"{exc.strerror or exc} ({exc.filename or self.root})"
        return None

    def _writable(self) -> None:
        if self.read_only is not None:
            raise ReadOnlyStore(f"saving is off: the data folder {self.root} cannot be "
                                f"written ({self.read_only})")

    # ---- locks

    def _lock_at(self, path: Path) -> BaseFileLock:
        # One lock object per file and store: reentrant within a thread, and (being
        # thread-local) exclusive between threads as well as between processes.
        key = str(path)
        with self._locks_guard:
            lock = self._locks.get(key)
            if lock is None:
                lock = self._locks[key] = FileLock(key, timeout=self._lock_timeout)
            return lock

    def session_lock(self, session_id: str) -> BaseFileLock:
        """The cross-process lock of one session; hold it to make several calls one unit."""
        self._writable()
        return self._lock_at(self.locks_dir / f"{validate_session_id(session_id)}.lock")

    def _session_path(self, session_id: str) -> Path:
        return self.sessions_dir / f"{validate_session_id(session_id)}.json"

    def _sweep_temp_files(self) -> None:
        """Remove temp files left by a writer that was killed before its rename.

        A temp file belongs to a live writer only while that writer holds the file's lock,
        so it is removed only if the lock can be taken at once.
        """
        for directory in (self.sessions_dir, self.root):
            for entry in os.scandir(directory):
                if not is_temp_name(entry.name):
                    continue
                owner = self._store_lock
                if directory == self.sessions_dir:
                    session_id = entry.name[1:].split(".json.", 1)[0]
                    try:
                        owner = self.session_lock(session_id)
                    except ValueError:
                        continue
                try:
                    with owner.acquire(timeout=0):
                        Path(entry.path).unlink(missing_ok=True)
                except Timeout:
                    pass

    # ---- quarantine: set aside, report, never rewrite

    def _quarantine(self, path: Path, reason: str, *, kind: ProblemKind = "file",
                    title: str = "", recovered: list[str] | None = None,
                    keep_original: bool = False) -> StoreProblem:
        """Move (or, with keep_original, copy) a damaged file aside with a report.

        Moving is a rename: its bytes are never rewritten. Read-only, nothing can move:
        the problem is reported all the same and the file stays where it is.
        """
        now = datetime.now(UTC)
        if self.read_only is not None:
            # Nothing can move: reported (while this store is open) where the file stands.
            problem = StoreProblem(path=str(path), moved_to=str(path), reason=reason,
                                   kind=kind, title=title, recovered=recovered or [],
                                   at=utc_iso(now.timestamp()))
            if problem.path not in {p.path for p in self._unmoved}:
                self._unmoved.append(problem)
            return problem
        self.quarantine_dir.mkdir(exist_ok=True)
        stamp = now.strftime("%Y%m%dT%H%M%S%fZ")
        target = self.quarantine_dir / f"{path.name}.{stamp}.corrupt"
        n = 1
        while target.exists():
            target = self.quarantine_dir / f"{path.name}.{stamp}-{n}.corrupt"
            n += 1
        problem = StoreProblem(path=str(path), moved_to=str(target), reason=reason,
                               kind=kind, id=target.name, title=title,
                               recovered=recovered or [], at=utc_iso(now.timestamp()))
        # The report first: a kill after it and before the move leaves a report of a
        # file not there yet, which `problems` skips; never a moved file without a report.
        atomic_write_bytes(self.quarantine_dir / f"{target.name}{REPORT_SUFFIX}",
                           problem.model_dump_json().encode("utf-8"))
        if keep_original:
            atomic_write_bytes(target, path.read_bytes())
        else:
            os.replace(path, target)
            fsync_dir(path.parent)
        fsync_dir(self.quarantine_dir)
        self._cache.discard(str(path))
        log.warning("store file %s (%s) set aside as %s", path, reason, target)
        return problem

    def _quarantine_session_if_free(self, session_id: str, path: Path) -> None:
        """Quarantine a session file found corrupt while holding the store lock.

        Only tries the session lock (see module doc on lock order), and re-reads the file
        under it: someone may have quarantined and re-created it meanwhile.
        """
        if self.read_only is not None:
            return
        try:
            with self.session_lock(session_id).acquire(timeout=0):
                try:
                    self._read_session_tables(session_id, path)
                except CorruptFileError as exc:
                    self._quarantine(path, exc.reason)
                except (UnsupportedSchema, SessionNotFound):
                    pass  # Not corrupt (or gone): not ours to judge.
        except Timeout:
            pass  # In use right now; whoever opens it next will quarantine it.

    def quarantine(self, session_id: str, reason: str) -> StoreProblem:
        """A game whose file is sound but whose events its engine cannot fold."""
        path = self._session_path(session_id)
        title = ""
        with contextlib.suppress(Exception):
            title = str(_meta_doc(AtomicJSONStorage(path).read() or {}).get("title", ""))
        if self.read_only is not None:
            return self._quarantine(path, reason, kind="game", title=title)
        with self.session_lock(session_id):
            if not path.exists():
                raise SessionNotFound(session_id)
            return self._quarantine(path, reason, kind="game", title=title)

    def problems(self) -> list[StoreProblem]:
        found = [problem.model_copy() for problem in self._unmoved]
        if not self.quarantine_dir.is_dir():
            return found
        for entry in os.scandir(self.quarantine_dir):
            if not entry.name.endswith(".corrupt"):
                continue
            report = self.quarantine_dir / f"{entry.name}{REPORT_SUFFIX}"
            try:
                problem = StoreProblem.model_validate_json(report.read_bytes())
                problem = problem.model_copy(update={"id": entry.name,
                                                     "moved_to": entry.path})
            except (OSError, ValueError):
                # Set aside by an older version (no report): say what we know.
                original = entry.name.split(".json.", 1)[0] + ".json"
                problem = StoreProblem(path=original, moved_to=entry.path,
                                       reason="could not be read", id=entry.name,
                                       at=utc_iso(entry.stat().st_mtime))
            found.append(problem)
        found.sort(key=lambda p: (p.at, p.id), reverse=True)
        return found

    def _problem_path(self, problem_id: str) -> Path:
        if (not isinstance(problem_id, str) or not problem_id.endswith(".corrupt")
                or "/" in problem_id or "\\" in problem_id or problem_id.startswith(".")):
            raise ValueError(f"invalid problem id {problem_id!r}")
        path = self.quarantine_dir / problem_id
        if not path.is_file():
            raise KeyError(problem_id)
        return path

    def problem_bytes(self, problem_id: str) -> bytes:
        return self._problem_path(problem_id).read_bytes()

    def discard_problem(self, problem_id: str) -> None:
        self._writable()
        path = self._problem_path(problem_id)
        with self._store_lock:
            path.unlink(missing_ok=True)
            (self.quarantine_dir / f"{problem_id}{REPORT_SUFFIX}").unlink(missing_ok=True)
            fsync_dir(self.quarantine_dir)

    # ---- one session file

    def _read_session_tables(self, session_id: str,
                             path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
        """The session's tables at the current schema, in memory (nothing written), and
        the tables as read (the same object unless a migration was needed).
        SessionNotFound, CorruptFileError or UnsupportedSchema otherwise."""
        tables = AtomicJSONStorage(path, self._cache).read()
        if tables is None:
            raise SessionNotFound(session_id)
        migrated, _ = migrate_tables(tables, path)
        check_session_tables(migrated, session_id, path)
        return migrated, tables

    def _read_checked(self, session_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """Read a session for `load`; a damaged file is quarantined and reported."""
        path = self._session_path(session_id)
        try:
            return self._read_session_tables(session_id, path)
        except CorruptFileError as exc:
            if self.read_only is not None:
                raise CorruptSession(self._quarantine(path, exc.reason)) from exc
            with self.session_lock(session_id):
                try:  # again under the lock: a writer may just have replaced it
                    return self._read_session_tables(session_id, path)
                except CorruptFileError as again:
                    raise CorruptSession(self._quarantine(path, again.reason)) from again

    @contextmanager
    def _session(self, session_id: str, expected: int | None) -> Iterator[TinyDB]:
        """Open a session for writing under its lock, migrated to the current schema,
        after checking that it is still at `expected` (when given).

        Table changes made through the yielded TinyDB are written in one atomic replace,
        with the meta's version bumped, when the block ends normally; dropped if it raises.
        """
        path = self._session_path(session_id)
        with self.session_lock(session_id):
            db = TinyDB(path, storage=_Batch(AtomicJSONStorage), cache=self._cache)
            batch = cast(_Batch, db.storage)
            try:
                try:
                    tables = batch.read()
                    if tables is None:
                        raise SessionNotFound(session_id)
                    migrated, changed = migrate_tables(tables, path)
                    check_session_tables(migrated, session_id, path)
                except CorruptFileError as exc:
                    raise CorruptSession(self._quarantine(path, exc.reason)) from exc
                if changed:
                    batch.cache = migrated  # written with this operation's changes
                meta = _meta_doc(migrated)
                if expected is not None and meta["version"] != expected:
                    raise StaleWrite(session_id, expected, meta["version"])
                yield db
                tables = cast(dict[str, Any], batch.cache)
                meta = _meta_doc(tables)
                meta["version"] += 1
                meta["updated_at"] = utc_iso()
                batch.storage.write(tables)  # the one atomic replace of this operation
            except BaseException:
                # The cached dict may hold changes that never reached the disk.
                self._cache.discard(str(path))
                raise

    def _scan_sessions(self) -> dict[str, os.stat_result]:
        found: dict[str, os.stat_result] = {}
        if not self.sessions_dir.is_dir():
            return found
        for entry in os.scandir(self.sessions_dir):
            name = entry.name
            if not name.endswith(".json") or is_temp_name(name):
                continue
            try:
                session_id = validate_session_id(name[:-len(".json")])
                found[session_id] = entry.stat()
            except (ValueError, FileNotFoundError):
                continue
        return found

    def _index_entry(self, session_id: str, stat: os.stat_result) -> dict[str, Any] | None:
        """A fresh index entry from the session file itself (None: not listable)."""
        path = self.sessions_dir / f"{session_id}.json"
        try:
            try:
                tables, _ = self._read_session_tables(session_id, path)
            except UnsupportedSchema:
                # Newer file: list it from its meta if that still looks familiar.
                tables = AtomicJSONStorage(path).read() or {}
            info = _info_from_meta(_meta_doc(tables))
        except CorruptFileError:
            self._quarantine_session_if_free(session_id, path)
            return None
        except SessionNotFound:
            return None
        except (OSError, ValueError, KeyError, TypeError, ValidationError) as exc:
            log.warning("cannot list session file %s: %s", path, exc)
            return None
        return {**info.model_dump(mode="json"), "stamp": _stamp(stat)}

    # ---- index (a cache) and settings

    def _read_table_file(self, path: Path, table_name: str, check: Callable[[Any], None],
                         ) -> tuple[dict[str, Any] | None, Exception | None]:
        """(tables, None) for a sound file or None when missing; (None, why) if damaged."""
        try:
            tables = AtomicJSONStorage(path, self._cache).read()
            if tables is not None:
                _check_table_file(tables, table_name, check)
            return tables, None
        except (CorruptFileError, ValidationError, ValueError, TypeError,
                AttributeError) as exc:
            self._cache.discard(str(path))
            return None, exc

    def _write_tables(self, path: Path, tables: Tables) -> None:
        AtomicJSONStorage(path, self._cache).write(tables)

    def list_sessions(self) -> list[SessionInfo]:
        on_disk = self._scan_sessions()
        tables, damage = self._read_table_file(self.index_path, INDEX_TABLE,
                                               _check_index_entry)
        cached: dict[str, dict[str, Any]] = {}
        for doc in (tables or {}).get(INDEX_TABLE, {}).values():
            cached[doc["id"]] = doc
        entries: list[dict[str, Any]] = []
        dirty = damage is not None or tables is None or cached.keys() - on_disk.keys()
        for session_id, stat in on_disk.items():
            entry = cached.get(session_id)
            if entry is None or entry.get("stamp") != _stamp(stat):
                # New, changed since it was indexed, or never indexed: read the file.
                entry = self._index_entry(session_id, stat)
                dirty = True
            if entry is not None:
                entries.append(entry)
        if dirty and self.read_only is None:
            with self._store_lock:
                if damage is not None and self.index_path.exists():
                    self._quarantine(self.index_path, _one_line(damage), kind="index")
                self._write_tables(self.index_path, index_tables(
                    sorted(entries, key=lambda e: str(e["id"]))))
        infos = [SessionInfo.model_validate(
            {k: v for k, v in entry.items() if k != "stamp"}) for entry in entries]
        infos.sort(key=lambda i: (iso_to_ts(i.updated_at), i.created_at, i.id), reverse=True)
        return infos

    def _settings_docs(self) -> dict[str, Any]:
        """Every setting; a damaged settings file is set aside once, reported with the
        keys recovered from it, and replaced by what could be recovered."""
        tables, damage = self._read_table_file(self.settings_path, SETTINGS_TABLE,
                                               _check_setting)
        if damage is None:
            return {doc["key"]: doc["value"]
                    for doc in (tables or {}).get(SETTINGS_TABLE, {}).values()}
        raw = b""
        with contextlib.suppress(OSError):
            raw = self.settings_path.read_bytes()
        recovered = recover_settings(raw)
        if self.read_only is None:
            with self._store_lock:
                # Again under the lock: another thread or process may have repaired it.
                tables, damage = self._read_table_file(self.settings_path, SETTINGS_TABLE,
                                                       _check_setting)
                if damage is None:
                    return self._settings_docs()
                self._quarantine(self.settings_path, _one_line(damage), kind="settings",
                                 recovered=sorted(recovered), keep_original=True)
                self._write_settings(recovered)
        else:
            self._quarantine(self.settings_path, _one_line(damage), kind="settings",
                             recovered=sorted(recovered))
        return recovered

    def _write_settings(self, values: dict[str, Any]) -> None:
        self._write_tables(self.settings_path, {SETTINGS_TABLE: {
            str(i): {"key": key, "value": value}
            for i, (key, value) in enumerate(sorted(values.items()), 1)}})

    # ---- SessionStore

    def create(self, session_id: str, game: str, title: str, header: dict[str, Any],
               events: list[dict[str, Any]] | None = None, *, finished: bool = False,
               summary: dict[str, Any] | None = None) -> int:
        self._writable()
        path = self._session_path(session_id)
        fields = info_fields(title=title, finished=finished, summary=summary or {},
                             header=header)
        docs = _json_docs(events or [], "events")
        if not isinstance(game, str):
            raise TypeError("game must be a string")
        meta = session_meta(session_id, game, fields["title"], fields["header"], utc_iso(),
                            finished=fields["finished"], summary=fields["summary"])
        with self.session_lock(session_id):
            # Also refuses a corrupt file of that name: it is never overwritten.
            if path.exists():
                raise SessionExists(f"session {session_id!r} already exists")
            # The whole game in one atomic write: header, first events, summary.
            self._write_tables(path, session_file_tables(meta, docs, []))
        return int(meta["version"])

    def _persist_migration(self, session_id: str, migrated: dict[str, Any],
                           raw: dict[str, Any]) -> None:
        """Write a file migrated to the current schema back (version unchanged), so the
        migration runs once. Read-only, it runs in memory at every open instead."""
        path = self._session_path(session_id)
        with self.session_lock(session_id):
            current = AtomicJSONStorage(path, self._cache).read()
            if current is not raw and current != raw:
                return  # changed meanwhile (its writer migrated it); the next open will see
            self._write_tables(path, clone_json(migrated))
            log.info("migrated %s to store schema %s", path, STORE_SCHEMA)

    def load(self, session_id: str) -> StoredSession:
        tables, raw = self._read_checked(session_id)
        if tables is not raw and self.read_only is None:
            self._persist_migration(session_id, tables, raw)
        meta = _meta_doc(tables)
        # Copies: the parsed data stays cached and must not be changed by callers.
        return StoredSession(
            id=session_id, header=clone_json(meta["header"]),
            events=clone_json(_ordered(tables.get(EVENTS, {}))),
            redo=clone_json(_ordered(tables.get(REDO, {}))),
            version=meta["version"], title=meta["title"], finished=meta["finished"],
            summary=clone_json(meta["summary"]))

    def _write(self, session_id: str, expected: int | None, fields: dict[str, Any],
               change: Callable[[TinyDB], None]) -> int:
        self._writable()
        with self._session(session_id, expected) as db:
            change(db)
            if fields:
                meta_table = db.table(META)
                meta_table.update(merged_info(dict(meta_table.all()[0]), fields))
            return cast(int, db.table(META).all()[0]["version"]) + 1

    def append(self, session_id: str, events: list[dict[str, Any]], *,
               expected: int | None = None, finished: bool | None = None,
               summary: dict[str, Any] | None = None,
               header: dict[str, Any] | None = None) -> int:
        docs = _json_docs(events, "events")
        fields = info_fields(title=None, finished=finished, summary=summary, header=header)

        def change(db: TinyDB) -> None:
            if docs:
                db.table(EVENTS).insert_multiple(docs)
            redo = db.table(REDO)
            if len(redo):
                redo.truncate()

        return self._write(session_id, expected, fields, change)

    def replace_log(self, session_id: str, events: list[dict[str, Any]],
                    redo: list[dict[str, Any]], *, expected: int | None = None,
                    finished: bool | None = None, summary: dict[str, Any] | None = None,
                    header: dict[str, Any] | None = None) -> int:
        event_docs = _json_docs(events, "events")
        redo_docs = _json_docs(redo, "redo")
        fields = info_fields(title=None, finished=finished, summary=summary, header=header)

        def change(db: TinyDB) -> None:
            for name, docs in ((EVENTS, event_docs), (REDO, redo_docs)):
                table = db.table(name)
                table.truncate()
                if docs:
                    table.insert_multiple(docs)

        return self._write(session_id, expected, fields, change)

    def update_info(self, session_id: str, *, title: str | None = None,
                    finished: bool | None = None,
                    summary: dict[str, Any] | None = None,
                    header: dict[str, Any] | None = None,
                    expected: int | None = None) -> int:
        fields = info_fields(title=title, finished=finished, summary=summary, header=header)
        if not fields:  # nothing to change: nothing written, not even the version
            return checked_version(session_id, self.load(session_id).version, expected)
        return self._write(session_id, expected, fields, lambda db: None)

    def delete(self, session_id: str) -> None:
        self._writable()
        path = self._session_path(session_id)
        with self.session_lock(session_id):
            existed = path.exists()
            if existed:
                crashpoints.reached("before-unlink")
                path.unlink()
                crashpoints.reached("unlinked")
                fsync_dir(self.sessions_dir)
            self._cache.discard(str(path))
        # Per-game keys of store schema 1 go with the game. (The index entry is dropped
        # by the next listing: it is only a cache.)
        prefix = LEGACY_SESSION_KEY.format(id=session_id)
        stale = [key for key in self._settings_docs() if key.startswith(prefix)]
        for key in stale:
            self.delete_setting(key)
        if not existed:
            raise SessionNotFound(session_id)

    def get_setting(self, key: str, default: Any = None) -> Any:
        values = self._settings_docs()
        if key not in values:
            return default
        return clone_json(values[key])

    def _change_settings(self, change: Callable[[dict[str, Any]], None]) -> None:
        self._writable()
        self._settings_docs()  # a damaged file is set aside and reported first
        with self._store_lock:
            values = self._settings_docs()
            change(values)
            self._write_settings(values)

    def set_setting(self, key: str, value: Any) -> None:
        if not isinstance(key, str):
            raise TypeError("setting keys are strings")
        value = clone_json(value)
        self._change_settings(lambda values: values.__setitem__(key, value))

    def delete_setting(self, key: str) -> None:
        self._change_settings(lambda values: values.pop(key, None))


def is_read_only_error(exc: BaseException) -> bool:
    """An OSError that means the folder cannot be written (rather than a bad file)."""
    return isinstance(exc, OSError) and exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM)


def dump_for_export(problem: StoreProblem, raw: bytes) -> str:
    """A quarantined file as text a user can save, with its report first."""
    return json.dumps(problem.model_dump(mode="json"), ensure_ascii=False, indent=2) + \
        "\n\n" + raw.decode("utf-8", errors="replace")
