"""Hand corrections (no rulebook section: the app's own): every tracked value stays
editable — counters, the time track, served customer tiles, where a member stands; cubes and
goods keep to the supply. A correction that fills the last chronicle or graveyard slot ends
the game as a death would (rulebook: game end)."""

from __future__ import annotations

from typing import Any

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
from companion.village.rules.market import open_front_spaces
from companion.village.rules.payment import spend_coins
from companion.village.rules.time_track import spend_time
from companion.village.state import Player

# The refusal key for a counter an adjustment would take below 0.
NEGATIVE_KEYS = {"prestige": "rule.negative_prestige", "coins": "rule.negative_coins",
                 "grain": "rule.negative_grain"}


def adjust(ctx: Ctx, cmd: Adjust) -> None:
    st = ctx.state
    require(cmd.player < len(st.players), "player", "no such player", key="rule.no_such_player")
    p = st.players[cmd.player]
    require(p.kind == "human", "player", "Karla has no counters to adjust",
            key="rule.karla_no_counters")
    require(cmd.delta != 0, "delta", "must not be 0", key="rule.delta_zero")
    if cmd.field in ("prestige", "coins", "grain"):
        new = getattr(p, cmd.field) + cmd.delta
        require(new >= 0, "delta", f"{p.name} would have {new} {cmd.field}",
                key=NEGATIVE_KEYS[cmd.field], params={"name": p.name, "new": new})
        if cmd.field == "grain":
            cap = ctx.comp.n("grain_max")
            require(new <= cap, "delta", f"at most {cap} grain on a farmyard (would be {new})",
                    key="rule.grain_cap", params={"cap": cap, "new": new})
        if cmd.field == "coins" and cmd.delta < 0:
            spend_coins(ctx, cmd.player, -cmd.delta)  # a held marker-coin goes first
        else:
            setattr(p, cmd.field, new)
    elif cmd.field == "cubes":
        colour = cmd.key or ""
        require(colour in ctx.comp.names("influence_colours"), "key", "an influence colour",
                key="rule.need_influence_colour")
        new = p.cubes.get(colour, 0) + cmd.delta
        require(new >= 0, "delta", f"{p.name} would have {new} {colour}",
                key="rule.negative_cubes", params={"name": p.name, "new": new, "colour": colour})
        require(st.supply.get(colour, 0) - cmd.delta >= 0, "delta",
                f"only {st.supply.get(colour, 0)} {colour} left in the supply",
                key="rule.supply_has_only",
                params={"left": st.supply.get(colour, 0), "colour": colour})
        p.cubes[colour] = new
        st.supply[colour] -= cmd.delta
    elif cmd.field == "goods":
        goods = cmd.key or ""
        require(goods in ctx.comp.names("goods_types"), "key", "a goods type",
                key="rule.need_goods_type")
        new = p.goods.get(goods, 0) + cmd.delta
        require(new >= 0, "delta", f"{p.name} would have {new} {goods}",
                key="rule.negative_goods", params={"name": p.name, "new": new, "goods": goods})
        p.goods[goods] = new
    elif cmd.field == "cities":
        require(cmd.key is not None and cmd.key.isascii() and cmd.key.isdigit(), "key",
                "a city number", key="rule.need_city_number")
        city = int(cmd.key or "0")
        require(1 <= city <= ctx.comp.n("travel_cities"), "key", "no such city",
                key="rule.no_such_city")
        if cmd.delta > 0:
            require(city not in p.cities, "key", f"{p.name} already has a marker there",
                    key="rule.city_marker_there", params={"name": p.name})
            p.cities.append(city)
        else:
            require(city in p.cities, "key", f"{p.name} has no marker there",
                    key="rule.no_city_marker_there", params={"name": p.name})
            p.cities.remove(city)
    else:  # pragma: no cover - the command model forbids other fields
        raise RuleError("field", f"cannot adjust {cmd.field}",
                        key="rule.cannot_adjust", params={"field": cmd.field})


def spend_time_by_hand(ctx: Ctx, cmd: SpendTime) -> None:
    st = ctx.state
    require(cmd.player < len(st.players) and st.players[cmd.player].kind == "human", "player",
            "no such player", key="rule.no_such_player")
    spend_time(ctx, cmd.player, cmd.amount)
    if st.market_day is None and st.players[cmd.player].deaths_pending and (
            st.phase != "turns" or cmd.player != st.current):
        # Outside one's own turn there is no turn end to wait for: decide at once.
        queue_deaths(ctx, cmd.player)


def _human(ctx: Ctx, player: int) -> Player:
    st = ctx.state
    require(player < len(st.players), "player", "no such player", key="rule.no_such_player")
    p = st.players[player]
    require(p.kind == "human", "player", "Karla has no time track", key="rule.karla_no_time_track")
    return p


def set_time(ctx: Ctx, cmd: SetTime) -> None:
    p = _human(ctx, cmd.player)
    length = ctx.comp.n("time_track_length")
    require(cmd.position < length, "position",
            f"the time track has spaces 0 to {length - 1}",
            key="rule.time_track_range", params={"last": length - 1})
    p.time = cmd.position


