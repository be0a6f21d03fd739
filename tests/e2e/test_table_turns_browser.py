"""Table mode's turns in real Chromium: a host on 127.0.0.1 and two phones on 127.0.0.2.

Phone A holds Ann's seat (Ann starts), phone B Bo's. A is told it is its turn; B sees whose
turn it is and is asked before taking a cube on Ann's turn (Cancel leaves the game as it
was); with the host's "own seat only" on, B's tap is refused instead. A takes a cube and
ends its turn: B's line turns into "Your turn". The host makes A watch-only: A's cubes and
turn buttons are disabled on screen. Back works on the host's table (Home) and on a phone's
panels (the table), and a phone's table has no back arrow that would do nothing. The
phones' seat states are saved as screenshots in the four languages.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import REPO
from .test_browser import LOAD_TIMEOUT_MS, STEP_TIMEOUT_MS, drawn, open_app, settle
from .test_other_games import RETAP_AFTER_MS
from .test_table_mode import (  # noqa: F401  (the fixture `shared` is used by name)
    _MEMBER_WITH_JS,
    Shared,
    _join_by_code,
    node_text,
    shared,
    tap_back,
    tap_id,
    wait_id,
    wait_text,
)

pytestmark = pytest.mark.e2e

GALLERY = REPO / "test-artifacts" / "gallery" / "table-mode"
# Enabled tappable nodes under an identifier (Flutter marks a disabled one aria-disabled).
_ENABLED_TAPS_JS = """(id) => {
  const root = document.querySelector(`[flt-semantics-identifier="${id}"]`);
  if (!root) return null;
  return [...root.querySelectorAll('[flt-tappable]')]
    .filter(e => e.getAttribute('aria-disabled') !== 'true').length;
}"""
_DIALOG = 'flt-semantics[role="alertdialog"]'


def enabled_taps(page: Any, identifier: str) -> int:
    settle(page)
    found = page.evaluate(_ENABLED_TAPS_JS, identifier)
    assert found is not None, f"no {identifier} on the page"
    return int(found)


def _join_link(host: Any) -> str:
    link = re.search(r"http://127\.0\.0\.2:\d+/join\?t=[\w-]+", node_text(host, "join-url"))
    assert link is not None, node_text(host, "join-url")
    return link.group(0)


def _join_code(host: Any) -> str:
    found = re.search(r"\b([A-Z0-9]{3}) ?([A-Z0-9]{3})\b", node_text(host, "join-code"))
    assert found is not None
    return found.group(1) + found.group(2)


def test_phones_are_told_asked_and_greyed(browser: Any, shared: Shared,  # noqa: F811
                                          screenshots: Path) -> None:
    s = shared
    table = f"/play/village/{s.session_id}"

    # ---- the host shares; A joins by the link (Ann), B by the code (Bo)
    host = open_app(browser, s.host(f"{table}/share"), "en-US")
    wait_id(host, "join-code")
    phone_a = open_app(browser, _join_link(host), "en-US")
    wait_id(phone_a, "seat-0")
    tap_id(phone_a, "seat-0")
    phone_a.wait_for_url(re.compile(rf"{table}/player/0$"), timeout=STEP_TIMEOUT_MS)
    phone_b = _join_by_code(browser, s, _join_code(host))
    wait_id(phone_b, "seat-1")
    tap_id(phone_b, "seat-1")
    phone_b.wait_for_url(re.compile(rf"{table}/player/1$"), timeout=STEP_TIMEOUT_MS)

    # ---- whose turn, on every phone: A is told it is its turn, B sees it is Ann's
    wait_text(phone_a, "seat-state-up", "Your turn, Ann!")
    wait_text(phone_b, "seat-state", "Ann's turn · you are Bo")
    shot_gallery(phone_a, "en", "up-seat")
    shot_gallery(phone_b, "en", "other-seat")

    # ---- Back: a phone's panel goes to the table; the table has no dead back arrow
    tap_back(phone_b, "Back to the table")
    wait_id(phone_b, "action-spaces", STEP_TIMEOUT_MS)
    assert phone_b.get_by_label("Back", exact=True).count() == 0
    wait_text(phone_b, "seat-state", "Ann's turn · you are Bo")

    # ---- B taps Ann's cube: asked first; Cancel leaves the cube where it was
    tap_id(phone_b, s.cube_id)
    dialog = phone_b.locator(_DIALOG)
    dialog.wait_for(timeout=STEP_TIMEOUT_MS)
    assert "It is Ann's turn" in (dialog.text_content() or "") + str(
        dialog.get_attribute("aria-label"))
    shot_gallery(phone_b, "en", "asked")
    dialog.get_by_role("button", name="Cancel", exact=True).dispatch_event("click")
    dialog.wait_for(state="detached", timeout=STEP_TIMEOUT_MS)
    settle(phone_b)
    wait_id(phone_b, s.cube_id, STEP_TIMEOUT_MS)  # still on its space
    assert f"{s.colour} ×1" not in node_text(phone_b, "player-0")

    # ---- the host lets phones act only for their own seat: B's tap is refused
    tap_id(host, "own-seat-only")
    settle(host)
    refused = phone_b.get_by_text(re.compile("only for its own seat")).first
    for _try in range(3):
        tap_id(phone_b, s.cube_id)
        try:
            refused.wait_for(timeout=RETAP_AFTER_MS)
            break
        except PlaywrightTimeout:
            # Nothing came: the tap landed on a control the phone was just redrawing and
            # was dropped (seen once, in a clean-clone CI run); a person taps again.
            # Never when it was asked instead: that is the failure itself.
            assert phone_b.locator(_DIALOG).count() == 0
            settle(phone_b)
    refused.wait_for(timeout=STEP_TIMEOUT_MS)
    assert phone_b.locator(_DIALOG).count() == 0
    assert f"{s.colour} ×1" not in node_text(phone_b, "player-0")

    # ---- A takes the cube and ends Ann's turn: B is told at once
    tap_back(phone_a, "Back to the table")
    wait_id(phone_a, "action-spaces", STEP_TIMEOUT_MS)
    tap_id(phone_a, s.cube_id)
    wait_text(phone_a, "player-0", f"{s.colour} ×1")
    settle(phone_a)
    phone_a.get_by_role("button", name="End turn").dispatch_event("click")
    wait_text(phone_b, "seat-state-up", "Your turn, Bo!")
    wait_text(phone_a, "seat-state", "Bo's turn · you are Ann")

    # ---- the host makes A watch-only: A's game controls are disabled, not refused later
    tap_id(host, "own-seat-only")  # back to asking, as it was
    host.wait_for_function(f"(sub) => ({_MEMBER_WITH_JS})(sub) !== null", arg="Ann's phone",
                           timeout=STEP_TIMEOUT_MS)
    member_a = host.evaluate(_MEMBER_WITH_JS, "Ann's phone")
    assert enabled_taps(phone_a, "action-spaces") > 0  # before: A may act (after asking)
    tap_id(host, f"watch-only-{member_a}")
    wait_text(phone_a, "seat-state", "you are watching")
    assert enabled_taps(phone_a, "action-spaces") == 0
    assert enabled_taps(phone_a, "turn-buttons") == 0
    assert enabled_taps(phone_a, "undo") == 0
    shot_gallery(phone_a, "en", "watch-only")

    # ---- the host's Back on the table goes Home
    tap_back(host, "Back")
    wait_id(host, "action-spaces", STEP_TIMEOUT_MS)
    tap_back(host, "Back")
    host.wait_for_url(re.compile(r":\d+/$"), timeout=STEP_TIMEOUT_MS)
    for page in (host, phone_a, phone_b):
        page.context.close()


@pytest.mark.parametrize("lang", ["de", "ko", "zh_Hant"])
def test_the_seat_states_in_other_languages(browser: Any, shared: Shared,  # noqa: F811
                                            lang: str) -> None:
    """A phone in each language: its seat line on Ann's turn and on its own, and the
    question before acting for another seat (screenshots for the gallery)."""
    locale = {"de": "de-DE", "ko": "ko-KR", "zh_Hant": "zh-TW"}[lang]
    s = shared
    table = f"/play/village/{s.session_id}"
    host = open_app(browser, s.host(f"{table}/share"), "en-US")
    wait_id(host, "join-code")
    phone = open_app(browser, _join_link(host), locale)
    wait_id(phone, "seat-1")
    tap_id(phone, "seat-1")
    phone.wait_for_url(re.compile(rf"{table}/player/1$"), timeout=STEP_TIMEOUT_MS)
    wait_text(phone, "seat-state", "Ann")
    words = node_text(phone, "seat-state")
    assert "Ann" in words and "turn" not in words, words
    shot_gallery(phone, lang, "other-seat")
    phone.goto(s.phone(table))  # a reload: turn the semantics tree on again
    phone.locator("flt-semantics-placeholder").wait_for(state="attached",
                                                        timeout=LOAD_TIMEOUT_MS)
    phone.locator("flt-semantics-placeholder").evaluate("e => e.click()")
    wait_id(phone, "action-spaces")
    tap_id(phone, s.cube_id)
    phone.locator(_DIALOG).wait_for(timeout=STEP_TIMEOUT_MS)
    shot_gallery(phone, lang, "asked")
    for page in (host, phone):
        page.context.close()


def shot_gallery(page: Any, lang: str, name: str) -> None:
    folder = GALLERY / lang
    folder.mkdir(parents=True, exist_ok=True)
    drawn(page)
    page.screenshot(path=str(folder / f"{name}.png"))
