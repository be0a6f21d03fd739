"""The history screens' routes (registered in companion/app/routes.py)."""

from __future__ import annotations

from companion.app.history.paths import (
    BACKUP_ROUTE,
    HISTORY_ROUTE,
    REPLAY_PATTERN,
    STATS_ROUTE,
)
from companion.app.routing import RouteSpec, lazy

_HISTORY = "companion.app.history"


def history_routes() -> dict[str, RouteSpec]:
    return {
        HISTORY_ROUTE: RouteSpec(lazy(f"{_HISTORY}.screen:HistoryScreen")),
        STATS_ROUTE: RouteSpec(lazy(f"{_HISTORY}.stats_screen:StatisticsScreen"),
                               parent=HISTORY_ROUTE),
        BACKUP_ROUTE: RouteSpec(lazy(f"{_HISTORY}.backup_screen:BackupScreen"),
                                parent=HISTORY_ROUTE),
        # Read only, step by step; back returns to History.
        REPLAY_PATTERN: RouteSpec(lazy(f"{_HISTORY}.replay_screen:ReplayScreen"),
                                  parent=HISTORY_ROUTE),
    }
