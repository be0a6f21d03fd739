"""The numbers the action forms show are the engine's own: the harvest's grain, the
printed time of training and producing, the mill's price. Each test swaps a house rule
into the engine and checks that the form follows it — a copy of the rule kept in the UI
would not."""

from __future__ import annotations

from typing import Any

import pytest

from companion.village import engine, queries
from companion.village.commands import Payment
from companion.village.rules import crafts, harvest, turns
from companion.village.rules.context import Ctx
from companion.village.rules.payment import pay

from .conftest import acting, has_text, open_panel, pick, tap, value_of


def test_the_harvest_shows_the_engines_grain(monkeypatch: pytest.MonkeyPatch) -> None:
    def good_year(_ctx: Ctx, _player: int) -> int:  # a house rule: every harvest brings 3
        return 3

    monkeypatch.setattr(harvest, "harvest_amount", good_year)
    game = acting("harvest", "pink")
    with open_panel(game, "player/0") as app:
        tap(app, "tab-actions")
        assert has_text(app, "Harvest brings 3 grain")
        tap(app, "apply-action")
    assert game.session.state.players[0].grain == 3  # the engine agrees with the screen


def test_training_and_producing_offer_the_engines_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = crafts.default_train_payment

    def slow_crafts(ctx: Ctx, building: str, train: bool, produce: bool) -> Payment:
        printed = real(ctx, building, train, produce)  # a house rule: one more time
        return Payment(time=printed.time + 1)

    monkeypatch.setattr(crafts, "default_train_payment", slow_crafts)
    game = acting("crafts", "pink")
    with open_panel(game, "player/0") as app:
        tap(app, "tab-actions")
        assert value_of(app, "crafts-pay-summary") == "5 time"  # train 2 + produce 2 + 1


def house_mill(ctx: Ctx, cmd: Any) -> None:
    """A house rule: the mill takes 3 time and 1 grain and brings 1 coin."""
    player = turns.check_action(ctx, "crafts")
    pay(ctx, player, cmd.pay if cmd.pay is not None else Payment(time=3, grain=1))
    ctx.state.players[player].coins += 1
    ctx.state.action_done = True


def test_the_mills_price_is_the_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    game = acting("crafts", "pink")
    game.session.state.players[0].grain = 4  # Position: grain for the mill
    with open_panel(game, "player/0") as app:
        tap(app, "tab-actions")
        pick(app, "crafts-mode-mill")
        printed = value_of(app, "crafts-pay-summary")
    monkeypatch.setitem(engine.HANDLERS, "mill", house_mill)
    with open_panel(game, "player/0") as app:
        tap(app, "tab-actions")
        pick(app, "crafts-mode-mill")
        house = value_of(app, "crafts-pay-summary")
    assert (printed, house) == ("2 time · 2× grain", "3 time · 1× grain")


def test_mill_payment_measures_the_engine_on_a_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    game = acting("harvest", "pink")  # not even a crafts cube: the price is still known
    st, comp = game.session.state, game.session.comp
    before = st.model_dump()
    mill = comp.v("mill")
    assert queries.mill_payment(st, comp, 1) == Payment(time=int(mill["time"]),
                                                       grain=int(mill["grain"]))
    monkeypatch.setitem(engine.HANDLERS, "mill", house_mill)
    assert queries.mill_payment(st, comp, 0) == Payment(time=3, grain=1)
    assert queries.mill_payment(st, comp, 9) is None
    assert st.model_dump() == before
