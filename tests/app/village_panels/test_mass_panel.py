"""Mass panel: the black bag, buy-outs player by player, the random draw revealed item by
item, grain advancement with its cost, and the majority bonus explained in words."""

from __future__ import annotations

import flet as ft
import pytest

from companion.village.read import Reader

from ..harness import AppHarness
from .conftest import Game, at_mass, has_text, new_game, open_panel, tap, texts_in, value_of


def tile_face(app: AppHarness, i: int) -> str:
    """What the i-th drawn tile shows ("?" until it is revealed)."""
    tile = app.find_as(ft.Container, key=f"drawn-{i}")
    assert isinstance(tile.content, ft.Text)
    return str(tile.content.value)


def mass_game() -> Game:
    """Ann has two members in the bag and 2 coins; Bo one member and a member on the
    church track; Cy nothing in the bag."""
    game = new_game()
    st = game.session.state
    st.members["red-1a"].loc = "bag"  # Position
    st.members["red-2a"].loc = "bag"
    st.members["blue-1a"].loc = "bag"
    st.members["blue-1b"].loc = "church:1"
    st.players[0].coins = 2
    st.players[1].grain = 4
    at_mass(game)
    return game


def test_buy_out_then_the_draw_is_revealed_one_item_at_a_time() -> None:
    game = mass_game()
    assert game.session.state.phase == "mass_buyout"
    with open_panel(game, "mass") as app:
        bag = texts_in(app, "black-bag")
        assert "Monks: 4" in bag and "7 items in the bag" in bag
        assert value_of(app, "buyer") == "Ann may buy out"
        assert has_text(app, "4 more may come out")  # the mass draws 4, none bought yet
        assert app.find_as(ft.Control, key="buy-out").disabled
        tap(app, "buy-gen2-plus")
        assert value_of(app, "buy-gen2-value") == "1"
        tap(app, "buy-out")
        st = game.session.state
        assert st.players[0].coins == 1 and st.members["red-2a"].loc == "church:1"
        assert value_of(app, "buyer") == "Bo may buy out"
        # The room is the engine's (Reader.mass_room): the draw less Ann's buy-out.
        assert has_text(app, "3 more may come out")
        assert not has_text(app, "4 more may come out")
        tap(app, "buy-none")  # Bo; Cy has nothing in the bag: the app draws the rest
        st = game.session.state
        assert st.phase == "mass_advance" and st.mass is not None
        assert len(st.mass.drawn) == 3
        assert [tile_face(app, i) for i in range(3)] == ["?", "?", "?"]
        tap(app, "reveal-next")
        first = app.find_as(ft.Container, key="drawn-0")
        assert first.opacity == 1.0 and first.animate_opacity
        assert tile_face(app, 1) == "?"
        tap(app, "reveal-all")
        assert app.find_all(key="reveal-next") == []
        assert has_text(app, "Monks go back into the bag")


def test_advance_shows_the_grain_cost_and_moves_the_members() -> None:
    game = mass_game()
    with open_panel(game, "mass") as app:
        tap(app, "buy-none")
        tap(app, "buy-none")
        st = game.session.state
        assert st.phase == "mass_advance"
        assert value_of(app, "advancer") == "Bo may move members"
        track = texts_in(app, "church-track")
        assert "entering: 1 grain" in track and "entering: 2 grain" in track
        tap(app, "advance-blue-1b-plus")
        tap(app, "advance-blue-1b-plus")
        tap(app, "advance-blue-1b-plus")
        assert value_of(app, "advance-blue-1b-value") == "4"
        assert value_of(app, "advance-total") == "Total: 4 grain of 4"
        tap(app, "advance")
        st = game.session.state
        assert st.members["blue-1b"].loc == "church:4" and st.players[1].grain == 0


def test_the_majority_bonus_is_explained_with_its_tie_break() -> None:
    game = new_game()
    st = game.session.state
    st.members["red-1a"].loc = "church:1"  # Position: Ann and Bo tie on two members,
    st.members["red-1b"].loc = "church:2"  # Bo's rightmost stands higher
    st.members["blue-1a"].loc = "church:1"
    st.members["blue-1b"].loc = "church:3"
    st.players[0].grain = 1  # Ann could move up: the mass waits for her
    at_mass(game)
    with open_panel(game, "mass") as app:
        bonus = texts_in(app, "mass-bonus")
        assert "the tied player whose rightmost member stands highest" in bonus
        assert "If the mass ended now:" in bonus
        assert ("Bo gains 2 prestige: tied for most church members (2), rightmost member "
                "on level 3") in bonus
        assert game.session.state.phase == "mass_advance"  # nobody could buy out
        while game.session.state.phase == "mass_advance":
            tap(app, "no-advance")
        assert game.session.state.players[1].prestige == 2
        assert "rightmost member on level 3" in texts_in(app, "table-notes")
        assert has_text(app, "No mass is under way")
        assert "If the mass ended now:" not in texts_in(app, "mass-bonus")


def test_the_buy_out_price_is_the_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    """The buy-out button says the Reader's price (issue 21: the app computes no price):
    a price no board prints shows up as it is."""
    monkeypatch.setattr(Reader, "buyout_price", lambda self, members: 7 * members)
    with open_panel(mass_game(), "mass") as app:
        assert has_text(app, "7 coin per member")
        tap(app, "buy-gen2-plus")
        assert has_text(app, "Buy out 1 for 7 coins")
