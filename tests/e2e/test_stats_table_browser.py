"""The statistics tables in real Chromium at 360x800 (issue 22.1): the numbers scroll
sideways, the name column stays where it is; screenshots before and after the scroll go
to test-artifacts/screenshots/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import PHONE, served_app
from .test_browser import FRAMES_JS, LOAD_TIMEOUT_MS, STEP_TIMEOUT_MS, open_app, shot
from .test_history_browser import seed_history

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def stats_url(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data_dir = tmp_path_factory.mktemp("e2e-stats-table")
    seed_history(data_dir)
    with served_app(data_dir) as base:  # a free loopback port of its own
        yield base + "/history/stats"


def _box(page: Any, identifier: str) -> dict[str, float]:
    box = page.locator(f'[flt-semantics-identifier="{identifier}"]').bounding_box()
    assert box is not None, identifier
    return dict(box)


def _pixels(page: Any, box: dict[str, float]) -> bytes:
    page.wait_for_timeout(300)
    data: bytes = page.screenshot(clip=box)
    return data


def test_the_name_column_stays_while_the_numbers_scroll(browser: Any, stats_url: str,
                                                         screenshots: Path) -> None:
    page = open_app(browser, stats_url)
    page.get_by_role("button", name="Table").click(timeout=LOAD_TIMEOUT_MS)
    page.locator('[flt-semantics-identifier="table-players-numbers"]').wait_for(
        timeout=STEP_TIMEOUT_MS)
    names, numbers = _box(page, "table-players-names"), _box(page, "table-players-numbers")
    # The names sit at the left edge; the numbers fill the rest of the phone's width
    # (wider than that, they scroll inside it).
    assert names["x"] >= 0 and names["x"] + names["width"] <= 140
    assert numbers["x"] >= names["x"] + names["width"] - 1
    assert numbers["x"] + numbers["width"] <= PHONE["width"] + 1
    shot(page, screenshots, "history-stats-table-names-360.png")
    before = _pixels(page, numbers), _pixels(page, names)
    # Scroll the numbers sideways: a wheel with Shift held, over them (Flutter turns it
    # into a horizontal scroll).
    page.mouse.move(names["x"] + names["width"] + 60, numbers["y"] + 60)
    page.keyboard.down("Shift")
    page.mouse.wheel(0, 400)
    page.keyboard.up("Shift")
    page.wait_for_timeout(800)
    after_names, after_numbers = (_box(page, "table-players-names"),
                                  _box(page, "table-players-numbers"))
    shot(page, screenshots, "history-stats-table-scrolled-360.png")
    for before_box, after_box in ((names, after_names), (numbers, after_numbers)):
        assert (after_box["x"], after_box["width"]) == (before_box["x"], before_box["width"])
    assert _pixels(page, numbers) != before[0]  # the numbers scrolled …
    assert _pixels(page, names) == before[1]  # … the names did not


@pytest.mark.parametrize("locale", ["ko-KR", "zh-TW", "de-DE"])
def test_the_tables_in_other_languages(browser: Any, stats_url: str, screenshots: Path,
                                       locale: str) -> None:
    """The same layout with the longer or CJK headers: the names still start at the left
    edge and keep their width."""
    page = open_app(browser, stats_url, locale)
    page.locator('[flt-semantics-identifier="stats-mode-table"]').locator(
        "flt-semantics, [role=button]").first.click(timeout=LOAD_TIMEOUT_MS)
    page.locator('[flt-semantics-identifier="table-players-numbers"]').wait_for(
        timeout=STEP_TIMEOUT_MS)
    names = _box(page, "table-players-names")
    assert names["x"] >= 0 and names["x"] + names["width"] <= 140
    if locale == "de-DE":
        shot(page, screenshots, f"history-stats-table-360-{locale}.png")
    else:
        # Known, not fixed: in Korean and Chinese the web client re-sets the table's
        # semantics labels every frame (no server message; seen with a MutationObserver),
        # so the page never reads as still; the picture is taken once two frames are drawn.
        page.evaluate(FRAMES_JS)
        page.screenshot(path=str(screenshots / f"history-stats-table-360-{locale}.png"))