def take_back_time(ctx: Ctx, cmd: TakeBackTime) -> None:
    st = ctx.state
    p = _human(ctx, cmd.player)
    length = ctx.comp.n("time_track_length")
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
    require(player < len(st.players), "player", "no such player", key="rule.no_such_player")
    p = st.players[player]
    require(index < len(p.customers), "index",
            f"{p.name} has served {len(p.customers)} customer tiles",
            key="rule.customer_index_range", params={"name": p.name, "served": len(p.customers)})
    return p


def _no_market_day(ctx: Ctx) -> None:
    require(ctx.state.market_day is None, "phase",
            "finish the market day first (or undo the sale)", key="rule.finish_market_day_or_undo")


def add_customer_tile(ctx: Ctx, cmd: AddCustomerTile) -> None:
    st = ctx.state
    _no_market_day(ctx)
    require(cmd.player < len(st.players), "player", "no such player", key="rule.no_such_player")
    if cmd.slot is not None:
        require(st.market_front[cmd.slot], "slot",
                f"no customer waits on front space {cmd.slot + 1}",
                key="rule.no_customer_on_space", params={"slot": cmd.slot + 1})
        st.market_front[cmd.slot] = False
    else:
        require(st.customer_stack > 0, "slot",
                "the face-down stack is empty: name the front space the tile came from",
                key="rule.customer_stack_empty")
        st.customer_stack -= 1
    st.players[cmd.player].customers.append(cmd.points)


def remove_customer_tile(ctx: Ctx, cmd: RemoveCustomerTile) -> None:
    st = ctx.state
    _no_market_day(ctx)
    p = _customer_index(ctx, cmd.player, cmd.index)
    if cmd.slot is not None:
        require(cmd.slot < open_front_spaces(ctx), "slot",
                f"front space {cmd.slot + 1} stays empty with {len(st.players)} players",
                key="rule.front_space_closed",
                params={"slot": cmd.slot + 1, "players": len(st.players)})
        require(not st.market_front[cmd.slot], "slot",
                f"a customer already waits on front space {cmd.slot + 1}",
                key="rule.customer_already_there", params={"slot": cmd.slot + 1})
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
        "workshop": list(comp.name_lists("workshop_goods")),
        "council": [str(i) for i in range(1, comp.n("council_levels") + 1)],
        "church": [str(i) for i in range(1, len(comp.numbers("score_church")) + 1)],
        "travel": [str(i) for i in comp.cities()],
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


def location_problem(ctx: Ctx, owner: int,
                     loc: str) -> tuple[str, str, dict[str, Any]] | None:
    """Why `owner`'s member cannot stand at `loc` as (English message, refusal key,
    params), or None if it can (capacity aside)."""
    st = ctx.state
    spots = _spots(ctx)
    places = KARLA_PLACES if st.players[owner].kind == "karla" else HUMAN_PLACES
    place, _, arg = loc.partition(":")
    if place not in places:
        name, options = st.players[owner].name, ", ".join(sorted(places))
        return (f"{name}'s members cannot be at {place}; one of {options}",
                "rule.place_not_allowed", {"name": name, "place": place, "places": options})
    if place in spots:
        if arg not in spots[place]:
            options = ", ".join(f":{s}" for s in sorted(spots[place]))
            return (f"{place} needs one of {options}", "rule.place_needs_spot",
                    {"place": place, "spots": options})
    elif arg:
        return (f"{place} takes no ':{arg}'", "rule.place_takes_no_spot",
                {"place": place, "spot": arg})
    return None


def move_member(ctx: Ctx, cmd: MoveMember) -> None:
    st = ctx.state
    member = st.members.get(cmd.member)
    require(member is not None, "member", f"{cmd.member} is no family member",
            key="rule.not_family_member", params={"member": cmd.member})
    assert member is not None
    problem = location_problem(ctx, member.owner, cmd.to)
    if problem is not None:
        message, key, params = problem
        raise RuleError("to", message, key=key, params=params)
    require(cmd.to != member.loc, "to", f"{cmd.member} is already at {cmd.to}",
            key="rule.member_already_there", params={"member": cmd.member, "to": cmd.to})
    place, _, arg = cmd.to.partition(":")
    if place == "chronicle":
        require(st.chronicle_free(arg) > 0, "to", f"the {arg} chronicle section is full",
                key="rule.chronicle_section_full", params={"section": arg})
    if place == "graveyard":
        require(st.graveyard_free() > 0, "to", "the graveyard is full", key="rule.graveyard_full")
    if place == "church" and st.players[member.owner].kind == "karla":
        require(not st.members_at(cmd.to, member.owner), "to",
                f"Karla already has a member on church level {arg}",
                key="rule.karla_church_level_taken", params={"level": arg})
    member.loc = cmd.to
    # As with a death: the last chronicle or graveyard slot filled ends the game.
    if place == "chronicle" and st.chronicle_total_free() == 0:
        trigger_end(ctx, member.owner, "chronicle")
    elif place == "graveyard" and st.graveyard_free() == 0:
        trigger_end(ctx, member.owner, "graveyard")

