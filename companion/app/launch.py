"""Start the app as a local web server (the default everywhere; no display needed).

The server is Flet's own ASGI app (`ft.run(..., export_asgi_app=True)`) wrapped in
`companion.web.server_guard.HostOriginGuard` and served by uvicorn here, so that only the
app's own page can open a session, and SIGTERM/SIGINT end the process promptly. Inside the
guard, `companion.web.connection_banner.ConnectionBanner` puts the "connection lost" banner
into the app page.

With `--share [ADDRESS]` (table mode, issue 12) it listens on 127.0.0.1 and on the LAN
address, and `companion.web.share_guard.ShareGuard` inside the guard lets only the host and
the phones that joined reach the app (see companion/app/table_mode/sharing.py)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib
import logging
import os
import signal
import socket
import sys
import threading
from collections.abc import Awaitable, Callable, Generator, Sequence
from functools import partial
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

import flet as ft
from flet.utils import get_bool_env_var, get_free_tcp_port, is_linux_server, open_in_browser

from companion.app.page_language import StoreLanguage
from companion.app.store_access import AsyncStore, open_store, warm_history
from companion.bundled import bundled_dir
from companion.web.connection_banner import ConnectionBanner
from companion.web.font_fallback import FontFallbackRedirect
from companion.web.server_guard import (
    WILDCARD_BIND_HOSTS,
    ASGIApp,
    HostOriginGuard,
    build_policy,
)
from companion.web.share_guard import ShareGuard

if TYPE_CHECKING:
    from companion.app.table_mode.sharing import TableShare

logger = logging.getLogger(__name__)

ASSETS_ENV = "VILLAGE_COMPANION_ASSETS_DIR"


def assets_dir() -> Path:
    """The installed package's `companion.assets` (the repository's top-level `assets/`,
    see `companion.bundled`), or the env override. Packaged builds set FLET_ASSETS_DIR
    themselves, which Flet prefers over this value."""
    override = os.getenv(ASSETS_ENV)
    if override:
        return Path(override)
    return bundled_dir("assets")


def configure_web_environment() -> None:
    """Serve everything locally: CanvasKit from the package, never from a CDN (offline
    tables); and a plain web server, no browser window, even where a display exists.
    A packaged phone app (FLET_PLATFORM set) keeps Flet's own transport."""
    os.environ.setdefault("FLET_WEB_NO_CDN", "true")
    if os.getenv("FLET_PLATFORM") is None:
        os.environ.setdefault("FLET_FORCE_WEB_SERVER", "true")


