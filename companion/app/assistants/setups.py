"""The three assistants' setup screens (/new/<game>), named in routes.py by module path so
that start-up imports none of them."""

from __future__ import annotations

from companion.app.assistants.setup import SetupScreen
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
