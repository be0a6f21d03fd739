"""The well (rulebook: playing a turn — the well): instead of taking a cube, pay cubes of one
colour (coins may stand in) and act on any action space. In the solo game Karla takes no
cube after it (turns.take_cube, karla.py)."""

from __future__ import annotations

from companion.village.commands import Well
from companion.village.rules.context import Ctx
from companion.village.rules.errors import require
from companion.village.rules.payment import spend_coins
from companion.village.rules.turns import require_turn_start


def well(ctx: Ctx, cmd: Well) -> None:
    st = ctx.state
    require_turn_start(ctx)
    require(st.cubes_on_board() > 0, "well",
            "the well can only be used while at least one cube is on the board",
            key="rule.well_needs_cube_on_board")
    p = st.players[st.current]
    have = p.cubes.get(cmd.colour, 0)
    price = ctx.comp.n("well_cubes")
    require(have + min(cmd.coins, p.coins) >= price and cmd.coins <= price, "colour",
            f"{p.name} needs {price} {cmd.colour} cubes for the well (has {have})",
            key="rule.well_needs_cubes",
            params={"name": p.name, "price": price, "colour": cmd.colour, "have": have})
    from_cubes = price - cmd.coins
    require(from_cubes <= have, "coins", f"{p.name} has only {have} {cmd.colour}",
            key="rule.well_has_only_cubes",
            params={"name": p.name, "have": have, "colour": cmd.colour})
    require(cmd.coins <= p.coins, "coins", f"{p.name} has only {p.coins} coins",
            key="rule.well_has_only_coins", params={"name": p.name, "coins": p.coins})
    p.cubes[cmd.colour] = have - from_cubes
    st.supply[cmd.colour] = st.supply.get(cmd.colour, 0) + from_cubes
    spend_coins(ctx, st.current, cmd.coins)
    st.stage = "act"
    st.space_taken = "well"
    st.action_done = False
    st.turns_taken += 1
    st.round_turns += 1
    ctx.note("well_used_solo" if st.solo else "well_used", player=p.name)
