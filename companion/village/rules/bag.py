"""The green bag (rulebook: the round — filling the bag and placing the cubes): filled
from the supply per the setup card, drawn onto the action spaces."""

from __future__ import annotations

import random

from companion.village.rules.context import Ctx
from companion.village.rules.errors import RuleError
from companion.village.state import PLAGUE


def fill_bag(ctx: Ctx) -> dict[str, int]:
    """Phase 1, before the draw: the card's cubes of each colour (as far as the supply
    allows) plus every plague cube in the supply go into the bag."""
    st = ctx.state
    card = ctx.comp.setup_card(len(st.players))
    added: dict[str, int] = {}
    for colour in ctx.comp.names("influence_colours"):
        n = min(card.bag_per_colour, st.supply.get(colour, 0))
        if n < card.bag_per_colour:
            ctx.note("supply_short", count=n, colour=colour)
        st.supply[colour] -= n
        st.bag[colour] = st.bag.get(colour, 0) + n
        added[colour] = n
    plague = st.supply.get(PLAGUE, 0)
    st.supply[PLAGUE] = 0
    st.bag[PLAGUE] = st.bag.get(PLAGUE, 0) + plague
    added[PLAGUE] = plague
    return added


def space_quota(ctx: Ctx) -> dict[str, int]:
    """Cubes per space; if the bag holds fewer than the card asks, spaces fill in order."""
    card = ctx.comp.setup_card(len(ctx.state.players))
    left = sum(ctx.state.bag.values())
    quota: dict[str, int] = {}
    for space in ctx.comp.names("action_spaces"):
        n = min(card.spaces[space], left)
        quota[space] = n
        left -= n
    return quota


def draw_placements(ctx: Ctx, rng: random.Random) -> dict[str, list[str]]:
    """The app's draw: shuffle the bag's cubes and deal the quota to each space."""
    cubes = [c for c, n in sorted(ctx.state.bag.items()) for _ in range(n)]
    rng.shuffle(cubes)
    out: dict[str, list[str]] = {}
    for space, n in space_quota(ctx).items():
        out[space] = sorted(cubes[:n])
        cubes = cubes[n:]
    return out


def check_placements(ctx: Ctx, placements: dict[str, list[str]]) -> None:
    """A draw (the app's or one typed in after a physical draw) must fit bag and card."""
    quota = space_quota(ctx)
    spaces = set(ctx.comp.names("action_spaces"))
    for space, got in placements.items():
        if not isinstance(space, str) or space not in spaces:
            raise RuleError(f"outcome.{space}", "not an action space", key="rule.not_action_space")
        if not isinstance(got, list) or not all(isinstance(c, str) for c in got):
            raise RuleError(f"outcome.{space}", "must list the cube colours put there",
                            key="rule.list_cube_colours")
    need: dict[str, int] = {}
    for space, n in quota.items():
        got = placements.get(space, [])
        if len(got) != n:
            raise RuleError(f"outcome.{space}", f"needs {n} cubes, got {len(got)}",
                            key="rule.wrong_cube_count", params={"need": n, "got": len(got)})
        for c in got:
            need[c] = need.get(c, 0) + 1
    for colour, n in need.items():
        if ctx.state.bag.get(colour, 0) < n:
            raise RuleError(f"outcome.{colour}",
                            f"the bag holds {ctx.state.bag.get(colour, 0)} {colour}, drew {n}",
                            key="rule.bag_holds_fewer",
                            params={"have": ctx.state.bag.get(colour, 0), "colour": colour,
                                    "drew": n})


def place(ctx: Ctx, placements: dict[str, list[str]]) -> None:
    st = ctx.state
    for space, cubes in placements.items():
        for c in cubes:
            st.bag[c] -= 1
            st.spaces[space].append(c)
    for space in ctx.comp.names("action_spaces"):
        if placements.get(space):
            ctx.note("put_on_space", space=space,
                     cubes={c: placements[space].count(c) for c in sorted(set(placements[space]))})


def unplace_round(ctx: Ctx) -> None:
    """Redraw: every cube on the board goes back into the bag (no cube was taken yet)."""
    st = ctx.state
    for space, cubes in st.spaces.items():
        for c in cubes:
            st.bag[c] = st.bag.get(c, 0) + 1
        st.spaces[space] = []
