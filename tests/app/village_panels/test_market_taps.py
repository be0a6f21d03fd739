"""A tap already on its way when the sale form changes still counts: choosing a space and
stepping the points change the drawn form in place, so a "+" tapped right after them hits
the same control (a re-render would have replaced it and Flet drops taps on replaced
controls: the first "+" after choosing a space was lost in the browser)."""

from __future__ import annotations

import flet as ft

from .conftest import acting, open_panel, pick, value_of


def test_a_plus_tapped_right_after_choosing_a_space_counts() -> None:
    game = acting("market", "green")
    with open_panel(game, "market") as app:
        plus = app.find(key="serve-points-plus")  # the "+" as the phone drew it
        pick(app, "serve-slot-0")
        assert app.find_as(ft.Chip, key="serve-slot-0").selected
        assert not app.find_as(ft.Control, key="serve").disabled
        app.dispatch(plus, "click")  # arrives after the choice was handled
        assert value_of(app, "serve-points-value") == "1"
        app.dispatch(plus, "click")  # and a second quick "+"
        assert value_of(app, "serve-points-value") == "2"
        assert not app.find_as(ft.Control, key="serve-points-minus").disabled
        pick(app, "serve-slot-1")  # another space: one chosen at a time
        assert app.find_as(ft.Chip, key="serve-slot-1").selected
        assert not app.find_as(ft.Chip, key="serve-slot-0").selected
        app.click(key="serve")
        # No goods or grain entered for the demand: asked first, then confirmed.
        app.click("That's what we paid")
        ann = game.session.state.players[0]
        assert ann.customers == [2]  # served space 2 for the 2 points entered
