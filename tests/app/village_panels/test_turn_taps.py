"""A usual Village turn takes at most three taps (issue 13, point 2): a cube on the table,
the "do the action" shortcut (it opens that action's form, not the Farmyard tab), and the
form's "… and end the turn". Taps are counted as the harness dispatches them."""

from __future__ import annotations

from typing import Any

import pytest

from companion.app.routing import match
from companion.app.table_mode.confine import MEMBER_PATTERNS

from ..harness import AppHarness
from .conftest import Game, has_text, new_game, open_panel, tap, village_app_routes

MAX_TAPS = 3


class CountingHarness(AppHarness):
    """The app, counting every click the test makes."""

    taps = 0

    def dispatch(self, control: Any, event: str, data: Any = None) -> None:
        if event == "click":
            self.taps += 1
        super().dispatch(control, event, data)


def take_cube(app: AppHarness, space: str, colour: str) -> None:
    """Tap the first `colour` cube on `space` (the table marks it cube-<space>-<colour>-<k>)."""
    hits = [c for c, _ in app.find_all() if str(getattr(c, "identifier", "") or "")
            .startswith(f"cube-{space}-{colour}-")]
    assert hits, f"no {colour} cube on {space}"
    for control, _ in app.walk(hits[0], visible_only=True):
        if getattr(control, "on_click", None) is not None:
            app.dispatch(control, "click")
            return
    raise AssertionError("the cube is not tappable")


def play_harvest_turn(game: Game, app: CountingHarness, player: str) -> None:
    app.set_route(f"/play/village/{game.sid}")
    take_cube(app, "harvest", "brown")
    app.click(f"Do the action on {player}'s board")
    # The shortcut lands on the harvest form itself.
    assert app.page.views[-1].route == f"/play/village/{game.sid}/player/0/harvest"
    assert app.find_all(identifier="action-form")
    assert has_text(app, "Apply: Harvest")
    app.click(key="apply-and-end")


def test_take_a_cube_harvest_and_end_the_turn_in_three_taps() -> None:
    game = new_game(3, {"harvest": ["brown"]})
    grain = game.session.state.players[0].grain
    app = CountingHarness(game.store, routes=village_app_routes())
    with app:
        play_harvest_turn(game, app, "Ann")
        st = game.session.state
        assert st.players[0].grain > grain  # the harvest was done
        assert st.current == 1 and st.stage == "take"  # and the turn ended: Bo's turn
        assert app.page.views[-1].route == f"/play/village/{game.sid}"  # back at the table
        assert has_text(app, "Bo's turn")
        print(f"\nVillage turn (cube, action, end): {app.taps} taps")
        assert app.taps <= MAX_TAPS


def test_a_solo_turn_takes_the_same_three_taps() -> None:
    game = new_game(1, {"harvest": ["brown"]}, solo=True, karla_colour="purple")
    game.session.karla_policy = "auto"
    app = CountingHarness(game.store, routes=village_app_routes())
    with app:
        play_harvest_turn(game, app, "Ann")
        st = game.session.state
        assert st.turns_taken >= 1 and st.stage == "take"
        assert st.karla is not None and st.karla.last_space is not None  # Karla took
        print(f"\nSolo turn (cube, action, end; Karla automatic): {app.taps} taps")
        assert app.taps <= MAX_TAPS


@pytest.mark.parametrize("route_action", ["harvest", "actions", "well", "nonsense"])
def test_the_route_opens_the_actions_tab(route_action: str) -> None:
    game = new_game(3, {"harvest": ["brown"]})
    game.execute({"type": "take_cube", "space": "harvest", "colour": "brown"})
    with open_panel(game, f"player/0/{route_action}") as app:
        assert app.find_all(identifier="action-form")
        assert has_text(app, "Apply: Harvest")  # the cube's own form when none is named


def test_a_named_form_opens_even_when_another_was_taken() -> None:
    game = new_game(3, {"harvest": ["brown"]})
    with open_panel(game, "player/0/council") as app:
        assert has_text(app, "Apply: Council")


def test_after_the_action_the_panel_offers_the_end_of_the_turn() -> None:
    game = new_game(3, {"harvest": ["brown"]})
    game.execute({"type": "take_cube", "space": "harvest", "colour": "brown"})
    with open_panel(game, "player/0/harvest") as app:
        tap(app, "apply-action")  # the action alone: stays on the panel
        assert game.session.state.current == 0
        assert app.page.views[-1].route.endswith("/player/0/harvest")
        app.click("End turn")
        assert game.session.state.current == 1
        assert app.page.views[-1].route == f"/play/village/{game.sid}"


def test_a_joined_phone_may_open_its_players_action_form() -> None:
    """Table mode confines a phone to its game: the action route is part of it."""

    route = "/play/village/abc/player/1/harvest"
    assert any((match(p, route) or {}).get("session_id") == "abc" for p in MEMBER_PATTERNS)
