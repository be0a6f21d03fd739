"""A small router over `page.views`: route patterns -> screens, with a back stack.

Why not only `page.on_route_change`: navigating through the client (`page.navigate`) is a
round trip, so `go()` renders at once and then tells the client to update its URL and
history; the echoed route_change is ignored because that route is already shown. Browser
back/forward and deep links still arrive as route_change events and are rendered here.

The stack for a route is its chain of `parent` routes, so `/settings` shows as
[Home, Settings] and the AppBar back arrow (a view pop) returns to Home.

Why not Flet 1.0's `ft.Router` (flet/components/router.py): it is a declarative
component (`@ft.component`, `use_state`, `page.render_views`) and renders a component
tree per route; every screen here is an imperative class that builds its controls and
updates only the ones that changed. Adopting it means rewriting every screen as a
component, for the same pattern matching and view stack this module gives in 200 lines.
"""

from __future__ import annotations

import importlib
import logging
import sys
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import flet as ft

from companion.app.theme import load_all_web_fonts

if TYPE_CHECKING:
    from companion.app.context import AppContext

logger = logging.getLogger(__name__)

RouteParams = Mapping[str, str]
HOME_ROUTE = "/"
SETTINGS_ROUTE = "/settings"


class Screen:
    """Base for every screen. `build()` returns the ft.View; hooks are optional."""

    def __init__(self, ctx: AppContext, params: RouteParams) -> None:
        self.ctx = ctx
        self.params = params

    def build(self) -> ft.View:
        raise NotImplementedError

    def did_appear(self) -> None:
        """The screen became the top view: start (background) data loads here."""

    def will_disappear(self) -> None:
        """The screen stops being the top view or is dropped from the stack."""

    def did_resize(self) -> None:
        """The window changed size while this screen is the top view (`page.width` holds
        the new width): a screen with a wide layout switches here."""


ScreenFactory = Callable[["AppContext", RouteParams], Screen]


_IMPORTING = threading.RLock()


@dataclass(frozen=True)
class LazyScreen:
    """A screen named by its module path, `"package.module:Name"`, imported when it is
    first opened, so that start-up imports no screen (issue 23: the server's first answer
    waited for every screen module, flet_charts and matplotlib among them). `options` are
    keyword arguments given to the screen with `(ctx, params)`, e.g. `solo=True`."""

    target: str
    options: tuple[tuple[str, object], ...] = ()

    @property
    def module(self) -> str:
        return self.target.partition(":")[0]

    @property
    def loaded(self) -> bool:
        return self.module in sys.modules

    def load(self) -> Callable[..., Screen]:
        """Import the module (once; later calls are a dictionary look-up). Imports go one
        at a time (the background warm-up and a screen opened meanwhile never import the
        same modules in two orders at once)."""
        module_name, _, name = self.target.partition(":")
        module = sys.modules.get(module_name)
        if module is None or getattr(module.__spec__, "_initializing", False):
            with _IMPORTING:
                module = importlib.import_module(module_name)
        factory: Callable[..., Screen] = getattr(module, name)
        return factory

    def __call__(self, ctx: AppContext, params: RouteParams) -> Screen:
        return self.load()(ctx, params, **dict(self.options))


def lazy(target: str, **options: object) -> LazyScreen:
    """`lazy("companion.app.history.stats_screen:StatisticsScreen")`: see LazyScreen."""
    return LazyScreen(target, tuple(sorted(options.items())))


def load_modules(names: Iterable[str]) -> None:
    """Import `names` (one import at a time, as LazyScreen.load): for a worker thread."""
    with _IMPORTING:
        for name in names:
            importlib.import_module(name)


def load_screens(factories: Iterable[ScreenFactory]) -> None:
    """Import every lazy screen among `factories` not imported yet. Call it on a worker
    thread (`asyncio.to_thread`): an import holds up the event loop and so every client."""
    for factory in factories:
        if isinstance(factory, LazyScreen) and not factory.loaded:
            try:
                factory.load()
            except Exception:  # opening the screen will raise it where it is seen
                logger.exception("importing %s failed", factory.target)


@dataclass(frozen=True)
class RouteSpec:
    screen: ScreenFactory
    parent: str | None = HOME_ROUTE  # where "back" goes; None only for Home
    keeps_awake: bool = False  # game screens: keep the phone screen on while shown


def normalize(route: str) -> str:
    path = (route or "/").split("?", 1)[0].split("#", 1)[0]
    if not path.startswith("/"):
        path = "/" + path
    return path.rstrip("/") or "/"


def fill_params(pattern: str, params: Mapping[str, str]) -> str:
    """`/play/village/:session_id` + {"session_id": "ab"} -> `/play/village/ab`, so a
    screen's parent can be the table of the same game."""
    return "/".join(params.get(part[1:], part) if part.startswith(":") else part
                    for part in pattern.split("/"))


def match(pattern: str, route: str) -> dict[str, str] | None:
    """`/session/:session_id` matches `/session/abc` -> {"session_id": "abc"}."""
    want, got = pattern.strip("/").split("/"), route.strip("/").split("/")
    if len(want) != len(got):
        return None
    params: dict[str, str] = {}
    for w, g in zip(want, got, strict=True):
        if w.startswith(":") and g:
            params[w[1:]] = g
        elif w != g:
            return None
    return params


