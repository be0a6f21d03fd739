"""Market panel: the spaces, the market day as a flow (serve with points and the demanded
goods, the extra sale's green or a coin, pass), the refill as table instructions, holding
a market day from the well, and Karla's own sale in a solo game."""

from __future__ import annotations

import flet as ft
import pytest

from companion.village.read import Reader

from .conftest import acting, has_text, new_game, open_panel, pick, tap, texts_in, value_of


def test_serve_then_everyone_passes_and_the_refill_is_told() -> None:
    game = acting("market", "green")  # Ann took the market cube: her market day
    st = game.session.state
    st.players[0].goods["horse"] = 1  # Position: what the customer wants
    st.players[1].grain = 2
    with open_panel(game, "market") as app:
        assert value_of(app, "seller") == "Ann to sell"
        assert has_text(app, "This first sale is free.")
        assert app.find_as(ft.Control, key="serve").disabled  # no customer chosen yet
        pick(app, "serve-slot-0")
        for _ in range(4):
            tap(app, "serve-points-plus")
        tap(app, "serve-pay-horse-plus")
        tap(app, "serve")
        st = game.session.state
        assert st.players[0].customers == [4] and st.players[0].goods["horse"] == 0
        assert value_of(app, "seller") == "Bo to sell"
        assert has_text(app, "This sale costs 1 green and 1 time")
        # Passing (often the only move) comes first, before the whole sale form
        keys = [getattr(c, "key", None) for c, _ in app.walk(app.find(identifier="market-day"))]
        assert keys.index("pass") < keys.index("serve-slot-1") < keys.index("serve")
        assert has_text(app, "Ann served front space 1")
        assert app.find_as(ft.Control, key="front-0").tooltip == "Space 1: served"
        tap(app, "pass")
        tap(app, "pass")
        tap(app, "pass")
        st = game.session.state
        assert st.market_day is None
        assert has_text(app, "No market day now.")
        text = texts_in(app, "table-notes")
        assert "Refill: move queue 1 » front 1" in text
        assert "Refill: new tile from the stack » queue 5" in text
        assert value_of(app, "stack") == f"Face-down stack: {st.customer_stack} tiles"
        # Ann's market day was her turn's action: its end is the next tap, right here
        assert has_text(app, "The market day is over: Ann, end the turn.")
        app.click("End turn")
        app.settle()
        assert game.session.state.current == 1  # Bo's turn
        assert app.page.route == game.route("")[:-1]  # back at the table


def test_a_paid_sale_with_a_coin_for_the_green() -> None:
    game = acting("market", "green")
    st = game.session.state
    st.players[1].grain = 3  # Position: Bo can serve a grain customer, has a coin, no green
    with open_panel(game, "market") as app:
        tap(app, "pass")  # Ann passes
        assert value_of(app, "seller") == "Bo to sell"
        pick(app, "serve-slot-1")
        tap(app, "serve-points-plus")
        for _ in range(3):
            tap(app, "serve-pay-grain-plus")
        app.toggle_switch("Pay the green cube with a coin")
        tap(app, "serve")
        bo = game.session.state.players[1]
        assert bo.customers == [1] and bo.grain == 0 and bo.coins == 0 and bo.time == 1


def test_a_refused_sale_names_the_field_and_keeps_the_draft() -> None:
    game = acting("market", "green")
    with open_panel(game, "market") as app:
        tap(app, "pass")
        pick(app, "serve-slot-0")
        tap(app, "serve")  # Bo has no green cube and did not choose a coin
        assert game.session.state.players[1].customers == []
        assert app.find_as(ft.Chip, key="serve-slot-0").selected  # what was chosen stays


def test_hold_a_market_day_from_the_well() -> None:
    game = new_game()
    st = game.session.state
    st.players[0].cubes["brown"] = 3  # Position: three brown for the well
    st.supply["brown"] -= 3
    game.execute({"type": "well", "colour": "brown"})
    with open_panel(game, "market") as app:
        tap(app, "hold-market")
        assert game.session.state.market_day is not None
        assert value_of(app, "seller") == "Ann to sell"


def test_no_hold_button_off_the_action_step() -> None:
    game = new_game()
    with open_panel(game, "market") as app:
        assert app.find_all(key="hold-market") == []
        assert [app.find_as(ft.Control, key=f"queue-{i}").tooltip for i in range(5)] == [
            f"Space {i}: customer" for i in range(1, 6)]
        # Three players: front space 5 stays closed.
        assert app.find_as(ft.Control, key="front-4").tooltip == "Space 5: closed"


def test_karla_serves_by_herself_in_a_solo_game() -> None:
    game = new_game(1, {"market": ["green"]}, solo=True, karla_colour="purple")
    game.execute({"type": "take_cube", "space": "market", "colour": "green"})
    game.session.state.players[0].grain = 2  # Position
    with open_panel(game, "market") as app:
        pick(app, "serve-slot-1")
        tap(app, "serve-pay-grain-plus")
        tap(app, "serve-pay-grain-plus")
        tap(app, "serve")
        st = game.session.state
        assert st.players[1].customers  # Karla took a tile
        assert has_text(app, "Karla served front space 1 by herself")


def test_a_sale_with_no_goods_or_grain_is_asked_about_and_can_be_confirmed() -> None:
    """000 市集: 「每位顧客都有對於貨物和/或穀物的需求」 — a sale entered with no demand is not
    refused silently or applied silently: the panel asks above Serve (issue 19.3)."""
    game = acting("market", "green")
    with open_panel(game, "market") as app:
        pick(app, "serve-slot-0")
        tap(app, "serve-points-plus")
        tap(app, "serve")
        assert game.session.state.players[0].customers == []
        assert "goods and/or grain" in texts_in(app, "pay-differs")
        app.click("That's what we paid")
        assert game.session.state.players[0].customers == [1]
        served = [e["body"] for e in game.session.events if e["body"]["type"] == "market_serve"]
        assert served[-1]["pay"]["override"] is True
        assert value_of(app, "seller") == "Bo to sell"


def test_the_closed_front_spaces_are_the_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    """The market panel closes the spaces the Reader says are closed (issue 21: the app
    computes no rule): an answer no table could give shows up as it is."""
    monkeypatch.setattr(Reader, "market_front_open",
                        lambda self: [False, True, False, True, False])
    with open_panel(new_game(), "market") as app:
        tips = [app.find_as(ft.Control, key=f"front-{i}").tooltip for i in range(5)]
        assert [str(tip).endswith(": closed") for tip in tips] == [True, False, True, False, True]
