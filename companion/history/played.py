"""When a game was last played: the time of its last saved game action (issue 22.8).

The store's `updated_at` moves with every write, also with writes that are no play:
abandoning a game or taking the mark off again, a preference, an import. So a game's
service writes `summary["played_at"]` (ISO 8601, UTC) with every save of game events,
and everything else keeps the summary's value as it was. Games saved before it was kept
have none: their last played is `updated_at` until an abandon, a resume or an import
writes it down (`keep_played`) from what was last played until then.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.store.base import SessionInfo, iso_to_ts

PLAYED_KEY = "played_at"


def _valid(value: object) -> str | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        iso_to_ts(value)
    except (TypeError, ValueError):
        return None
    return value


def last_played(info: SessionInfo) -> str:
    """When `info`'s game was last played (ISO 8601, UTC)."""
    return _valid(info.summary.get(PLAYED_KEY)) or info.updated_at


def keep_played(summary: Mapping[str, Any], played: str | None) -> dict[str, Any]:
    """`summary` as it is, with `played` written down as its last played when it names
    none yet (a write that is no play must not move it)."""
    out = dict(summary)
    if _valid(out.get(PLAYED_KEY)) is None and _valid(played) is not None:
        out[PLAYED_KEY] = played
    return out


def played_sort_key(info: SessionInfo) -> tuple[float, str, str]:
    """Last played first (with reverse=True), as the store orders by last saved."""
    return (iso_to_ts(last_played(info)), info.created_at, info.id)