@dataclass
class _Entry:
    route: str
    spec: RouteSpec
    screen: Screen
    view: ft.View


class Router:
    def __init__(self, ctx: AppContext, routes: Mapping[str, RouteSpec],
                 not_found: ScreenFactory) -> None:
        self._ctx = ctx
        self._routes = dict(routes)
        self._not_found = RouteSpec(not_found)
        self._stack: list[_Entry] = []

    @property
    def current_route(self) -> str | None:
        return self._stack[-1].route if self._stack else None

    @property
    def top_screen(self) -> Screen | None:
        return self._stack[-1].screen if self._stack else None

    def resolve(self, route: str) -> tuple[RouteSpec, dict[str, str]]:
        if route in self._routes:  # exact routes win over patterns
            return self._routes[route], {}
        for pattern, spec in self._routes.items():
            params = match(pattern, route)
            if params is not None:
                return spec, params
        return self._not_found, {"route": route}

    def screens_for(self, route: str) -> list[ScreenFactory]:
        """The screen factories that showing `route` builds (its chain of parents)."""
        return [self.resolve(r)[0].screen for r in self.chain(normalize(route))]

    def chain(self, route: str) -> list[str]:
        """Routes from Home to `route`, following parents (cycles cut)."""
        routes = [route]
        while len(routes) < 16:
            spec, params = self.resolve(routes[-1])
            parent = fill_params(spec.parent, params) if spec.parent is not None else None
            if parent is None or parent in routes:
                break
            routes.append(parent)
        return list(reversed(routes))

    # -- navigation -------------------------------------------------------------------

    def go(self, route: str) -> None:
        """Navigate from app code: render now, then sync the browser URL/history."""
        route = normalize(route)
        if route == self.current_route:
            return
        if self._ctx.dialogs.settling:  # a view pushed now would be popped in its place
            self._ctx.dialogs.after(lambda: self.go(route))
            return
        self.show(route)
        if self.current_route == route:
            self._ctx.page.navigate(route)
        # else a screen that appeared went on at once (the table opening the round end it
        # missed): that go told the browser already, and telling it `route` now would
        # come back as a route change and cover the screen it went on to.

    def back(self) -> None:
        if len(self._stack) > 1:
            self.go(self._stack[-2].route)
        else:
            parent = self._stack[-1].spec.parent if self._stack else None
            self.go(parent or HOME_ROUTE)

    def show(self, route: str) -> None:
        """Make `route` the top view, reusing screens already on the stack."""
        route = normalize(route)
        wanted = self.chain(route)
        old_top = self._stack[-1] if self._stack else None
        keep = 0
        while (keep < len(self._stack) and keep < len(wanted)
               and self._stack[keep].route == wanted[keep]):
            keep += 1
        for dropped in self._stack[keep:]:
            if dropped is not old_top:
                dropped.screen.will_disappear()
        self._stack = self._stack[:keep] + [self._build(r) for r in wanted[keep:]]
        top = self._stack[-1]
        if old_top is not None and old_top is not top:
            old_top.screen.will_disappear()
        self._publish()
        if old_top is not top:
            self._ctx.device.keep_screen_on(top.spec.keeps_awake)
            top.screen.did_appear()

    def rebuild(self) -> None:
        """Rebuild every view on the stack (after a language change) and keep the route."""
        route = self.current_route or HOME_ROUTE
        for entry in self._stack:
            entry.screen.will_disappear()
        self._stack = []
        self.show(route)

    def on_resize(self, _e: object = None) -> None:
        """The browser window changed size: the top screen may change its layout (the
        screens under it check the width when they appear again)."""
        if self._stack:
            self._stack[-1].screen.did_resize()

    def close(self) -> None:
        """The client's session ended (Flet's page close, an hour after the tab went
        away): every screen disappears, so the games it showed stop being listened to
        and can be released from memory."""
        for entry in reversed(self._stack):
            try:
                entry.screen.will_disappear()
            except Exception:  # one screen must not keep the others listening
                logger.exception("closing %s failed", entry.route)
        self._stack = []

    def _build(self, route: str) -> _Entry:
        spec, params = self.resolve(route)
        screen = spec.screen(self._ctx, params)
        view = screen.build()
        view.route = route
        return _Entry(route=route, spec=spec, screen=screen, view=view)

    def _publish(self) -> None:
        page = self._ctx.page
        if self._stack and self._stack[-1].route != HOME_ROUTE:
            load_all_web_fonts(page)  # any screen but Home may show Korean or Chinese
        page.views.clear()
        page.views.extend(entry.view for entry in self._stack)
        page.update()

    # -- client events ------------------------------------------------------------------

    def on_route_change(self, e: ft.RouteChangeEvent) -> None:
        route = normalize(e.route)
        if route != self.current_route:  # our own go() echoes back: already shown
            self.show(route)

    def on_view_pop(self, e: ft.ViewPopEvent) -> None:
        # The AppBar back arrow / Android back: go to the view under the top one.
        self.back()
