"""Feudum screens: die roller (app and physical), stacks, dawn scoring, players, final."""

from __future__ import annotations

from pathlib import Path

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
    texts_in,
    type_in_dialog,
)


def test_setup_appears_on_home_and_resumes(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        sid = start(app, "Feudum", "Ann", "Bo")
        assert "Epoch I" in app.visible_texts()
        app.click("Back")
        app.click("Ann, Bo")
        assert app.page.views[-1].route == f"/play/feudum/{sid}"
        assert app.client.wakelock_on


def test_progress_die_is_a_recorded_chance_event(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        sid = start(app, "Feudum", "Ann", "Bo")
        tap(app, "roll-die")
        rolled = edits(store, sid)[-1]
        assert rolled["type"] == "roll" and rolled["source"] == "app"
        assert 1 <= rolled["face"] <= 6
        assert texts_in(app, "last-roll")[1] == "Rolled by the app"
        # "We rolled physically": a region the app's roll left untouched.
        face, region = (3, "Forest") if rolled["face"] != 3 else (2, "Island")
        tap(app, f"face-{face}")
        assert edits(store, sid)[-1] == {"type": "roll", "source": "manual", "face": face}
        assert texts_in(app, "last-roll") == [f"Rolled {face} · {region}: remove its epoch I "
                                              "tile.", "Rolled at the table"]
        app.click("Undo")
        app.click("Redo")  # redo re-applies the recorded face, it does not roll again
        assert edits(store, sid)[-1]["face"] == face
        assert store.load(sid).events[0]["edit"]["face"] == rolled["face"]


def test_taking_tiles_triggers_the_dawn(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        start(app, "Feudum", "Ann", "Bo")
        for region in ("Ocean", "Island", "Forest", "Desert"):
            app.click(f"Take the top {region} tile")
        # drawn once, and the same words name the banner for screen readers
        assert texts_in(app, "dawn-triggered") == [
            "Epoch II dawns now: score it on the Dawn tab."] * 2
        assert disabled(app, "Take the top Ocean tile")  # epoch II tile in epoch I


def test_dawn_scoring_and_a_refusal_naming_the_guild(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        sid = start(app, "Feudum", "Ann", "Bo", "Cy", "Di")
        section(app, "dawn")
        tap(app, "guild-knights-master")
        tap(app, "guild-nobles-apprentice")
        app.click("Increase Worked outlands with resources")
        app.click("Increase Active regions")
        app.click("Increase Active regions")
        assert "Ann: guilds 6 · outlands 4 · regions 3 · disloyalty 0 = 13" in texts_in(
            app, "dawn-preview")
        tap(app, "dawn-player-1")
        tap(app, "guild-knights-master")
        app.toggle_switch("Vassal (rules a fief)")
        tap(app, "score-dawn")
        assert ("Not saved — Bo · Knights: Ann is already master of the Knights"
                in app.visible_texts())
        tap(app, "guild-knights-expert")  # fix it: the draft kept everything else
        tap(app, "score-dawn")
        dawn = edits(store, sid)[-1]
        assert dawn["type"] == "dawn" and dawn["epoch"] == 2
        assert dawn["players"][1]["vassal"] and dawn["players"][1]["guilds"] == {
            "knights": "expert"}
        assert "Epoch II" in app.visible_texts()
        section(app, "players")
        assert "13" in app.visible_texts()  # Ann's VP track


def test_players_dialog_refuses_bad_input_and_final_matches_cli(
        store: ProblemStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with AppHarness(store) as app:
        sid = start(app, "Feudum", "Ann", "Bo")
        section(app, "players")
        app.click("Type Sulfur")
        type_in_dialog(app, "Sulfur", "4")
        field = text_field(app, "Sulfur")
        assert field.error == "must be at most 3 (the wine cask holds 3 sulfur), not 4"
        assert field.value == "4"
        type_in_dialog(app, "Sulfur", "2")
        app.click("Type VP track")
        type_in_dialog(app, "VP track", "80")
        app.click("Increase Farms ruled")
        tap(app, "stage-2")
        app.click("Increase Space within the stage")
        app.click("Add a sealed charter")
        type_in_dialog(app, "Charter VP", "5")
        assert "Charter 1: 5 VP" in app.visible_texts()
        tap(app, "player-1")
        app.click("Type VP track")
        type_in_dialog(app, "VP track", "84")
        tap(app, "stage-4")
        section(app, "final")
        opened = TallyService(store).open(sid)
        expected = cli_json(opened.rules.score_payload(opened.state), tmp_path, capsys)
        assert [p["total"] for p in expected["players"]] == [80 + 9 + 1 + 2 + 5, 84 + 17 + 2]
        assert texts_in(app, "final-Bo")[0] == "1. Bo — 103"
        assert texts_in(app, "final-Ann")[0] == "2. Ann — 97"
        assert texts_in(app, "final-Ann")[1] == (
            "VP track 80 · Epic journey 9 · Great empire 1 · Shillings 2 · Charters 5")


def test_sulfur_breaks_a_tie_in_words(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        start(app, "Feudum", "Ann", "Bo")
        section(app, "players")
        app.click("Increase Sulfur")
        section(app, "final")
        assert texts_in(app, "final-words") == [
            "Winner: Ann", "Ann, Bo tied on 2. Decided by most sulfur in the wine cask "
                           "(Ann 1, Bo 0)."]
        app.click("Undo")
        assert texts_in(app, "final-words") == [
            "Shared victory: Ann, Bo", "Ann, Bo tied on 2 and are level on most sulfur in "
                                       "the wine cask too: they share rank 1."]


def test_touch_targets_are_at_least_48px(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        start(app, "Feudum", "Ann", "Bo", "Cy", "Di")
        for key in ("epoch", "dawn", "players", "final"):
            section(app, key)
            for control in buttons(app):
                assert (control.height or 0) >= 48, (key, control)


def test_vp_track_can_go_below_zero(store: ProblemStore) -> None:
    # The seed sets no floor on VP (disloyalty, L446-L450): the track steps down past 0.
    with AppHarness(store) as app:
        sid = start(app, "Feudum", "Ann", "Bo")
        section(app, "players")
        app.click("Decrease VP track")
        assert edits(store, sid)[-1] == {"type": "adjust", "player": 0, "field": "vp",
                                         "delta": -1}
        assert TallyService(store).open(sid).state.players[0].vp == -1
        assert "-1" in app.visible_texts()


def test_typed_numbers_may_be_negative_where_the_rules_allow(store: ProblemStore) -> None:
    """The dialog parses any whole number; the game's rules say which are allowed, naming
    the field, and the typed text stays in the dialog."""
    with AppHarness(store) as app:
        sid = start(app, "Feudum", "Ann", "Bo")
        section(app, "players")
        app.click("Type Sulfur")
        type_in_dialog(app, "Sulfur", "-2")
        field = text_field(app, "Sulfur")
        assert isinstance(field.error, str) and "at least 0" in field.error
        assert field.value == "-2"
        type_in_dialog(app, "Sulfur", "lots")
        assert text_field(app, "Sulfur").error == "Sulfur: enter a whole number"
        type_in_dialog(app, "Sulfur", "1")
        app.click("Type VP track")
        type_in_dialog(app, "VP track", "-4")
        assert TallyService(store).open(sid).state.players[0].vp == -4
