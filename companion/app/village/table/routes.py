"""Village table routes (see companion/app/village/routes.py): the new-game wizard, the
table, the log and "How this app reads the rules". The panels (player, market, mass,
chronicle, score) are in panel_routes.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.app.routing import SETTINGS_ROUTE, RouteParams, RouteSpec, ScreenFactory
from companion.app.village.log.screen import LogScreen
from companion.app.village.rules_screen import GameRulesScreen, RulesScreen
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
from companion.app.village.table.round_end import RoundEndScreen
from companion.app.village.table.screen import TableScreen
from companion.app.village.wizard.screen import WizardScreen

if TYPE_CHECKING:
    from companion.app.context import AppContext


def _wizard(solo: bool) -> ScreenFactory:
    def factory(ctx: AppContext, params: RouteParams) -> WizardScreen:
        return WizardScreen(ctx, params, solo=solo)

    return factory


def _solo_rules(ctx: AppContext, params: RouteParams) -> RulesScreen:
    return RulesScreen(ctx, params, edition="big-box", solo=True)


def table_routes() -> dict[str, RouteSpec]:
    return {
        NEW_VILLAGE: RouteSpec(_wizard(False)),
        NEW_VILLAGE_SOLO: RouteSpec(_wizard(True)),
        TABLE_PATTERN: RouteSpec(TableScreen, keeps_awake=True),
        # The log keeps the phone awake too (used mid-game). Its parent is the table: the
        # router fills :session_id from the log's own route (as for the panels).
        LOG_PATTERN: RouteSpec(LogScreen, parent=TABLE_PATTERN, keeps_awake=True),
        # The round's end: above the table, which opens it when a round ends.
        ROUND_END_PATTERN: RouteSpec(RoundEndScreen, parent=TABLE_PATTERN, keeps_awake=True),
        # The rules screen sits above the screen that opened it, so back returns there
        # (for the wizard: with everything entered so far).
        RULES_ROUTE: RouteSpec(RulesScreen, parent=SETTINGS_ROUTE),
        WIZARD_RULES_PATTERN: RouteSpec(RulesScreen, parent=NEW_VILLAGE),
        WIZARD_SOLO_RULES: RouteSpec(_solo_rules, parent=NEW_VILLAGE_SOLO),
        GAME_RULES_PATTERN: RouteSpec(GameRulesScreen, parent=TABLE_PATTERN, keeps_awake=True),
        LOG_RULES_PATTERN: RouteSpec(GameRulesScreen, parent=LOG_PATTERN, keeps_awake=True),
    }
