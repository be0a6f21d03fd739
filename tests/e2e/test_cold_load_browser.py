"""A cold page load sends only what its first screen draws (issue 23), in real Chromium:
an English Home fetches no CJK web font and none of the fonts Flet's client lists but the
app never draws (KaTeX, Cupertino icons), and only the Material icons the app can show;
leaving Home fetches the CJK fonts, while the
server is still there; a Korean page fetches its own font at once."""

from __future__ import annotations

from typing import Any

import pytest

from companion.web.fonts import HANGUL, HANT, WEB_FONTS
from companion.web.icon_font import ICON_FONT_ASSET

from .conftest import PHONE
from .test_browser import LOAD_TIMEOUT_MS, STEP_TIMEOUT_MS

pytestmark = pytest.mark.e2e

CJK_FILES = {family: "/" + path for family, path in WEB_FONTS.items()}
UNUSED = ("KaTeX", "CupertinoIcons")
QUIET_S = 2.0  # Home is shown and nothing was asked for since: the load is over


def cold_page(browser: Any, url: str, locale: str) -> tuple[Any, list[str]]:
    """A page in a fresh context (an empty cache) and every URL it requests, from the
    first one on, with Flutter's semantics DOM on once it exists."""
    context = browser.new_context(viewport=PHONE, locale=locale, device_scale_factor=1)
    requested: list[str] = []
    context.on("request", lambda request: requested.append(request.url))
    page = context.new_page()
    page.goto(url)
    placeholder = page.locator("flt-semantics-placeholder")
    placeholder.wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
    placeholder.evaluate("e => e.click()")
    page.locator('[flt-semantics-identifier="new-village"]').wait_for(
        timeout=LOAD_TIMEOUT_MS)
    quiet(page, requested)
    return page, requested


def quiet(page: Any, requested: list[str]) -> None:
    """Wait until nothing but the engine's own font fallback was asked for in QUIET_S.
    (CanvasKit asks again and again for a Noto Sans under assets/fonts/notosans/, which a
    no-CDN Flet does not serve, for characters Roboto lacks, e.g. the narrow no-break
    space in "11:09 AM": as before this change.)"""
    def counted() -> int:
        return sum("/assets/fonts/notosans/" not in url for url in requested)

    seen, still, waited = counted(), 0.0, 0.0
    while still < QUIET_S and waited < 20:  # then what came so far is the load
        waited += 0.25
        page.wait_for_timeout(250)
        still = still + 0.25 if counted() == seen else 0.0
        seen = counted()


def fetched(requested: list[str], path: str) -> bool:
    return any(url.split("?")[0].endswith(path) for url in requested)


def test_an_english_home_fetches_no_cjk_font_until_it_is_left(browser: Any,
                                                               app_url: str) -> None:
    page, requested = cold_page(browser, app_url, "en-US")
    assert not [family for family, path in CJK_FILES.items() if fetched(requested, path)]
    assert not [url for url in requested if any(name in url for name in UNUSED)]
    # Home's icons are drawn, from the app's subset, not Flutter's 1.2 MB full font
    assert fetched(requested, "/assets/" + ICON_FONT_ASSET)
    assert not fetched(requested, "MaterialIcons-Regular.otf")
    # Settings names 한국어 and 中文: the CJK fonts come now, while the server answers.
    page.get_by_role("button", name="Settings").click()
    page.wait_for_function(
        "(paths) => paths.every(p => performance.getEntriesByType('resource')"
        ".some(e => new URL(e.name).pathname === p && e.responseEnd > 0))",
        arg=list(CJK_FILES.values()), timeout=STEP_TIMEOUT_MS)
    assert all(fetched(requested, path) for path in CJK_FILES.values())


def test_a_korean_home_fetches_its_own_font_at_once(browser: Any, app_url: str) -> None:
    _page, requested = cold_page(browser, app_url, "ko-KR")
    assert fetched(requested, CJK_FILES[HANGUL])
    assert not fetched(requested, CJK_FILES[HANT])  # Chinese only where it is drawn
