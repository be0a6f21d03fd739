"""A turn (rulebook: playing a turn): take one cube (the well, the alternative: well.py),
maybe do that space's action, end the turn; in the final turns a free action."""

from __future__ import annotations

from companion.village.commands import EndTurn, FreeAction, TakeCube
from companion.village.rules.context import Ctx
from companion.village.rules.errors import RuleError, require
from companion.village.rules.market import start_market_day
from companion.village.rules.time_track import spend_time
from companion.village.state import PLAGUE


def require_turn_start(ctx: Ctx) -> None:
    """A turn is being played and its cube (or the well) is still to be taken."""
    st = ctx.state
    require(st.phase == "turns", "phase", f"no turn is being played now ({st.phase})",
            key="rule.no_turn_now", params={"phase": st.phase})
    require(st.market_day is None, "phase", "a market day is under way",
            key="rule.market_day_under_way")
    name = st.players[st.current].name
    require(st.stage == "take", "stage",
            f"{name} already took a cube this turn; end the turn first",
            key="rule.cube_already_taken", params={"name": name})


def take_cube(ctx: Ctx, cmd: TakeCube) -> None:
    st = ctx.state
    require_turn_start(ctx)
    cubes = st.spaces.get(cmd.space)
    if cubes is None:
        raise RuleError("space", f"{cmd.space} is not an action space",
                        key="rule.space_not_action_space", params={"space": cmd.space})
    if cmd.colour not in cubes:
        have = ", ".join(sorted(set(cubes))) or "no cubes"
        raise RuleError("colour", f"no {cmd.colour} cube on {cmd.space} (it has {have})",
                        key="rule.no_cube_on_space",
                        params={"colour": cmd.colour, "space": cmd.space})
    cubes.remove(cmd.colour)
    p = st.players[st.current]
    st.stage = "act"
    st.space_taken = cmd.space
    st.action_done = False
    st.last_take_space = cmd.space
    st.last_take_colour = cmd.colour
    st.turns_taken += 1
    st.round_turns += 1
    if cmd.colour == PLAGUE:
        st.supply[PLAGUE] = st.supply.get(PLAGUE, 0) + 1
        ctx.note("plague_taken", player=p.name, space=cmd.space)
        spend_time(ctx, st.current, int(ctx.comp.n("plague_time")))
    else:
        p.cubes[cmd.colour] = p.cubes.get(cmd.colour, 0) + 1
    if cmd.space == "market":
        # The market action is mandatory: the market day starts at once.
        st.action_done = True
        start_market_day(ctx, st.current)
    if st.solo and p.kind == "human":
        # Karla takes after your turn (the rulebook's well note: after the well you play
        # again at once and she takes nothing; its tip: mark the cube she "will take").
        st.karla_due = True


def free_action(ctx: Ctx, _cmd: FreeAction) -> None:
    st = ctx.state
    require_turn_start(ctx)
    require(st.end is not None and st.cubes_on_board() == 0, "free_action",
            "only in the final turns once the board is empty", key="rule.free_action_when")
    st.stage = "act"
    st.space_taken = "free"
    st.action_done = False
    st.turns_taken += 1
    st.round_turns += 1


def end_turn(ctx: Ctx, _cmd: EndTurn) -> None:
    st = ctx.state
    require(st.phase == "turns", "phase", f"no turn is being played now ({st.phase})",
            key="rule.no_turn_now", params={"phase": st.phase})
    require(st.market_day is None, "phase", "finish the market day first",
            key="rule.finish_market_day")
    name = st.players[st.current].name
    require(st.stage == "act", "stage", f"{name} must take a cube (or use the well) first",
            key="rule.take_cube_first", params={"name": name})
    st.stage = "ending"
    karla = ["karla_take"] if st.karla_due and not karla_has_ended_the_game(ctx) else []
    st.karla_due = False
    st.flow[0:0] = ["resolve_deaths", *karla, "advance_turn"]


def karla_has_ended_the_game(ctx: Ctx) -> bool:
    """Karla filled the last chronicle or graveyard space, and the game reads the rulebook
    as giving her no take after that (reading "karla_after_her_game_end"): 「將家族成員放置
    進村莊編年史或公墓最後一格的玩家，不會進行額外的回合。」 and, solo, 「遊戲結束條件不變。」"""
    st = ctx.state
    return (st.karla is not None and st.end is not None
            and st.end.triggered_by == st.karla.player
            and ctx.reading("karla_after_her_game_end") == "no_take")


def check_action(ctx: Ctx, action: str) -> int:
    """The current player may do this action now; returns the player."""
    st = ctx.state
    require(st.phase == "turns", "phase", f"no turn is being played now ({st.phase})",
            key="rule.no_turn_now", params={"phase": st.phase})
    require(st.market_day is None, "phase", "a market day is under way",
            key="rule.market_day_under_way")
    require(st.stage == "act", "stage", "take a cube (or use the well) before acting",
            key="rule.take_before_acting")
    require(not st.action_done, "action", "this turn's action was already done",
            key="rule.action_already_done")
    allowed = st.space_taken in ("well", "free") or st.space_taken == action
    require(allowed, "action",
            f"the cube came from {st.space_taken}: only its action may follow ({action} asked)",
            key="rule.only_cube_action", params={"space": st.space_taken, "action": action})
    return st.current


def mark_action_done(ctx: Ctx) -> None:
    """The turn's one action is done (check_action refuses a second)."""
    ctx.state.action_done = True


def next_human(ctx: Ctx, after: int) -> int:
    st = ctx.state
    n = len(st.players)
    for k in range(1, n + 1):
        cand = (after + k) % n
        if st.players[cand].kind == "human":
            return cand
    return after
