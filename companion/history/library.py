"""The library of stored games: what Home and History do to a whole game (delete it to the
trash and restore it, abandon it and take that back, import a backup), with every copy this
process keeps of it brought in step. No UI here: the screens call these on the store
thread (ctx.in_background) and only show the outcome.

    trash_id = Library(store).trash(session_id)  # ... Undo:
    Library(store).restore(trash_id)

Copies in memory: a game open on some screen is shared by every client (the app's
SharedSessions hubs). Such a cache registers itself with `keep_in_step(cache)` when it is
made; each action here drops the game from every registered cache, so the next open reads
the store again (a trashed game says it is gone; an abandoned one loads its new version,
whose save would otherwise be refused as stale). The finished-game list (history/cache.py)
follows the store's files by itself; an import, which may add many at once, makes it list
the store again.
"""

from __future__ import annotations

import threading
from typing import Protocol, cast

from companion.history import abandon as abandoning
from companion.history.backup import BackupStore, ImportReport, import_backup
from companion.history.cache import history_cache
from companion.store.base import SessionStore


class SessionCache(Protocol):
    """Keeps games in memory by id (the app's SharedSessions)."""

    def forget(self, session_id: str) -> None: ...


_CACHES: list[SessionCache] = []
_CACHES_LOCK = threading.Lock()


def keep_in_step(cache: SessionCache) -> SessionCache:
    """Register `cache`: every library action drops the games it changes from it."""
    with _CACHES_LOCK:
        if not any(c is cache for c in _CACHES):
            _CACHES.append(cache)
    return cache


def session_caches() -> list[SessionCache]:
    with _CACHES_LOCK:
        return list(_CACHES)


class Library:
    """Actions on whole games of `store` (blocking: run them on the store thread)."""

    def __init__(self, store: SessionStore, caches: list[SessionCache] | None = None) -> None:
        self.store = store
        self._caches = caches

    def trash(self, session_id: str) -> str:
        """Move a game to the trash (restorable); the id `restore` takes. A copy another
        screen holds is dropped: opening the game now says it is gone."""
        trash_id = self.store.trash(session_id)
        self.forget(session_id)
        return trash_id

    def restore(self, trash_id: str) -> str:
        """Put a deleted game back exactly as it was; its session id. KeyError: not in
        the trash (restored already); SessionExists: its id was taken meanwhile."""
        session_id = self.store.restore(trash_id)
        self.forget(session_id)  # loaded again from the restored file
        return session_id

    def abandon(self, session_id: str) -> int:
        """Mark a game abandoned (kept, off "Continue a game"); the new version (see
        history/abandon.py: FinishedGame, StaleWrite, SessionNotFound)."""
        version = abandoning.abandon(self.store, session_id)
        self.forget(session_id)  # its version is now behind the file's
        return version

    def resume(self, session_id: str) -> int:
        """An abandoned game back among the games to continue; the new version."""
        version = abandoning.resume(self.store, session_id)
        self.forget(session_id)
        return version

    def import_backup(self, data: bytes) -> ImportReport:
        """Import a backup file's bytes (BackupError: damaged, foreign or read-only; then
        nothing was changed). An import never replaces a stored game, only adds them."""
        report = import_backup(cast(BackupStore, self.store), data)
        history_cache(self.store).rescan()
        return report

    def forget(self, session_id: str) -> None:
        """Drop `session_id` from every cache in memory (the next open reads the store)."""
        for cache in self._caches if self._caches is not None else session_caches():
            cache.forget(session_id)
