"""The round-end screen in real Chromium (issue 20): a game whose first round has ended,
its round-end screen, a step ticked done; the server is killed and started again on the
same data folder and port, and the reloaded page still shows the step done (the mark is
saved with the game, not in the browser)."""

from __future__ import annotations

import random
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.store.tinydb_store import TinyDBStore
from companion.village.autoplay import candidate_commands
from companion.village.rules.errors import RuleError
from companion.village.service import VillageService
from companion.village.session import validate_command
from companion.village.setup import PlayerSetup, VillageSetup

from .conftest import AppProcess, restartable_app
from .test_browser import LOAD_TIMEOUT_MS, STEP_TIMEOUT_MS, open_app, settle

pytestmark = pytest.mark.e2e


def played_to_round(service: VillageService, round_: int, *, seed: int = 3) -> str:
    """A new 3-player game played (random accepted moves, saved) until round `round_`
    begins: its id."""
    setup = VillageSetup(players=[PlayerSetup(name=n, colour=c) for n, c in
                                  (("Ann", "red"), ("Bo", "blue"), ("Cy", "white"))],
                         start_player=0, seed=seed)
    sid, session = service.create(setup)
    rng = random.Random(seed)
    for _ in range(3000):
        if session.state.round >= round_:
            return sid
        for cmd in candidate_commands(session, rng):
            try:
                service.execute(sid, session, validate_command(cmd))
            except RuleError:
                continue
            break
    raise AssertionError(f"round {round_} never began")


@pytest.fixture(scope="module")
def server(chromium: Path, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[tuple[AppProcess, str]]:
    data_dir = tmp_path_factory.mktemp("round-end-data")
    sid = played_to_round(VillageService(TinyDBStore(data_dir)), 2)
    with restartable_app(data_dir) as app:
        yield app, sid


def step_checked(page: Any, kind: str) -> str | None:
    node = page.locator(f'[flt-semantics-identifier="round-end-step-{kind}"]').first
    node.wait_for(timeout=STEP_TIMEOUT_MS)
    return node.get_attribute("aria-checked")


def test_a_ticked_step_survives_a_server_restart(browser: Any,
                                                 server: tuple[AppProcess, str]) -> None:
    app, sid = server
    url = f"{app.base}/play/village/{sid}/round-end"
    page = open_app(browser, url)
    try:
        page.get_by_text("Round 1 is over").first.wait_for(timeout=LOAD_TIMEOUT_MS)
        assert step_checked(page, "bonus") == "false"
        check = page.locator('[flt-semantics-identifier="round-end-step-bonus-done"]')
        button = check.locator("xpath=descendant-or-self::*[@flt-tappable]").first
        box = button.bounding_box()
        assert box["width"] >= 48 and box["height"] >= 48, box  # a 48 px target
        settle(page)
        button.dispatch_event("click")
        page.wait_for_function(
            "() => document.querySelector('[flt-semantics-identifier=\"round-end-step-"
            "bonus\"]')?.getAttribute('aria-checked') === 'true'", timeout=STEP_TIMEOUT_MS)
        stored = TinyDBStore(app.data_dir).load(sid).header["table_marks"]
        assert stored == {"scope": 2, "done": ["end1-bonus"]}
    finally:
        page.context.close()
    app.stop(signal.SIGKILL)  # no clean shutdown: only what was saved counts
    app.start()
    page = open_app(browser, url)
    try:
        page.get_by_text("Round 1 is over").first.wait_for(timeout=LOAD_TIMEOUT_MS)
        assert step_checked(page, "bonus") == "true"
        assert step_checked(page, "mass_draw") == "false"
        page.get_by_text("At the table: 1 of ").first.wait_for(timeout=STEP_TIMEOUT_MS)
    finally:
        page.context.close()
