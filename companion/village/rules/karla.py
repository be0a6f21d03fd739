"""Karla, the solo opponent (rulebook: 單人遊戲 — the solo game): her cube after each of
yours, her board with the fate tiles, her deaths, and her two reactions (market, church;
her sale in a market day is a market-day step: market.karla_market_go). Needs no choices
of her own: where the rules leave one, the player decides (or a documented default policy
does)."""

from __future__ import annotations

import random
from typing import Any

from companion.village.commands import KarlaChooseCube
from companion.village.locations import BAG, KARLA_BUILDING, KARLA_SIDE
from companion.village.outcomes import ColourOutcome, D4Chance, FateChance, FateOutcome
from companion.village.rules.context import Ctx
from companion.village.rules.deaths import bury
from companion.village.rules.errors import require
from companion.village.rules.market import start_market_day
from companion.village.state import PLAGUE, KarlaWhy, Member, Pending, PendingDetail

# The default policy when the player lets the app choose Karla's cube: a plague cube first
# (it leaves the board), otherwise the first colour in this order.
DEFAULT_CHOICE_ORDER = (PLAGUE, "brown", "pink", "orange", "green")


def karla_index(ctx: Ctx) -> int:
    assert ctx.state.karla is not None
    return ctx.state.karla.player


def order_from(ctx: Ctx, space: str) -> list[str]:
    """Action spaces clockwise as printed on Karla's board, starting with `space`. Spaces
    of modules not in play (covered on her board) are walked past."""
    order = [s for s in ctx.comp.names("karla_action_order") if s in ctx.state.spaces]
    i = order.index(space)
    return order[i:] + order[:i]


def _influence_colours_on_board(ctx: Ctx) -> set[str]:
    return {c for cubes in ctx.state.spaces.values() for c in cubes if c != PLAGUE}


Why = tuple[str, dict[str, Any]]  # a note key and its parameters: why Karla took that cube


def karla_take(ctx: Ctx) -> None:
    """After your turn in which you took a cube (never after the well): Karla takes one."""
    st = ctx.state
    space = st.last_take_space
    colour = st.last_take_colour
    if st.cubes_on_board() == 0 or space is None or colour is None:
        ctx.note("karla_no_cube")
        return
    if st.setup_variant == "d4":
        if len(_influence_colours_on_board(ctx)) > 1:
            st.pending.append(Pending(kind="chance", draw="d4", detail=PendingDetail(space=space)))
            return
        _take_any_from(ctx, space, ("karla_why_only_one", {"space": space}))
        return
    _take_colour_or_choice(ctx, space, colour)


def _take_colour_or_choice(ctx: Ctx, space: str, colour: str) -> None:
    st = ctx.state
    for i, s in enumerate(order_from(ctx, space)):
        if colour in st.spaces[s]:
            why: Why = (("karla_why_same", {}) if i == 0 else
                        ("karla_why_next", {"colour": colour, "from_space": space}))
            take_for_karla(ctx, s, colour, why)
            return
    _take_any_from(ctx, space, ("karla_why_none", {"colour": colour, "space": space}))


def _take_any_from(ctx: Ctx, space: str, why: Why) -> None:
    st = ctx.state
    for s in order_from(ctx, space):
        cubes = st.spaces[s]
        if cubes:
            options = sorted(set(cubes), key=DEFAULT_CHOICE_ORDER.index)
            reasons = [why] + ([("karla_why_next_nonempty", {"from_space": space, "space": s})]
                               if s != space else [])
            if len(options) == 1:
                take_for_karla(ctx, s, options[0], *reasons)
            else:
                st.pending.append(Pending(kind="karla_cube", detail=PendingDetail(
                    space=s, options=options,
                    why=[KarlaWhy(key=k, params=p) for k, p in reasons])))
            return
    ctx.note("karla_no_cube")


def default_choice(options: list[str]) -> str:
    return sorted(options, key=DEFAULT_CHOICE_ORDER.index)[0]


def choose_cube(ctx: Ctx, cmd: KarlaChooseCube) -> None:
    st = ctx.state
    require(bool(st.pending) and st.pending[0].kind == "karla_cube", "colour",
            "Karla is not waiting for a cube choice", key="rule.karla_not_choosing")
    detail = st.pending[0].detail
    require(cmd.space == detail.space, "space", f"Karla takes from {detail.space}",
            key="rule.karla_takes_from", params={"space": detail.space})
    options = detail.options
    require(cmd.colour in options, "colour", f"choose one of {', '.join(options)}",
            key="rule.choose_colour", params={"colour_options": list(options)})
    st.pending.pop(0)
    reasons: list[Why] = [(w.key, dict(w.params)) for w in detail.why]
    take_for_karla(ctx, cmd.space, cmd.colour, *reasons, ("karla_why_chosen", {}))


def take_for_karla(ctx: Ctx, space: str, colour: str, *why: Why) -> None:
    st = ctx.state
    karla = st.karla
    assert karla is not None
    st.spaces[space].remove(colour)
    pos = (karla.last_space + 1) % len(karla.track)
    karla.track[pos].append(f"{colour}@{space}")
    karla.last_space = pos
    ctx.note("karla_takes", colour=colour, space=space, pos=pos + 1)
    for key, params in why:
        ctx.note(key, **params)
    st.karla_react = space
    st.flow.insert(0, "karla_react")
    for side, positions in ctx.comp.number_lists("karla_fate_after").items():
        if pos in positions:
            tile = list(positions).index(pos)
            if not karla.fate[side][tile]:
                st.pending.append(Pending(kind="chance", draw="fate",
                                          detail=PendingDetail(side=side, tile=tile, space=space)))


