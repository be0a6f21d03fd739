"""The statistics screen with its charts in real Chromium on a 360x800 phone, light and
dark (the theme follows the browser: Settings' default is "system"); screenshots go to
test-artifacts/screenshots/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.app.kit.text_fit import plain

from .conftest import PHONE, served_app
from .test_browser import LOAD_TIMEOUT_MS, STEP_TIMEOUT_MS, open_app, shot

pytestmark = pytest.mark.e2e

CATEGORIES = ("prestige", "travel", "church", "customers", "chronicle", "council", "coins")


def seed_history(data_dir: Path) -> None:
    """Twelve finished Village games of three players, three solo games, two Feudum."""
    from companion.store.tinydb_store import TinyDBStore

    store = TinyDBStore(data_dir)
    names = ["Ann", "Bo", "Zoë"]
    for n in range(12):
        day = f"2024-{1 + n % 12:02d}-{1 + n:02d}"
        cats = {p: {c: (3 * i + n + len(c)) % 11 for c in CATEGORIES}
                for i, p in enumerate(names)}
        scores = {p: sum(v.values()) for p, v in cats.items()}
        best = max(scores.values())
        sid = f"v{n:02d}"
        store.create(sid, "village", sid, {})
        store.update_info(sid, finished=True, summary={
            "players": names, "solo": False, "date": day, "scores": scores,
            "winners": [p for p, s in scores.items() if s == best], "categories": cats,
            "started_at": f"{day}T18:00:00.000Z", "ended_at": f"{day}T19:10:00.000Z"})
    for n, (score, variant) in enumerate([(38, "standard"), (45, "standard"), (41, "d4")]):
        sid = f"solo{n}"
        store.create(sid, "village", sid, {})
        store.update_info(sid, finished=True, summary={
            "players": ["Ann", "Karla"], "solo": True, "date": f"2024-0{n + 2}-15",
            "scores": {"Ann": score}, "winners": ["Ann"], "achievement": "traveller",
            "karla_variant": variant})
    for n in range(2):
        sid = f"f{n}"
        store.create(sid, "feudum", sid, {})
        store.update_info(sid, finished=True, summary={
            "players": ["Ann", "Bo"], "date": f"2024-06-0{n + 1}",
            "scores": {"Ann": 30 + n, "Bo": 28}, "winners": ["Ann"]})


@pytest.fixture(scope="module")
def history_url(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data_dir = tmp_path_factory.mktemp("e2e-history")
    seed_history(data_dir)
    with served_app(data_dir) as base:
        yield base + "/"


def open_stats(browser: Any, url: str, scheme: str) -> Any:
    return open_app(browser, url + "history/stats", dark=scheme == "dark")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_statistics_screen_shows_its_charts_on_a_phone(browser: Any, history_url: str,
                                                       screenshots: Path, scheme: str) -> None:
    page = open_stats(browser, history_url, scheme)
    title = page.locator('[flt-semantics-identifier="stats-title"]')
    title.wait_for(timeout=LOAD_TIMEOUT_MS)
    chart = page.locator('[flt-semantics-identifier="chart-plays"]')
    chart.wait_for(timeout=STEP_TIMEOUT_MS)
    box = chart.bounding_box()
    assert box is not None and box["width"] <= PHONE["width"] and box["height"] >= 150
    card = page.locator('[flt-semantics-identifier="card-plays"]')
    words = (card.get_attribute("aria-label") or "") + (card.text_content() or "")
    assert "Plays and wins" in words and "Ann" in words  # title and axis labels in words
    shot(page, screenshots, f"history-stats-360-{scheme}.png")
    # The stacked categories chart, further down.
    page.mouse.move(180, 500)
    page.mouse.wheel(0, 520)  # Flutter scrolls its canvas on wheel events
    shot(page, screenshots, f"history-stats-categories-360-{scheme}.png")
    page.get_by_role("button", name="Table").click(timeout=STEP_TIMEOUT_MS)
    page.locator('[flt-semantics-identifier="table-players"]').wait_for(
        timeout=STEP_TIMEOUT_MS)
    shot(page, screenshots, f"history-stats-table-360-{scheme}.png")


def test_history_screen_on_a_phone(browser: Any, history_url: str,
                                   screenshots: Path) -> None:
    page = open_app(browser, history_url + "history")
    newest = page.locator('[flt-semantics-identifier="history-v11"]')  # Dec 12: newest
    newest.wait_for(timeout=LOAD_TIMEOUT_MS)
    count = page.locator('[flt-semantics-identifier="history-count"]')
    assert "17 finished games" in ((count.get_attribute("aria-label") or "")
                                   + (count.text_content() or ""))
    shot(page, screenshots, "history-list-360.png")
    page.get_by_role("button", name="Filters").click(timeout=STEP_TIMEOUT_MS)
    page.locator('[flt-semantics-identifier="history-game-feudum"]').wait_for(
        timeout=STEP_TIMEOUT_MS)
    shot(page, screenshots, "history-filters-360.png")


def test_statistics_in_korean(browser: Any, history_url: str, screenshots: Path) -> None:
    """Every label of the charts in the reader's language (CJK fonts from the theme)."""
    page = open_app(browser, history_url + "history/stats", "ko-KR")
    card = page.locator('[flt-semantics-identifier="card-plays"]')
    card.wait_for(timeout=LOAD_TIMEOUT_MS)
    words = plain((card.get_attribute("aria-label") or "") + (card.text_content() or ""))
    assert "플레이와 승리" in words and "승리" in words
    shot(page, screenshots, "history-stats-360-ko.png")
