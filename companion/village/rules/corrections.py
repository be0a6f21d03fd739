"""Hand corrections: every tracked value stays editable; cubes and goods keep to the supply."""

from __future__ import annotations

from companion.village.commands import (
    Adjust,
    ChooseCompensationCube,
    NextStartMarkerCoin,
    SpendNextStartMarker,
    SpendTime,
)
from companion.village.rules.context import Ctx
from companion.village.rules.errors import RuleError, require
from companion.village.rules.payment import spend_coins
from companion.village.rules.time_track import spend_time


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
        from companion.village.rules.deaths import queue_deaths

        queue_deaths(ctx, cmd.player)


def choose_compensation_cube(ctx: Ctx, cmd: ChooseCompensationCube) -> None:
    st = ctx.state
    require(bool(st.pending) and st.pending[0].kind == "compensation_cube", "colour",
            "no compensation cube is waiting to be chosen")
    player = st.pending[0].player
    assert player is not None
    require(st.supply.get(cmd.colour, 0) > 0, "colour", f"no {cmd.colour} left in the supply")
    st.pending.pop(0)
    st.supply[cmd.colour] -= 1
    p = st.players[player]
    p.cubes[cmd.colour] = p.cubes.get(cmd.colour, 0) + 1
    ctx.note("compensation_chosen", player=p.name, colour=cmd.colour)


def _marker_holder(ctx: Ctx) -> int:
    st = ctx.state
    require(st.solo, "type", "only in a solo game")
    holder = st.next_start_holder
    require(holder is not None and not st.next_start_spent
            and st.players[holder].kind == "human", "type",
            "you do not hold the next-start-player marker")
    require(st.phase in ("turns", "mass_buyout", "mass_advance"), "phase",
            "only before the new round")
    assert holder is not None
    return holder


def spend_next_start_marker(ctx: Ctx, _cmd: SpendNextStartMarker) -> None:
    """Legacy fold of engine-1 logs: the marker became a lasting coin. New sessions refuse
    the command (VillageSession.execute); `next_start_marker_coin` replaces it."""
    st = ctx.state
    holder = _marker_holder(ctx)
    st.next_start_holder = None
    st.next_start_spent = True
    st.players[holder].coins += 1
    ctx.note("next_start_spent")


def next_start_marker_coin(ctx: Ctx, _cmd: NextStartMarkerCoin) -> None:
    """The held marker stands in for one coin until paid or until the new round."""
    st = ctx.state
    holder = _marker_holder(ctx)
    st.next_start_spent = True  # off the council; the holder stays set while unpaid
    st.players[holder].coins += 1
    ctx.note("next_start_spent")


def return_marker_coin(ctx: Ctx) -> None:
    """An unpaid marker-coin goes back to the council (new round; also before final
    scoring, since it is no coin of the player's and must not score)."""
    st = ctx.state
    holder = st.marker_coin_holder()
    if holder is None:
        return
    st.players[holder].coins -= 1  # never below 0: any coin paid would have been it
    st.next_start_holder = None
    ctx.note("next_start_back")
