"""Paying (every action): an explicit `pay` is the printed cost (coins standing in for
influence cubes) or one the table confirmed as paid; whatever is missing is refused naming
the exact field, and a refused command changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from companion.village.session import VillageSession

from .conftest import acting, give, make_setup, refused, take


@pytest.mark.parametrize(("pay", "field"), [
    ({"time": 1, "cubes": {"green": 2}}, "pay.cubes.green"),
    ({"time": 1, "goods": {"scroll": 1}}, "pay.goods.scroll"),
    ({"time": 1, "coins": 2}, "pay.coins"),
    # Not the printed cost: only a payment the table confirmed gets as far as the holdings.
    ({"time": 1, "grain": 1, "override": True}, "pay.grain"),
])
def test_missing_payment_names_the_field(pay: dict[str, object], field: str) -> None:
    s = acting("council", colour="pink")
    give(s, 0, cubes={"green": 1}, coins=1)
    with refused(s, field):
        s.execute({"type": "council_enter", "member": "blue-1a", "pay": pay})


def test_the_default_council_payment_names_the_missing_green() -> None:
    # No green, no scroll, no coin: the default payment (2 green) cannot be met.
    s = acting("council", colour="pink")
    give(s, 0, coins=0)
    with refused(s, "pay.coins"):
        s.execute({"type": "council_enter", "member": "blue-1a"})


def test_an_explicit_payment_replaces_the_printed_cost() -> None:
    s = acting("council", colour="green")
    give(s, 0, cubes={"green": 1}, coins=1)
    s.execute({"type": "council_enter", "member": "blue-1a",
               "pay": {"time": 1, "cubes": {"green": 1}, "coins": 1}})
    p = s.state.players[0]
    assert p.cubes["green"] == 0 and p.coins == 0 and p.time == 1


def test_paid_cubes_and_grain_go_back_to_the_supply() -> None:
    s = acting("crafts", colour="pink")
    give(s, 0, cubes={"pink": 1, "orange": 1})
    before = dict(s.state.supply)
    s.execute({"type": "crafts_buy", "building": "smithy"})
    assert s.state.supply["pink"] == before["pink"] + 1
    assert s.state.supply["orange"] == before["orange"] + 1
    assert s.state.cube_totals()["pink"] == 33


@pytest.mark.parametrize(("cmd", "field"), [
    ({"type": "council_privilege", "privilege": {"level": 5}}, "privilege.level"),
    ({"type": "mill", "pay": {"time": -1}}, "pay.time"),
    ({"type": "crafts_buy", "building": "mill"}, "building"),
    ({"type": "church", "member": "blue-1a", "pay": {"cubes": {"black": 1}}}, "pay.cubes.black"),
    ({"type": "take_a_nap"}, "type"),
])
def test_malformed_commands_name_the_field(cmd: dict[str, object], field: str) -> None:
    s = acting("council")
    with refused(s, field):
        s.execute(cmd)


# ---- the printed cost (issue 19.3, rules version 3) ---------------------------------------
def test_coins_stand_in_for_influence_cubes_as_the_rulebook_example_says() -> None:
    """000 金幣 第3種用途的範例: 「如果克里斯想要將他在議會中的家族成員向右移動，他必須花費
    2個綠色影響力方塊；或是1枚金幣跟1個綠色影響力方塊；或是2枚金幣。」"""
    for pay in ({"time": 2, "cubes": {"green": 2}}, {"time": 2, "cubes": {"green": 1}, "coins": 1},
                {"time": 2, "coins": 2}):
        s = acting("council", colour="pink")
        s.state.members["blue-1a"].loc = "council:1"
        give(s, 0, cubes={"green": 2}, coins=2)
        s.execute({"type": "council_advance", "member": "blue-1a", "pay": pay})
        assert s.state.members["blue-1a"].loc == "council:2"


def test_a_smithy_bought_with_an_empty_payment_is_refused_with_the_printed_cost() -> None:
    """000 工場 b): 「你都可以花費對應的影響力方塊…來購買該工場的貨物」 — not for nothing."""
    s = acting("crafts", colour="pink")
    give(s, 0, cubes={"pink": 1, "orange": 1})
    with refused(s, "pay") as info:
        s.execute({"type": "crafts_buy", "building": "smithy", "pay": {}})
    exc = info.value
    assert exc.key == "rule.payment_differs"
    assert exc.params["costs"] == [{"time": 0, "cubes": {"pink": 1, "orange": 1}, "grain": 0,
                                    "goods": {}}]
    assert "1 pink + 1 orange" in exc.message


@pytest.mark.parametrize("pay", [{"grain": 2}, {"coins": 1, "cubes": {"pink": 1}, "time": 1},
                                 {"cubes": {"pink": 1, "orange": 1, "green": 1}}])
def test_coins_stand_in_only_for_cubes_and_nothing_else_differs(pay: dict[str, object]) -> None:
    s = acting("crafts", colour="pink")
    give(s, 0, cubes={"pink": 1, "orange": 1, "green": 1}, coins=1, grain=2)
    with refused(s, "pay"):
        s.execute({"type": "crafts_buy", "building": "smithy", "pay": pay})


def test_that_is_what_we_paid_is_accepted_and_logged() -> None:
    s = acting("crafts", colour="pink")
    before = s.state.players[0].goods.get("plough", 0)
    s.execute({"type": "crafts_buy", "building": "smithy", "pay": {"override": True}})
    assert s.state.players[0].goods["plough"] == before + 1
    assert s.events[-1]["body"]["pay"]["override"] is True  # the log shows the override


@pytest.mark.parametrize(("cmd", "pay"), [
    ({"type": "church", "member": "blue-1a"}, {"time": 1}),
    ({"type": "mill"}, {"time": 2, "grain": 1}),
    ({"type": "crafts_train", "building": "smithy", "train_member": "blue-1a"}, {"time": 1}),
    ({"type": "travel", "member": "blue-1a", "city": 1, "reward": "coin"}, {"time": 2}),
])
def test_every_action_compares_its_payment_with_the_printed_cost(
        cmd: dict[str, object], pay: dict[str, object]) -> None:
    space = {"mill": "crafts", "crafts_train": "crafts"}.get(str(cmd["type"]), str(cmd["type"]))
    s = acting(space, colour="brown" if space == "church" else "pink")
    give(s, 0, cubes={"brown": 1}, grain=2, goods={"wagon": 1})
    with refused(s, "pay") as info:
        s.execute({**cmd, "pay": pay})
    assert info.value.key == "rule.payment_differs"
    s.execute({**cmd, "pay": {**pay, "override": True}})


def _market_day(rules_version: int | None = None) -> VillageSession:
    kw: dict[str, Any] = {} if rules_version is None else {"rules_version": rules_version}
    s = VillageSession.new(make_setup(3, start_player=0, compensation=False, **kw),
                           draw_mode="app")
    s.state.spaces["market"] = ["green"]
    take(s, "market", "green")
    assert s.state.market_day is not None
    give(s, 0, coins=1, goods={"horse": 1})
    return s


def test_a_customer_served_for_a_coin_and_no_goods_is_refused() -> None:
    """000 市集: 「每位顧客都有對於貨物和/或穀物的需求。要服務你所選的顧客，你必須將他所需的
    對應貨物和/或穀物放回供應區。」"""
    for pay in ({"coins": 1}, {}, {"goods": {"horse": 1}, "time": 1}):
        s = _market_day()
        with refused(s, "pay") as info:
            s.execute({"type": "market_serve", "slot": 0, "points": 3, "pay": pay})
        assert info.value.key == "rule.customer_paid_in_goods"
    s = _market_day()
    s.execute({"type": "market_serve", "slot": 0, "points": 3, "pay": {"goods": {"horse": 1}}})
    assert s.state.players[0].customers == [3]
    s = _market_day()
    s.execute({"type": "market_serve", "slot": 0, "points": 3,
               "pay": {"coins": 1, "override": True}})
    assert s.state.players[0].customers == [3] and s.state.players[0].coins == 0


def test_games_of_earlier_rules_versions_replay_their_payments_unchecked() -> None:
    s = _market_day(rules_version=2)
    s.execute({"type": "market_serve", "slot": 0, "points": 3, "pay": {"coins": 1}})
    s = acting("crafts", colour="pink", rules_version=2)
    s.execute({"type": "crafts_buy", "building": "smithy", "pay": {}})
