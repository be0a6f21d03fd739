"""Table-mode routes: the host's share screen and the phone's seat screen sit above the
game's table (back returns there); the "no longer joined" note stands alone."""

from __future__ import annotations

from companion.app.routing import RouteSpec
from companion.app.table_mode.host_screen import HostShareScreen
from companion.app.table_mode.left_screen import LeftScreen
from companion.app.table_mode.paths import LEFT_ROUTE, SEAT_PATTERN, SHARE_PATTERN
from companion.app.table_mode.seat_screen import SeatScreen
from companion.app.village.table.paths import TABLE_PATTERN


def table_mode_routes() -> dict[str, RouteSpec]:
    return {
        SHARE_PATTERN: RouteSpec(HostShareScreen, parent=TABLE_PATTERN, keeps_awake=True),
        SEAT_PATTERN: RouteSpec(SeatScreen, parent=TABLE_PATTERN, keeps_awake=True),
        LEFT_ROUTE: RouteSpec(LeftScreen, parent=None),
    }
