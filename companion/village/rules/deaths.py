"""Deaths (rulebook: 家族成員過世 — family members' deaths): the oldest visible member dies
and goes to the chronicle or the graveyard; the last slot filled ends the game
(game_end.py)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.village.locations import GRAVEYARD, REMOVED, chronicle_spot
from companion.village.rules.context import Ctx
from companion.village.rules.errors import RuleError, require
from companion.village.rules.game_end import trigger_end
from companion.village.state import Member, Pending

PLACE_TO_SECTION = {"farmyard": "farm", "workshop": "crafts", "council": "council",
                    "church": "church", "travel": "travel"}


@dataclass(frozen=True)
class Slots:
    """One place the dead go to, a chronicle section or the graveyard, as the board shows
    it: `capacity` slots open in this game, `used` of them taken, `free` left, and `blocked`
    printed slots closed by the player count (000 遊戲設置 7: 如果遊戲人數少於5人，將一個沒被
    選取到顏色的家族成員放進編年史及公墓中以減少可用的空格)."""

    capacity: int
    used: int
    blocked: int

    @property
    def free(self) -> int:
        return self.capacity - self.used


def chronicle_slots(ctx: Ctx) -> dict[str, Slots]:
    """Each chronicle section's slots (see Slots), in the state's section order."""
    st = ctx.state
    printed = ctx.comp.number_lists("chronicle_sections")
    return {section: Slots(capacity=capacity, used=st.chronicle_used(section),
                           blocked=max(0, len(printed.get(section, [])) - capacity))
            for section, capacity in st.chronicle_capacity.items()}


def graveyard_slots(ctx: Ctx) -> Slots:
    """The graveyard's slots (see Slots)."""
    st = ctx.state
    printed = len(ctx.comp.numbers("graveyard_slots"))
    return Slots(capacity=st.graveyard_capacity, used=len(st.members_in(GRAVEYARD)),
                 blocked=max(0, printed - st.graveyard_capacity))


def death_candidates(ctx: Ctx, player: int) -> list[Member]:
    """Members with the lowest generation among the player's visible members."""
    visible = [m for m in ctx.state.members_of(player) if m.visible]
    if not visible:
        return []
    low = min(m.gen for m in visible)
    return sorted((m for m in visible if m.gen == low), key=lambda m: m.id)


def queue_deaths(ctx: Ctx, player: int) -> None:
    """Ask which member dies, once per owed death; with no visible member nobody dies."""
    st = ctx.state
    p = st.players[player]
    while p.deaths_pending > 0:
        if not death_candidates(ctx, player):
            ctx.note("nobody_dies", player=p.name)
            p.deaths_pending = 0
            break
        already = sum(1 for x in st.pending if x.kind == "death" and x.player == player)
        if already >= p.deaths_pending:
            break
        st.pending.append(Pending(kind="death", player=player))


def choose_death(ctx: Ctx, member_id: str) -> None:
    st = ctx.state
    require(bool(st.pending) and st.pending[0].kind == "death", "member",
            "no death is waiting to be decided", key="rule.no_death_waiting")
    player = st.pending[0].player
    assert player is not None
    candidates = death_candidates(ctx, player)
    require(any(m.id == member_id for m in candidates), "member",
            f"{member_id} is not among the oldest visible members "
            f"({', '.join(m.id for m in candidates)})",
            key="rule.not_oldest_member",
            params={"member": member_id, "candidates": ", ".join(m.id for m in candidates)})
    answered = st.pending.pop(0)
    member = st.members[member_id]
    section = PLACE_TO_SECTION[member.place]
    st.players[player].deaths_pending -= 1
    bury(ctx, member, section, market_trigger=answered.detail.market_trigger)


def bury(ctx: Ctx, member: Member, section: str | None, *,
         market_trigger: int | None = None) -> str:
    """Place a dead member; returns where it went. `section` None means the graveyard.

    `market_trigger`: who held the market day this death was owed in, when that market day
    is already over (its last sale emptied the market before the death was answered)."""
    st = ctx.state
    name = st.players[member.owner].name
    final_rule = str(ctx.comp.text("final_turn_death"))
    # 2011: 「최종액션 중 죽게 되는 가족원은 단순히 게임에서 제거한다」 — only a death in the final
    # turns themselves (they start once the end's own turn is over: order_set). Games
    # started before rules version 2 removed every death after the end was triggered.
    in_final_turns = st.end is not None and (st.end.order_set or ctx.rules_version < 2)
    if in_final_turns and final_rule == "removed":
        member.loc = REMOVED
        ctx.note("removed_final", player=name, gen=member.gen)
        return "removed"
    if section is not None and st.chronicle_free(section) > 0:
        member.loc = chronicle_spot(section)
        ctx.note("to_chronicle", player=name, gen=member.gen, section=section)
        if st.chronicle_total_free() == 0:
            trigger_end(ctx, member.owner, "chronicle", market_trigger=market_trigger)
        return member.loc
    if st.graveyard_free() > 0:
        member.loc = GRAVEYARD
        ctx.note("to_graveyard", player=name, gen=member.gen)
        if st.graveyard_free() == 0:
            trigger_end(ctx, member.owner, "graveyard", market_trigger=market_trigger)
        return "graveyard"
    member.loc = REMOVED
    ctx.note("removed_no_slot", player=name, gen=member.gen)
    return "removed"


def validate_member(ctx: Ctx, member_id: str, player: int, field: str = "member",
                    place: str | None = None) -> Member:
    member = ctx.state.members.get(member_id)
    if member is None or member.owner != player:
        raise RuleError(field, f"{member_id} is not one of {ctx.state.players[player].name}'s "
                        "members",
                        key="rule.not_players_member",
                        params={"member": member_id, "name": ctx.state.players[player].name})
    if place is not None and member.place != place:
        raise RuleError(field, f"{member_id} is not on the {place} (it is at {member.loc})",
                        key="rule.member_not_there",
                        params={"member": member_id, "place": place, "loc": member.loc})
    return member
