"""Start the app as a local web server (the default everywhere; no display needed)."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

import flet as ft

from companion.app.shell import build_main
from companion.app.store_access import AsyncStore, open_store

logger = logging.getLogger(__name__)

ASSETS_ENV = "VILLAGE_COMPANION_ASSETS_DIR"


def assets_dir() -> Path:
    """The repo's `assets/` (env override for other layouts). Packaged builds set
    FLET_ASSETS_DIR themselves, which Flet prefers over this value."""
    override = os.getenv(ASSETS_ENV)
    if override:
        return Path(override)
    return Path(__file__).resolve().parents[2] / "assets"


def configure_web_environment() -> None:
    """Serve everything locally: CanvasKit from the package, never from a CDN (offline
    tables); and a plain web server, no browser window, even where a display exists.
    A packaged phone app (FLET_PLATFORM set) keeps Flet's own transport."""
    os.environ.setdefault("FLET_WEB_NO_CDN", "true")
    if os.getenv("FLET_PLATFORM") is None:
        os.environ.setdefault("FLET_FORCE_WEB_SERVER", "true")


def run_app(host: str = "127.0.0.1", port: int = 8550, data_dir: str | None = None) -> int:
    configure_web_environment()
    try:
        store = open_store(data_dir)  # once per process, shared by every client
    except Exception as exc:
        print(f"Cannot open the session store: {exc}", file=sys.stderr)
        return 1
    astore = AsyncStore(store)
    if os.getenv("FLET_PLATFORM") is None:  # a packaged app has no URL to show
        shown_host = "127.0.0.1" if host in ("", "0.0.0.0", "*") else host
        print(f"Village Companion: http://{shown_host}:{port}/  (Ctrl+C to stop)", flush=True)
    try:
        ft.run(
            build_main(astore),
            host=host,
            port=port,
            view=ft.AppView.WEB_BROWSER,
            assets_dir=str(assets_dir()),
            no_cdn=True,
        )
    except KeyboardInterrupt:
        pass
    finally:
        astore.close()
    return 0
