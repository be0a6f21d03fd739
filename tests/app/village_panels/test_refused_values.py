"""A refused value keeps its dialog open with what was typed and the reason under the
field, in the player's language (issue 13, point 6): the Village score cell and the
assistants' typed values share one dialog (kit.entry.ask_value)."""

from __future__ import annotations

from typing import cast

import flet as ft

from companion.app.kit.text_fit import keep_words, plain
from companion.i18n import Translator
from companion.tally.service import TallyService

from ..assistants.helpers import section
from ..conftest import ProblemStore
from ..harness import AppHarness, FakeClient
from .conftest import Game, new_game, open_panel, tap, toasts, value_of


def scoring_game() -> Game:
    game = new_game()
    game.session.state.phase = "scoring"  # Position: the final mass is over
    game.session.state.players[0].coins = 2
    return game


def dialog_open(app: AppHarness, identifier: str) -> bool:
    return any(isinstance(d, ft.AlertDialog) and d.open
               and app.find_all(identifier=identifier)
               for d in app.page._dialogs.controls)


def field_in(app: AppHarness, identifier: str) -> ft.TextField:
    root = app.find(identifier=identifier)
    fields = [c for c, _ in app.walk(root) if isinstance(c, ft.TextField)]
    assert len(fields) == 1
    return cast(ft.TextField, fields[0])


def save(app: AppHarness) -> None:
    app.click(key="value-save")


def test_a_negative_score_keeps_the_dialog_open_with_the_text_and_the_reason() -> None:
    game = scoring_game()
    with open_panel(game, "score") as app:
        tap(app, "cell-0-coins")
        app.set_value(field_in(app, "score-editor"), "−5")  # a typographic minus too
        save(app)
        assert dialog_open(app, "score-editor")
        field = field_in(app, "score-editor")
        assert field.value == "−5"
        assert field.error == "must not be negative"  # the field is the one typed in
        assert toasts(app) == []  # said beside the field, not in a toast
        assert game.session.state.score_overrides == {}
        # Fixed in place: the dialog closes once the game took the value.
        app.set_value(field, "5")
        save(app)
        assert not dialog_open(app, "score-editor")
        assert game.session.state.score_overrides == {"0": {"coins": 5}}
        assert value_of(app, "value-0-coins") == "5"


def test_the_reason_is_in_the_players_language() -> None:
    game = scoring_game()
    de = Translator("de")
    with open_panel(game, "score", FakeClient(locales=("de-DE",))) as app:
        tap(app, "cell-0-coins")
        app.set_value(field_in(app, "score-editor"), "-5")
        save(app)
        field = field_in(app, "score-editor")
        assert dialog_open(app, "score-editor") and field.value == "-5"
        assert field.error == de.t("error.rule.not_negative") == "darf nicht negativ sein"
        app.set_value(field, "viele")
        save(app)
        assert field_in(app, "score-editor").error == de.t("panel.score.not_a_number")
        assert field_in(app, "score-editor").value == "viele"
        assert game.session.state.score_overrides == {}


def test_prestige_may_go_below_zero_and_closes_the_dialog() -> None:
    """The engine's rule, not the dialog's: prestige is the one category allowed below 0."""
    game = scoring_game()
    with open_panel(game, "score") as app:
        tap(app, "cell-1-prestige")
        app.set_value(field_in(app, "score-editor"), "-3")
        save(app)
        assert not dialog_open(app, "score-editor")
        assert game.session.state.score_overrides == {"1": {"prestige": -3}}


def test_an_assistants_refused_value_stays_in_its_dialog_in_korean(
        store: ProblemStore) -> None:
    ko = Translator("ko")
    service = TallyService(store)
    sid, _ = service.create("feudum", ["Ann", "Bo"])
    with AppHarness(store, client=FakeClient(locales=("ko-KR",))) as app:
        app.set_route(f"/play/feudum/{sid}")
        section(app, "players")
        app.click(ko.t("games.type_value", what=ko.t("games.field.sulfur")))
        app.set_value(field_in(app, "value-dialog"), "-5")
        save(app)
        field = field_in(app, "value-dialog")
        assert dialog_open(app, "value-dialog") and field.value == "-5"
        reason = ko.t("error.tally.not_negative", value=-5)
        # (shown with Korean words kept whole: kit.text_fit.keep_words)
        assert field.error is not None and reason in plain(str(field.error))
        assert str(field.error) == keep_words(str(field.error))
        assert service.open(sid).state.players[0].sulfur == 0
