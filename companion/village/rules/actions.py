"""The action spaces' actions: harvest, family, crafts (and the mill), council, travel,
church. Costs come from the component data as a default; a command may carry its own."""

from __future__ import annotations

from companion.village.commands import (
    Church,
    CouncilAdvance,
    CouncilEnter,
    CouncilPrivilege,
    CraftsBuy,
    CraftsTrain,
    FamilyBirth,
    FamilyRecall,
    Harvest,
    Mill,
    Payment,
    Privilege,
    Travel,
)
from companion.village.rules.context import Ctx
from companion.village.rules.deaths import validate_member
from companion.village.rules.errors import require
from companion.village.rules.payment import (
    cubes_or_coins,
    gain_cubes,
    gain_grain,
    pay,
    spend_coins,
)
from companion.village.rules.turns import check_action

BOARD_PLACES_FOR_RECALL = ("workshop", "council", "church", "travel")


def _done(ctx: Ctx) -> None:
    ctx.state.action_done = True


def harvest(ctx: Ctx, _cmd: Harvest) -> None:
    player = check_action(ctx, "harvest")
    st = ctx.state
    p = st.players[player]
    require(bool(st.members_at("farmyard", player)), "harvest",
            f"{p.name} needs a member on the farmyard to harvest")
    gain_grain(ctx, player, harvest_amount(ctx, player))
    _done(ctx)


def harvest_amount(ctx: Ctx, player: int) -> int:
    """2 grain; 3 with a horse and a plough; 4 with an ox and a plough (one combination)."""
    table = ctx.comp.v("harvest_grain")
    goods = ctx.state.players[player].goods
    if goods.get("ox", 0) and goods.get("plough", 0):
        return int(table["ox_plough"])
    if goods.get("horse", 0) and goods.get("plough", 0):
        return int(table["horse_plough"])
    return int(table["base"])


def family_birth(ctx: Ctx, _cmd: FamilyBirth) -> None:
    player = check_action(ctx, "family")
    st = ctx.state
    waiting = st.members_at("supply", player)
    require(bool(waiting), "family", f"{st.players[player].name} has no member left in the supply")
    newborn = min(waiting, key=lambda m: (m.gen, m.id))
    newborn.loc = "farmyard"
    ctx.note("born", player=st.players[player].name, gen=newborn.gen)
    _done(ctx)


def family_recall(ctx: Ctx, cmd: FamilyRecall) -> None:
    player = check_action(ctx, "family")
    member = validate_member(ctx, cmd.member, player)
    require(member.place in BOARD_PLACES_FOR_RECALL, "member",
            f"{cmd.member} is not employed on the board (it is at {member.loc})")
    member.loc = "farmyard"
    _done(ctx)


def _goods_for(ctx: Ctx, building: str, goods: str | None) -> str:
    options: list[str] = ctx.comp.v("workshop_goods")[building]
    if goods is None:
        require(len(options) == 1, "goods", f"choose one of {', '.join(options)}")
        return options[0]
    require(goods in options, "goods", f"the {building} makes {', '.join(options)}, not {goods}")
    return goods


def default_train_payment(ctx: Ctx, building: str, train: bool, produce: bool) -> Payment:
    """The printed time: training (if a member is placed now) plus production."""
    time = ctx.comp.train_time(building) if train else 0
    if produce:
        time += int(ctx.comp.v("produce_time")[building])
    return Payment(time=time)


def crafts_train(ctx: Ctx, cmd: CraftsTrain) -> None:
    player = check_action(ctx, "crafts")
    st = ctx.state
    loc = f"workshop:{cmd.building}"
    if cmd.train_member is not None:
        validate_member(ctx, cmd.train_member, player, "train_member", place="farmyard")
    else:
        require(bool(st.members_at(loc, player)) or not cmd.produce, "train_member",
                f"{st.players[player].name} has no trained member in the {cmd.building}")
    require(cmd.train_member is not None or cmd.produce, "produce", "train or produce something")
    goods = _goods_for(ctx, cmd.building, cmd.goods) if cmd.produce else None
    pay(ctx, player, cmd.pay if cmd.pay is not None else
        default_train_payment(ctx, cmd.building, cmd.train_member is not None, cmd.produce))
    if cmd.train_member is not None:
        st.members[cmd.train_member].loc = loc
    if goods is not None:
        st.players[player].goods[goods] = st.players[player].goods.get(goods, 0) + 1
    _done(ctx)


