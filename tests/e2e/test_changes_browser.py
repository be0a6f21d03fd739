"""Issue 20 in real Chromium at 360×800: after an action the form says what changed at its
top with End turn beside it, both within the viewport; after "Travel and end the turn",
left from the players' list far down the table, the table comes back at its top (whose
turn and the cubes in view, with what Ann's turn changed); solo, Karla's take and her
reasons are in view after the turn. Positions are read from bounding boxes of the
semantics DOM.

The games are seeded in the store before the server starts: round 1, Ann to take a cube,
an orange cube on the travel space and a brown one on the harvest, Ann holding a wagon."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from app.village_panels.conftest import placements

from companion.store.tinydb_store import TinyDBStore
from companion.village.commands import Adjust
from companion.village.outcomes import BagOutcome
from companion.village.service import VillageService
from companion.village.setup import PlayerSetup, VillageSetup

from .conftest import PHONE, served_app
from .test_browser import FRAMES_JS, STEP_TIMEOUT_MS, drawn, open_app, settle

pytestmark = pytest.mark.e2e

NAMES = ["Ann", "Bo", "Cy"]
COLOURS = ["red", "blue", "yellow"]


def seed_game(service: VillageService, players: int, **setup: Any) -> str:
    karla_policy = setup.pop("karla_policy", "ask")
    village = VillageSetup(players=[PlayerSetup(name=n, colour=c) for n, c in
                                    zip(NAMES[:players], COLOURS[:players], strict=True)],
                           start_player=0, compensation=False, **setup)
    sid, session = service.create(village, draw_mode="manual", karla_policy=karla_policy)
    service.enter_draw(sid, session, BagOutcome(placements=placements(
        session, {"travel": ["orange"], "harvest": ["brown"]})))
    service.set_prefs(sid, session, draw_mode="app")
    service.execute(sid, session, Adjust(player=0, field="goods", key="wagon", delta=1))
    return sid


@pytest.fixture(scope="module")
def games(chromium: Path, tmp_path_factory: pytest.TempPathFactory
          ) -> Iterator[tuple[str, dict[str, str]]]:
    data_dir = tmp_path_factory.mktemp("changes-data")
    service = VillageService(TinyDBStore(data_dir))
    sids = {"apply": seed_game(service, 3), "travel_end": seed_game(service, 3),
            "solo": seed_game(service, 1, solo=True, karla_colour="purple",
                              karla_policy="auto")}
    with served_app(data_dir) as base:
        yield base, sids


def ident(page: Any, identifier: str) -> Any:
    return page.locator(f'[flt-semantics-identifier="{identifier}"]').first


def tap(page: Any, node: Any) -> None:
    """A DOM click on the semantics node once the page has settled (as the other browser
    tests tap: Flutter turns it into a tap)."""
    settle(page)
    node.dispatch_event("click")


def tap_id(page: Any, identifier: str) -> None:
    tap(page, ident(page, identifier).locator(
        "xpath=descendant-or-self::*[@flt-tappable]").first)


def in_view(page: Any, node: Any, what: str) -> dict[str, float]:
    """The node's box lies within the phone's screen (the whole box, top to bottom)."""
    node.wait_for(state="attached", timeout=STEP_TIMEOUT_MS)
    settle(page)
    box = node.bounding_box()
    assert box is not None, f"{what}: no box (not on screen)"
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (what, box)
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (what, box)
    return dict(box)


def text_of(page: Any, identifier: str) -> str:
    return str(page.evaluate(
        """(id) => { const e = document.querySelector(`[flt-semantics-identifier="${id}"]`);
        return e ? ((e.getAttribute('aria-label') || '') + '\\n' + (e.innerText || '')) : ''; }""",
        identifier))


def wait_text(page: Any, identifier: str, sub: str) -> None:
    page.wait_for_function(
        """([id, sub]) => { const e = document.querySelector(
             `[flt-semantics-identifier="${id}"]`); if (!e) return false;
           return ((e.getAttribute('aria-label') || '') + (e.innerText || '')).includes(sub); }""",
        arg=[identifier, sub], timeout=STEP_TIMEOUT_MS)


def take_cube(page: Any, space: str, colour: str) -> None:
    wait_text(page, "table-turn", "Ann: take a cube")
    cube = page.locator(f'[flt-semantics-identifier^="cube-{space}-{colour}-"]').first
    tap(page, cube.locator("xpath=descendant-or-self::*[@flt-tappable]").first)
    wait_text(page, "table-turn", "Ann")


def choose(page: Any, name: str) -> None:
    """Tap the choice chip called `name` (Flutter gives chips the checkbox role)."""
    chip = page.get_by_role("checkbox", name=name, exact=True)
    chip.wait_for(timeout=STEP_TIMEOUT_MS)
    tap(page, chip)
    page.wait_for_function(
        """(name) => Array.from(document.querySelectorAll('flt-semantics[role="checkbox"]'))
             .some(e => (e.getAttribute('aria-label') || e.innerText || '').trim() === name
                        && e.getAttribute('aria-checked') === 'true')""",
        arg=name, timeout=STEP_TIMEOUT_MS)


def fill_travel(page: Any) -> None:
    ident(page, "action-form").wait_for(timeout=STEP_TIMEOUT_MS)
    choose(page, "City 2")
    choose(page, "3 prestige")


def shot(page: Any, directory: Path, name: str) -> None:
    drawn(page)
    page.screenshot(path=str(directory / f"issue20-{name}.png"))


def test_the_form_says_what_changed_with_end_turn_in_view(
        browser: Any, games: tuple[str, dict[str, str]], screenshots: Path) -> None:
    base, sids = games
    sid = sids["apply"]
    page = open_app(browser, f"{base}/play/village/{sid}")
    take_cube(page, "travel", "orange")
    # The cube taken, the next taps come up under the turn's instruction, in view (a
    # walk-through found End turn below a phone's fold, lower still under a banner).
    action = page.get_by_role("button", name="Do the action on Ann's board", exact=True)
    in_view(page, action, "Do the action")
    in_view(page, page.get_by_role("button", name="End turn", exact=True).first, "End turn")
    shot(page, screenshots, "cube-taken")
    tap(page, action)
    fill_travel(page)
    apply = page.get_by_role("button", name="Apply: Travel", exact=True)
    apply.wait_for(timeout=STEP_TIMEOUT_MS)
    tap(page, apply)
    ident(page, "action-changes").wait_for(timeout=STEP_TIMEOUT_MS)
    wait_text(page, "action-changes", "Prestige: +3")
    said = text_of(page, "action-changes")
    assert "Travel done" in said and "to the quill" in said and "Wagon" in said, said
    in_view(page, ident(page, "action-changes"), "the changes card")
    end = page.get_by_role("button", name="End turn", exact=True).first
    in_view(page, end, "End turn")
    shot(page, screenshots, "travel-done")
    tap(page, end)
    page.wait_for_url(f"**/play/village/{sid}", timeout=STEP_TIMEOUT_MS)
    wait_text(page, "table-turn", "Bo's turn")
    in_view(page, ident(page, "table-turn"), "whose turn")
    in_view(page, ident(page, "last-turn"), "what Ann's turn changed")


def test_travel_and_end_from_the_players_list_reopens_the_table_at_its_top(
        browser: Any, games: tuple[str, dict[str, str]], screenshots: Path) -> None:
    base, sids = games
    sid = sids["travel_end"]
    page = open_app(browser, f"{base}/play/village/{sid}")
    take_cube(page, "travel", "orange")
    # Down to the players' list, as a player looking for their own board does.
    for _ in range(6):
        page.mouse.move(180, 500)
        page.mouse.wheel(0, 400)
        page.evaluate(FRAMES_JS)  # Flutter has scrolled by it before the next one
    player = ident(page, "player-0")
    player.wait_for(timeout=STEP_TIMEOUT_MS)
    settle(page)
    box = player.bounding_box()
    assert box is not None and box["y"] < PHONE["height"]
    assert page.locator('[flt-semantics-identifier="table-turn"]').count() == 0 or (
        (ident(page, "table-turn").bounding_box() or {"y": -1})["y"] < 0), \
        "the table should be scrolled down to the players' list"
    tap_id(page, "player-0")
    actions = page.get_by_role("button", name="Actions", exact=True)
    actions.wait_for(timeout=STEP_TIMEOUT_MS)
    tap(page, actions)
    fill_travel(page)
    finish = page.get_by_role("button", name="Travel and end the turn", exact=True)
    finish.wait_for(timeout=STEP_TIMEOUT_MS)
    tap(page, finish)
    page.wait_for_url(f"**/play/village/{sid}", timeout=STEP_TIMEOUT_MS)
    wait_text(page, "table-turn", "Bo: take a cube")
    in_view(page, ident(page, "table-turn"), "whose turn")
    first_cube = page.locator('[flt-semantics-identifier^="cube-harvest-"]').first
    in_view(page, first_cube, "the first space's cubes")
    wait_text(page, "last-turn", "Travel: +City 2")
    in_view(page, ident(page, "last-turn"), "what Ann's turn changed")
    shot(page, screenshots, "table-after-travel-and-end")


def test_solo_karlas_take_and_reasons_in_view_after_the_turn(
        browser: Any, games: tuple[str, dict[str, str]], screenshots: Path) -> None:
    base, sids = games
    sid = sids["solo"]
    page = open_app(browser, f"{base}/play/village/{sid}")
    take_cube(page, "harvest", "brown")
    tap(page, page.get_by_role("button", name="Do the action on Ann's board", exact=True))
    finish = page.get_by_role("button", name="Harvest and end the turn", exact=True)
    finish.wait_for(timeout=STEP_TIMEOUT_MS)
    tap(page, finish)
    page.wait_for_url(f"**/play/village/{sid}", timeout=STEP_TIMEOUT_MS)
    wait_text(page, "karla-take-now", "Why:")
    said = text_of(page, "karla-take-now")
    assert "Karla takes" in said, said
    in_view(page, ident(page, "karla-take-now"), "Karla's take and her reasons")
    in_view(page, ident(page, "table-turn"), "whose turn")
    shot(page, screenshots, "solo-karla-take")
