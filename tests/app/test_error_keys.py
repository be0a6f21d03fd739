"""Every keyed engine refusal has words in every language, and each raise site gives its
refusal the key and params (the engine's English wording is never matched)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from companion.i18n import SUPPORTED_LANGUAGES, Translator
from companion.village.commands import Payment, TakeCube, Well
from companion.village.rules.context import Ctx
from companion.village.rules.errors import RuleError
from companion.village.rules.payment import pay
from companion.village.rules.turns import check_action, end_turn, take_cube
from companion.village.rules.well import well
from companion.village.state import MarketDay, Pending
from tests.village_rules.conftest import new_session, started

from .test_catalogues import raw_catalogue

REFUSAL_KEYS = {
    "rule.no_turn_now",
    "rule.market_day_under_way",
    "rule.finish_market_day",
    "rule.cube_already_taken",
    "rule.no_cube_on_space",
    "rule.take_cube_first",
    "rule.take_before_acting",
    "rule.action_already_done",
    "rule.well_needs_cube_on_board",
    "rule.well_needs_cubes",
    "rule.not_enough_coins",
    "rule.not_enough_grain",
    "rule.answer_pending_first",
    "rule.waiting_for_draw",
}


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_every_refusal_key_has_text(lang: str) -> None:
    catalogue = raw_catalogue(lang)
    keys = {f"error.{k}" for k in REFUSAL_KEYS}
    assert keys <= set(catalogue)  # every other error.* key: test_all_error_keys
    assert all(Translator(lang).has(k) for k in keys)


def _refusal(act: Callable[[Ctx], Any], **state: Any) -> RuleError:
    session = started()
    st = session.state.model_copy(deep=True)
    for name, value in state.items():
        setattr(st, name, value)
    with pytest.raises(RuleError) as info:
        act(Ctx(st, session.comp))
    return info.value


def _taken() -> dict[str, Any]:
    return {"stage": "act", "space_taken": "harvest", "action_done": False}


def test_turn_refusals_carry_keys() -> None:
    cases: list[tuple[RuleError, str, dict[str, Any]]] = [
        (
            _refusal(lambda c: end_turn(c, None), phase="setup"),  # type: ignore[arg-type]
            "rule.no_turn_now",
            {"phase": "setup"},
        ),
        (
            _refusal(
                lambda c: check_action(c, "harvest"), market_day=MarketDay(trigger=0, seller=0)
            ),
            "rule.market_day_under_way",
            {},
        ),
        (
            _refusal(
                lambda c: end_turn(c, None),  # type: ignore[arg-type]
                market_day=MarketDay(trigger=0, seller=0),
            ),
            "rule.finish_market_day",
            {},
        ),
        (
            _refusal(lambda c: take_cube(c, TakeCube(space="harvest", colour="brown")), **_taken()),
            "rule.cube_already_taken",
            {"name": "Chris"},
        ),
        (
            _refusal(lambda c: end_turn(c, None)),  # type: ignore[arg-type]
            "rule.take_cube_first",
            {"name": "Chris"},
        ),
        (_refusal(lambda c: check_action(c, "harvest")), "rule.take_before_acting", {}),
        (
            _refusal(lambda c: check_action(c, "harvest"), **{**_taken(), "action_done": True}),
            "rule.action_already_done",
            {},
        ),
    ]
    for exc, key, params in cases:
        assert (exc.key, exc.params) == (key, params), exc


def test_cube_well_and_payment_refusals_carry_keys() -> None:
    exc = _refusal(
        lambda c: take_cube(c, TakeCube(space="harvest", colour="brown")),
        spaces={"harvest": ["green"]},
    )
    assert (exc.key, exc.params) == (
        "rule.no_cube_on_space",
        {"colour": "brown", "space": "harvest"},
    )
    exc = _refusal(
        lambda c: well(c, Well(colour="brown", coins=0)),
        spaces={s: [] for s in started().state.spaces},
    )
    assert (exc.key, exc.params) == ("rule.well_needs_cube_on_board", {})
    exc = _refusal(lambda c: well(c, Well(colour="brown", coins=0)))
    assert exc.key == "rule.well_needs_cubes"
    assert set(exc.params) == {"name", "price", "colour", "have"}
    assert exc.params["name"] == "Chris" and exc.params["colour"] == "brown"
    exc = _refusal(lambda c: pay(c, 0, Payment.model_validate({"coins": 99})))
    assert exc.field == "pay.coins" and exc.key == "rule.not_enough_coins"
    assert exc.params["need"] == 99 and exc.params["name"] == "Chris"
    exc = _refusal(lambda c: pay(c, 0, Payment.model_validate({"grain": 99})))
    assert exc.field == "pay.grain" and exc.key == "rule.not_enough_grain"
    assert exc.params["need"] == 99


def test_engine_refusals_carry_keys() -> None:
    waiting = new_session()
    with pytest.raises(RuleError) as info:
        waiting.execute({"type": "end_turn"})
    assert (info.value.key, info.value.params) == ("rule.waiting_for_draw", {"draw": "bag"})
    session = started()
    session.state.pending = [Pending(kind="death", player=0)]
    with pytest.raises(RuleError) as info:
        session.execute({"type": "end_turn"})
    assert (info.value.key, info.value.params) == ("rule.answer_pending_first", {"choice": "death"})


def test_unkeyed_refusal_is_not_guessed_from_its_wording() -> None:
    exc = RuleError("pay.coins", "Ann has 1 coins, needs 3")
    assert exc.key is None and exc.params == {}
    assert RuleError("x", "y", key="rule.custom", params={"a": 1}).params == {"a": 1}
