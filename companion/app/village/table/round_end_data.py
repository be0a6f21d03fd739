"""The log's round end and round 1's setup steps for the screens, worked out once per
change of the log (the store thread warms it after each action, see the controller)."""

from __future__ import annotations

import logging
import threading
import weakref
from typing import Any

from companion.core.json_types import JsonObject
from companion.village import table_marks
from companion.village.round_end import RoundEnd, last_round_end, opening
from companion.village.session import VillageSession

logger = logging.getLogger(__name__)
_CACHE: weakref.WeakKeyDictionary[VillageSession, dict[str, tuple[Any, Any]]] = (
    weakref.WeakKeyDictionary())
_LOCK = threading.Lock()  # the store thread warms it, the event loop reads it


def _log_key(session: VillageSession) -> tuple[int, str]:
    events = session.events
    return len(events), repr(events[-1]) if events else ""


def _cached(session: VillageSession, name: str, work: Any) -> Any:
    key = _log_key(session)
    with _LOCK:
        hit = _CACHE.setdefault(session, {}).get(name)
    if hit is not None and hit[0] == key:
        return hit[1]
    try:
        value = work(session.setup, session.comp, list(session.events))
    except Exception:  # a log its fold refuses (set up by hand): no steps, never a crash
        logger.exception("the round end of the log could not be read")
        value = None
    with _LOCK:
        _CACHE.setdefault(session, {})[name] = (key, value)
    return value


def round_end_of(session: VillageSession) -> RoundEnd | None:
    """The newest round end of the game's log."""
    return _cached(session, "round_end", last_round_end)


def opening_of(session: VillageSession) -> tuple[int, list[JsonObject]] | None:
    """Round 1's setup steps (see round_end.opening)."""
    return _cached(session, "opening", opening)


def current_round_end(session: VillageSession) -> RoundEnd | None:
    """The round end the table is busy with now: the one that starts the current round
    (its marks' scope), or None in round 1."""
    end = round_end_of(session)
    if end is None or end.scope != table_marks.scope(session.state):
        return None
    return end


def open_steps(end: RoundEnd, done: frozenset[str]) -> int:
    return sum(1 for step in end.steps if step.id not in done)