def default_buy_payment(ctx: Ctx, player: int, building: str) -> Payment:
    cost: dict[str, int] = dict(ctx.comp.v("workshop_buy_cost")[building])
    grain = cost.pop("grain", 0)
    return cubes_or_coins(ctx, player, cost, grain=grain)


def crafts_buy(ctx: Ctx, cmd: CraftsBuy) -> None:
    player = check_action(ctx, "crafts")
    goods = _goods_for(ctx, cmd.building, cmd.goods)
    pay(ctx, player, cmd.pay if cmd.pay is not None else
        default_buy_payment(ctx, player, cmd.building))
    p = ctx.state.players[player]
    p.goods[goods] = p.goods.get(goods, 0) + 1
    _done(ctx)


def mill(ctx: Ctx, cmd: Mill) -> None:
    player = check_action(ctx, "crafts")
    m = ctx.comp.v("mill")
    pay(ctx, player, cmd.pay if cmd.pay is not None else
        Payment(time=int(m["time"]), grain=int(m["grain"])))
    ctx.state.players[player].coins += int(m["coins"])
    _done(ctx)


# ---- council ---------------------------------------------------------------------------
def default_council_payment(ctx: Ctx, player: int, entering_level: int) -> Payment:
    """The printed green (coins stand in for missing ones) unless the player has the
    printed scrolls and not enough green; plus the time printed for the level entered."""
    if entering_level == 1:
        cost = ctx.comp.v("council_enter")
        time = int(cost["time"])
    else:
        cost = ctx.comp.v("council_advance")
        time = int(ctx.comp.v("council_advance_time")[str(entering_level)])
    green, scrolls = int(cost["green"]), int(cost["scroll"])
    p = ctx.state.players[player]
    if p.cubes.get("green", 0) < green and p.goods.get("scroll", 0) >= scrolls:
        return Payment(time=time, goods={"scroll": scrolls})
    return cubes_or_coins(ctx, player, {"green": green}, time=time)


def use_privilege(ctx: Ctx, player: int, priv: Privilege, max_level: int) -> None:
    st = ctx.state
    p = st.players[player]
    require(priv.level <= max_level, "privilege.level",
            f"{p.name}'s council member is on level {max_level}; "
            f"level {priv.level} is out of reach")
    if priv.level == 1:
        if st.next_start_holder is None and not st.next_start_spent:
            st.next_start_holder = player
            ctx.note("next_start_taken", player=p.name)
        else:
            ctx.note("next_start_gone")
    elif priv.level == 2:  # level numbers name the council's levels, not printed values
        count = int(ctx.comp.v("council_privilege_cubes"))
        require(len(priv.cubes) == count and len(set(priv.cubes)) == count, "privilege.cubes",
                f"choose {count} influence cubes of different colours")
        gain_cubes(ctx, player, list(priv.cubes), "privilege.cubes")
    elif priv.level == 3:
        require(priv.goods is not None, "privilege.goods", "choose a goods tile")
        assert priv.goods is not None
        p.goods[priv.goods] = p.goods.get(priv.goods, 0) + 1
    else:
        trade = ctx.comp.v("council_privilege_prestige")
        coins, prestige = int(trade["coins"]), int(trade["prestige"])
        require(p.coins >= coins, "privilege.level",
                f"{p.name} needs exactly {coins} coin for {prestige} prestige")
        spend_coins(ctx, player, coins)
        p.prestige += prestige


