"""Home -> Settings -> change language -> back, in real Chromium at phone size."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.app.kit.text_fit import keep_words
from companion.app.settings import KEY_LANGUAGE, KEY_THEME
from companion.store.tinydb_store import TinyDBStore

from .conftest import PHONE, seed_store, served_app

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


# Nothing on the page still moving: the web fonts loaded and no CSS animation or
# transition running (the connection banner's, the offline shade's); endless ones (a
# spinner) do not count.
STILL_JS = """() => document.fonts.status === 'loaded' && document.getAnimations().every(
  a => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity)"""
# Two frames drawn since: what the page shows now is on the canvas.
FRAMES_JS = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
# The keyboard's focus is in a text field (Flutter's editing element for the field tapped).
FOCUSED_FIELD_JS = """() => { const e = document.activeElement;
  return !!e && (e.tagName === 'INPUT' || e.tagName === 'TEXTAREA'); }"""


def drawn(page: Any) -> None:
    """Wait until the page shows what a person would see: the semantics DOM still (the
    last re-render and any transition of Flutter's landed), fonts loaded, no animation
    running, two frames drawn since. Before a screenshot or a measurement of positions."""
    settle(page)
    page.wait_for_function(STILL_JS, timeout=STEP_TIMEOUT_MS)
    page.evaluate(FRAMES_JS)


def type_in_focus(page: Any, text: str) -> None:
    """Type `text` once the field tapped has the keyboard's focus and the page has settled
    (typed at once, the first key can land before Flutter has the field)."""
    page.wait_for_function(FOCUSED_FIELD_JS, timeout=STEP_TIMEOUT_MS)
    settle(page)
    page.keyboard.type(text, delay=40)


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
    drawn(page)
    page.screenshot(path=str(directory / name))


@pytest.fixture(scope="module")
def served(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[
        tuple[str, Path]]:
    """The app serving a seeded store: its URL and its data folder (a test stores the
    language it starts from, so no test depends on what another one chose)."""
    data_dir = tmp_path_factory.mktemp("e2e-language")
    seed_store(data_dir)
    with served_app(data_dir) as base:
        yield base + "/", data_dir


def stored_language(data_dir: Path, language: str | None) -> None:
    """What the app's settings hold before the test's first page opens (written as the
    running server's own store would: under its lock); None: never chosen."""
    store = TinyDBStore(data_dir)
    if language is None:
        store.delete_setting(KEY_LANGUAGE)
        store.delete_setting(KEY_THEME)
    else:
        store.set_setting(KEY_LANGUAGE, language)


def test_language_switch_round_trip(browser: Any, served: tuple[str, Path],
                                    screenshots: Path) -> None:
    app_url, data_dir = served
    stored_language(data_dir, None)  # a first visit: the browser's English
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


def test_new_game_setup_and_persisted_language(browser: Any, served: tuple[str, Path],
                                                    screenshots: Path) -> None:
    # Korean is stored (as the round trip above leaves it): a new English browser gets it.
    app_url, data_dir = served
    stored_language(data_dir, "ko")
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


def test_stored_language_beats_browser_locale(browser: Any, served: tuple[str, Path]) -> None:
    # Traditional Chinese is stored (as the test above leaves it): a German browser gets it.
    app_url, data_dir = served
    stored_language(data_dir, "zh_Hant")
    page = open_app(browser, app_url, "de-DE")
    page.get_by_text("繼續遊戲").wait_for(timeout=LOAD_TIMEOUT_MS)
    page.context.close()
