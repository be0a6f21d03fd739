"""Paying (every action): an explicit `pay` replaces the printed cost; whatever is missing
is refused naming the exact field, and a refused command changes nothing."""

from __future__ import annotations

import pytest

from .conftest import acting, give, refused


@pytest.mark.parametrize(("pay", "field"), [
    ({"time": 1, "cubes": {"green": 2}}, "pay.cubes.green"),
    ({"time": 1, "goods": {"scroll": 1}}, "pay.goods.scroll"),
    ({"time": 1, "coins": 2}, "pay.coins"),
    ({"time": 1, "grain": 1}, "pay.grain"),
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
