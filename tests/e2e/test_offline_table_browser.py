"""While the server is away the table stays readable (issue 20), in real Chromium.

A Village game is open on a tablet-sized page; the server process is killed. The page
keeps the table as it was (whose turn, the round, the cubes on each action space, each
player's time), greyed and marked "not live" under the "Connection lost" banner; Flet's
client is never told the socket closed (so it neither covers the page with its loading
screen nor starts reconnecting), and a tap never reaches it (nothing is sent). The server
starts again on the same port and data directory: the page is live again without a
reload, and the tap made offline changed nothing. On a phone (touch, 360x800) the page as
it was still scrolls while a touch tap is dropped.

A module of its own: it kills and restarts its server."""

from __future__ import annotations

import re
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.i18n import Translator
from companion.web.connection_banner import BANNER_ID, SHADE_ID

from .conftest import AppProcess, restartable_app
from .test_browser import LOAD_TIMEOUT_MS, STEP_TIMEOUT_MS, open_app, settle

pytestmark = pytest.mark.e2e

BACK_TIMEOUT_MS = 30_000
TABLET = {"width": 768, "height": 1024}
_NODE_TEXT_JS = """(id) => {
  const e = document.querySelector(`[flt-semantics-identifier="${id}"]`);
  return e ? ((e.getAttribute('aria-label') || '') + '\\n' + (e.textContent || '')).trim()
           : null;
}"""
_CENTRE_JS = """(id) => {
  const e = document.querySelector(`[flt-semantics-identifier="${id}"]`);
  const r = e.getBoundingClientRect();
  return [r.x + r.width / 2, r.y + r.height / 2];
}"""


def _seed(data_dir: Path) -> tuple[str, str]:
    """A two-player game; its id and a plain cube's identifier on the table."""
    from companion.store.tinydb_store import TinyDBStore
    from companion.village.service import VillageService
    from companion.village.setup import PlayerSetup, VillageSetup

    service = VillageService(TinyDBStore(data_dir))
    setup = VillageSetup(players=[PlayerSetup(name="Ann", colour="red"),
                                  PlayerSetup(name="Bo", colour="blue")],
                         start_player=0, seed=5)
    session_id, session = service.create(setup)
    for space, cubes in session.state.spaces.items():
        ordered = sorted(cubes, key=lambda c: (c == "plague", c))  # as the table shows them
        if space != "market" and ordered and ordered[0] != "plague":
            return session_id, f"cube-{space}-{ordered[0]}-0"
    raise AssertionError("no plain cube on the board")


@pytest.fixture(scope="module")
def game(chromium: Path, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[AppProcess, str, str]]:
    data_dir = tmp_path_factory.mktemp("offline-table")
    session_id, cube_id = _seed(data_dir)
    with restartable_app(data_dir) as app:
        yield app, session_id, cube_id


def text_of(page: Any, identifier: str) -> str:
    return str(page.evaluate(_NODE_TEXT_JS, identifier) or "")


def table_texts(page: Any) -> dict[str, str]:
    return {key: text_of(page, key)
            for key in ("table-turn", "action-spaces", "player-0", "player-1")}


def test_the_table_stays_readable_while_the_server_is_away(
        browser: Any, game: tuple[AppProcess, str, str], screenshots: Path) -> None:
    server, session_id, cube_id = game
    en = Translator("en")
    page = open_app(browser, f"{server.base}/play/village/{session_id}", "en-US",
                    viewport=TABLET)
    page.locator(f'[flt-semantics-identifier="{cube_id}"]').wait_for(
        state="attached", timeout=LOAD_TIMEOUT_MS)
    settle(page)
    before = table_texts(page)
    assert "Ann" in before["table-turn"] and re.search(r"Round 1\b", before["table-turn"])
    assert "Time " in before["player-0"] and "Time " in before["player-1"]
    assert before["action-spaces"], before
    assert page.evaluate("window.__vcConnection.made()") == 1

    server.stop(signal.SIGKILL)  # the server dies
    page.get_by_role("status").filter(has_text=en.t("connection.lost")).wait_for(
        state="visible", timeout=10_000)
    shade = page.locator(f"#{SHADE_ID}")
    shade.wait_for(state="visible", timeout=5_000)
    assert shade.inner_text().strip() == en.t("connection.not_live")
    note = shade.locator("span").bounding_box()
    assert note is not None and note["height"] >= 48
    assert page.evaluate("document.documentElement.hasAttribute('data-vc-offline')")
    page.wait_for_timeout(3_000)  # Flet's client would have retried six times by now
    # The table as it was: same words in every part, Flet's client never told (it made no
    # new socket, so it shows no loading screen), the close held back for later.
    assert table_texts(page) == before
    assert page.evaluate("window.__vcConnection.made()") == 1
    assert page.evaluate("window.__vcConnection.held()") >= 1
    page.screenshot(path=str(screenshots / "53-offline-table-not-live-768x1024.png"))

    # A click on a cube (and Enter) never reaches the app: nothing is sent into the dead
    # socket (Flet's client still thinks it open), and the table shows the same.
    dropped = page.evaluate("window.__vcConnection.dropped()")
    x, y = page.evaluate(_CENTRE_JS, cube_id)
    page.mouse.click(x, y)
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.__vcConnection.blocked() >= 1",
                           timeout=STEP_TIMEOUT_MS)
    assert page.evaluate("window.__vcConnection.blocked()") >= 1
    assert page.evaluate("window.__vcConnection.dropped()") == dropped
    assert table_texts(page) == before

    # The server is back on its port and data: the page is live again, not reloaded.
    server.start()
    page.get_by_role("status").filter(has_text=en.t("connection.back")).wait_for(
        state="visible", timeout=BACK_TIMEOUT_MS)
    shade.wait_for(state="hidden", timeout=5_000)
    assert not page.evaluate("document.documentElement.hasAttribute('data-vc-offline')")
    page.locator(f"#{BANNER_ID}").wait_for(state="hidden", timeout=10_000)
    assert page.evaluate("performance.getEntriesByType('navigation')[0].type") == "navigate"
    page.locator(f'[flt-semantics-identifier="{cube_id}"]').wait_for(
        state="attached", timeout=LOAD_TIMEOUT_MS)
    settle(page)
    assert table_texts(page) == before  # the offline tap took nothing
    # Live: a tap now takes the cube, and Ann's row shows it.
    x, y = page.evaluate(_CENTRE_JS, cube_id)
    page.mouse.click(x, y)
    page.wait_for_function(
        f"(before) => ({_NODE_TEXT_JS})('player-0') !== before", arg=before["player-0"],
        timeout=STEP_TIMEOUT_MS)
    page.context.close()


