"""The records of a store's finished games, kept between page loads (issue 14, speed).

Building 10,000 records from a fresh listing takes about a second; a History page needs
twenty of them. `HistoryCache` keeps one sorted list of records per store, shared by every
client of the process (per client only the page shown is kept), and rebuilds it only when
the store changed:

- a store with a sessions folder (TinyDBStore: `sessions_dir`) is fingerprinted by one
  directory scan, the (size, mtime, inode) of every game file, which is what the store's
  own index is checked against. Every write replaces a game file (atomic rename), so any
  write, by this process or another, changes the fingerprint; unchanged: nothing is read.
  Faster still, one stat of the folder: a rename in it changes the folder's mtime, so
  when that mtime is the one seen at the last scan, and was already more than a second
  old then (a second write in the same coarse clock tick cannot hide), nothing changed;
- any other store (the in-memory one of the tests) is listed every time, and records are
  rebuilt only for games whose (id, updated_at) changed.

When the folder changed, the new scan is compared with the last one, file by file, and
only the files that changed are read (the store's `session_info`: one file, not the
index) and their records replaced in the sorted list (bisect, not a re-sort): a game
saved, created, finished, deleted, trashed or restored, by this process or another, costs
the next load one scan and one file read, not a listing of every game (at 10,000 games
the listing, with its rewrite of index.json, was 0.4-0.6 s of the 0.6 s a Home load took
after a save). Many files changed at once (more than INCREMENTAL_LIMIT, e.g. an import)
or no `session_info`: the store is listed, and only the games whose (id, updated_at)
changed get a new record. The scan is not skipped after this process's own writes: no
lock covers the whole folder, so only a scan can tell that no other process wrote in the
same moment (it is the part left of a load after a save: about 35 ms at 10,000 games).
Statistics are kept per (records, merge map, game) as well, and the unfinished games
of the same listing (Home shows both, `home()`), so Home and History share one look at
the store; the app warms the cache once at server start, on the store thread
(companion/app/launch.py), so the first page load does not pay the cold scan. Methods
block (disk, CPU): call them on the store thread (AsyncStore.run), never in an event handler.

A file read that finds nothing (the game went between the scan and the read) leaves that
file's stamp out of what the cache remembers, so the next look reads it again: a game
deleted (trashed) by another process right then and put back (restored: the same file,
so the same size, mtime and inode) is listed again, as a fresh process would list it.

The first look after a start does not build 10,000 records from a listing (about a
second): the records are kept on disk as well, in `history-index.json` beside the
sessions folder (one compact row per game with the stamp of the file it was built from;
companion/history/saved_index.py), written after a look that listed the store or after
SAVE_AFTER changed games, by a thread of its own, SAVE_DELAY seconds later (the look does
not wait for it, nor do the requests right after it share the interpreter with it; it
writes what the cache holds then; a newer one supersedes one not written yet;
`wait_saved` writes at once). The first look reads that one file and the directory
scan, takes every row whose stamp is the file's, and reads only the other files (or
lists the store when too many changed). It is a cache: a missing, damaged (its digest
checks every byte), foreign or newer one is ignored and rebuilt; one that cannot be
written (a full disk, a read-only folder) is skipped. With none, the first look lists
the store with the stamps of the files listed (TinyDBStore.list_sessions_stamped): the
listing's own folder scan is the fingerprint, one scan of 10,000 files instead of two.
When that first look is Home's (`home`), it builds only the records of the page shown:
every other game whose record surely builds gets its place now (records.prepare: its
newest-first key) and its record when anything else looks, the statistics, another
page, a save, the saved index's writer (`_complete`, at the start of every look), so
the order, the total and the games skipped are those of a whole build.
"""

from __future__ import annotations

import gc
import json
import logging
import os
import re
import threading
import time
import weakref
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from operator import itemgetter
from pathlib import Path
from typing import Any, Protocol

from companion.history.names import NameMatcher
from companion.history.played import played_sort_key
from companion.history.query import (
    DEFAULT_PAGE_SIZE,
    HistoryFilter,
    HistoryPage,
    matches,
    newest_first,
    newest_first_key,
)
from companion.history.records import (
    GameRecord,
    Prepared,
    build_prepared,
    build_record,
    prepare,
)
from companion.history.saved_index import (
    ENTRY_ERRORS,
    Entry,
    SavedIndex,
    index_path,
    read_index,
    write_index,
)
from companion.history.stats import Statistics, compute_stats
from companion.store.base import SessionInfo

