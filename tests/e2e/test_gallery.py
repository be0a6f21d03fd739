"""A gallery anyone can look through (issue 13): every main screen at 360x800 in the four
languages and in dark mode, and the table at 768x1024 and 1280x800, saved under
test-artifacts/gallery/<variant>/.

Each screen is opened by its route inside one loaded page (history.pushState + popstate,
as the browser's own back/forward does), so a variant costs one app start. The test checks
each screen rendered something of its own (a semantics node) and, in the languages other
than English, that the screen's words are not the English ones.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .conftest import REPO, served_app
from .test_browser import LOAD_TIMEOUT_MS, drawn, open_app, settle
from .test_round_end_browser import played_to_round

pytestmark = pytest.mark.e2e

GALLERY = REPO / "test-artifacts" / "gallery"
VARIANTS = {  # name: (browser locale, colour scheme)
    "en": ("en-US", "light"), "zh_Hant": ("zh-TW", "light"), "ko": ("ko-KR", "light"),
    "de": ("de-DE", "light"), "en-dark": ("en-US", "dark"),
}
# Words of English screens that must not reach a translated one (the app's own terms).
ENGLISH_ONLY = ("Settings", "Round 1", "Final scoring", "Game log")


@dataclass
class Seeded:
    url: str
    multi: str
    solo: str
    ended: str  # a game whose first round has ended (the round-end screen)
    finished: str  # a game played to its end (its replay)


def _seed(data_dir: Path) -> tuple[str, str, str, str]:
    from companion.store.tinydb_store import TinyDBStore
    from companion.village.service import VillageService
    from companion.village.setup import PlayerSetup, VillageSetup
    from tests.history.helpers import finished_village

    service = VillageService(TinyDBStore(data_dir))
    multi, _ = service.create(VillageSetup(
        players=[PlayerSetup(name="Ann", colour="red"), PlayerSetup(name="Bartholomew",
                                                                    colour="blue"),
                 PlayerSetup(name="Chiara", colour="yellow")], start_player=0, seed=5))
    solo, _ = service.create(VillageSetup(players=[PlayerSetup(name="Dana", colour="blue")],
                                          solo=True, karla_colour="red", seed=5))
    ended = played_to_round(service, 2, seed=3)
    finished = finished_village(service, ["Ann", "Bartholomew"], seed=3)
    return multi, solo, ended, finished


@pytest.fixture(scope="module")
def seeded(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Seeded]:
    data_dir = tmp_path_factory.mktemp("gallery-data")
    multi, solo, ended, finished = _seed(data_dir)
    with served_app(data_dir) as url:
        yield Seeded(url, multi, solo, ended, finished)


def _screens(s: Seeded) -> list[tuple[str, str]]:
    game, solo = f"/play/village/{s.multi}", f"/play/village/{s.solo}"
    return [
        ("01-home", "/"), ("02-settings", "/settings"), ("03-rules", "/rules"),
        ("04-new-village", "/new/village"), ("05-new-solo", "/new/village-solo"),
        ("06-table", game), ("07-player", f"{game}/player/0"), ("08-market", f"{game}/market"),
        ("09-mass", f"{game}/mass"), ("10-chronicle", f"{game}/chronicle"),
        ("11-score", f"{game}/score"), ("12-log", f"{game}/log"), ("13-solo-table", solo),
        ("14-solo-player", f"{solo}/player/0"), ("15-small-city", "/new/small-city"),
        ("16-feudum", "/new/feudum"), ("17-villagers", "/new/villagers"),
        ("18-round-end", f"/play/village/{s.ended}/round-end"),
        ("19-replay", f"/history/replay/{s.finished}"),
    ]


def _open(browser: Any, url: str, locale: str, scheme: str,
          viewport: dict[str, int]) -> Any:
    return open_app(browser, url, locale, dark=scheme == "dark", viewport=viewport)


def _visit(page: Any, route: str) -> str:
    """Open `route` in the running app; the page's words once it has settled."""
    # The semantics clock starts at the navigation: settle waits for the new screen's
    # re-renders to be over, not for a stillness from before it.
    page.evaluate("(r) => { window.__semanticsChanged = performance.now(); "
                  "history.pushState({}, '', r); "
                  "window.dispatchEvent(new PopStateEvent('popstate', {state: {}})); }", route)
    settle(page)
    page.wait_for_function(
        "() => document.querySelectorAll('flt-semantics').length > 3", timeout=LOAD_TIMEOUT_MS)
    drawn(page)  # fonts and the last frame
    return str(page.evaluate("() => document.querySelector('flt-semantics-host')"
                             "?.innerText || ''"))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_screen_at_phone_size(browser: Any, seeded: Seeded, variant: str) -> None:
    locale, scheme = VARIANTS[variant]
    folder = GALLERY / variant
    folder.mkdir(parents=True, exist_ok=True)
    page = _open(browser, seeded.url + "/", locale, scheme, {"width": 360, "height": 800})
    leaks: dict[str, list[str]] = {}
    try:
        for name, route in _screens(seeded):
            words = _visit(page, route)
            assert words.strip(), f"{variant} {name}: the screen shows nothing"
            page.screenshot(path=str(folder / f"{name}.png"))
            if not variant.startswith("en"):
                found = [w for w in ENGLISH_ONLY if w in words]
                if found:
                    leaks[name] = found
    finally:
        page.context.close()
    assert leaks == {}, f"English words on {variant} screens: {leaks}"