def _display_host(host: str) -> str:
    """`host` as it goes in a URL; every-interface bind addresses show as 127.0.0.1."""
    if host.strip().lower() in WILDCARD_BIND_HOSTS:
        return "127.0.0.1"
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def run_app(host: str = "127.0.0.1", port: int = 8550, data_dir: str | None = None,
            allow_hosts: Sequence[str] = (), allow_origins: Sequence[str] = (),
            share: str | None = None) -> int:
    """Serve the app until SIGINT or SIGTERM. The web server answers only its own page:
    see `server_guard` (`allow_hosts`/`allow_origins` are --allow-host/--allow-origin).
    `share`: None serves 127.0.0.1 only (the default); "" shares on the first LAN address,
    an address on that one (`--share [ADDRESS]`)."""
    configure_web_environment()
    packaged = os.getenv("FLET_PLATFORM") is not None  # Flet's own transport, no HTTP
    host = os.getenv("FLET_SERVER_IP") or host  # Flet's env overrides, as ft.run reads them
    port = int(os.getenv("FLET_SERVER_PORT") or port)
    if port == 0:
        port = get_free_tcp_port()
    table_share: TableShare | None = None
    sockets: list[socket.socket] | None = None
    if share is not None and not packaged:
        from companion.app.table_mode.sharing import ShareSetupError

        try:
            table_share, sockets = _start_sharing(host, port, share)
        except ShareSetupError as exc:
            print(f"Cannot share: {exc}", file=sys.stderr)
            return 2
        allow_hosts = [*allow_hosts, f"{table_share.address}:{port}"]
    try:
        policy = build_policy(host, port, allow_hosts, allow_origins)
    except ValueError as exc:
        print(f"Cannot serve: {exc}", file=sys.stderr)
        return 2
    try:
        store = open_store(data_dir)  # once per process, shared by every client
    except Exception as exc:
        print(f"Cannot open the session store: {exc}", file=sys.stderr)
        return 1
    astore = AsyncStore(store)
    # The connection banner's words follow the language setting: read it first, so the
    # first page is not kept waiting behind the history warm-up below.
    page_language = StoreLanguage(astore)
    if not packaged:
        page_language.prime()
    # The history cache (Home's and History's games) is built on the store thread once
    # the server listens (off the path to its first answer, issue 23; before that for a
    # packaged app): the first page load queues behind it instead of listing alone.
    # (VILLAGE_COMPANION_NO_HISTORY_WARMUP=1 leaves it out: the Home benchmark's baseline.)
    # With it, the app shell and the first page's modules are imported on a thread
    # (warm_first_page): screens are imported when first needed, not at start.
    warm_history_too = not os.getenv("VILLAGE_COMPANION_NO_HISTORY_WARMUP")

    def warm_up() -> None:
        resume_garbage_collection()
        if warm_history_too:
            astore.submit(partial(warm_history, freeze=True))
        threading.Thread(target=_import_shell_and_first_page, name="shell-warm-up",
                         daemon=True).start()
    url = f"http://{_display_host(host)}:{port}/"
    if table_share is not None:
        print(f"Phones join at {table_share.base_url}/ (open a game, then "
              "\"Let phones join\")", flush=True)
    if not packaged:  # a packaged app has no URL to show
        print(f"Village Companion: {url}  (Ctrl+C to stop)", flush=True)
        if host.strip().lower() in WILDCARD_BIND_HOSTS:
            print("Listening on every interface: other devices reach it only by a name or "
                  "address given with --allow-host (e.g. --allow-host 192.168.1.20).",
                  flush=True)
    flet_options: dict[str, Any] = {
        "host": host, "port": port, "view": ft.AppView.WEB_BROWSER,
        "assets_dir": str(assets_dir()), "no_cdn": True,
    }
    try:
        main = deferred_main(astore, table_share)
        if packaged:
            warm_up()
            ft.run(main, **flet_options)
        else:
            # Flet's own FastAPI app (routes, static files, lifespan), served by our uvicorn
            # behind the guard. None means Flet ran the app itself (Pyodide).
            asgi_app = ft.run(main, export_asgi_app=True, **flet_options)
            if asgi_app is None:
                warm_up()
            else:
                # The caches warm up once Flet's app has answered (or soon after start).
                # (The web engine's fallback-font requests get shipped fonts: font_fallback.)
                warm_once = AfterFirstAnswer(FontFallbackRedirect(asgi_app), warm_up)
                # The app page carries the connection-lost banner (connection_banner).
                inner: ASGIApp = ConnectionBanner(warm_once, page_language)
                if table_share is not None:
                    table_share.guard = ShareGuard(inner, table_share.registry)
                    inner = table_share.guard
                extra = {"sockets": sockets} if sockets else {}  # --share: two listeners
                serve(HostOriginGuard(inner, policy), host, port,
                      on_started=_startup_callback(url, warm_once.fallback),
                      **extra)
    except KeyboardInterrupt:
        pass
    finally:
        resume_garbage_collection()
        astore.close()
        for sock in sockets or ():
            sock.close()
    return 0


SHELL_MODULE = "companion.app.shell"


