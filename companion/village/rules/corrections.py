"""Hand corrections (no rulebook section: the app's own): every tracked value stays
editable — counters, the time track, served customer tiles, where a member stands; cubes and
goods keep to the supply. A correction that fills the last chronicle or graveyard slot ends
the game as a death would (rulebook: game end)."""

from __future__ import annotations

from companion.village.commands import (
    AddCustomerTile,
    Adjust,
    MoveMember,
    RemoveCustomerTile,
    SetCustomerPoints,
    SetTime,
    SpendTime,
    TakeBackTime,
)
from companion.village.rules.context import Ctx
from companion.village.rules.deaths import queue_deaths
from companion.village.rules.errors import RuleError, require
from companion.village.rules.game_end import trigger_end
from companion.village.rules.payment import spend_coins
from companion.village.rules.time_track import spend_time
from companion.village.state import Player


def adjust(ctx: Ctx, cmd: Adjust) -> None:
    st = ctx.state
    require(cmd.player < len(st.players), "player", "no such player")
    p = st.players[cmd.player]
    require(p.kind == "human", "player", "Karla has no counters to adjust")
    require(cmd.delta != 0, "delta", "must not be 0")
    if cmd.field in ("prestige", "coins", "grain"):
        new = getattr(p, cmd.field) + cmd.delta
        require(new >= 0, "delta", f"{p.name} would have {new} {cmd.field}")
        if cmd.field == "grain":
            cap = int(ctx.comp.v("grain_max"))
            require(new <= cap, "delta", f"at most {cap} grain on a farmyard (would be {new})")
        if cmd.field == "coins" and cmd.delta < 0:
            spend_coins(ctx, cmd.player, -cmd.delta)  # a held marker-coin goes first
        else:
            setattr(p, cmd.field, new)
    elif cmd.field == "cubes":
        colour = cmd.key or ""
        require(colour in ctx.comp.v("influence_colours"), "key", "an influence colour")
        new = p.cubes.get(colour, 0) + cmd.delta
        require(new >= 0, "delta", f"{p.name} would have {new} {colour}")
        require(st.supply.get(colour, 0) - cmd.delta >= 0, "delta",
                f"only {st.supply.get(colour, 0)} {colour} left in the supply")
        p.cubes[colour] = new
        st.supply[colour] -= cmd.delta
    elif cmd.field == "goods":
        goods = cmd.key or ""
        require(goods in ctx.comp.v("goods_types"), "key", "a goods type")
        new = p.goods.get(goods, 0) + cmd.delta
        require(new >= 0, "delta", f"{p.name} would have {new} {goods}")
        p.goods[goods] = new
    elif cmd.field == "cities":
        require(cmd.key is not None and cmd.key.isascii() and cmd.key.isdigit(), "key",
                "a city number")
        city = int(cmd.key or "0")
        require(1 <= city <= int(ctx.comp.v("travel_cities")), "key", "no such city")
        if cmd.delta > 0:
            require(city not in p.cities, "key", f"{p.name} already has a marker there")
            p.cities.append(city)
        else:
            require(city in p.cities, "key", f"{p.name} has no marker there")
            p.cities.remove(city)
    else:  # pragma: no cover - the command model forbids other fields
        raise RuleError("field", f"cannot adjust {cmd.field}")


def spend_time_by_hand(ctx: Ctx, cmd: SpendTime) -> None:
    st = ctx.state
    require(cmd.player < len(st.players) and st.players[cmd.player].kind == "human", "player",
            "no such player")
    spend_time(ctx, cmd.player, cmd.amount)
    if st.market_day is None and st.players[cmd.player].deaths_pending and (
            st.phase != "turns" or cmd.player != st.current):
        # Outside one's own turn there is no turn end to wait for: decide at once.
        queue_deaths(ctx, cmd.player)


def _human(ctx: Ctx, player: int) -> Player:
    st = ctx.state
    require(player < len(st.players), "player", "no such player")
    p = st.players[player]
    require(p.kind == "human", "player", "Karla has no time track")
    return p


def set_time(ctx: Ctx, cmd: SetTime) -> None:
    p = _human(ctx, cmd.player)
    length = int(ctx.comp.v("time_track_length"))
    require(cmd.position < length, "position",
            f"the time track has spaces 0 to {length - 1}")
    p.time = cmd.position


def take_back_time(ctx: Ctx, cmd: TakeBackTime) -> None:
    st = ctx.state
    p = _human(ctx, cmd.player)
    length = int(ctx.comp.v("time_track_length"))
    back = p.time - cmd.amount
    crossings = 0
    while back < 0:  # back over the quill
        back += length
        crossings += 1
    p.time = back
    cancel = min(crossings, p.deaths_pending)
    p.deaths_pending -= cancel
    # Drop the answers no longer owed, the latest first.
    queued = [i for i, x in enumerate(st.pending) if x.kind == "death" and x.player == cmd.player]
    for i in reversed(queued[p.deaths_pending:]):
        st.pending.pop(i)


