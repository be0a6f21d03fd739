"""Abandoned games: an unfinished game the players gave up on, kept (not deleted) but
off Home's "Continue a game" list; History lists it under "Abandoned", with Resume.

The mark is `summary["abandoned_at"]` (when, ISO 8601 UTC) in the stored game, written by
the store's normal atomic save and naming the version it extends (compare-and-append), so
a game saved meanwhile elsewhere is never overwritten (StaleWrite: reload, ask again). The
summary is what the store lists, so Home and History tell abandoned games apart without
opening any game file. A game's service rewrites its summary on every save, so playing an
abandoned game on (e.g. in a tab still open) brings it back to "Continue", as Resume does.

Neither mark is play: both keep the game's "last played" (played.py) where it was, so
taking an abandon back does not move the game to the top of "Continue a game".

An abandoned game is still unfinished: it has no record (records.py), so it is neither in
the finished history nor in any statistics.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.history.played import keep_played, last_played
from companion.store.base import SessionInfo, SessionStore, StoredSession, utc_iso

ABANDONED_KEY = "abandoned_at"


class FinishedGame(ValueError):
    """A finished game cannot be abandoned (it belongs to the history)."""


def is_abandoned(info: SessionInfo | StoredSession) -> bool:
    return not info.finished and isinstance(info.summary.get(ABANDONED_KEY), str)


def split_unfinished(infos: Iterable[SessionInfo]
                     ) -> tuple[list[SessionInfo], list[SessionInfo]]:
    """(still to continue, abandoned) among unfinished games, each in the given order."""
    going: list[SessionInfo] = []
    abandoned: list[SessionInfo] = []
    for info in infos:
        if info.finished:
            continue
        (abandoned if is_abandoned(info) else going).append(info)
    return going, abandoned


def abandon(store: SessionStore, session_id: str) -> int:
    """Mark an unfinished game abandoned (one atomic write naming the version read);
    the new version. Already abandoned: nothing is written. FinishedGame: it is finished;
    SessionNotFound: gone; StaleWrite: saved elsewhere between the read and the write."""
    stored = store.load(session_id)
    if stored.finished:
        raise FinishedGame(f"{session_id} is finished")
    if is_abandoned(stored):
        return stored.version
    summary = keep_played({**stored.summary, ABANDONED_KEY: utc_iso()},
                          _played_before(store, session_id))
    return store.update_info(session_id, summary=summary, expected=stored.version)


def _played_before(store: SessionStore, session_id: str) -> str | None:
    """The game's last played as listed before this write (its last save, for a game
    whose summary names none yet)."""
    read_one = getattr(store, "session_info", None)
    if callable(read_one):
        info = read_one(session_id)
    else:
        info = next((i for i in store.list_sessions() if i.id == session_id), None)
    return last_played(info) if isinstance(info, SessionInfo) else None


def resume(store: SessionStore, session_id: str) -> int:
    """Take the mark off: the game is back among the games to continue; the new version
    (not abandoned: nothing is written)."""
    stored = store.load(session_id)
    if ABANDONED_KEY not in stored.summary:
        return stored.version
    summary = keep_played({k: v for k, v in stored.summary.items() if k != ABANDONED_KEY},
                          _played_before(store, session_id))
    return store.update_info(session_id, summary=summary, expected=stored.version)
