"""Mass (rulebook: mass) at every round end (and once more after the final turns):
buy-outs, the random draw to 4 items, church advancement for grain, the 2-prestige majority
bonus."""

from __future__ import annotations

import random

from companion.village.commands import MassAdvance, MassBuyOut
from companion.village.locations import BAG, church_spot
from companion.village.rules.context import Ctx
from companion.village.rules.errors import RuleError, require
from companion.village.rules.payment import spend_coins
from companion.village.state import MassState, Member, Pending, PendingDetail

MONK = "monk"


def _seat_order(ctx: Ctx) -> list[int]:
    st = ctx.state
    n = len(st.players)
    return [(st.start_player + k) % n for k in range(n)
            if st.players[(st.start_player + k) % n].kind == "human"]


def start_mass(ctx: Ctx, final: bool) -> None:
    st = ctx.state
    st.phase = "mass_buyout"
    st.mass = MassState(order=_seat_order(ctx), final=final)
    ctx.note("final_mass") if final else ctx.note("round_mass", round=st.round)
    _skip_buyers(ctx)


def buyout_price(ctx: Ctx, members: int) -> int:
    """The coins `members` buy-outs cost (000 彌撒 1: 每拿出一名自己的家族成員就要花費1枚金幣)."""
    return members * ctx.comp.n("mass_buyout_cost")


def _can_buy(ctx: Ctx, player: int) -> bool:
    return (ctx.state.players[player].coins >= buyout_price(ctx, 1)
            and bool(ctx.state.members_at("bag", player)))


def draw_room(ctx: Ctx) -> int:
    """How many more items may come out of the black bag at this mass: the printed draw
    less the members bought out (the buy-outs' room, then the random draw's count)."""
    mass = ctx.state.mass
    return ctx.comp.n("mass_draw") - (len(mass.bought) if mass is not None else 0)


def _skip_buyers(ctx: Ctx) -> None:
    st = ctx.state
    mass = st.mass
    assert mass is not None
    while mass.index < len(mass.order) and draw_room(ctx) > 0 and not _can_buy(
            ctx, mass.order[mass.index]):
        mass.index += 1
    if mass.index >= len(mass.order) or draw_room(ctx) <= 0:
        st.flow.insert(0, "mass_draw")


def buyer(ctx: Ctx) -> int | None:
    st = ctx.state
    if st.phase != "mass_buyout" or st.mass is None or st.mass.index >= len(st.mass.order):
        return None
    return st.mass.order[st.mass.index]


def buy_out(ctx: Ctx, cmd: MassBuyOut) -> None:
    st = ctx.state
    player = buyer(ctx)
    require(player is not None and "mass_draw" not in st.flow, "phase",
            "no mass buy-out is under way", key="rule.no_mass_buyout")
    assert player is not None and st.mass is not None
    p = st.players[player]
    cost = buyout_price(ctx, 1)
    room = draw_room(ctx)
    require(len(set(cmd.members)) == len(cmd.members), "members", "a member is listed twice",
            key="rule.member_listed_twice")
    require(len(cmd.members) <= room, "members", f"only {room} more may come out of the bag",
            key="rule.bag_room", params={"room": room})
    require(buyout_price(ctx, len(cmd.members)) <= p.coins, "members",
            f"{p.name} has {p.coins} coins for {len(cmd.members)} buy-outs",
            key="rule.buyout_coins",
            params={"name": p.name, "coins": p.coins, "buyouts": len(cmd.members)})
    for i, mid in enumerate(cmd.members):
        m = st.members.get(mid)
        if m is None or m.owner != player or m.loc != "bag":
            raise RuleError(f"members[{i}]", f"{mid} is not {p.name}'s member in the black bag",
                            key="rule.not_in_players_bag", params={"member": mid, "name": p.name})
    for mid in cmd.members:
        spend_coins(ctx, player, cost)
        st.mass.bought.append(mid)
        _to_church(ctx, st.members[mid])
    st.mass.index += 1
    _skip_buyers(ctx)


def _to_church(ctx: Ctx, m: Member) -> None:
    st = ctx.state
    if st.players[m.owner].kind == "karla":
        taken = {x.level for x in st.members_in("church", m.owner)}
        free = [lvl for lvl in range(1, church_top(ctx) + 1) if lvl not in taken]
        m.loc = church_spot(free[0]) if free else BAG
    else:
        m.loc = church_spot(1)
    if m.loc != "bag":
        ctx.note("to_church", player=st.players[m.owner].name, gen=m.gen, level=m.level)


def mass_draw_step(ctx: Ctx) -> None:
    st = ctx.state
    assert st.mass is not None
    need = draw_room(ctx)
    if need > 0:
        st.pending.append(Pending(kind="chance", draw="mass", detail=PendingDetail(count=need)))
    else:
        _after_draw(ctx)


def bag_items(ctx: Ctx) -> list[str]:
    st = ctx.state
    members = sorted(m.id for m in st.members.values() if m.loc == "bag")
    return [MONK] * st.monks_in_bag + members


def draw_items(ctx: Ctx, rng: random.Random, count: int) -> list[str]:
    items = bag_items(ctx)
    rng.shuffle(items)
    return items[:count]


