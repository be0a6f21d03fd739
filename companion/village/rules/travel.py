"""Travel (rulebook: the action spaces — Travel): a member goes out on the map to a city;
the first visit to a city brings its reward (prestige, a coin or influence cubes). Costs
come from the component data as a default; a command may carry its own."""

from __future__ import annotations

from companion.village.commands import Payment, Travel
from companion.village.locations import travel_spot
from companion.village.rules.context import Ctx
from companion.village.rules.deaths import validate_member
from companion.village.rules.errors import require
from companion.village.rules.payment import Cost, check_printed, cubes_or_coins, gain_cubes, pay
from companion.village.rules.turns import check_action, mark_action_done


def default_travel_payment(ctx: Ctx, player: int, route_cubes: dict[str, int]) -> Payment:
    cost = ctx.comp.counts("travel_cost")
    base = cubes_or_coins(ctx, player, {str(k): v for k, v in route_cubes.items()},
                          time=int(cost["time"]))
    return base.model_copy(update={"goods": {"wagon": int(cost["wagon"])}})


def travel(ctx: Ctx, cmd: Travel) -> None:
    player = check_action(ctx, "travel")
    st = ctx.state
    p = st.players[player]
    member = validate_member(ctx, cmd.member, player)
    require(member.place in ("farmyard", "travel"), "member",
            f"{cmd.member} must come from the farmyard or already be on the map",
            key="rule.travel_from_farmyard", params={"member": cmd.member})
    require(cmd.city <= ctx.comp.n("travel_cities"), "city", "no such city",
            key="rule.no_such_city")
    new_city = cmd.city not in p.cities
    if new_city:
        require(cmd.reward is not None, "reward", "choose the city's reward",
                key="rule.choose_city_reward")
    if cmd.pay is not None:
        cost = ctx.comp.counts("travel_cost")
        check_printed(ctx, cmd.pay, [Cost(
            time=int(cost["time"]), goods={"wagon": int(cost["wagon"])},
            cubes={str(k): v for k, v in cmd.route_cubes.items()})])
    pay(ctx, player, cmd.pay if cmd.pay is not None else
        default_travel_payment(ctx, player, {str(k): v for k, v in cmd.route_cubes.items()}))
    member.loc = travel_spot(cmd.city)
    if new_city:
        p.cities.append(cmd.city)
        reward = ctx.comp.counts("travel_reward")
        if cmd.reward == "prestige":
            p.prestige += int(reward["prestige"])
        elif cmd.reward == "coin":
            p.coins += int(reward["coins"])
        else:
            cubes = int(reward["cubes"])
            require(len(cmd.reward_cubes) == cubes, "reward_cubes",
                    f"choose {cubes} influence cubes",
                    key="rule.choose_reward_cubes", params={"count": cubes})
            gain_cubes(ctx, player, list(cmd.reward_cubes), "reward_cubes")
    else:
        ctx.note("city_again", player=p.name, city=cmd.city)
    mark_action_done(ctx)