def touch_drag(page: Any, x: float, y0: float, y1: float, steps: int = 12) -> None:
    """A finger drag from (x, y0) to (x, y1), as Chromium's touch input."""
    cdp = page.context.new_cdp_session(page)
    point = {"x": x, "y": y0}
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    for i in range(1, steps + 1):
        point = {"x": x, "y": y0 + (y1 - y0) * i / steps}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
        page.wait_for_timeout(16)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_a_phone_still_scrolls_the_table_but_taps_nothing_while_away(
        browser: Any, game: tuple[AppProcess, str, str]) -> None:
    from .conftest import PHONE
    from .test_browser import SEMANTICS_CLOCK_JS

    server, session_id, _cube = game  # the first test may have taken that cube
    en = Translator("en")
    context = browser.new_context(viewport=PHONE, locale="en-US", has_touch=True,
                                  is_mobile=True, device_scale_factor=1)
    context.add_init_script(SEMANTICS_CLOCK_JS)
    page = context.new_page()
    page.goto(f"{server.base}/play/village/{session_id}")
    page.locator("flt-semantics-placeholder").wait_for(state="attached",
                                                       timeout=LOAD_TIMEOUT_MS)
    page.locator("flt-semantics-placeholder").evaluate("e => e.click()")
    page.locator('[flt-semantics-identifier^="cube-"]').first.wait_for(
        state="attached", timeout=LOAD_TIMEOUT_MS)
    settle(page)
    cube_id = page.locator('[flt-semantics-identifier^="cube-"]').first.get_attribute(
        "flt-semantics-identifier")
    before = table_texts(page)

    server.stop(signal.SIGKILL)
    page.locator(f"#{SHADE_ID}").wait_for(state="visible", timeout=10_000)
    dropped = page.evaluate("window.__vcConnection.dropped()")
    x, y = page.evaluate(_CENTRE_JS, cube_id)
    page.touchscreen.tap(x, y)  # a touch tap on a cube: dropped
    page.wait_for_function("() => window.__vcConnection.blocked() >= 1",
                           timeout=STEP_TIMEOUT_MS)
    assert page.evaluate("window.__vcConnection.blocked()") >= 1
    assert page.evaluate("window.__vcConnection.dropped()") == dropped
    assert table_texts(page) == before

    # A finger drag still scrolls the page as it was: the turn header moves up.
    top = page.evaluate(_CENTRE_JS, "table-turn")[1]
    touch_drag(page, 180, 650, 250)
    page.wait_for_function(f"() => ({_CENTRE_JS})('table-turn')[1] < {top - 150}",
                           timeout=5_000)
    assert page.evaluate("window.__vcConnection.dropped()") == dropped
    assert page.evaluate("window.__vcConnection.made()") == 1

    server.start()
    page.get_by_role("status").filter(has_text=en.t("connection.back")).wait_for(
        state="visible", timeout=BACK_TIMEOUT_MS)
    page.locator(f"#{SHADE_ID}").wait_for(state="hidden", timeout=5_000)
    page.locator(f'[flt-semantics-identifier="{cube_id}"]').wait_for(
        state="attached", timeout=LOAD_TIMEOUT_MS)
    settle(page)
    assert table_texts(page) == before  # the offline tap took nothing
    context.close()


def test_the_offline_table_in_four_languages_for_the_gallery(
        browser: Any, game: tuple[AppProcess, str, str]) -> None:
    """The gallery's "table while disconnected" (issue 20), phone size, four languages:
    one page per language on the same server, the server killed once; each page keeps its
    table and says "not live" in its own language. The server is started again after."""
    from .test_gallery import GALLERY

    server, session_id, _ = game
    languages = {"en": "en-US", "de": "de-DE", "ko": "ko-KR", "zh_Hant": "zh-TW"}
    pages = {}
    for lang, locale in languages.items():
        page = open_app(browser, f"{server.base}/play/village/{session_id}", locale)
        page.locator('[flt-semantics-identifier="action-spaces"]').wait_for(
            state="attached", timeout=LOAD_TIMEOUT_MS)  # (a test before may take a cube)
        settle(page)
        pages[lang] = (page, table_texts(page))
    server.stop(signal.SIGKILL)
    try:
        for lang, (page, before) in pages.items():
            words = Translator(lang)
            shade = page.locator(f"#{SHADE_ID}")
            shade.wait_for(state="visible", timeout=10_000)
            assert shade.inner_text().strip() == words.t("connection.not_live"), lang
            page.get_by_role("status").filter(has_text=words.t("connection.lost")).wait_for(
                state="visible", timeout=10_000)
            assert table_texts(page) == before, lang  # the table as it was, readable
            folder = GALLERY / lang
            folder.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(folder / "table-offline-360x800.png"))
    finally:
        for page, _ in pages.values():
            page.context.close()
        server.start()
