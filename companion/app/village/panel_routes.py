"""Village panel routes (see companion/app/village/routes.py)."""

from __future__ import annotations

from companion.app.routing import RouteSpec


def panel_routes() -> dict[str, RouteSpec]:
    return {}
