"""Church (rulebook: the action spaces — Church): a member from the farmyard goes into the
black bag for the next mass (the mass itself: mass.py). Costs come from the component data
as a default; a command may carry its own."""

from __future__ import annotations

from companion.village.commands import Church, Payment
from companion.village.locations import BAG
from companion.village.rules.context import Ctx
from companion.village.rules.deaths import validate_member
from companion.village.rules.payment import Cost, check_printed, pay
from companion.village.rules.turns import check_action, mark_action_done


def default_church_payment(ctx: Ctx, player: int) -> Payment:
    cost = ctx.comp.counts("church_action")
    p = ctx.state.players[player]
    if p.cubes.get("brown", 0) >= int(cost["brown"]):
        return Payment(cubes={"brown": int(cost["brown"])})
    return Payment(time=int(cost["time"]))


def church_costs(ctx: Ctx) -> list[Cost]:
    """000 教堂: one brown cube, or the time printed instead."""
    cost = ctx.comp.counts("church_action")
    return [Cost(cubes={"brown": int(cost["brown"])}), Cost(time=int(cost["time"]))]


def church(ctx: Ctx, cmd: Church) -> None:
    player = check_action(ctx, "church")
    member = validate_member(ctx, cmd.member, player, place="farmyard")
    if cmd.pay is not None:
        check_printed(ctx, cmd.pay, church_costs(ctx))
    pay(ctx, player, cmd.pay if cmd.pay is not None else default_church_payment(ctx, player))
    member.loc = BAG
    ctx.note("to_black_bag", player=ctx.state.players[player].name, gen=member.gen)
    mark_action_done(ctx)
