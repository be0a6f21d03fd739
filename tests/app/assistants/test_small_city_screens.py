"""Small City screens through the headless harness: setup -> Home -> resume, taps
dispatch the right edits, bad input names its field, final sheet = CLI scoring, undo."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import flet as ft
import pytest

from companion.tally.service import TallyService
from tests.tally.helpers import cli_json

from ..conftest import ProblemStore
from ..harness import AppHarness
from .helpers import (
    buttons,
    disabled,
    edits,
    section,
    start,
    tap,
    text_field,
    text_fields,
    texts_in,
    type_in_dialog,
)


def test_setup_creates_a_session_that_home_lists_and_resumes(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        sid = start(app, "Small City", "Ann", "Bo", "Cy")
        info = store.list_sessions()[0]
        assert (info.id, info.game, info.title) == (sid, "small-city", "Ann, Bo, Cy")
        assert app.client.wakelock_on
        assert [v.route for v in app.page.views] == ["/", f"/play/small-city/{sid}"]
        app.click("Back")
        assert "Ann, Bo, Cy" in app.visible_texts()
        assert not app.client.wakelock_on
        app.click("Ann, Bo, Cy")
        assert app.page.views[-1].route == f"/play/small-city/{sid}"
        assert "Round 1/8 · phase 1: Special action" in app.visible_texts()
        assert app.client.wakelock_on


def test_setup_names_the_bad_field_and_keeps_what_was_typed(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        app.click("Small City")
        app.type_into("Player 1", "Ann")
        app.type_into("Player 2", "ann ")
        app.click("Start")
        second = text_field(app, "Player 2")
        assert second.error == "Another player has this name"
        assert second.value == "ann "
        assert text_field(app, "Player 1").value == "Ann"
        assert store.list_sessions() == []
        app.type_into("Player 2", "")
        app.click("Start")
        assert text_field(app, "Player 2").error == "Enter a name"


def test_action_circle_shows_the_cost_and_saves_the_pick(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        sid = start(app, "Small City", "Ann", "Bo")
        assert "Ann picks next (has $4). Tap a card." in app.visible_texts()
        tap(app, "card-4")
        assert texts_in(app, "pick-cost") == ["Card 4: free for Ann"]
        app.click("Ann takes card 4")
        assert edits(store, sid)[-1] == {"type": "pick", "player": 0, "position": 3}
        tap(app, "card-8")  # skips 1, 2, 3 one way and 5, 6, 7 the other: $3
        assert texts_in(app, "pick-cost") == ["Card 8: Bo pays $3"]
        app.click("Bo takes card 8")
        assert "Bo: card 8 ($3)" in app.visible_texts()
        assert "Everyone has picked a special action this round." in app.visible_texts()
        section(app, "players")
        tap(app, "player-1")
        assert "2" in app.visible_texts()  # Bo's $5 - $3


def test_voting_trade_and_pollution_helpers(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        sid = start(app, "Small City", "Ann", "Bo")
        tap(app, "phase-5")
        tap(app, "vote-player-1")
        for count in (1, 1, 3, 4):  # the seed's example: 18 votes
            tap(app, f"residence-{count}")
        assert texts_in(app, "vote-total") == ["= 18 votes"]
        app.click("Add 18 votes to Bo")
        assert edits(store, sid)[-1] == {"type": "vote", "player": 1,
                                         "residences": [1, 1, 3, 4], "university": False}
        assert "Bo gained 18 votes this round" in app.visible_texts()

        tap(app, "phase-4")
        app.click("$4 » 5 votes")
        assert edits(store, sid)[-1]["dollars"] == 4
        assert "$0 · 5 votes" in app.visible_texts()
        assert disabled(app, "$1 » 2 votes")  # Ann has no money left

        tap(app, "phase-6")
        residents = text_fields(app, "Residents")
        app.set_value(residents[0], "1O")  # a typo: letter O
        assert residents[0].error == "Residents: enter a whole number (0 or more)"
        app.click("Record pollution of round 1")  # refused in the screen: nothing saved
        assert edits(store, sid)[-1] == {"type": "step", "round": 1, "phase": 6}
        field = text_fields(app, "Residents")[0]
        assert field.value == "1O"
        assert field.error == "Residents: enter a whole number (0 or more)"
        app.set_value(field, "11")
        app.set_value(text_fields(app, "Residents")[1],
                      "3")
        assert "Loses a resident: Ann" in texts_in(app, "pollution-preview")
        app.click("Record pollution of round 1")
        assert texts_in(app, "pollution-result") == [
            "Pollution of round 1", "Ann: +11 » 11%", "Bo: +3 » 3%", "Loses a resident: Ann"]


def test_next_phase_and_mayor_handover(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        sid = start(app, "Small City", "Ann", "Bo", "Cy")
        app.click("Next: Build")
        assert edits(store, sid)[-1] == {"type": "step", "round": 1, "phase": 2}
        tap(app, "phase-8")
        app.click("Nobody took it: pass to Bo")
        app.click("Start round 2")
        assert "Round 2/8 · phase 1: Special action" in app.visible_texts()
        assert "Bo picks next (has $5). Tap a card." in app.visible_texts()


def test_promises_are_paged_in_the_current_language(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        start(app, "Small City", "Ann", "Bo")
        section(app, "promises")
        shown = [c for c, _ in app.find_all(control_type=ft.Semantics)
                 if str(getattr(c, "identifier", "")).startswith("promise-")]
        assert len(shown) == 8 and "Page 1 of 4" in app.visible_texts()
        app.click("Next page")
        app.click("Next page")
        assert "#17 · special (advanced game)" in app.visible_texts()
    with AppHarness(store) as app:
        app.click("Settings")
        app.select_radio("繁體中文")
        app.back()
        app.click("Ann, Bo")
        section(app, "promises")
        assert "至少四種不同大小的住宅區" in app.visible_texts()


def test_final_sheet_matches_the_cli_and_finishing_saves_history(
        store: ProblemStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with AppHarness(store) as app:
        sid = start(app, "Small City", "Ann", "Bo", "Cy")
        section(app, "players")
        for player, votes, pollution in ((0, 40, 12), (1, 40, 10), (2, 30, 100)):
            tap(app, f"player-{player}")
            app.click("Type Votes")
            type_in_dialog(app, "Votes", str(votes))
            app.click("Type Pollution")
            type_in_dialog(app, "Pollution", str(pollution))
        section(app, "promises")
        tap(app, "promise-1")  # the card's Keep button
        tap(app, "keep-player-0")
        tap(app, "keep-value-12")
        app.click("Ann keeps card 1")
        section(app, "final")
        assert any("promise 1: mark whether Ann fulfilled it or failed" in t
                   for t in app.visible_texts())
        tap(app, "failed-1")
        opened = TallyService(store).open(sid)
        payload = opened.rules.score_payload(opened.state)
        expected = cli_json(payload, tmp_path, capsys)
        rows = [texts_in(app, f"final-{p['name']}")[0] for p in expected["players"]]
        assert rows == ["2. Ann — 22", "1. Bo — 30", "–  Cy · out"]
        assert [p["total"] for p in expected["players"]] == [22, 30, None]
        assert "Winner: Bo" in texts_in(app, "final-words")
        tap(app, "final-finish")
        assert not store.list_sessions()[0].finished  # asked first, as Village asks
        assert "Finish the game?" in app.visible_texts()
        assert any(t.startswith("This game does not look played to the end yet (Round 1/8")
                   for t in app.visible_texts())  # the game is still in round 1
        app.click("Finish and save")
        info = store.list_sessions()[0]
        assert info.finished and info.summary["winners"] == ["Bo"]
        assert info.summary["scores"] == {"Ann": 22, "Bo": 30, "Cy": "—"}
        share_button: Any = app.find("Share the result")
        shared = share_button.action.data  # what the client copies or shares in the tap
        assert shared.startswith("Small City · ") and "1. Bo 30" in shared
        app.click("Back")
        assert any("Winner: Bo" in t and "Scores: Ann 22, Bo 30, Cy —" in t
                   for t in app.visible_texts())


def test_tie_break_in_words(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        start(app, "Small City", "Ann", "Bo")
        section(app, "players")
        for player in (0, 1):  # same votes and pollution; money decides (Ann $4 < Bo $5)
            tap(app, f"player-{player}")
            app.click("Type Votes")
            type_in_dialog(app, "Votes", "20")
        section(app, "final")
        words = texts_in(app, "final-words")
        assert words == ["Winner: Bo", "Ann, Bo tied on 20. Decided by most money (Ann 4, Bo 5)."]


def test_undo_and_redo_are_always_there(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        sid = start(app, "Small City", "Ann", "Bo")
        assert disabled(app, "Undo") and disabled(app, "Redo")
        app.click("Next: Build")
        app.click("Undo")
        assert "Round 1/8 · phase 1: Special action" in app.visible_texts()
        assert store.load(sid).events == [] and len(store.load(sid).redo) == 1
        assert not disabled(app, "Redo")
        app.click("Redo")
        assert "Round 1/8 · phase 2: Build" in app.visible_texts()
        for key in ("players", "promises", "final", "round"):
            section(app, key)
            assert app.find_all("Undo") and app.find_all("Redo")


def test_refused_edit_shows_the_field(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        start(app, "Small City", "Ann", "Bo")
        section(app, "players")
        app.click("Type Money")
        type_in_dialog(app, "Money", "lots")
        field = text_field(app, "Money")
        assert field.error == "Money: enter a whole number"
        assert field.value == "lots"
        type_in_dialog(app, "Money", "-3")  # a whole number the rules refuse, by name
        field = text_field(app, "Money")
        assert isinstance(field.error, str) and "at least 0" in field.error
        assert field.value == "-3"
        app.click("Cancel")
        app.click("Decrease Money")
        app.click("Decrease Money")
        app.click("Decrease Money")
        app.click("Decrease Money")
        app.click("Decrease Money")  # 4 -> 0, then refused
        assert "Not saved — Money: must be at least 0, not -1" in app.visible_texts()


def test_touch_targets_are_at_least_48px(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        start(app, "Small City", "Ann", "Bo")
        for phase in range(1, 9):
            tap(app, f"phase-{phase}")
            for control in buttons(app):
                assert (control.height or 0) >= 48, (phase, control)
        for key in ("players", "promises", "final"):
            section(app, key)
            for control in buttons(app):
                assert (control.height or 0) >= 48, (key, control)
