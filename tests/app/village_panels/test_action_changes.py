"""After an action the screen says what changed where the eye is (issue 20): the action's
form says it at the top with the end of the turn beside it; after "… and end the turn" the
table comes back at its top with the turn's changes under whose turn it is, and solo with
Karla's take and her reasons there too."""

from __future__ import annotations

import flet as ft

from ..harness import AppHarness
from .conftest import Game, acting, new_game, open_panel, pick, tap, texts_in

TABLE_PARTS = "ListView"


def ids_in_order(app: AppHarness) -> list[str]:
    view = app.page.views[-1]
    return [str(c.identifier) for c, _ in app.walk(view, visible_only=True)
            if isinstance(c, ft.Semantics) and c.identifier]


def scrolls(app: AppHarness, control_type: str) -> int:
    return len(app.client.calls(control_type, "scroll_to"))


def travel_form(app: AppHarness) -> None:
    tap(app, "tab-actions")
    pick(app, "travel-city-2")
    tap(app, "travel-route-orange-plus")
    pick(app, "travel-reward-prestige")


def travelling() -> Game:
    game = acting("travel", "orange")
    game.session.state.players[0].goods["wagon"] = 1  # Position
    game.session.state.players[0].time = 4  # Position
    return game


def test_the_form_says_what_the_action_changed_with_the_end_of_the_turn_on_top() -> None:
    game = travelling()
    length = int(game.session.comp.v("time_track_length"))
    with open_panel(game, "player/0") as app:
        travel_form(app)
        assert not app.find_all(identifier="action-changes")  # nothing done yet
        before = scrolls(app, "View")
        tap(app, "apply-action")
        said = texts_in(app, "action-changes")
        assert "Travel done. What changed:" in said
        assert (f"Time +2: Time marker on space 7 of {length}, {length - 6} to the quill"
                in said), said
        assert "Goods: −1 Wagon" in said
        assert "Prestige: +3" in said
        assert "Influence cubes: −1 orange" in said
        assert "Travel: +City 2" in said
        assert "number 1: farmyard » travelling, city 2" in said
        # At the top, before the form: the panel was scrolled there.
        order = ids_in_order(app)
        assert order.index("action-changes") < order.index("action-form")
        assert scrolls(app, "View") > before
        # The next tap is in the card: End turn, which ends it and opens the table.
        end = app.find(key="changes-end-turn")
        assert "End turn" in app.own_texts(end)
        tap(app, "changes-end-turn")
        assert game.session.state.current == 1
        assert app.page.views[-1].route == f"/play/village/{game.sid}"


def test_travel_and_end_the_turn_reopens_the_table_at_its_top_with_the_turn() -> None:
    game = travelling()
    with open_panel(game, "player/0") as app:
        app.set_route(f"/play/village/{game.sid}")  # the table was open below the panel
        app.set_route(f"/play/village/{game.sid}/player/0/travel")
        before = scrolls(app, TABLE_PARTS)
        travel_form(app)
        tap(app, "apply-and-end")
        assert app.page.views[-1].route == f"/play/village/{game.sid}"
        assert game.session.state.current == 1
        assert scrolls(app, TABLE_PARTS) > before  # back at the top: Bo's turn, the cubes
        said = texts_in(app, "last-turn")
        assert "Ann's turn is over. What changed:" in said
        assert "Prestige: +3" in said and "Travel: +City 2" in said
        order = ids_in_order(app)
        assert order.index("table-turn") < order.index("last-turn") < order.index(
            "action-spaces")
        # Bo takes a cube: the summary of Ann's turn goes.
        state = game.session.state
        space = next(s for s, c in state.spaces.items() if c and s != "market")
        hit = next(c for c, _ in app.find_all() if str(getattr(c, "identifier", "") or "")
                   .startswith(f"cube-{space}-"))
        for control, _ in app.walk(hit, visible_only=True):
            if getattr(control, "on_click", None) is not None:
                app.dispatch(control, "click")
                break
        assert game.session.state.stage == "act"
        assert not app.find_all(identifier="last-turn")


def test_harvest_and_end_says_the_grain_on_the_table() -> None:
    game = acting("harvest")
    grain = game.session.state.players[0].grain
    with open_panel(game, "player/0/harvest") as app:
        tap(app, "apply-and-end")
        gained = game.session.state.players[0].grain - grain
        assert gained > 0
        assert f"Grain: +{gained}" in texts_in(app, "last-turn")


def test_solo_karlas_take_and_reasons_are_shown_under_the_turn() -> None:
    game = new_game(1, {"harvest": ["brown"]}, solo=True, karla_colour="purple")
    game.execute({"type": "take_cube", "space": "harvest", "colour": "brown"})
    game.session.karla_policy = "auto"
    with open_panel(game, "player/0/harvest") as app:
        tap(app, "apply-and-end")
        assert app.page.views[-1].route == f"/play/village/{game.sid}"
        karla = texts_in(app, "karla-take-now")
        assert "Karla takes" in karla and "Why:" in karla, karla
        order = ids_in_order(app)
        assert order.index("table-turn") < order.index("karla-take-now") < order.index(
            "action-spaces")
        # Karla's cube is her take's own line, not a second paragraph.
        assert not app.find_all(identifier="last-turn-player-1")
