"""The on-disk session store: one TinyDB file per game, holding everything about it.

Layout under the data directory::

    sessions/<id>.json   one game, one atomic unit: table meta (1 doc: title, finished,
                         summary, version, updated_at, header), events (1 doc per event), redo
    index.json           a cache of what Home lists, one entry per game with the stamp
                         (size, mtime, inode) of the file it summarises; rebuilt at will
    settings.json        key/value settings (app-wide only: nothing per game)
    locks/               lock files (one per session, one for index + settings; locks.py)
    quarantine/          files set aside (never rewritten) and a `.why.json` report each
    trash/               games the user deleted, moved here whole (`<id>.json.<when>.deleted`)
                         so Undo can put them back exactly; purged after TRASH_KEEP_DAYS

Writes: every change of a game (create, append, undo, finish, preferences) is one atomic
replace of its file (temp file, fsync, rename, fsync of the folder), made under the game's
lock after checking the `expected` version it extends. A kill can cost at most the write
in flight. Saving an event into a game this store wrote last (every save of a game in
play) neither encodes the whole file nor copies it through TinyDB: the cached text of its
tables is extended by the new events (`_append_known`), giving the same bytes. Nothing
else is written per action: saving an event costs the same with 10,000 stored games as
with none. `list_sessions` compares each file's stamp with its index entry and re-reads
only the files that changed, so the index can never disagree for long; with none
changed since its last listing it gives the same games again (no validation, no sort).
Each index entry notes its file's store schema: a file checked whole at the current one
is known sound while its stamp stays, and a backup takes its bytes (`session_json`).

Reads take no lock (a reader sees the old or the new file, never a mix), so a read-only
data folder still lists and opens every game; its writes raise ReadOnlyStore.

Concurrency: the only nesting ever taken while blocking is "session lock, then store lock";
code holding the store lock only *tries* a session lock (timeout 0), so two processes
cannot deadlock.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from operator import attrgetter
from pathlib import Path
from typing import Any, cast

from filelock import Timeout
from pydantic import ValidationError
from pydantic_core import to_json
from tinydb import TinyDB
from tinydb.middlewares import CachingMiddleware

from companion.core.json_types import JsonObject
from companion.store import crashpoints
from companion.store.atomic import (
    AtomicJSONStorage,
    CachedFile,
    CorruptFileError,
    ReadCache,
    Tables,
    encode_json,
    fsync_dir,
    is_temp_name,
)
from companion.store.base import (
    STORE_SCHEMA,
    TRASH_KEEP_DAYS,
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
from companion.store.locks import StoreLock
from companion.store.quarantine import Quarantine
from companion.store.session_file import (
    EVENTS,
    INDEX_TABLE,
    META,
    MIGRATIONS,
    REDO,
    SETTINGS_TABLE,
    appended_tables,
    check_index_entry,
    check_session_tables,
    check_setting,
    check_table_file,
    index_infos,
    index_tables,
    info_from_meta,
    json_docs,
    json_docs_and_texts,
    meta_doc,
    migrate_tables,
    next_doc_id,
    one_line,
    ordered,
    session_file_tables,
    session_meta,
    stamp,
)
from companion.store.settings_recovery import recover_settings

Stamp = tuple[int, int, int]  # (size, mtime_ns, inode) of one game file

__all__ = ["MIGRATIONS", "TinyDBStore", "index_tables", "session_file_tables", "session_meta"]

log = logging.getLogger(__name__)

SESSIONS_DIR = "sessions"
LOCKS_DIR = "locks"
QUARANTINE_DIR = "quarantine"
TRASH_DIR = "trash"
TRASH_SUFFIX = ".deleted"
# `<session id>.json.<UTC stamp>[-n].deleted`: the id restore takes, and where it goes back.
_TRASH_NAME = re.compile(r"([A-Za-z0-9_-]{1,64})\.json\.(\d{8}T\d{12}Z)(?:-\d+)?"
                         + re.escape(TRASH_SUFFIX))
#: A game's file in sessions/: its session id (validate_session_id) and .json.
_GAME_FILE = re.compile(r"([A-Za-z0-9_-]{1,64})\.json")
INDEX_FILE = "index.json"
SETTINGS_FILE = "settings.json"
STORE_LOCK_FILE = "store.lock"  # guards index.json and settings.json

# A per-game setting key of store schema 1 (moved into the game's header since).
LEGACY_SESSION_KEY = "session:{id}:"


class _Batch(CachingMiddleware):
    """Hold every table change of one store operation in memory; `flush` writes them once.

    An operation touching three tables (append events, clear redo, update meta) thus
    becomes a single atomic file replace. The threshold is infinite so nothing is written
    half-way.
    """

    WRITE_CACHE_SIZE = sys.maxsize


def _read_if_stamped(path: Path, known: list[int]) -> str | None:
    """The text of the file at `path` if it is still the one stamped `known` (size, mtime,
    inode: the stamp of the file as opened) and a JSON object's text as it is (no BOM,
    no blanks around it); None otherwise (changed, gone, unreadable)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        status = os.fstat(fd)
        if stamp(status) != known:
            return None
        chunks, left = [], status.st_size
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                return None  # shorter than its stamp says: changed meanwhile
            chunks.append(chunk)
            left -= len(chunk)
        text = b"".join(chunks).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    finally:
        os.close(fd)
    return text if text[:1] == "{" and text[-1:] == "}" else None


