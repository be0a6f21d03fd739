"""Home -> Settings -> change language -> back, in real Chromium at phone size."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from companion.app.kit.text_fit import keep_words

from .conftest import PHONE

pytestmark = pytest.mark.e2e

LOAD_TIMEOUT_MS = 60_000  # CanvasKit start-up on a 2-core box
STEP_TIMEOUT_MS = 15_000


# Records when Flutter last changed its semantics DOM, so a tap can wait until a re-render
# has landed (see Ui.tap in test_village_flows).
SEMANTICS_CLOCK_JS = """
window.__semanticsChanged = 0;
new MutationObserver((records) => {
  if (records.some(r => r.target.closest && r.target.closest('flt-semantics-host')))
    window.__semanticsChanged = performance.now();
}).observe(document, {subtree: true, childList: true, attributes: true,
                      characterData: true});
"""


# The semantics DOM has not changed for `ms` (the clock is set by SEMANTICS_CLOCK_JS).
QUIET_JS = "(ms) => performance.now() - (window.__semanticsChanged || 0) > ms"
QUIET_MS = 300


def settle(page: Any) -> None:
    """Wait until Flutter's semantics DOM has been still for a moment. A screen re-renders
    once for its own change and once more when the saved game tells every phone; a tap
    landing between the two goes to a control the server has just replaced and is
    dropped (a person would tap again)."""
    page.wait_for_function(QUIET_JS, arg=QUIET_MS, timeout=STEP_TIMEOUT_MS)


def open_app(browser: Any, url: str, locale: str = "en-US", *, dark: bool = False,
             viewport: dict[str, int] | None = None, downloads: bool = False,
             semantics: bool = True) -> Any:
    """A new page (its own browser context) on `url`, once Flutter's view is there; every
    browser test opens its pages here."""
    context = browser.new_context(viewport=viewport or PHONE, locale=locale,
                                  color_scheme="dark" if dark else "light",
                                  device_scale_factor=1, accept_downloads=downloads)
    context.add_init_script(SEMANTICS_CLOCK_JS)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("flutter-view", timeout=LOAD_TIMEOUT_MS)
    if semantics:
        # Flutter web draws on a canvas; its semantics DOM (roles, names, identifiers) is
        # only built after the hidden placeholder is "clicked".
        placeholder = page.locator("flt-semantics-placeholder")
        placeholder.wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
        placeholder.evaluate("e => e.click()")
    return page


def shot(page: Any, directory: Path, name: str) -> None:
    page.wait_for_timeout(1000)  # let the frame settle (animations, fonts)
    page.screenshot(path=str(directory / name))


def test_language_switch_round_trip(browser: Any, app_url: str, screenshots: Path) -> None:
    page = open_app(browser, app_url, "en-US")
    page.get_by_text("Continue a game").wait_for(timeout=LOAD_TIMEOUT_MS)
    # The row is one button (open) beside its delete button: its words are its name.
    page.get_by_role("button", name=re.compile("Karla rematch")).wait_for(
        timeout=STEP_TIMEOUT_MS)
    # The corrupt seed file was quarantined and is reported on Home.
    assert page.locator('[flt-semantics-identifier="store-problems"]').count() == 1
    shot(page, screenshots, "01-home-en.png")

    # Icon buttons are named by their tooltip, which Flutter puts on a wrapper node.
    page.get_by_label("Settings", exact=True).click()
    page.get_by_text("Language", exact=True).wait_for(timeout=STEP_TIMEOUT_MS)
    shot(page, screenshots, "02-settings-en.png")

    page.get_by_role("radio", name="한국어").click()
    page.get_by_text(keep_words("언어"), exact=True).wait_for(timeout=STEP_TIMEOUT_MS)
    page.get_by_role("radio", name=keep_words("어둡게")).click()
    shot(page, screenshots, "03-settings-ko-dark.png")

    page.get_by_label(keep_words("뒤로"), exact=True).click()
    page.get_by_text(keep_words("게임 이어하기")).wait_for(timeout=STEP_TIMEOUT_MS)
    assert page.get_by_text("Continue a game").count() == 0
    assert page.get_by_text(keep_words("새 게임 시작")).count() == 1
    assert page.url.rstrip("/") == app_url.rstrip("/")
    shot(page, screenshots, "04-home-ko-dark.png")
    page.context.close()


def test_new_game_setup_and_persisted_language(browser: Any, app_url: str,
                                                    screenshots: Path) -> None:
    # Runs after the first test: Korean was stored, so a new English browser gets Korean.
    page = open_app(browser, app_url, "en-US")
    page.get_by_text(keep_words("게임 이어하기")).wait_for(timeout=LOAD_TIMEOUT_MS)
    page.get_by_role("button", name=keep_words("퓨덤")).click()
    page.get_by_text(keep_words("플레이어 추가")).first.wait_for(
        timeout=STEP_TIMEOUT_MS)  # Feudum setup
    assert page.url.endswith("/new/feudum")
    shot(page, screenshots, "05-feudum-setup-ko.png")
    page.go_back()  # browser back -> route_change -> Home
    page.get_by_text(keep_words("게임 이어하기")).wait_for(timeout=STEP_TIMEOUT_MS)

    page.get_by_label(keep_words("설정"), exact=True).click()
    page.get_by_role("radio", name="繁體中文").click()
    page.get_by_role("radio", name="淺色").click()
    page.get_by_text("語言", exact=True).wait_for(timeout=STEP_TIMEOUT_MS)
    shot(page, screenshots, "06-settings-zh-light.png")
    page.get_by_label("返回", exact=True).click()
    page.get_by_text("繼續遊戲").wait_for(timeout=STEP_TIMEOUT_MS)
    shot(page, screenshots, "07-home-zh-light.png")
    page.context.close()


def test_stored_language_beats_browser_locale(browser: Any, app_url: str) -> None:
    # Runs after the tests above stored Traditional Chinese.
    page = open_app(browser, app_url, "de-DE")
    page.get_by_text("繼續遊戲").wait_for(timeout=LOAD_TIMEOUT_MS)
    page.context.close()
