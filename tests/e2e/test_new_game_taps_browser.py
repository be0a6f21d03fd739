"""Home → new Village game → the table, counted in real Chromium at phone size (issue 20,
point 5): a new game takes the taps its choices need and one "All match my box" for the
component check, no more. Every click the page receives is counted (as in
test_turn_taps_browser); the counts are printed (`pytest -s`) and written to
test-artifacts/tap-counts.txt.

One store for the whole module, as one person's phone: a three-player Big Box game first
(every value unchecked), then a solo game (Karla's board and the two-player setup card
are new to check), then another three-player Big Box game, whose answers are all saved:
it skips the check and confirms nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import PHONE, SCREENSHOTS, served_app
from .test_browser import (
    LOAD_TIMEOUT_MS,
    SEMANTICS_CLOCK_JS,
    STEP_TIMEOUT_MS,
    drawn,
    settle,
    type_in_focus,
)
from .test_turn_taps_browser import CLICK_COUNTER_JS, TAP_COUNTS

pytestmark = pytest.mark.e2e

# The choices each new game needs (Big Box and three players are the defaults; the start
# player, compensation and the draws keep theirs), in the order they are made.
NAMES_3 = ["Name, seat 1", "Name, seat 2", "Name, seat 3"]
CHOICES_3 = ["new-village", "Next", *NAMES_3, "Next", "Next", "Start game"]
CHOICES_SOLO = ["new-village-solo", "Next", "Name, seat 1", "Next", "Next", "Start game"]
CHOICES_3_SAVED = ["new-village", "Next", *NAMES_3, "Next", "Start game"]
ALL_MATCH = "All match my box"

_CHECK_TEXT_JS = """() => {
  const e = document.querySelector('[flt-semantics-identifier="component-check"]');
  return e ? ((e.getAttribute('aria-label') || '') + '\\n' + (e.textContent || '')) : '';
}"""


@pytest.fixture(scope="module")
def base(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data_dir = tmp_path_factory.mktemp("new-game-taps-data")
    with served_app(data_dir) as url:
        yield url


def open_home(browser: Any, base: str, locale: str = "en-US") -> Any:
    context = browser.new_context(viewport=PHONE, locale=locale, device_scale_factor=1)
    context.add_init_script(SEMANTICS_CLOCK_JS)
    context.add_init_script(CLICK_COUNTER_JS)
    page = context.new_page()
    page.goto(f"{base}/")
    page.wait_for_selector("flutter-view", timeout=LOAD_TIMEOUT_MS)
    placeholder = page.locator("flt-semantics-placeholder")
    placeholder.wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
    placeholder.evaluate("e => e.click()")  # Flutter's semantics DOM on
    page.locator('[flt-semantics-identifier="new-village"]').wait_for(timeout=LOAD_TIMEOUT_MS)
    settle(page)
    page.evaluate("window.__clicks = 0")  # opening the app is not part of the new game
    return page


class Flow:
    """The page, and the taps of the new game in the order the test makes them."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps: list[str] = []

    def ident(self, identifier: str) -> Any:
        return self.page.locator(f'[flt-semantics-identifier="{identifier}"]')

    def tap(self, what: str, node: Any) -> None:
        """One tap: a DOM click on the semantics node once the page has settled (as
        test_turn_taps_browser.tap), noted under `what`."""
        settle(self.page)
        node.wait_for(timeout=STEP_TIMEOUT_MS)
        node.dispatch_event("click")
        self.taps.append(what)

    def tap_id(self, identifier: str) -> None:
        self.tap(identifier, self.ident(identifier).locator(
            "xpath=descendant-or-self::*[@flt-tappable]").first)

    def next(self, label: str = "Next") -> None:
        self.tap(label, self.ident("wizard-nav").get_by_role("button", name=label, exact=True))

    def step(self, step: int, steps: int, name: str) -> None:
        self.page.get_by_text(f"Step {step} of {steps}: {name}").wait_for(
            timeout=STEP_TIMEOUT_MS)

    def type_name(self, label: str, name: str) -> None:
        """A tap into the field (a pointer click: it must take the focus), then typing."""
        settle(self.page)
        self.page.get_by_role("textbox", name=label).click()
        self.taps.append(label)
        type_in_focus(self.page, name)

    def check_text(self) -> str:
        return str(self.page.evaluate(_CHECK_TEXT_JS))

    def all_match(self, label: str) -> None:
        """The one answer for every value; then Start takes its place (still in view)."""
        button = self.ident("estimate-all-match").get_by_role("button")
        button.wait_for(timeout=STEP_TIMEOUT_MS)
        assert in_view(button), button.bounding_box()  # no scrolling to find it
        assert label in self.check_text(), self.check_text()
        self.tap(ALL_MATCH, button)
        self.page.wait_for_function(
            f"() => /Checked: (\\d+) of \\1\\b/.test(({_CHECK_TEXT_JS})())",
            timeout=STEP_TIMEOUT_MS)

    def start_from_the_check(self) -> None:
        start = self.ident("check-start").get_by_role("button")
        start.wait_for(timeout=STEP_TIMEOUT_MS)
        assert in_view(start), start.bounding_box()
        self.tap("Start game", start)

    def clicks(self) -> int:
        return int(self.page.evaluate("window.__clicks"))

    def at_the_table(self) -> None:
        self.page.wait_for_url("**/play/village/*", timeout=STEP_TIMEOUT_MS)
        self.ident("table-turn").wait_for(timeout=STEP_TIMEOUT_MS)


