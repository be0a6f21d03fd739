"""The on-disk session store: one TinyDB file per session, plus an index and settings.

Layout under the data directory::

    sessions/<id>.json   one session: tables meta (1 doc), events (1 doc per event), redo
    index.json           one SessionInfo per session, for the Home screen
    settings.json        key/value settings
    locks/               filelock files (one per session, one for index + settings)
    quarantine/          corrupt files moved aside, never rewritten

Costs: `append` reads and rewrites only its own session file (never the index, never a
directory listing), so saving an event costs the same with 1,000 stored sessions as with 0.
The index is written only by create / update_info / delete; `list_sessions` takes each
session's updated_at from its file's mtime (a stat), so it stays right without per-event
index writes.

Concurrency: every file is changed only under its `filelock` lock. The only nesting ever
taken while blocking is "session lock, then store lock"; code holding the store lock only
*tries* a session lock (timeout 0), so two processes cannot deadlock.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from filelock import BaseFileLock, FileLock, Timeout
from pydantic import ValidationError
from tinydb import Query, TinyDB
from tinydb.middlewares import CachingMiddleware
from tinydb.table import Table

from companion.store.atomic import (
    AtomicJSONStorage,
    CorruptFileError,
    ReadCache,
    Tables,
    fsync_dir,
    is_temp_name,
)
from companion.store.base import (
    STORE_SCHEMA,
    CorruptSession,
    SessionExists,
    SessionInfo,
    SessionNotFound,
    StoredSession,
    StoreProblem,
    UnsupportedSchema,
    clone_json,
    info_fields,
    iso_to_ts,
    utc_iso,
    validate_session_id,
)

log = logging.getLogger(__name__)

Migration = Callable[[dict[str, Any]], dict[str, Any]]

#: Upgrades of a session file's raw tables, version n -> n+1. To change the file format,
#: raise STORE_SCHEMA in base.py and register the step from the previous version here.
#: A step receives a private deep copy and returns the new tables; the store then sets
#: meta.schema to n+1 and writes the result atomically.
MIGRATIONS: dict[int, Migration] = {}

SESSIONS_DIR = "sessions"
LOCKS_DIR = "locks"
QUARANTINE_DIR = "quarantine"
INDEX_FILE = "index.json"
SETTINGS_FILE = "settings.json"
STORE_LOCK_FILE = "store.lock"  # guards index.json and settings.json

META, EVENTS, REDO = "meta", "events", "redo"
INDEX_TABLE = "sessions"
SETTINGS_TABLE = "settings"

_META_FIELDS: dict[str, type | tuple[type, ...]] = {
    "id": str, "game": str, "title": str, "created_at": str, "header": dict,
}


class _Batch(CachingMiddleware):
    """Hold every table change of one store operation in memory; `flush` writes them once.

    An operation touching two tables (append events + clear redo) thus becomes a single
    atomic file replace. The threshold is infinite so nothing is written half-way.
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
                 created_at: str) -> dict[str, Any]:
    return {"schema": STORE_SCHEMA, "id": session_id, "game": game, "title": title,
            "created_at": created_at, "finished": False, "summary": {}, "header": header}


def index_tables(infos: list[SessionInfo]) -> Tables:
    """The raw tables of index.json."""
    return {INDEX_TABLE: {str(i): info.model_dump(mode="json")
                          for i, info in enumerate(infos, 1)}}


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
        migrated = step(migrated)
        version += 1
        try:
            _meta_doc(migrated)["schema"] = version
        except ValueError as exc:
            raise RuntimeError(f"migration {version - 1}->{version} broke meta: {exc}") from exc
    return migrated, True


def check_session_tables(tables: dict[str, Any], session_id: str, path: Path) -> None:
    """Raise CorruptFileError unless `tables` has the current session layout."""
    try:
        meta = _meta_doc(tables)
    except ValueError as exc:
        raise CorruptFileError(path, str(exc)) from exc
    for field, kind in _META_FIELDS.items():
        if not isinstance(meta.get(field), kind):
            raise CorruptFileError(path, f"meta.{field} missing or of the wrong type")
    if meta["id"] != session_id:
        raise CorruptFileError(path, f"meta.id is {meta['id']!r}, expected {session_id!r}")
    for name in (EVENTS, REDO):
        table = tables.get(name, {})
        if not isinstance(table, dict) or not all(
                isinstance(doc, dict) and key.isdigit() for key, doc in table.items()):
            raise CorruptFileError(path, f"table {name!r} is not a table of documents")


