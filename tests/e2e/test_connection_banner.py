"""The connection banner in real Chromium (issue 13): with the server gone the page shows
"Connection lost — trying to reconnect…" at the top, in the app's language; when the
server is back on the same port, Flet's client reconnects its WebSocket (no reload) and
the banner goes.

A module of its own: it stops and restarts its server."""

from __future__ import annotations

import re
import signal
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.i18n import Translator
from companion.web.connection_banner import BANNER_ID, GRACE_MS

from .conftest import AppProcess, restartable_app
from .test_browser import LOAD_TIMEOUT_MS, drawn, open_app

pytestmark = pytest.mark.e2e

# Flet's client retries every 500 ms on 127.0.0.1; a restarted server takes a few seconds.
BACK_TIMEOUT_MS = 30_000
BANNER = f"#{BANNER_ID}"


@pytest.fixture(scope="module")
def server(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppProcess]:
    with restartable_app(tmp_path_factory.mktemp("banner-data")) as app:
        yield app


def open_page(browser: Any, url: str, locale: str, dark: bool = False) -> Any:
    return open_app(browser, url, locale, dark=dark, semantics=False)


def wait_for_app(page: Any, title: str) -> None:
    """The app's session is up: its socket is open and the page title is `app.title` (the
    served page already carries it in the page's language, web.manifest.brand_page)."""
    page.wait_for_function("(t) => document.title === t && window.__vcConnection "
                           "&& window.__vcConnection.open() === 1", arg=title,
                           timeout=LOAD_TIMEOUT_MS)


def _luminance(rgb: str) -> float:
    channels = [int(c) / 255 for c in re.findall(r"\d+", rgb)[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(fg: str, bg: str) -> float:
    high, low = sorted((_luminance(fg), _luminance(bg)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def check_banner_shown(page: Any, text: str) -> None:
    """The banner reads `text`, is a live status region at the top, at least 48 px high
    across the page, and readable (WCAG AA contrast)."""
    status = page.get_by_role("status").filter(has_text=text)
    status.wait_for(state="visible", timeout=10_000)
    banner = page.locator(BANNER)
    assert banner.inner_text().strip() == text
    assert banner.get_attribute("aria-live") == "polite"
    box = banner.bounding_box()
    assert box is not None and box["y"] == 0 and box["height"] >= 48
    assert box["width"] == 360
    colours = banner.evaluate("e => [getComputedStyle(e).color, "
                              "getComputedStyle(e).backgroundColor]")
    assert contrast(*colours) >= 4.5, colours


def check_banner_clears(page: Any, server: AppProcess, back_text: str,
                        shot_path: Path | None = None) -> None:
    """Start the server again on its port: the banner says `back_text` ("Connected
    again"), then goes, and the page was not reloaded (Flet reconnected its WebSocket)."""
    server.start()
    page.get_by_role("status").filter(has_text=back_text).wait_for(
        state="visible", timeout=BACK_TIMEOUT_MS)
    # at the bottom: the app bar (Back, Undo, the log) is not covered once it works again
    box = page.locator(BANNER).bounding_box()
    assert box is not None and box["y"] > 400
    assert abs(box["y"] + box["height"] - page.viewport_size["height"]) < 1
    if shot_path is not None:
        page.screenshot(path=str(shot_path))
    banner = page.locator(BANNER)
    banner.wait_for(state="hidden", timeout=10_000)
    assert banner.inner_text() == ""
    assert page.evaluate("window.__vcConnection.open()") == 1
    assert page.evaluate("performance.getEntriesByType('navigation')[0].type") == "navigate"


def test_banner_shows_while_the_server_is_gone_and_clears_when_it_is_back(
        browser: Any, server: AppProcess, screenshots: Path) -> None:
    en = Translator("en")
    page = open_page(browser, server.base + "/", "en-US")
    wait_for_app(page, en.t("app.title"))
    banner = page.locator(BANNER)
    assert banner.get_attribute("role") == "status"  # present, empty, from the start
    assert banner.is_hidden() and banner.inner_text() == ""

    server.stop(signal.SIGKILL)  # the server dies
    page.wait_for_timeout(GRACE_MS // 2)
    assert banner.is_hidden()  # a short break shows nothing
    check_banner_shown(page, en.t("connection.lost"))
    drawn(page)  # the banner's fade-in is over
    page.screenshot(path=str(screenshots / "50-connection-lost-en.png"))

    check_banner_clears(page, server, en.t("connection.back"),
                        screenshots / "51-connection-back-en.png")
    page.context.close()


def test_banner_speaks_the_apps_language_in_dark_mode(browser: Any, server: AppProcess,
                                                      screenshots: Path) -> None:
    from companion.app.settings import KEY_LANGUAGE
    from companion.store.tinydb_store import TinyDBStore

    # Nothing chosen yet: the browser's language (a request as Korean Chromium sends it).
    request = urllib.request.Request(server.base + "/",
                                     headers={"Accept-Language": "ko-KR,ko;q=0.9"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        page_html = answer.read().decode("utf-8")
    assert 'var cfg = {"lang":"ko",' in page_html

    # The language chosen in Settings beats the browser's (written while the server is down).
    server.stop()
    TinyDBStore(server.data_dir).set_setting(KEY_LANGUAGE, "de")
    server.start()
    de = Translator("de")
    page = open_page(browser, server.base + "/", "en-US", dark=True)
    wait_for_app(page, de.t("app.title"))

    server.stop()  # SIGTERM: uvicorn closes the socket with 1012
    check_banner_shown(page, de.t("connection.lost"))
    text = page.locator(BANNER).inner_text()
    assert Translator("en").t("connection.lost") not in text
    assert page.locator(BANNER).get_attribute("lang") == "de"
    drawn(page)  # the banner's fade-in is over
    page.screenshot(path=str(screenshots / "52-connection-lost-de-dark.png"))
    check_banner_clears(page, server, de.t("connection.back"))
    page.context.close()