def record(kind: str, taps: int, choices: int) -> None:
    line = f"{kind}: {taps} taps (browser clicks; {choices} choices + 1 all match)"
    if choices == taps:
        line = f"{kind}: {taps} taps (browser clicks; its choices only, nothing to confirm)"
    print(f"\n{line}")
    TAP_COUNTS.parent.mkdir(parents=True, exist_ok=True)
    kept = [old for old in (TAP_COUNTS.read_text("utf-8").splitlines()
                            if TAP_COUNTS.exists() else []) if not old.startswith(f"{kind}:")]
    TAP_COUNTS.write_text("\n".join([*kept, line]) + "\n", "utf-8")


def shot(page: Any, name: str) -> None:
    directory = SCREENSHOTS / "new-game"
    directory.mkdir(parents=True, exist_ok=True)
    page.mouse.move(180, 28)
    drawn(page)
    page.screenshot(path=str(directory / name))


def in_view(node: Any) -> bool:
    box = node.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def three_players(flow: Flow, *, checked_before: bool) -> None:
    flow.tap_id("new-village")
    flow.step(1, 3 if checked_before else 4, "Game")  # Big Box and 3 players: the defaults
    flow.next()
    for seat, name in enumerate(["Ann", "Bo", "Cy"], start=1):
        flow.type_name(f"Name, seat {seat}", name)
    flow.next()
    if checked_before:  # every answer saved: Start is on the options step
        flow.step(3, 3, "Options")
        flow.ident("check-done").wait_for(timeout=STEP_TIMEOUT_MS)
        shot(flow.page, "options-3-players-answers-saved-en.png")
        flow.next("Start game")
        return
    flow.step(3, 4, "Options")
    flow.next()
    flow.step(4, 4, "Check your components")
    flow.ident("estimate-all-match").wait_for(timeout=STEP_TIMEOUT_MS)
    shot(flow.page, "check-3-players-en.png")
    flow.all_match("All match my box")
    shot(flow.page, "check-3-players-all-matched-en.png")
    flow.start_from_the_check()


def test_new_three_player_game_then_solo_then_a_returning_game(browser: Any, base: str) -> None:
    # ---- first game: every value unchecked ----
    flow = Flow(open_home(browser, base))
    three_players(flow, checked_before=False)
    flow.at_the_table()
    taps = flow.clicks()
    record("New Village game, 3 players Big Box, first time", taps, len(CHOICES_3))
    assert flow.taps == [*CHOICES_3[:-1], ALL_MATCH, CHOICES_3[-1]]
    assert taps == len(CHOICES_3) + 1, flow.taps  # was 17: nine "Matches my box"

    # ---- solo: Karla's board and the 2-player card are new ----
    flow = Flow(open_home(browser, base))
    flow.tap_id("new-village-solo")
    flow.step(1, 4, "Game")
    flow.next()
    flow.type_name("Name, seat 1", "Sol")
    flow.next()
    flow.step(3, 4, "Options")
    flow.next()
    flow.step(4, 4, "Check your components")
    flow.ident("estimate-all-match").wait_for(timeout=STEP_TIMEOUT_MS)
    shot(flow.page, "check-solo-en.png")
    flow.all_match("The others match my box")  # the shared values were answered before
    flow.start_from_the_check()
    flow.at_the_table()
    taps = flow.clicks()
    record("New Village solo game, after a 3-player game", taps, len(CHOICES_SOLO))
    assert flow.taps == [*CHOICES_SOLO[:-1], ALL_MATCH, CHOICES_SOLO[-1]]
    assert taps == len(CHOICES_SOLO) + 1, flow.taps  # was 10: four "Matches my box"

    # ---- the same three-player game again: nothing to confirm ----
    flow = Flow(open_home(browser, base))
    three_players(flow, checked_before=True)
    flow.at_the_table()
    taps = flow.clicks()
    record("New Village game, 3 players Big Box, answers saved", taps, len(CHOICES_3_SAVED))
    assert flow.taps == CHOICES_3_SAVED
    assert taps == len(CHOICES_3_SAVED), flow.taps  # was 8: Next to a check with nothing to ask


def test_the_check_at_phone_size_in_korean(browser: Any, base: str) -> None:
    """The check in another language (a fresh solo check: the Korean labels are longer
    where it matters, the button must still be in view without scrolling)."""
    from companion.app.kit.text_fit import keep_words
    from companion.i18n import Translator

    ko = Translator("ko")

    def say(key: str, **params: object) -> str:  # as the app shows Korean: words kept whole
        return keep_words(ko.t(key, **params))

    page = open_home(browser, base, "ko-KR")
    flow = Flow(page)
    flow.tap_id("new-village")
    flow.tap_id("edition-2011")  # 2011: its values are new to this store
    flow.next(say("village.wizard.next"))
    for seat, name in enumerate(["Ann", "Bo", "Cy"], start=1):
        flow.type_name(say("village.wizard.name", seat=seat), name)
    flow.next(say("village.wizard.next"))
    flow.next(say("village.wizard.next"))
    button = flow.ident("estimate-all-match").get_by_role("button")
    button.wait_for(timeout=STEP_TIMEOUT_MS)
    assert in_view(button), button.bounding_box()
    assert say("village.components.all_match") in flow.check_text()
    shot(page, "check-3-players-2011-ko.png")
    flow.tap_id("estimate-tab-time_track_length")  # its picture and source, on demand
    flow.ident("why-time_track_length").wait_for(timeout=STEP_TIMEOUT_MS)
    shot(page, "check-3-players-2011-ko-opened.png")
