"""The history screens' routes (registered in companion/app/routes.py)."""

from __future__ import annotations

from companion.app.history.backup_screen import BackupScreen
from companion.app.history.paths import (
    BACKUP_ROUTE,
    HISTORY_ROUTE,
    REPLAY_PATTERN,
    STATS_ROUTE,
)
from companion.app.history.replay_screen import ReplayScreen
from companion.app.history.screen import HistoryScreen
from companion.app.history.stats_screen import StatisticsScreen
from companion.app.routing import RouteSpec


def history_routes() -> dict[str, RouteSpec]:
    return {
        HISTORY_ROUTE: RouteSpec(HistoryScreen),
        STATS_ROUTE: RouteSpec(StatisticsScreen, parent=HISTORY_ROUTE),
        BACKUP_ROUTE: RouteSpec(BackupScreen, parent=HISTORY_ROUTE),
        # Read only, step by step; back returns to History.
        REPLAY_PATTERN: RouteSpec(ReplayScreen, parent=HISTORY_ROUTE),
    }
