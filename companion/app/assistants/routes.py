"""Routes of the scoring assistants: /new/<game> (setup) and /play/<game>/:session_id."""

from __future__ import annotations

from companion.app.assistants.feudum import FeudumScreen
from companion.app.assistants.setup import SetupScreen
from companion.app.assistants.small_city import SmallCityScreen
from companion.app.assistants.villagers import VillagersScreen
from companion.app.routing import RouteSpec
from companion.small_city.data import STARTING_MONEY


class SmallCitySetup(SetupScreen):
    game = "small-city"
    title_key = "game.small_city"

    def seat_note(self, index: int) -> str | None:
        if index + 1 not in STARTING_MONEY:
            return None
        key = "games.setup.seat_mayor" if index == 0 else "games.setup.seat"
        return self.ctx.t(key, seat=index + 1, money=STARTING_MONEY[index + 1])


class FeudumSetup(SetupScreen):
    game = "feudum"
    title_key = "game.feudum"


class VillagersSetup(SetupScreen):
    game = "villagers"
    title_key = "game.villagers"


def tally_routes() -> dict[str, RouteSpec]:
    return {
        "/new/small-city": RouteSpec(SmallCitySetup),
        "/new/feudum": RouteSpec(FeudumSetup),
        "/new/villagers": RouteSpec(VillagersSetup),
        "/play/small-city/:session_id": RouteSpec(SmallCityScreen, keeps_awake=True),
        "/play/feudum/:session_id": RouteSpec(FeudumScreen, keeps_awake=True),
        "/play/villagers/:session_id": RouteSpec(VillagersScreen, keeps_awake=True),
    }
