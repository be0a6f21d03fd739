"""Crafts (rulebook: the action spaces — Crafts, and the mill): train a member in a
workshop and/or produce its goods, buy goods, or sell grain at the mill. Costs come from the
component data as a default; a command may carry its own."""

from __future__ import annotations

from companion.village.commands import CraftsBuy, CraftsTrain, Mill, Payment
from companion.village.locations import workshop_spot
from companion.village.rules.context import Ctx
from companion.village.rules.deaths import validate_member
from companion.village.rules.errors import require
from companion.village.rules.payment import Cost, check_printed, cubes_or_coins, pay
from companion.village.rules.turns import check_action, mark_action_done


def _goods_for(ctx: Ctx, building: str, goods: str | None) -> str:
    options: list[str] = ctx.comp.name_lists("workshop_goods")[building]
    if goods is None:
        require(len(options) == 1, "goods", f"choose one of {', '.join(options)}",
                key="rule.choose_goods", params={"goods_options": list(options)})
        return options[0]
    require(goods in options, "goods", f"the {building} makes {', '.join(options)}, not {goods}",
            key="rule.building_does_not_make",
            params={"building": building, "goods_options": list(options), "goods": goods})
    return goods


def default_train_payment(ctx: Ctx, building: str, train: bool, produce: bool) -> Payment:
    """The printed time: training (if a member is placed now) plus production."""
    time = ctx.comp.train_time(building) if train else 0
    if produce:
        time += int(ctx.comp.counts("produce_time")[building])
    return Payment(time=time)


def crafts_train(ctx: Ctx, cmd: CraftsTrain) -> None:
    player = check_action(ctx, "crafts")
    st = ctx.state
    loc = workshop_spot(cmd.building)
    if cmd.train_member is not None:
        validate_member(ctx, cmd.train_member, player, "train_member", place="farmyard")
    else:
        require(bool(st.members_at(loc, player)) or not cmd.produce, "train_member",
                f"{st.players[player].name} has no trained member in the {cmd.building}",
                key="rule.no_trained_member",
                params={"name": st.players[player].name, "building": cmd.building})
    require(cmd.train_member is not None or cmd.produce, "produce", "train or produce something",
            key="rule.train_or_produce")
    goods = _goods_for(ctx, cmd.building, cmd.goods) if cmd.produce else None
    if cmd.pay is not None:
        printed = default_train_payment(ctx, cmd.building, cmd.train_member is not None,
                                        cmd.produce)
        check_printed(ctx, cmd.pay, [Cost(time=printed.time)])
    pay(ctx, player, cmd.pay if cmd.pay is not None else
        default_train_payment(ctx, cmd.building, cmd.train_member is not None, cmd.produce))
    if cmd.train_member is not None:
        st.members[cmd.train_member].loc = loc
    if goods is not None:
        st.players[player].goods[goods] = st.players[player].goods.get(goods, 0) + 1
    mark_action_done(ctx)


def default_buy_payment(ctx: Ctx, player: int, building: str) -> Payment:
    cost: dict[str, int] = dict(ctx.comp.costs("workshop_buy_cost")[building])
    grain = cost.pop("grain", 0)
    return cubes_or_coins(ctx, player, cost, grain=grain)


def buy_costs(ctx: Ctx, building: str) -> list[Cost]:
    cost: dict[str, int] = dict(ctx.comp.costs("workshop_buy_cost")[building])
    grain = cost.pop("grain", 0)
    return [Cost(cubes=cost, grain=grain)]


def crafts_buy(ctx: Ctx, cmd: CraftsBuy) -> None:
    player = check_action(ctx, "crafts")
    goods = _goods_for(ctx, cmd.building, cmd.goods)
    if cmd.pay is not None:
        check_printed(ctx, cmd.pay, buy_costs(ctx, cmd.building))
    pay(ctx, player, cmd.pay if cmd.pay is not None else
        default_buy_payment(ctx, player, cmd.building))
    p = ctx.state.players[player]
    p.goods[goods] = p.goods.get(goods, 0) + 1
    mark_action_done(ctx)


def mill(ctx: Ctx, cmd: Mill) -> None:
    player = check_action(ctx, "crafts")
    m = ctx.comp.counts("mill")
    if cmd.pay is not None:
        check_printed(ctx, cmd.pay, [Cost(time=int(m["time"]), grain=int(m["grain"]))])
    pay(ctx, player, cmd.pay if cmd.pay is not None else
        Payment(time=int(m["time"]), grain=int(m["grain"])))
    ctx.state.players[player].coins += int(m["coins"])
    mark_action_done(ctx)
