"""Villagers screens: limits, unlock fees, both markets, players, final, finished game."""

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


def test_solo_setup_and_limits(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        app.click("Villagers")
        app.click("Remove player 2")  # 1 to 5 players: solo is allowed
        app.type_into("Player 1", "Ann")
        app.click("Start")
        sid = app.page.views[-1].route.rsplit("/", 1)[-1]
        app.click("Increase Food")
        app.click("Increase Food")
        for _ in range(4):
            app.click("Increase Builders")
        assert texts_in(app, "limits") == ["Ann: draft 4 · build 5"]  # 2 + 4, at most 5
        assert edits(store, sid)[-1] == {"type": "set", "player": 0, "field": "builders",
                                         "value": 4}


def test_unlock_and_markets(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        sid = start(app, "Villagers", "Ann", "Bo")
        tap(app, "unlock-player-1")
        tap(app, "unlock-owner-0")
        assert "Bo puts 2 coins on Ann's unlocking villager." in app.visible_texts()
        tap(app, "unlock-record")
        assert edits(store, sid)[-1] == {"type": "unlock", "player": 1, "owner": 0}
        section(app, "market")
        coins = text_field(app, "Coins on cards")
        assert coins.value == "2"  # prefilled from the tally
        gold = text_field(app, "Gold icons")
        app.set_value(gold, "5x")
        assert gold.error == "Gold icons: enter a whole number (0 or more)"
        tap(app, "pay-market")
        assert edits(store, sid)[-1]["type"] == "unlock"  # nothing saved, text kept
        assert text_field(app, "Gold icons").value == "5x"
        app.set_value(text_field(app, "Gold icons"), "5")
        assert texts_in(app, "market-preview") == [
            "Ann: gold 5 + coins 2 + silver 0 = 7", "Bo: gold 0 + coins 0 + silver 0 = 0"]
        tap(app, "pay-market")
        assert "Market 2" in app.visible_texts()
        app.click("Add a silver formula")
        app.set_value(text_field(app, "Coins each"), "3")
        app.set_value(text_field(app, "How many"), "2")
        tap(app, "pay-market")
        state = TallyService(store).open(sid).state
        assert [p.money for p in state.players] == [8 + 7 + 0 + 6 + 2, 6]
        assert "Both markets are paid out" in app.visible_texts()


def test_final_matches_cli_finish_and_resume_finished(
        store: ProblemStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with AppHarness(store) as app:
        sid = start(app, "Villagers", "Ann", "Bo", "Cy")
        section(app, "players")
        for player, money, villagers in ((0, 74, 23), (1, 74, 20), (2, 60, 10)):
            tap(app, f"player-{player}")
            app.click("Type Money")
            type_in_dialog(app, "Money", str(money))
            app.click("Type Villagers in the village")
            type_in_dialog(app, "Villagers in the village", str(villagers))
        section(app, "final")
        opened = TallyService(store).open(sid)
        expected = cli_json(opened.rules.score_payload(opened.state), tmp_path, capsys)
        assert expected["winners"] == ["Bo"]
        assert texts_in(app, "final-words") == [
            "Winner: Bo", "Ann, Bo tied on 74. Decided by fewest villagers (Ann 23, Bo 20)."]
        tap(app, "final-finish")
        app.click("Finish and save")
        assert "This game is finished and saved to history. Undo to change it." in (
            app.visible_texts())
        section(app, "players")
        assert disabled(app, "Increase Money")  # a finished game is read-only
        app.click("Back")
        assert "Ann, Bo, Cy" not in app.visible_texts()  # not in "continue" any more
        assert any("Winner: Bo" in t for t in app.visible_texts())
    with AppHarness(store) as app:  # a new client: deep link to the finished game
        app.set_route(f"/play/villagers/{sid}")
        assert "Final scores" in app.visible_texts()
        app.click("Undo")  # reopens it
        assert not store.list_sessions()[0].finished


def test_touch_targets_are_at_least_48px(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        start(app, "Villagers", "Ann", "Bo")
        for key in ("round", "market", "players", "final"):
            section(app, key)
            for control in buttons(app):
                assert (control.height or 0) >= 48, (key, control)
