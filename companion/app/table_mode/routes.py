"""Table-mode routes: the host's share screen and the phone's seat screen sit above the
game's table (back returns there); the "no longer joined" note stands alone."""

from __future__ import annotations

from companion.app.routing import RouteSpec, lazy
from companion.app.table_mode.paths import LEFT_ROUTE, SEAT_PATTERN, SHARE_PATTERN
from companion.app.village.table.paths import TABLE_PATTERN

_TABLE_MODE = "companion.app.table_mode"


def table_mode_routes() -> dict[str, RouteSpec]:
    return {
        SHARE_PATTERN: RouteSpec(lazy(f"{_TABLE_MODE}.host_screen:HostShareScreen"),
                                 parent=TABLE_PATTERN, keeps_awake=True),
        SEAT_PATTERN: RouteSpec(lazy(f"{_TABLE_MODE}.seat_screen:SeatScreen"),
                                parent=TABLE_PATTERN, keeps_awake=True),
        LEFT_ROUTE: RouteSpec(lazy(f"{_TABLE_MODE}.left_screen:LeftScreen"), parent=None),
    }