_RANK = attrgetter("rank")


class _Listed:
    """One game of a listing: its index entry, the SessionInfo validated from it, its
    place in the listing (newest first) and its JSON text in index.json, made once per
    entry object (an unchanged game keeps its entry object from listing to listing)."""

    __slots__ = ("entry", "info", "rank", "_read", "_text")

    def __init__(self, entry: JsonObject, info: SessionInfo | None = None,
                 updated: float | None = None, *, read: bool = False) -> None:
        self.entry = entry
        self.info = info if info is not None else SessionInfo.model_validate(
            {k: v for k, v in entry.items() if k not in ("stamp", "schema")})
        if updated is None:
            updated = iso_to_ts(self.info.updated_at)
        self.rank = (updated, self.info.created_at, self.info.id)
        self._text: str | None = None
        self._read = read  # read from index.json: see known_text

    @classmethod
    def of(cls, entry: JsonObject, last: _Listed | None) -> _Listed:
        return last if last is not None and last.entry is entry else cls(entry)

    def known_text(self, text: str | None) -> None:
        """The entry's text as read from index.json (written compact, as `text` makes);
        None: read without its text (parse_in_pieces), made when the index is rewritten
        by pydantic's compiled serializer (a third of encode_json's time), which writes
        whatever was read back as it was read (json.loads reads it as it read the file:
        NaN too, which encode_json refuses)."""
        self._text = text
        self._read = text is None

    def text(self) -> str:
        if self._text is None:
            self._text = (to_json(self.entry, inf_nan_mode="constants").decode("utf-8")
                          if self._read else encode_json(self.entry))
        return self._text


# --------------------------------------------------------------------------- the store