def check_draw(ctx: Ctx, items: list[str], count: int) -> None:
    for i, item in enumerate(items):
        if not isinstance(item, str):
            raise RuleError(f"outcome.items[{i}]", "must name a member or a monk",
                            key="rule.member_or_monk")
    require(len(items) == count, "outcome.items", f"draw exactly {count} items",
            key="rule.draw_exact_items", params={"count": count})
    monks = items.count(MONK)
    require(monks <= ctx.state.monks_in_bag, "outcome.items",
            f"the bag holds only {ctx.state.monks_in_bag} monks",
            key="rule.bag_monks", params={"monks": ctx.state.monks_in_bag})
    members = [i for i in items if i != MONK]
    require(len(set(members)) == len(members), "outcome.items", "a member is drawn twice",
            key="rule.member_drawn_twice")
    for i, mid in enumerate(items):
        if mid != MONK and (mid not in ctx.state.members or ctx.state.members[mid].loc != "bag"):
            raise RuleError(f"outcome.items[{i}]", f"{mid} is not in the black bag",
                            key="rule.not_in_bag", params={"member": mid})


def apply_draw(ctx: Ctx, items: list[str]) -> None:
    st = ctx.state
    assert st.mass is not None
    for item in items:
        st.mass.drawn.append(item)
        if item == MONK:
            ctx.note("monk_drawn")
        else:
            _to_church(ctx, st.members[item])
    st.mass.drawn_random = True
    _after_draw(ctx)


def undo_draw(ctx: Ctx) -> None:
    """Redraw of the mass draw: drawn members go back into the bag."""
    st = ctx.state
    assert st.mass is not None
    for item in st.mass.drawn:
        if item != MONK:
            st.members[item].loc = BAG
    st.mass.drawn = []


def _after_draw(ctx: Ctx) -> None:
    st = ctx.state
    assert st.mass is not None
    st.phase = "mass_advance"
    st.mass.index = 0
    _skip_advancers(ctx)


def church_top(ctx: Ctx) -> int:
    """The church track's top level: one level per printed score (final scoring)."""
    return len(ctx.comp.numbers("score_church"))


def _cheapest_step(ctx: Ctx, player: int) -> int | None:
    costs = ctx.comp.counts("church_advance_grain")
    top = church_top(ctx)
    levels = [m.level for m in ctx.state.members_in("church", player) if m.level < top]
    if not levels:
        return None
    return min(int(costs[str(lvl + 1)]) for lvl in levels)


def _can_advance(ctx: Ctx, player: int) -> bool:
    step = _cheapest_step(ctx, player)
    return step is not None and ctx.state.players[player].grain >= step


def _skip_advancers(ctx: Ctx) -> None:
    st = ctx.state
    mass = st.mass
    assert mass is not None
    while mass.index < len(mass.order) and not _can_advance(ctx, mass.order[mass.index]):
        mass.index += 1
    if mass.index >= len(mass.order):
        st.flow.insert(0, "mass_bonus")


def advancer(ctx: Ctx) -> int | None:
    st = ctx.state
    if st.phase != "mass_advance" or st.mass is None or st.mass.index >= len(st.mass.order):
        return None
    return st.mass.order[st.mass.index]


def advance_cost(ctx: Ctx, from_level: int, to_level: int) -> int:
    costs = ctx.comp.counts("church_advance_grain")
    return sum(int(costs[str(lvl)]) for lvl in range(from_level + 1, to_level + 1))


def advance(ctx: Ctx, cmd: MassAdvance) -> None:
    st = ctx.state
    player = advancer(ctx)
    require(player is not None and "mass_bonus" not in st.flow, "phase",
            "no church advancement is under way", key="rule.no_church_advance")
    assert player is not None and st.mass is not None
    p = st.players[player]
    total = 0
    top = church_top(ctx)
    for mid, level in cmd.moves.items():
        m = st.members.get(mid)
        if m is None or m.owner != player or m.place != "church":
            raise RuleError(f"moves.{mid}", f"{mid} is not {p.name}'s member on the church track",
                            key="rule.not_on_church_track", params={"member": mid, "name": p.name})
        if not m.level < level <= top:
            raise RuleError(f"moves.{mid}",
                            f"must move right, to a level from {m.level + 1} to {top}",
                            key="rule.move_right", params={"low": m.level + 1, "top": top})
        total += advance_cost(ctx, m.level, level)
    require(total <= p.grain, "moves", f"{p.name} has {p.grain} grain, the moves cost {total}",
            key="rule.moves_cost_grain", params={"name": p.name, "grain": p.grain, "total": total})
    p.grain -= total
    for mid, level in cmd.moves.items():
        st.members[mid].loc = church_spot(level)
    st.mass_advanced = True
    st.mass.index += 1
    _skip_advancers(ctx)


def majority_winners(ctx: Ctx) -> tuple[list[int], str, int, int]:
    """Who gets the bonus, without giving it: (players, note key, count, rightmost level).

    Most members on the church track; tie: the tied player whose rightmost member stands
    highest; still tied: every tied player. Karla counts but scores nothing."""
    st = ctx.state
    counts = {i: len(st.members_in("church", i)) for i in range(len(st.players))}
    best = max(counts.values(), default=0)
    if best == 0:
        return [], "no_bonus", 0, 0
    tied = [i for i, c in counts.items() if c == best]
    key, high = "bonus_most", 0
    if len(tied) > 1:
        top = {i: max(m.level for m in st.members_in("church", i)) for i in tied}
        high = max(top.values())
        tied = [i for i in tied if top[i] == high]
        key = "bonus_still_tied" if len(tied) > 1 else "bonus_rightmost"
    return tied, key, best, high


def majority_bonus(ctx: Ctx) -> list[int]:
    st = ctx.state
    tied, key, best, high = majority_winners(ctx)
    if not tied:
        ctx.note("no_bonus")
        return []
    bonus = ctx.comp.n("mass_bonus")
    for i in tied:
        p = st.players[i]
        if p.kind == "human":
            p.prestige += bonus
            ctx.note(key, player=p.name, bonus=bonus, count=best, level=high)
        else:
            ctx.note("karla_majority", player=p.name)
    return tied
