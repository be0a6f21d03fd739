"""Paying for things (no section of its own: the costs every action space prints): cubes,
coins as jokers, grain, goods and time go back to the supply."""

from __future__ import annotations

from companion.village.commands import Payment
from companion.village.rules.context import Ctx
from companion.village.rules.errors import RuleError
from companion.village.rules.time_track import spend_time


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