def _import_shell_and_first_page() -> None:
    """Warm-up thread: the app shell (routes, theme, settings, UI kit) and what the first
    page needs (shell.warm_first_page); an import error is raised again, where it is
    seen, by the first client's session (deferred_main)."""
    try:
        shell = importlib.import_module(SHELL_MODULE)
    except Exception:
        logger.exception("importing %s failed", SHELL_MODULE)
        return
    shell.warm_first_page()


def deferred_main(store: AsyncStore, share: TableShare | None) -> Callable[[ft.Page],
                                                                       Awaitable[None]]:
    """The per-client `main(page)` of `shell.build_main`, with the shell imported when
    the first client comes (on a worker thread), not before the server answers (issue
    23: the shell's modules, its theme, routes and settings, are most of the app's
    own start-up imports). The warm-up has usually imported it by then."""
    built: list[Callable[[ft.Page], Awaitable[None]]] = []

    async def main(page: ft.Page) -> None:
        if not built:
            # On a worker thread even when the warm-up has imported it (or is importing
            # it: import_module then waits for that import to finish).
            shell = await asyncio.to_thread(importlib.import_module, SHELL_MODULE)
            if not built:
                built.append(shell.build_main(store, share=share, warm_screens=True))
        await built[0](page)

    return main


GC_YOUNG = 20_000  # objects allocated (less freed) between two young collections


def resume_garbage_collection() -> None:
    """The CLI starts the app with the garbage collector off (cli.cmd_app): importing
    Flet, FastAPI and the app creates about 100,000 objects and little garbage, and the
    collector would walk them several times over before the first answer (measured:
    about 20 ms of the import time). Once the server has answered (the warm-up) or
    stops: what is alive then (the modules) is put out of the collector's way
    (gc.freeze, no walk: a full collection there took about 40 ms on the event loop,
    to free some 700 objects that stay instead), and it collects from then on, with a
    young generation of GC_YOUNG objects instead of Python's 700 (`gc.set_threshold`).

    Why (issue 23, table mode): every change re-renders and diffs each client's page,
    tens of thousands of short-lived objects. With 700, the young collections run many
    times within one change and promote whatever is alive at that moment (the change's
    own temporaries) to the old generation; each promotion counts towards the next full
    collection, which walks every control of every connected client: at 50 tables x 4
    clients two full collections of 550-570 ms each in a 16 s bench window, the event
    loop stopped for every table meanwhile. With GC_YOUNG the temporaries of a change
    are freed by their reference counts before a young collection sees them; garbage in
    cycles waits for up to GC_YOUNG allocations longer (a few MB at most)."""
    if not gc.isenabled():
        gc.freeze()
        gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])
        gc.enable()


def _start_sharing(host: str, port: int, requested: str) -> tuple[TableShare,
                                                                  list[socket.socket]]:
    """The share state and the two listening sockets for `--share`; ShareSetupError when
    it cannot start."""
    from companion.app.table_mode.sharing import (
        ShareSetupError,
        TableShare,
        bind_sockets,
        choose_address,
    )
    from companion.share.registry import ShareRegistry

    if host.strip().lower() not in ("127.0.0.1", "localhost"):
        raise ShareSetupError("--share serves 127.0.0.1 and the LAN address itself: "
                              "leave --host out")
    address = choose_address(requested or None, lambda line: print(line, flush=True))
    sockets = bind_sockets("127.0.0.1", address, port)
    return TableShare(ShareRegistry(), address, port), sockets


# The caches are warmed after the server's first answer, or this long after it listens
# when no request comes.
WARM_UP_FALLBACK_S = 2.0