log = logging.getLogger(__name__)

#: What the store lists (TinyDBStore._scan_sessions: a valid session id and .json).
_GAME_FILE = re.compile(r"[A-Za-z0-9_-]{1,64}\.json")
#: The folder's mtime is trusted alone once it is this old (coarse file system clocks).
QUIET_NS = 1_000_000_000
_MAX_STATS = 8  # (merge map, game) combinations kept
#: More changed game files than this since the last look: list the store instead (a
#: file read costs about 0.2 ms; a listing of 10,000 games about half a second).
INCREMENTAL_LIMIT = 500
#: Games changed since the saved index was written before it is written again.
SAVE_AFTER = 32
#: Seconds the saved index waits before it is written (`_save`).
SAVE_DELAY = 1.0

Stamp = tuple[int, int, int]  # (size, mtime_ns, inode) of one game file
SortKey = tuple[str, str, str, str]


class ListingStore(Protocol):
    def list_sessions(self) -> list[SessionInfo]: ...


def fingerprint(store: ListingStore) -> dict[str, Stamp] | None:
    """What changes with every write to `store`'s games: the stamp of every game file by
    file name; None: this store cannot tell (then it is listed every time)."""
    folder = getattr(store, "sessions_dir", None)
    if not isinstance(folder, Path):
        return None
    stamps: dict[str, Stamp] = {}
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                name = entry.name
                if not _GAME_FILE.fullmatch(name):
                    continue
                try:
                    st = entry.stat()
                except FileNotFoundError:  # deleted while scanning
                    continue
                stamps[name] = (st.st_size, st.st_mtime_ns, st.st_ino)
    except FileNotFoundError:
        return {}
    return stamps


def folder_mtime(store: ListingStore) -> int | None:
    """The mtime (ns) of `store`'s sessions folder (None: no folder)."""
    folder = getattr(store, "sessions_dir", None)
    if not isinstance(folder, Path):
        return None
    try:
        return folder.stat().st_mtime_ns
    except OSError:
        return None


@contextmanager
def _gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while many objects are made at once: the records and
    the parsed index hold no cycles, and each full collection on the way would walk every
    object made so far (measured: a third of the time of a first look at 10,000 games)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        if gc.get_freeze_count() == 0:
            # What was made meanwhile goes to the oldest generation at once (freeze and
            # unfreeze only move lists), instead of one young collection walking it
            # all (80 ms at 10,000 records). Not when objects are frozen already (the
            # app freezes its warm cache, companion/app/store_access.py): unfreezing
            # would thaw those too.
            gc.freeze()
            gc.unfreeze()
        gc.enable()


