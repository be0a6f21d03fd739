"""Plain words for what the table shows: where a member is, where a dead one would go,
what the current player should do now. Game terms come from the term catalogue."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.app.village.present import term
from companion.village.components import ComponentData
from companion.village.read import Reader
from companion.village.state import Member, VillageState

if TYPE_CHECKING:
    from companion.app.context import AppContext


def player_name(ctx: AppContext, state: VillageState, index: int | None) -> str:
    if index is None or not 0 <= index < len(state.players):
        return "?"
    player = state.players[index]
    return ctx.t("village.karla") if player.kind == "karla" else player.name


def space_name(ctx: AppContext, space: str) -> str:
    return term(ctx, "space", space)


def cubes_text(ctx: AppContext, cubes: list[str]) -> str:
    """["green", "plague", "green"] -> "2 green, 1 plague" in the app's language."""
    order = sorted(set(cubes), key=lambda c: (c == "plague", c))
    return ctx.t("village.list_sep").join(
        ctx.t("village.cubes.item", count=cubes.count(c), colour=term(ctx, "colour", c))
        for c in order)


def loc_text(ctx: AppContext, loc: str) -> str:
    """A member's location ("council:3", "workshop:smithy" ...) in words."""
    place, _, rest = loc.partition(":")
    if place == "farmyard":
        return ctx.t("village.loc.farmyard")
    if place == "workshop":
        return ctx.t("village.loc.workshop", building=term(ctx, "building", rest))
    if place == "council":
        return ctx.t("village.loc.council", level=rest)
    if place == "church":
        return ctx.t("village.loc.church", level=rest)
    if place == "travel":
        return ctx.t("village.loc.travel", city=rest)
    if place == "chronicle":
        return ctx.t("village.loc.chronicle", section=term(ctx, "section", rest))
    if place == "graveyard":
        return ctx.t("village.loc.graveyard")
    if place == "bag":
        return ctx.t("village.loc.bag")
    if place == "supply":
        return ctx.t("village.loc.supply")
    if place == "removed":
        return ctx.t("village.loc.removed")
    if place == "karla":
        return ctx.t("village.loc.karla_building" if rest == "building"
                     else "village.loc.karla_side")
    return loc


def member_text(ctx: AppContext, state: VillageState, member_id: str) -> str:
    member = state.members.get(member_id)
    if member is None:
        return member_id
    return ctx.t("village.member", player=player_name(ctx, state, member.owner),
                 gen=member.gen)


def death_destination(ctx: AppContext, state: VillageState, comp: ComponentData,
                      member: Member) -> str:
    """Where `member` would go if chosen for the waiting death: the engine's own answer
    (the choice tried on a copy), with the slots left there."""
    result = Reader(state, comp).death_result(member.id)
    if result is None or result.loc == "removed":
        final = state.end is not None and str(comp.text("final_turn_death")) == "removed"
        return ctx.t("village.death.removed_final" if final else "village.death.removed")
    place, _, section = result.loc.partition(":")
    if place == "chronicle":
        free = state.chronicle_free(section)
        text = ctx.tn("village.death.to_chronicle", free, section=term(ctx, "section", section),
                      free=free)
    else:
        free = state.graveyard_free()
        text = ctx.tn("village.death.to_graveyard", free, free=free)
    return text + (" " + ctx.t("village.death.ends_game") if result.ends_game else "")


def stage_text(ctx: AppContext, state: VillageState, comp: ComponentData) -> str:
    """What the table should do now, in one plain sentence."""
    name = player_name(ctx, state, state.current)
    if state.phase == "finished":
        return ctx.t("village.stage.finished")
    if state.phase == "scoring":
        return ctx.t("village.stage.scoring")
    if state.phase in ("mass_buyout", "mass_advance"):
        return ctx.t("village.stage.mass")
    if state.pending:
        return ctx.t("village.stage.pending")
    if state.market_day is not None:
        return ctx.t("village.stage.market")
    if state.stage == "take":
        if Reader(state, comp).free_action_open():  # a final turn on an empty board
            return ctx.t("village.stage.free", player=name)
        return ctx.t("village.stage.take", player=name)
    if state.stage == "act":
        taken = state.space_taken
        if taken in ("well", "free") or taken is None:
            return ctx.t("village.stage.act_any", player=name)
        if state.action_done:
            return ctx.t("village.stage.act_done", player=name)
        return ctx.t("village.stage.act", player=name, space=space_name(ctx, taken))
    return ctx.t("village.stage.ending", player=name)
