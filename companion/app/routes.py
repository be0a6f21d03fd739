"""THE place where routes are registered. Game screens plug in here:

    routes["/new/village"] = RouteSpec(lazy("companion.app.village.wizard.screen:WizardScreen"))
    routes["/play/village/:session_id"] = RouteSpec(
        lazy("companion.app.village.table.screen:TableScreen"), keeps_awake=True)

A screen is any `Screen` subclass (or factory `(ctx, params) -> Screen`); see routing.py.
The app's own screens are named by module path (`lazy("package.module:Class")`) and
imported when first opened: start-up imports none of them (issue 23).
"""

from __future__ import annotations

from companion.app.assistants.routes import tally_routes
from companion.app.history.routes import history_routes
from companion.app.routing import HOME_ROUTE, SETTINGS_ROUTE, RouteSpec, lazy
from companion.app.table_mode.routes import table_mode_routes
from companion.app.village.routes import village_routes


def build_routes() -> dict[str, RouteSpec]:
    routes: dict[str, RouteSpec] = {
        HOME_ROUTE: RouteSpec(lazy("companion.app.views.home:HomeScreen"), parent=None),
        SETTINGS_ROUTE: RouteSpec(lazy("companion.app.views.settings:SettingsScreen")),
    }
    routes.update(village_routes())
    routes.update(table_mode_routes())  # table mode: the host's QR screen, a phone's seat
    routes.update(tally_routes())  # the scoring assistants (Small City, Feudum, Villagers)
    routes.update(history_routes())  # after the game: history, statistics, backups
    return routes
