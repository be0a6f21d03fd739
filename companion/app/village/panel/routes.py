"""Village panel routes (see companion/app/village/routes.py).

Each panel keeps the phone awake and has the table as its parent, given as the table's
route pattern. Router.chain fills the panel's own `:session_id` into that pattern
(routing.fill_params), so the stack under a panel is [Home, this game's table, panel]
and both the system back (a view pop) and the panel's back arrow return to that table.
"""

from __future__ import annotations

from companion.app.routing import RouteSpec, lazy
from companion.app.village.table.paths import TABLE_PATTERN

PLAYER_PATTERN = f"{TABLE_PATTERN}/player/:index"
# The same panel opened on one action's form (the table's "do the action" shortcut).
PLAYER_ACTION_PATTERN = f"{PLAYER_PATTERN}/:action"
MARKET_PATTERN = f"{TABLE_PATTERN}/market"
MASS_PATTERN = f"{TABLE_PATTERN}/mass"
CHRONICLE_PATTERN = f"{TABLE_PATTERN}/chronicle"
SCORE_PATTERN = f"{TABLE_PATTERN}/score"


_PANEL = "companion.app.village.panel"


def panel_routes() -> dict[str, RouteSpec]:
    player = lazy(f"{_PANEL}.player_screen:PlayerScreen")
    return {
        PLAYER_PATTERN: RouteSpec(player, parent=TABLE_PATTERN, keeps_awake=True),
        PLAYER_ACTION_PATTERN: RouteSpec(player, parent=TABLE_PATTERN, keeps_awake=True),
        MARKET_PATTERN: RouteSpec(lazy(f"{_PANEL}.market_screen:MarketScreen"),
                                  parent=TABLE_PATTERN, keeps_awake=True),
        MASS_PATTERN: RouteSpec(lazy(f"{_PANEL}.mass_screen:MassScreen"),
                                parent=TABLE_PATTERN, keeps_awake=True),
        CHRONICLE_PATTERN: RouteSpec(lazy(f"{_PANEL}.chronicle_screen:ChronicleScreen"),
                                     parent=TABLE_PATTERN, keeps_awake=True),
        SCORE_PATTERN: RouteSpec(lazy(f"{_PANEL}.score_screen:ScoreScreen"),
                                 parent=TABLE_PATTERN, keeps_awake=True),
    }
