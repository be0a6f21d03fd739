"""Helpers for the Village table tests: games made through the real service, and taps on
controls found by their semantics identifier (what the web DOM exposes too)."""

from __future__ import annotations

from typing import Any, Literal

import flet as ft

from companion.app.routing import HOME_ROUTE, RouteSpec
from companion.app.views.home import HomeScreen
from companion.app.village.routes import village_routes
from companion.store.base import SessionStore
from companion.store.memory import MemoryStore
from companion.village.service import VillageService
from companion.village.setup import PlayerSetup, VillageSetup

from ..harness import AppHarness, FakeClient, HarnessError

NAMES = [("Ann", "red"), ("Bo", "blue"), ("Cy", "white"), ("Di", "yellow"), ("Ed", "purple")]


def make_game(store: MemoryStore, *, players: int = 2, solo: bool = False,
              draw_mode: Literal["app", "manual"] = "app",
              karla_policy: Literal["ask", "auto"] = "ask", seed: int = 1,
              start_player: int | None = 0, compensation: bool = False,
              variant: Literal["standard", "d4"] = "standard") -> str:
    people = NAMES[:1] if solo else NAMES[:players]
    setup = VillageSetup(players=[PlayerSetup(name=n, colour=c) for n, c in people],
                         solo=solo, karla_colour="purple" if solo else None,
                         start_player=start_player, compensation=compensation, seed=seed,
                         karla_variant=variant)
    session_id, _ = VillageService(store).create(setup, draw_mode=draw_mode,
                                                 karla_policy=karla_policy)
    return session_id


def village_only_routes() -> dict[str, RouteSpec]:
    """Home plus the Village screens: these tests do not depend on other games' routes."""
    return {HOME_ROUTE: RouteSpec(HomeScreen, parent=None), **village_routes()}


def open_app(store: SessionStore, route: str) -> AppHarness:
    """The app opened at `route`; use it as `with open_app(...) as app:` (that starts it)."""
    return AppHarness(store, routes=village_only_routes(),
                      client=FakeClient(initial_route=route))


def find_id(app: AppHarness, identifier: str) -> ft.Semantics:
    """The control carrying `identifier` (only a Semantics carries one)."""
    return app.find_as(ft.Semantics, identifier=identifier)


def tap(app: AppHarness, identifier: str) -> None:
    """Tap the control carrying `identifier`: itself or the first tappable one inside."""
    root = find_id(app, identifier)
    for control, _ in app.walk(root, visible_only=True):
        if getattr(control, "on_click", None) is not None:
            if getattr(control, "disabled", False):
                raise HarnessError(f"{identifier} is disabled")
            app.dispatch(control, "click")
            return
    raise HarnessError(f"nothing tappable under {identifier}")


def expand_instructions(app: AppHarness) -> None:
    """Open the table's instructions card (collapsed by default) if it is closed."""
    toggle = find_id(app, "table-instructions-toggle")
    if not getattr(toggle, "expanded", False):
        tap(app, "table-instructions-toggle")


def is_disabled(app: AppHarness, identifier: str) -> bool:
    root = find_id(app, identifier)
    return any(getattr(c, "disabled", False) for c, _ in app.walk(root)
               if getattr(c, "on_click", None) is not None)


def texts_under(app: AppHarness, identifier: str) -> list[str]:
    root = find_id(app, identifier)
    return [t for c, _ in app.walk(root, visible_only=True) for t in app.own_texts(c)]


def open_dialogs(app: AppHarness) -> list[Any]:
    return [d for d in app.page._dialogs.controls
            if getattr(d, "open", False) and isinstance(d, ft.AlertDialog)]


def start_anyway(app: AppHarness) -> None:
    """Tap Start on the wizard's last step and start with the values left unchecked."""
    app.click("Start game")
    app.click("Start anyway")


CUBE_ORDER = ("brown", "pink", "orange", "green", "plague")


def fill_bag_form(app: AppHarness, quota: dict[str, int], bag: dict[str, int], *,
                  skip: tuple[tuple[str, int], ...] = (), brush: str | None = None) -> None:
    """Paint every slot of the bag form with colours the bag still holds."""
    left = dict(bag)
    for space, n in quota.items():
        for k in range(n):
            if (space, k) in skip:
                continue
            colour = next(c for c in CUBE_ORDER if left.get(c, 0) > 0)
            if colour != brush:
                tap(app, f"bag-brush-{colour}")
                brush = colour
            tap(app, f"bag-slot-{space}-{k}")
            left[colour] -= 1