class HistoryCache:
    """One store's finished-game records, newest first (see the module doc)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._print: dict[str, Stamp] | None = None
        self._quiet_mtime: int | None = None  # the folder's mtime, when old enough to trust
        self._valid = False
        self._by_id: dict[str, tuple[str, GameRecord]] = {}  # id -> (updated_at, record)
        self._sorted: list[GameRecord] = []  # newest first
        self._keys: list[SortKey] = []  # newest_first_key of _sorted, oldest first
        self._unfinished_by_id: dict[str, SessionInfo] = {}
        self._unfinished: list[SessionInfo] = []  # as listed: last saved first
        self._skipped_ids: set[str] = set()
        self.skipped = 0
        #: How the last look at the store went: "unchanged", "incremental", "listed", or
        #: "saved" (the first look, from the saved index and the files changed since).
        self.last_update = ""
        self._saved_tried = False  # the saved index is read at the first look only
        self._unsaved = 0  # games changed since the saved index was read or written
        self._save_lock = threading.Lock()
        self._save_generation = 0
        self._saving: threading.Thread | None = None
        self._save_now = threading.Event()  # set: the waiting write goes ahead at once
        #: Home's first look from a listing builds only the records it shows: the others'
        #: games wait here (id -> info) until anything else looks (`_complete`), with
        #: every record's newest-first key and id, newest first (`_order`).
        self._pending: dict[str, tuple[SessionInfo, Prepared]] = {}
        self._order: list[tuple[SortKey, str]] = []
        self._filtered: tuple[str, list[GameRecord]] | None = None
        self._stats: dict[str, Statistics] = {}
        self._names: dict[str, list[str]] = {}

    # -- records --------------------------------------------------------------------------

    def records(self, store: ListingStore) -> list[GameRecord]:
        """Every finished game's record, newest first (do not change the list)."""
        with self._lock:
            return self._current(store)

    def _current(self, store: ListingStore, *, partial: bool = False) -> list[GameRecord]:
        """The records, newest first, after one look at the store. `partial` (Home): a
        first look from a listing may leave records not built yet (`_pending`; the
        list returned is then not the records: see home)."""
        self._complete()  # what the last look left for later: every look starts whole
        mtime = folder_mtime(store)  # before the scan: a later write changes it
        if self._valid and mtime is not None and mtime == self._quiet_mtime:
            self.last_update = "unchanged"
            return self._sorted
        quiet = mtime is not None and time.time_ns() - mtime > QUIET_NS
        with _gc_paused():
            folder = getattr(store, "sessions_dir", None)
            saved = None
            if isinstance(folder, Path) and not self._saved_tried and self._print is None:
                self._saved_tried = True  # the first look: the saved index, if any
                saved = read_index(index_path(folder))
                if saved is None:
                    self._unsaved = SAVE_AFTER + 1  # none to trust: written after this look
                    stamped = getattr(store, "list_sessions_stamped", None)
                    if callable(stamped):
                        # The listing's own folder scan is the fingerprint: one scan
                        # of 10,000 files instead of two.
                        infos, listed = stamped()
                        self._listed(infos, listed, lazy=partial)
                        self._valid = True
                        self._quiet_mtime = mtime if quiet else None
                        self._save(store)
                        return self._sorted
            now = fingerprint(store)
            from_saved = saved is not None and now is not None \
                and self._load_saved(saved, now)
            if now is None or not self._valid or self._print is None:
                self._list(store, now)
            else:
                before = self._print
                changed = [name for name, st in now.items() if before.get(name) != st]
                changed += [name for name in before if name not in now]
                read_one = getattr(store, "session_info", None)
                if not changed:
                    self.last_update = "unchanged"
                elif callable(read_one) and len(changed) <= INCREMENTAL_LIMIT:
                    # Not valid until done: should a read raise half-way, the next call
                    # lists the store and rebuilds the order from nothing.
                    self._valid = False
                    missing = self._update(read_one, [name[:-len(".json")]
                                                      for name in changed])
                    # A file of the scan that was not read (gone meanwhile, or not
                    # listable) is read again at the next look, whatever its stamp then:
                    # deleted and put back in between, it has the stamp it had.
                    self._print = {name: st for name, st in now.items()
                                   if name[:-len(".json")] not in missing}
                    self._unsaved += len(changed)
                    self.last_update = "incremental"
                else:
                    self._list(store, now)
                if from_saved and self.last_update != "listed":
                    self.last_update = "saved"
            self._valid = True
            self._quiet_mtime = mtime if quiet else None
            if now is not None and self._unsaved > SAVE_AFTER:
                self._save(store)
        return self._sorted

    def _list(self, store: ListingStore, now: dict[str, Stamp] | None) -> None:
        """List the store and rebuild from the listing (records of unchanged games kept)."""
        infos = store.list_sessions()
        if now is not None:
            # A file of the scan the listing did not find is read again next time.
            listed = {info.id for info in infos}
            now = {name: st for name, st in now.items() if name[:-len(".json")] in listed}
        self._listed(infos, now)

    def _listed(self, infos: list[SessionInfo], stamps: dict[str, Stamp] | None, *,
                lazy: bool = False) -> None:
        """Rebuild from a listing and the stamps of the files it listed (None: a store
        that cannot tell); `lazy`: see _rebuild_lazy."""
        if lazy and not self._by_id:
            self._rebuild_lazy(infos)
        else:
            self._rebuild(infos)
        self.last_update = "listed"
        if stamps is not None:
            self._unsaved = SAVE_AFTER + 1
        self._print = stamps

    # -- the saved index ---------------------------------------------------------------------

    def _load_saved(self, saved: SavedIndex, now: dict[str, Stamp]) -> bool:
        """Take every entry of the saved index whose file is unchanged (same stamp); the
        files not taken are the changes the look that follows reads (or lists)."""
        known: dict[str, Stamp] = {}
        by_id: dict[str, tuple[str, GameRecord]] = {}
        unfinished: dict[str, SessionInfo] = {}
        skipped: set[str] = set()
        # In the index's order (newest first, as written): the sort below is then
        # one pass over sorted keys.
        for name in saved.games:
            stamp = now.get(name)
            if stamp is None or saved.stamp(name) != stamp:
                continue  # gone, or changed since: read by the look that follows
            try:
                kind, _, value = saved.entry(name)
            except ENTRY_ERRORS:
                continue  # of another shape: read again, and the index rewritten
            session_id = name[:-len(".json")]
            if kind == "r":
                by_id[session_id] = (value.updated_at, value)
            elif kind == "u":
                unfinished[session_id] = value
            else:
                skipped.add(session_id)
            known[name] = stamp
        self._by_id = by_id
        self._unfinished_by_id = unfinished
        self._unfinished = _last_saved_first(unfinished.values())
        self._skipped_ids = skipped
        self.skipped = len(skipped)
        keyed = sorted(((newest_first_key(r), r) for _, r in by_id.values()),
                       key=itemgetter(0), reverse=True)
        self._sorted = [r for _, r in keyed]
        self._keys = [k for k, _ in reversed(keyed)]
        self._forget_derived()
        self._print = known
        self._valid = True
        self._unsaved = len(saved.games.keys() - known.keys())
        return True

    def _save(self, store: ListingStore) -> None:
        """Write the saved index from what the cache holds, SAVE_DELAY seconds from now
        (or at once when `wait_saved` asks), on a thread of its own; skipped when it
        cannot be written (a full disk, a read-only folder): it is only a cache."""
        folder = getattr(store, "sessions_dir", None)
        if not isinstance(folder, Path) or self._print is None \
                or getattr(store, "read_only", None) is not None:
            return
        self._unsaved = 0  # a failed write is not retried before SAVE_AFTER more changes
        self._save_generation += 1
        generation = self._save_generation
        path = index_path(folder)
        now = self._save_now = threading.Event()

        def write() -> None:
            now.wait(SAVE_DELAY)
            with self._save_lock:
                if generation != self._save_generation:
                    return  # a newer one follows
                with self._lock:  # what the cache holds then, never half-updated
                    entries = self._entries() if self._valid else None
                if entries is None:
                    return  # invalidated meanwhile: the next look lists and saves
                try:
                    write_index(path, entries)
                except (OSError, ValueError, TypeError) as exc:
                    log.warning("history index not written (%s): the next start reads "
                                "the game files", exc)

        # Written beside the look, not in it, and a moment later: serialising 10,000
        # records (and the fsync) would add 100 ms or more to the page load that found
        # the changes, or, on a thread at once, to the requests right after it (Home's
        # rendering, the statistics), which would share the interpreter with it.
        thread = threading.Thread(target=write, name="history-index", daemon=True)
        self._saving = thread
        thread.start()

    def _entries(self) -> dict[str, Entry] | None:
        """The saved index's entries for what the cache holds (None: no stamps)."""
        if self._print is None:
            return None
        self._complete()  # the records Home's first look left for later
        entries: dict[str, Entry] = {}
        # Records newest first (the order the next start sorts them in), then the rest.
        names = [f"{r.id}.json" for r in self._sorted]
        names += [name for name in self._print if name[:-len(".json")] not in self._by_id]
        for name in names:
            stamp = self._print.get(name)
            if stamp is None:
                continue
            session_id = name[:-len(".json")]
            kept = self._by_id.get(session_id)
            if kept is not None:
                entries[name] = ("r", stamp, kept[1])
            elif (info := self._unfinished_by_id.get(session_id)) is not None:
                entries[name] = ("u", stamp, info)
            elif session_id in self._skipped_ids:
                entries[name] = ("s", stamp, None)
        return entries

    def wait_saved(self, timeout: float | None = None) -> None:
        """Write the saved index now if one is waiting, and wait for it (tests,
        benchmarks, shutdown)."""
        thread = self._saving
        if thread is not None:
            self._save_now.set()
            thread.join(timeout)

    def _update(self, read_one: Callable[[str], SessionInfo | None],
                session_ids: list[str]) -> set[str]:
        """Read only the games in `session_ids` (their files changed, appeared or went)
        and put their records in place; every other record, and its place, is kept.
        Returns the ids found gone or not listable."""
        many = len(session_ids) > SAVE_AFTER  # re-sorted once instead of one by one
        sorted_ = self._sorted
        records_changed = unfinished_changed = False
        missing: set[str] = set()
        for session_id in session_ids:
            info = read_one(session_id)  # None: gone (deleted, trashed) or not listable
            if info is None:
                missing.add(session_id)
            kept = self._by_id.get(session_id)
            if info is not None and info.finished and kept is not None \
                    and kept[0] == info.updated_at:
                continue  # the same save (e.g. only its inode changed)
            if kept is not None:
                if sorted_ is self._sorted:
                    sorted_ = list(sorted_)  # callers may hold the old list
                if not many:
                    self._remove_sorted(sorted_, kept[1])
                del self._by_id[session_id]
                records_changed = True
            if self._unfinished_by_id.pop(session_id, None) is not None:
                unfinished_changed = True
            self._skipped_ids.discard(session_id)
            if info is None:
                continue
            if not info.finished:
                self._unfinished_by_id[session_id] = info
                unfinished_changed = True
                continue
            try:
                record = build_record(info)
            except Exception:  # a strange summary is skipped, never raised
                self._skipped_ids.add(session_id)
                continue
            if sorted_ is self._sorted:
                sorted_ = list(sorted_)
            if not many:
                self._insert_sorted(sorted_, record)
            self._by_id[session_id] = (info.updated_at, record)
            records_changed = True
        self.skipped = len(self._skipped_ids)
        if unfinished_changed:
            self._unfinished = _last_saved_first(self._unfinished_by_id.values())
        if records_changed:
            if many:
                sorted_ = newest_first(r for _, r in self._by_id.values())
                self._keys = [newest_first_key(r) for r in reversed(sorted_)]
            self._sorted = sorted_
            self._forget_derived()
        return missing

    def _insert_sorted(self, sorted_: list[GameRecord], record: GameRecord) -> None:
        key = newest_first_key(record)
        i = bisect_left(self._keys, key)
        sorted_.insert(len(sorted_) - i, record)
        self._keys.insert(i, key)

    def _remove_sorted(self, sorted_: list[GameRecord], record: GameRecord) -> None:
        key = newest_first_key(record)
        i = bisect_left(self._keys, key)
        if i < len(self._keys) and self._keys[i] == key:
            del sorted_[len(sorted_) - 1 - i]  # newest first: the mirror of i
            del self._keys[i]

    def _forget_derived(self) -> None:
        self._filtered = None
        self._stats.clear()
        self._names = {}

    def _rebuild(self, infos: list[SessionInfo]) -> None:
        old = self._by_id
        fresh: dict[str, tuple[str, GameRecord]] = {}
        skipped: set[str] = set()
        unfinished: list[SessionInfo] = []
        for info in infos:
            if not info.finished:
                unfinished.append(info)
                continue
            kept = old.get(info.id)
            if kept is not None and kept[0] == info.updated_at:
                fresh[info.id] = kept
                continue
            try:
                fresh[info.id] = (info.updated_at, build_record(info))
            except Exception:  # a strange summary is skipped, never raised
                skipped.add(info.id)
        changed = fresh.keys() != old.keys() or any(
            fresh[k][1] is not old[k][1] for k in fresh)
        self._by_id = fresh
        self._unfinished = _last_saved_first(unfinished)
        self._unfinished_by_id = {info.id: info for info in unfinished}
        self._skipped_ids = skipped
        self.skipped = len(skipped)
        if changed or not self._valid:
            keyed = sorted(((newest_first_key(r), r) for _, r in fresh.values()),
                           key=itemgetter(0), reverse=True)  # each key made once
            self._sorted = [r for _, r in keyed]
            self._keys = [k for k, _ in reversed(keyed)]
            self._forget_derived()

    def _rebuild_lazy(self, infos: list[SessionInfo]) -> None:
        """`_rebuild` from nothing for Home, which shows one page of 10,000 records: a
        game whose record surely builds gets its newest-first key now (records.prepare,
        a third of a record's time) and its record when something needs it (`_page`,
        `_complete`, from what prepare read); any other is built now, as _rebuild
        builds it. The order, the total and the games skipped are those of _rebuild."""
        fresh: dict[str, tuple[str, GameRecord]] = {}
        skipped: set[str] = set()
        unfinished: list[SessionInfo] = []
        pending: dict[str, tuple[SessionInfo, Prepared]] = {}
        keyed: list[tuple[SortKey, str]] = []
        for info in infos:
            if not info.finished:
                unfinished.append(info)
                continue
            ready = prepare(info)
            if ready is not None:
                pending[info.id] = (info, ready)
                keyed.append((ready.key, info.id))
                continue
            try:
                record = build_record(info)
            except Exception:  # a strange summary is skipped, never raised
                skipped.add(info.id)
                continue
            fresh[info.id] = (info.updated_at, record)
            keyed.append((newest_first_key(record), info.id))
        keyed.sort(key=itemgetter(0), reverse=True)
        self._by_id = fresh
        self._unfinished = _last_saved_first(unfinished)
        self._unfinished_by_id = {info.id: info for info in unfinished}
        self._skipped_ids = skipped
        self.skipped = len(skipped)
        self._pending = pending
        self._order = keyed
        self._sorted, self._keys = [], []  # made by _complete
        self._forget_derived()

    def _page(self, start: int, stop: int) -> list[GameRecord] | None:
        """Records start..stop of the order while some are pending, those built now;
        None if one did not build after all (then all are built: `_complete`)."""
        page = []
        for _, session_id in self._order[start:stop]:
            waiting = self._pending.pop(session_id, None)
            if waiting is not None:
                info, ready = waiting
                try:
                    self._by_id[session_id] = (info.updated_at, build_prepared(info, ready))
                except Exception:  # prepare said it builds: never, but never raised
                    self._pending[session_id] = waiting
                    self._complete()
                    return None
            page.append(self._by_id[session_id][1])
        return page

    def _complete(self) -> None:
        """Build the records Home's first look left for later, in their place."""
        if not self._order:
            return
        with _gc_paused():  # 40,000 objects, no cycles among them
            for session_id, (info, ready) in self._pending.items():
                try:
                    self._by_id[session_id] = (info.updated_at, build_prepared(info, ready))
                except Exception:  # prepare said it builds: never, but never raised
                    self._skipped_ids.add(session_id)
            order = [(key, sid) for key, sid in self._order if sid in self._by_id]
            self._sorted = [self._by_id[sid][1] for _, sid in order]
            self._keys = [key for key, _ in reversed(order)]
            self.skipped = len(self._skipped_ids)
            self._pending, self._order = {}, []
            self._forget_derived()

    def unfinished(self, store: ListingStore) -> list[SessionInfo]:
        """The games not finished yet, last saved first, from the same listing as the
        records (Home's "Continue a game"; do not change the list)."""
        with self._lock:
            self._current(store)
            return self._unfinished

    def home(self, store: ListingStore, page: int = 0, page_size: int = DEFAULT_PAGE_SIZE
             ) -> tuple[list[SessionInfo], HistoryPage]:
        """What Home shows, from one look at the store: the unfinished games and one page
        of the finished ones, newest first (a page past the end: the last page)."""
        if page < 0 or not 1 <= page_size <= 1000:
            raise ValueError(f"no such page: page {page}, page size {page_size}")
        with self._lock:
            records = self._current(store, partial=True)
            unfinished = self._unfinished
            total = len(self._order) if self._order else len(records)
            last = max(0, (total - 1) // page_size)
            page = min(page, last)
            start = page * page_size
            items = self._page(start, start + page_size) if self._order else None
            if items is None:  # every record built
                records = self._sorted
                total = len(records)
                last = max(0, (total - 1) // page_size)
                page = min(page, last)
                start = page * page_size
                items = records[start:start + page_size]
        return unfinished, HistoryPage(items=items, page=page, page_size=page_size,
                                       total=total)

    def rescan(self) -> None:
        """Many games were just written (an import): do not trust the folder's mtime at
        the next look; its scan then reads the files that changed, one by one."""
        with self._lock:
            self._quiet_mtime = None

    def invalidate(self) -> None:
        """Forget the fingerprint: the next call lists the store again (records of
        unchanged games are kept)."""
        with self._lock:
            self._valid = False
            self._quiet_mtime = None

    # -- pages and statistics -------------------------------------------------------------

    def page(self, store: ListingStore, flt: HistoryFilter | None = None, *,
             page: int = 0, page_size: int = DEFAULT_PAGE_SIZE,
             merges: Mapping[str, str] | None = None) -> HistoryPage:
        """One page of the matching records, as query.history_page gives it."""
        if page < 0 or not 1 <= page_size <= 1000:
            raise ValueError(f"no such page: page {page}, page size {page_size}")
        flt = flt or HistoryFilter()
        with self._lock:
            records = self._current(store)
            key = json.dumps([flt.model_dump(mode="json"), dict(merges or {})],
                             sort_keys=True)
            if flt == HistoryFilter():
                chosen = records
            elif self._filtered is not None and self._filtered[0] == key:
                chosen = self._filtered[1]
            else:
                matcher = NameMatcher(merges)
                chosen = [r for r in records if matches(r, flt, matcher)]
                self._filtered = (key, chosen)
        start = page * page_size
        return HistoryPage(items=chosen[start:start + page_size], page=page,
                           page_size=page_size, total=len(chosen))

    def stats(self, store: ListingStore, merges: Mapping[str, str] | None = None, *,
              game: str | None = None) -> Statistics:
        with self._lock:
            records = self._current(store)
            key = json.dumps([game, dict(merges or {})], sort_keys=True)
            found = self._stats.get(key)
            if found is None:
                with _gc_paused():  # 100,000 small objects, no cycles among them
                    # The records' keys, newest first, as the cache keeps them.
                    keys = self._keys[::-1] if len(self._keys) == len(records) else None
                    found = compute_stats(records, merges, game=game, keys=keys)
                if len(self._stats) >= _MAX_STATS:
                    self._stats.pop(next(iter(self._stats)))
                self._stats[key] = found
            return found

    def player_names(self, store: ListingStore,
                     merges: Mapping[str, str] | None = None) -> list[str]:
        """Every player once (matched as the statistics match them), shown by the name
        the statistics show, sorted case-insensitively."""
        with self._lock:
            records = self._current(store)
            key = "names:" + json.dumps(dict(merges or {}), sort_keys=True)
            cached = self._names.get(key)
            if cached is None:
                matcher = NameMatcher(merges)
                latest: dict[str, str] = {}
                for record in reversed(records):  # oldest first: the newest spelling wins
                    for p in record.players:
                        latest[matcher.key(p.name)] = p.name
                shown = {k: matcher.preferred.get(k, n) for k, n in latest.items()}
                cached = sorted(shown.values(), key=str.casefold)
                self._names = {key: cached}
            return cached

    def games(self, store: ListingStore) -> list[str]:
        """The games that have finished records, most played first."""
        counts: dict[str, int] = {}
        for r in self.records(store):
            counts[r.game] = counts.get(r.game, 0) + 1
        return sorted(counts, key=lambda g: (-counts[g], g))


def _last_saved_first(infos: Iterable[SessionInfo]) -> list[SessionInfo]:
    """Last played first (played.py; for games that name no last played, the order the
    store lists them in: TinyDBStore.list_sessions)."""
    return sorted(infos, key=played_sort_key, reverse=True)


_CACHES: weakref.WeakKeyDictionary[Any, HistoryCache] = weakref.WeakKeyDictionary()
_CACHES_LOCK = threading.Lock()


def history_cache(store: ListingStore) -> HistoryCache:
    """The one cache of `store` in this process."""
    with _CACHES_LOCK:
        cache = _CACHES.get(store)
        if cache is None:
            cache = HistoryCache()
            _CACHES[store] = cache
        return cache
