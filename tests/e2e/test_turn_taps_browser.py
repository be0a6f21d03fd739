"""The taps of a typical Village turn, counted in real Chromium at phone size (issue 13):
take a cube, do a simple action (the harvest), end the turn, in at most three taps, for a
multiplayer game and for a solo game with Karla automatic (she takes her cube without a
tap). The headless count is tests/app/village_panels/test_turn_taps.py; this one counts
the clicks the browser receives. The counts are printed (`pytest -s`) and written to
test-artifacts/tap-counts.txt.

The games are seeded in the store before the server starts, as the headless test builds
them: round 1, Ann to take a cube, a brown cube on the harvest space (the first bag draw
entered by hand, later draws the app's)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from app.village_panels.conftest import placements

from companion.i18n import Translator
from companion.store.tinydb_store import TinyDBStore
from companion.village.outcomes import BagOutcome
from companion.village.service import VillageService
from companion.village.setup import PlayerSetup, VillageSetup

from .conftest import PHONE, REPO, served_app
from .test_browser import LOAD_TIMEOUT_MS, SEMANTICS_CLOCK_JS, STEP_TIMEOUT_MS, settle

pytestmark = pytest.mark.e2e

MAX_TAPS = 3
TAP_COUNTS = REPO / "test-artifacts" / "tap-counts.txt"
NAMES = ["Ann", "Bo", "Cy"]
COLOURS = ["red", "blue", "yellow"]
# Counts every click the page receives (Playwright's and the DOM clicks a screen reader
# sends alike), whichever element gets it.
CLICK_COUNTER_JS = """
window.__clicks = 0;
window.addEventListener('click', () => { window.__clicks += 1; }, true);
"""


def seed_game(service: VillageService, players: int, **setup: Any) -> str:
    """Round 1, Ann to take a cube, a brown cube on the harvest: the game's id."""
    karla_policy = setup.pop("karla_policy", "ask")
    village = VillageSetup(players=[PlayerSetup(name=n, colour=c) for n, c in
                                    zip(NAMES[:players], COLOURS[:players], strict=True)],
                           start_player=0, compensation=False, **setup)
    sid, session = service.create(village, draw_mode="manual", karla_policy=karla_policy)
    service.enter_draw(sid, session, BagOutcome(placements=placements(
        session, {"harvest": ["brown"]})))
    service.set_prefs(sid, session, draw_mode="app")  # later draws (the mass) are the app's
    return sid


@pytest.fixture(scope="module")
def games(chromium: Path, tmp_path_factory: pytest.TempPathFactory
          ) -> Iterator[tuple[str, dict[str, str]]]:
    data_dir = tmp_path_factory.mktemp("taps-data")
    service = VillageService(TinyDBStore(data_dir))
    sids = {"multiplayer": seed_game(service, 3),
            "solo": seed_game(service, 1, solo=True, karla_colour="purple",
                              karla_policy="auto")}
    with served_app(data_dir) as base:
        yield base, sids


# The turn header's text (its aria-label, where Flutter merged the texts, and its text).
TURN_TEXT_JS = """() => {
  const e = document.querySelector('[flt-semantics-identifier="table-turn"]');
  return e ? ((e.getAttribute('aria-label') || '') + '\\n' + (e.textContent || '')) : '';
}"""


def open_game(browser: Any, base: str, sid: str) -> Any:
    """The game's table in a phone-sized page that counts its clicks."""
    context = browser.new_context(viewport=PHONE, locale="en-US", device_scale_factor=1)
    context.add_init_script(SEMANTICS_CLOCK_JS)
    context.add_init_script(CLICK_COUNTER_JS)
    page = context.new_page()
    page.goto(f"{base}/play/village/{sid}")
    page.wait_for_selector("flutter-view", timeout=LOAD_TIMEOUT_MS)
    placeholder = page.locator("flt-semantics-placeholder")
    placeholder.wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
    placeholder.evaluate("e => e.click()")  # Flutter's semantics DOM on
    return page