REPLAY_BUTTONS = ("previous", "next", "previous_turn", "next_turn", "previous_round",
                  "next_round", "first", "last")


@pytest.mark.parametrize("variant", ["en", "de", "ko", "zh_Hant"])
def test_the_replay_at_phone_size(browser: Any, seeded: Seeded, variant: str) -> None:
    """The replay of a finished game in each language at 360x800: the board drawn, the
    eight buttons named by their visible words, all in view and 48 px high, and the
    current player marked by the word "now" (in the language) in a highlighted tile,
    never the "▶" the web fonts lack."""
    from companion.app.kit.text_fit import keep_words
    from companion.i18n import Translator

    translator = Translator(variant)

    def t(key: str) -> str:  # as the app shows it (Korean words kept whole)
        return keep_words(translator.t(key))

    locale, scheme = VARIANTS[variant]
    folder = GALLERY / variant
    folder.mkdir(parents=True, exist_ok=True)
    page = _open(browser, seeded.url + "/", locale, scheme, {"width": 360, "height": 800})
    try:
        _visit(page, f"/history/replay/{seeded.finished}")
        page.wait_for_selector('[flt-semantics-identifier="action-spaces"]',
                               timeout=LOAD_TIMEOUT_MS)
        step = '[flt-semantics-identifier="replay-step"]'
        first = page.locator(step).inner_text()
        for key in ("next_round", "next_turn", "next_turn"):
            page.get_by_role("button", name=t(f"history.replay.{key}")).click()
            settle(page)
        drawn(page)
        page.screenshot(path=str(folder / "19-replay-turn.png"))
        assert page.locator(step).inner_text() != first  # the jumps moved the replay
        for key in REPLAY_BUTTONS:
            button = page.get_by_role("button", name=t(f"history.replay.{key}"))
            assert button.count() == 1, key
            box = button.bounding_box()
            assert box is not None and box["height"] >= 47.5, (key, box)
            assert box["y"] >= 0 and box["y"] + box["height"] <= 800, (key, box)
        now = t("village.players.now")
        tiles = page.locator('[flt-semantics-identifier^="player-"]')

        def words(i: int) -> str:  # a node's label, or its text: Flutter writes either
            node = tiles.nth(i)
            return (node.get_attribute("aria-label") or "") + node.inner_text()

        def marked() -> list[int]:
            return [i for i in range(tiles.count()) if now in words(i)]

        def to_players() -> None:  # the board scrolled to its end: every tile in view
            for _ in range(4):
                page.mouse.move(180, 300)
                page.mouse.wheel(0, 800)
                settle(page)

        # Between turns (a round's end, the mass) no tile is "now": step on to a turn.
        to_players()
        for _ in range(8):
            if marked():
                break
            page.get_by_role("button", name=t("history.replay.next_turn")).click()
            settle(page)
            to_players()
        assert len(marked()) == 1, [words(i) for i in range(tiles.count())]
        text = str(page.evaluate("() => document.querySelector('flt-semantics-host')"
                                 "?.innerText || ''"))
        assert "\u25b6" not in text
        cubes = page.locator('[flt-semantics-identifier^="cube-"]')
        assert cubes.count() > 0  # the board is drawn: the spaces' cubes
        # The marked tile scrolled into view above the fixed buttons (the screenshot shows
        # its words drawn; its semantics node may split, so only its place is checked).
        index = marked()[0]
        for _ in range(12):
            box = tiles.nth(index).bounding_box()
            if box is not None and 0 <= box["y"] < 560:
                break
            page.mouse.move(180, 300)
            page.mouse.wheel(0, 200)
            settle(page)
        drawn(page)
        page.screenshot(path=str(folder / "19-replay-players.png"))
        box = tiles.nth(index).bounding_box()
        assert box is not None and 0 <= box["y"] < 800 and box["height"] > 0, box
    finally:
        page.context.close()