def council_enter(ctx: Ctx, cmd: CouncilEnter) -> None:
    player = check_action(ctx, "council")
    member = validate_member(ctx, cmd.member, player, place="farmyard")
    pay(ctx, player, cmd.pay if cmd.pay is not None else
        default_council_payment(ctx, player, 1))
    member.loc = "council:1"
    if cmd.privilege is not None:
        use_privilege(ctx, player, cmd.privilege, 1)
    _done(ctx)


def council_advance(ctx: Ctx, cmd: CouncilAdvance) -> None:
    player = check_action(ctx, "council")
    member = validate_member(ctx, cmd.member, player, place="council")
    new_level = member.level + 1
    require(new_level <= int(ctx.comp.v("council_levels")), "member",
            f"{cmd.member} is already on the top council level")
    pay(ctx, player, cmd.pay if cmd.pay is not None else
        default_council_payment(ctx, player, new_level))
    member.loc = f"council:{new_level}"
    if cmd.privilege is not None:
        use_privilege(ctx, player, cmd.privilege, new_level)
    _done(ctx)


def council_privilege(ctx: Ctx, cmd: CouncilPrivilege) -> None:
    player = check_action(ctx, "council")
    on_council = ctx.state.members_in("council", player)
    require(bool(on_council), "privilege",
            f"{ctx.state.players[player].name} has no member on the council")
    use_privilege(ctx, player, cmd.privilege, max(m.level for m in on_council))
    _done(ctx)


# ---- travel and church -----------------------------------------------------------------
def default_travel_payment(ctx: Ctx, player: int, route_cubes: dict[str, int]) -> Payment:
    cost = ctx.comp.v("travel_cost")
    base = cubes_or_coins(ctx, player, {str(k): v for k, v in route_cubes.items()},
                          time=int(cost["time"]))
    return base.model_copy(update={"goods": {"wagon": int(cost["wagon"])}})


def travel(ctx: Ctx, cmd: Travel) -> None:
    player = check_action(ctx, "travel")
    st = ctx.state
    p = st.players[player]
    member = validate_member(ctx, cmd.member, player)
    require(member.place in ("farmyard", "travel"), "member",
            f"{cmd.member} must come from the farmyard or already be on the map")
    require(cmd.city <= int(ctx.comp.v("travel_cities")), "city", "no such city")
    new_city = cmd.city not in p.cities
    if new_city:
        require(cmd.reward is not None, "reward", "choose the city's reward")
    pay(ctx, player, cmd.pay if cmd.pay is not None else
        default_travel_payment(ctx, player, {str(k): v for k, v in cmd.route_cubes.items()}))
    member.loc = f"travel:{cmd.city}"
    if new_city:
        p.cities.append(cmd.city)
        reward = ctx.comp.v("travel_reward")
        if cmd.reward == "prestige":
            p.prestige += int(reward["prestige"])
        elif cmd.reward == "coin":
            p.coins += int(reward["coins"])
        else:
            cubes = int(reward["cubes"])
            require(len(cmd.reward_cubes) == cubes, "reward_cubes",
                    f"choose {cubes} influence cubes")
            gain_cubes(ctx, player, list(cmd.reward_cubes), "reward_cubes")
    else:
        ctx.note("city_again", player=p.name, city=cmd.city)
    _done(ctx)


def default_church_payment(ctx: Ctx, player: int) -> Payment:
    cost = ctx.comp.v("church_action")
    p = ctx.state.players[player]
    if p.cubes.get("brown", 0) >= int(cost["brown"]):
        return Payment(cubes={"brown": int(cost["brown"])})
    return Payment(time=int(cost["time"]))


def church(ctx: Ctx, cmd: Church) -> None:
    player = check_action(ctx, "church")
    member = validate_member(ctx, cmd.member, player, place="farmyard")
    pay(ctx, player, cmd.pay if cmd.pay is not None else default_church_payment(ctx, player))
    member.loc = "bag"
    ctx.note("to_black_bag", player=ctx.state.players[player].name, gen=member.gen)
    _done(ctx)