class TinyDBStore:
    """SessionStore on TinyDB files. Safe across threads and processes (see module doc)."""

    def __init__(self, data_dir: Path, *, lock_timeout: float = 30.0,
                 cache_size: int = 8) -> None:
        self.root = Path(data_dir)
        self.sessions_dir = self.root / SESSIONS_DIR
        self.locks_dir = self.root / LOCKS_DIR
        self.quarantine_dir = self.root / QUARANTINE_DIR
        self.trash_dir = self.root / TRASH_DIR
        self.index_path = self.root / INDEX_FILE
        self.settings_path = self.root / SETTINGS_FILE
        self._lock_timeout = lock_timeout
        # Parsed copies of the few most recently used files; validated by revision token.
        self._cache = ReadCache(cache_size)
        # index.json and settings.json, apart: reading game files never pushes them out.
        self._own_cache = ReadCache(2)
        # The last listing: (index.json's revision, the games listed from it), reused while
        # no game file changed; and the stamps of the files it found sound (session_json).
        self._listing: tuple[str, list[SessionInfo]] | None = None
        self._sound: dict[str, list[int]] = {}
        # Per game listed last: its index entry (the very object) and what was made of it.
        self._listed: dict[str, _Listed] = {}
        self._locks: dict[str, StoreLock] = {}
        # Per game saved by _append_known: its path, storage and lock (as made each time).
        self._saving: dict[str, tuple[Path, AtomicJSONStorage, StoreLock]] = {}
        self._locks_guard = threading.Lock()
        self.read_only: str | None = self._open_folders()
        self._quarantined = Quarantine(self.quarantine_dir, lambda: self.read_only)
        self._store_lock = self._lock_at(self.locks_dir / STORE_LOCK_FILE)
        if self.read_only is None:
            self._sweep_temp_files()
            self._purge_trash()
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

    def _lock_at(self, path: Path) -> StoreLock:
        # One lock object per file and store: reentrant within a thread, exclusive
        # between threads as well as between processes (locks.py).
        key = str(path)
        with self._locks_guard:
            lock = self._locks.get(key)
            if lock is None:
                lock = self._locks[key] = StoreLock(key, self._lock_timeout)
            return lock

    def session_lock(self, session_id: str) -> StoreLock:
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
        """Set a damaged file aside and report it (see quarantine.py)."""
        problem = self._quarantined.set_aside(path, reason, kind=kind, title=title,
                                              recovered=recovered,
                                              keep_original=keep_original)
        self._cache_of(path).discard(str(path))
        return problem

    def _cache_of(self, path: Path) -> ReadCache:
        return self._own_cache if path in (self.index_path, self.settings_path) \
            else self._cache

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
            title = str(meta_doc(AtomicJSONStorage(path).read() or {}).get("title", ""))
        if self.read_only is not None:
            return self._quarantine(path, reason, kind="game", title=title)
        with self.session_lock(session_id):
            if not path.exists():
                raise SessionNotFound(session_id)
            return self._quarantine(path, reason, kind="game", title=title)

    def problems(self) -> list[StoreProblem]:
        return self._quarantined.problems()

    def problem_bytes(self, problem_id: str) -> bytes:
        return self._quarantined.path_of(problem_id).read_bytes()

    def discard_problem(self, problem_id: str) -> None:
        self._writable()
        with self._store_lock:
            self._quarantined.discard(problem_id)

    # ---- one session file

    def _read_session_tables(self, session_id: str,
                             path: Path) -> tuple[JsonObject, JsonObject]:
        """The session's tables at the current schema, in memory (nothing written), and
        the tables as read (the same object unless a migration was needed).
        SessionNotFound, CorruptFileError or UnsupportedSchema otherwise."""
        entry = AtomicJSONStorage(path, self._cache).read_entry()
        if entry is None:
            raise SessionNotFound(session_id)
        tables = entry.data
        if entry.checked:  # this revision was checked when it was read or written
            return tables, tables
        migrated, changed = migrate_tables(tables, path)
        check_session_tables(migrated, session_id, path)
        if not changed:
            entry.checked = True
        return migrated, tables

    def _read_checked(self, session_id: str) -> tuple[JsonObject, JsonObject]:
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
                meta = meta_doc(migrated)
                if expected is not None and meta["version"] != expected:
                    raise StaleWrite(session_id, expected, meta["version"])
                yield db
                tables = cast(JsonObject, batch.cache)
                meta = meta_doc(tables)
                meta["version"] += 1
                meta["updated_at"] = utc_iso()
                # The one atomic replace of this operation. Its layout is known good (the
                # file was checked above; TinyDB added documents checked by json_docs and
                # fields checked by info_fields): the next save does not check it again.
                storage = cast(AtomicJSONStorage, batch.storage)
                storage.write_known(tables, {}, checked=True)
            except BaseException:
                # The cached dict may hold changes that never reached the disk.
                self._cache.discard(str(path))
                raise

    def _scan_sessions(self) -> dict[str, os.stat_result]:
        found: dict[str, os.stat_result] = {}
        if not self.sessions_dir.is_dir():
            return found
        game_file = _GAME_FILE.fullmatch
        for entry in os.scandir(self.sessions_dir):
            # A valid session id and .json (validate_session_id); a temp file's name
            # starts with a dot, which no id has.
            match = game_file(entry.name)
            if match is None:
                continue
            try:
                found[match[1]] = entry.stat()
            except FileNotFoundError:
                continue
        return found

    def _index_entry(self, session_id: str, stat: os.stat_result) -> JsonObject | None:
        """A fresh index entry from the session file itself (None: not listable)."""
        path = self.sessions_dir / f"{session_id}.json"
        try:
            try:
                tables, raw = self._read_session_tables(session_id, path)
                # The schema of the file as it is: a file of the current one was checked
                # whole (what lets a backup take its bytes as they are, session_json).
                schema = meta_doc(raw).get("schema")
            except UnsupportedSchema:
                # Newer file: list it from its meta if that still looks familiar.
                tables = AtomicJSONStorage(path).read() or {}
                schema = meta_doc(tables).get("schema")
            info = info_from_meta(meta_doc(tables))
        except CorruptFileError:
            self._quarantine_session_if_free(session_id, path)
            return None
        except SessionNotFound:
            return None
        except (OSError, ValueError, KeyError, TypeError, ValidationError) as exc:
            log.warning("cannot list session file %s: %s", path, exc)
            return None
        return {**info.model_dump(mode="json"), "stamp": stamp(stat), "schema": schema}

    def session_info(self, session_id: str) -> SessionInfo | None:
        """What `list_sessions` lists for one game, read from its file alone (None: no
        such game, or not listable: an invalid id, a damaged file, which is quarantined
        as a listing would). The history cache's update for one changed game: the
        index is left as it is (a cache, checked by stamp at the next listing)."""
        try:
            path = self._session_path(session_id)
            stat = os.stat(path)
        except (ValueError, OSError):
            return None
        entry = self._index_entry(session_id, stat)
        if entry is None:
            return None
        return SessionInfo.model_validate({k: v for k, v in entry.items() if k != "stamp"})

    # ---- index (a cache) and settings

    def _read_table_file(self, path: Path, table_name: str,
                         check: Callable[[JsonObject], None],
                         ) -> tuple[JsonObject | None, Exception | None]:
        """(tables, None) for a sound file or None when missing; (None, why) if damaged."""
        try:
            tables = AtomicJSONStorage(path, self._cache_of(path)).read()
            if tables is not None:
                check_table_file(tables, table_name, check)
            return tables, None
        except (CorruptFileError, ValidationError, ValueError, TypeError,
                AttributeError) as exc:
            self._cache_of(path).discard(str(path))
            return None, exc

    def _write_tables(self, path: Path, tables: Tables) -> None:
        AtomicJSONStorage(path, self._cache_of(path)).write(tables)

    def _read_index(self, pieces: bool = False
                    ) -> tuple[CachedFile | None, Exception | None]:
        """index.json as cached (its entries checked once per revision); (None, why) if
        it is damaged, (None, None) if there is none. `pieces`: parsed without each
        entry's text (AtomicJSONStorage.read_entry), when a rewrite is unlikely."""
        try:
            entry = AtomicJSONStorage(self.index_path, self._own_cache).read_entry(
                INDEX_TABLE, pieces=pieces)
            if entry is not None and not entry.checked:
                made: dict[str, _Listed] = {}
                valid = index_infos(entry.data.get(INDEX_TABLE))
                infos = iter(valid) if valid is not None else None

                def check(doc: JsonObject) -> None:
                    # What the check validates is what the listing shows: kept.
                    info = next(infos) if infos is not None else None
                    made[str(doc["id"])] = _Listed(doc, *check_index_entry(doc, info),
                                                   read=True)

                check_table_file(entry.data, INDEX_TABLE, check)
                entry.checked = True
                texts = entry.doc_texts  # None: parsed in pieces, no texts (known_text)
                for key, doc in entry.data.get(INDEX_TABLE, {}).items() if texts else ():
                    # Its text as read: a rewrite of the index takes it as it is.
                    listed = made[str(doc["id"])]
                    if listed.entry is doc and texts is not None:
                        listed.known_text(texts.get(key))
                self._listed = {**self._listed, **made}
            return entry, None
        except (CorruptFileError, ValidationError, ValueError, TypeError,
                AttributeError) as exc:
            self._own_cache.discard(str(self.index_path))
            return None, exc

    def list_sessions(self) -> list[SessionInfo]:
        return self._list_sessions()[0]

    def list_sessions_stamped(self) -> tuple[list[SessionInfo], dict[str, Stamp]]:
        """`list_sessions`, and the stamp (size, mtime_ns, inode) of each listed game's
        file by file name, from the folder scan the listing checked its index against:
        a caller that needs both (the history cache's first look with no saved index,
        companion/history/cache.py) scans the folder once instead of twice."""
        # Parsed without each entry's text: this is a start's first look, when the
        # files and the index agree (a rewrite then makes the texts, _Listed.text).
        infos, on_disk = self._list_sessions(pieces=True)
        stamps: dict[str, Stamp] = {}
        for info in infos:
            st = on_disk.get(info.id)
            if st is not None:
                stamps[f"{info.id}.json"] = (st.st_size, st.st_mtime_ns, st.st_ino)
        return infos, stamps

    def _list_sessions(self, pieces: bool = False
                       ) -> tuple[list[SessionInfo], dict[str, os.stat_result]]:
        on_disk = self._scan_sessions()
        index, damage = self._read_index(pieces)
        cached: dict[str, JsonObject] = {}
        for doc in (index.data if index else {}).get(INDEX_TABLE, {}).values():
            cached[doc["id"]] = doc
        entries: list[JsonObject] = []
        dirty = damage is not None or index is None or cached.keys() - on_disk.keys()
        for session_id, stat in on_disk.items():
            entry = cached.get(session_id)
            if entry is None or entry.get("stamp") != stamp(stat) or "schema" not in entry:
                # New, changed since it was indexed, or never indexed (or by a version
                # that did not note its schema): read the file.
                entry = self._index_entry(session_id, stat)
                dirty = True
            if entry is not None:
                entries.append(entry)
        listing = self._listing
        if not dirty and index is not None and listing is not None \
                and listing[0] == index.rev:
            # Nothing changed since the last listing: the same games.
            return list(listing[1]), on_disk
        listed = self._listed
        made = {str(entry["id"]): _Listed.of(entry, listed.get(str(entry["id"])))
                for entry in entries}
        rev = None
        if dirty and self.read_only is None:
            try:
                with self._store_lock:
                    if damage is not None and self.index_path.exists():
                        self._quarantine(self.index_path, one_line(damage), kind="index")
                    rev = self._write_index([made[key] for key in sorted(made)])
            except OSError as exc:
                # The index is a cache: a disk that is full (ENOSPC) or refuses the write
                # must not fail a listing (Home, History, a backup export); the next
                # listing reads the changed files again and tries once more.
                log.warning("index.json not rewritten (%s): listed from the files",
                             one_line(exc))
        elif not dirty and index is not None:
            rev = index.rev
        ranked = sorted(made.values(), key=_RANK, reverse=True)
        infos = [item.info for item in ranked]
        self._listed = made
        self._sound = {key: item.entry["stamp"] for key, item in made.items()
                       if item.entry.get("schema") == STORE_SCHEMA}
        self._listing = (rev, infos) if rev else None
        return list(infos), on_disk

    def _write_index(self, items: list[_Listed]) -> str | None:
        """Write index.json (entries by id), each entry's text made once (_Listed.text);
        the new revision."""
        entries = [item.entry for item in items]
        text = "{" + ",".join(f'"{n}":{item.text()}' for n, item in enumerate(items, 1)) + "}"
        written = AtomicJSONStorage(self.index_path, self._own_cache).write_known(
            index_tables(entries), {INDEX_TABLE: text}, checked=True)
        return written.rev if written is not None else None

    def session_json(self, session_id: str) -> str:
        """The game's file as JSON text, for a backup: its tables at the current schema
        (and maybe its `_rev`). The file's own bytes when they are known sound: the last
        listing read and checked this very file (its stamp: size, mtime, inode) at the
        current schema; otherwise it is read and checked as `load` reads it (a damaged
        file is quarantined: CorruptSession)."""
        known = self._sound.get(session_id)
        if known is not None:
            text = _read_if_stamped(self._session_path(session_id), known)
            if text is not None:
                return text
        tables, raw = self._read_checked(session_id)
        if tables is not raw and self.read_only is None:
            self._persist_migration(session_id, tables, raw)
        return encode_json(tables)

    def _settings_docs(self) -> JsonObject:
        """Every setting; a damaged settings file is set aside once, reported with the
        keys recovered from it, and replaced by what could be recovered."""
        tables, damage = self._read_table_file(self.settings_path, SETTINGS_TABLE,
                                               check_setting)
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
                                                       check_setting)
                if damage is None:
                    return self._settings_docs()
                self._quarantine(self.settings_path, one_line(damage), kind="settings",
                                 recovered=sorted(recovered), keep_original=True)
                self._write_settings(recovered)
        else:
            self._quarantine(self.settings_path, one_line(damage), kind="settings",
                             recovered=sorted(recovered))
        return recovered

    def _write_settings(self, values: JsonObject) -> None:
        self._write_tables(self.settings_path, {SETTINGS_TABLE: {
            str(i): {"key": key, "value": value}
            for i, (key, value) in enumerate(sorted(values.items()), 1)}})

    # ---- SessionStore

    def create(self, session_id: str, game: str, title: str, header: JsonObject,
               events: list[JsonObject] | None = None, *, finished: bool = False,
               summary: JsonObject | None = None) -> int:
        self._writable()
        path = self._session_path(session_id)
        fields = info_fields(title=title, finished=finished, summary=summary or {},
                             header=header)
        docs = json_docs(events or [], "events")
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

    def _persist_migration(self, session_id: str, migrated: JsonObject,
                           raw: JsonObject) -> None:
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
        meta = meta_doc(tables)
        # Copies: the parsed data stays cached and must not be changed by callers.
        return StoredSession(
            id=session_id, header=clone_json(meta["header"]),
            events=clone_json(ordered(tables.get(EVENTS, {}))),
            redo=clone_json(ordered(tables.get(REDO, {}))),
            version=meta["version"], title=meta["title"], finished=meta["finished"],
            summary=clone_json(meta["summary"]))

    def read_only_view(self, session_id: str) -> StoredSession:
        tables, raw = self._read_checked(session_id)
        if tables is not raw and self.read_only is None:
            self._persist_migration(session_id, tables, raw)
        meta = meta_doc(tables)
        # No copies and no second validation (check_session_tables has run): the parsed
        # data may be the read cache's, so the caller must not change it.
        return StoredSession.model_construct(
            id=session_id, header=meta["header"], events=ordered(tables.get(EVENTS, {})),
            redo=ordered(tables.get(REDO, {})), version=meta["version"],
            title=meta["title"], finished=meta["finished"], summary=meta["summary"])

    def _write(self, session_id: str, expected: int | None, fields: JsonObject,
               change: Callable[[TinyDB], None]) -> int:
        self._writable()
        with self._session(session_id, expected) as db:
            change(db)
            if fields:
                meta_table = db.table(META)
                meta_table.update(merged_info(dict(meta_table.all()[0]), fields))
            return cast(int, db.table(META).all()[0]["version"]) + 1

    def append(self, session_id: str, events: list[JsonObject], *,
               expected: int | None = None, finished: bool | None = None,
               summary: JsonObject | None = None,
               header: JsonObject | None = None) -> int:
        docs, texts = json_docs_and_texts(events, "events")
        fields = info_fields(title=None, finished=finished, summary=summary, header=header)

        def change(db: TinyDB) -> None:
            if docs:
                db.table(EVENTS).insert_multiple(docs)
            redo = db.table(REDO)
            if len(redo):
                redo.truncate()

        self._writable()
        version = self._append_known(session_id, expected, docs, fields, texts)
        if version is not None:
            return version
        return self._write(session_id, expected, fields, change)

    def _append_known(self, session_id: str, expected: int | None,
                      docs: list[JsonObject], fields: JsonObject,
                      texts: list[str] | None = None) -> int | None:
        """`append` of a game whose file this store wrote last (the usual case: every
        save of a game in play): the same file, written the same way (one atomic
        replace under the game's lock, after checking `expected`), but made from the
        cached tables and their cached text (appended_tables): neither TinyDB's copies
        of every table nor an encoding of the whole file. None if the cache does not
        hold the file's current revision as written here (then nothing was done)."""
        saving = self._saving.get(session_id)
        if saving is None:  # the game's first save here: its path, storage and lock, kept
            path = self._session_path(session_id)
            saving = (path, AtomicJSONStorage(path, self._cache),
                      self.session_lock(session_id))
            self._saving[session_id] = saving
        path, storage, lock = saving
        with lock:
            try:
                entry = storage.read_entry()
                if entry is None or entry.texts is None:
                    return None
                self._check_entry(session_id, path, entry)
            except (CorruptFileError, UnsupportedSchema):
                return None  # the TinyDB path reports it (and quarantines a damaged file)
            if not entry.checked:
                return None  # an older schema: the TinyDB path migrates it
            version = meta_doc(entry.data)["version"]
            if expected is not None and version != expected:
                raise StaleWrite(session_id, expected, version)
            next_id = entry.next_ids.get(EVENTS)
            if next_id is None:
                next_id = next_doc_id(entry.data.get(EVENTS) or {})
                if next_id is None:
                    return None
            made = appended_tables(entry.data, entry.texts, next_id, docs, fields,
                                   utc_iso(), texts)
            if made is None:
                return None
            tables, known = made
            storage.write_known(tables, known, checked=True,
                                next_ids={EVENTS: next_id + len(docs)})
            return cast(int, version) + 1

    @staticmethod
    def _check_entry(session_id: str, path: Path, entry: CachedFile) -> None:
        """Check a cached file's layout once per revision (entry.checked); a file of an
        older schema stays unchecked (it needs a migration)."""
        if entry.checked:
            return
        migrated, changed = migrate_tables(entry.data, path)
        if not changed:
            check_session_tables(migrated, session_id, path)
            entry.checked = True

    def replace_log(self, session_id: str, events: list[JsonObject],
                    redo: list[JsonObject], *, expected: int | None = None,
                    finished: bool | None = None, summary: JsonObject | None = None,
                    header: JsonObject | None = None) -> int:
        event_docs = json_docs(events, "events")
        redo_docs = json_docs(redo, "redo")
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
                    summary: JsonObject | None = None,
                    header: JsonObject | None = None,
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

    # ---- trash: deleted games stay restorable for a while

    def trash(self, session_id: str) -> str:
        """Move the game's file (its bytes untouched) into trash/; the index entry goes
        with the next listing, which finds the file gone (the index is only a cache)."""
        self._writable()
        path = self._session_path(session_id)
        with self.session_lock(session_id):
            if not path.exists():
                raise SessionNotFound(session_id)
            self.trash_dir.mkdir(exist_ok=True)
            stamp_text = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
            stamp_text += f"{time.time_ns() // 1000 % 1_000_000:06d}Z"
            target = self.trash_dir / f"{path.name}.{stamp_text}{TRASH_SUFFIX}"
            n = 1
            while target.exists():
                target = self.trash_dir / f"{path.name}.{stamp_text}-{n}{TRASH_SUFFIX}"
                n += 1
            os.replace(path, target)
            fsync_dir(self.sessions_dir)
            fsync_dir(self.trash_dir)
            self._cache.discard(str(path))
        log.info("game %s moved to the trash as %s", session_id, target.name)
        return target.name

    def _trash_path(self, trash_id: str) -> tuple[str, Path]:
        match = _TRASH_NAME.fullmatch(trash_id) if isinstance(trash_id, str) else None
        if match is None:
            raise ValueError(f"invalid trash id {trash_id!r}")
        path = self.trash_dir / trash_id
        if not path.is_file():
            raise KeyError(trash_id)
        return match[1], path

    def restore(self, trash_id: str) -> str:
        self._writable()
        session_id, source = self._trash_path(trash_id)
        path = self._session_path(session_id)
        with self.session_lock(session_id):
            if not source.is_file():  # restored meanwhile (another tab)
                raise KeyError(trash_id)
            if path.exists():
                raise SessionExists(f"session {session_id!r} already exists")
            os.replace(source, path)
            fsync_dir(self.trash_dir)
            fsync_dir(self.sessions_dir)
            self._cache.discard(str(path))
        log.info("game %s restored from the trash", session_id)
        return session_id

    def _purge_trash(self, now: float | None = None) -> None:
        """Delete trashed games older than TRASH_KEEP_DAYS (by the time they were
        trashed, from the name); one in use right now is left for the next start."""
        if not self.trash_dir.is_dir():
            return
        cutoff = (time.time() if now is None else now) - TRASH_KEEP_DAYS * 86_400
        for entry in os.scandir(self.trash_dir):
            match = _TRASH_NAME.fullmatch(entry.name)
            if match is None:
                continue
            try:
                trashed = iso_to_ts(
                    f"{match[2][:4]}-{match[2][4:6]}-{match[2][6:8]}T{match[2][9:11]}:"
                    f"{match[2][11:13]}:{match[2][13:15]}.{match[2][15:21]}+00:00")
            except ValueError:
                continue
            if trashed >= cutoff:
                continue
            try:
                with self.session_lock(match[1]).acquire(timeout=0):
                    Path(entry.path).unlink(missing_ok=True)
            except Timeout:
                continue
        with contextlib.suppress(OSError):
            fsync_dir(self.trash_dir)

    def get_setting(self, key: str, default: object = None) -> Any:
        values = self._settings_docs()
        if key not in values:
            return default
        return clone_json(values[key])

    def settings(self) -> JsonObject:
        return clone_json(self._settings_docs())

    def _change_settings(self, change: Callable[[JsonObject], None]) -> None:
        self._writable()
        self._settings_docs()  # a damaged file is set aside and reported first
        with self._store_lock:
            values = self._settings_docs()
            change(values)
            self._write_settings(values)

    def set_setting(self, key: str, value: object) -> None:
        if not isinstance(key, str):
            raise TypeError("setting keys are strings")
        value = clone_json(value)
        self._change_settings(lambda values: values.__setitem__(key, value))

    def delete_setting(self, key: str) -> None:
        self._change_settings(lambda values: values.pop(key, None))