@pytest.mark.parametrize("size", [(768, 1024), (1280, 800)])
def test_the_table_on_tablets_and_laptops(browser: Any, seeded: Seeded,
                                          size: tuple[int, int]) -> None:
    width, height = size
    folder = GALLERY / "wide"
    folder.mkdir(parents=True, exist_ok=True)
    page = _open(browser, seeded.url + f"/play/village/{seeded.multi}", "en-US", "light",
                 {"width": width, "height": height})
    try:
        for name, route in (("table", f"/play/village/{seeded.multi}"),
                            ("solo-table", f"/play/village/{seeded.solo}")):
            words = _visit(page, route)
            assert "Ann" in words or "Dana" in words, words[:200]
            page.screenshot(path=str(folder / f"{name}-{width}x{height}.png"))
            panes = _panes(page)
            if width >= 900:  # the table beside the players (issue 13, point 11)
                assert panes is not None, f"{name} at {width}: one column"
                (tx, tw), (px, _) = panes
                assert tx + tw <= px + 1, panes
            else:
                assert panes is None, f"{name} at {width}: two panes"
    finally:
        page.context.close()


def _panes(page: Any) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """(x, width) of the table's pane and of the players' pane, None in one column."""
    boxes = []
    for pane in ("table-pane", "players-pane"):
        node = page.locator(f'[flt-semantics-identifier="{pane}"]')
        if node.count() == 0:
            return None
        box = node.first.bounding_box()
        boxes.append((box["x"], box["width"]))
    return boxes[0], boxes[1]


def test_the_table_follows_a_resized_window(browser: Any, seeded: Seeded) -> None:
    """A tablet turned to landscape: the table splits into two panes and back."""
    page = _open(browser, seeded.url + f"/play/village/{seeded.multi}", "en-US", "light",
                 {"width": 768, "height": 1024})
    try:
        _visit(page, f"/play/village/{seeded.multi}")
        assert _panes(page) is None
        page.set_viewport_size({"width": 1280, "height": 800})
        page.wait_for_function("() => document.querySelector("
                               "'[flt-semantics-identifier=\"players-pane\"]') !== null",
                               timeout=LOAD_TIMEOUT_MS)
        settle(page)
        assert _panes(page) is not None
        page.set_viewport_size({"width": 768, "height": 1024})
        page.wait_for_function("() => document.querySelector("
                               "'[flt-semantics-identifier=\"players-pane\"]') === null",
                               timeout=LOAD_TIMEOUT_MS)
    finally:
        page.context.close()
