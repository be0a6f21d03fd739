"""Routes of the scoring assistants: /new/<game> (setup) and /play/<game>/:session_id.
Screens are named by module path and imported when first opened (see routing.LazyScreen);
the setup screens are in setups.py."""

from __future__ import annotations

from companion.app.routing import RouteSpec, lazy

_ASSISTANTS = "companion.app.assistants"


def tally_routes() -> dict[str, RouteSpec]:
    return {
        "/new/small-city": RouteSpec(lazy(f"{_ASSISTANTS}.setups:SmallCitySetup")),
        "/new/feudum": RouteSpec(lazy(f"{_ASSISTANTS}.setups:FeudumSetup")),
        "/new/villagers": RouteSpec(lazy(f"{_ASSISTANTS}.setups:VillagersSetup")),
        "/play/small-city/:session_id": RouteSpec(
            lazy(f"{_ASSISTANTS}.small_city:SmallCityScreen"), keeps_awake=True),
        "/play/feudum/:session_id": RouteSpec(
            lazy(f"{_ASSISTANTS}.feudum:FeudumScreen"), keeps_awake=True),
        "/play/villagers/:session_id": RouteSpec(
            lazy(f"{_ASSISTANTS}.villagers:VillagersScreen"), keeps_awake=True),
    }
