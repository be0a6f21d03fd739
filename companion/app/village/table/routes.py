"""Village table routes (see companion/app/village/routes.py): the new-game wizard, the
table, the log and "How this app reads the rules". The panels (player, market, mass,
chronicle, score) are in panel_routes.py."""

from __future__ import annotations

from companion.app.routing import SETTINGS_ROUTE, RouteSpec, lazy
from companion.app.village.table.paths import (
    GAME_RULES_PATTERN,
    LOG_PATTERN,
    LOG_RULES_PATTERN,
    NEW_VILLAGE,
    NEW_VILLAGE_SOLO,
    ROUND_END_PATTERN,
    RULES_ROUTE,
    TABLE_PATTERN,
    WIZARD_RULES_PATTERN,
    WIZARD_SOLO_RULES,
)

_VILLAGE = "companion.app.village"


def table_routes() -> dict[str, RouteSpec]:
    wizard = f"{_VILLAGE}.wizard.screen:WizardScreen"
    rules = lazy(f"{_VILLAGE}.rules_screen:RulesScreen")
    game_rules = lazy(f"{_VILLAGE}.rules_screen:GameRulesScreen")
    return {
        NEW_VILLAGE: RouteSpec(lazy(wizard, solo=False)),
        NEW_VILLAGE_SOLO: RouteSpec(lazy(wizard, solo=True)),
        TABLE_PATTERN: RouteSpec(lazy(f"{_VILLAGE}.table.screen:TableScreen"),
                                 keeps_awake=True),
        # The log keeps the phone awake too (used mid-game). Its parent is the table: the
        # router fills :session_id from the log's own route (as for the panels).
        LOG_PATTERN: RouteSpec(lazy(f"{_VILLAGE}.log.screen:LogScreen"),
                               parent=TABLE_PATTERN, keeps_awake=True),
        # The round's end: above the table, which opens it when a round ends.
        ROUND_END_PATTERN: RouteSpec(lazy(f"{_VILLAGE}.table.round_end:RoundEndScreen"),
                                     parent=TABLE_PATTERN, keeps_awake=True),
        # The rules screen sits above the screen that opened it, so back returns there
        # (for the wizard: with everything entered so far).
        RULES_ROUTE: RouteSpec(rules, parent=SETTINGS_ROUTE),
        WIZARD_RULES_PATTERN: RouteSpec(rules, parent=NEW_VILLAGE),
        WIZARD_SOLO_RULES: RouteSpec(lazy(f"{_VILLAGE}.rules_screen:RulesScreen",
                                          edition="big-box", solo=True),
                                     parent=NEW_VILLAGE_SOLO),
        GAME_RULES_PATTERN: RouteSpec(game_rules, parent=TABLE_PATTERN, keeps_awake=True),
        LOG_RULES_PATTERN: RouteSpec(game_rules, parent=LOG_PATTERN, keeps_awake=True),
    }
