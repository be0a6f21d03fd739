"""Game positions for the panel tests, built with the engine and adopted into the hub.

A game is created through the service over a MemoryStore (so finishing it saves history),
its first bag draw entered by hand so the board holds known cubes, then later draws are
left to the app. Deeper positions write `session.state` directly (marked "Position:"),
as the engine's own rule tests do.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest

from companion.app.routing import HOME_ROUTE, RouteSpec
from companion.app.views.home import HomeScreen
from companion.app.village.hub import HUB
from companion.app.village.routes import village_routes
from companion.store.memory import MemoryStore
from companion.village.commands import Command
from companion.village.outcomes import BagOutcome
from companion.village.rules.bag import space_quota
from companion.village.rules.context import Ctx
from companion.village.service import VillageService
from companion.village.session import RawCommand, VillageSession, validate_command
from companion.village.setup import PlayerSetup, VillageSetup

from ..harness import AppHarness, FakeClient

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]
COLOURS = ["red", "blue", "yellow", "white", "purple"]
FILL_ORDER = ["brown", "pink", "orange", "green", "plague"]


@dataclass
class Game:
    store: MemoryStore
    service: VillageService
    sid: str
    session: VillageSession

    def execute(self, command: Command | RawCommand) -> None:
        """A command as a test writes it (a dict is checked into its model at the
        session's boundary first), saved through the service."""
        self.service.execute(self.sid, self.session, validate_command(command))

    def route(self, panel: str) -> str:
        return f"/play/village/{self.sid}/{panel}"


def placements(session: VillageSession, wanted: dict[str, list[str]]) -> dict[str, list[str]]:
    """A bag draw that puts `wanted` cubes first on their spaces and deals the rest of the
    bag's cubes, colour by colour, to fill every space's quota."""
    left = dict(session.state.bag)
    for cubes in wanted.values():
        for c in cubes:
            left[c] -= 1
    turn = 0
    out: dict[str, list[str]] = {}
    for space, n in space_quota(Ctx(session.state, session.comp)).items():
        got = list(wanted.get(space, []))
        while len(got) < n:
            colours = [c for c in FILL_ORDER if left.get(c, 0) > 0 and c != "plague"] or [
                c for c in FILL_ORDER if left.get(c, 0) > 0]
            c = colours[turn % len(colours)]
            turn += 1
            left[c] -= 1
            got.append(c)
        out[space] = got
    return out


def new_game(n: int = 3, wanted: dict[str, list[str]] | None = None, **kw: Any) -> Game:
    """Round 1, Ann (seat 0) about to take a cube; `wanted` cubes are on their spaces."""
    store = MemoryStore()
    service = VillageService(store)
    setup = VillageSetup(players=[PlayerSetup(name=a, colour=c)
                                  for a, c in zip(NAMES[:n], COLOURS[:n], strict=True)],
                         start_player=0, compensation=False, **kw)
    sid, session = service.create(setup, draw_mode="manual")
    service.enter_draw(sid, session, BagOutcome(placements=placements(session, wanted or {})))
    session.draw_mode = "app"  # later draws (the mass) are the app's
    HUB.adopt(sid, session)
    return Game(store, service, sid, session)


def acting(space: str, colour: str = "brown", n: int = 3) -> Game:
    """Ann has taken a `colour` cube from `space` and may do its action."""
    game = new_game(n, {space: [colour]})
    game.execute({"type": "take_cube", "space": space, "colour": colour})
    return game


@pytest.fixture(autouse=True)
def _forget_sessions() -> Iterator[None]:
    yield
    HUB._open.clear()  # each test opens its own games


def village_app_routes() -> dict[str, RouteSpec]:
    """Home plus every Village route, as routes.py registers them (the other games'
    screens are left out so their work in progress cannot break these tests)."""
    return {HOME_ROUTE: RouteSpec(HomeScreen, parent=None), **village_routes()}


@contextmanager
def open_panel(game: Game, panel: str, client: FakeClient | None = None
               ) -> Iterator[AppHarness]:
    """The app on one panel of `game`, as a phone that typed its address."""
    with AppHarness(game.store, routes=village_app_routes(), client=client) as app:
        app.set_route(game.route(panel))
        yield app


def texts(app: AppHarness) -> list[str]:
    return app.visible_texts()


def has_text(app: AppHarness, fragment: str) -> bool:
    return any(fragment in t for t in app.visible_texts())


def pick(app: AppHarness, key: str) -> None:
    """Tap a choice chip (the client flips `selected`, then sends the select event)."""
    chip = app.find(key=key)
    assert app.session is not None
    app.session.apply_patch(chip._i, {"selected": not getattr(chip, "selected", False)})
    app.dispatch(chip, "select", "true")


def tap(app: AppHarness, key: str) -> None:
    app.click(key=key)


def value_of(app: AppHarness, key: str) -> str:
    control = app.find(key=key)
    return str(getattr(control, "value", ""))


def toasts(app: AppHarness) -> list[str]:
    return app.toasts()


def texts_in(app: AppHarness, identifier: str) -> str:
    """Every text under the control marked `identifier`, joined by new lines."""
    root = app.find(identifier=identifier)
    return "\n".join(t for c, _ in app.walk(root) for t in app.own_texts(c))


def at_mass(game: Game) -> None:
    """Position: one cube left on the board, in the last seat's hand; taking it and ending
    the turn starts the round's mass."""
    st = game.session.state
    for space, cubes in st.spaces.items():
        for c in cubes:
            st.bag[c] = st.bag.get(c, 0) + 1
        st.spaces[space] = []
    st.bag["brown"] -= 1
    st.spaces["harvest"] = ["brown"]
    st.current = len(st.players) - 1
    game.execute({"type": "take_cube", "space": "harvest", "colour": "brown"})
    game.execute({"type": "end_turn"})
