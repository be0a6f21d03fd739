"""Abandon an unfinished game on Home in Chromium at 360x800 (issue 13): the confirmation,
the message with its Undo and Close as 48 px buttons, Undo bringing the game back, and
abandoning again moving it to History's abandoned games."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import served_app
from .test_browser import LOAD_TIMEOUT_MS, STEP_TIMEOUT_MS, drawn, open_app, shot

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def home_url(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from companion.store.tinydb_store import TinyDBStore

    data = tmp_path_factory.mktemp("e2e-abandon")
    TinyDBStore(data).create("friday", "village", "Friday at Kim's", {})
    with served_app(data) as url:
        yield url


def _box(page: Any, locator: Any) -> dict[str, float]:
    box = locator.bounding_box()
    assert box is not None, locator
    return dict(box)


def test_abandon_then_undo_then_abandon(browser: Any, home_url: str,
                                        screenshots: Path) -> None:
    page = open_app(browser, home_url)
    row = page.locator('[flt-semantics-identifier="abandon-friday"]')
    row.wait_for(timeout=LOAD_TIMEOUT_MS)
    row.get_by_role("button", name="Abandon this game").click(timeout=STEP_TIMEOUT_MS)
    page.get_by_role("button", name="Abandon", exact=True).click(timeout=STEP_TIMEOUT_MS)
    bar = page.locator('[flt-semantics-identifier="abandoned-snackbar"]')
    bar.wait_for(timeout=STEP_TIMEOUT_MS)
    undo = page.get_by_role("button", name="Undo", exact=True)
    close = page.get_by_role("button", name="Close", exact=True)
    undo.wait_for(timeout=STEP_TIMEOUT_MS)
    drawn(page)  # the bar's slide-in is over: its buttons where they stay
    shot(page, screenshots, "home-abandoned-undo-360.png")
    for button in (undo, close):
        box = _box(page, button)
        assert box["height"] >= 48 and box["width"] >= 48, box
        assert box["y"] + box["height"] <= 800  # on screen
    undo.click(timeout=STEP_TIMEOUT_MS)
    row.wait_for(timeout=STEP_TIMEOUT_MS)  # back on Continue
    row.get_by_role("button", name="Abandon this game").click(timeout=STEP_TIMEOUT_MS)
    page.get_by_role("button", name="Abandon", exact=True).click(timeout=STEP_TIMEOUT_MS)
    row.wait_for(state="detached", timeout=STEP_TIMEOUT_MS)
    page.get_by_role("button", name="Close", exact=True).click(timeout=STEP_TIMEOUT_MS)
    page.context.close()
    page = open_app(browser, home_url.rstrip("/") + "/history")
    box = page.locator('[flt-semantics-identifier="history-abandoned"]')
    box.wait_for(timeout=LOAD_TIMEOUT_MS)
    assert "1 abandoned game" in (box.get_attribute("aria-label") or "") + (
        box.text_content() or "")
    box.get_by_role("button", name="Resume").first.wait_for(timeout=STEP_TIMEOUT_MS)
    page.context.close()
