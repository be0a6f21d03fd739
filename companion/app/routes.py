"""THE place where routes are registered. Game screens plug in here:

    routes["/new/village"] = RouteSpec(NewVillageScreen)
    routes["/play/village/:session_id"] = RouteSpec(VillageTableScreen, keeps_awake=True)

A screen is any `Screen` subclass (or factory `(ctx, params) -> Screen`); see routing.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.app.routing import HOME_ROUTE, RouteParams, RouteSpec, ScreenFactory
from companion.app.views.home import NEW_GAMES, HomeScreen
from companion.app.views.placeholders import ComingSoonScreen, SavedSessionScreen
from companion.app.views.settings import SettingsScreen

if TYPE_CHECKING:
    from companion.app.context import AppContext

SETTINGS_ROUTE = "/settings"
SESSION_ROUTE_PATTERN = "/session/:session_id"


def coming_soon(game_label_key: str) -> ScreenFactory:
    def factory(ctx: AppContext, params: RouteParams) -> ComingSoonScreen:
        return ComingSoonScreen(ctx, params, game_label_key=game_label_key)

    return factory


def build_routes() -> dict[str, RouteSpec]:
    routes: dict[str, RouteSpec] = {
        HOME_ROUTE: RouteSpec(HomeScreen, parent=None),
        SETTINGS_ROUTE: RouteSpec(SettingsScreen),
        # Placeholder until the game screens own resuming; keeps the phone awake like
        # a game screen will.
        SESSION_ROUTE_PATTERN: RouteSpec(SavedSessionScreen, keeps_awake=True),
    }
    for game in NEW_GAMES:  # "coming soon" until the setup screens land
        routes[game.route] = RouteSpec(coming_soon(game.label_key))
    from companion.app.village.routes import village_routes

    routes.update(village_routes())  # the Village screens replace their placeholders
    from companion.app.games.routes import tally_routes

    routes.update(tally_routes())  # so do the scoring assistants (Small City, Feudum, ...)
    return routes
