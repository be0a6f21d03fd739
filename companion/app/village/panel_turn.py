"""Whose turn it is, and whether a player may do an action now (mirrors the engine's
check_action so the forms can be disabled with a reason instead of failing on tap)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.app.village.present import term
from companion.village.state import VillageState

if TYPE_CHECKING:
    from companion.app.context import AppContext


def action_block(state: VillageState, player: int, action: str) -> str | None:
    """None when `player` may do `action` now, else the message key saying why not."""
    if state.phase != "turns":
        return "panel.actions.not_turns"
    if state.market_day is not None:
        return "panel.actions.market_day"
    if state.pending:
        return "panel.actions.waiting"
    if state.current != player:
        return "panel.actions.not_your_turn"
    if state.stage != "act":
        return "panel.actions.take_first"
    if state.action_done:
        return "panel.actions.done"
    if state.space_taken not in ("well", "free", action):
        return "panel.actions.other_space"
    return None


def block_text(ctx: AppContext, state: VillageState, key: str) -> str:
    return ctx.t(key, player=state.players[state.current].name,
                 space=term(ctx, "space", state.space_taken or ""))


def turn_line(ctx: AppContext, state: VillageState) -> str:
    """"Round 2 · Ann's turn" (or the phase when no turn is being played)."""
    t = ctx.t
    if state.phase == "turns":
        who = t("panel.turn.whose", player=state.players[state.current].name)
    else:
        who = term(ctx, "phase", state.phase)
    return t("panel.turn.round", round=state.round, what=who)
