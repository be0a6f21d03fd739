"""Paying for things (no section of its own: the costs every action space prints): cubes,
coins as jokers, grain, goods and time go back to the supply."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from companion.village.commands import Payment
from companion.village.interpretations import PAYMENTS_CHECKED_FROM
from companion.village.rules.context import Ctx
from companion.village.rules.errors import RuleError
from companion.village.rules.time_track import spend_time


@dataclass(frozen=True)
class Cost:
    """One printed way to pay for something. Coins may stand in for the influence cubes
    (and only for them: the rulebook's joker); time, grain and goods are paid as printed."""

    time: int = 0
    cubes: Mapping[str, int] = field(default_factory=dict)
    grain: int = 0
    goods: Mapping[str, int] = field(default_factory=dict)

    def as_params(self) -> dict[str, object]:
        return {"time": self.time, "cubes": {k: v for k, v in self.cubes.items() if v},
                "grain": self.grain, "goods": {k: v for k, v in self.goods.items() if v}}

    def english(self) -> str:
        parts = [f"{self.time} time"] if self.time else []
        parts += [f"{n} {c}" for c, n in self.cubes.items() if n]
        parts += [f"{self.grain} grain"] if self.grain else []
        parts += [f"{n} {g}" for g, n in self.goods.items() if n]
        return " + ".join(parts) or "nothing"


def _nonzero(d: Mapping[Any, int]) -> dict[str, int]:
    return {str(k): v for k, v in d.items() if v}


def matches(payment: Payment, cost: Cost) -> bool:
    """The payment is this printed cost, coins standing in for some of its cubes."""
    if payment.time != cost.time or payment.grain != cost.grain:
        return False
    if _nonzero(payment.goods) != _nonzero(cost.goods):
        return False
    cubes = _nonzero(payment.cubes)
    if any(n > cost.cubes.get(c, 0) for c, n in cubes.items()):
        return False
    return payment.coins == sum(cost.cubes.values()) - sum(cubes.values())


def check_printed(ctx: Ctx, payment: Payment, costs: list[Cost], field: str = "pay") -> None:
    """A payment named in a command is the printed cost (one of its printed ways), or the
    table confirmed it as paid (`payment.override`, logged). The app does not enforce every
    move, but a mistyped payment must not pass silently. Games of rules versions before 3
    replay as they were played, unchecked."""
    if ctx.rules_version < PAYMENTS_CHECKED_FROM or any(matches(payment, c) for c in costs):
        return
    if payment.override:
        return
    printed = " or ".join(c.english() for c in costs)
    raise RuleError(field, f"the printed cost is {printed} (coins may stand in only for "
                    "influence cubes); confirm the payment if that is what was paid",
                    key="rule.payment_differs",
                    params={"costs": [c.as_params() for c in costs]})


def check_customer_payment(ctx: Ctx, payment: Payment, field: str = "pay") -> None:
    """Market (000 市集): 「每位顧客都有對於貨物和/或穀物的需求。要服務你所選的顧客，你必須將
    他所需的對應貨物和/或穀物放回供應區。」 — a customer is paid in goods and/or grain (the
    tiles' demands are not in the data, so the amounts are the table's)."""
    if ctx.rules_version < PAYMENTS_CHECKED_FROM or payment.override:
        return
    wrong = payment.time or payment.coins or any(payment.cubes.values())
    if wrong or not (payment.grain or any(payment.goods.values())):
        raise RuleError(field, "a customer is paid with the goods and/or grain it demands, "
                        "not with coins, cubes or time; confirm the payment if that is what "
                        "was paid", key="rule.customer_paid_in_goods")


def payment_ways(ctx: Ctx, player: int, costs: list[Cost]) -> list[Payment]:
    """Every payment of one of the printed `costs` that `player` holds: each printed way,
    coins standing in for any number of its influence cubes (cubes first). Exactly the
    payments `check_printed` takes as the printed cost."""
    p = ctx.state.players[player]
    out: list[Payment] = []
    for cost in costs:
        if p.grain < cost.grain or any(p.goods.get(g, 0) < n for g, n in cost.goods.items()):
            continue
        colours = [(c, n) for c, n in cost.cubes.items() if n]
        for used in product(*(range(min(n, p.cubes.get(c, 0)), -1, -1) for c, n in colours)):
            coins = sum(n for _, n in colours) - sum(used)
            if coins > p.coins:
                continue
            way = Payment.model_validate({
                "time": cost.time, "grain": cost.grain, "coins": coins,
                "cubes": {c: k for (c, _), k in zip(colours, used, strict=True) if k},
                "goods": {g: n for g, n in cost.goods.items() if n}})
            if way not in out:
                out.append(way)
    return out


def pay(ctx: Ctx, player: int, payment: Payment, field: str = "pay") -> None:
    """Check the player holds everything, then take it; time moves the marker."""
    st = ctx.state
    p = st.players[player]
    for colour, n in payment.cubes.items():
        if p.cubes.get(colour, 0) < n:
            raise RuleError(f"{field}.cubes.{colour}",
                            f"{p.name} has {p.cubes.get(colour, 0)} {colour}, needs {n}",
                            key="rule.not_enough_cubes",
                            params={"name": p.name, "have": p.cubes.get(colour, 0),
                                    "colour": colour, "need": n})
    if p.coins < payment.coins:
        raise RuleError(f"{field}.coins", f"{p.name} has {p.coins} coins, needs {payment.coins}",
                        key="rule.not_enough_coins",
                        params={"name": p.name, "have": p.coins, "need": payment.coins})
    if p.grain < payment.grain:
        raise RuleError(f"{field}.grain", f"{p.name} has {p.grain} grain, needs {payment.grain}",
                        key="rule.not_enough_grain",
                        params={"name": p.name, "have": p.grain, "need": payment.grain})
    for g, n in payment.goods.items():
        if p.goods.get(g, 0) < n:
            raise RuleError(f"{field}.goods.{g}",
                            f"{p.name} has {p.goods.get(g, 0)} {g}, needs {n}",
                            key="rule.not_enough_goods",
                            params={"name": p.name, "have": p.goods.get(g, 0), "goods": g,
                                    "need": n})
    for colour, n in payment.cubes.items():
        p.cubes[colour] = p.cubes.get(colour, 0) - n
        st.supply[colour] = st.supply.get(colour, 0) + n
    spend_coins(ctx, player, payment.coins)
    p.grain -= payment.grain
    for g, n in payment.goods.items():
        p.goods[g] = p.goods.get(g, 0) - n
    if payment.time:
        spend_time(ctx, player, payment.time)


def spend_coins(ctx: Ctx, player: int, n: int) -> None:
    """Take `n` coins (already checked to be there). Solo: a next-start-player marker held
    as a coin is paid first — the player's best use of it, since unpaid it goes back to
    the council at the new round (rulebook 單人遊戲 註記)."""
    if n <= 0:
        return
    st = ctx.state
    st.players[player].coins -= n
    if st.marker_coin_holder() == player:
        st.next_start_holder = None  # paid: the marker is gone for this round


def cubes_or_coins(ctx: Ctx, player: int, need: dict[str, int], time: int = 0,
                   **extra: int) -> Payment:
    """The default payment: the player's own cubes first, coins standing in for the rest."""
    p = ctx.state.players[player]
    cubes: dict[str, int] = {}
    coins = 0
    for colour, n in need.items():
        have = min(n, p.cubes.get(colour, 0))
        if have:
            cubes[colour] = have
        coins += n - have
    return Payment.model_validate({"time": time, "cubes": cubes, "coins": coins, **extra})


def gain_cubes(ctx: Ctx, player: int, colours: list[str], field: str) -> None:
    st = ctx.state
    for c in colours:
        if st.supply.get(c, 0) <= 0:
            raise RuleError(field, f"no {c} cube left in the supply",
                            key="rule.colour_not_in_supply", params={"colour": c})
        st.supply[c] -= 1
        st.players[player].cubes[c] = st.players[player].cubes.get(c, 0) + 1


def gain_grain(ctx: Ctx, player: int, amount: int, field: str = "grain") -> int:
    """Grain is capped on the farmyard; returns how much was actually gained."""
    p = ctx.state.players[player]
    cap = ctx.comp.n("grain_max")
    got = max(0, min(amount, cap - p.grain))
    p.grain += got
    if got < amount:
        ctx.note("grain_cap", player=p.name, cap=cap, got=got, amount=amount)
    return got
