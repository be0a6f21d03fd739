"""Backups clicked through in real Chromium on a 360x800 phone (issue 14): "Export
everything" on an app holding finished games hands the browser a download (captured by
Playwright and parsed: the games are in it); a second app on an empty data folder imports
that file through its file chooser, reports the games imported, and History lists them.
Screenshots go to test-artifacts/screenshots/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import served_app
from .test_browser import LOAD_TIMEOUT_MS, STEP_TIMEOUT_MS, open_app, shot

pytestmark = pytest.mark.e2e

PLAYERS = [["Ann", "Bo"], ["Cy", "Di"], ["Ann", "Cy"]]


def seed_finished(data_dir: Path) -> list[str]:
    """Three finished Villagers tallies (games their engine replays: an import replays
    every game it stores, issue 22.4); their ids."""
    from companion.store.tinydb_store import TinyDBStore
    from tests.history.helpers import finished_tally

    store = TinyDBStore(data_dir)
    return [finished_tally(store, "villagers", names) for names in PLAYERS]


@pytest.fixture(scope="module")
def two_apps(chromium: Path, tmp_path_factory: pytest.TempPathFactory
             ) -> Iterator[tuple[str, str, Path, list[str]]]:
    """(app with games, app on an empty folder, the empty app's data folder, the games)."""
    full = tmp_path_factory.mktemp("e2e-backup-full")
    empty = tmp_path_factory.mktemp("e2e-backup-empty")
    games = seed_finished(full)
    with served_app(full) as source, served_app(empty) as target:
        yield source, target, empty, games


def open_page(browser: Any, url: str) -> Any:
    return open_app(browser, url, downloads=True)


def words(page: Any, identifier: str) -> str:  # a node's name and text
    node = page.locator(f'[flt-semantics-identifier="{identifier}"]')
    return (node.get_attribute("aria-label") or "") + " " + (node.text_content() or "")


def test_export_then_import_into_an_empty_app(browser: Any,
                                              two_apps: tuple[str, str, Path, list[str]],
                                              screenshots: Path, tmp_path: Path) -> None:
    from companion.history.backup import parse_backup

    source, target, empty_dir, games = two_apps
    page = open_page(browser, source + "/history/backup")
    page.locator('[flt-semantics-identifier="backup-title"]').wait_for(
        timeout=LOAD_TIMEOUT_MS)
    page.get_by_role("button", name="Export everything").click(timeout=STEP_TIMEOUT_MS)
    download_button = page.get_by_role("button", name="Download")
    download_button.wait_for(timeout=STEP_TIMEOUT_MS)
    shot(page, screenshots, "history-backup-export-360.png")
    with page.expect_download(timeout=STEP_TIMEOUT_MS) as caught:
        download_button.click(timeout=STEP_TIMEOUT_MS)
    download = caught.value
    assert download.suggested_filename.startswith("village-companion-backup-")
    assert download.suggested_filename.endswith(".json")
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    backup = parse_backup(saved.read_bytes())  # the app's own check of a backup file
    assert sorted(g.id for g in backup.games) == sorted(games)

    page = open_page(browser, target + "/history/backup")
    page.locator('[flt-semantics-identifier="backup-title"]').wait_for(
        timeout=LOAD_TIMEOUT_MS)
    with page.expect_file_chooser(timeout=STEP_TIMEOUT_MS) as chooser:
        page.get_by_role("button", name="Import a backup file").click(
            timeout=STEP_TIMEOUT_MS)
    chooser.value.set_files(str(saved))
    # The report banner appears once the import is done; its lines are its label too
    # (kit.banner), so a screen reader hears what was imported.
    selector = ('[flt-semantics-identifier="backup-report"] '
                '[flt-semantics-identifier="games-problems"]')
    report = page.locator(selector)
    report.wait_for(state="attached", timeout=STEP_TIMEOUT_MS)
    page.wait_for_function(  # its lines written in (its name or its text)
        """(sel) => { const e = document.querySelector(sel);
             return !!e && ((e.getAttribute('aria-label') || '') + ' ' +
                            (e.textContent || '')).includes('New games:'); }""",
        arg=selector, timeout=STEP_TIMEOUT_MS)
    assert "New games: 3" in (report.get_attribute("aria-label") or "") + " " + (
        report.text_content() or "")
    shot(page, screenshots, "history-backup-imported-360.png")

    from companion.store.tinydb_store import TinyDBStore

    stored = {i.id for i in TinyDBStore(empty_dir).list_sessions() if i.finished}
    assert stored == set(games)

    page.goto(target + "/history")
    page.wait_for_selector("flutter-view", timeout=LOAD_TIMEOUT_MS)
    placeholder = page.locator("flt-semantics-placeholder")
    placeholder.wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
    placeholder.evaluate("e => e.click()")
    for sid in games:
        page.locator(f'[flt-semantics-identifier="history-{sid}"]').wait_for(
            timeout=LOAD_TIMEOUT_MS)
    assert "3 finished games" in words(page, "history-count")
    shot(page, screenshots, "history-backup-imported-list-360.png")
