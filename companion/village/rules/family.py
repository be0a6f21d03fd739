"""Family (rulebook: the action spaces — Family): a birth brings the youngest waiting member
from the supply to the farmyard; a recall brings a member employed on the board home."""

from __future__ import annotations

from companion.village.commands import FamilyBirth, FamilyRecall
from companion.village.locations import FARMYARD
from companion.village.rules.context import Ctx
from companion.village.rules.deaths import validate_member
from companion.village.rules.errors import require
from companion.village.rules.turns import check_action, mark_action_done

BOARD_PLACES_FOR_RECALL = ("workshop", "council", "church", "travel")


def family_birth(ctx: Ctx, _cmd: FamilyBirth) -> None:
    player = check_action(ctx, "family")
    st = ctx.state
    waiting = st.members_at("supply", player)
    require(bool(waiting), "family", f"{st.players[player].name} has no member left in the supply",
            key="rule.no_member_in_supply", params={"name": st.players[player].name})
    newborn = min(waiting, key=lambda m: (m.gen, m.id))
    newborn.loc = FARMYARD
    ctx.note("born", player=st.players[player].name, gen=newborn.gen)
    mark_action_done(ctx)


def family_recall(ctx: Ctx, cmd: FamilyRecall) -> None:
    player = check_action(ctx, "family")
    member = validate_member(ctx, cmd.member, player)
    require(member.place in BOARD_PLACES_FOR_RECALL, "member",
            f"{cmd.member} is not employed on the board (it is at {member.loc})",
            key="rule.member_not_employed", params={"member": cmd.member, "loc": member.loc})
    member.loc = FARMYARD
    mark_action_done(ctx)
