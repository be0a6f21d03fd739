"""All Village routes, gathered from the table side and the panels side."""

from __future__ import annotations

from companion.app.routing import RouteSpec
from companion.app.village.panel.routes import panel_routes
from companion.app.village.table.routes import table_routes


def village_routes() -> dict[str, RouteSpec]:
    routes = table_routes()
    routes.update(panel_routes())
    return routes
