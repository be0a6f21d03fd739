"""Routes of the scoring assistants: /new/<game> (setup) and /play/<game>/:session_id, for
every game of the registry (companion/games) that has assistant screens. Screens are named
by module path and imported when first opened (see routing.LazyScreen); the setup screens
are in setups.py."""

from __future__ import annotations

from companion.app.routing import RouteSpec, lazy
from companion.games import GAMES


def tally_routes() -> dict[str, RouteSpec]:
    routes: dict[str, RouteSpec] = {}
    for game in GAMES:
        if game.setup_screen is None or game.play_screen is None:
            continue  # Village: its own screens (companion/app/village/routes.py)
        for start in game.starts:
            routes[start.route] = RouteSpec(lazy(game.setup_screen))
        routes[game.play_route.format(id=":session_id")] = RouteSpec(
            lazy(game.play_screen), keeps_awake=True)
    return routes
