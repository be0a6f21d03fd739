"""Builds the per-client `main(page)` around the one per-process store."""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING

import flet as ft

from companion.app.locale_detect import detect_language, locale_tag
from companion.app.routes import build_routes
from companion.app.routing import (
    HOME_ROUTE,
    LazyScreen,
    Router,
    RouteSpec,
    lazy,
    load_modules,
    load_screens,
)
from companion.app.settings import AppSettings, load_settings
from companion.app.store_access import AsyncStore
from companion.app.table_mode.confine import joined_member, member_router
from companion.app.table_mode.sharing import TableShare
from companion.app.theme import apply_theme, install_themes
from companion.i18n import DEFAULT_LANGUAGE, negotiate_language

if TYPE_CHECKING:
    from companion.app.context import AppContext

logger = logging.getLogger(__name__)

# How long the first render waits for the client's locale list (CanvasKit start-up can
# keep a slow phone busy; after this the UI shows in English and switches on arrival).
FIRST_RENDER_WAIT_S = 1.5

AppMain = Callable[[ft.Page], Awaitable[None]]

# Screens are imported when first opened (routing.LazyScreen). The served app imports the
# rest on a background thread this long after its first page is shown, so that a later
# first tap on a screen rarely waits for its import (issue 23).
SCREEN_WARM_UP_DELAY_S = 1.0
# What a client's session needs beyond the server (the context and its UI kit): imported
# by the first client, on a worker thread, not at start.
SESSION_MODULE = "companion.app.context"
NOT_FOUND = lazy("companion.app.views.not_found:NotFoundScreen")


async def first_language(detection: asyncio.Task[str]) -> str:
    """The detected language if the client answers quickly, else English for now."""
    done, _ = await asyncio.wait({detection}, timeout=FIRST_RENDER_WAIT_S)
    return detection.result() if done else DEFAULT_LANGUAGE


async def switch_when_detected(ctx: AppContext, detection: asyncio.Task[str]) -> None:
    """A slow client answers after the first render: switch language then."""
    detected = await detection
    if ctx.settings.language is None and detected != ctx.language:
        ctx.set_language(detected)


def warm_screens_later(routes: Mapping[str, RouteSpec]) -> threading.Timer:
    """Import every screen of `routes` on a daemon thread, SCREEN_WARM_UP_DELAY_S from now."""
    timer = threading.Timer(SCREEN_WARM_UP_DELAY_S, load_screens,
                            args=([spec.screen for spec in routes.values()],))
    timer.daemon = True
    timer.name = "screen-warm-up"
    timer.start()
    return timer


def warm_first_page(routes: Mapping[str, RouteSpec] | None = None) -> threading.Thread:
    """Import what the first client needs (its session context and the Home screen) on a
    daemon thread now: the server calls it after its first answer, while the browser
    loads the web client, so that the first page is not kept waiting for these imports."""
    home = (routes if routes is not None else build_routes())[HOME_ROUTE].screen

    def work() -> None:
        try:
            load_modules((SESSION_MODULE,))
        except Exception:  # the first client will raise it where it is seen
            logger.exception("importing %s failed", SESSION_MODULE)
        load_screens([home])

    thread = threading.Thread(target=work, name="first-page-warm-up", daemon=True)
    thread.start()
    return thread


def build_main(store: AsyncStore, routes: Mapping[str, RouteSpec] | None = None,
               share: TableShare | None = None, warm_screens: bool = False) -> AppMain:
    """`routes` defaults to the app's registry; tests may pass their own. `share`: the
    process's table-mode state when serving with --share (see app/table_mode).
    `warm_screens` (the served app): after the first page is shown, import the other
    screens in the background (warm_screens_later)."""
    warm_up_pending = [warm_screens]

    async def main(page: ft.Page) -> None:
        page.title = "Village Companion"
        session_imports = (None if SESSION_MODULE in sys.modules else asyncio.ensure_future(
            asyncio.to_thread(load_modules, (SESSION_MODULE,))))
        load_error: Exception | None = None
        try:
            settings = await store.run(load_settings)
        except Exception as exc:  # unreadable settings must not keep the app from starting
            logger.exception("settings could not be read")
            settings, load_error = AppSettings(), exc
        member_id = joined_member(share, page)
        if member_id is not None:  # a joined phone: its own device's language, not the host's
            settings = AppSettings()
        detection: asyncio.Task[str] | None = None
        if settings.language is None:  # never chosen: follow the client's locale
            detection = asyncio.get_running_loop().create_task(detect_language(page))
            language = await first_language(detection)
        else:
            language = settings.language
        install_themes(page, language)
        apply_theme(page, settings.theme)

        if session_imports is not None:
            await session_imports
        from companion.app.context import AppContext

        ctx = AppContext(page, store, settings, language)
        page.title = ctx.translator.t("app.title")  # a window title: never wrapped
        ctx.share, ctx.member_id = share, member_id
        all_routes = routes if routes is not None else build_routes()
        router = (Router(ctx, all_routes, not_found=NOT_FOUND) if member_id is None
                  else member_router(ctx, all_routes, NOT_FOUND))
        ctx.router = router
        page.on_route_change = router.on_route_change
        page.on_view_pop = router.on_view_pop
        page.on_resize = router.on_resize  # the table's two panes at 900 px and wider
        page.on_close = lambda _e: router.close()  # the session expired: stop listening

        def follow_device_locale(e: ft.LocaleChangeEvent) -> None:
            # Only while the user has not picked a language in Settings.
            if ctx.settings.language is None:
                new = negotiate_language(locale_tag(loc) for loc in e.locales)
                if new != ctx.language:
                    ctx.set_language(new)

        page.on_locale_change = follow_device_locale
        # The first page's screens are imported on a worker thread: a slow import on the
        # event loop would hold up every other client.
        first = [f for f in router.screens_for(page.route)
                 if isinstance(f, LazyScreen) and not f.loaded]
        if first:
            await asyncio.to_thread(load_screens, first)
        router.show(page.route)
        if warm_up_pending[0]:
            warm_up_pending[0] = False
            warm_screens_later(all_routes)
        if detection is not None and not detection.done():
            ctx.spawn(switch_when_detected(ctx, detection))
        if load_error is not None:
            ctx.toast(ctx.t("common.error", error=str(load_error)))

    return main