class AfterFirstAnswer:
    """ASGI wrapper: `app`, and `warm_up` run once, when the first HTTP answer has been
    sent (issue 23: the cache warm-up is kept off the path to the first answer) or when
    `fallback()` is called, whichever comes first."""

    def __init__(self, app: ASGIApp, warm_up: Callable[[], object]) -> None:
        self.app = app
        self._warm_up: Callable[[], object] | None = warm_up

    def fire(self) -> None:
        warm_up, self._warm_up = self._warm_up, None
        if warm_up is not None:
            warm_up()

    def fallback(self) -> None:
        """Fire WARM_UP_FALLBACK_S from now (call it on the running event loop)."""
        asyncio.get_running_loop().call_later(WARM_UP_FALLBACK_S, self.fire)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if self._warm_up is None or scope.get("type") != "http":
            await self.app(scope, receive, send)
            return

        async def send_then_fire(message: Any) -> None:
            await send(message)
            if message.get("type") == "http.response.body" and not message.get("more_body"):
                self.fire()

        await self.app(scope, receive, send_then_fire)


def _startup_callback(url: str, then: Callable[[], None] = lambda: None
                      ) -> Callable[[], None]:
    """What ft.run does once its web server is up: the `flet run` URL line, and a browser
    tab where a desktop asked for one (FLET_FORCE_WEB_SERVER=false with a display); then
    `then` (the warm-up's fallback timer)."""
    url_prefix = os.getenv("FLET_DISPLAY_URL_PREFIX")
    force_web_server = get_bool_env_var("FLET_FORCE_WEB_SERVER") or is_linux_server()

    def started() -> None:
        then()
        if url_prefix is not None:
            print(url_prefix, url.rstrip("/"), ft.AppView.WEB_BROWSER.value, flush=True)
        elif not force_web_server:
            open_in_browser(url)

    return started


# Requests still running this long after SIGTERM/SIGINT are cancelled (uvicorn's
# timeout_graceful_shutdown); a store write already started still completes, since
# AsyncStore.close() waits for it.
SHUTDOWN_GRACE_S = 1
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def serve(app: Any, host: str, port: int, on_started: Callable[[], None] | None = None,
          sockets: Sequence[socket.socket] | None = None) -> None:
    """Serve the ASGI `app` with uvicorn (as Flet does: websockets-sansio, Flet's log level)
    until SIGINT or SIGTERM. Either signal closes every connection (WebSockets with 1012)
    and returns within SHUTDOWN_GRACE_S plus a few tenths of a second, connected clients
    or not (about 0.5 s with the app's page open): after the grace uvicorn cancels requests
    still running (a Flet WebSocket that never registered a session never ends by itself).
    Returning, not dying by the signal, lets the caller's `finally` run. `sockets`: serve
    these listening sockets instead of binding host:port (--share: loopback and LAN)."""
    import uvicorn  # not at module level: a Pyodide build has no uvicorn

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Generator[None, None, None]:
            # serve() installs the handlers: uvicorn's own would treat SIGTERM like SIGINT
            # but then re-raise it, and SIGTERM's default action kills the process before
            # any `finally` runs.
            yield

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            if self.should_exit:  # a second signal: stop waiting for the grace
                self.force_exit = True
            self.should_exit = True

    flet_level = logging.getLogger("flet").getEffectiveLevel()
    if flet_level in (logging.CRITICAL, logging.NOTSET):
        flet_level = logging.FATAL
    config = uvicorn.Config(app, host=host, port=port, ws="websockets-sansio", lifespan="on",
                            log_level=logging.getLevelName(flet_level).lower(),
                            timeout_graceful_shutdown=SHUTDOWN_GRACE_S)
    server = Server(config)

    async def run() -> None:
        watcher = asyncio.create_task(_when_started(server, on_started))
        try:
            await server.serve(sockets=list(sockets) if sockets else None)
        finally:
            watcher.cancel()

    in_main_thread = threading.current_thread() is threading.main_thread()
    previous = ({sig: signal.signal(sig, server.handle_exit) for sig in STOP_SIGNALS}
                if in_main_thread else {})
    try:
        asyncio.run(run())
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


async def _when_started(server: Any, on_started: Callable[[], None] | None) -> None:
    while not server.started:
        await asyncio.sleep(0.05)
    if on_started is not None:
        on_started()
