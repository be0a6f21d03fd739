"""Harvest (rulebook: the action spaces — Harvest): a member on the farmyard brings grain;
how much depends on the player's draught animal and plough."""

from __future__ import annotations

from companion.village.commands import Harvest
from companion.village.rules.context import Ctx
from companion.village.rules.errors import require
from companion.village.rules.payment import gain_grain
from companion.village.rules.turns import check_action, mark_action_done


def harvest(ctx: Ctx, _cmd: Harvest) -> None:
    player = check_action(ctx, "harvest")
    st = ctx.state
    p = st.players[player]
    require(bool(st.members_at("farmyard", player)), "harvest",
            f"{p.name} needs a member on the farmyard to harvest",
            key="rule.harvest_needs_member", params={"name": p.name})
    gain_grain(ctx, player, harvest_amount(ctx, player))
    mark_action_done(ctx)


def harvest_amount(ctx: Ctx, player: int) -> int:
    """2 grain; 3 with a horse and a plough; 4 with an ox and a plough (one combination)."""
    table = ctx.comp.counts("harvest_grain")
    goods = ctx.state.players[player].goods
    if goods.get("ox", 0) and goods.get("plough", 0):
        return int(table["ox_plough"])
    if goods.get("horse", 0) and goods.get("plough", 0):
        return int(table["horse_plough"])
    return int(table["base"])
