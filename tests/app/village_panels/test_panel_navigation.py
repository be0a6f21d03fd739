"""What every panel shares: the route keeps the phone awake, the back arrow returns to
this game's table, a choice waiting at the table is announced with a link to it."""

from __future__ import annotations

import flet as ft
import pytest

from .conftest import acting, at_mass, has_text, new_game, open_panel, pick, tap, texts_in

PANELS = ["player/0", "market", "mass", "chronicle", "score"]


@pytest.mark.parametrize("panel", PANELS)
def test_panel_keeps_the_screen_on_and_goes_back_to_its_table(panel: str) -> None:
    game = new_game()
    with open_panel(game, panel) as app:
        assert app.page.views[-1].route == game.route(panel)
        assert app.client.wakelock_on
        app.click("Back to the table")
        assert app.page.views[-1].route == f"/play/village/{game.sid}"


def test_the_stack_under_a_deep_linked_panel_is_this_games_table() -> None:
    game = new_game()
    with open_panel(game, "market") as app:
        table = f"/play/village/{game.sid}"
        assert [v.route for v in app.page.views] == ["/", table, game.route("market")]
        app.back()  # the system back: a view pop
        assert app.page.views[-1].route == table


def test_the_player_chips_switch_between_panels() -> None:
    game = new_game()
    with open_panel(game, "player/0") as app:
        pick(app, "player-2")
        assert app.page.views[-1].route == game.route("player/2")
        assert app.find_as(ft.Chip, key="player-2").selected


def test_unknown_player_and_unknown_game_are_said_not_crashed() -> None:
    game = new_game()
    with open_panel(game, "player/7") as app:
        assert has_text(app, "There is no player 7 in this game.")
    game.sid = "nope"
    with open_panel(game, "market") as app:
        assert app.find_all(identifier="market-spaces") == []
        assert has_text(app, "This game could not be opened")


def test_a_manual_draw_waiting_is_announced_with_a_link_to_the_table() -> None:
    game = new_game()
    game.session.draw_mode = "manual"  # the players draw the mass from the real bag
    game.session.state.members["red-1a"].loc = "bag"  # Position: nobody can buy out
    game.session.state.players[0].coins = 0
    at_mass(game)
    assert game.session.state.pending[0].draw == "mass"
    with open_panel(game, "mass") as app:
        assert "A draw is waiting to be entered on the table screen." in texts_in(
            app, "pending-notice")
        app.click("Open the table")
        assert app.page.views[-1].route == f"/play/village/{game.sid}"


def test_during_a_market_day_the_actions_point_to_the_market_panel() -> None:
    game = acting("market", "green")
    with open_panel(game, "player/0") as app:
        tap(app, "tab-actions")
        assert "A market day is under way" in texts_in(app, "action-blocked")
        app.click("Open the market")
        assert app.page.views[-1].route == game.route("market")


def test_karla_has_members_but_no_counters() -> None:
    game = new_game(1, solo=True, karla_colour="purple")
    with open_panel(game, "player/1") as app:
        assert has_text(app, "Karla keeps no time, goods or coins")
        family = texts_in(app, "family")
        assert "number 1 ×4, number 2 ×3" in family and "number 3 ×2, number 4 ×2" in family
        assert app.find_all(identifier="time-ring") == []
