"""Copy that fits its screen (issue 13, point 10): the market hint names a button only
where it shows one; the mass rule mentions Karla only in a solo game."""

from __future__ import annotations

from .conftest import has_text, new_game, open_panel, texts_in


def test_market_hint_mentions_the_well_button_only_when_it_is_there() -> None:
    game = new_game()  # Ann has not taken a cube: no "hold a market day" button
    with open_panel(game, "market") as app:
        assert app.find_all(key="hold-market") == []
        assert has_text(app, "starts a market day by itself.")
        assert not has_text(app, "this button")
        assert not has_text(app, "well")

    game = new_game()
    st = game.session.state
    st.players[0].cubes["brown"] = 3
    st.supply["brown"] -= 3
    game.execute({"type": "well", "colour": "brown"})
    with open_panel(game, "market") as app:
        assert app.find_all(key="hold-market")
        assert has_text(app, "this button is for a turn at the well.")


def test_the_mass_bonus_rule_names_karla_only_in_solo() -> None:
    with open_panel(new_game(), "mass") as app:
        bonus = texts_in(app, "mass-bonus")
        assert "every tied player gets it." in bonus
        assert "Karla" not in bonus
    solo = new_game(1, solo=True, karla_colour="purple")
    with open_panel(solo, "mass") as app:
        assert "Karla's members count but she scores nothing." in texts_in(app, "mass-bonus")


def test_one_point_is_singular_on_the_player_panel() -> None:
    game = new_game()
    game.session.state.players[0].customers = [1]  # Position: one tile worth 1 point
    with open_panel(game, "player/0") as app:
        assert has_text(app, "Customers served: 1 (1 point)")
        assert not has_text(app, "1 points")
