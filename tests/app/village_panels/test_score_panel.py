"""Score panel: the category table from the tracked game, a cell override (logged)
changing total and rank, the tie-break in words, share as plain text, finish to history."""

from __future__ import annotations

from typing import Any

import flet as ft

from ..harness import FakeClient
from .conftest import Game, has_text, new_game, open_panel, tap, texts_in, toasts, value_of


def scoring_game() -> Game:
    game = new_game()
    st = game.session.state
    st.phase = "scoring"  # Position: the final mass is over
    st.players[0].prestige, st.players[0].coins = 10, 2  # Ann 12
    st.players[1].prestige, st.players[1].coins = 9, 3  # Bo 12: a tie
    st.players[1].grain = 2  # Bo wins the tie on grain
    st.players[2].prestige = 4
    return game


def test_table_totals_ranks_and_the_tie_break_in_words() -> None:
    game = scoring_game()
    with open_panel(game, "score") as app:
        assert [value_of(app, f"total-{i}") for i in range(3)] == ["12", "12", "5"]
        assert [value_of(app, f"rank-{i}") for i in range(3)] == ["#2", "#1", "#3"]
        result = texts_in(app, "score-result")
        assert "Winner: Bo" in result
        assert "Tied on 12: Ann, Bo." in result
        assert "Most grain on the farmyard: Ann 0, Bo 2" in result
        assert "So Bo takes rank 1." in result


def test_a_cell_override_changes_total_and_rank_and_is_logged() -> None:
    game = scoring_game()
    with open_panel(game, "score") as app:
        tap(app, "cell-0-coins")
        assert has_text(app, "From the tracked game: 2")
        app.type_into("Points", "5")
        app.click("Save")
        st = game.session.state
        assert st.score_overrides == {"0": {"coins": 5}}
        assert game.session.events[-1]["body"]["type"] == "override_score"
        assert value_of(app, "total-0") == "15" and value_of(app, "rank-0") == "#1"
        assert value_of(app, "value-0-coins") == "5"
        assert "Winner: Ann" in texts_in(app, "score-result")
        tap(app, "cell-0-coins")
        app.click("Use tracked (2)")
        assert game.session.state.score_overrides == {"0": {}}
        assert value_of(app, "total-0") == "12"


def test_a_bad_number_is_refused_in_the_dialog() -> None:
    game = scoring_game()
    with open_panel(game, "score") as app:
        tap(app, "cell-1-travel")
        app.type_into("Points", "lots")
        app.click("Save")
        field = app.find("Points", control_type=ft.TextField)
        assert getattr(field, "error", None) == "Enter a whole number"
        assert game.session.state.score_overrides == {}


def test_share_copies_plain_text_inside_the_tap() -> None:
    """The text rides on the button as a client action (browsers allow clipboard writes
    only inside the tap); the tap itself says it was copied."""
    game = scoring_game()
    with open_panel(game, "score") as app:
        button: Any = app.find(key="share")
        assert isinstance(button.action, ft.CopyToClipboard)
        text = button.action.data
        assert "1. Bo: 12" in text and "2. Ann: 12" in text and "3. Cy: 5" in text
        assert "Winner: Bo" in text and "Most grain on the farmyard: Ann 0, Bo 2" in text
        tap(app, "share")
        assert any("Copied" in t for t in toasts(app))


def test_share_opens_the_share_sheet_on_a_phone() -> None:
    game = scoring_game()
    with open_panel(game, "score", FakeClient(platform="android")) as app:
        button: Any = app.find(key="share")
        assert isinstance(button.action, ft.ShareText)
        assert "1. Bo: 12" in button.action.text and button.action.subject == "Village"
        tap(app, "share")
        assert not any("Copied" in t for t in toasts(app))


def test_finish_saves_to_history_and_goes_home() -> None:
    game = scoring_game()
    with open_panel(game, "score") as app:
        tap(app, "finish")
        app.click("Finish and save")  # the confirmation's button
        assert game.session.state.phase == "finished"
        assert app.page.views[-1].route == "/"
        info = next(s for s in game.store.list_sessions() if s.id == game.sid)
        assert info.finished and info.summary["winners"] == ["Bo"]
        assert info.summary["scores"] == {"Ann": 12, "Bo": 12, "Cy": 5}


def test_before_the_end_the_table_is_a_read_only_preview() -> None:
    game = new_game()
    with open_panel(game, "score") as app:
        assert has_text(app, "The game is not over")
        assert app.find_as(ft.Container, key="cell-0-coins").on_click is None
        assert app.find_all(key="finish") == []
