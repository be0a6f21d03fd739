"""The score sheet asks before it keeps a value the game cannot give (the bound comes
from the engine's component data: travel's table tops at 18 in the Big Box), keeps it only
on a second, explicit "Keep it", and the log says the override was kept on purpose."""

from __future__ import annotations

import flet as ft
import pytest

from companion.village.rules.errors import RuleError
from companion.village.scoring import category_maxima

from .conftest import open_panel, tap, value_of
from .test_score_panel import scoring_game


def test_the_bounds_are_the_component_data() -> None:
    game = scoring_game()
    most = category_maxima(game.session.comp)
    assert most["travel"] == 18 and most["chronicle"] == 12
    assert most["church"] == 12 * 6 and most["council"] == 12 * 6
    assert most["prestige"] is None and most["coins"] is None


def test_travel_999_asks_before_it_is_kept_and_the_log_says_so() -> None:
    game = scoring_game()
    with open_panel(game, "score") as app:
        tap(app, "cell-0-travel")
        app.type_into("Points", "999")
        app.click("Save")
        field = app.find_as(ft.TextField, "Points")
        assert field.error == "That is more than the game can give (max 18) — keep it?"
        assert field.value == "999"  # nothing typed is lost
        assert game.session.state.score_overrides == {}  # not yet
        assert value_of(app, "total-0") == "12"
        app.click("Keep it")
        assert game.session.state.score_overrides == {"0": {"travel": 999}}
        body = game.session.events[-1]["body"]
        assert body["type"] == "override_score" and body["beyond_max"] is True
        assert value_of(app, "total-0") == "1011"
    from companion.app.village.log.model import LogEntry
    from companion.app.village.log.words import describe

    from ..village_table.test_log import words_ctx
    entry = LogEntry(seq=0, group=1, at="", body=body, actor=0)
    assert describe(words_ctx(), game.session.state, entry) == (
        "Score corrected: Ann, Travel = 999, more than the game can give (kept on purpose)")


def test_a_value_within_the_bound_is_saved_at_once() -> None:
    game = scoring_game()
    with open_panel(game, "score") as app:
        tap(app, "cell-0-travel")
        app.type_into("Points", "18")
        app.click("Save")
        assert game.session.state.score_overrides == {"0": {"travel": 18}}
        assert "beyond_max" not in game.session.events[-1]["body"] or \
            game.session.events[-1]["body"]["beyond_max"] is False


def test_the_engine_refuses_a_value_beyond_the_bound_without_the_flag() -> None:
    game = scoring_game()
    with pytest.raises(RuleError) as info:
        game.session.execute({"type": "override_score", "player": 0, "category": "travel",
                              "value": 19})
    assert info.value.key == "rule.score_beyond_max" and info.value.params == {"maximum": 18}
    game.session.execute({"type": "override_score", "player": 0, "category": "travel",
                          "value": 19, "beyond_max": True})
    assert game.session.state.score_overrides == {"0": {"travel": 19}}


def test_an_old_log_with_an_override_beyond_the_bound_still_replays() -> None:
    """The bound is checked where a command is entered (session.execute), not in the
    engine's fold: a log saved before the check replays as it was."""
    from companion.village.commands import OverrideScore
    from companion.village.engine import apply_event

    game = scoring_game()
    state = game.session.state.clone()
    apply_event(state, game.session.comp,
                OverrideScore(player=0, category="travel", value=999))
    assert state.score_overrides["0"]["travel"] == 999
