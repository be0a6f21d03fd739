"""Village panel routes (see companion/app/village/routes.py).

Each panel keeps the phone awake and has the table as its parent, given as the table's
route pattern. Router.chain fills the panel's own `:session_id` into that pattern
(routing.fill_params), so the stack under a panel is [Home, this game's table, panel]
and both the system back (a view pop) and the panel's back arrow return to that table.
"""

from __future__ import annotations

from companion.app.routing import RouteSpec
from companion.app.village.panel.chronicle_screen import ChronicleScreen
from companion.app.village.panel.market_screen import MarketScreen
from companion.app.village.panel.mass_screen import MassScreen
from companion.app.village.panel.player_screen import PlayerScreen
from companion.app.village.panel.score_screen import ScoreScreen
from companion.app.village.table.paths import TABLE_PATTERN

PLAYER_PATTERN = f"{TABLE_PATTERN}/player/:index"
# The same panel opened on one action's form (the table's "do the action" shortcut).
PLAYER_ACTION_PATTERN = f"{PLAYER_PATTERN}/:action"
MARKET_PATTERN = f"{TABLE_PATTERN}/market"
MASS_PATTERN = f"{TABLE_PATTERN}/mass"
CHRONICLE_PATTERN = f"{TABLE_PATTERN}/chronicle"
SCORE_PATTERN = f"{TABLE_PATTERN}/score"


def panel_routes() -> dict[str, RouteSpec]:
    return {
        PLAYER_PATTERN: RouteSpec(PlayerScreen, parent=TABLE_PATTERN, keeps_awake=True),
        PLAYER_ACTION_PATTERN: RouteSpec(PlayerScreen, parent=TABLE_PATTERN,
                                         keeps_awake=True),
        MARKET_PATTERN: RouteSpec(MarketScreen, parent=TABLE_PATTERN, keeps_awake=True),
        MASS_PATTERN: RouteSpec(MassScreen, parent=TABLE_PATTERN, keeps_awake=True),
        CHRONICLE_PATTERN: RouteSpec(ChronicleScreen, parent=TABLE_PATTERN, keeps_awake=True),
        SCORE_PATTERN: RouteSpec(ScoreScreen, parent=TABLE_PATTERN, keeps_awake=True),
    }