def wait_turn(page: Any, *parts: str) -> None:
    """Until the turn header contains every one of `parts`."""
    page.wait_for_function(f"(parts) => {{ const t = ({TURN_TEXT_JS})(); "
                           "return parts.every(p => t.includes(p)); }", arg=list(parts),
                           timeout=STEP_TIMEOUT_MS)


def tap(page: Any, node: Any) -> None:
    """A tap as the other browser tests make it (test_village_flows.Ui.tap): once the page
    has settled, a DOM click on the semantics node, which Flutter turns into a tap."""
    settle(page)
    node.dispatch_event("click")


def play_turn(page: Any, sid: str) -> int:
    """Take the brown harvest cube, harvest, end the turn: the clicks it took."""
    t = Translator("en")
    wait_turn(page, "Ann", "take a cube")
    page.evaluate("window.__clicks = 0")  # opening the table is not part of the turn

    cube = page.locator('[flt-semantics-identifier^="cube-harvest-brown-"]').first
    tap(page, cube.locator("xpath=descendant-or-self::*[@flt-tappable]").first)
    shortcut = page.get_by_role("button", name="Do the action on Ann's board", exact=True)
    shortcut.wait_for(timeout=STEP_TIMEOUT_MS)
    tap(page, shortcut)
    # The shortcut lands on the harvest form itself, with the end of the turn on it.
    page.locator('[flt-semantics-identifier="action-form"]').wait_for(
        timeout=STEP_TIMEOUT_MS)
    finish = page.get_by_role("button", name=t.t("forms.apply_and_end",
                                                 action=t.t("space.harvest")), exact=True)
    finish.wait_for(timeout=STEP_TIMEOUT_MS)
    assert f"/play/village/{sid}/player/0/harvest" in page.url
    tap(page, finish)
    # Back at the table (each test checks whose turn it is now).
    page.wait_for_url(f"**/play/village/{sid}", timeout=STEP_TIMEOUT_MS)
    wait_turn(page, "take a cube")
    return int(page.evaluate("window.__clicks"))


def record(kind: str, taps: int) -> None:
    line = f"{kind}: {taps} taps (browser clicks; at most {MAX_TAPS})"
    print(f"\n{line}")
    TAP_COUNTS.parent.mkdir(parents=True, exist_ok=True)
    kept = [old for old in (TAP_COUNTS.read_text("utf-8").splitlines()
                            if TAP_COUNTS.exists() else []) if not old.startswith(f"{kind}:")]
    TAP_COUNTS.write_text("\n".join([*kept, line]) + "\n", "utf-8")


def test_multiplayer_turn_takes_three_taps(browser: Any,
                                           games: tuple[str, dict[str, str]]) -> None:
    base, sids = games
    page = open_game(browser, base, sids["multiplayer"])
    taps = play_turn(page, sids["multiplayer"])
    wait_turn(page, "Bo's turn", "Bo: take a cube")
    record("Village turn (take a cube, harvest, end the turn)", taps)
    assert taps <= MAX_TAPS


def test_solo_turn_with_karla_automatic_takes_three_taps(
        browser: Any, games: tuple[str, dict[str, str]]) -> None:
    base, sids = games
    page = open_game(browser, base, sids["solo"])
    taps = play_turn(page, sids["solo"])
    # Karla took her cube by herself, no dialog asked: Ann's turn again.
    page.wait_for_function("() => /Karla's last cube: from /.test(document.querySelector("
                           "'[flt-semantics-identifier=\"karla-last-take\"]')"
                           "?.getAttribute('aria-label') || '')", timeout=STEP_TIMEOUT_MS)
    wait_turn(page, "Ann's turn", "take a cube")
    assert not page.locator('flt-semantics[role="alertdialog"]').count()
    record("Solo turn (take a cube, harvest, end the turn; Karla automatic)", taps)
    assert taps <= MAX_TAPS
