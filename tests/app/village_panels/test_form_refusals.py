"""A refused action form says why in words, right under the part it concerns (never the
internal field path, never in a message bar over the Apply button); what was chosen stays,
and the words go once the form is changed."""

from __future__ import annotations

import flet as ft

from .conftest import acting, has_text, open_panel, pick, tap, texts_in, toasts


def _keys(app: object, identifier: str) -> list[str]:
    root = app.find(identifier=identifier)  # type: ignore[attr-defined]
    return [str(k) for c, _ in app.walk(root)  # type: ignore[attr-defined]
            if isinstance(k := getattr(c, "key", None), str)]


def test_council_without_coins_is_refused_beside_the_cost() -> None:
    game = acting("council", "green")
    st = game.session.state
    st.players[0].cubes["green"] = 0  # Position: no green, no coins: coins are offered
    st.players[0].coins = 0
    with open_panel(game, "player/0") as app:
        tap(app, "tab-actions")
        tap(app, "council-pay-edit")
        assert app.find_as(ft.Text, key="council-pay-coins-value").value == "2"
        tap(app, "apply-action")
        assert len(game.session.state.members_at("council:1", 0)) == 0
        assert toasts(app) == []  # not in a bar over the buttons
        text = texts_in(app, "form-refusal")
        assert text == "Ann has 0 coins, needs 2"
        assert "pay." not in text and "coins:" not in text
        keys = _keys(app, "action-form")
        # right under the payment editor, above the Apply buttons
        assert keys.index("council-pay-coins-plus") < keys.index("form-refusal") \
            < keys.index("apply-action")
        assert app.find_as(ft.Text, key="council-pay-coins-value").value == "2"  # nothing lost
        tap(app, "council-pay-coins-minus")  # the form changed: the old words go
        assert app.find_all(identifier="form-refusal") == []


def test_a_refusal_naming_no_part_of_the_form_sits_at_its_top() -> None:
    game = acting("council", "green")
    st = game.session.state
    st.players[0].cubes["green"] = 2  # Position: the cost is there, the phase is not
    st.supply["green"] -= 1
    with open_panel(game, "player/0") as app:
        tap(app, "tab-actions")
        game.session.state.action_done = True  # another window did the action meanwhile
        tap(app, "apply-action")
        keys = _keys(app, "action-form")
        assert "form-refusal" in keys, texts_in(app, "action-form")
        assert keys.index("form-refusal") < keys.index("apply-action")
        assert toasts(app) == []
        assert has_text(app, texts_in(app, "form-refusal"))


def test_a_refused_sale_is_said_in_the_sale_form() -> None:
    game = acting("market", "green")
    game.session.state.players[1].grain = 1  # Position: Bo can pay a grain customer
    with open_panel(game, "market") as app:
        tap(app, "pass")
        pick(app, "serve-slot-0")
        tap(app, "serve-pay-grain-plus")
        tap(app, "serve")  # Bo has no green cube and did not choose a coin
        assert game.session.state.players[1].customers == []
        assert toasts(app) == []
        keys = _keys(app, "market-day")
        assert keys.index("form-refusal") < keys.index("serve")
        text = texts_in(app, "form-refusal")
        assert text == "Bo needs 1 green cube for this sale (or pay with a coin)"
        assert app.find_as(ft.Chip, key="serve-slot-0").selected  # what was chosen stays
