"""Village table routes (see companion/app/village/routes.py): the new-game wizard, the
table and the log. The panels (player, market, mass, chronicle, score) are in
panel_routes.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.app.routing import RouteParams, RouteSpec, ScreenFactory
from companion.app.village.log_screen import LogScreen
from companion.app.village.table_paths import (
    LOG_PATTERN,
    NEW_VILLAGE,
    NEW_VILLAGE_SOLO,
    TABLE_PATTERN,
)
from companion.app.village.table_screen import TableScreen
from companion.app.village.wizard_screen import WizardScreen

if TYPE_CHECKING:
    from companion.app.context import AppContext


def _wizard(solo: bool) -> ScreenFactory:
    def factory(ctx: AppContext, params: RouteParams) -> WizardScreen:
        return WizardScreen(ctx, params, solo=solo)

    return factory


def table_routes() -> dict[str, RouteSpec]:
    return {
        NEW_VILLAGE: RouteSpec(_wizard(False)),
        NEW_VILLAGE_SOLO: RouteSpec(_wizard(True)),
        TABLE_PATTERN: RouteSpec(TableScreen, keeps_awake=True),
        # The log keeps the phone awake too (used mid-game). Its parent is the table: the
        # router fills :session_id from the log's own route (as for the panels).
        LOG_PATTERN: RouteSpec(LogScreen, parent=TABLE_PATTERN, keeps_awake=True),
    }