def _info_from_meta(meta: dict[str, Any], updated_at: str) -> SessionInfo:
    return SessionInfo(
        id=meta["id"], game=meta["game"], title=meta["title"], created_at=meta["created_at"],
        updated_at=updated_at, finished=bool(meta.get("finished", False)),
        summary=meta.get("summary") or {},
    )


def _json_docs(value: Any, what: str) -> list[dict[str, Any]]:
    docs = clone_json(value)
    if not isinstance(docs, list) or not all(isinstance(doc, dict) for doc in docs):
        raise TypeError(f"{what} must be a list of JSON objects")
    return cast(list[dict[str, Any]], docs)


def _ordered(table: Table) -> list[dict[str, Any]]:
    """Documents in doc-id order, i.e. the order they were stored in."""
    return [dict(doc) for doc in sorted(table.all(), key=lambda doc: doc.doc_id)]


# --------------------------------------------------------------------------- the store


class TinyDBStore:
    """SessionStore on TinyDB files. Safe across threads and processes (see module doc)."""

    def __init__(self, data_dir: Path, *, lock_timeout: float = 30.0,
                 cache_size: int = 8) -> None:
        self.root = Path(data_dir)
        self.sessions_dir = self.root / SESSIONS_DIR
        self.locks_dir = self.root / LOCKS_DIR
        self.quarantine_dir = self.root / QUARANTINE_DIR
        for directory in (self.root, self.sessions_dir, self.locks_dir):
            directory.mkdir(parents=True, exist_ok=True)
        self.index_path = self.root / INDEX_FILE
        self.settings_path = self.root / SETTINGS_FILE
        self._lock_timeout = lock_timeout
        # Parsed copies of the few most recently used files; validated by revision token.
        self._cache = ReadCache(cache_size)
        self._locks: dict[str, BaseFileLock] = {}
        self._locks_guard = threading.Lock()
        self._problems: list[StoreProblem] = []
        self._store_lock = self._lock_at(self.locks_dir / STORE_LOCK_FILE)
        self._sweep_temp_files()

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

    # ---- quarantine

    def _quarantine(self, path: Path, reason: str) -> StoreProblem:
        """Move a corrupt file aside (a rename: its bytes are never rewritten)."""
        self.quarantine_dir.mkdir(exist_ok=True)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
        target = self.quarantine_dir / f"{path.name}.{stamp}.corrupt"
        n = 1
        while target.exists():
            target = self.quarantine_dir / f"{path.name}.{stamp}-{n}.corrupt"
            n += 1
        os.replace(path, target)
        fsync_dir(self.quarantine_dir)
        fsync_dir(path.parent)
        self._cache.discard(str(path))
        problem = StoreProblem(path=str(path), moved_to=str(target), reason=reason)
        self._problems.append(problem)
        log.warning("corrupt store file %s (%s) moved to %s", path, reason, target)
        return problem

    def _quarantine_session_if_free(self, session_id: str, path: Path) -> None:
        """Quarantine a session file found corrupt while holding the store lock.

        Only tries the session lock (see module doc on lock order), and re-reads the file
        under it: someone may have quarantined and re-created it meanwhile.
        """
        try:
            with self.session_lock(session_id).acquire(timeout=0):
                try:
                    tables = AtomicJSONStorage(path).read()
                    if tables is not None:
                        migrated, _ = migrate_tables(tables, path)  # in memory only
                        check_session_tables(migrated, session_id, path)
                except CorruptFileError as exc:
                    self._quarantine(path, exc.reason)
                except UnsupportedSchema:
                    pass  # Not corrupt, just not ours to judge: leave it alone.
        except Timeout:
            pass  # In use right now; whoever opens it next will quarantine it.

    # ---- one session file

    @contextmanager
    def _session(self, session_id: str) -> Iterator[TinyDB]:
        """Open a session under its lock, migrated to the current schema.

        Table changes made through the yielded TinyDB are written in one atomic replace
        when the block ends normally, and dropped if it raises.
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
                    batch.write(migrated)
                    batch.flush()
                    log.info("migrated %s to store schema %s", path, STORE_SCHEMA)
                yield db
                batch.flush()
            except BaseException:
                # The cached dict may hold changes that never reached the disk.
                self._cache.discard(str(path))
                raise

    def _info_from_file(self, session_id: str, path: Path) -> SessionInfo | None:
        """Read a session's SessionInfo for the index without locking or writing it."""
        try:
            tables = AtomicJSONStorage(path).read()
            if tables is None:
                return None
            try:
                tables, _ = migrate_tables(tables, path)  # in memory only
                check_session_tables(tables, session_id, path)
            except UnsupportedSchema:
                pass  # Newer file: list it from its meta if that still looks familiar.
            meta = _meta_doc(tables)
            return _info_from_meta(meta, utc_iso(path.stat().st_mtime))
        except CorruptFileError:
            self._quarantine_session_if_free(session_id, path)
        except (OSError, ValueError, KeyError, TypeError, ValidationError) as exc:
            log.warning("cannot list session file %s: %s", path, exc)
        return None

    def _scan_sessions(self) -> dict[str, os.stat_result]:
        found: dict[str, os.stat_result] = {}
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

    # ---- index and settings

    @contextmanager
    def _store_table(self, path: Path, table_name: str,
                     check: Callable[[dict[str, Any]], None],
                     rebuild: Callable[[], Tables] | None) -> Iterator[Table]:
        """Open index.json or settings.json under the store lock (same contract as _session).

        A corrupt file is quarantined; then (as for a missing file) `rebuild`, if given,
        provides the content, else the table starts empty.
        """
        with self._store_lock:
            db = TinyDB(path, storage=_Batch(AtomicJSONStorage), cache=self._cache)
            batch = cast(_Batch, db.storage)
            try:
                try:
                    tables = batch.read()
                    if tables is not None:
                        for key, doc in tables.get(table_name, {}).items():
                            if not key.isdigit():
                                raise ValueError(f"document id {key!r} is not a number")
                            check(doc)
                except (CorruptFileError, ValidationError, ValueError, TypeError,
                        AttributeError) as exc:
                    reason = exc.reason if isinstance(exc, CorruptFileError) else (
                        f"unexpected content ({type(exc).__name__}: {exc})".splitlines()[0])
                    self._quarantine(path, reason)
                    tables = batch.cache = None  # forget what the middleware read
                if tables is None and rebuild is not None:
                    batch.write(rebuild())
                    batch.flush()
                yield db.table(table_name)
                batch.flush()
            except BaseException:
                self._cache.discard(str(path))
                raise

    def _index(self) -> AbstractContextManager[Table]:
        def check(doc: dict[str, Any]) -> None:
            info = SessionInfo.model_validate(doc)
            iso_to_ts(info.updated_at)  # list_sessions compares these
        return self._store_table(self.index_path, INDEX_TABLE, check, self._rebuild_index)

    def _settings(self) -> AbstractContextManager[Table]:
        def check(doc: dict[str, Any]) -> None:
            if not isinstance(doc, dict) or not isinstance(doc.get("key"), str) \
                    or "value" not in doc:
                raise ValueError("setting is not a {key, value} object")
        return self._store_table(self.settings_path, SETTINGS_TABLE, check, None)

    def _rebuild_index(self) -> Tables:
        """Index content rebuilt from every session file's meta (index missing or corrupt)."""
        infos = [info for session_id in sorted(self._scan_sessions())
                 if (info := self._info_from_file(
                     session_id, self.sessions_dir / f"{session_id}.json")) is not None]
        log.info("rebuilt %s from %d session files", self.index_path, len(infos))
        return index_tables(infos)

    def _index_put(self, info: SessionInfo) -> None:
        with self._index() as table:
            table.upsert(info.model_dump(mode="json"), Query().id == info.id)

    # ---- SessionStore

    def create(self, session_id: str, game: str, title: str,
               header: dict[str, Any]) -> None:
        path = self._session_path(session_id)
        header = clone_json(header)
        if not isinstance(header, dict):
            raise TypeError("header must be a JSON object")
        if not isinstance(game, str) or not isinstance(title, str):
            raise TypeError("game and title must be strings")
        now = utc_iso()
        meta = session_meta(session_id, game, title, header, now)
        with self.session_lock(session_id):
            # Also refuses a corrupt file of that name: it is never overwritten.
            if path.exists():
                raise SessionExists(f"session {session_id!r} already exists")
            AtomicJSONStorage(path, self._cache).write(session_file_tables(meta, [], []))
            # Index written under the session lock so concurrent updates of one session
            # reach the index in the same order as the file.
            self._index_put(_info_from_meta(meta, now))

    def load(self, session_id: str) -> StoredSession:
        with self._session(session_id) as db:
            meta = dict(db.table(META).all()[0])
            events = _ordered(db.table(EVENTS))
            redo = _ordered(db.table(REDO))
            # Copies: the parsed data stays cached and must not be changed by callers.
            return StoredSession(id=session_id, header=clone_json(meta["header"]),
                                 events=clone_json(events), redo=clone_json(redo))

    def append(self, session_id: str, events: list[dict[str, Any]]) -> None:
        docs = _json_docs(events, "events")
        with self._session(session_id) as db:
            if docs:
                db.table(EVENTS).insert_multiple(docs)
            redo = db.table(REDO)
            if len(redo):
                redo.truncate()

    def replace_log(self, session_id: str, events: list[dict[str, Any]],
                    redo: list[dict[str, Any]]) -> None:
        event_docs = _json_docs(events, "events")
        redo_docs = _json_docs(redo, "redo")
        with self._session(session_id) as db:
            for name, docs in ((EVENTS, event_docs), (REDO, redo_docs)):
                table = db.table(name)
                table.truncate()
                if docs:
                    table.insert_multiple(docs)

    def update_info(self, session_id: str, *, title: str | None = None,
                    finished: bool | None = None,
                    summary: dict[str, Any] | None = None) -> None:
        fields = info_fields(title=title, finished=finished, summary=summary)
        with self.session_lock(session_id):
            with self._session(session_id) as db:
                meta_table = db.table(META)
                if fields:
                    meta_table.update(fields)
                meta = dict(meta_table.all()[0])
            if fields:
                self._index_put(_info_from_meta(meta, utc_iso()))

    def list_sessions(self) -> list[SessionInfo]:
        with self._index() as table:
            infos: dict[str, SessionInfo] = {}
            for doc in table.all():
                infos[doc["id"]] = SessionInfo.model_validate(doc)
            on_disk = self._scan_sessions()
            # Self-repair: an entry whose file is gone (quarantined, deleted by hand), and
            # a file without an entry (crash between writing it and the index).
            gone = [session_id for session_id in infos if session_id not in on_disk]
            if gone:
                table.remove(Query().id.one_of(gone))
            for session_id in on_disk.keys() - infos.keys():
                info = self._info_from_file(session_id,
                                            self.sessions_dir / f"{session_id}.json")
                if info is not None:
                    table.insert(info.model_dump(mode="json"))
                    infos[session_id] = info
            listed: list[tuple[float, SessionInfo]] = []
            for session_id, info in infos.items():
                stat = on_disk.get(session_id)
                if stat is None:
                    continue
                if stat.st_size == 0:  # the classic crash artifact; cheap to spot here
                    self._quarantine_session_if_free(
                        session_id, self.sessions_dir / f"{session_id}.json")
                    continue
                updated = max(iso_to_ts(info.updated_at), stat.st_mtime)
                listed.append((updated, info.model_copy(update={"updated_at": utc_iso(updated)})))
        listed.sort(key=lambda item: (item[0], item[1].created_at, item[1].id), reverse=True)
        return [info for _, info in listed]

    def delete(self, session_id: str) -> None:
        path = self._session_path(session_id)
        with self.session_lock(session_id):
            existed = path.exists()
            if existed:
                path.unlink()
                fsync_dir(self.sessions_dir)
            self._cache.discard(str(path))
            with self._index() as table:
                removed = table.remove(Query().id == session_id)
        if not existed and not removed:
            raise SessionNotFound(session_id)

    def get_setting(self, key: str, default: Any = None) -> Any:
        with self._settings() as table:
            doc = table.get(Query().key == key)
        if doc is None:
            return default
        return clone_json(cast(dict[str, Any], doc)["value"])

    def set_setting(self, key: str, value: Any) -> None:
        if not isinstance(key, str):
            raise TypeError("setting keys are strings")
        value = clone_json(value)
        with self._settings() as table:
            table.upsert({"key": key, "value": value}, Query().key == key)

    def problems(self) -> list[StoreProblem]:
        return [problem.model_copy() for problem in self._problems]
