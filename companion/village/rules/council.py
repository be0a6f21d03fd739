"""Council (rulebook: the action spaces — Council): enter the council, climb a level, use a
privilege of a level one's member has reached (next start player, cubes, goods, prestige).
Costs come from the component data as a default; a command may carry its own."""

from __future__ import annotations

from companion.village.commands import (
    CouncilAdvance,
    CouncilEnter,
    CouncilPrivilege,
    Payment,
    Privilege,
)
from companion.village.locations import council_spot
from companion.village.rules.context import Ctx
from companion.village.rules.deaths import validate_member
from companion.village.rules.errors import require
from companion.village.rules.payment import (
    Cost,
    check_printed,
    cubes_or_coins,
    gain_cubes,
    pay,
    spend_coins,
)
from companion.village.rules.turns import check_action, mark_action_done
from companion.village.state import Member


def default_council_payment(ctx: Ctx, player: int, entering_level: int) -> Payment:
    """The printed green (coins stand in for missing ones) unless the player has the
    printed scrolls and not enough green; plus the time printed for the level entered."""
    if entering_level == 1:
        cost = ctx.comp.counts("council_enter")
        time = int(cost["time"])
    else:
        cost = ctx.comp.counts("council_advance")
        time = int(ctx.comp.counts("council_advance_time")[str(entering_level)])
    green, scrolls = int(cost["green"]), int(cost["scroll"])
    p = ctx.state.players[player]
    if p.cubes.get("green", 0) < green and p.goods.get("scroll", 0) >= scrolls:
        return Payment(time=time, goods={"scroll": scrolls})
    return cubes_or_coins(ctx, player, {"green": green}, time=time)


def council_costs(ctx: Ctx, entering_level: int) -> list[Cost]:
    """000 議會: green cubes (coins standing in) or the scroll, plus the level's time."""
    if entering_level == 1:
        cost = ctx.comp.counts("council_enter")
        time = int(cost["time"])
    else:
        cost = ctx.comp.counts("council_advance")
        time = int(ctx.comp.counts("council_advance_time")[str(entering_level)])
    return [Cost(time=time, cubes={"green": int(cost["green"])}),
            Cost(time=time, goods={"scroll": int(cost["scroll"])})]


def use_privilege(ctx: Ctx, player: int, priv: Privilege, max_level: int) -> None:
    st = ctx.state
    p = st.players[player]
    require(priv.level <= max_level, "privilege.level",
            f"{p.name}'s council member is on level {max_level}; "
            f"level {priv.level} is out of reach",
            key="rule.council_level_out_of_reach",
            params={"name": p.name, "max_level": max_level, "level": priv.level})
    if priv.level == 1:
        if st.next_start_holder is None and not st.next_start_spent:
            st.next_start_holder = player
            ctx.note("next_start_taken", player=p.name)
        else:
            ctx.note("next_start_gone")
    elif priv.level == 2:  # level numbers name the council's levels, not printed values
        # Big Box (000 第二階級): 「2個不同顏色的影響力方塊」; 2011 (004 의회 2): 「원하는 색큐브
        # 2개」, the colours you want, one colour twice included.
        count = ctx.comp.n("council_privilege_cubes")
        if ctx.comp.flag("council_privilege_cubes_distinct"):
            require(len(priv.cubes) == count and len(set(priv.cubes)) == count,
                    "privilege.cubes", f"choose {count} influence cubes of different colours",
                    key="rule.choose_different_cubes", params={"count": count})
        else:
            require(len(priv.cubes) == count, "privilege.cubes",
                    f"choose {count} influence cubes", key="rule.choose_privilege_cubes",
                    params={"count": count})
        gain_cubes(ctx, player, list(priv.cubes), "privilege.cubes")
    elif priv.level == 3:
        require(priv.goods is not None, "privilege.goods", "choose a goods tile",
                key="rule.choose_goods_tile")
        assert priv.goods is not None
        p.goods[priv.goods] = p.goods.get(priv.goods, 0) + 1
    else:
        trade = ctx.comp.counts("council_privilege_prestige")
        coins, prestige = int(trade["coins"]), int(trade["prestige"])
        require(p.coins >= coins, "privilege.level",
                f"{p.name} needs exactly {coins} coin for {prestige} prestige",
                key="rule.privilege_exact_coins",
                params={"name": p.name, "coins": coins, "prestige": prestige})
        spend_coins(ctx, player, coins)
        p.prestige += prestige


def council_enter(ctx: Ctx, cmd: CouncilEnter) -> None:
    player = check_action(ctx, "council")
    member = validate_member(ctx, cmd.member, player, place="farmyard")
    if cmd.pay is not None:
        check_printed(ctx, cmd.pay, council_costs(ctx, 1))
    pay(ctx, player, cmd.pay if cmd.pay is not None else
        default_council_payment(ctx, player, 1))
    member.loc = council_spot(1)
    if cmd.privilege is not None:
        use_privilege(ctx, player, cmd.privilege, 1)
    mark_action_done(ctx)


def can_advance(ctx: Ctx, member: Member) -> bool:
    """Whether a council member stands below the council's top level (a member there
    has no level left to move up to)."""
    return member.place == "council" and member.level < ctx.comp.n("council_levels")


def council_advance(ctx: Ctx, cmd: CouncilAdvance) -> None:
    player = check_action(ctx, "council")
    member = validate_member(ctx, cmd.member, player, place="council")
    new_level = member.level + 1
    require(can_advance(ctx, member), "member",
            f"{cmd.member} is already on the top council level",
            key="rule.council_top_level", params={"member": cmd.member})
    if cmd.pay is not None:
        check_printed(ctx, cmd.pay, council_costs(ctx, new_level))
    pay(ctx, player, cmd.pay if cmd.pay is not None else
        default_council_payment(ctx, player, new_level))
    member.loc = council_spot(new_level)
    if cmd.privilege is not None:
        use_privilege(ctx, player, cmd.privilege, new_level)
    mark_action_done(ctx)


def council_privilege(ctx: Ctx, cmd: CouncilPrivilege) -> None:
    player = check_action(ctx, "council")
    on_council = ctx.state.members_in("council", player)
    require(bool(on_council), "privilege",
            f"{ctx.state.players[player].name} has no member on the council",
            key="rule.no_council_member", params={"name": ctx.state.players[player].name})
    use_privilege(ctx, player, cmd.privilege, max(m.level for m in on_council))
    mark_action_done(ctx)
