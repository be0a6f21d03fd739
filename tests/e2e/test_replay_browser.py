"""The step-by-step replay of a finished Village game in real Chromium on a 360x800
phone: its step buttons are named, stepping changes the step shown, the round jump goes to
the next round's first step; a screenshot goes to test-artifacts/screenshots/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import PHONE, served_app
from .test_browser import LOAD_TIMEOUT_MS, SEMANTICS_CLOCK_JS, STEP_TIMEOUT_MS, shot

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def replay_url(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from companion.store.tinydb_store import TinyDBStore
    from companion.village.service import VillageService
    from tests.history.helpers import finished_village

    data_dir = tmp_path_factory.mktemp("e2e-replay")
    sid = finished_village(VillageService(TinyDBStore(data_dir)), ["Ann", "Bo"], seed=3)
    with served_app(data_dir) as base:
        yield f"{base}/history/replay/{sid}"


def words(page: Any, identifier: str) -> str:
    node = page.locator(f'[flt-semantics-identifier="{identifier}"]')
    return (node.get_attribute("aria-label") or "") + (node.text_content() or "")


def test_replay_steps_on_a_phone(browser: Any, replay_url: str, screenshots: Path) -> None:
    context = browser.new_context(viewport=PHONE, locale="en-US", device_scale_factor=1)
    context.add_init_script(SEMANTICS_CLOCK_JS)
    page = context.new_page()
    page.goto(replay_url)
    page.wait_for_selector("flutter-view", timeout=LOAD_TIMEOUT_MS)
    placeholder = page.locator("flt-semantics-placeholder")
    placeholder.wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
    placeholder.evaluate("e => e.click()")
    page.locator('[flt-semantics-identifier="replay-step"]').wait_for(
        timeout=LOAD_TIMEOUT_MS)
    page.get_by_text("Step 1 of ").wait_for(timeout=STEP_TIMEOUT_MS)
    page.get_by_role("button", name="Next step").click(timeout=STEP_TIMEOUT_MS)
    page.get_by_text("Step 2 of ").wait_for(timeout=STEP_TIMEOUT_MS)
    page.get_by_role("button", name="Last step").click(timeout=STEP_TIMEOUT_MS)
    # The step line and the turn header both say so at the last step.
    page.get_by_text("The game is over").first.wait_for(timeout=STEP_TIMEOUT_MS)
    for name in ("First step", "Previous step"):
        box = page.get_by_role("button", name=name).bounding_box()
        assert box is not None and box["width"] >= 48 and box["height"] >= 48
    assert "Step " in words(page, "replay-step")
    shot(page, screenshots, "history-replay-360.png")
    page.get_by_role("button", name="First step").click(timeout=STEP_TIMEOUT_MS)
    page.get_by_text("Step 1 of ").wait_for(timeout=STEP_TIMEOUT_MS)
    page.get_by_role("button", name="Next round").click(timeout=STEP_TIMEOUT_MS)
    page.get_by_text("Round 2").first.wait_for(timeout=STEP_TIMEOUT_MS)  # step line, header
    assert "Step 1 of " not in words(page, "replay-step")
    for name in ("Previous round", "Previous turn", "Next turn", "Next round"):
        box = page.get_by_role("button", name=name).bounding_box()
        assert box is not None and box["width"] >= 48 and box["height"] >= 48
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.get_by_role("button", name="Next turn").click(timeout=STEP_TIMEOUT_MS)
    page.get_by_text("Round 2, turn 1").wait_for(timeout=STEP_TIMEOUT_MS)
    shot(page, screenshots, "history-replay-round-360.png")
    page.get_by_role("button", name="Previous round").click(timeout=STEP_TIMEOUT_MS)
    page.get_by_text("Round 2 · ").first.wait_for(timeout=STEP_TIMEOUT_MS)  # back to its start
    page.get_by_role("button", name="Previous round").click(timeout=STEP_TIMEOUT_MS)
    page.get_by_text("Step 1 of ").wait_for(timeout=STEP_TIMEOUT_MS)