def app_fate_outcome(ctx: Ctx, pending: Pending, rng: random.Random) -> FateOutcome:
    karla = ctx.state.karla
    assert karla is not None
    side = str(pending.detail.side)
    face_down = karla.fate[side].count(False)
    quill_open = karla.quill[side] >= 0
    quill = (not quill_open) and rng.randrange(face_down) == 0
    return FateOutcome(side=side, tile=int(pending.detail.tile or 0), quill=quill)


def app_d4_outcome(ctx: Ctx, rng: random.Random) -> ColourOutcome:
    return ColourOutcome(colour=rng.choice(list(ctx.comp.names("influence_colours"))))


def apply_chance(ctx: Ctx, pending: Pending, ev: FateChance | D4Chance) -> None:
    st = ctx.state
    karla = st.karla
    assert karla is not None
    if ev.draw == "d4":
        colour = ev.outcome.colour
        require(colour in ctx.comp.names("influence_colours"),
                "outcome.colour", "the die shows an influence colour", key="rule.die_shows_colour")
        st.pending.pop(0)
        space = str(pending.detail.space)
        ctx.note("d4_shows", colour=str(colour))
        if colour in _influence_colours_on_board(ctx):
            _take_colour_or_choice(ctx, space, str(colour))
        else:
            ctx.note("d4_again", colour=str(colour))
            st.pending.append(Pending(kind="chance", draw="d4", detail=PendingDetail(space=space)))
        return
    out = ev.outcome
    side = str(pending.detail.side)
    tile = int(pending.detail.tile or 0)
    require(out.side == side and out.tile == tile,
            "outcome", f"the {side} tile {tile + 1} is the one being flipped",
            key="rule.fate_tile_flipped", params={"side": side, "tile": tile + 1})
    quill = out.quill
    face_down = karla.fate[side].count(False)
    if karla.quill[side] >= 0:
        require(not quill, "outcome.quill", f"the {side} set's quill is already face up",
                key="rule.quill_already_up", params={"side": side})
    elif face_down == 1:
        require(bool(quill), "outcome.quill", f"the last {side} tile must be the quill",
                key="rule.last_tile_quill", params={"side": side})
    st.pending.pop(0)
    karla.fate[side][tile] = True
    if quill:
        karla.quill[side] = tile
        ctx.note("karla_fate_quill", side=side, tile=tile + 1)
        karla_death(ctx, str(pending.detail.space))
    else:
        ctx.note("karla_fate_blank", side=side, tile=tile + 1)
    if all(karla.fate[side]):
        karla.fate[side] = [False, False, False]
        karla.quill[side] = -1
        ctx.note("karla_fate_reshuffle", side=side)


def death_order(ctx: Ctx) -> list[Member]:
    """Beside her board (gen 1, then 2), then the church building (gen 3, then 4), then the
    church track left to right."""
    st = ctx.state
    mine = st.members_of(karla_index(ctx))

    def key(m: Member) -> tuple[int, int, str]:
        if m.loc == KARLA_SIDE:
            return (0, m.gen, m.id)
        if m.loc == KARLA_BUILDING:
            return (1, m.gen, m.id)
        return (2, m.level, m.id)

    return sorted((m for m in mine if m.loc in (KARLA_SIDE, KARLA_BUILDING)
                   or m.place == "church"), key=key)


def karla_death(ctx: Ctx, from_space: str) -> None:
    order = death_order(ctx)
    if not order:
        ctx.note("karla_no_member")
        return
    section = ctx.comp.name_map("karla_death_section").get(from_space, "graveyard")
    # A full section sends her member to the graveyard. The Port's sea_travel space would
    # fall back to a sea-burial slot instead; the data has none (the Port is not supported
    # yet and new setups refuse it), so that rule is not implemented.
    bury(ctx, order[0], None if section == "graveyard" else section)


def step_react(ctx: Ctx) -> None:
    st = ctx.state
    space = st.karla_react
    st.karla_react = None
    karla = st.karla
    assert karla is not None
    if space == "market":
        ctx.note("karla_market")
        start_market_day(ctx, karla.player)
    elif space == "church":
        if karla.church_reaction_over:
            return
        on_building = [m for m in st.members_of(karla.player) if m.loc == KARLA_BUILDING]
        if not on_building:
            karla.church_reaction_over = True
            ctx.note("karla_church_over")
            return
        m = min(on_building, key=lambda x: (x.gen, x.id))
        m.loc = BAG
        ctx.note("karla_to_bag", gen=m.gen)


def reset_board(ctx: Ctx) -> None:
    """New round: every cube on her board but the last goes back to the supply."""
    st = ctx.state
    karla = st.karla
    assert karla is not None
    for pos, entries in enumerate(karla.track):
        keep = entries[-1:] if pos == karla.last_space else []
        for entry in entries[: len(entries) - len(keep)]:
            colour = entry.split("@", 1)[0]
            st.supply[colour] = st.supply.get(colour, 0) + 1
        karla.track[pos] = list(keep)