def _customer_index(ctx: Ctx, player: int, index: int) -> Player:
    st = ctx.state
    require(player < len(st.players), "player", "no such player")
    p = st.players[player]
    require(index < len(p.customers), "index",
            f"{p.name} has served {len(p.customers)} customer tiles")
    return p


def _no_market_day(ctx: Ctx) -> None:
    require(ctx.state.market_day is None, "phase",
            "finish the market day first (or undo the sale)")


def add_customer_tile(ctx: Ctx, cmd: AddCustomerTile) -> None:
    st = ctx.state
    _no_market_day(ctx)
    require(cmd.player < len(st.players), "player", "no such player")
    if cmd.slot is not None:
        require(st.market_front[cmd.slot], "slot",
                f"no customer waits on front space {cmd.slot + 1}")
        st.market_front[cmd.slot] = False
    else:
        require(st.customer_stack > 0, "slot",
                "the face-down stack is empty: name the front space the tile came from")
        st.customer_stack -= 1
    st.players[cmd.player].customers.append(cmd.points)


def remove_customer_tile(ctx: Ctx, cmd: RemoveCustomerTile) -> None:
    st = ctx.state
    _no_market_day(ctx)
    p = _customer_index(ctx, cmd.player, cmd.index)
    if cmd.slot is not None:
        open_front = ctx.comp.front_spaces(len(st.players))
        require(cmd.slot < open_front, "slot",
                f"front space {cmd.slot + 1} stays empty with {len(st.players)} players")
        require(not st.market_front[cmd.slot], "slot",
                f"a customer already waits on front space {cmd.slot + 1}")
        st.market_front[cmd.slot] = True
    else:
        st.customer_stack += 1
    p.customers.pop(cmd.index)


def set_customer_points(ctx: Ctx, cmd: SetCustomerPoints) -> None:
    p = _customer_index(ctx, cmd.player, cmd.index)
    p.customers[cmd.index] = cmd.points


# Where a member of a player (Karla) may stand, place by place, in board order.
HUMAN_PLACES = ("supply", "farmyard", "workshop", "council", "church", "travel", "bag",
                "chronicle", "graveyard", "removed")
KARLA_PLACES = ("karla", "church", "bag", "chronicle", "graveyard", "removed")


def _spots(ctx: Ctx) -> dict[str, list[str]]:
    """The named spots of the places that have several (levels, cities, sections …)."""
    st, comp = ctx.state, ctx.comp
    return {
        "workshop": list(comp.v("workshop_goods")),
        "council": [str(i) for i in range(1, int(comp.v("council_levels")) + 1)],
        "church": [str(i) for i in range(1, len(comp.v("score_church")) + 1)],
        "travel": [str(i) for i in range(1, int(comp.v("travel_cities")) + 1)],
        "chronicle": list(st.chronicle_capacity),
        "karla": ["side", "building"],
    }


def member_spots(ctx: Ctx, owner: int) -> list[str]:
    """Every location `owner`'s members may stand at, capacity aside, in board order (what
    a correction may name as `to`)."""
    spots = _spots(ctx)
    places = KARLA_PLACES if ctx.state.players[owner].kind == "karla" else HUMAN_PLACES
    return [f"{place}:{arg}" if place in spots else place
            for place in places for arg in spots.get(place, [""])]


def location_problem(ctx: Ctx, owner: int, loc: str) -> str | None:
    """Why `owner`'s member cannot stand at `loc` (None if it can, capacity aside)."""
    st = ctx.state
    spots = _spots(ctx)
    places = KARLA_PLACES if st.players[owner].kind == "karla" else HUMAN_PLACES
    place, _, arg = loc.partition(":")
    if place not in places:
        return (f"{st.players[owner].name}'s members cannot be at {place}; one of "
                f"{', '.join(sorted(places))}")
    if place in spots:
        if arg not in spots[place]:
            return f"{place} needs one of :{', :'.join(sorted(spots[place]))}"
    elif arg:
        return f"{place} takes no ':{arg}'"
    return None


def move_member(ctx: Ctx, cmd: MoveMember) -> None:
    st = ctx.state
    member = st.members.get(cmd.member)
    require(member is not None, "member", f"{cmd.member} is no family member")
    assert member is not None
    problem = location_problem(ctx, member.owner, cmd.to)
    if problem is not None:
        raise RuleError("to", problem)
    require(cmd.to != member.loc, "to", f"{cmd.member} is already at {cmd.to}")
    place, _, arg = cmd.to.partition(":")
    if place == "chronicle":
        require(st.chronicle_free(arg) > 0, "to", f"the {arg} chronicle section is full")
    if place == "graveyard":
        require(st.graveyard_free() > 0, "to", "the graveyard is full")
    if place == "church" and st.players[member.owner].kind == "karla":
        require(not st.members_at(cmd.to, member.owner), "to",
                f"Karla already has a member on church level {arg}")
    member.loc = cmd.to
    # As with a death: the last chronicle or graveyard slot filled ends the game.
    if place == "chronicle" and st.chronicle_total_free() == 0:
        trigger_end(ctx, member.owner, "chronicle")
    elif place == "graveyard" and st.graveyard_free() == 0:
        trigger_end(ctx, member.owner, "graveyard")

